//! Hostile input and faults, through the binary: no file dropped, no file read outside the
//! tree it was pointed at, memory bounded by the board and the expected output, reports never
//! mixed or half written, flags checked before any work, endless inputs ended.

use crate::common::command::{csv_records, referee, referee_process, stderr};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `a.in` and `a.ans` in `dir`, holding `input` and `answer`.
fn case_files(dir: &Path, input: &str, answer: &str) -> (PathBuf, PathBuf) {
    let paths = (dir.join("a.in"), dir.join("a.ans"));
    fs::write(&paths.0, input).unwrap();
    fs::write(&paths.1, answer).unwrap();
    paths
}

#[cfg(unix)]
#[test]
fn files_whose_names_differ_only_in_bytes_that_are_not_utf8_are_two_rows() {
    use std::os::unix::ffi::OsStrExt;
    let dir = crate::common::scratch::reachable();
    let cases = dir.path().join("cases");
    fs::create_dir(&cases).unwrap();
    let name = |b: u8| cases.join(std::ffi::OsStr::from_bytes(&[b'x', b, b'.', b'i', b'n']));
    fs::write(name(0xfe), "1\nL1\nQUIT\n").unwrap();
    fs::write(name(0xff), "2\nQUIT\n").unwrap();
    fs::write(cases.join("x\\xFE.in"), "2\nQUIT\n").unwrap();
    let out = dir.path().join("reports");
    referee()
        .arg("verify")
        .arg(&cases)
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    let rows = csv_records(&out.join("verdicts.csv"));
    let files: Vec<&str> = rows.iter().map(|r| r[0].as_str()).collect();
    assert_eq!(rows.len(), 3, "{files:?}");
    assert!(files.iter().any(|f| f.ends_with("/x\\xFE.in")), "{files:?}");
    assert!(files.iter().any(|f| f.ends_with("/x\\xFF.in")), "{files:?}");
    assert!(
        files.iter().any(|f| f.ends_with("/x\\\\xFE.in")),
        "{files:?}"
    );
    let verdicts: Vec<&str> = rows.iter().map(|r| r[4].as_str()).collect();
    assert!(verdicts.contains(&"X WINS") && verdicts.contains(&"TIE GAME"));
}

/// Peak resident memory of a command in KiB, by GNU time, when the machine has it (required
/// with `REFEREE_REQUIRE_TOOLS`, as `.ci/run` sets it after installing it).
fn peak_kib(args: &[&std::ffi::OsStr]) -> Option<(u64, std::process::Output)> {
    if !Path::new("/usr/bin/time").exists() {
        assert!(
            !crate::common::tool::required(),
            "/usr/bin/time (Debian package `time`) is not installed"
        );
        eprintln!("SKIPPED: /usr/bin/time (Debian package `time`) is not installed");
        return None;
    }
    let output = std::process::Command::new("/usr/bin/time")
        .arg("-f")
        .arg("peak-kib %M")
        .arg(env!("CARGO_BIN_EXE_referee"))
        .args(args)
        .output()
        .unwrap();
    let text = stderr(&output);
    let line = text.lines().rev().find(|l| l.starts_with("peak-kib "))?;
    Some((line[9..].trim().parse().unwrap(), output))
}

#[test]
fn grading_a_gigantic_output_takes_little_memory_and_reports_it_escaped() {
    let dir = crate::common::scratch::reachable();
    let cases = dir.path().join("cases");
    fs::create_dir(&cases).unwrap();
    fs::write(cases.join("a.in"), "1\nL1\nQUIT\n").unwrap();
    fs::write(cases.join("b.in"), "1\nL1\nQUIT\n").unwrap();
    let sub = dir.path().join("subs/huge");
    fs::create_dir_all(&sub).unwrap();
    // 4 GB of zeros, as a sparse file: the disk holds nothing of it.
    let huge = fs::File::create(sub.join("a.out")).unwrap();
    huge.set_len(4 << 30).unwrap();
    // Control bytes and a terminal escape in a short output.
    fs::write(sub.join("b.out"), b"X\x00WINS\x1b[2J\r\n").unwrap();
    let out = dir.path().join("reports");
    let args: Vec<&std::ffi::OsStr> = vec![
        "grade".as_ref(),
        "--cases".as_ref(),
        cases.as_os_str(),
        "--submissions".as_ref(),
        dir.path().join("subs").into_os_string().leak(),
        "--out".as_ref(),
        out.as_os_str(),
    ];
    let started = Instant::now();
    let measured = peak_kib(&args);
    let grades = csv_records(&out.join("grades.csv"));
    assert_eq!(grades.len(), 2);
    assert_eq!(grades[0][2], "WA", "{grades:?}");
    assert!(grades[0][4].starts_with("\\x00\\x00"), "{grades:?}");
    assert!(
        grades[0][5].contains("far more than expected"),
        "{grades:?}"
    );
    assert_eq!(grades[1][2], "WA");
    assert_eq!(grades[1][4], "X\\x00WINS\\x1B[2J\\x0D\\n");
    let csv = read(&out.join("grades.csv"));
    assert!(
        !csv.bytes().any(|b| b < 0x20 && b != b'\n'),
        "raw control bytes in {csv:?}"
    );
    assert!(started.elapsed() < Duration::from_secs(60), "hang guard");
    if let Some((kib, _)) = measured {
        assert!(kib < 64 * 1024, "peak memory {kib} KiB");
    }
}

