//! `audit --add-to`: a package changed at the end of a complete audit, at once, or not at all;
//! what it cannot change refused before any work.

use super::*;
use common::command::{files_of, referee_process};
use common::package::Package;
use common::programs::build;

/// A small package: the statement's example, two generated files, and `problem_yaml`.
fn package(dir: &Path, name: &str, problem_yaml: &str) -> PathBuf {
    let package = Package::at(dir.join(name))
        .problem_yaml(problem_yaml)
        .file("data/sample/001.in", "4\nL2\nT2\nL2\nB2\nR2\nQUIT\n")
        .done();
    let made = referee_process()
        .args(["gen", "pousse", "--count", "2", "--seed", "3", "--n", "3"])
        .args(["--moves", "6", "--out"])
        .arg(package.join("data/secret"))
        .output()
        .unwrap();
    assert!(made.status.success(), "{}", stderr(&made));
    package
}

/// `referee audit pousse` of the programs of `table` on `package`'s data, adding to it, into
/// `out`, with `more` arguments.
fn add_to(table: &Path, package: &Path, out: &Path, more: &[&str]) -> std::process::Command {
    let mut command = referee_process();
    command
        .args(["audit", "pousse", "--programs"])
        .arg(table)
        .arg("--inputs")
        .arg(package.join("data"))
        .arg("--add-to")
        .arg(package)
        .arg("--out")
        .arg(out)
        .args(["--seed", "1", "--batch", "20"])
        .args(more);
    command
}

/// The entries of `dir` whose names start with `.`: copies left beside a package.
fn hidden(dir: &Path) -> Vec<String> {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect()
}

/// The correct judge and one with a planted bug built in `d`, and a `--programs` table of
/// them (`accepted`, `wrong_answer`): the correct one's command, the table.
fn good_and_planted(d: &Path) -> (String, PathBuf) {
    let good = build(d, "pousse.c", &[], "good");
    let planted = build(d, "pousse.c", &["-DPLANT_MOVER_ONLY"], "planted");
    let table = d.join("programs.csv");
    fs::write(
        &table,
        format!("name,command,expected\ngood,{good},accepted\nplanted,{planted},wrong_answer\n"),
    )
    .unwrap();
    (good, table)
}

const PROBLEM_YAML: &str =
    "problem_format_version: 2025-09\r\nname: x\r\nlimits:\r\n  memory: 512   # MiB\r\n";

#[test]
fn a_package_is_changed_once_the_audit_is_complete_and_only_then() {
    let dir = common::scratch::reachable();
    let d = dir.path();
    let (good, table) = good_and_planted(d);
    // Nothing to add (the correct program alone, no repeated runs): nothing changes, not even
    // the generators.
    let quiet = package(d, "quiet", PROBLEM_YAML);
    fs::create_dir_all(quiet.join("generators")).unwrap();
    let generators = "data:\n  sample:\n    data:\n  secret:\n    data:\n      \"001\": \"x\"\n";
    fs::write(quiet.join("generators/generators.yaml"), generators).unwrap();
    let alone = d.join("alone.csv");
    fs::write(
        &alone,
        format!("name,command,expected\ngood,{good},accepted\n"),
    )
    .unwrap();
    let before = files_of(&quiet);
    let run = add_to(&alone, &quiet, &d.join("out-quiet"), &["--cases", "100"])
        .args(["--repeat", "0"])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    assert_eq!(files_of(&quiet), before);
    assert!(!quiet.join("generators/added").exists());

    // Interrupted: the reports of what was done, the package as it was, no copy beside it.
    let kept = package(d, "kept", PROBLEM_YAML);
    let before = files_of(&kept);
    let out = d.join("out-interrupted");
    let child = add_to(&table, &kept, &out, &["--cases", "100000000"])
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_secs(3));
    common::programs::interrupt(&child);
    let run = child.wait_with_output().unwrap();
    assert_eq!(run.status.code(), Some(130), "{}", stderr(&run));
    assert!(out.join("programs.csv").is_file(), "{}", stderr(&run));
    assert_eq!(files_of(&kept), before, "{}", stderr(&run));
    assert_eq!(hidden(d), Vec::<String>::new());

    // Complete: the strengthening case and the limits, comments and line ends kept.
    let changed = package(d, "changed", PROBLEM_YAML);
    let before = files_of(&changed);
    let out = d.join("out-changed");
    let run = add_to(&table, &changed, &out, &["--cases", "500", "--repeat", "1"])
        .output()
        .unwrap();
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(1), "{err}");
    let after = files_of(&changed);
    let added: Vec<&String> = after.keys().filter(|k| !before.contains_key(*k)).collect();
    assert!(
        !added.is_empty() && added.iter().all(|a| a.starts_with("data/secret/")),
        "{added:?}\n{err}"
    );
    let yaml = fs::read_to_string(changed.join("problem.yaml")).unwrap();
    assert!(yaml.contains("\r\n  time_limit: "), "{yaml:?}");
    assert!(yaml.contains("   # MiB\r\n"), "{yaml:?}");
    assert!(!yaml.replace("\r\n", "").contains('\n'), "{yaml:?}");
    let report = fs::read_to_string(out.join("audit.json")).unwrap();
    assert!(
        report.contains("\"added_as\": \"data/secret/pousse-3-000001_referee-001.in\""),
        "{report}"
    );
    assert_eq!(hidden(d), Vec::<String>::new());
}

