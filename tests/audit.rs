//! `referee audit` on real programs: the judges of `examples/judges` (C built here with the
//! system compiler, and Python 3), referee's own binary, and hostile programs.
#![cfg(target_os = "linux")]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::{Duration, Instant};

use assert_cmd::Command;

fn referee() -> Command {
    let mut c = Command::cargo_bin("referee").unwrap();
    c.current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

fn judges() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/judges")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).to_string()
}

/// Builds `source` (in examples/judges) with `defines` into `dir`, with the system compiler.
fn build(dir: &Path, source: &str, defines: &[&str], name: &str) -> String {
    let out = dir.join(name);
    let status = std::process::Command::new("cc")
        .arg("-O2")
        .args(defines)
        .arg("-o")
        .arg(&out)
        .arg(judges().join(source))
        .status()
        .expect("a C compiler (cc) is needed for the audit tests");
    assert!(status.success(), "cc {source} failed");
    out.display().to_string()
}

fn python(script: &str, args: &str) -> String {
    format!("python3 {} {args}", judges().join(script).display())
}

/// Runs `referee audit GAME --cmd CMD` with `extra` flags into `out`.
fn audit(game: &str, cmd: &str, out: &Path, extra: &[&str]) -> Output {
    referee()
        .args(["audit", game, "--cmd", cmd, "--out"])
        .arg(out)
        .args(extra)
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap()
}

/// The findings of an audit's report directory, as rows.
fn findings(out: &Path) -> Vec<Vec<String>> {
    csv::Reader::from_path(out.join("findings.csv"))
        .unwrap()
        .records()
        .map(|r| r.unwrap().iter().map(String::from).collect())
        .collect()
}

#[test]
fn planted_bugs_are_found_classified_and_shrunk() {
    let dir = tempfile::tempdir().unwrap();
    let planted = [
        (
            "pousse",
            build(dir.path(), "pousse.c", &["-DPLANT_MOVER_ONLY"], "mover"),
            "wrong-answer",
            vec![],
        ),
        (
            "pousse",
            python("pousse.py", "--plant full-line"),
            "wrong-answer",
            vec![],
        ),
        (
            "pousse",
            python("pousse.py", "--plant hang-on-n1"),
            "timeout",
            vec!["--timeout", "0.5"],
        ),
        (
            "littlesquares",
            build(dir.path(), "littlesquares.c", &["-DPLANT_XOR_BITS"], "xor"),
            "wrong-answer",
            vec![],
        ),
        (
            "littlesquares",
            build(
                dir.path(),
                "littlesquares.c",
                &["-DPLANT_CRASH_ODD_ROWS"],
                "odd",
            ),
            "crash",
            vec![],
        ),
        (
            "somegame",
            python("somegame.py", "--plant no-wrap"),
            "wrong-answer",
            vec![],
        ),
    ];
    for (i, (game, cmd, kind, extra)) in planted.iter().enumerate() {
        let out = dir.path().join(format!("out{i}"));
        let mut flags = vec!["--time", "10", "--shrink-time", "10", "--seed", "1"];
        flags.extend(extra);
        let started = Instant::now();
        let run = audit(game, cmd, &out, &flags);
        assert_eq!(run.status.code(), Some(1), "{cmd}: {}", stderr(&run));
        assert!(
            started.elapsed() < Duration::from_secs(40),
            "{cmd}: {:?}",
            started.elapsed()
        );
        // Found within the 10 s of the case budget.
        let text = stderr(&run);
        let secs: f64 = text
            .split(" cases in ")
            .nth(1)
            .and_then(|s| s.split(' ').next())
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("{text}"));
        assert!(secs <= 10.5, "{cmd}: {secs} s");
        let rows = findings(&out);
        assert_eq!(rows.len(), 1, "{cmd}: {rows:?}");
        assert_eq!(rows[0][1], *kind, "{cmd}: {rows:?}");
        assert_eq!(rows[0][11], "confirmed-by-reference", "{cmd}: {rows:?}");
        let input = fs::read_to_string(out.join(&rows[0][4])).unwrap();
        if *game == "pousse" {
            let moves = input.lines().count() - 2;
            assert!(moves <= 6, "{cmd}: {moves} moves:\n{input}");
        }
        for ext in ["ans", "out", "err"] {
            let file = out.join(rows[0][4].replace(".in", &format!(".{ext}")));
            assert!(file.exists(), "{}", file.display());
        }
        assert!(text.contains("reproduce:"), "{text}");
    }
}

