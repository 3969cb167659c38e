//! A run accounted as the kernel counts it: the CPU time of every thread of every process of
//! it, whatever its scheduling and whoever reaped it; all the memory it holds, shared memory,
//! memfds, socket buffers, message queues, pinned pages, page tables, a child's that left its
//! process group and its scratch's files included. Counted by the run's control group (as
//! root, or in a delegated cgroup v2 subtree); where none can be made, a run is one process and
//! the calls that make memory no count shows are refused (the run ends on them, named).
//!
//! Each attack answers correctly after its attack, so that an escape is an accepted run.

use std::time::{Duration, Instant};

use super::{findings, kernel_counts, programs, Contest};
use crate::common::command::stderr;

/// How an attack must come out: its finding's kind (or kinds, joined by ` or `), and its exit
/// (`-` for none said).
#[derive(Debug, Clone, Copy)]
struct Outcome {
    kind: &'static str,
    exit: &'static str,
}

const fn outcome(kind: &'static str, exit: &'static str) -> Outcome {
    Outcome { kind, exit }
}

/// An attack: its submission's name, its file, and its outcome where the kernel counts the run
/// and where it does not.
type Attack = (&'static str, &'static str, Outcome, Outcome);

/// The attacks on CPU time: in threads, a main thread starved by its own threads, children the
/// kernel reaps itself (burning 5 s between them, and for 10 s of wall-clock time while their
/// parent yields to them). Under a time limit of 1 s.
const CPU: [Attack; 4] = [
    (
        "rejected/threads_cpu.c",
        "threads_cpu.c",
        outcome("timeout", "-"),
        outcome("timeout", "-"),
    ),
    (
        "rejected/idle_leader.c",
        "idle_leader.c",
        outcome("timeout", "-"),
        outcome("timeout", "-"),
    ),
    (
        "rejected/reaped_children.c",
        "reaped_children.c",
        outcome("timeout", "-"),
        outcome("crash", "forbidden: fork"),
    ),
    (
        "rejected/reaped_wall.c",
        "reaped_wall.c",
        outcome("timeout", "-"),
        outcome("crash", "forbidden: fork"),
    ),
];

/// The attacks on memory, each holding 500 MiB to 1 GiB under a limit of 256 MiB where no
/// count of processes shows it (or, for the scratch, 400,000 files).
const MEMORY: [Attack; 8] = [
    (
        "rejected/memfd.c",
        "memfd.c",
        outcome("memory-limit", "-"),
        outcome("crash", "forbidden: memfd_create"),
    ),
    (
        "rejected/sysv_shm.c",
        "sysv_shm.c",
        outcome("memory-limit", "-"),
        outcome("crash", "forbidden: shmget"),
    ),
    (
        "rejected/child_memory.c",
        "child_memory.c",
        outcome("memory-limit", "-"),
        outcome("crash", "forbidden: fork"),
    ),
    (
        "rejected/socket_buffers.c",
        "socket_buffers.c",
        // A run makes at most 4 pairs, their buffers at the system's default: cgroup v2
        // charges no AF_UNIX buffer to the run.
        outcome("crash", "3"),
        outcome("crash", "3"),
    ),
    (
        "rejected/msg_queues.c",
        "msg_queues.c",
        outcome("memory-limit", "-"),
        outcome("crash", "forbidden: msgget"),
    ),
    (
        "rejected/vmsplice_pin.c",
        "vmsplice_pin.c",
        // Under memory pressure the kernel may split an unmapped huge page and free all of it
        // but the pinned page (its deferred split), so a run may hold less and pass: contained
        // all the same, a finding then seen in some runs only.
        outcome("memory-limit or flaky", "-"),
        outcome("crash", "forbidden: vmsplice"),
    ),
    (
        "rejected/page_tables.c",
        "page_tables.c",
        outcome("memory-limit", "-"),
        outcome("crash", "3"),
    ),
    (
        "rejected/scratch_inodes.c",
        "scratch_inodes.c",
        outcome("crash", "3"),
        outcome("crash", "3"),
    ),
];