#[test]
fn what_add_to_cannot_change_is_refused_before_any_work() {
    let dir = common::scratch::reachable();
    let d = dir.path();
    let table = d.join("programs.csv");
    fs::write(&table, "name,command,expected\ncat,cat,accepted\n").unwrap();
    let outside = d.join("outside");
    fs::create_dir(&outside).unwrap();
    for (name, yaml, why) in [
        (
            "flow",
            "name: x\nlimits: {memory: 512}\n",
            "problem.yaml: `limits:` is written on one line",
        ),
        (
            "broken",
            "name: x\nlimits:\n  memory: [512\n",
            "problem.yaml:4:1: not YAML",
        ),
        (
            "list",
            "- a\n",
            "problem.yaml: its top level is not a mapping",
        ),
        ("linked", "name: x\n", "data/secret is a link to"),
    ] {
        let package = package(d, name, yaml);
        if name == "linked" {
            fs::remove_dir_all(package.join("data/secret")).unwrap();
            std::os::unix::fs::symlink(&outside, package.join("data/secret")).unwrap();
        }
        let before = files_of(&package);
        let out = d.join(format!("out-{name}"));
        let run = add_to(&table, &package, &out, &["--cases", "10"])
            .output()
            .unwrap();
        let err = stderr(&run);
        assert_eq!(run.status.code(), Some(2), "{name}: {err}");
        assert!(err.contains(why), "{name}: {err}");
        assert!(!out.exists(), "{name}: no work done");
        assert_eq!(files_of(&package), before, "{name}");
    }
}

