//! `referee package` writes Kattis problem packages that Kattis problemtools accepts, and
//! `referee verify` checks packages, their invalid inputs and their sample outputs included.
//!
//! The problemtools test needs `verifyproblem`: the path in `REFEREE_VERIFYPROBLEM` (as
//! `.ci/run` sets it after installing problemtools in a virtual environment). Without it the
//! test says it was skipped, and fails instead when `REFEREE_REQUIRE_TOOLS` is set.

mod programs;

use std::path::{Path, PathBuf};
use std::process::Command as Process;

use crate::common::command::referee;
use crate::common::scratch;
use crate::common::tool;

/// `referee package GAME [--rules RULES] --cases 12 --out OUT`, which must succeed.
fn referee_package(game: &str, rules: Option<&str>, out: &Path) {
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
    let (_scratch, dir) = scratch::scratch("layout");
    let out = dir.join("pousseicfp98");
    referee_package("pousse", Some("icfp98"), &out);
    for part in [
        "problem.yaml",
        "statement/problem.en.tex",
        "data/test_group.yaml",
        "generators/generators.yaml",
        "generators/referee/build",
        "input_validators/referee/build",
        "answer_validators/referee/build",
        "output_validator/build",
        "submissions/accepted/pousse.c",
        "submissions/wrong_answer/mover_only.c",
    ] {
        assert!(out.join(part).is_file(), "{part}");
    }
    let yaml = std::fs::read_to_string(out.join("problem.yaml")).unwrap();
    assert!(
        yaml.starts_with("problem_format_version: 2025-09\n"),
        "{yaml}"
    );
    let test_group = std::fs::read_to_string(out.join("data/test_group.yaml")).unwrap();
    assert_eq!(
        test_group,
        "output_validator_args: [\"rules=icfp98\", \"case_sensitive\", \"space_change_sensitive\"]\n"
    );
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
    // The validators, built with referee on PATH, run it.
    let validator = out.join("input_validators/referee");
    assert_eq!(build(&validator, &[]).status.code(), Some(0));
    let valid = Process::new(validator.join("run"))
        .stdin(std::fs::File::open(&secret[0]).unwrap())
        .status()
        .unwrap();
    assert_eq!(valid.code(), Some(42));
}

/// Every case of a package is the `referee gen` call its generators.yaml names, with the seed
/// BAPCtools derives from the rule: `bt generate` remakes the data byte for byte.
#[test]
fn every_case_is_the_generator_call_its_rule_names() {
    let (_scratch, dir) = scratch::scratch("rules");
    for (game, name) in [
        ("pousse", "pousse"),
        ("littlesquares", "littlesquares"),
        ("somegame", "somegame"),
    ] {
        let out = dir.join(name);
        let mut cmd = referee();
        cmd.args(["package", game, "--cases", "6", "--seed", "11", "--out"])
            .arg(&out);
        cmd.assert().success();
        let yaml = std::fs::read_to_string(out.join("generators/generators.yaml")).unwrap();
        assert!(yaml.contains("random_salt: \"11\"\n"), "{yaml}");
        let mut rules = 0;
        let mut group = "";
        for line in yaml.lines() {
            match line.trim() {
                "sample:" => group = "sample",
                "secret:" => group = "secret",
                _ => {}
            }
            let Some((case, command)) = line.trim().split_once(": \"referee ") else {
                continue;
            };
            let case = case.trim_matches('"');
            let command = format!("referee {}", command.trim_end_matches('"'));
            let seed = referee::package::cases::bapctools_seed("11", &command);
            let args: Vec<String> = command
                .split_whitespace()
                .skip(1)
                .map(|a| a.replace("{seed}", &seed.to_string()))
                .collect();
            let answer = dir.join(format!("{name}-{case}.ans"));
            let made = referee()
                .args(["gen", game, "--contest", "--answer"])
                .arg(&answer)
                .args(&args)
                .output()
                .unwrap();
            assert!(made.status.success(), "{case}: {command}");
            let shipped = out.join("data").join(group).join(case);
            assert_eq!(
                made.stdout,
                std::fs::read(shipped.with_extension("in")).unwrap(),
                "{case}: {command}"
            );
            assert_eq!(
                std::fs::read(&answer).unwrap(),
                std::fs::read(shipped.with_extension("ans")).unwrap(),
                "{case}"
            );
            rules += 1;
        }
        let cases = files(&out.join("data/sample"), "in").len()
            + files(&out.join("data/secret"), "in").len();
        assert_eq!(rules, cases, "{game}: every case has its rule");
    }
}

