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
        (
            "long",
            "name: x\n",
            "longer than a file name may be (255 bytes)",
        ),
    ] {
        let package = package(d, name, yaml);
        if name == "linked" {
            fs::remove_dir_all(package.join("data/secret")).unwrap();
            std::os::unix::fs::symlink(&outside, package.join("data/secret")).unwrap();
        }
        if name == "long" {
            // A case whose name leaves no room for the suffix of the cases added after it.
            let stem = "z".repeat(240);
            fs::write(package.join(format!("data/secret/{stem}.in")), "3\nQUIT\n").unwrap();
            fs::write(
                package.join(format!("data/secret/{stem}.ans")),
                "TIE GAME\n",
            )
            .unwrap();
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

/// `chattr +i` on a file while it lives, `chattr -i` when dropped (so that the test's directory
/// can be removed whatever the test found).
struct Immutable(PathBuf);

impl Immutable {
    fn set(file: &Path) -> Immutable {
        let set = std::process::Command::new("chattr")
            .arg("+i")
            .arg(file)
            .status()
            .expect("chattr (e2fsprogs)");
        assert!(set.success(), "chattr +i {}", file.display());
        Immutable(file.to_path_buf())
    }
}

impl Drop for Immutable {
    fn drop(&mut self) {
        let _ = std::process::Command::new("chattr")
            .arg("-i")
            .arg(&self.0)
            .status();
    }
}

/// Runs `command` as uid 65534 (`setpriv`), with the same arguments and environment.
fn as_nobody(command: &std::process::Command) -> std::process::Command {
    let mut wrapped = std::process::Command::new("setpriv");
    wrapped
        .args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
        .arg(command.get_program())
        .args(command.get_args())
        .current_dir(common::command::repo());
    wrapped
}

#[test]
fn what_the_file_system_or_the_owners_forbid_is_refused_before_any_work() {
    if !rustix::process::geteuid().is_root() {
        eprintln!("SKIPPED: needs root (chattr +i, an overlayfs mount, another user's file)");
        return;
    }
    let dir = common::scratch::reachable();
    let d = dir.path();
    let table = d.join("programs.csv");
    fs::write(&table, "name,command,expected\ncat,cat,accepted\n").unwrap();
    let refused = |name: &str, package: &Path, mut command: std::process::Command, why: &str| {
        let before = files_of(package);
        let run = command.output().unwrap();
        let err = stderr(&run);
        assert_eq!(run.status.code(), Some(2), "{name}: {err}");
        assert!(err.contains(why), "{name}: {err}");
        assert!(!err.contains("building"), "{name}: no work done: {err}");
        assert_eq!(files_of(package), before, "{name}");
        assert!(hidden(package.parent().unwrap()).is_empty(), "{name}");
    };

    // An immutable file, which a copy would lose the flag of.
    let flagged = package(d, "immutable", "name: x\n");
    fs::write(flagged.join("statement.txt"), "x").unwrap();
    let _flag = Immutable::set(&flagged.join("statement.txt"));
    let out = d.join("out-immutable");
    let command = add_to(&table, &flagged, &out, &["--cases", "10"]);
    refused("immutable", &flagged, command, "immutable (chattr +i)");
    assert!(!out.exists());

    // A package in an overlayfs lower layer (a container image's), whose directories cannot
    // be moved: the swap is rehearsed before the audit.
    let layers = d.join("layers");
    for layer in ["lower", "upper", "work", "merged"] {
        fs::create_dir_all(layers.join(layer)).unwrap();
    }
    let lower = package(&layers.join("lower"), "pkg", "name: x\n");
    let merged = layers.join("merged/pkg");
    let out = d.join("out-overlay");
    let audit = add_to(&table, &merged, &out, &["--cases", "10"]);
    let mut command = std::process::Command::new("unshare");
    command
        .args(["--mount", "--", "sh", "-c"])
        .arg(
            "mount -t overlay overlay -o \"lowerdir=$0/lower,upperdir=$0/upper,workdir=$0/work,\
             redirect_dir=off\" \"$0/merged\" && exec \"$@\"",
        )
        .arg(&layers)
        .arg(audit.get_program())
        .args(audit.get_args())
        .current_dir(common::command::repo());
    refused("overlay", &lower, command, "cannot move its directories");
    assert!(!out.exists());

    // As a normal user: another user's problem.yaml, which changed would be the user's; a
    // file of another user's that cannot be linked, whose copy would be.
    let home = d.join("nobody");
    fs::create_dir(&home).unwrap();
    std::os::unix::fs::chown(&home, Some(65534), Some(65534)).unwrap();
    for (name, theirs, why) in [
        ("yaml", "problem.yaml", "problem.yaml is uid 0's"),
        (
            "data",
            "data/secret/001.in",
            "is uid 0's and cannot be linked",
        ),
    ] {
        let teams = package(&home, name, "name: x\n");
        for entry in walkdir::WalkDir::new(&teams) {
            let entry = entry.unwrap();
            std::os::unix::fs::lchown(entry.path(), Some(65534), Some(65534)).unwrap();
        }
        let file = if theirs == "problem.yaml" {
            teams.join(theirs)
        } else {
            // The first generated case, whatever its name.
            let mut inputs: Vec<PathBuf> = fs::read_dir(teams.join("data/secret"))
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|e| e == "in"))
                .collect();
            inputs.sort();
            inputs.remove(0)
        };
        std::os::unix::fs::chown(&file, Some(0), Some(0)).unwrap();
        let out = home.join(format!("out-{name}"));
        let command = as_nobody(&add_to(&table, &teams, &out, &["--cases", "10"]));
        let why = if theirs == "problem.yaml" {
            why.to_string()
        } else {
            format!("{} {why}", file.strip_prefix(&teams).unwrap().display())
        };
        refused(name, &teams, command, &why);
        assert!(!out.exists(), "{name}");
    }
}
