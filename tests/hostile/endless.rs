//! Endless and oversized inputs end with an error (or at their first broken limit), and
//! nothing waits on a FIFO.

use super::*;
use crate::common::command::{csv_records, referee, referee_process, stderr};
use std::fs;
use std::io::Write;
use std::process::Stdio;
use std::time::{Duration, Instant};

#[test]
fn leading_blank_lines_of_any_length_are_read() {
    let dir = crate::common::scratch::reachable();
    // 16 MB of newlines before a grid, and 5000 before a Some Game header: each file is
    // recognised and judged (recognition that stops after a few KiB would miss them, and a
    // parser that rescans the blank prefix for every read would take quadratic time).
    let mut grid = "\n".repeat(16 << 20);
    grid.push_str("..\n..\n");
    fs::write(dir.path().join("grid.in"), &grid).unwrap();
    fs::write(dir.path().join("grid.ans"), "first\n").unwrap();
    let mut board = "\n".repeat(5000);
    board.push_str("1 1 1 1\n0\n");
    fs::write(dir.path().join("board.in"), &board).unwrap();
    let out = crate::common::scratch::reachable();
    // Over 8 MiB the reference runs only when asked to.
    let run = referee()
        .arg("verify")
        .arg(dir.path())
        .args(["--reference-max-bytes", "100000000", "--out"])
        .arg(out.path())
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", stderr(&run));
    let rows = csv_records(&out.path().join("verdicts.csv"));
    assert_eq!(rows.len(), 2);
    assert!(rows.iter().all(|r| r[7] == "ok"), "{rows:?}");
}

#[cfg(unix)]
#[test]
fn endless_inputs_end_with_an_error() {
    // /dev/zero: one endless line.
    for game in ["pousse", "littlesquares", "somegame"] {
        let run = referee()
            .args(["judge", game, "/dev/zero"])
            .timeout(Duration::from_secs(30))
            .output()
            .unwrap();
        assert_eq!(run.status.code(), Some(1), "{game}: {}", stderr(&run));
        assert!(
            stderr(&run).contains("/dev/zero:1:1:"),
            "{game}: {}",
            stderr(&run)
        );
    }
    // An endless stream of valid moves: cut off at --max-input-bytes.
    let args = ["judge", "pousse", "--max-input-bytes", "1e6"];
    let (code, said) = fed_forever(&args, b"4\n", b"L1\nT2\n");
    assert_eq!(code, Some(2), "{said}");
    assert!(said.contains("longer than 1000000 bytes"), "{said}");
}

/// Feeds `referee ARGS` `head`, then an endless stream of `line`, and waits for its exit code (a hang guard
/// of 120 s).
#[cfg(unix)]
fn fed_forever(args: &[&str], head: &'static [u8], line: &'static [u8]) -> (Option<i32>, String) {
    let mut child = referee_process()
        .args(args)
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let block = line.repeat(4096 / line.len().max(1));
        let _ = stdin.write_all(head);
        while stdin.write_all(&block).is_ok() {}
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            panic!("{args:?} still reading an endless input after 120 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    writer.join().unwrap();
    let mut said = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut said).unwrap();
    (status.code(), said)
}

#[cfg(unix)]
#[test]
fn the_contest_validator_ends_on_endless_input_as_the_engines_does() {
    for (game, line) in [
        ("pousse", &b"L1\n"[..]),
        ("pousse", &b"\0"[..]),
        ("littlesquares", &b"\0"[..]),
        ("somegame", &b"\0"[..]),
        ("somegame", &b"x y\n"[..]),
    ] {
        for constraints in ["engine", "contest"] {
            let args = ["validate", game, "--constraints", constraints];
            let (code, said) = fed_forever(&args, b"", line);
            assert_eq!(code, Some(43), "{args:?}: {said}");
            assert!(said.starts_with("<stdin>:1:1: "), "{args:?}: {said}");
        }
    }
}

