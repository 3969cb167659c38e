//! BAPCtools takes the packages `referee package` writes as they are: `bt generate` remakes
//! their data byte for byte from `generators/generators.yaml`, `bt validate` finds nothing to
//! say, and `bt run` gives every submission its folder's verdict; and it takes the example
//! contest's package, whose data misses one wrong submission on purpose (tests/contest/
//! strengthens it and runs `bt run` on the result).
//!
//! Needs BAPCtools' `bt` in `REFEREE_BT` (`scripts/ci/bapctools.sh` installs the release these
//! tests were checked with, 2026.10.0).

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use crate::common;
use common::bapctools::{bt, run, text};
use common::command::{files_of, referee};

/// `bt generate` changes nothing in `problem`'s data, and `bt validate` says nothing but
/// that it is done.
fn generates_and_validates_as_written(bt: &Path, problem: &Path) {
    let before = files_of(&problem.join("data"));
    let generated = run(bt, problem, &["generate", "--no-visualizer"]);
    let said = text(&generated);
    assert!(generated.status.success(), "{said}");
    assert!(
        !said.contains("CHANGED") && !said.contains("REMOVED"),
        "{said}"
    );
    assert_eq!(
        files_of(&problem.join("data")),
        before,
        "bt generate changed the data\n{said}"
    );
    let validated = run(bt, problem, &["validate"]);
    let said = text(&validated);
    assert!(validated.status.success(), "{said}");
    for word in ["ERROR", "WARNING", "rejected", "accepted"] {
        assert!(!said.contains(word), "bt validate says {word}:\n{said}");
    }
}

#[test]
#[ignore = "runs BAPCtools' bt: REFEREE_BT set (scripts/ci/bapctools.sh), cargo test -- --include-ignored (.ci/run does)"]
fn bapctools_takes_every_games_package_as_written() {
    let Some(bt) = bt() else {
        return;
    };
    for (game, rules, name) in [
        ("pousse", None, "pousse"),
        ("pousse", Some("icfp98"), "pousseicfp98"),
        ("littlesquares", None, "littlesquares"),
        ("somegame", None, "somegame"),
    ] {
        // One directory per problem: bt compares the problems it finds beside one another.
        let dir = tempfile::tempdir().unwrap();
        let problem = dir.path().join(name);
        let mut cmd = referee();
        cmd.args(["package", game, "--cases", "9", "--seed", "5", "--out"])
            .arg(&problem);
        if let Some(r) = rules {
            cmd.args(["--rules", r]);
        }
        cmd.assert().success();
        generates_and_validates_as_written(&bt, &problem);
        // BAPCtools times a run by the wall clock, which a busy machine stretches (the accepted
        // submission took 2.1 s of its 1 s limit on the largest board with every core busy):
        // the limit is raised here, where the verdicts checked are AC and WA, never a time.
        let ran = run(&bt, &problem, &["run", "--time-limit", "10"]);
        let said = text(&ran);
        assert!(ran.status.success(), "{name}: {said}");
        assert!(
            said.contains(" AC ") && said.contains(" WA "),
            "{name}: {said}"
        );
    }
}

#[test]
#[ignore = "runs BAPCtools' bt: REFEREE_BT set (scripts/ci/bapctools.sh), cargo test -- --include-ignored (.ci/run does)"]
fn bapctools_takes_the_example_contests_package_as_written() {
    let Some(bt) = bt() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let problem = dir.path().join("pousse");
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/contest/pousse");
    for (rel, bytes) in files_of(&shipped) {
        let to = problem.join(&rel);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::write(&to, bytes).unwrap();
        #[cfg(unix)]
        if std::fs::metadata(shipped.join(&rel))
            .unwrap()
            .permissions()
            .mode()
            & 0o111
            != 0
        {
            std::fs::set_permissions(&to, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
    }
    generates_and_validates_as_written(&bt, &problem);
    // Its data misses bitrows.c (boards of 33 to 64): bt run says so, and only that.
    let ran = run(&bt, &problem, &["run"]);
    let said = text(&ran);
    assert_eq!(ran.status.code(), Some(1), "{said}");
    let verdicts: Vec<&str> = said
        .lines()
        .filter(|l| l.contains(".c:") || l.contains(".py:"))
        .filter(|l| !l.contains('['))
        .collect();
    for (submission, verdict) in [
        ("accepted/judge.c", " AC "),
        ("accepted/judge.py", " AC "),
        ("accepted/pousse.c", " AC "),
        ("run_time_error/move_buffer.c", " RTE "),
        ("run_time_error/preallocated.py", " RTE "),
        ("time_limit_exceeded/slow.py", " TLE "),
        ("wrong_answer/full_line_from_end.c", " WA "),
        ("wrong_answer/mover_only.c", " WA "),
        ("wrong_answer/touched_lines.c", " WA "),
        ("wrong_answer/bitrows.c", " AC "),
    ] {
        assert!(
            verdicts
                .iter()
                .any(|l| l.starts_with(&format!("{submission}:")) && l.contains(verdict)),
            "{submission} {verdict}\n{}",
            verdicts.join("\n")
        );
    }
}
