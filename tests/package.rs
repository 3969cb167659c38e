//! `referee package` writes Kattis problem packages that Kattis problemtools accepts, and
//! `referee verify` checks packages, their invalid inputs and their sample outputs included.
//!
//! The problemtools test needs `verifyproblem`: the path in `REFEREE_VERIFYPROBLEM` (as
//! `.ci/run` sets it after installing problemtools in a virtual environment). Without it the
//! test says it was skipped, and fails instead when `REFEREE_REQUIRE_TOOLS` is set.

use std::path::{Path, PathBuf};
use std::process::Command as Process;

use assert_cmd::Command;

fn referee() -> Command {
    Command::cargo_bin("referee").unwrap()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("referee-package-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn package(game: &str, rules: Option<&str>, out: &Path) {
    let mut cmd = referee();
    cmd.args(["package", game, "--cases", "12", "--out"])
        .arg(out);
    if let Some(r) = rules {
        cmd.args(["--rules", r]);
    }
    cmd.assert().success();
}

fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    out.sort();
    out
}

#[test]
fn a_package_holds_valid_inputs_with_the_engines_answers() {
    let dir = scratch("layout");
    let out = dir.join("pousseicfp98");
    package("pousse", Some("icfp98"), &out);
    for part in [
        "problem.yaml",
        "statement/problem.en.md",
        "data/testdata.yaml",
        "input_validators/referee/run",
        "input_validators/referee/build",
        "output_validator/referee/run",
        "submissions/accepted/pousse.c",
        "submissions/wrong_answer/mover_only.c",
    ] {
        assert!(out.join(part).is_file(), "{part}");
    }
    let yaml = std::fs::read_to_string(out.join("problem.yaml")).unwrap();
    assert!(
        yaml.contains("problem_format_version: 2023-07-draft"),
        "{yaml}"
    );
    let testdata = std::fs::read_to_string(out.join("data/testdata.yaml")).unwrap();
    assert_eq!(testdata, "output_validator_flags: rules=icfp98\n");
    let solution = std::fs::read_to_string(out.join("submissions/accepted/pousse.c")).unwrap();
    assert!(solution.starts_with("#define RULES_ICFP98\n"));
    let secret = files(&out.join("data/secret"), "in");
    assert!(secret.len() >= 12 + 10, "{}", secret.len());
    let mut seen = std::collections::HashSet::new();
    for input in files(&out.join("data/sample"), "in").iter().chain(&secret) {
        assert!(
            seen.insert(std::fs::read(input).unwrap()),
            "{input:?} repeats a case"
        );
        referee()
            .args([
                "validate",
                "pousse",
                "--rules",
                "icfp98",
                "--constraints",
                "contest",
            ])
            .arg(input)
            .assert()
            .code(42);
        let answer = std::fs::read_to_string(input.with_extension("ans")).unwrap();
        let judged = referee()
            .args(["judge", "pousse", "--rules", "icfp98"])
            .arg(input)
            .output()
            .unwrap();
        assert_eq!(
            String::from_utf8(judged.stdout).unwrap(),
            answer,
            "{input:?}"
        );
    }
    // The validators run the referee beside them.
    let run = out.join("input_validators/referee/run");
    let valid = Process::new(&run)
        .stdin(std::fs::File::open(&secret[0]).unwrap())
        .status()
        .unwrap();
    assert_eq!(valid.code(), Some(42));
}

#[test]
fn packages_are_replaced_whole_and_other_directories_are_refused() {
    let dir = scratch("replace");
    let out = dir.join("littlesquares");
    package("littlesquares", None, &out);
    // A package referee wrote is replaced as a whole.
    package("littlesquares", None, &out);
    assert!(out.join("referee-files.txt").is_file());
    // A file referee did not write is never deleted unasked: the run is refused, naming it.
    std::fs::write(out.join("data/secret/mine.in"), "..\n..\n").unwrap();
    referee()
        .args(["package", "littlesquares", "--out"])
        .arg(&out)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("data/secret/mine.in"))
        .stderr(predicates::str::contains("--force"));
    assert!(out.join("data/secret/mine.in").exists());
    referee()
        .args(["package", "littlesquares", "--force", "--out"])
        .arg(&out)
        .assert()
        .code(0);
    assert!(!out.join("data/secret/mine.in").exists());
    // A directory that looks like a package but holds someone's files.
    let other = dir.join("notes");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::write(other.join("problem.yaml"), "name: mine\n").unwrap();
    std::fs::write(other.join("precious.txt"), "mine").unwrap();
    referee()
        .args(["package", "littlesquares", "--out"])
        .arg(&other)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("which referee did not write"));
    assert!(other.join("precious.txt").exists());
    referee()
        .args(["package", "littlesquares", "--out"])
        .arg(dir.join("little-squares"))
        .assert()
        .code(2)
        .stderr(predicates::str::contains("lowercase letters and digits"));
}

