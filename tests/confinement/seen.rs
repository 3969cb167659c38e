//! What a run sees of the machine: its own processes alone (a procfs of its PID namespace),
//! its own mounts (a root of bind mounts, the machine's detached), its own network
//! interfaces, none of the package's files to watch. Each attack answers wrongly when it sees
//! what it looks for, so that an escape is a finding.

use std::time::{Duration, Instant};

use super::{programs, Contest};
use crate::common::command::stderr;

/// The attacks, each expected accepted, and the correct judge beside them.
const ATTACKS: [(&str, &str); 5] = [
    ("accepted/judge.c", "answers.c"),
    ("accepted/host_proc.c", "host_proc.c"),
    ("accepted/inotify_secret.c", "inotify_secret.c"),
    ("accepted/listmount.c", "listmount.c"),
    ("accepted/interfaces.c", "interfaces.c"),
];

#[test]
#[ignore = "long tier: .ci/run runs it (cargo test -- --include-ignored)"]
fn a_run_sees_nothing_of_the_machine_but_what_it_is_given() {
    let _alone = crate::common::programs::budget_test();
    let marker = format!("39{}", std::process::id() % 10_000 + 10_000);
    let contest = Contest::new(&marker, 256, &ATTACKS);
    let started = Instant::now();
    let run = contest.audit(&["--cases", "10", "--batch", "10", "--timeout", "10"]);
    let err = stderr(&run);
    // Hang guard: ten times what it takes on a busy machine.
    assert!(started.elapsed() < Duration::from_secs(600), "{err}");
    assert_eq!(run.status.code(), Some(0), "{err}");
    let programs = programs(&contest.out);
    for (name, _) in ATTACKS {
        let p = &programs[name];
        assert_eq!(p["does"], "accepted", "{name}: {p:?}\n{err}");
    }
    assert_eq!(contest.traces(), Vec::<String>::new(), "{err}");
}

/// Whether the kernel has listmount (Linux 6.8).
fn has_listmount() -> bool {
    let release = std::fs::read_to_string("/proc/sys/kernel/osrelease").unwrap_or_default();
    let mut parts = release.trim().split(['.', '-']);
    let major: u32 = parts.next().and_then(|p| p.parse().ok()).unwrap_or(0);
    let minor: u32 = parts.next().and_then(|p| p.parse().ok()).unwrap_or(0);
    (major, minor) >= (6, 8)
}

/// Whether the machine has a network interface besides its loopback.
fn has_interfaces() -> bool {
    std::fs::read_dir("/sys/class/net")
        .map(|entries| entries.flatten().any(|e| e.file_name() != "lo"))
        .unwrap_or(false)
}

#[test]
fn unconfined_the_same_attacks_see_the_machine() {
    // The walls above, shown to matter: without them, each attack sees what it looks for (the
    // mounts where the kernel can list them, the interfaces where the machine has one).
    let contest = Contest::new("3900", 256, &ATTACKS);
    let run = contest.audit(&["--cases", "4", "--unconfined"]);
    let err = stderr(&run);
    let programs = programs(&contest.out);
    let mut seeing = vec!["accepted/host_proc.c", "accepted/inotify_secret.c"];
    if has_listmount() {
        seeing.push("accepted/listmount.c");
    }
    if has_interfaces() {
        seeing.push("accepted/interfaces.c");
    }
    for name in seeing {
        assert_eq!(programs[name]["does"], "wrong_answer", "{name}\n{err}");
    }
    assert_eq!(programs["accepted/judge.c"]["does"], "accepted", "{err}");
}
