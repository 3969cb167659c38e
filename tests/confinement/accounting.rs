//! A run accounted as the kernel counts it: the CPU time of every thread of every process of
//! it, whatever its scheduling; all the memory it holds, shared memory, memfds and a child's
//! that left its process group included (counted by the run's control group as root, and
//! refused from `/proc`'s count as a normal user, where no resident set shows it).

use std::time::{Duration, Instant};

use super::{accounting_of, expected_accounting, findings, programs, Contest};
use crate::common::command::stderr;

/// The attacks on the accounting, and what each is confined: CPU time hidden in threads, a
/// main thread starved by its own threads, memory no resident set shows, a child that leaves
/// the run's process group holding memory. No program is expected accepted, so that the time
/// limit is `--timeout`'s, whose wall-clock cap the threads' burn keeps under.
const ATTACKS: [(&str, &str); 5] = [
    ("time_limit_exceeded/threads_cpu.c", "threads_cpu.c"),
    ("time_limit_exceeded/idle_leader.c", "idle_leader.c"),
    ("rejected/memfd.c", "memfd.c"),
    ("rejected/sysv_shm.c", "sysv_shm.c"),
    ("memory_limit_exceeded/child_memory.c", "child_memory.c"),
];

#[test]
#[ignore = "long tier: .ci/run runs it (cargo test -- --include-ignored)"]
fn cpu_in_threads_and_memory_no_resident_set_shows_are_counted() {
    let _alone = crate::common::programs::budget_test();
    let marker = format!("35{}", std::process::id() % 10_000 + 10_000);
    // A memory limit of 256 MiB: the memory attacks hold 768 MiB to 1 GiB.
    let contest = Contest::new(&marker, 256, &ATTACKS);
    let started = Instant::now();
    // A time limit of 1 s: the thread attacks burn 5 s and 12 s, five times and more.
    let run = contest.audit(&[
        "--cases",
        "10",
        "--batch",
        "10",
        "--shrink-time",
        "5",
        "--timeout",
        "1",
    ]);
    let err = stderr(&run);
    // Hang guard: ten times what it takes on a busy machine.
    assert!(started.elapsed() < Duration::from_secs(600), "{err}");
    assert_eq!(run.status.code(), Some(0), "{err}");
    assert_eq!(accounting_of(&contest.out), expected_accounting(), "{err}");
    let programs = programs(&contest.out);
    for (name, _) in ATTACKS {
        let p = &programs[name];
        assert_eq!(p["verdict"], "as expected", "{name}: {p:?}\n{err}");
    }
    for name in [
        "time_limit_exceeded/threads_cpu.c",
        "time_limit_exceeded/idle_leader.c",
    ] {
        let rows = findings(&contest.out, name);
        assert_eq!(rows[0]["kind"], "timeout", "{name}: {rows:?}\n{err}");
    }
    // Memory no resident set shows: counted by the kernel (memory-limit), or refused where
    // the count is read from /proc (forbidden, the run ends on the call).
    for (name, call) in [
        ("rejected/memfd.c", "memfd_create"),
        ("rejected/sysv_shm.c", "shmget"),
    ] {
        let rows = findings(&contest.out, name);
        if expected_accounting() == "cgroups" {
            assert_eq!(rows[0]["kind"], "memory-limit", "{name}: {rows:?}\n{err}");
        } else {
            assert_eq!(rows[0]["kind"], "crash", "{name}: {rows:?}\n{err}");
            assert_eq!(rows[0]["exit"], format!("forbidden: {call}"), "{rows:?}");
        }
    }
    let rows = findings(&contest.out, "memory_limit_exceeded/child_memory.c");
    assert_eq!(rows[0]["kind"], "memory-limit", "{rows:?}\n{err}");
    assert_eq!(contest.traces(), Vec::<String>::new(), "{err}");
}

#[test]
#[ignore = "long tier: .ci/run runs it (cargo test -- --include-ignored)"]
fn unconfined_memory_no_resident_set_shows_is_not_seen() {
    // --unconfined runs are a process group read from /proc: the memory held in memfds shows in
    // no resident set (accepted under 256 MiB), which is why the sandbox counts it or forbids
    // it. (Not the System V attack: unconfined, its segments would outlive it in the machine's
    // own IPC namespace.) The time limit is 5 s, more than ten times the CPU time the attack
    // takes.
    let contest = Contest::new("3600", 256, &[("rejected/memfd.c", "memfd.c")]);
    let run = contest.audit(&["--cases", "4", "--timeout", "5", "--unconfined"]);
    let err = stderr(&run);
    let programs = programs(&contest.out);
    assert_eq!(programs["rejected/memfd.c"]["does"], "accepted", "{err}");
}