/// What each format version holds, and where.
#[test]
fn each_format_version_has_its_layout() {
    let (_scratch, dir) = scratch::scratch("versions");
    for (version, present, absent, first_line) in [
        (
            "2025-09",
            &[
                "statement/problem.en.tex",
                "data/test_group.yaml",
                "output_validator/build",
                "answer_validators/referee/build",
                "generators/generators.yaml",
            ][..],
            &["data/testdata.yaml", "output_validator/referee/build"][..],
            "problem_format_version: 2025-09",
        ),
        (
            "2023-07-draft",
            &[
                "statement/problem.en.md",
                "data/testdata.yaml",
                "output_validator/referee/build",
            ][..],
            &[
                "data/test_group.yaml",
                "answer_validators",
                "generators",
                "statement/problem.en.tex",
            ][..],
            "problem_format_version: 2023-07-draft",
        ),
        (
            "legacy",
            &[
                "problem_statement/problem.en.tex",
                "output_validators/referee/build",
                "input_validators/referee/build",
            ][..],
            &[
                "statement",
                "data/testdata.yaml",
                "output_validator",
                "generators",
            ][..],
            "problem_format_version: legacy",
        ),
    ] {
        let out = dir.join(version.replace('-', "")).join("littlesquares");
        referee()
            .args([
                "package",
                "littlesquares",
                "--cases",
                "3",
                "--format-version",
                version,
            ])
            .arg("--out")
            .arg(&out)
            .assert()
            .success();
        for part in present {
            assert!(out.join(part).exists(), "{version}: {part}");
        }
        for part in absent {
            assert!(!out.join(part).exists(), "{version}: {part}");
        }
        let yaml = std::fs::read_to_string(out.join("problem.yaml")).unwrap();
        assert_eq!(yaml.lines().next(), Some(first_line), "{yaml}");
        if version == "legacy" {
            assert!(
                yaml.contains(
                    "validation: custom\nvalidator_flags: \"case_sensitive space_change_sensitive\"\n"
                ),
                "{yaml}"
            );
        }
        if version == "2023-07-draft" {
            let flags = std::fs::read_to_string(out.join("data/testdata.yaml")).unwrap();
            assert_eq!(
                flags,
                "output_validator_flags: case_sensitive space_change_sensitive\n"
            );
        }
    }
    let tex =
        std::fs::read_to_string(dir.join("202509/littlesquares/statement/problem.en.tex")).unwrap();
    assert!(tex.starts_with("\\problemname{Little Squares}\n"), "{tex}");
    assert!(
        tex.contains("\\begin{Input}") && tex.contains("\\end{Output}"),
        "{tex}"
    );
    assert!(tex.contains("(\\texttt{\\#})"), "{tex}");
}