#[test]
fn endless_valid_input_ends_at_its_first_broken_limit_or_at_the_input_bound() {
    // An endless grid of valid rows: under the contest's limits (10 rows), it ends at once.
    let args = ["validate", "littlesquares", "--constraints", "contest"];
    let started = Instant::now();
    let (code, said) = fed_forever(&args, b"", b"..\n");
    assert_eq!(code, Some(43), "{said}");
    assert!(
        said.contains("case 1: expected a case of at most 1024 bytes"),
        "{said}"
    );
    // Hang guard: ten times what it takes.
    assert!(started.elapsed() < Duration::from_secs(10), "{said}");
    // An endless Pousse game breaks no limit of the contest's: it ends at the input bound,
    // whose flag is named.
    for constraints in ["engine", "contest"] {
        let args = [
            "validate",
            "pousse",
            "--constraints",
            constraints,
            "--max-input-bytes",
            "1e6",
        ];
        let (code, said) = fed_forever(&args, b"4\n", b"L1\n");
        assert_eq!(code, Some(43), "{args:?}: {said}");
        assert!(
            said.contains("longer than 1000000 bytes (--max-input-bytes)"),
            "{said}"
        );
    }
    // Cases one after another: the first outside the limits ends it (the second of an
    // endless run of games, the first on a board of 101).
    let args = ["validate", "pousse", "--constraints", "contest"];
    let (code, said) = fed_forever(
        &args,
        b"1000000\n\n2\nL1\nQUIT\n\n101\nQUIT\n",
        b"\n2\nQUIT\n",
    );
    assert_eq!(code, Some(43), "{said}");
    assert!(
        said.contains("case 2: expected a board size N <= 100"),
        "{said}"
    );
}

#[cfg(unix)]
#[test]
fn check_writes_fresh_feedback_and_never_waits_on_a_fifo() {
    use std::os::unix::fs::symlink;
    let dir = crate::common::scratch::reachable();
    let (input, answer) = case_files(dir.path(), "1\nL1\nQUIT\n", "X WINS\n");
    let feedback = dir.path().join("feedback");
    fs::create_dir(&feedback).unwrap();
    // A stale judge error of an earlier run, and a planted link to a victim file.
    fs::write(feedback.join("judgeerror.txt"), "judge error: stale\n").unwrap();
    let victim = dir.path().join("victim.txt");
    fs::write(&victim, "untouched\n").unwrap();
    symlink(&victim, feedback.join("judgemessage.txt")).unwrap();
    let run = referee()
        .args(["check", "pousse"])
        .arg(&input)
        .arg(&answer)
        .arg(&feedback)
        .write_stdin("X WINS\n")
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(42), "{}", stderr(&run));
    assert_eq!(read(&victim), "untouched\n");
    assert!(!feedback.join("judgeerror.txt").exists());
    let message = feedback.join("judgemessage.txt");
    assert!(!message.symlink_metadata().unwrap().file_type().is_symlink());
    assert!(read(&message).starts_with("accepted"));
    // A FIFO as the answer (Kattis) or as the team's output (testlib) is refused at once.
    let fifo = dir.path().join("fifo");
    if !std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success())
    {
        eprintln!("skipped: mkfifo is not available");
        return;
    }
    let run = referee()
        .args(["check", "pousse"])
        .arg(&input)
        .arg(&fifo)
        .arg(&feedback)
        .write_stdin("X WINS\n")
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    assert!(read(&feedback.join("judgeerror.txt")).contains("FIFO"));
    let run = referee()
        .args(["check", "pousse", "--protocol", "testlib"])
        .arg(&input)
        .arg(&fifo)
        .arg(&answer)
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(3), "{}", stderr(&run));
}

#[test]
fn package_never_waits_on_a_fifo_where_it_reads_a_file() {
    // `referee-files.txt` of the package it would replace, and `--referee` to bundle: each a
    // FIFO, each refused at once (exit 2, naming it), nothing written.
    let dir = crate::common::scratch::reachable();
    let out = dir.path().join("pkg");
    fs::create_dir(&out).unwrap();
    let fifo_at = |path: &std::path::Path| {
        assert!(std::process::Command::new("mkfifo")
            .arg(path)
            .status()
            .unwrap()
            .success());
    };
    fifo_at(&out.join("referee-files.txt"));
    let run = referee()
        .args(["package", "pousse", "--out"])
        .arg(&out)
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(2), "{err}");
    assert!(err.contains("FIFO"), "{err}");
    let binary = dir.path().join("referee-fifo");
    fifo_at(&binary);
    let fresh = dir.path().join("fresh");
    let run = referee()
        .args(["package", "pousse", "--referee"])
        .arg(&binary)
        .arg("--out")
        .arg(&fresh)
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(2), "{err}");
    assert!(!fresh.exists(), "{err}");
}
