//! `verify`, `grade` and `merge` hold a bounded window of files and a bounded set of rows,
//! never the run: their peak heap, counted by a counting allocator, is the same at 10^3 and
//! 10^4 files. Nothing here is timed.
//!
//! The test runs alone in a process of its own, so that nothing else allocates while it
//! measures.

use std::path::{Path, PathBuf};

use referee::pousse::{Pousse, Rules};

use crate::common::alone::{alone, peak_of};

/// The rows each command keeps for its summaries in this test: small, so that a run of 10^3
/// files already keeps as many as one of 10^4.
const KEPT: usize = 50;

/// The engine's output for the Pousse game `input` (waterloo).
fn engine_output(input: &str) -> String {
    referee::game::render::<Pousse>(
        &<Pousse as referee::game::Game>::judge(
            referee::game::Engine::Fast,
            &mut input.as_bytes(),
            Rules::Waterloo,
        )
        .unwrap(),
    )
}

/// `files` small Pousse games in folders of 100, and three submissions' outputs for each (one
/// right, one wrong on every fifth case, one missing every third).
fn corpus(root: &Path, files: usize) -> (PathBuf, PathBuf) {
    let cases = root.join("cases");
    let submissions = root.join("submissions");
    let games = ["1\nL1\nQUIT\n", "2\nL1\nQUIT\n", "2\nT2\nL1\nQUIT\n"];
    let outputs = games.map(engine_output);
    for i in 0..files {
        let folder = format!("{:04}", i / 100);
        let (game, output) = (games[i % 3], &outputs[i % 3]);
        std::fs::create_dir_all(cases.join(&folder)).unwrap();
        std::fs::write(cases.join(&folder).join(format!("g{i:05}.in")), game).unwrap();
        for (s, name) in ["right", "wrong", "partial"].iter().enumerate() {
            let dir = submissions.join(name).join(&folder);
            std::fs::create_dir_all(&dir).unwrap();
            let output = match s {
                1 if i % 5 == 0 => "X WINS\n".to_string(),
                2 if i % 3 == 0 => continue,
                _ => output.clone(),
            };
            std::fs::write(dir.join(format!("g{i:05}.out")), output).unwrap();
        }
    }
    (cases, submissions)
}

/// The CI results (JUnit's test cases) of a run of `rows` rows: a test case for each kept row
/// and one per suite and status standing for the rows left out (`N more STATUS rows`), so that
/// their count is bounded and their total exact.
fn check_ci_results(suites: &[referee::formats::ci::Suite], rows: u64) {
    let cases: Vec<&referee::formats::ci::Case> = suites.iter().flat_map(|s| &s.cases).collect();
    assert!(cases.len() <= 2 * KEPT + 20, "{} test cases", cases.len());
    let stands_for = |name: &str| -> u64 {
        match name.split_once(" more ") {
            Some((n, rest)) if rest.ends_with(" rows") => n.parse().unwrap(),
            _ => 1,
        }
    };
    assert_eq!(cases.iter().map(|c| stands_for(&c.name)).sum::<u64>(), rows);
    assert!(
        cases.iter().any(|c| stands_for(&c.name) > 1),
        "nothing left out"
    );
}