/// Writes the shell script `text` to `path`, executable.
fn script(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap();
    std::fs::set_permissions(path, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
}

/// Runs a program's `build` in a copy of its directory (as judge systems do) with `env`, with
/// no referee on PATH unless `env` puts one there.
fn build(program: &Path, env: &[(&str, &str)]) -> std::process::Output {
    let mut cmd = Process::new(program.join("build"));
    cmd.current_dir(program).env_clear().env("HOME", program);
    let mut path = false;
    for (k, v) in env {
        cmd.env(k, v);
        path |= *k == "PATH";
    }
    if !path {
        let bin = crate::common::command::referee_path().parent().unwrap();
        cmd.env("PATH", format!("{}:/usr/bin:/bin", bin.display()));
    }
    cmd.output().unwrap()
}

/// A program's `build` finds referee, or says how to get it: on PATH, in $REFEREE, bundled,
/// built once from a source into a cache; never another version.
#[test]
fn packages_are_replaced_whole_and_other_directories_are_refused() {
    let refused = |out: &Path, says: &str| {
        referee()
            .args(["package", "littlesquares", "--out"])
            .arg(out)
            .assert()
            .code(2)
            .stderr(predicates::str::contains(says))
    };
    let (_scratch, dir) = scratch::scratch("replace");
    let out = dir.join("littlesquares");
    referee_package("littlesquares", None, &out);
    // A package referee wrote is replaced as a whole.
    referee_package("littlesquares", None, &out);
    assert!(out.join("referee-files.txt").is_file());
    // A file referee did not write is never deleted unasked: the run is refused, naming it.
    std::fs::write(out.join("data/secret/mine.in"), "..\n..\n").unwrap();
    refused(&out, "data/secret/mine.in").stderr(predicates::str::contains("--force"));
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
    refused(&other, "which referee did not write");
    assert!(other.join("precious.txt").exists());
    refused(&dir.join("little-squares"), "lowercase letters and digits");
    // A symbolic link to that directory: refused, named, the directory untouched.
    #[cfg(unix)]
    {
        let link = dir.join("linked");
        std::os::unix::fs::symlink(&other, &link).unwrap();
        refused(&link, "linked: is a symbolic link");
        assert!(other.join("precious.txt").exists());
    }
    // A file, with --force: replaced by the package, no staging directory left behind.
    let file = dir.join("afile");
    std::fs::write(&file, "hi\n").unwrap();
    refused(&file, "afile: is a file");
    referee()
        .args(["package", "littlesquares", "--force", "--out"])
        .arg(&file)
        .assert()
        .code(0);
    assert!(file.join("referee-files.txt").is_file());
    let staging: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.contains(".tmp-"))
        .collect();
    assert!(staging.is_empty(), "{staging:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn verify_checks_a_packages_invalid_inputs_and_outputs_under_its_rule_set() {
    let (_scratch, dir) = scratch::scratch("verify");
    let out = dir.join("pousseicfp98");
    referee_package("pousse", Some("icfp98"), &out);
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
    // Under icfp98 this game is X WINS by repetition (a tie under waterloo). The package's
    // validator arguments ask for the output byte for byte: a trailing space is rejected.
    for (sub, output) in [
        ("valid_output", "X WINS\n"),
        ("invalid_output", "TIE GAME\n"),
    ] {
        std::fs::write(data.join(sub).join("r.in"), "2\nR1\nR1\nR1\nR1\nQUIT\n").unwrap();
        std::fs::write(data.join(sub).join("r.ans"), "X WINS\n").unwrap();
        std::fs::write(data.join(sub).join("r.out"), output).unwrap();
    }
    for (ext, text) in [
        ("in", "2\nR1\nR1\nR1\nR1\nQUIT\n"),
        ("ans", "X WINS\n"),
        ("out", "X WINS \n"),
    ] {
        std::fs::write(
            data.join("invalid_output").join(format!("space.{ext}")),
            text,
        )
        .unwrap();
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
        "invalid_output/space.out,,pousse,icfp98,,,,ok",
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
#[ignore = "runs problemtools' verifyproblem: REFEREE_VERIFYPROBLEM set (scripts/ci/problemtools.sh), cargo test -- --include-ignored (.ci/run does)"]
fn problemtools_accepts_the_package_of_every_game() {
    let Some(verifyproblem) = tool::from_env(
        "REFEREE_VERIFYPROBLEM",
        "Kattis problemtools' verifyproblem, installed by scripts/ci/problemtools.sh",
    ) else {
        return;
    };
    let (_scratch, dir) = scratch::scratch("problemtools");
    let bin = crate::common::command::referee_path().parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for (game, rules, name, version) in [
        ("pousse", None, "pousse", "2023-07-draft"),
        ("pousse", Some("icfp98"), "pousseicfp98", "legacy"),
        ("littlesquares", None, "littlesquares", "2023-07-draft"),
        ("littlesquares", None, "littlesquares", "legacy"),
        ("somegame", None, "somegame", "2023-07-draft"),
        ("somegame", None, "somegame", "legacy"),
    ] {
        // problemtools 1.20260907 reads legacy and 2023-07-draft (not 2025-09).
        let out = dir.join(version).join(name);
        let mut cmd = referee();
        cmd.args([
            "package",
            game,
            "--cases",
            "12",
            "--format-version",
            version,
            "--out",
        ])
        .arg(&out);
        if let Some(r) = rules {
            cmd.args(["--rules", r]);
        }
        cmd.assert().success();
        let run = Process::new(&verifyproblem)
            .arg(&out)
            .env("PATH", &path)
            .output()
            .unwrap();
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

/// `dmoj-cli test` on the DMOJ problem of each game as written: every test of its `init.yml`
/// passes (the accepted submission accepted on every case, the wrong one given its class, `WA`,
/// on some), the checker's feedback is referee's message, and the first case the wrong
/// submission fails is the first file `referee audit --package` finds it failing in the Kattis
/// package of the same cases.
#[test]
#[ignore = "runs DMOJ's judge: REFEREE_DMOJ set (scripts/ci/dmoj.sh), cargo test -- --include-ignored (.ci/run does)"]
fn dmoj_judges_each_games_problem_as_written() {
    let Some(dmoj) = crate::common::dmoj::cli() else {
        return;
    };
    // The audit below builds the submissions where the programs' user can reach them.
    let dir = crate::common::scratch::reachable();
    let problems = dir.path().join("problems");
    for game in ["pousse", "littlesquares", "somegame"] {
        let problem = problems.join(game);
        referee()
            .args(["package", game, "--system", "dmoj", "--cases", "6", "--out"])
            .arg(&problem)
            .assert()
            .success();
        let (said, run) = crate::common::dmoj::test(&dmoj, dir.path(), game);
        assert_eq!(run.status.code(), Some(0), "{game}: {said}");
        assert!(said.contains("All tests passed."), "{game}: {said}");
        // The wrong submission's section: its first WA, with referee's message.
        let wrong = &said[said.find("Running test submissions/wrong_answer/").unwrap()..];
        let first_wa = wrong
            .lines()
            .find(|l| l.contains(" WA ["))
            .unwrap_or_else(|| panic!("{game}: no WA\n{said}"));
        assert!(first_wa.contains("(wrong answer case "), "{first_wa}");
        let position: usize = first_wa
            .trim()
            .strip_prefix("Test case")
            .unwrap()
            .split_whitespace()
            .next()
            .unwrap()
            .parse()
            .unwrap();
        let init = std::fs::read_to_string(problem.join("init.yml")).unwrap();
        let case = init
            .lines()
            .filter_map(|l| l.strip_prefix("- {in: "))
            .nth(position - 1)
            .unwrap()
            .split(".in,")
            .next()
            .unwrap()
            .to_string();
        // The same cases as a Kattis package, audited.
        let kattis = dir.path().join("kattis").join(game);
        referee()
            .args(["package", game, "--cases", "6", "--out"])
            .arg(&kattis)
            .assert()
            .success();
        let audited = dir.path().join("audited").join(game);
        let audit = referee()
            .args(["audit", game, "--cases", "10", "--package"])
            .arg(&kattis)
            .arg("--out")
            .arg(&audited)
            .output()
            .unwrap();
        assert_eq!(audit.status.code(), Some(0), "{game}");
        let programs = std::fs::read_to_string(audited.join("programs.csv")).unwrap();
        let (group, name) = case.split_once('-').unwrap();
        let file = format!("data/{group}/{name}.in");
        let wrong_row = programs
            .lines()
            .find(|l| l.starts_with("wrong_answer/"))
            .unwrap();
        assert!(
            wrong_row.contains(&format!("wrong_answer on {}/{file} ", kattis.display())),
            "{game}: DMOJ's first WA is {file}; audit says {wrong_row}"
        );
    }
}
