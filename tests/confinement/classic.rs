//! The classic attacks: writing outside the run, reading a secret and the package's answers,
//! the auditor's environment, the network, a fork bomb, `kill(-1)`, too much memory, a deep
//! recursion, a build that never ends.

use std::fs;
use std::path::Path;
use std::time::{Duration, Instant};

use super::{confinement_of, findings, kernel_counts, programs, Contest};
use crate::common::command::stderr;

/// Every attack but memory's, its folder and the class a judge system's sandbox gives it.
const CONTEST: [(&str, &str, &str); 10] = [
    ("accepted/judge.c", "answers.c", "accepted"),
    ("accepted/write_outside.c", "write_outside.c", "accepted"),
    ("accepted/read_outside.c", "read_outside.c", "accepted"),
    ("accepted/find_answers.c", "find_answers.c", "accepted"),
    ("accepted/environment.c", "environment.c", "accepted"),
    ("accepted/fork_bomb.c", "fork_bomb.c", "accepted"),
    ("accepted/deep_recursion.c", "deep_recursion.c", "accepted"),
    ("accepted/kill_all.c", "kill_all.c", "accepted"),
    ("run_time_error/connect.c", "connect.c", "run_time_error"),
    ("rejected/slow_build.cpp", "slow_build.cpp", ""),
];

/// The attacks that start processes.
const FORKS: [&str; 1] = ["accepted/fork_bomb.c"];

#[test]
#[ignore = "long tier: .ci/run runs it (cargo test -- --include-ignored)"]
fn a_contest_of_attacks_is_contained_and_judged_as_a_judge_systems_sandbox_would() {
    let _alone = crate::common::programs::budget_test();
    let marker = format!("31{}", std::process::id() % 10_000 + 10_000);
    let submissions: Vec<(&str, &str)> = CONTEST.iter().map(|(n, a, _)| (*n, *a)).collect();
    // The memory limit is 1 GiB: the recursion 500 MB deep passes.
    let contest = Contest::new(&marker, 1024, &submissions);
    let out = &contest.out;
    let started = Instant::now();
    let run = contest.audit(&[
        "--cases",
        "20",
        "--batch",
        "10",
        "--shrink-time",
        "5",
        // The build that never ends is held to 15 s, in which every other build ends, even under
        // emulation.
        "--compile-time",
        "15",
        // The time limit is five times the slowest accepted run on the data (the recursion's,
        // about a second of CPU time here), not capped below that.
        "--timeout",
        "60",
    ]);
    let err = stderr(&run);
    // Hang guard: ten times what it takes on a busy machine.
    assert!(started.elapsed() < Duration::from_secs(600), "{err}");
    // The build that never ends is the one thing the package's verdict says.
    assert_eq!(run.status.code(), Some(1), "{err}");
    assert!(err.contains("programs run confined as"), "{err}");
    // The keeper program beside referee starts every run.
    assert!(err.contains("each run started by referee-keeper"), "{err}");
    assert_eq!(confinement_of(out), "confined");
    let programs = programs(out);
    let forks_refused = !kernel_counts(out);
    for (name, _, class) in CONTEST.iter().filter(|c| !c.2.is_empty()) {
        let p = &programs[*name];
        if forks_refused && FORKS.contains(name) {
            // One process a run where no control group counts them: its first fork ends it.
            assert_eq!(p["does"], "run_time_error", "{name}: {p:?}\n{err}");
            let rows = findings(out, name);
            assert_eq!(
                rows[0]["exit"], "forbidden: fork",
                "{name}: {rows:?}\n{err}"
            );
            continue;
        }
        assert_eq!(p["does"], *class, "{name}: {p:?}\n{err}");
        assert_eq!(p["verdict"], "as expected", "{name}: {p:?}\n{err}");
    }
    // The forbidden call is named.
    let connect = findings(out, "run_time_error/connect.c");
    assert_eq!(connect[0]["kind"], "crash", "{connect:?}");
    assert_eq!(connect[0]["exit"], "forbidden: connect", "{connect:?}");
    assert!(
        connect[0]["detail"].contains("forbidden: connect"),
        "{connect:?}"
    );
    // The build past its limit.
    let slow = &programs["rejected/slow_build.cpp"];
    assert!(
        slow["referee-cases"].starts_with("not run: compile-error: C++")
            && slow["referee-cases"].contains("past the compile limit of 15 s"),
        "{slow:?}"
    );
    // Nothing happened outside the runs.
    assert_eq!(contest.traces(), Vec::<String>::new(), "{err}");
}

