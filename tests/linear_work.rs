//! Every parser's work is linear in its input: the bytes each one examines (counted by
//! `referee::util::text::work`, nothing timed) grow at most in proportion to the input, for inputs
//! built to provoke rescanning: long runs of blank lines or spaces before anything, enormous
//! lines, many tiny cases, a grid literal on one line. The input is read in pipe-sized pieces.

use std::io::Read;

use referee::game::{Engine, Game};
use referee::littlesquares::LittleSquares;
use referee::pousse::{Pousse, Rules};
use referee::somegame::SomeGame;

/// A reader that hands out at most 4 KiB per call, as a pipe does.
struct Pipe<'a>(&'a [u8]);

impl Read for Pipe<'_> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let n = out.len().min(self.0.len()).min(4096);
        out[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}

/// The work of judging `input` as `G` with the engine (whatever the verdict or error), and of
/// recognising its game.
fn work<G: Game>(input: &[u8], rules: G::Options) -> u64 {
    referee::util::text::work();
    let _ = G::judge(Engine::Fast, &mut Pipe(input), rules);
    let _ = referee::games::detect::recognise_input(Pipe(input));
    referee::util::text::work()
}

/// Requires linear work on `make(n)` for n and 8n.
fn linear<G: Game>(name: &str, rules: G::Options, make: impl Fn(usize) -> Vec<u8>) {
    let n = 1 << 16;
    let (small, large) = (make(n), make(8 * n));
    let (w_small, w_large) = (work::<G>(&small, rules), work::<G>(&large, rules));
    let ratio = w_large as f64 / w_small.max(1) as f64;
    let size_ratio = large.len() as f64 / small.len() as f64;
    assert!(
        ratio <= 1.25 * size_ratio,
        "{name}: input x{size_ratio:.1} -> work x{ratio:.1} ({w_small} -> {w_large} bytes)"
    );
    assert!(
        w_large <= 8 * large.len() as u64 + (4 << 20),
        "{name}: {w_large} bytes examined for {} bytes of input",
        large.len()
    );
}

fn repeat(piece: &str, n: usize) -> String {
    piece.repeat(n)
}

#[test]
fn pousse_parsing_is_linear() {
    let w = Rules::Waterloo;
    linear::<Pousse>("blank lines first", w, |n| repeat("\n", n).into_bytes());
    linear::<Pousse>("spaces on the size line", w, |n| {
        format!("4{}\nQUIT\n", repeat(" ", n)).into_bytes()
    });
    linear::<Pousse>("a long move line", w, |n| {
        format!("4\nL{}\nQUIT\n", repeat("1", n)).into_bytes()
    });
    linear::<Pousse>("many moves", w, |n| {
        format!("4\n{}QUIT\n", repeat("L1\nT2\n", n)).into_bytes()
    });
    linear::<Pousse>("many games", w, |n| {
        format!("{n}\n\n{}", repeat("2\nL1\nQUIT\n\n", n)).into_bytes()
    });
    linear::<Pousse>("blank lines after QUIT", w, |n| {
        format!("2\nQUIT\n{}x", repeat("\n", n)).into_bytes()
    });
}

#[test]
fn littlesquares_parsing_is_linear() {
    linear::<LittleSquares>("blank lines first", (), |n| {
        format!("{}..\n..\n", repeat("\n", n)).into_bytes()
    });
    linear::<LittleSquares>("blank lines of spaces first", (), |n| {
        format!("{}{{\"..\"}}", repeat(" \r\n\t", n)).into_bytes()
    });
    linear::<LittleSquares>("a wide row", (), |n| {
        format!("{}\n", repeat(".", n)).into_bytes()
    });
    linear::<LittleSquares>("many grids", (), |n| repeat("..\n..\n\n", n).into_bytes());
    linear::<LittleSquares>("a literal on one line", (), |n| {
        format!("{{{}\"..\"}}", repeat("\"..\", ", n)).into_bytes()
    });
    linear::<LittleSquares>("a literal row past the widest", (), |n| {
        format!("{{\"{}\"}}", repeat(".", 16 * n)).into_bytes()
    });
}