#[cfg(unix)]
#[test]
fn links_that_leave_the_tree_are_not_followed() {
    use std::os::unix::fs::symlink;
    let dir = crate::common::scratch::reachable();
    let secret = dir.path().join("secret.txt");
    fs::write(&secret, "the secret content\n").unwrap();
    let outside = dir.path().join("outside");
    fs::create_dir(&outside).unwrap();
    fs::write(outside.join("hidden.in"), "1\nL1\nQUIT\n").unwrap();
    // Cases: one real, one link inside the tree, one link to a file and one to a directory
    // outside it.
    let cases = dir.path().join("cases");
    fs::create_dir(&cases).unwrap();
    fs::write(cases.join("real.in"), "1\nL1\nQUIT\n").unwrap();
    symlink(cases.join("real.in"), cases.join("inside.in")).unwrap();
    symlink(&secret, cases.join("leak.in")).unwrap();
    symlink(&outside, cases.join("elsewhere")).unwrap();
    let out = dir.path().join("verify-reports");
    let run = referee()
        .arg("verify")
        .arg(&cases)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    let verdicts = read(&out.join("verdicts.csv"));
    assert!(!verdicts.contains("secret content"));
    let rows = csv_records(&out.join("verdicts.csv"));
    let status = |name: &str| {
        let row = rows.iter().find(|r| r[0].ends_with(name)).expect(name);
        (row[7].clone(), row[11].clone())
    };
    assert_eq!(status("real.in").0, "ok");
    assert_eq!(status("inside.in").0, "ok");
    let (leak, why) = status("leak.in");
    assert_eq!(leak, "invalid-input");
    assert!(why.contains("symbolic link leaving"), "{why}");
    assert!(status("elsewhere").1.contains("symbolic link leaving"));
    assert!(!rows.iter().any(|r| r[0].contains("hidden.in")));
    // Grading: a submission's output linked to a file elsewhere is NO, never read.
    let subs = dir.path().join("subs/mallory");
    fs::create_dir_all(&subs).unwrap();
    symlink(&secret, subs.join("real.out")).unwrap();
    let grades_out = dir.path().join("grade-reports");
    referee()
        .args(["grade", "--cases"])
        .arg(&cases)
        .arg("--submissions")
        .arg(dir.path().join("subs"))
        .arg("--out")
        .arg(&grades_out)
        .assert()
        .code(1);
    let grades = read(&grades_out.join("grades.csv"));
    assert!(!grades.contains("secret content"), "{grades}");
    assert!(
        grades.contains("mallory,real.in,NO,X WINS\\n,,a symbolic link leaving"),
        "{grades}"
    );
}

#[test]
fn leading_blank_lines_of_any_length_are_read() {
    let dir = crate::common::scratch::reachable();
    // 16 MB of newlines before a grid, and 5000 before a Some Game header: each file is
    // recognised and judged (recognition used to stop after 4 KiB, and the LittleSquares
    // parser rescanned the blank prefix for every read).
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

/// Runs `referee verify CASES --shard K/N --out DIR`.
fn shard(cases: &Path, k: u64, n: u64, out: &Path) {
    referee()
        .arg("verify")
        .arg(cases)
        .arg("--shard")
        .arg(format!("{k}/{n}"))
        .arg("--out")
        .arg(out)
        .assert()
        .success();
}

#[test]
fn merge_refuses_what_is_not_one_run() {
    let dir = crate::common::scratch::reachable();
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let d = |name: &str| dir.path().join(name);
    shard(&corpus, 1, 2, &d("s1"));
    shard(&corpus, 2, 2, &d("s2"));
    shard(&corpus.join("pousse"), 2, 2, &d("other-input"));
    let merge = |dirs: &[&str]| {
        let mut cmd = referee();
        cmd.arg("merge");
        for name in dirs {
            cmd.arg(d(name));
        }
        cmd.arg("--out").arg(d("merged")).output().unwrap()
    };
    let missing = merge(&["s1"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        stderr(&missing).contains("slice missing: 2/2"),
        "{}",
        stderr(&missing)
    );
    let doubled = merge(&["s1", "s1", "s2"]);
    assert_eq!(doubled.status.code(), Some(2));
    assert!(
        stderr(&doubled).contains("slice given twice: 1/2"),
        "{}",
        stderr(&doubled)
    );
    let mixed = merge(&["s1", "other-input"]);
    assert_eq!(mixed.status.code(), Some(2));
    assert!(stderr(&mixed).contains("case lists"), "{}", stderr(&mixed));
    // Shards of two copies of a corpus under the same names, one file different in one: the
    // walk's digest of every name and size tells them apart.
    for (copy, changed) in [("a", false), ("b", true)] {
        let root = d(copy);
        crate::common::command::copy_tree(&corpus, &root.join("corpus"));
        if changed {
            let case = root.join("corpus/pousse/sample-1-tie.in");
            let text = read(&case);
            fs::write(&case, format!("{text}\n")).unwrap();
        }
        let k = if changed { 2 } else { 1 };
        let run = referee()
            .current_dir(&root)
            .args(["verify", "corpus", "--shard", &format!("{k}/2"), "--out"])
            .arg(d(&format!("copy-{copy}")))
            .output()
            .unwrap();
        assert!(
            run.status.code().is_some_and(|c| c <= 1),
            "{}",
            stderr(&run)
        );
    }
    let copies = merge(&["copy-a", "copy-b"]);
    assert_eq!(copies.status.code(), Some(2), "{}", stderr(&copies));
    assert!(
        stderr(&copies).contains("case lists"),
        "{}",
        stderr(&copies)
    );
    // A manifest under another command's file name is not that command's run.
    shard(&corpus, 2, 2, &d("renamed"));
    fs::rename(
        d("renamed").join("verify.json"),
        d("renamed").join("grade.json"),
    )
    .unwrap();
    let renamed = merge(&["s1", "renamed"]);
    assert_eq!(renamed.status.code(), Some(2));
    assert!(
        stderr(&renamed).contains("grade.json names the command \"verify\", not grade"),
        "{}",
        stderr(&renamed)
    );
    // A shard whose reports were changed after the run is not one run either.
    let verdicts = d("s2").join("verdicts.csv");
    let text = read(&verdicts);
    fs::write(&verdicts, text.replacen(",ok,", ",expected-mismatch,", 1)).unwrap();
    let changed = merge(&["s1", "s2"]);
    assert_eq!(changed.status.code(), Some(2));
    assert!(
        stderr(&changed).contains("does not hold one run"),
        "{}",
        stderr(&changed)
    );
    fs::write(&verdicts, text).unwrap();
    let ok = merge(&["s1", "s2"]);
    assert!(ok.status.success(), "{}", stderr(&ok));
    assert!(!d("merged").join("verdicts.csv").exists() || stderr(&ok).contains("merged 2 shards"));
}

/// A verify run's reports are one run: the manifest's digests match both reports.
fn is_one_run(dir: &Path) -> Result<(), String> {
    referee::report::manifest::Manifest::read(dir, "verify.json").map(|_| ())
}

/// A corpus of `files` Pousse cases, every one with the verdict `verdict`.
fn corpus_of(dir: &Path, files: usize, verdict: &str) {
    fs::create_dir_all(dir).unwrap();
    let text = if verdict == "X WINS" {
        "1\nL1\nQUIT\n"
    } else {
        "2\nQUIT\n"
    };
    for i in 0..files {
        fs::write(dir.join(format!("{i:04}.in")), text).unwrap();
    }
}

#[test]
fn reports_killed_at_any_point_or_written_at_once_are_never_mixed() {
    let dir = crate::common::scratch::reachable();
    let (wins, ties) = (dir.path().join("wins"), dir.path().join("ties"));
    corpus_of(&wins, 300, "X WINS");
    corpus_of(&ties, 200, "TIE GAME");
    let out = dir.path().join("reports");
    let bin = assert_cmd::cargo::cargo_bin("referee");
    let spawn = |cases: &Path, failpoint: Option<&str>| {
        let mut cmd = std::process::Command::new(&bin);
        cmd.arg("verify")
            .arg(cases)
            .arg("--out")
            .arg(&out)
            .arg("--jobs")
            .arg("1")
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        if let Some(point) = failpoint {
            cmd.env("REFEREE_FAILPOINT", point);
        }
        cmd.spawn().unwrap()
    };
    let rows_of = |cases: usize| cases as u64;
    let check = |round: &str| {
        if !out.exists() {
            return;
        }
        is_one_run(&out).unwrap_or_else(|e| panic!("{round}: {e}"));
        let manifest = referee::report::manifest::Manifest::read(&out, "verify.json").unwrap();
        let rows = manifest.reports["verdicts.csv"].rows;
        assert!(
            rows == rows_of(300) || rows == rows_of(200),
            "{round}: {rows} rows"
        );
    };
    // Killed exactly between the two reports, and on either side of the switch.
    for point in ["between-reports", "before-switch", "after-switch"] {
        let mut child = spawn(&wins, Some(point));
        child.wait().unwrap();
        check(point);
        let mut child = spawn(&ties, None);
        assert!(child.wait().unwrap().success());
        check(point);
    }
    // Killed at random moments.
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    for round in 0..40 {
        state = referee::hash::mix64(state);
        let cases = if state.is_multiple_of(2) {
            &wins
        } else {
            &ties
        };
        let mut child = spawn(cases, None);
        std::thread::sleep(Duration::from_micros(state % 60_000));
        let _ = child.kill();
        child.wait().unwrap();
        check(&format!("kill round {round}"));
    }
    // Several runs into one directory at once.
    for round in 0..8 {
        let children: Vec<_> = (0..4)
            .map(|i| spawn(if i % 2 == 0 { &wins } else { &ties }, None))
            .collect();
        for mut child in children {
            assert!(child.wait().unwrap().success(), "round {round}");
        }
        check(&format!("concurrent round {round}"));
    }
    // Nothing but the report directory is left behind.
    let left: Vec<PathBuf> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with(".reports.referee-")
        })
        .collect();
    assert!(left.len() <= 1, "{left:?}");
}

