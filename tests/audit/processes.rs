//! The processes audit starts: hostile ones neither hang it nor outlive it, an interrupted
//! audit ends them all, and time is the program's, bounded as a whole.

use super::*;
use crate::common;
use common::command::{referee, stderr};
use common::programs::{after_the_probe, alive_with, build, script};
use std::fs;
use std::time::Duration;

#[test]
#[ignore = "long tier: .ci/run runs it (cargo test -- --include-ignored)"]
fn hostile_programs_neither_hang_the_audit_nor_outlive_it() {
    let dir = crate::common::scratch::reachable();
    let judge = build(dir.path(), "pousse.c", &[], "pousse");
    // Each answers the probe (two runs) like the correct judge, then misbehaves.
    let hostile = |name: &str, body: &str| after_the_probe(dir.path(), name, &judge, body);
    let cases = [
        // A child left sleeping, holding the output pipe open.
        (
            hostile("forks", "sleep 3141 & cat >/dev/null; echo 'X WINS'"),
            "wrong-answer",
        ),
        // A child that leaves the process group.
        (
            hostile(
                "escapes",
                "setsid sleep 3142 & cat >/dev/null; echo 'X WINS'",
            ),
            "wrong-answer",
        ),
        // Output without end.
        (hostile("floods", "yes 'X WINS'"), "output-limit"),
        // Standard input closed at once, nothing read.
        (
            hostile("closes", "exec 0<&-; echo 'TIE GAME'"),
            "wrong-answer",
        ),
        // Standard input never read, and a long sleep.
        (hostile("sleeps", "sleep 3143"), "timeout"),
    ];
    for (cmd, kind) in &cases {
        // The sleeper's runs end at the wall-clock cap: its time limit held short.
        let timeout = if *kind == "timeout" { "0.2" } else { "1" };
        let out = dir.path().join(format!("{kind}-out"));
        let run = audit(
            "pousse",
            cmd,
            &out,
            &[
                "--cases",
                "200",
                // A run of k cases gets k times the time limit (and three times that as its
                // wall-clock cap).
                "--batch",
                "10",
                "--timeout",
                timeout,
                "--shrink-time",
                "3",
                "--max-output",
                "1e6",
            ],
        );
        assert_eq!(run.status.code(), Some(1), "{cmd}: {}", stderr(&run));
        let rows = findings(&out);
        assert_eq!(rows[0]["kind"], *kind, "{cmd}: {rows:?}");
    }
    std::thread::sleep(Duration::from_millis(200));
    for marker in ["sleep 3141", "sleep 3142", "sleep 3143"] {
        assert!(
            alive_with(marker).is_empty(),
            "{marker} outlived the audit: {:?}",
            alive_with(marker)
        );
    }
}

