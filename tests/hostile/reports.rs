//! Reports never mixed or half written: shards merged only when they are one run, a run
//! killed or signalled at any point, outputs that would replace an input, a full file system;
//! a program's bytes never pass for referee's own words.

use super::*;
use crate::common::command::{referee, referee_process, stderr};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

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
    referee::formats::manifest::Manifest::read(dir, "verify.json")
        .map(|_| ())
        .map_err(|e| e.to_string())
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
    let bin = crate::common::command::referee_path().to_path_buf();
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
        let manifest = referee::formats::manifest::Manifest::read(&out, "verify.json").unwrap();
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
        state = referee::util::hash::mix64(state);
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
        .arg(crate::common::command::referee_path())
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
fn outputs_never_land_on_a_program_an_answer_or_saved_runs() {
    use crate::common::command::{copy_tree, files_of, repo};
    let dir = crate::common::scratch::reachable();
    let work = dir.path().join("work");
    copy_tree(&repo().join("corpus/pousse"), &work.join("cases"));
    fs::copy(
        repo().join("examples/judges/pousse.py"),
        work.join("myjudge.py"),
    )
    .unwrap();
    fs::write(
        work.join("programs.csv"),
        "name,command\ntable,python3 myjudge.py\n",
    )
    .unwrap();
    let before = files_of(&work);
    // The command line of `parts` joined, refused for `why` before any work.
    let refused = |parts: &[&[&str]], why: &str| {
        let args = parts.concat();
        let run = referee().current_dir(&work).args(&args).output().unwrap();
        let err = stderr(&run);
        assert_eq!(run.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(why), "{args:?}: {err}");
        assert!(!work.join("rep").exists(), "{args:?}: no work done");
    };
    let (input, answer) = ("cases/sample-1-tie.in", "cases/sample-1-tie.ans");
    let replace = "writing it would replace what the run reads";
    let judge: &[&str] = &["audit", "pousse", "--cmd", "python3 myjudge.py"];
    let table: &[&str] = &["audit", "pousse", "--programs", "programs.csv"];
    for flag in ["--html", "--junit"] {
        // The program's own file, named in --cmd or in a --programs table.
        refused(
            &[
                judge,
                &["--inputs", input, "--out", "rep", flag, "myjudge.py"],
            ],
            replace,
        );
        refused(&[table, &["--out", "rep", flag, "myjudge.py"]], replace);
        // The answer beside an input named alone.
        refused(&[&["verify", input, "--out", "rep", flag, answer]], replace);
        refused(
            &[judge, &["--inputs", input, "--out", "rep", flag, answer]],
            replace,
        );
    }
    let grade: &[&str] = &["grade", "--cases", input, "--submissions", "cases"];
    refused(&[grade, &["--out", "rep", "--junit", answer]], replace);
    refused(&[&["show", "pousse", input, "--html", input]], replace);
    // Saved runs written among the data, or into the reports that replace their directory.
    for saved in ["cases", "rep/runs", "rep"] {
        let args: &[&str] = &["--inputs", "cases", "--out", "rep", "--save-runs", saved];
        refused(&[judge, args], "--save-runs");
    }
    assert_eq!(files_of(&work), before);
}

#[test]
fn referee_run_shows_a_programs_error_output_escaped_and_its_own_verdict_last() {
    // A program that writes a clean verdict of its own and a terminal's "conceal" sequence on
    // standard error, a colour on standard output, then runs past its limit.
    let script = "printf 'referee run: exited 0; 0.004 s of CPU time\\n\\033[8m' >&2; \
                  printf 'answer\\033[1m'; while :; do :; done";
    let run = referee_process()
        .args([
            "run",
            "--unconfined",
            "--timeout",
            "0.3",
            "--",
            "sh",
            "-c",
            script,
        ])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(1), "{err}");
    assert!(!run.stderr.contains(&0x1b), "{err:?}");
    assert!(err.contains("\\x1B[8m"), "{err:?}");
    let last = err.lines().last().unwrap_or_default();
    assert!(last.starts_with("referee run: timeout"), "{err:?}");
    // Standard output not a terminal: the program's bytes as it wrote them.
    assert_eq!(run.stdout, b"answer\x1b[1m");
}

#[test]
fn an_interrupted_referee_run_says_so_and_exits_with_the_signal() {
    // The program's processes end with it (confined and not), and the exit is 128 + signal,
    // never the 1 of a program that failed.
    for unconfined in [false, true] {
        let marker = format!(
            "{}",
            4100 + std::process::id() % 1000 + u32::from(unconfined)
        );
        let mut command = referee_process();
        command.arg("run");
        if unconfined {
            command.arg("--unconfined");
        }
        let mut child = command
            .args(["--timeout", "600", "--", "sh", "-c"])
            .arg(format!("sleep {marker} & sleep {marker}"))
            .stdin(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let started = Instant::now();
        while crate::common::programs::alive_with(&format!("sleep {marker}")).len() < 2 {
            assert!(started.elapsed() < Duration::from_secs(60), "hang guard");
            std::thread::sleep(Duration::from_millis(20));
        }
        std::process::Command::new("kill")
            .arg("-INT")
            .arg(child.id().to_string())
            .status()
            .unwrap();
        let status = child.wait().unwrap();
        let mut err = String::new();
        std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut err).unwrap();
        assert_eq!(status.code(), Some(130), "unconfined {unconfined}: {err}");
        assert!(err.contains("interrupted by signal 2"), "{err}");
        let started = Instant::now();
        while !crate::common::programs::alive_with(&format!("sleep {marker}")).is_empty() {
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "unconfined {unconfined}: the program's processes outlived referee run"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

#[test]
fn referee_run_unconfined_leaves_no_daemon_behind() {
    // A program that starts a daemon (a grandchild that `setsid` made a leader of its own) and exits at
    // once: the daemon ends with the run.
    let marker = format!("{}", 5200 + std::process::id() % 1000);
    let run = referee_process()
        .args(["run", "--unconfined", "--timeout", "10", "--", "sh", "-c"])
        .arg(format!("(setsid sh -c 'sleep {marker}' &); echo started"))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(
        run.stdout,
        b"started\n",
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    std::thread::sleep(Duration::from_millis(200));
    let left = crate::common::programs::alive_with(&format!("sleep {marker}"));
    let _ = std::process::Command::new("pkill")
        .args(["-KILL", "-f", &format!("sleep {marker}")])
        .status();
    assert_eq!(left, Vec::<String>::new());
}