#[test]
fn flags_and_outputs_are_checked_before_any_work() {
    let dir = crate::common::scratch::reachable();
    // A LittleSquares grid of 24 empty squares takes the reference seconds; an --out that is
    // a file is refused before that.
    let cases = dir.path().join("cases");
    fs::create_dir(&cases).unwrap();
    fs::write(cases.join("slow.in"), "......\n......\n......\n......\n").unwrap();
    let file = dir.path().join("a-file");
    fs::write(&file, "").unwrap();
    let started = Instant::now();
    let run = referee()
        .arg("verify")
        .arg(&cases)
        .arg("--out")
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
    assert!(stderr(&run).contains("not a directory"), "{}", stderr(&run));
    // The report directory is checked before the walk starts (`Staging::new` comes first in
    // `verify::run::run`), so nothing was judged. Hang guard: 60 s.
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "hang guard: {:?}",
        started.elapsed()
    );
    // --jobs beyond reason is capped, and said.
    let run = referee()
        .args(["verify", "corpus/pousse", "--jobs", "100000", "--out"])
        .arg(dir.path().join("r"))
        .output()
        .unwrap();
    assert!(run.status.success());
    assert!(
        stderr(&run).contains("--jobs 100000 capped"),
        "{}",
        stderr(&run)
    );
    // --rules for a game without rule sets is refused by every subcommand.
    for args in [
        vec![
            "verify",
            "corpus/littlesquares",
            "--game",
            "littlesquares",
            "--rules",
            "icfp98",
        ],
        vec![
            "gen",
            "littlesquares",
            "--out",
            "unused",
            "--rules",
            "icfp98",
        ],
        vec!["stress", "somegame", "--cases", "1", "--rules", "icfp98"],
        vec![
            "judge",
            "littlesquares",
            "corpus/littlesquares/example-1.in",
            "--rules",
            "icfp98",
        ],
        vec!["verify", "corpus", "--rules", "nonesuch"],
    ] {
        let run = referee().args(&args).output().unwrap();
        assert_eq!(run.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&run).contains("rule set"),
            "{args:?}: {}",
            stderr(&run)
        );
    }
    // The budget is accepted as the help writes it.
    referee()
        .args([
            "verify",
            "corpus/pousse",
            "--reference-budget",
            "2e9",
            "--out",
        ])
        .arg(dir.path().join("r2"))
        .assert()
        .success();
    // verify needs a path: it does not walk the current directory unasked.
    let run = referee().arg("verify").output().unwrap();
    assert_eq!(run.status.code(), Some(2));
    // Every subcommand's help states the exit codes; judge's lists the rule sets.
    for sub in ["judge", "verify", "merge", "grade", "gen", "stress"] {
        let help = referee().args([sub, "--help"]).output().unwrap();
        let text = String::from_utf8_lossy(&help.stdout)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        assert!(text.contains("Exit codes: 0 done"), "{sub}: {text}");
    }
    let help = referee().args(["judge", "--help"]).output().unwrap();
    let text = String::from_utf8_lossy(&help.stdout)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        text.contains("waterloo, icfp98, icfp98-board (default waterloo)"),
        "{text}"
    );
    // gen says what it wrote.
    let run = referee()
        .args(["gen", "pousse", "--count", "3", "--out"])
        .arg(dir.path().join("g"))
        .output()
        .unwrap();
    assert!(
        stderr(&run).contains("wrote 3 input files"),
        "{}",
        stderr(&run)
    );
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