#[test]
#[ignore = "long tier: .ci/run runs it (cargo test -- --include-ignored)"]
fn an_interrupted_audit_ends_every_process_it_started() {
    use std::os::unix::process::CommandExt;
    let dir = crate::common::scratch::reachable();
    let judge = build(dir.path(), "pousse.c", &[], "pousse");
    // Each answers the probe (two runs) like the correct judge, then leaves processes behind and
    // sleeps: a plain background child, a double fork that leaves the process group (setsid), SIGTERM ignored.
    let hostile = |name: &str, body: &str| after_the_probe(dir.path(), name, &judge, body);
    let bin = crate::common::command::referee_path().to_path_buf();
    for (signal, to_group) in [("INT", true), ("TERM", false), ("INT", false)] {
        let round = format!("{signal}-{to_group}");
        let programs = [
            (
                "background",
                hostile(&format!("background-{round}"), "sleep 3151 & sleep 3152"),
            ),
            (
                "double-fork",
                hostile(
                    &format!("double-fork-{round}"),
                    "setsid sh -c 'sleep 3153 & sleep 3154' & sleep 3155",
                ),
            ),
            (
                "ignores-term",
                hostile(
                    &format!("ignores-term-{round}"),
                    "trap '' TERM; sleep 3156 & sleep 3157",
                ),
            ),
            // Interrupted during the probe itself: its first run leaves a double fork.
            (
                "in-the-probe",
                script(
                    dir.path(),
                    &format!("in-the-probe-{round}.sh"),
                    "setsid sh -c 'sleep 3158 & sleep 3159' & sleep 3160",
                ),
            ),
        ];
        for (name, cmd) in &programs {
            let out = dir.path().join(format!("{name}-{signal}-{to_group}"));
            // A process group of its own, as a shell gives a foreground job.
            let mut child = std::process::Command::new(&bin)
                .args([
                    "audit",
                    "pousse",
                    "--cmd",
                    cmd,
                    "--cases",
                    "100",
                    "--timeout",
                    "600",
                ])
                .arg("--out")
                .arg(&out)
                .stderr(std::process::Stdio::piped())
                .process_group(0)
                .spawn()
                .unwrap();
            // Until the program's children are up (hang guard: 60 s).
            let marker = match *name {
                "background" => "sleep 3152",
                "double-fork" => "sleep 3155",
                "in-the-probe" => "sleep 3160",
                _ => "sleep 3157",
            };
            let waited = std::time::Instant::now();
            while alive_with(marker).is_empty() {
                assert!(
                    waited.elapsed() < Duration::from_secs(60),
                    "hang guard: {name} never ran"
                );
                std::thread::sleep(Duration::from_millis(50));
            }
            std::thread::sleep(Duration::from_millis(200));
            let target = if to_group {
                format!("-{}", child.id())
            } else {
                child.id().to_string()
            };
            let sent = std::process::Command::new("kill")
                .args([format!("-{signal}"), "--".into(), target])
                .status()
                .unwrap();
            assert!(sent.success());
            let status = child.wait().unwrap();
            let mut text = String::new();
            std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut text).unwrap();
            let code = if signal == "INT" { 130 } else { 143 };
            assert_eq!(status.code(), Some(code), "{name} {signal}: {text}");
            assert!(text.contains("interrupted by signal"), "{text}");
            // The reports are one consistent run.
            assert!(out.join("audit.json").is_file(), "{name}: {text}");
            let _ = findings(&out);
            std::thread::sleep(Duration::from_millis(200));
            for n in 3151..=3160 {
                let marker = format!("sleep {n}");
                assert!(
                    alive_with(&marker).is_empty(),
                    "{name} {signal}: {marker} outlived the audit: {:?}",
                    alive_with(&marker)
                );
            }
        }
    }
}

#[test]
fn programs_that_cannot_run_end_the_audit_with_exit_2() {
    let dir = crate::common::scratch::reachable();
    let not_executable = dir.path().join("judge.txt");
    fs::write(&not_executable, "not a program").unwrap();
    for cmd in [
        "/nonexistent/judge".to_string(),
        not_executable.display().to_string(),
        "'unbalanced".to_string(),
    ] {
        let run = audit("pousse", &cmd, &dir.path().join("out"), &["--cases", "10"]);
        assert_eq!(run.status.code(), Some(2), "{cmd}: {}", stderr(&run));
        assert!(
            stderr(&run).starts_with("error: "),
            "{cmd}: {}",
            stderr(&run)
        );
    }
    // An unwritable report directory: a file in its place.
    let file = dir.path().join("file");
    fs::write(&file, "").unwrap();
    let run = audit("pousse", "cat", &file, &["--cases", "10"]);
    assert_eq!(run.status.code(), Some(2));
}

#[test]
fn time_bounds_the_whole_audit() {
    // A judge wrong everywhere, audited with --keep-going for 4 s: the cases stop at 3 s,
    // narrowing and shrinking end by 4 s (the hang guard: 40 s).
    let dir = crate::common::scratch::reachable();
    let cmd = build(dir.path(), "pousse.c", &["-DPLANT_MOVER_ONLY"], "mover");
    let out = dir.path().join("out");
    let started = std::time::Instant::now();
    let run = audit(
        "pousse",
        &cmd,
        &out,
        &["--time", "4", "--keep-going", "--seed", "3"],
    );
    assert!(started.elapsed() < Duration::from_secs(40), "hang guard");
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    let text = stderr(&run);
    let total: f64 = text
        .lines()
        .find_map(|line| line.strip_suffix(" s in all"))
        .and_then(|line| line.rsplit("; ").next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("{text}"));
    // What the audit reports of itself: within --time and the last run's timeout.
    assert!(total <= 4.0 + 2.5, "{text}");
}

