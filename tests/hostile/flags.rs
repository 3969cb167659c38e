//! Flags, limits and output paths checked before any work; what each run says it does.

use super::*;
use crate::common::command::{referee, referee_process, stderr};
use std::fs;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

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
    // A value far from any time is said as written, in one short line, and said for what it
    // is: too small, or more seconds than a time holds (not "a non-negative number").
    for (value, says) in [
        ("1e-300", "at least 0.001 s"),
        ("1e300", "more seconds than"),
    ] {
        let run = audit("--timeout", value);
        let err = stderr(&run);
        assert_eq!(run.status.code(), Some(2), "{value}: {err}");
        assert!(err.contains(value) && err.contains(says), "{value}: {err}");
        assert!(err.trim_end().len() < 200, "{value}: {err}");
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
        .arg(crate::common::command::referee_path())
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
fn no_output_lands_on_an_input_its_answer_or_a_tree_read() {
    // An input not named `*.in` still has its `.ans` beside it; `$GITHUB_STEP_SUMMARY` naming an
    // input; grade's reports inside the submissions: each refused before any work, every file
    // as it was.
    let dir = crate::common::scratch::reachable();
    let input = dir.path().join("game.txt");
    let answer = dir.path().join("game.ans");
    fs::write(&input, "1\nL1\nQUIT\n").unwrap();
    fs::write(&answer, "X WINS\n").unwrap();
    for flag in ["--junit", "--html"] {
        let run = referee()
            .arg("verify")
            .arg(&input)
            .arg("--out")
            .arg(dir.path().join("reports"))
            .arg(flag)
            .arg(&answer)
            .output()
            .unwrap();
        assert_eq!(run.status.code(), Some(2), "{flag}: {}", stderr(&run));
        assert_eq!(fs::read_to_string(&answer).unwrap(), "X WINS\n", "{flag}");
    }
    let run = referee()
        .arg("verify")
        .arg(&input)
        .arg("--out")
        .arg(dir.path().join("reports"))
        .env("GITHUB_STEP_SUMMARY", &input)
        .output()
        .unwrap();
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(2), "{err}");
    assert!(err.contains("$GITHUB_STEP_SUMMARY"), "{err}");
    assert_eq!(fs::read_to_string(&input).unwrap(), "1\nL1\nQUIT\n");
    assert!(!dir.path().join("reports").exists());
    let cases = dir.path().join("cases");
    let submissions = dir.path().join("submissions");
    fs::create_dir_all(&cases).unwrap();
    fs::create_dir_all(submissions.join("team")).unwrap();
    fs::write(cases.join("a.in"), "1\nL1\nQUIT\n").unwrap();
    let run = referee()
        .args(["grade", "--cases"])
        .arg(&cases)
        .arg("--submissions")
        .arg(&submissions)
        .arg("--out")
        .arg(submissions.join("grades"))
        .output()
        .unwrap();
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(2), "{err}");
    assert!(err.contains("--submissions"), "{err}");
    assert!(!submissions.join("grades").exists(), "{err}");
}