/// The peak heap of `verify`, `grade`, and `merge` of 4 verify shards and of 4 grade shards,
/// over `files` files.
fn peaks(files: usize) -> [usize; 4] {
    let dir = tempfile::tempdir().unwrap();
    let (cases, submissions) = corpus(dir.path(), files);
    let settings = referee::verify::Settings {
        jobs: 2,
        reference_max_bytes: u64::MAX,
        reference_budget: 1_000_000,
        no_reference: false,
    };
    let verify = |shard: Option<referee::util::shard::Shard>, out: PathBuf| {
        let batch = referee::verify::run::Batch {
            paths: vec![cases.clone()],
            shard,
            jobs: Some(2),
            out,
            timings: false,
            options: Default::default(),
            kept_rows: KEPT,
        };
        referee::verify::run::run(&batch, |file, emit| {
            referee::verify::verify_as::<Pousse>(file, &settings, Rules::Waterloo, emit);
        })
        .unwrap()
    };
    let options = referee::grade::Options {
        kept_rows: Some(KEPT),
        ..Default::default()
    };
    let grade = |shard: Option<referee::util::shard::Shard>, out: PathBuf| {
        referee::grade::grade(&cases, &submissions, &options, Some(2), shard, &out).unwrap()
    };
    let (verify_peak, outcome) = peak_of(|| verify(None, dir.path().join("verify")));
    assert_eq!(outcome.rows, files as u64);
    assert!(outcome.kept.len() <= 2 * KEPT);
    check_ci_results(&referee::verify::run::suites(&outcome, false), files as u64);
    let (grade_peak, outcome) = peak_of(|| grade(None, dir.path().join("grade")));
    assert_eq!(outcome.rows, 3 * files as u64);
    assert!(outcome.kept.len() <= 2 * KEPT);
    check_ci_results(&referee::grade::suites(&outcome), 3 * files as u64);
    let shard = |k| Some(referee::util::shard::Shard::new(k, 4).unwrap());
    let verify_shards: Vec<PathBuf> = (1..=4)
        .map(|k| {
            let out = dir.path().join(format!("verify-{k}"));
            verify(shard(k), out.clone());
            out
        })
        .collect();
    let grade_shards: Vec<PathBuf> = (1..=4)
        .map(|k| {
            let out = dir.path().join(format!("grade-{k}"));
            grade(shard(k), out.clone());
            out
        })
        .collect();
    let (verify_merge_peak, merged) = peak_of(|| {
        referee::formats::merge::merge(
            &verify_shards,
            &dir.path().join("verify-merged"),
            KEPT,
            referee::cli::SHARDED,
        )
        .unwrap()
    });
    assert_eq!(merged.rows, files);
    let (grade_merge_peak, merged) = peak_of(|| {
        referee::formats::merge::merge(
            &grade_shards,
            &dir.path().join("grade-merged"),
            KEPT,
            referee::cli::SHARDED,
        )
        .unwrap()
    });
    assert_eq!(merged.rows, 3 * files);
    // The merged reports are the unsharded run's, byte for byte.
    for (whole, merged, report) in [
        ("verify", "verify-merged", "verdicts.csv"),
        ("grade", "grade-merged", "grades.csv"),
        ("grade", "grade-merged", "summary.csv"),
    ] {
        let read = |d: &str| std::fs::read(dir.path().join(d).join(report)).unwrap();
        assert!(read(whole) == read(merged), "{merged}/{report}");
    }
    [verify_peak, grade_peak, verify_merge_peak, grade_merge_peak]
}

