//! Memory bounded by the board and the expected output, never by the size of a file someone
//! else wrote.

use super::*;
use crate::common::command::{csv_records, referee, stderr};
use std::fs;
use std::path::Path;
use std::time::{Duration, Instant};

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
        .arg(crate::common::command::referee_path())
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

#[test]
#[ignore = "long tier: .ci/run runs it (cargo test -- --include-ignored)"]
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

#[test]
#[ignore = "long tier: .ci/run runs it (cargo test -- --include-ignored)"]
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
