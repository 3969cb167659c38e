//! Runs apart from one another and from referee: no process of a run can join the process
//! group of referee or of another run, change another process's limits or priority, outlive
//! its run, read the descriptors referee was started with, or send a datagram to a socket path.

use std::time::{Duration, Instant};

use super::{kernel_counts, programs, Contest};
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

/// The attacks that start processes.
const FORKS: [&str; 2] = ["accepted/join_group.c", "accepted/other_groups.c"];

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
    // referee was not harmed: it wrote its reports and ended as the verdict says (where no
    // control group counts a run's processes, a run is one process: the attacks that start
    // one end there, and the package's verdict says so).
    let forks_refused = !kernel_counts(&contest.out);
    assert_eq!(run.status.code(), Some(i32::from(forks_refused)), "{err}");
    let programs = programs(&contest.out);
    for (name, _) in ATTACKS {
        let p = &programs[name];
        let does = if forks_refused && FORKS.contains(&name) {
            "run_time_error"
        } else {
            "accepted"
        };
        assert_eq!(p["does"], does, "{name}: {p:?}\n{err}");
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

/// The control groups named after audit `pid` (`referee-PID-N`) on the machine: cgroup v1's
/// and v2's, anywhere within four levels of `/sys/fs/cgroup`.
fn groups_of(pid: u32) -> Vec<std::path::PathBuf> {
    let prefix = format!("referee-{pid}-");
    let mut found = Vec::new();
    let mut next = vec![(std::path::PathBuf::from("/sys/fs/cgroup"), 0)];
    while let Some((dir, depth)) = next.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            if !entry.file_type().is_ok_and(|t| t.is_dir()) {
                continue;
            }
            if entry.file_name().to_string_lossy().starts_with(&prefix) {
                found.push(entry.path());
            } else if depth < 4 {
                next.push((entry.path(), depth + 1));
            }
        }
    }
    found
}

#[test]
#[ignore = "long tier: .ci/run runs it (cargo test -- --include-ignored)"]
fn nothing_of_a_run_outlives_referee_killed_at_once() {
    // referee killed with SIGKILL while a program runs (as the OOM killer or a CI runner's
    // timeout would end it): the run's processes end with it, and the next audit removes the
    // control groups it left.
    let _alone = crate::common::programs::budget_test();
    let marker = format!("40{}", std::process::id() % 10_000 + 10_000);
    let contest = Contest::new(
        &marker,
        256,
        &[
            ("accepted/judge.c", "answers.c"),
            ("time_limit_exceeded/sleeper.c", "sleeper.c"),
        ],
    );
    // Its temporary files, which a killed process cannot remove, in the test's directory.
    let tmp = contest.targets.dir.join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    std::fs::set_permissions(&tmp, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let mut audit = std::process::Command::new(crate::common::command::referee_path())
        .args(contest.args(&["--cases", "4", "--timeout", "60"]))
        .env("TMPDIR", &tmp)
        .current_dir(crate::common::command::repo())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let pid = audit.id();
    let started = Instant::now();
    let sleeping = format!("sleep {marker}");
    // Hang guard: the sleeper's run begins within a minute on a busy machine.
    while crate::common::programs::alive_with(&sleeping).is_empty() {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the sleeper never ran"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    audit.kill().unwrap();
    audit.wait().unwrap();
    // What the kernel ends at once, a moment to end it.
    let killed = Instant::now();
    while !crate::common::programs::alive_with(&sleeping).is_empty()
        && killed.elapsed() < Duration::from_secs(5)
    {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(
        crate::common::programs::alive_with(&sleeping),
        Vec::<String>::new(),
        "a run outlived referee"
    );
    // The next audit removes the groups the killed one left (it finds them abandoned).
    let again = contest.audit_here(&["--cases", "2", "--timeout", "2"]);
    let _ = again;
    let left = groups_of(pid);
    assert_eq!(
        left,
        Vec::<std::path::PathBuf>::new(),
        "groups left after the next audit"
    );
}