#[cfg(unix)]
#[test]
fn a_fifo_among_the_cases_is_reported_not_opened() {
    let dir = crate::common::scratch::reachable();
    let fifo = dir.path().join("pipe.in");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("skipped: mkfifo is not available");
        return;
    }
    fs::write(dir.path().join("real.in"), "1\nL1\nQUIT\n").unwrap();
    let out = crate::common::scratch::reachable();
    let run = referee()
        .arg("verify")
        .arg(dir.path())
        .arg("--out")
        .arg(out.path())
        .timeout(Duration::from_secs(30))
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    let rows = csv_records(&out.path().join("verdicts.csv"));
    let pipe = rows.iter().find(|r| r[0].ends_with("pipe.in")).unwrap();
    assert_eq!(pipe[7], "invalid-input");
    assert!(pipe[11].contains("a FIFO"), "{pipe:?}");
}

/// `verify TREE --out OUT` (exit 1, never waiting on anything: a 60 s hang guard) whose reports
/// hold nothing of the file planted outside the tree ("the secret content"): its rows.
fn verify_rows_without_the_secret(tree: &Path, out: &Path) -> Vec<Vec<String>> {
    let run = referee()
        .arg("verify")
        .arg(tree)
        .arg("--out")
        .arg(out)
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    let verdicts = read(&out.join("verdicts.csv"));
    assert!(!verdicts.contains("secret content"), "{verdicts}");
    csv_records(&out.join("verdicts.csv"))
}

#[cfg(unix)]
#[test]
fn answer_files_are_read_only_inside_the_tree_and_never_waited_on() {
    use std::os::unix::fs::symlink;
    let dir = crate::common::scratch::reachable();
    let secret = dir.path().join("secret.txt");
    fs::write(&secret, "X WINS\nthe secret content\n").unwrap();
    let cases = dir.path().join("cases");
    fs::create_dir(&cases).unwrap();
    for name in ["leak", "zero", "fifo", "big", "good"] {
        fs::write(cases.join(format!("{name}.in")), "1\nL1\nQUIT\n").unwrap();
    }
    symlink(&secret, cases.join("leak.ans")).unwrap();
    symlink("/dev/zero", cases.join("zero.ans")).unwrap();
    let fifo = std::process::Command::new("mkfifo")
        .arg(cases.join("fifo.ans"))
        .status()
        .is_ok_and(|s| s.success());
    // An answer file far longer than any answer to its input can be.
    fs::File::create(cases.join("big.ans"))
        .unwrap()
        .set_len(1 << 30)
        .unwrap();
    fs::write(cases.join("good.ans"), "X WINS\n").unwrap();
    let rows = verify_rows_without_the_secret(&cases, &dir.path().join("verify-reports"));
    let row = |name: &str| {
        rows.iter()
            .find(|r| r[0].ends_with(name))
            .expect(name)
            .clone()
    };
    assert_eq!(row("good.in")[7], "ok");
    for (name, why) in [
        ("leak.in", "symbolic link leaving"),
        ("zero.in", "symbolic link leaving"),
        ("big.in", "1073741824 bytes"),
    ] {
        let r = row(name);
        assert_eq!(r[7], "invalid-input", "{r:?}");
        assert!(
            r[11].contains("unreadable answer file") && r[11].contains(why),
            "{r:?}"
        );
    }
    if fifo {
        let r = row("fifo.in");
        assert!(r[11].contains("a FIFO"), "{r:?}");
    }
    assert_eq!(rows.len(), 5, "{rows:?}");
    // grade reads the answers through the same guard: judge errors, nothing copied.
    let subs = dir.path().join("subs/alice");
    fs::create_dir_all(&subs).unwrap();
    for name in ["leak", "zero", "fifo", "big", "good"] {
        fs::write(subs.join(format!("{name}.out")), "X WINS\n").unwrap();
    }
    let grades_out = dir.path().join("grade-reports");
    let run = referee()
        .args(["grade", "--cases"])
        .arg(&cases)
        .arg("--submissions")
        .arg(dir.path().join("subs"))
        .arg("--out")
        .arg(&grades_out)
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    assert!(run.status.code().is_some(), "{}", stderr(&run));
    let grades = read(&grades_out.join("grades.csv"));
    assert!(!grades.contains("secret content"), "{grades}");
    let grades = self::csv_records(&grades_out.join("grades.csv"));
    let verdict = |name: &str| {
        grades
            .iter()
            .find(|r| r[1] == format!("{name}.in"))
            .expect(name)[2]
            .clone()
    };
    assert_eq!(verdict("good"), "AC");
    for name in ["leak", "zero", "big"]
        .into_iter()
        .chain(fifo.then_some("fifo"))
    {
        assert_eq!(verdict(name), "JE", "{grades:?}");
    }
}

#[test]
fn a_closed_standard_output_ends_the_run_quietly() {
    let dir = crate::common::scratch::reachable();
    let input = dir.path().join("many.in");
    let mut text = String::from("20000\n");
    for _ in 0..20000 {
        text.push_str("\n3\nT1\nQUIT\n");
    }
    fs::write(&input, text).unwrap();
    for json in [true, false] {
        let mut child = referee_process()
            .args(["judge", "pousse"])
            .arg(&input)
            .args(json.then_some("--json"))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The reader takes a few bytes and goes away, as `head -c 10` does.
        let mut head = [0u8; 10];
        std::io::Read::read_exact(child.stdout.as_mut().unwrap(), &mut head).unwrap();
        drop(child.stdout.take());
        let output = child.wait_with_output().unwrap();
        let err = stderr(&output);
        assert_eq!(output.status.code(), Some(0), "{err}");
        assert!(err.is_empty(), "{err}");
    }
}

