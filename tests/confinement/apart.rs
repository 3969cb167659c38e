//! Runs apart from one another and from referee: no process of a run can join the process
//! group of referee or of another run, change another process's limits or priority, outlive
//! its run, read the descriptors referee was started with, or send a datagram to a socket path.

use std::time::{Duration, Instant};

use super::{programs, Contest};
use crate::common::command::stderr;

/// The attacks on the runs' separation, all expected accepted (each answers correctly after
/// its attack), and two correct judges beside them, whose runs the attacks aim at.
const ATTACKS: [(&str, &str); 8] = [
    ("accepted/judge.c", "answers.c"),
    ("accepted/pousse.py", "pousse.py"),
    ("accepted/join_group.c", "join_group.c"),
    ("accepted/other_groups.c", "other_groups.c"),
    ("accepted/cap_others.c", "cap_others.c"),
    ("accepted/prlimit_parent.c", "prlimit_parent.c"),
    ("accepted/inherited_fds.c", "inherited_fds.c"),
    ("accepted/unix_datagram.c", "unix_datagram.c"),
];

#[test]
#[ignore = "long tier: .ci/run runs it (cargo test -- --include-ignored)"]
fn runs_are_apart_from_one_another_and_from_referee() {
    let _alone = crate::common::programs::budget_test();
    let marker = format!("37{}", std::process::id() % 10_000 + 10_000);
    // A memory limit of 256 MiB: a process of 200 MiB that joined a correct judge's run would
    // put it over.
    let contest = Contest::new(&marker, 256, &ATTACKS);
    let started = Instant::now();
    // Not in a PID namespace of the test's own, which would end what outlives the audit.
    let run = contest.audit_here(&[
        "--cases",
        "10",
        "--batch",
        "10",
        "--jobs",
        "2",
        "--timeout",
        "10",
    ]);
    let err = stderr(&run);
    // Hang guard: ten times what it takes on a busy machine.
    assert!(started.elapsed() < Duration::from_secs(600), "{err}");
    // referee was not harmed: it wrote its reports and ended as the verdict says.
    assert_eq!(run.status.code(), Some(0), "{err}");
    let programs = programs(&contest.out);
    for (name, _) in ATTACKS {
        let p = &programs[name];
        assert_eq!(p["does"], "accepted", "{name}: {p:?}\n{err}");
    }
    assert_eq!(contest.traces(), Vec::<String>::new(), "{err}");
}

#[test]
fn unconfined_a_child_joins_referees_group_and_outlives_the_audit() {
    // The attacks the PID namespaces and the closed descriptors stop above, shown to work
    // without them: the child that joins referee's own process group is not killed with its
    // run's group, and the descriptors referee was given reach the program.
    let marker = format!("38{}", std::process::id() % 10_000 + 10_000);
    let contest = Contest::new(
        &marker,
        256,
        &[
            ("accepted/join_group.c", "join_group.c"),
            ("accepted/inherited_fds.c", "inherited_fds.c"),
        ],
    );
    let run = contest.audit_here(&["--cases", "4", "--unconfined"]);
    let err = stderr(&run);
    let traces = contest.traces();
    assert!(
        traces.iter().any(|t| t.contains("outlived")),
        "{traces:?}\n{err}"
    );
    assert!(
        traces.iter().any(|t| t.contains("leaked")),
        "{traces:?}\n{err}"
    );
}