#[test]
fn a_dmoj_problem_is_audited_on_its_cases_and_gets_the_strengthening_ones() {
    let dir = common::scratch::reachable();
    let d = dir.path();
    let problem = d.join("problem");
    let made = referee_process()
        .args(["package", "pousse", "--system", "dmoj", "--out"])
        .arg(&problem)
        .output()
        .unwrap();
    assert!(made.status.success(), "{}", stderr(&made));
    // Its secret cases gone, the samples alone miss the planted bug.
    let init = fs::read_to_string(problem.join("init.yml")).unwrap();
    let kept: String = init
        .lines()
        .filter(|l| !l.contains("{in: secret-"))
        .map(|l| format!("{l}\n"))
        .collect();
    fs::write(problem.join("init.yml"), &kept).unwrap();
    for entry in fs::read_dir(&problem).unwrap() {
        let path = entry.unwrap().path();
        if path
            .file_name()
            .unwrap()
            .to_string_lossy()
            .starts_with("secret-")
        {
            fs::remove_file(path).unwrap();
        }
    }
    let planted = build(d, "pousse.c", &["-DPLANT_MOVER_ONLY"], "planted");
    let audit = |out: &str| {
        referee_process()
            .args(["audit", "pousse", "--package"])
            .arg(&problem)
            .arg("--add-to")
            .arg(&problem)
            .args(["--cmd", &format!("planted={planted}")])
            .args(["--cases", "300", "--repeat", "1", "--seed", "1", "--out"])
            .arg(d.join(out))
            .output()
            .unwrap()
    };
    let run = audit("first");
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(1), "{err}");
    assert!(err.contains("existing data: accepted (2 files)"), "{err}");
    assert!(err.contains("added as secret-001-referee.in"), "{err}");
    let init = fs::read_to_string(problem.join("init.yml")).unwrap();
    assert!(
        init.contains("- {in: secret-001-referee.in, out: secret-001-referee.ans, points: 1}\n"),
        "{init}"
    );
    assert!(init.contains("time: 1.0, memory: 65536"), "{init}");
    assert!(problem.join("secret-001-referee.ans").is_file());
    // Audited again, the added case is among its data and rejects the planted program.
    let run = audit("again");
    let err = stderr(&run);
    assert!(
        err.contains("existing data: wrong_answer on ") && err.contains("secret-001-referee.in"),
        "{err}"
    );
}

#[test]
fn the_target_packages_rules_decide_the_advice_and_refusals_come_before_any_build() {
    let dir = common::scratch::reachable();
    let d = dir.path();
    let good = build(d, "pousse.c", &[], "good");
    let table = d.join("programs.csv");
    fs::write(
        &table,
        format!("name,command,expected\ngood,{good},accepted\n"),
    )
    .unwrap();
    // A legacy package: its own multiplier, and no time limit of its own to write.
    let legacy = package(d, "legacy", "name: x\nlimits:\n  time_multiplier: 3\n");
    let run = add_to(
        &table,
        &legacy,
        &d.join("out"),
        &["--cases", "50", "--repeat", "1"],
    )
    .output()
    .unwrap();
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(0), "{err}");
    assert!(
        err.contains("problem.yaml's, format legacy): 3 x the slowest"),
        "{err}"
    );
    let yaml = fs::read_to_string(legacy.join("problem.yaml")).unwrap();
    assert!(
        yaml.contains("  memory: ") && !yaml.contains("time_limit"),
        "{yaml}"
    );
    // With --package, an --out that cannot be one is refused before a submission is built.
    let submitted = package(d, "submitted", "name: x\n");
    fs::create_dir_all(submitted.join("submissions/accepted")).unwrap();
    fs::copy(
        judges().join("pousse.c"),
        submitted.join("submissions/accepted/pousse.c"),
    )
    .unwrap();
    let file = d.join("a-file");
    fs::write(&file, "").unwrap();
    let run = referee_process()
        .args(["audit", "pousse", "--package"])
        .arg(&submitted)
        .arg("--out")
        .arg(&file)
        .output()
        .unwrap();
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(2), "{err}");
    assert!(
        err.contains("not a directory") && !err.contains("building"),
        "{err}"
    );
}

#[test]
fn an_interrupt_once_the_package_is_changed_says_it_was_changed() {
    let dir = common::scratch::reachable();
    let d = dir.path();
    let (_, table) = good_and_planted(d);
    let package = package(d, "p", PROBLEM_YAML);
    let before = files_of(&package);
    let run = add_to(&table, &package, &d.join("out"), &["--cases", "300"])
        .env("REFEREE_FAILPOINT", "interrupt-after-add-to")
        .output()
        .unwrap();
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(130), "{err}");
    assert_ne!(files_of(&package), before, "{err}");
    assert!(err.contains("once the audit was complete"), "{err}");
    assert!(err.contains("was changed"), "{err}");
    assert!(!err.contains("hold what was found before"), "{err}");
}