#[test]
fn ci_output_paths_are_checked_before_any_work_and_no_directory_is_made() {
    let dir = crate::common::scratch::reachable();
    let cases = dir.path().join("cases");
    fs::create_dir(&cases).unwrap();
    fs::write(cases.join("a.in"), "1\nL1\nQUIT\n").unwrap();
    let missing = dir.path().join("nonexistent");
    for (flag, value) in [
        ("--junit", dir.path().to_path_buf()),
        ("--junit", missing.join("j.xml")),
        ("--html", missing.join("r.html")),
    ] {
        let out = dir.path().join("reports");
        let run = referee()
            .arg("verify")
            .arg(&cases)
            .arg("--out")
            .arg(&out)
            .arg(flag)
            .arg(&value)
            .output()
            .unwrap();
        assert_eq!(run.status.code(), Some(2), "{flag} {}", value.display());
        let err = stderr(&run);
        assert!(err.contains(flag), "{err}");
        assert!(!out.exists(), "{flag}: the run went ahead");
        assert!(!missing.exists(), "{flag}: a directory was made");
    }
    // The run's own report directory, which it makes, may hold them.
    let out = dir.path().join("reports");
    referee()
        .arg("verify")
        .arg(&cases)
        .arg("--out")
        .arg(&out)
        .arg("--junit")
        .arg(out.join("junit.xml"))
        .arg("--html")
        .arg(out.join("report.html"))
        .assert()
        .code(0);
    assert!(out.join("junit.xml").is_file() && out.join("report.html").is_file());
    let run = referee()
        .args(["grade", "--cases"])
        .arg(&cases)
        .arg("--submissions")
        .arg(&cases)
        .arg("--out")
        .arg(dir.path().join("grades"))
        .arg("--junit")
        .arg(missing.join("j.xml"))
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2), "{}", stderr(&run));
    assert!(!dir.path().join("grades").exists() && !missing.exists());
}

