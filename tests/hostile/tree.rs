//! Nothing read outside the tree a run was pointed at, and every entry of it a row: links
//! that leave it, FIFOs, files that cannot be examined, names that are not UTF-8.

use super::*;
use crate::common::command::{csv_records, referee, stderr};
use std::fs;
use std::path::Path;
use std::time::Duration;

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