#[test]
fn correct_judges_give_no_finding() {
    let dir = tempfile::tempdir().unwrap();
    let correct = [
        ("pousse", build(dir.path(), "pousse.c", &[], "pousse"), "1"),
        ("littlesquares", python("littlesquares.py", ""), "10"),
        ("somegame", python("somegame.py", ""), "10"),
    ];
    for (game, cmd, batch) in correct {
        let out = dir.path().join(format!("{game}-out"));
        let run = audit(game, &cmd, &out, &["--time", "10", "--batch", batch]);
        assert_eq!(run.status.code(), Some(0), "{cmd}: {}", stderr(&run));
        assert!(findings(&out).is_empty());
        assert!(stderr(&run).contains("no finding"));
    }
    // The correct C judge also in batches, and on the shipped corpus first.
    let out = dir.path().join("batched");
    let cmd = dir.path().join("pousse").display().to_string();
    let run = audit(
        "pousse",
        &cmd,
        &out,
        &[
            "--cases",
            "3000",
            "--batch",
            "100",
            "--inputs",
            "corpus/pousse/sample-1-tie.in",
        ],
    );
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    // The C judge built for each ICFP rule set, under that rule set.
    for (rules, define) in [
        ("icfp98", "-DRULES_ICFP98"),
        ("icfp98-board", "-DRULES_ICFP98_BOARD"),
    ] {
        let cmd = build(dir.path(), "pousse.c", &[define], rules);
        let out = dir.path().join(format!("{rules}-out"));
        let run = audit(
            "pousse",
            &cmd,
            &out,
            &["--rules", rules, "--cases", "3000", "--batch", "20"],
        );
        assert_eq!(run.status.code(), Some(0), "{rules}: {}", stderr(&run));
    }
}

#[test]
fn auditing_referee_itself_finds_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let bin = assert_cmd::cargo::cargo_bin("referee")
        .display()
        .to_string();
    for (game, rules) in [
        ("pousse", "waterloo"),
        ("pousse", "icfp98"),
        ("littlesquares", ""),
        ("somegame", ""),
    ] {
        let mut cmd = format!("'{bin}' judge {game}");
        let mut extra = vec!["--cases", "300", "--batch", "5"];
        if !rules.is_empty() {
            cmd.push_str(&format!(" --rules {rules}"));
            extra.extend(["--rules", rules]);
        }
        let out = dir.path().join(format!("{game}{rules}"));
        let run = audit(game, &cmd, &out, &extra);
        assert_eq!(run.status.code(), Some(0), "{cmd}: {}", stderr(&run));
    }
}

#[test]
fn the_same_seed_gives_the_same_findings_whatever_the_jobs() {
    let dir = tempfile::tempdir().unwrap();
    let cmd = build(dir.path(), "pousse.c", &["-DPLANT_MOVER_ONLY"], "mover");
    let mut reports = Vec::new();
    for jobs in ["1", "2"] {
        let out = dir.path().join(format!("jobs{jobs}"));
        let run = audit(
            "pousse",
            &cmd,
            &out,
            &[
                "--cases",
                "400",
                "--seed",
                "5",
                "--keep-going",
                "--jobs",
                jobs,
                "--shrink-time",
                "60",
            ],
        );
        assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
        let mut rows = findings(&out);
        for row in &mut rows {
            row[8].clear(); // milliseconds differ
        }
        reports.push(rows);
    }
    assert_eq!(reports[0], reports[1]);
    // Several distinct bugs' signatures are kept apart, each counted.
    let signatures: std::collections::BTreeSet<&String> =
        reports[0].iter().map(|r| &r[9]).collect();
    assert_eq!(signatures.len(), reports[0].len());
    assert!(reports[0].len() >= 2, "{:?}", reports[0]);
    let counted: u64 = reports[0]
        .iter()
        .map(|r| r[10].parse::<u64>().unwrap())
        .sum();
    assert!(counted >= reports[0].len() as u64);
}