#[test]
fn the_front_door_says_what_each_run_does() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // grade: both shipped submissions are graded NO, which is a result, not a failure.
    let dir = crate::common::scratch::reachable();
    let run = referee()
        .args(["grade", "--cases", "corpus/pousse", "--submissions"])
        .arg(root.join("examples/submissions"))
        .arg("--out")
        .arg(dir.path().join("grades"))
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let help = |sub: &str| {
        let out = referee().args([sub, "--help"]).output().unwrap();
        String::from_utf8_lossy(&out.stdout)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert!(help("grade").contains("1 a case is a judge error"));
    assert!(help("audit").contains("1 the program was proved wrong"));
    assert!(help("stress").contains("1 a divergence was found"));
    // Runs with default outputs do not write into the repository's tracked tree.
    let ignored = read(&root.join(".gitignore"));
    for (sub, default) in [
        ("audit", "audit-findings"),
        ("grade", "grades"),
        ("stress", "stress-failures"),
    ] {
        assert!(
            help(sub).contains(&format!("[default: {default}]")),
            "{sub}"
        );
        assert!(ignored.lines().any(|l| l == format!("/{default}")), "{sub}");
    }
    // merge names every file it wrote, the manifest included.
    for k in 1..=2 {
        referee()
            .args([
                "verify",
                "corpus/pousse",
                "--shard",
                &format!("{k}/2"),
                "--out",
            ])
            .arg(dir.path().join(format!("r{k}")))
            .assert()
            .code(0);
    }
    let run = referee()
        .arg("merge")
        .arg(dir.path().join("r1"))
        .arg(dir.path().join("r2"))
        .arg("--out")
        .arg(dir.path().join("merged"))
        .output()
        .unwrap();
    let said = stderr(&run);
    for file in fs::read_dir(dir.path().join("merged")).unwrap() {
        let name = file.unwrap().file_name().to_string_lossy().to_string();
        assert!(said.contains(&name), "{name} not in {said}");
    }
    // The README shows every subcommand.
    let readme = read(&root.join("README.md"));
    for sub in [
        "judge", "verify", "merge", "grade", "gen", "stress", "audit", "show", "validate", "check",
        "package",
    ] {
        assert!(readme.contains(&format!("referee {sub} ")), "{sub}");
    }
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
fn the_reference_reads_no_more_than_the_machine_can_hold_and_littlesquares_memory_follows_the_grid()
{
    // An endless input through the reference ends with an error, its memory bounded by the
    // machine's (the default limit is the available memory over the reference's worst factor).
    let args: Vec<&std::ffi::OsStr> = vec![
        "judge".as_ref(),
        "littlesquares".as_ref(),
        "/dev/zero".as_ref(),
        "--engine".as_ref(),
        "reference".as_ref(),
    ];
    if let Some((kib, output)) = peak_kib(&args) {
        assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
        assert!(stderr(&output).contains("--max-input-bytes"));
        let available_kib: u64 = read(Path::new("/proc/meminfo"))
            .lines()
            .find(|l| l.starts_with("MemAvailable:"))
            .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
            .unwrap_or(u64::MAX);
        assert!(kib < available_kib / 8, "peak {kib} KiB");
    }
    // 32 MiB of blank lines before a 2x4 grid: engine, reference, recognition and reports take
    // memory for the grid and the reading buffer, not for the lines.
    let dir = crate::common::scratch::reachable();
    let cases = dir.path().join("cases");
    fs::create_dir(&cases).unwrap();
    let mut text = vec![b'\n'; 32 << 20];
    text.extend_from_slice(b"....\n....\n");
    fs::write(cases.join("blank.in"), &text).unwrap();
    let out = dir.path().join("reports");
    for args in [
        vec![
            "verify".as_ref(),
            cases.as_os_str(),
            "--out".as_ref(),
            out.as_os_str(),
        ],
        vec![
            "judge".as_ref(),
            "littlesquares".as_ref(),
            cases.join("blank.in").into_os_string().leak() as &std::ffi::OsStr,
            "--engine".as_ref(),
            "reference".as_ref(),
        ],
    ] {
        if let Some((kib, output)) = peak_kib(&args) {
            assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
            // The file itself, held once by the reference, and its reading buffer's growth.
            assert!(kib < 100 * 1024, "{args:?}: peak {kib} KiB");
        }
    }
    assert!(read(&out.join("verdicts.csv")).contains("first"));
    // The board views too: `show`, and the HTML report drawing the case as a problem (its
    // .ans says the other player wins).
    fs::write(cases.join("blank.ans"), "second\n").unwrap();
    let html = dir.path().join("report.html");
    let blank = cases.join("blank.in");
    for (args, code) in [
        (
            vec!["show".as_ref(), "littlesquares".as_ref(), blank.as_os_str()],
            0,
        ),
        (
            vec![
                "verify".as_ref(),
                cases.as_os_str(),
                "--out".as_ref(),
                out.as_os_str(),
                "--html".as_ref(),
                html.as_os_str(),
            ],
            1,
        ),
    ] {
        if let Some((kib, output)) = peak_kib(&args) {
            assert_eq!(output.status.code(), Some(code), "{}", stderr(&output));
            assert!(kib < 100 * 1024, "{args:?}: peak {kib} KiB");
        }
    }
    assert!(read(&html).contains("blank.in"));
}

#[test]
fn verify_runs_the_reference_only_on_inputs_it_can_hold() {
    // The default bound is the available memory over the reference's worst factor (hundreds
    // of megabytes); --reference-max-bytes sets it, here below one of two files.
    let dir = crate::common::scratch::reachable();
    let cases = dir.path().join("cases");
    fs::create_dir(&cases).unwrap();
    fs::write(cases.join("small.in"), "1\nL1\nQUIT\n").unwrap();
    let mut long = String::from("4\n");
    for i in 0..100 {
        long.push_str(["L1\n", "R1\n"][i % 2]);
    }
    long.push_str("QUIT\n");
    fs::write(cases.join("long.in"), &long).unwrap();
    let out = dir.path().join("reports");
    let run = referee()
        .arg("verify")
        .arg(&cases)
        .args(["--reference-max-bytes", "100", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let rows = csv_records(&out.join("verdicts.csv"));
    let row = |name: &str| rows.iter().find(|r| r[0].ends_with(name)).unwrap().clone();
    let (small, long) = (row("small.in"), row("long.in"));
    assert_eq!(small[7], "ok", "{small:?}");
    assert_eq!(long[7], "reference-skipped", "{long:?}");
    assert!(
        long[11].contains("over --reference-max-bytes 100"),
        "{long:?}"
    );
}

#[cfg(unix)]
#[test]
fn a_packages_outputs_and_answers_are_read_only_inside_it() {
    use std::os::unix::fs::symlink;
    let dir = crate::common::scratch::reachable();
    let secret = dir.path().join("secret.txt");
    fs::write(&secret, "X WINS\nthe secret content\n").unwrap();
    let package = dir.path().join("pousse");
    let valid = package.join("data/valid_output");
    fs::create_dir_all(&valid).unwrap();
    fs::write(package.join("problem.yaml"), "name: Pousse\n").unwrap();
    fs::write(valid.join("r.in"), "1\nL1\nQUIT\n").unwrap();
    fs::write(valid.join("r.ans"), "X WINS\n").unwrap();
    symlink(&secret, valid.join("r.out")).unwrap();
    let rows = verify_rows_without_the_secret(&package, &dir.path().join("reports"));
    let row = rows
        .iter()
        .find(|r| r[0].ends_with("r.out"))
        .expect("r.out");
    assert_eq!(row[7], "invalid-input", "{row:?}");
    assert!(row[11].contains("symbolic link leaving"), "{row:?}");
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
fn gen_refuses_cases_it_cannot_hold_before_any_work() {
    let dir = crate::common::scratch::reachable();
    let out = dir.path().join("g");
    for (args, says) in [
        (
            &["pousse", "--moves", "1000000000000"][..],
            "--moves must be at most 100000000",
        ),
        (
            &["somegame", "--rows", "100000", "--cols", "100000"],
            "10000000000 squares, over the 100000000",
        ),
        (
            &["littlesquares", "--rows", "1000000000"],
            "--rows must be at most 100000000",
        ),
        (
            &["littlesquares", "--cols", "100000000"],
            "--cols must be at most 1048576 (the widest row the engine reads)",
        ),
        (&["pousse", "--count", "1000000000000000"], "has room for"),
        // As docs/testing.md writes them.
        (
            &["pousse", "--moves", "1e12"],
            "--moves must be at most 100000000",
        ),
        (&["pousse", "--count", "1e12"], "has room for"),
    ] {
        let run = referee()
            .arg("gen")
            .args(args)
            .arg("--out")
            .arg(&out)
            .timeout(Duration::from_secs(60))
            .output()
            .unwrap();
        assert_eq!(run.status.code(), Some(2), "{args:?}: {}", stderr(&run));
        assert!(stderr(&run).contains(says), "{args:?}: {}", stderr(&run));
        assert!(!out.exists(), "{args:?} made {}", out.display());
    }
    // To standard output too.
    let run = referee()
        .args(["gen", "pousse", "--item", "26", "--n", "9", "--undecided"])
        .args(["--moves", "1000000000000"])
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2), "{}", stderr(&run));
    assert!(run.stdout.is_empty());
}

#[test]
fn check_names_the_file_it_cannot_read() {
    let dir = crate::common::scratch::reachable();
    let (input, answer) = case_files(dir.path(), "2\nL1\nQUIT\n", "UNDECIDED\n");
    let missing = dir.path().join("missing");
    for (input, answer) in [(&missing, &answer), (&input, &missing)] {
        let run = referee()
            .args(["check", "pousse"])
            .arg(input)
            .arg(answer)
            .arg(dir.path())
            .write_stdin("UNDECIDED\n")
            .output()
            .unwrap();
        assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
        let said = stderr(&run)
            + &fs::read_to_string(dir.path().join("judgeerror.txt")).unwrap_or_default();
        assert!(said.contains(&missing.display().to_string()), "{said}");
    }
}

#[test]
fn an_entry_that_cannot_be_examined_is_a_row_never_skipped() {
    // A case whose path is longer than the system takes (2,040 directories `d`, made one below
    // the other): verify reports it, and says it did not judge it.
    let dir = crate::common::scratch::reachable();
    let cases = dir.path().join("cases");
    fs::create_dir(&cases).unwrap();
    fs::write(cases.join("a.in"), "2\nQUIT\n").unwrap();
    let mut at = rustix::fs::open(
        &cases,
        rustix::fs::OFlags::DIRECTORY | rustix::fs::OFlags::RDONLY,
        rustix::fs::Mode::empty(),
    )
    .unwrap();
    for _ in 0..2040 {
        rustix::fs::mkdirat(&at, "d", rustix::fs::Mode::from_raw_mode(0o755)).unwrap();
        at = rustix::fs::openat(
            &at,
            "d",
            rustix::fs::OFlags::DIRECTORY | rustix::fs::OFlags::RDONLY,
            rustix::fs::Mode::empty(),
        )
        .unwrap();
    }
    let deep = rustix::fs::openat(
        &at,
        "deep.in",
        rustix::fs::OFlags::CREATE | rustix::fs::OFlags::WRONLY,
        rustix::fs::Mode::from_raw_mode(0o644),
    )
    .unwrap();
    rustix::io::write(&deep, b"1\nL1\nQUIT\n").unwrap();
    let out = dir.path().join("reports");
    let run = referee()
        .arg("verify")
        .arg(&cases)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(1), "{err}");
    let rows = csv_records(&out.join("verdicts.csv"));
    assert_eq!(rows.len(), 2, "{rows:?}");
    let deep = rows
        .iter()
        .find(|r| r[0].contains("/d/d/"))
        .expect("the deep row");
    assert!(deep.iter().any(|c| c == "invalid-input"), "{deep:?}");
    assert!(
        deep.iter()
            .any(|c| c.starts_with("cannot be examined: File name too long")),
        "{deep:?}"
    );
}

#[test]
fn zero_and_nonsense_limits_are_refused_naming_the_flag() {
    // Each would put a correct program or case over its limit and blame it: exit 2 before any
    // work, naming the flag, nothing written.
    let dir = crate::common::scratch::reachable();
    let out = dir.path().join("out");
    let audit = |flag: &str, value: &str| {
        referee()
            .args(["audit", "pousse", "--cmd", "cat", "--cases", "10"])
            .arg(format!("{flag}={value}"))
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap()
    };
    for (flag, value) in [
        ("--timeout", "0"),
        ("--timeout", "-1"),
        ("--timeout", "NaN"),
        ("--time", "0"),
        ("--compile-time", "0"),
        ("--max-output", "0"),
        ("--max-output", "100"),
        ("--memory", "0"),
    ] {
        let run = audit(flag, value);
        let err = stderr(&run);
        assert_eq!(run.status.code(), Some(2), "{flag} {value}: {err}");
        assert!(err.contains(flag), "{flag} {value}: {err}");
        assert!(!out.exists(), "{flag} {value}: {err}");
    }
    for (flag, value) in [("--case-time", "0"), ("--time", "0")] {
        let run = referee()
            .args(["stress", "pousse", "--cases", "10", flag, value])
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap();
        let err = stderr(&run);
        assert_eq!(run.status.code(), Some(2), "stress {flag} {value}: {err}");
        assert!(err.contains(flag), "stress {flag} {value}: {err}");
        assert!(!out.exists(), "stress {flag} {value}: nothing is saved");
    }
}

#[test]
fn output_files_never_replace_what_the_run_reads_or_writes() {
    use crate::common::command::{copy_tree, repo};
    let dir = crate::common::scratch::reachable();
    let corpus = dir.path().join("corpus");
    copy_tree(&repo().join("corpus/pousse"), &corpus.join("pousse"));
    let subs = dir.path().join("subs");
    copy_tree(&repo().join("examples/submissions"), &subs);
    let rep = dir.path().join("rep");
    let input = corpus.join("pousse/sample-1-tie.in");
    let output = subs.join("alice/sample-1-tie.out");
    let before = (fs::read(&input).unwrap(), fs::read(&output).unwrap());
    let refused = |args: &[&std::ffi::OsStr], why: &str| {
        let run = referee().args(args).output().unwrap();
        let err = stderr(&run);
        assert_eq!(run.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(why), "{args:?}: {err}");
        assert!(!rep.exists(), "{args:?}: no work done");
    };
    let os = |s: &str| std::ffi::OsString::from(s);
    let (c, r) = (corpus.as_os_str(), rep.as_os_str());
    for flag in ["--junit", "--html"] {
        refused(
            &[
                &os("verify"),
                c,
                &os("--out"),
                r,
                &os(flag),
                input.as_os_str(),
            ],
            "writing it would replace what the run reads",
        );
    }
    refused(
        &[
            &os("grade"),
            &os("--cases"),
            corpus.join("pousse").as_os_str(),
            &os("--submissions"),
            subs.as_os_str(),
            &os("--out"),
            r,
            &os("--junit"),
            output.as_os_str(),
        ],
        "writing it would replace what the run reads",
    );
    refused(
        &[
            &os("verify"),
            c,
            &os("--out"),
            r,
            &os("--junit"),
            rep.join("verdicts.csv").as_os_str(),
        ],
        "one of the reports the run writes",
    );
    let page = rep.join("j.xml");
    refused(
        &[
            &os("verify"),
            c,
            &os("--out"),
            r,
            &os("--junit"),
            page.as_os_str(),
            &os("--html"),
            page.as_os_str(),
        ],
        "are the same file",
    );
    assert_eq!(
        (fs::read(&input).unwrap(), fs::read(&output).unwrap()),
        before
    );
    // merge's --out is never one of its shards.
    let (s1, s2) = (dir.path().join("s1"), dir.path().join("s2"));
    shard(&corpus, 1, 2, &s1);
    shard(&corpus, 2, 2, &s2);
    let shard_before = crate::common::command::files_of(&s1);
    let run = referee()
        .arg("merge")
        .arg(&s1)
        .arg(&s2)
        .arg("--out")
        .arg(&s1)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2), "{}", stderr(&run));
    assert!(stderr(&run).contains("holds the shard"), "{}", stderr(&run));
    assert_eq!(crate::common::command::files_of(&s1), shard_before);
}