#[test]
fn verify_checks_a_packages_invalid_inputs_and_outputs_under_its_rule_set() {
    let dir = scratch("verify");
    let out = dir.join("pousseicfp98");
    package("pousse", Some("icfp98"), &out);
    let data = out.join("data");
    for sub in ["invalid_input", "valid_output", "invalid_output"] {
        std::fs::create_dir_all(data.join(sub)).unwrap();
    }
    std::fs::write(data.join("invalid_input/too-large.in"), "101\nQUIT\n").unwrap();
    std::fs::write(
        data.join("invalid_input/trailing-space.in"),
        "3\nL1 \nQUIT\n",
    )
    .unwrap();
    // Under icfp98 this game is X WINS by repetition (a tie under waterloo).
    for (sub, output) in [
        ("valid_output", "X WINS \n"),
        ("invalid_output", "TIE GAME\n"),
    ] {
        std::fs::write(data.join(sub).join("r.in"), "2\nR1\nR1\nR1\nR1\nQUIT\n").unwrap();
        std::fs::write(data.join(sub).join("r.ans"), "X WINS\n").unwrap();
        std::fs::write(data.join(sub).join("r.out"), output).unwrap();
    }
    let reports = dir.join("reports");
    referee()
        .args(["verify", "--out"])
        .arg(&reports)
        .arg(&out)
        .assert()
        .code(0);
    let verdicts = std::fs::read_to_string(reports.join("verdicts.csv")).unwrap();
    for needle in [
        "invalid_input/too-large.in,,pousse,icfp98,,,,ok",
        "invalid_input/trailing-space.in,,pousse,icfp98,,,,ok",
        "valid_output/r.out,,pousse,icfp98,,,,ok",
        "invalid_output/r.out,,pousse,icfp98,,,,ok",
    ] {
        assert!(verdicts.contains(needle), "{needle}\n{verdicts}");
    }
    // An invalid input the validator accepts, and an invalid output it accepts, are problems.
    std::fs::write(data.join("invalid_input/fine.in"), "3\nL1\nQUIT\n").unwrap();
    std::fs::write(data.join("invalid_output/r.out"), "X WINS\n").unwrap();
    referee()
        .args(["verify", "--out"])
        .arg(&reports)
        .arg(&out)
        .assert()
        .code(1);
    let problems = std::fs::read_to_string(reports.join("mismatches.csv")).unwrap();
    assert!(problems.contains("invalid_input/fine.in"), "{problems}");
    assert!(
        problems.contains("the output validator accepts this output"),
        "{problems}"
    );
}

#[test]
fn problemtools_accepts_the_package_of_every_game() {
    let Some(verifyproblem) = std::env::var_os("REFEREE_VERIFYPROBLEM") else {
        assert!(
            std::env::var_os("REFEREE_REQUIRE_TOOLS").is_none(),
            "REFEREE_VERIFYPROBLEM is not set (.ci/run installs problemtools)"
        );
        eprintln!("SKIPPED problemtools_accepts_the_package_of_every_game: set REFEREE_VERIFYPROBLEM to Kattis problemtools' verifyproblem");
        return;
    };
    let dir = scratch("problemtools");
    for (game, rules, name) in [
        ("pousse", None, "pousse"),
        ("pousse", Some("icfp98"), "pousseicfp98"),
        ("littlesquares", None, "littlesquares"),
        ("somegame", None, "somegame"),
    ] {
        let out = dir.join(name);
        package(game, rules, &out);
        let run = Process::new(&verifyproblem).arg(&out).output().unwrap();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&run.stdout),
            String::from_utf8_lossy(&run.stderr)
        );
        assert!(text.contains(&format!("{name} tested: 0 errors")), "{text}");
        assert!(!text.contains("No validator rejects"), "{text}");
        assert!(!text.contains("gets AC"), "{text}");
        assert!(
            text.contains("OK: WA"),
            "the wrong answer is caught\n{text}"
        );
        assert!(run.status.success(), "{text}");
    }
}