/// The processes still alive whose command line holds `marker`.
fn alive_with(marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in fs::read_dir("/proc").unwrap().flatten() {
        if let Ok(cmdline) = fs::read(entry.path().join("cmdline")) {
            let text = String::from_utf8_lossy(&cmdline).replace('\0', " ");
            if text.contains(marker) && !text.contains("referee") {
                found.push(format!("{}: {text}", entry.file_name().to_string_lossy()));
            }
        }
    }
    found
}

#[test]
fn hostile_programs_neither_hang_the_audit_nor_outlive_it() {
    let dir = tempfile::tempdir().unwrap();
    let script = |name: &str, body: &str| -> String {
        let path = dir.path().join(name);
        fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        let mut perms = fs::metadata(&path).unwrap().permissions();
        std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
        fs::set_permissions(&path, perms).unwrap();
        path.display().to_string()
    };
    let hostile = [
        // A child left sleeping, holding the output pipe open.
        (
            script("forks.sh", "sleep 3141 & cat >/dev/null; echo 'X WINS'"),
            "wrong-answer",
        ),
        // A child that leaves the process group.
        (
            script(
                "escapes.sh",
                "setsid sleep 3142 & cat >/dev/null; echo 'X WINS'",
            ),
            "wrong-answer",
        ),
        // Output without end.
        (script("floods.sh", "yes 'X WINS'"), "output-limit"),
        // Standard input closed at once, nothing read.
        (
            script("closes.sh", "exec 0<&-; echo 'TIE GAME'"),
            "wrong-answer",
        ),
        // Standard input never read, and a long sleep.
        (script("sleeps.sh", "sleep 3143"), "timeout"),
    ];
    for (cmd, kind) in &hostile {
        let out = dir.path().join(format!("{kind}-out"));
        let started = Instant::now();
        let run = audit(
            "pousse",
            cmd,
            &out,
            &[
                "--cases",
                "200",
                "--batch",
                "100",
                "--timeout",
                "1",
                "--shrink-time",
                "3",
                "--max-output",
                "1e6",
            ],
        );
        assert_eq!(run.status.code(), Some(1), "{cmd}: {}", stderr(&run));
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "{cmd}: {:?}",
            started.elapsed()
        );
        let rows = findings(&out);
        assert_eq!(rows[0][1], *kind, "{cmd}: {rows:?}");
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
fn programs_that_cannot_run_end_the_audit_with_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let not_executable = dir.path().join("judge.txt");
    fs::write(&not_executable, "not a program").unwrap();
    for cmd in [
        "/nonexistent/judge".to_string(),
        not_executable.display().to_string(),
        "sh -c 'exit 127'".to_string(),
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
fn the_html_report_draws_each_finding() {
    let dir = tempfile::tempdir().unwrap();
    let cmd = build(dir.path(), "pousse.c", &["-DPLANT_MOVER_ONLY"], "mover");
    let out = dir.path().join("out");
    let html = dir.path().join("audit.html");
    let run = audit(
        "pousse",
        &cmd,
        &out,
        &[
            "--cases",
            "400",
            "--seed",
            "5",
            "--html",
            html.to_str().unwrap(),
        ],
    );
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    let page = std::fs::read_to_string(&html).unwrap();
    assert_eq!(
        page.matches("class=\"problem\"").count(),
        findings(&out).len()
    );
    for needle in [
        "wrong-answer",
        "class=\"replay\"",
        "the program&#39;s output",
        "the engine&#39;s verdict",
        "confirmed-by-reference",
    ] {
        assert!(page.contains(needle), "{needle}");
    }
}