#[test]
fn an_out_that_cannot_be_replaced_is_refused_before_any_work() {
    // A mount point (as Docker and Kubernetes volumes are), in a mount namespace of the test's
    // own, and an immutable directory (when the test may mark one): exit 2 before the work,
    // where the commit would have failed after all of it.
    let dir = crate::common::scratch::reachable();
    let volume = dir.path().join("volume");
    fs::create_dir(&volume).unwrap();
    let run = std::process::Command::new("unshare")
        .args(["--user", "--map-root-user", "--mount", "sh", "-c"])
        .arg("mount -t tmpfs tmpfs \"$1\" && exec \"$2\" verify corpus --out \"$1\"")
        .arg("sh")
        .arg(&volume)
        .arg(env!("CARGO_BIN_EXE_referee"))
        .current_dir(crate::common::command::repo())
        .output()
        .unwrap();
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(2), "{err}");
    assert!(err.contains("is a mount point"), "{err}");
    assert!(!err.contains("verified"), "no work done: {err}");
    let fixed = dir.path().join("fixed");
    fs::create_dir(&fixed).unwrap();
    let marked = std::process::Command::new("chattr")
        .arg("+i")
        .arg(&fixed)
        .output()
        .is_ok_and(|o| o.status.success());
    if marked {
        let run = referee()
            .args(["verify", "corpus", "--out"])
            .arg(&fixed)
            .output()
            .unwrap();
        let _ = std::process::Command::new("chattr")
            .arg("-i")
            .arg(&fixed)
            .status();
        let err = stderr(&run);
        assert_eq!(run.status.code(), Some(2), "{err}");
        assert!(err.contains("is immutable"), "{err}");
    }
}