#[test]
fn unconfined_the_same_attacks_succeed() {
    let marker = format!("32{}", std::process::id() % 10_000 + 10_000);
    let contest = Contest::new(
        &marker,
        1024,
        &[
            ("accepted/judge.c", "answers.c"),
            ("accepted/write_outside.c", "write_outside.c"),
            ("accepted/read_outside.c", "read_outside.c"),
            ("accepted/find_answers.c", "find_answers.c"),
            ("accepted/environment.c", "environment.c"),
            ("accepted/connect.c", "connect.c"),
        ],
    );
    let run = contest.audit(&["--cases", "10", "--shrink-time", "2", "--unconfined"]);
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(1), "{err}");
    assert_eq!(confinement_of(&contest.out), "unconfined");
    let programs = programs(&contest.out);
    for name in [
        "accepted/read_outside.c",
        "accepted/find_answers.c",
        "accepted/environment.c",
    ] {
        assert_eq!(programs[name]["does"], "wrong_answer", "{name}\n{err}");
    }
    assert_eq!(programs["accepted/judge.c"]["does"], "accepted", "{err}");
    assert!(contest.targets.written.exists(), "{err}");
    assert!(contest.listener.connections() > 0, "{err}");
    let _ = fs::remove_file(Path::new("/tmp").join(&contest.targets.marker));
}

#[test]
fn unconfined_kill_minus_one_ends_the_audit_itself() {
    // In the test's own PID namespace, where it hits nothing but the audit: the attack the
    // sandbox stops above, shown to work without it.
    let contest = Contest::new("3300", 1024, &[("accepted/kill_all.c", "kill_all.c")]);
    let run = contest.audit(&["--cases", "10", "--unconfined"]);
    assert_ne!(run.status.code(), Some(0), "{}", stderr(&run));
    assert!(!contest.out.join("audit.json").exists(), "{}", stderr(&run));
}

#[test]
#[ignore = "long tier: .ci/run runs it (cargo test -- --include-ignored)"]
fn three_gibibytes_under_a_two_gibibyte_limit_is_memory_limit() {
    // A package whose only submission is expected over its memory: no program expected
    // accepted sets a time limit from the data, so the limit is --timeout's, ten times the
    // CPU time this machine's kernel takes to hand out 2 GiB.
    let contest = Contest::new(
        "3400",
        2048,
        &[("memory_limit_exceeded/touch_memory.c", "touch_memory.c")],
    );
    let run = contest.audit(&["--cases", "10", "--shrink-time", "5", "--timeout", "60"]);
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(0), "{err}");
    let program = &programs(&contest.out)["memory_limit_exceeded/touch_memory.c"];
    assert_eq!(
        program["does"], "memory_limit_exceeded",
        "{program:?}\n{err}"
    );
    assert_eq!(program["verdict"], "as expected", "{program:?}");
    let rows = findings(&contest.out, "memory_limit_exceeded/touch_memory.c");
    assert_eq!(rows[0]["kind"], "memory-limit", "{rows:?}\n{err}");
    // At least the limit (where the kernel's control group stops it), less than the 3 GiB it
    // asked for.
    let held: u64 = rows[0]["memory-kib"].parse().unwrap();
    assert!((2 << 20..3 << 20).contains(&held), "{rows:?}");
    assert!(rows[0]["detail"].contains("over the limit"), "{rows:?}");
}