/// Audits `attacks` with `--timeout timeout`, under a memory limit of 256 MiB, and checks each
/// came out as it must here. None is expected accepted: the time limit is `--timeout`'s.
fn contained(marker: &str, attacks: &[Attack], timeout: &str) {
    let submissions: Vec<(&str, &str)> = attacks.iter().map(|a| (a.0, a.1)).collect();
    let contest = Contest::new(marker, 256, &submissions);
    let started = Instant::now();
    let run = contest.audit(&[
        "--cases",
        "10",
        "--batch",
        "10",
        "--shrink-time",
        "5",
        "--timeout",
        timeout,
    ]);
    let err = stderr(&run);
    // Hang guard: ten times what it takes on a busy machine.
    assert!(started.elapsed() < Duration::from_secs(600), "{err}");
    assert_eq!(run.status.code(), Some(0), "{err}");
    let counted = kernel_counts(&contest.out);
    let programs = programs(&contest.out);
    for &(name, _, by_kernel, refused) in attacks {
        let p = &programs[name];
        assert_eq!(p["verdict"], "as expected", "{name}: {p:?}\n{err}");
        let want = if counted { by_kernel } else { refused };
        let rows = findings(&contest.out, name);
        assert!(
            want.kind.split(" or ").any(|kind| rows[0]["kind"] == kind),
            "{name}: want {}: {rows:?}\n{err}",
            want.kind
        );
        if want.exit != "-" {
            assert_eq!(rows[0]["exit"], want.exit, "{name}: {rows:?}\n{err}");
        }
        if counted && want.kind == "timeout" {
            // The CPU time said is the group's: every process, whoever reaped it, about the
            // limit it was stopped at (the init's own time, a few milliseconds, not counted).
            let cpu: u64 = rows[0]["cpu-millis"].parse().unwrap();
            assert!(cpu >= 900, "{name}: {rows:?}\n{err}");
        }
    }
    assert_eq!(contest.traces(), Vec::<String>::new(), "{err}");
}

#[test]
#[ignore = "long tier: .ci/run runs it (cargo test -- --include-ignored)"]
fn cpu_time_in_threads_and_in_children_the_kernel_reaps_is_counted() {
    let _alone = crate::common::programs::budget_test();
    let marker = format!("35{}", std::process::id() % 10_000 + 10_000);
    contained(&marker, &CPU, "1");
}

#[test]
#[ignore = "long tier: .ci/run runs it (cargo test -- --include-ignored)"]
fn memory_no_count_of_processes_shows_is_counted_or_refused() {
    let _alone = crate::common::programs::budget_test();
    let marker = format!("36{}", std::process::id() % 10_000 + 10_000);
    // A time limit of 10 s, ten times what the slowest attack takes to hold its memory here.
    contained(&marker, &MEMORY, "10");
}

#[test]
#[ignore = "long tier: .ci/run runs it (cargo test -- --include-ignored)"]
fn unconfined_memory_no_resident_set_shows_is_not_seen() {
    // --unconfined runs are a process group read from /proc: the memory held in memfds, socket
    // buffers, pinned pages and page tables shows in no resident set (accepted under 256 MiB),
    // which is why the sandbox counts it or refuses it. (Not the System V attacks nor the
    // scratch's: unconfined, their queues, segments and files would outlive them on the
    // machine.) The time limit is 10 s, more than ten times the CPU time the attacks take.
    let contest = Contest::new(
        "3600",
        256,
        &[
            ("rejected/memfd.c", "memfd.c"),
            ("rejected/socket_buffers.c", "socket_buffers.c"),
            ("rejected/vmsplice_pin.c", "vmsplice_pin.c"),
            ("rejected/page_tables.c", "page_tables.c"),
        ],
    );
    let run = contest.audit(&["--cases", "4", "--timeout", "10", "--unconfined"]);
    let err = stderr(&run);
    let programs = programs(&contest.out);
    for name in [
        "rejected/memfd.c",
        "rejected/socket_buffers.c",
        "rejected/vmsplice_pin.c",
        "rejected/page_tables.c",
    ] {
        assert_eq!(programs[name]["does"], "accepted", "{name}\n{err}");
    }
}