#[test]
#[ignore = "long tier: .ci/run runs it (cargo test -- --include-ignored)"]
fn a_timeout_is_the_programs_whatever_else_runs_on_the_machine() {
    let _alone = crate::common::programs::budget_test();
    let dir = crate::common::scratch::reachable();
    let judge = build(dir.path(), "pousse.c", &[], "pousse");
    let _busy = crate::common::programs::BusyMachine::start();
    // Burning CPU after the probe: past the CPU time limit, however busy the machine.
    let burns = after_the_probe(dir.path(), "burns", &judge, "while :; do :; done");
    // Sleeping after the probe: stopped by the wall-clock cap, using no CPU time.
    let sleeps = after_the_probe(dir.path(), "sleeps", &judge, "sleep 3171");
    for (cmd, stopped) in [(&burns, "of CPU time"), (&sleeps, "wall-clock cap")] {
        let out = dir.path().join(cmd.replace('/', "_"));
        let flags = ["--cases", "100", "--timeout", "0.5", "--shrink-time", "2"];
        let run = audit("pousse", cmd, &out, &flags);
        assert_eq!(run.status.code(), Some(1), "{cmd}: {}", stderr(&run));
        let rows = findings(&out);
        assert_eq!(rows[0]["kind"], "timeout", "{cmd}: {rows:?}");
        assert!(rows[0]["detail"].contains(stopped), "{cmd}: {rows:?}");
    }
    // A correct judge on the same busy machine: no finding.
    let out = dir.path().join("correct");
    let run = audit(
        "pousse",
        &judge,
        &out,
        &["--cases", "500", "--timeout", "0.5"],
    );
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    assert!(alive_with("sleep 3171").is_empty());
}

#[test]
fn a_program_that_never_answers_within_time_is_a_finding() {
    // The hang guard: ten times --time.
    let dir = crate::common::scratch::reachable();
    let out = dir.path().join("out");
    let started = std::time::Instant::now();
    let run = referee()
        .args([
            "audit",
            "pousse",
            "--cmd",
            "sleep 1002",
            "--time",
            "10",
            "--out",
        ])
        .arg(&out)
        .timeout(Duration::from_secs(100))
        .output()
        .unwrap();
    assert!(started.elapsed() < Duration::from_secs(100), "hang guard");
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    let rows = findings(&out);
    assert_eq!(rows[0]["kind"], "timeout", "{rows:?}");
    assert!(rows[0]["detail"].contains("wall-clock cap"), "{rows:?}");
    assert!(
        stderr(&run).contains("sleep: proved wrong"),
        "{}",
        stderr(&run)
    );
    assert!(alive_with("sleep 1002").is_empty());
}

#[test]
fn an_interrupt_while_submissions_build_ends_the_build_and_keeps_the_package() {
    use common::command::{files_of, referee_process};
    let dir = crate::common::scratch::reachable();
    let d = dir.path();
    // A package whose one submission takes seconds of the compiler (constant evaluation).
    let package = d.join("package");
    fs::create_dir_all(package.join("data/secret")).unwrap();
    fs::create_dir_all(package.join("submissions/accepted")).unwrap();
    fs::write(package.join("data/secret/001.in"), "4\nL2\nQUIT\n").unwrap();
    fs::write(
        package.join("submissions/accepted/slow_build.cpp"),
        "constexpr long slow() {\n  long s = 0;\n  for (long i = 0; i < 200000; i++)\n    \
         for (long j = 0; j < 200000; j++) s += i ^ j;\n  return s;\n}\n\
         static_assert(slow() != 1, \"slow\");\nint main() { return 0; }\n",
    )
    .unwrap();
    let before = files_of(&package);
    let tmp = d.join("tmp");
    fs::create_dir(&tmp).unwrap();
    let out = d.join("out");
    let child = referee_process()
        .args(["audit", "pousse", "--package"])
        .arg(&package)
        .arg("--add-to")
        .arg(&package)
        .arg("--out")
        .arg(&out)
        .env("TMPDIR", &tmp)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Once the builds began (their directory made; hang guard: a minute), and a second into
    // the compiler's work.
    let waited = std::time::Instant::now();
    while !out.join("build").exists() && waited.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_secs(1));
    common::programs::interrupt(&child);
    let run = child.wait_with_output().unwrap();
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(130), "{err}");
    assert!(err.contains("interrupted"), "{err}");
    let programs = common::audit::Report(&out).program_rows();
    assert_eq!(programs.len(), 1, "{err}");
    assert_eq!(files_of(&package), before);
    assert!(alive_with("slow_build").is_empty(), "the compiler ended");
    assert_eq!(
        fs::read_dir(&tmp).unwrap().count(),
        0,
        "nothing left in TMPDIR"
    );
}