#[test]
fn a_signal_during_verify_leaves_the_previous_reports_and_no_staging() {
    let dir = crate::common::scratch::reachable();
    let cases = dir.path().join("cases");
    referee()
        .args([
            "gen", "pousse", "--count", "1", "--n", "100", "--moves", "1000000", "--out",
        ])
        .arg(&cases)
        .assert()
        .success();
    let out = dir.path().join("rep");
    for (signal, code) in [("INT", 130), ("TERM", 143)] {
        let mut child = referee_process()
            .arg("verify")
            .arg(&cases)
            .arg("--out")
            .arg(&out)
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Until its staging directory is there (hang guard: 60 s).
        let started = Instant::now();
        let staged = || {
            fs::read_dir(dir.path())
                .unwrap()
                .flatten()
                .any(|e| e.file_name().to_string_lossy().starts_with(".rep.referee-"))
        };
        while !staged() {
            assert!(started.elapsed() < Duration::from_secs(60), "hang guard");
            std::thread::sleep(Duration::from_millis(20));
        }
        std::process::Command::new("kill")
            .arg(format!("-{signal}"))
            .arg(child.id().to_string())
            .status()
            .unwrap();
        let status = child.wait().unwrap();
        let mut err = String::new();
        std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut err).unwrap();
        assert_eq!(status.code(), Some(code), "{err}");
        assert!(
            err.contains(&format!("interrupted by signal {}", code - 128)),
            "{err}"
        );
        assert!(!staged(), "a staging directory was left: {err}");
        assert!(!out.exists(), "no report written");
    }
}

#[test]
fn gen_holds_one_case_whatever_the_cases_per_file() {
    // A million cases in one file, with their answers: written a case at a time. The whole
    // file's cases held at once took about 130 bytes each (130 MB here).
    let dir = crate::common::scratch::reachable();
    let out = dir.path().join("g");
    let os = std::ffi::OsStr::new;
    let Some((kib, run)) = peak_kib(&[
        os("gen"),
        os("pousse"),
        os("--form"),
        os("multi"),
        os("--per-file"),
        os("1000000"),
        os("--n"),
        os("2"),
        os("--moves"),
        os("1"),
        os("--answers"),
        os("--out"),
        out.as_os_str(),
    ]) else {
        return;
    };
    assert!(run.status.success(), "{}", stderr(&run));
    let input = fs::metadata(out.join("pousse-1-000000.in")).unwrap().len();
    assert!(input > 8_000_000, "{input} bytes");
    assert!(kib < 40 << 10, "peak {kib} KiB for a file of {input} bytes");
    // The answers are the engine's on the whole file.
    referee()
        .arg("verify")
        .arg(&out)
        .arg("--no-reference")
        .arg("--out")
        .arg(dir.path().join("r"))
        .assert()
        .success();
}

#[test]
fn gen_on_a_full_file_system_leaves_no_part_of_a_file() {
    // A tmpfs of 1 MiB in a mount namespace of the test's own: gen stops at the first file that
    // does not fit (exit 2, naming it), and every file there is whole, each `.in` with its
    // `.ans`; no temporary file is left.
    let dir = crate::common::scratch::reachable();
    let small = dir.path().join("small");
    fs::create_dir(&small).unwrap();
    let listing = dir.path().join("listing");
    let run = std::process::Command::new("unshare")
        .args(["--user", "--map-root-user", "--mount", "sh", "-c"])
        .arg(
            "mount -t tmpfs -o size=1m tmpfs \"$1\" || exit 99; \"$2\" gen pousse --count 100 \
             --n 100 --moves 10000 --answers --out \"$1/g\"; code=$?; \
             \"$2\" verify \"$1/g\" --no-reference --out \"$4\" > /dev/null 2>&1; \
             echo \"verify $?\" > \"$3\"; ls -a \"$1/g\" >> \"$3\"; exit $code",
        )
        .arg("sh")
        .arg(&small)
        .arg(env!("CARGO_BIN_EXE_referee"))
        .arg(&listing)
        .arg(dir.path().join("reports"))
        .output()
        .unwrap();
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(2), "{err}");
    assert!(err.contains("No space left on device"), "{err}");
    let listing = read(&listing);
    let mut lines = listing.lines();
    // The files there are every one whole: verify finds no invalid input nor mismatch.
    assert_eq!(lines.next(), Some("verify 0"), "{listing}");
    let names: Vec<&str> = lines.filter(|l| *l != "." && *l != "..").collect();
    assert!(!names.is_empty(), "{listing}");
    assert!(
        names.iter().all(|n| !n.starts_with('.')),
        "a temporary file left: {listing}"
    );
    let inputs = names.iter().filter(|n| n.ends_with(".in")).count();
    let answers = names.iter().filter(|n| n.ends_with(".ans")).count();
    assert_eq!(inputs, answers, "{listing}");
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
