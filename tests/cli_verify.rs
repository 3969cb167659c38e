//! `referee verify`, `merge` and `grade` through the binary.

use std::fs;
use std::path::{Path, PathBuf};

use crate::common::command::{copy_tree, referee};
use assert_cmd::Command;

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// A copy of the corpus in a temporary directory.
fn corpus_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_tree(&repo("corpus"), dir.path());
    dir
}

fn lines(path: &Path) -> Vec<String> {
    fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

/// Runs `referee verify corpus` (from the repository root) into `out`; it must exit 0.
fn verify_corpus_into(out: &Path) {
    referee()
        .args(["verify", "corpus", "--out"])
        .arg(out)
        .assert()
        .success();
}

#[test]
fn committed_reports_are_up_to_date() {
    let out = tempfile::tempdir().unwrap();
    verify_corpus_into(out.path());
    for name in ["verdicts.csv", "mismatches.csv", "verify.json"] {
        assert_eq!(
            fs::read_to_string(out.path().join(name)).unwrap(),
            fs::read_to_string(repo("reports").join(name)).unwrap(),
            "reports/{name} is stale: run `cargo run --release -- verify corpus` and commit it"
        );
    }
}

/// `referee verify DIR --out OUT`.
fn verify(dir: &Path, out: &Path) -> Command {
    let mut cmd = referee();
    cmd.arg("verify").arg(dir).arg("--out").arg(out);
    cmd
}

#[test]
fn a_wrong_answer_gives_exactly_one_expected_mismatch() {
    let corpus = corpus_copy();
    let out = tempfile::tempdir().unwrap();
    fs::write(corpus.path().join("pousse/sample-1-tie.ans"), "X WINS\n").unwrap();
    verify(corpus.path(), out.path()).assert().code(1);
    let mismatches = lines(&out.path().join("mismatches.csv"));
    assert_eq!(mismatches.len(), 2, "{mismatches:?}");
    assert!(mismatches[1]
        .contains("sample-1-tie.in,1,pousse,waterloo,TIE GAME,TIE GAME,X WINS,expected-mismatch"));
}

#[test]
fn bad_files_are_reported_and_the_batch_goes_on() {
    let corpus = corpus_copy();
    let out = tempfile::tempdir().unwrap();
    let d = corpus.path().join("bad");
    fs::create_dir_all(&d).unwrap();
    fs::write(d.join("corrupted.in"), "4\nL2\nL02\nQUIT\n").unwrap();
    fs::write(d.join("binary.in"), [0u8, 159, 146, 150, 255, 0, 1]).unwrap();
    fs::write(d.join("not-utf8.in"), b"4\nL2\xff\nQUIT\n").unwrap();
    let mut long = b"4\n".to_vec();
    long.extend(std::iter::repeat_n(b'L', 50_000_000));
    fs::write(d.join("enormous-line.in"), long).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(&d, d.join("loop")).unwrap();
    verify(corpus.path(), out.path()).assert().code(1);
    let verdicts = fs::read_to_string(out.path().join("verdicts.csv")).unwrap();
    let mismatches = lines(&out.path().join("mismatches.csv"));
    let invalid: Vec<&String> = mismatches
        .iter()
        .filter(|l| l.contains(",invalid-input,"))
        .collect();
    assert_eq!(
        invalid.len(),
        if cfg!(unix) { 5 } else { 4 },
        "{mismatches:?}"
    );
    assert!(verdicts.contains("corrupted.in,,pousse,waterloo,,,,invalid-input"));
    assert!(verdicts.contains(":3:2: expected an index without leading zeros"));
    assert!(verdicts.contains("binary.in,,,,,,,invalid-input,,,,\"not recognised"));
    assert!(verdicts.contains("symbolic link loop") || !cfg!(unix));
    // Nothing judged before or after the bad files is lost.
    let reference = fs::read_to_string(repo("reports/verdicts.csv")).unwrap();
    let ok_rows = verdicts
        .lines()
        .filter(|l| l.contains(",ok,") || l.contains(",reference-skipped,"))
        .count();
    assert_eq!(ok_rows, reference.lines().count() - 1);
}

#[test]
fn beyond_the_budget_the_reference_is_skipped() {
    let out = tempfile::tempdir().unwrap();
    referee()
        .args([
            "verify",
            "corpus/pousse/sample-2-x-wins.in",
            "--reference-budget",
            "10",
            "--out",
        ])
        .arg(out.path())
        .assert()
        .success();
    let v = lines(&out.path().join("verdicts.csv"));
    assert!(v[1].contains(",X WINS,,X WINS,reference-skipped,"), "{v:?}");
    assert!(v[1].contains("over --reference-budget 10"), "{v:?}");
    // --no-reference: said once, in the summary and the manifest, not on every row.
    let run = referee()
        .args(["verify", "corpus/somegame", "--no-reference", "--out"])
        .arg(out.path())
        .assert()
        .success();
    let summary = String::from_utf8_lossy(&run.get_output().stderr).into_owned();
    assert!(
        summary.contains("reference not run (--no-reference)"),
        "{summary}"
    );
    let rows = lines(&out.path().join("verdicts.csv"));
    assert!(rows.len() > 5);
    // No reference verdict, no reference detail, no detail.
    assert!(
        rows.iter()
            .skip(1)
            .all(|l| l.contains(",reference-skipped,") && l.ends_with(",,")),
        "{rows:?}"
    );
    let manifest = fs::read_to_string(out.path().join("verify.json")).unwrap();
    assert!(
        manifest.contains("\"no-reference\": \"true\""),
        "{manifest}"
    );
}

#[test]
fn a_multi_case_file_is_cross_examined_case_by_case_and_a_case_too_large_is_skipped_alone() {
    // 3,000 games in one file of over 10 times --reference-max-bytes: each game is within it
    // but the 2,001st, of 3,000 moves.
    let dir = tempfile::tempdir().unwrap();
    let mut input = String::from("3000\n");
    for i in 1..=3000 {
        let moves = if i == 2001 { 3000 } else { 3 };
        input.push_str("\n4\n");
        for m in 0..moves {
            input.push_str(["L1\n", "R2\n", "T3\n", "B4\n"][m % 4]);
        }
        input.push_str("QUIT\n");
    }
    fs::write(dir.path().join("games.in"), &input).unwrap();
    assert!(input.len() > 10 * 4096);
    let out = dir.path().join("reports");
    for jobs in ["1", "2"] {
        referee()
            .args([
                "verify",
                "--reference-max-bytes",
                "4096",
                "--jobs",
                jobs,
                "--out",
            ])
            .arg(&out)
            .arg(dir.path().join("games.in"))
            .assert()
            .success();
        let rows = lines(&out.join("verdicts.csv"));
        assert_eq!(rows.len(), 3001);
        let skipped: Vec<&String> = rows
            .iter()
            .filter(|r| r.contains("reference-skipped"))
            .collect();
        assert_eq!(skipped.len(), 1, "{skipped:?}");
        assert!(skipped[0].contains(",2001,pousse,"), "{skipped:?}");
        assert!(
            skipped[0].contains("the case has 9007 bytes, over --reference-max-bytes 4096"),
            "{skipped:?}"
        );
        let ok = rows.iter().filter(|r| r.contains(",ok,")).count();
        assert_eq!(ok, 2999, "every other game judged by both implementations");
    }
    // Game 2,500 has a move off the board: the rows of the 2,499 games before it, then its
    // own, at its line and column (where the reference's reading finds it too).
    let at = input.match_indices("\n4\n").nth(2499).unwrap().0;
    input.replace_range(at + 3..at + 5, "L5");
    fs::write(dir.path().join("games.in"), &input).unwrap();
    referee()
        .args(["verify", "--reference-max-bytes", "4096", "--out"])
        .arg(&out)
        .arg(dir.path().join("games.in"))
        .assert()
        .code(1);
    let rows = lines(&out.join("verdicts.csv"));
    assert_eq!(rows.len(), 2501);
    assert_eq!(rows.iter().filter(|r| r.contains(",ok,")).count(), 2498);
    let line = input[..at].matches('\n').count() + 3;
    assert!(
        rows[2500].contains(",2500,pousse,waterloo,")
            && rows[2500].contains(",invalid-input,")
            && rows[2500].contains(&format!("games.in:{line}:2: ")),
        "{}",
        rows[2500]
    );
}

#[test]
fn shards_merged_equal_the_full_run() {
    let full = tempfile::tempdir().unwrap();
    verify_corpus_into(full.path());
    let shards: Vec<tempfile::TempDir> = (0..3).map(|_| tempfile::tempdir().unwrap()).collect();
    let mut sizes = vec![];
    for (k, dir) in shards.iter().enumerate() {
        referee()
            .args([
                "verify",
                "corpus",
                "--shard",
                &format!("{}/3", k + 1),
                "--out",
            ])
            .arg(dir.path())
            .assert()
            .success();
        sizes.push(lines(&dir.path().join("verdicts.csv")).len() - 1);
    }
    assert!(sizes.iter().all(|&s| s > 0), "{sizes:?}");
    let merged = tempfile::tempdir().unwrap();
    let mut cmd = referee();
    cmd.arg("merge");
    for s in &shards {
        cmd.arg(s.path());
    }
    cmd.arg("--out").arg(merged.path()).assert().success();
    for name in ["verdicts.csv", "mismatches.csv", "verify.json"] {
        assert_eq!(
            fs::read(merged.path().join(name)).unwrap(),
            fs::read(full.path().join(name)).unwrap(),
            "{name}"
        );
    }
}

#[test]
fn reports_are_identical_whatever_the_number_of_jobs() {
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    referee()
        .args(["verify", "corpus", "--jobs", "1", "--out"])
        .arg(a.path())
        .assert()
        .success();
    referee()
        .args(["verify", "corpus", "--jobs", "4", "--out"])
        .arg(b.path())
        .assert()
        .success();
    assert_eq!(
        fs::read(a.path().join("verdicts.csv")).unwrap(),
        fs::read(b.path().join("verdicts.csv")).unwrap()
    );
}

#[test]
fn could_not_run_exits_2() {
    referee().args(["verify", "no/such/dir"]).assert().code(2);
    let file = tempfile::NamedTempFile::new().unwrap();
    referee()
        .args(["verify", "corpus/pousse/sample-1-tie.in", "--out"])
        .arg(file.path().join("sub"))
        .assert()
        .code(2);
    referee()
        .args(["verify", "corpus", "--shard", "4/3"])
        .assert()
        .code(2);
    // Reports never go among the inputs: --out holding an input is refused before any work.
    let copy = corpus_copy();
    let before = fs::read_dir(copy.path().join("pousse")).unwrap().count();
    for (input, out) in [("", ""), ("pousse/sample-1-tie.in", "pousse")] {
        let refused = referee()
            .arg("verify")
            .arg(copy.path().join(input))
            .arg("--out")
            .arg(copy.path().join(out))
            .assert()
            .code(2);
        let said = String::from_utf8_lossy(&refused.get_output().stderr).into_owned();
        assert!(said.contains("holds the input"), "{said}");
    }
    assert_eq!(
        fs::read_dir(copy.path().join("pousse")).unwrap().count(),
        before
    );
    assert!(!copy.path().join("verdicts.csv").exists());
}

fn grade(cases: &Path, submissions: &Path, out: &Path) -> Command {
    let mut cmd = referee();
    cmd.args(["grade", "--cases"])
        .arg(cases)
        .arg("--submissions")
        .arg(submissions)
        .arg("--out")
        .arg(out);
    cmd
}

#[test]
fn grade_gives_ac_pe_wa_no_and_je() {
    let root = tempfile::tempdir().unwrap();
    let cases = root.path().join("cases");
    let subs = root.path().join("submissions");
    fs::create_dir_all(cases.join("p")).unwrap();
    fs::write(
        cases.join("p/a.in"),
        "4\nL2\nT2\nL2\nB2\nR2\nT1\nL2\nQUIT\n",
    )
    .unwrap();
    fs::write(cases.join("p/b.in"), "2\n\n1\nL1\nQUIT\n\n2\nR2\nQUIT\n").unwrap();
    fs::write(cases.join("s.in"), "1 3 3 4\n1 0 0\n0 1 0\n0 0 1\n").unwrap();
    fs::write(cases.join("wrong-answer-file.in"), "1\nL1\nQUIT\n").unwrap();
    fs::write(cases.join("wrong-answer-file.ans"), "O WINS\n").unwrap();
    for (name, a, b, s) in [
        (
            "alice",
            Some("X WINS\n"),
            Some("X WINS\n\nTIE GAME\n"),
            Some("PLAYER 1"),
        ),
        (
            "bob",
            Some("X WINS  \n"),
            Some("X WINS\nTIE GAME\n"),
            Some("PLAYER 2\n"),
        ),
        ("carol", None, Some("\u{ff}"), Some("PLAYER 1\n")),
    ] {
        let d = subs.join(name);
        fs::create_dir_all(d.join("p")).unwrap();
        for (file, text) in [("p/a.out", a), ("p/b.out", b), ("s.out", s)] {
            if let Some(t) = text {
                fs::write(d.join(file), t).unwrap();
            }
        }
    }
    let out = root.path().join("reports");
    grade(&cases, &subs, &out).assert().code(1);
    let grades = fs::read_to_string(out.join("grades.csv")).unwrap();
    for expected in [
        "alice,p/a.in,AC,",
        "alice,p/b.in,AC,",
        "alice,s.in,AC,",
        "alice,wrong-answer-file.in,JE,",
        "bob,p/a.in,AC,",
        "bob,p/b.in,PE,",
        "bob,s.in,WA,",
        "carol,p/a.in,NO,",
        "carol,p/b.in,WA,",
    ] {
        assert!(
            grades.contains(expected),
            "{expected} missing from\n{grades}"
        );
    }
    let summary = lines(&out.join("summary.csv"));
    assert_eq!(summary[0], "submission,cases,AC,PE,WA,NO,JE,result");
    assert_eq!(summary[1], "alice,4,3,0,0,0,1,JE");
    assert_eq!(summary[2], "bob,4,1,1,1,0,1,JE");
    assert_eq!(summary[3], "carol,4,1,0,1,1,1,JE");
    // Without the judge error the run exits 0.
    fs::remove_file(cases.join("wrong-answer-file.in")).unwrap();
    grade(&cases, &subs, &out).assert().success();
    assert_eq!(lines(&out.join("summary.csv"))[2], "bob,3,1,1,1,0,0,WA");
}

#[test]
fn grade_takes_one_case_file_and_names_every_judge_error() {
    let root = tempfile::tempdir().unwrap();
    let case = root.path().join("game.in");
    fs::write(&case, "1\nL1\nQUIT\n").unwrap();
    let subs = root.path().join("submissions");
    fs::create_dir_all(subs.join("alice")).unwrap();
    fs::write(subs.join("alice/game.out"), "X WINS\n").unwrap();
    // `--cases FILE`: the file is the case, its output beside the submission's others.
    let out = root.path().join("one");
    grade(&case, &subs, &out).assert().success();
    let grades = fs::read_to_string(out.join("grades.csv")).unwrap();
    assert!(grades.contains("alice,game.in,AC,"), "{grades}");
    // A case that is a judge error is named on standard error by its path, with no
    // submission to grade as with one.
    fs::write(root.path().join("game.ans"), "O WINS\n").unwrap();
    let empty = root.path().join("nobody");
    fs::create_dir(&empty).unwrap();
    for subs in [&subs, &empty] {
        let run = grade(&case, subs, &root.path().join("je"))
            .output()
            .unwrap();
        assert_eq!(run.status.code(), Some(1));
        let said = String::from_utf8_lossy(&run.stderr);
        assert!(said.contains("JE game.in: judge error:"), "{said}");
        assert!(!said.contains("more judge errors"), "{said}");
    }
}

#[test]
fn the_slowest_files_are_timed_over_all_their_cases() {
    // One file of 20,000 games: the summary's time for it is its rows' engine time together
    // (`--timings`), never one case's.
    let dir = crate::common::scratch::reachable();
    let cases = dir.path().join("cases");
    crate::common::command::referee()
        .args([
            "gen",
            "pousse",
            "--form",
            "multi",
            "--per-file",
            "20000",
            "--n",
            "6",
        ])
        .args(["--moves", "40", "--out"])
        .arg(&cases)
        .assert()
        .success();
    let out = dir.path().join("r");
    let run = crate::common::command::referee()
        .arg("verify")
        .arg(&cases)
        .args(["--no-reference", "--timings", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    let err = crate::common::command::stderr(&run);
    assert!(run.status.success(), "{err}");
    let rows = crate::common::command::csv_rows(&out.join("verdicts.csv"));
    assert_eq!(rows.len(), 20000);
    let total: u64 = rows
        .iter()
        .map(|r| r["engine_micros"].parse::<u64>().unwrap())
        .sum();
    let line = err
        .lines()
        .find(|l| l.contains("slowest (engine)"))
        .expect(&err);
    let shown = format!("({:.1} ms)", total as f64 / 1000.0);
    assert!(line.contains(&shown), "{line} (the rows' total: {shown})");
}

#[test]
fn a_byte_order_mark_in_an_answer_file_is_shown() {
    // `TIE GAME` after a byte-order mark is not `TIE GAME`: the row says so, and shows it.
    let dir = crate::common::scratch::reachable();
    let cases = dir.path().join("cases");
    std::fs::create_dir(&cases).unwrap();
    std::fs::copy(
        crate::common::command::repo().join("corpus/pousse/sample-1-tie.in"),
        cases.join("a.in"),
    )
    .unwrap();
    std::fs::write(cases.join("a.ans"), "\u{FEFF}TIE GAME\n").unwrap();
    let out = dir.path().join("r");
    let run = crate::common::command::referee()
        .arg("verify")
        .arg(&cases)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1));
    let rows = crate::common::command::csv_rows(&out.join("verdicts.csv"));
    assert_eq!(rows[0]["status"], "expected-mismatch");
    assert_eq!(rows[0]["expected"], "\\xEF\\xBB\\xBFTIE GAME", "{rows:?}");
}