#[test]
#[ignore = "long tier: .ci/run runs it (cargo test -- --include-ignored)"]
fn somegame_parsing_is_linear() {
    linear::<SomeGame>("blank lines first", (), |n| {
        format!("{}1 1 1 1\n0\n", repeat("\n", n)).into_bytes()
    });
    linear::<SomeGame>("a long row", (), |n| {
        format!("1 1 {n} 2\n{}\n", repeat("0 ", n).trim_end()).into_bytes()
    });
    linear::<SomeGame>("long rows of spaces", (), |n| {
        format!(
            "1 4 2 2\n{}",
            repeat(&format!("0{}0\n", repeat(" ", n / 4)), 4)
        )
        .into_bytes()
    });
    linear::<SomeGame>("many data sets", (), |n| {
        repeat("1 1 1 1\n0\n", n).into_bytes()
    });
    linear::<SomeGame>("a long number", (), |n| {
        format!("1 1 1 {}\n0\n", repeat("9", n)).into_bytes()
    });
}

/// The bookkeeping of `verify` over `files` small games (sorting, looking up and writing its
/// rows, counted by `referee::formats::bookkeeping`), then of `merge` over the two halves of
/// the same run verified as shards.
fn driver_work(files: usize) -> (u64, u64) {
    use referee::verify::run::{run, Batch};
    let dir = tempfile::tempdir().unwrap();
    let cases = dir.path().join("cases");
    std::fs::create_dir(&cases).unwrap();
    for i in 0..files {
        let game = ["1\nL1\nQUIT\n", "2\nL1\nQUIT\n", "2\nT2\nL1\nQUIT\n"][i % 3];
        let sub = cases.join(format!("{:x}", i % 16));
        std::fs::create_dir_all(&sub).unwrap();
        std::fs::write(sub.join(format!("g{i}.in")), game).unwrap();
    }
    let settings = referee::verify::Settings {
        jobs: 2,
        reference_max_bytes: u64::MAX,
        reference_budget: 1_000_000,
        no_reference: false,
    };
    let verify = |shard: Option<referee::util::shard::Shard>, out: &str| {
        let batch = Batch {
            paths: vec![cases.clone()],
            shard,
            jobs: Some(2),
            out: dir.path().join(out),
            timings: false,
            options: Default::default(),
            kept_rows: referee::verify::run::KEPT_ROWS,
        };
        run(&batch, |file, emit| {
            referee::verify::verify_as::<Pousse>(file, &settings, Rules::Waterloo, emit);
        })
        .unwrap()
    };
    referee::formats::bookkeeping();
    let outcome = verify(None, "whole");
    assert_eq!(outcome.rows, files as u64);
    let verified = referee::formats::bookkeeping();
    verify(Some(referee::util::shard::Shard::new(1, 2).unwrap()), "s1");
    verify(Some(referee::util::shard::Shard::new(2, 2).unwrap()), "s2");
    referee::formats::bookkeeping();
    let merged = referee::formats::merge::merge(
        &[dir.path().join("s1"), dir.path().join("s2")],
        &dir.path().join("merged"),
        referee::verify::run::KEPT_ROWS,
        referee::cli::SHARDED,
    )
    .unwrap();
    assert_eq!(merged.rows, files);
    (verified, referee::formats::bookkeeping())
}

#[test]
fn verify_and_merge_do_n_log_n_bookkeeping_in_the_number_of_files() {
    // A driver that looked up each file's rows by scanning every row (files x rows) did 64
    // times the work for 8 times the files; sorting does 8 x log(8n) / log(n).
    let n = 600;
    let (verify_small, merge_small) = driver_work(n);
    let (verify_large, merge_large) = driver_work(8 * n);
    let bound = 8.0 * ((8 * n) as f64).log2() / (n as f64).log2() * 1.2;
    for (what, small, large) in [
        ("verify", verify_small, verify_large),
        ("merge", merge_small, merge_large),
    ] {
        let ratio = large as f64 / small.max(1) as f64;
        eprintln!("{what}: {small} -> {large} steps, x{ratio:.2} (bound x{bound:.2})");
        assert!(
            ratio <= bound,
            "{what}: 8x the files -> {ratio:.1}x the bookkeeping ({small} -> {large})"
        );
        assert!(
            large <= 4 * (8 * n as u64) * ((8 * n) as f64).log2() as u64,
            "{what}: {large} steps for {} files",
            8 * n
        );
    }
}