/// One UVa 844 input of `games` games of `moves` moves each, larger than verify holds in
/// memory, and its `.ans` with game 7's verdict wrong and one verdict too many; verified by
/// both implementations, case by case, on two threads: the peak heap and the rows that are
/// not `ok`.
fn one_large_file(games: usize, moves: usize) -> (usize, Vec<referee::formats::Row>) {
    let dir = tempfile::tempdir().unwrap();
    let moves: String = (0..moves)
        .map(|i| format!("{}{}\n", ["L", "T", "R", "B"][i % 4], 1 + i % 6))
        .collect();
    let game = format!("6\n{moves}QUIT\n");
    let verdict = engine_output(&game);
    let mut input =
        std::io::BufWriter::new(std::fs::File::create(dir.path().join("big.in")).unwrap());
    let mut answers =
        std::io::BufWriter::new(std::fs::File::create(dir.path().join("big.ans")).unwrap());
    use std::io::Write;
    writeln!(input, "{games}").unwrap();
    for i in 0..games {
        write!(input, "\n{game}").unwrap();
        let wrong = if verdict.trim() == "X WINS" {
            "O WINS\n"
        } else {
            "X WINS\n"
        };
        answers
            .write_all(if i == 6 {
                wrong.as_bytes()
            } else {
                verdict.as_bytes()
            })
            .unwrap();
    }
    answers.write_all(verdict.as_bytes()).unwrap();
    drop((input, answers));
    assert!(
        std::fs::metadata(dir.path().join("big.in")).unwrap().len()
            > referee::verify::IN_MEMORY_LIMIT
    );
    let settings = referee::verify::Settings {
        jobs: 2,
        reference_max_bytes: referee::verify::default_reference_max_bytes(),
        reference_budget: 1_000_000,
        no_reference: false,
    };
    let file = referee::util::walk::find_cases(&[dir.path().join("big.in")])
        .unwrap()
        .remove(0);
    let mut rows = Vec::new();
    let mut ok = 0;
    let (peak, ()) = peak_of(|| {
        referee::verify::verify_as::<Pousse>(&file, &settings, Rules::Waterloo, &mut |row| {
            // Counted, and only the rows that are not plain kept, so that the rows do not
            // weigh on the measure.
            if row.status == Some(referee::formats::Status::Ok) {
                ok += 1;
            } else {
                rows.push(row);
            }
        })
    });
    assert_eq!(ok, games - 1);
    (peak, rows)
}

#[test]
#[ignore = "long tier: .ci/run runs it (cargo test -- --include-ignored)"]
fn verify_grade_and_merge_need_the_same_memory_for_ten_times_the_files() {
    if !alone(
        module_path!(),
        "verify_grade_and_merge_need_the_same_memory_for_ten_times_the_files",
        &[],
    ) {
        return;
    }
    let (peak_small, rows) = one_large_file(80_000, 40);
    let (peak_large, _) = one_large_file(1_000_000, 1);
    eprintln!(
        "one file of 8 x 10^4 games of 40 moves: peak heap {} KiB; of 10^6 games of 1 move: {} KiB",
        peak_small / 1024,
        peak_large / 1024
    );
    // Flat: 12.5 times the cases in about the same heap. What the heap holds at its peak is
    // the window of batches judged but not yet written (four per thread), so it varies with
    // how the threads were scheduled (up to about 1.7 times on a busy machine), not with the
    // number of cases; holding anything per case would take tens of megabytes here.
    assert!(
        peak_large <= 2 * peak_small + 512 * 1024,
        "{peak_small} and {peak_large} bytes"
    );
    // And far below the file (11 MB), let alone its rows.
    assert!(peak_large < (referee::verify::IN_MEMORY_LIMIT / 2) as usize);
    let statuses: Vec<(Option<u64>, &str, &str)> = rows
        .iter()
        .map(|r| (r.index, r.status.unwrap().as_str(), r.detail.as_str()))
        .collect();
    assert_eq!(
        statuses,
        [
            (
                Some(7),
                "expected-mismatch",
                "the engine disagrees with the answer file"
            ),
            (
                Some(80_001),
                "expected-mismatch",
                "the answer file has 80001 verdicts, the input 80000 cases"
            )
        ]
    );
    let small = peaks(1_000);
    let large = peaks(10_000);
    for (i, what) in ["verify", "grade", "merge of verify", "merge of grade"]
        .iter()
        .enumerate()
    {
        eprintln!(
            "{what}: peak heap {} KiB at 10^3 files, {} KiB at 10^4",
            small[i] / 1024,
            large[i] / 1024
        );
        // Holding every row would add about 1 KB per row: 9 MB more at 10^4 files (27 MB for
        // grade's three submissions); the window and the kept rows are the same at both sizes.
        assert!(
            large[i] <= small[i] + small[i] / 4 + 1024 * 1024,
            "{what}: peak heap {} KiB at 10^3 files, {} KiB at 10^4",
            small[i] / 1024,
            large[i] / 1024
        );
    }
}
