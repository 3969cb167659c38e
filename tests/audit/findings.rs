//! What audit finds in planted bugs and correct judges, how it shrinks and reproduces each
//! finding, and that the same seed gives the same findings.

use super::*;
use crate::common;
use common::command::{files_of, referee, stderr};
use common::programs::{build, script};
use std::fs;
use std::time::Duration;

#[test]
#[ignore = "long tier: .ci/run runs it (cargo test -- --include-ignored)"]
fn the_long_game_crash_is_found_from_random_cases() {
    let dir = crate::common::scratch::reachable();
    let cmd = build(
        dir.path(),
        "pousse_uva.c",
        &["-DPLANT_MOVE_BUFFER"],
        "uva-buffer",
    );
    // Within the default 1,000 cases, whatever the seed: long games are among the corners.
    for seed in ["1", "2", "3"] {
        let out = dir.path().join(format!("out{seed}"));
        let run = audit("pousse", &cmd, &out, &["--batch", "20", "--seed", seed]);
        assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
        let rows = findings(&out);
        assert_eq!(rows.len(), 1, "{rows:?}");
        assert_eq!(rows[0]["kind"], "crash", "{rows:?}");
        // A crash is run four times again.
        assert_eq!(rows[0]["confirmed"], "reproduced 5/5", "{rows:?}");
        assert!(rows[0]["case"].starts_with("random "), "{rows:?}");
        // Cut to the shortest prefix that crashes every time by bisection, in a few dozen
        // runs (past the buffer's end, a crash depends on what the overflow reaches).
        let input = fs::read_to_string(program_dir(&out).join(&rows[0]["input"])).unwrap();
        let played = moves(&input);
        assert!((32_768..=40_000).contains(&played), "{played} moves");
        let manifest: serde_json::Value = Report(&out).json();
        let runs = manifest["report"]["programs"][0]["runs"].as_u64().unwrap();
        assert!(runs <= 120, "{runs} runs");
        for _ in 0..5 {
            fails_as_saved(&cmd, &out, &rows[0]);
        }
    }
}

#[test]
#[ignore = "long tier: .ci/run runs it (cargo test -- --include-ignored)"]
fn planted_bugs_are_found_classified_and_shrunk() {
    let dir = crate::common::scratch::reachable();
    // Game, program, kind, the largest shrunk case (moves for Pousse, rows otherwise), flags.
    let planted: [(&str, String, &str, usize, Vec<&str>); 6] = [
        (
            "pousse",
            build(dir.path(), "pousse.c", &["-DPLANT_MOVER_ONLY"], "mover"),
            "wrong-answer",
            8,
            vec![],
        ),
        (
            "pousse",
            python(dir.path(), "pousse.py", "--plant full-line"),
            "wrong-answer",
            8,
            vec![],
        ),
        (
            "pousse",
            python(dir.path(), "pousse.py", "--plant hang-on-n1"),
            "timeout",
            8,
            // Every run of a variant that hangs costs the whole limit, and shrinking may spend
            // 20 s of CPU time: a limit of 2 s leaves it room for the steps down to 1 x 1.
            vec!["--timeout", "2"],
        ),
        (
            "littlesquares",
            build(dir.path(), "littlesquares.c", &["-DPLANT_XOR_BITS"], "xor"),
            "wrong-answer",
            2,
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
            3,
            vec!["--constraints", "engine"],
        ),
        (
            "somegame",
            python(dir.path(), "somegame.py", "--plant no-wrap"),
            "wrong-answer",
            6,
            vec![],
        ),
    ];
    // Seeds 1 and 2 in turn, so that no finding hangs on one seed's cases.
    for (i, (game, cmd, kind, largest, extra)) in planted.iter().enumerate() {
        let seed = ["1", "2"][i % 2];
        let out = dir.path().join(format!("out{i}-{seed}"));
        let mut flags = vec!["--cases", "3000", "--shrink-time", "20", "--seed", seed];
        flags.extend(extra);
        let run = audit(game, cmd, &out, &flags);
        assert_eq!(run.status.code(), Some(1), "{cmd}: {}", stderr(&run));
        // A loaded machine may make a run flaky: those are reported apart.
        let mut rows = findings(&out);
        rows.retain(|row| row["kind"] != "flaky");
        assert_eq!(rows.len(), 1, "{cmd}: {rows:?}");
        let row = &rows[0];
        assert_eq!(row["kind"], *kind, "{cmd}: {row:?}");
        let confirmed = match *kind {
            k if k.contains("answer") => "confirmed-by-reference",
            "crash" => "reproduced 5/5",
            _ => "reproduced 3/3",
        };
        assert_eq!(row["confirmed"], confirmed, "{cmd}: {row:?}");
        let input = fs::read_to_string(program_dir(&out).join(&row["input"])).unwrap();
        let size = match *game {
            "pousse" => moves(&input),
            "littlesquares" => input.lines().filter(|l| !l.is_empty()).count(),
            _ => input.lines().skip(1).count(),
        };
        assert!(size <= *largest, "{cmd} seed {seed}: {size}:\n{input}");
        for ext in ["ans", "out", "err"] {
            let file = program_dir(&out).join(row["input"].replace(".in", &format!(".{ext}")));
            assert!(file.exists(), "{}", file.display());
        }
        assert!(stderr(&run).contains("reproduce:"), "{}", stderr(&run));
    }
}

#[test]
#[ignore = "long tier: .ci/run runs it (cargo test -- --include-ignored)"]
fn a_failure_that_does_not_come_back_is_flaky() {
    let dir = crate::common::scratch::reachable();
    let judge = build(dir.path(), "pousse.c", &[], "pousse");
    let count = dir.path().join("count");
    // The probe runs twice; the program sleeps on the first case run only.
    let sleepy = script(
        dir.path(),
        "sleepy.sh",
        &format!(
            "echo x >> {count}; if [ \"$(wc -l < {count})\" -eq 3 ]; then sleep 30; fi; exec {judge}",
            count = count.display()
        ),
    );
    let out = dir.path().join("out");
    // It keeps its count between runs, which a confined program cannot: unconfined.
    let flags = [
        "--cases",
        "20",
        "--jobs",
        "1",
        "--timeout",
        "1",
        "--unconfined",
    ];
    let run = audit("pousse", &sleepy, &out, &flags);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let rows = findings(&out);
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0]["kind"], "flaky");
    assert_eq!(rows[0]["confirmed"], "reproduced 1/3");
    assert!(
        rows[0]["detail"].contains("first seen as timeout"),
        "{rows:?}"
    );
    // With --strict, a flaky finding fails the audit.
    fs::remove_file(&count).unwrap();
    let mut strict = flags.to_vec();
    strict.push("--strict");
    let run = audit("pousse", &sleepy, &out, &strict);
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
}

#[test]
#[ignore = "long tier: .ci/run runs it (cargo test -- --include-ignored)"]
fn correct_judges_give_no_finding() {
    let dir = crate::common::scratch::reachable();
    let correct = [
        ("pousse", build(dir.path(), "pousse.c", &[], "pousse"), "1"),
        (
            "pousse",
            build(dir.path(), "pousse_uva.c", &[], "uva"),
            "20",
        ),
        (
            "littlesquares",
            python(dir.path(), "littlesquares.py", ""),
            "10",
        ),
        ("somegame", python(dir.path(), "somegame.py", ""), "10"),
    ];
    for (game, cmd, batch) in correct {
        let out = dir.path().join(format!("{game}-{batch}-out"));
        let run = audit(game, &cmd, &out, &["--cases", "500", "--batch", batch]);
        assert_eq!(run.status.code(), Some(0), "{cmd}: {}", stderr(&run));
        assert!(findings(&out).is_empty());
        assert!(stderr(&run).contains("no finding"));
    }
    // The correct C judge in batches, on the shipped corpus first.
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
#[ignore = "long tier: .ci/run runs it (cargo test -- --include-ignored)"]
fn auditing_referee_itself_finds_nothing() {
    let dir = crate::common::scratch::reachable();
    // referee's binary, audited as any judge: copied where the program's user can read it.
    let bin = crate::common::programs::copied(dir.path(), crate::common::command::referee_path());
    for (game, rules) in [
        ("pousse", "waterloo"),
        ("pousse", "icfp98"),
        ("littlesquares", ""),
        ("somegame", ""),
    ] {
        let mut cmd = format!("'{bin}' judge {game}");
        // 40 cases a game, every form and rule set: the debug build that audits judges the
        // engine's largest cases slowly (tests/pousse.rs and the others judge those).
        let mut extra = vec!["--cases", "40", "--batch", "5", "--constraints", "engine"];
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
#[ignore = "long tier: .ci/run runs it (cargo test -- --include-ignored)"]
fn the_same_seed_gives_the_same_findings_whatever_the_jobs() {
    let dir = crate::common::scratch::reachable();
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
            row.remove("cpu-millis"); // times differ
            row.remove("wall-millis");
            row.remove("memory-kib");
        }
        reports.push(rows);
    }
    assert_eq!(reports[0], reports[1]);
    // Distinct signatures are kept apart, each counted.
    let signatures: std::collections::BTreeSet<&String> =
        reports[0].iter().map(|r| &r["signature"]).collect();
    assert_eq!(signatures.len(), reports[0].len());
    let counted: u64 = reports[0]
        .iter()
        .map(|r| r["count"].parse::<u64>().unwrap())
        .sum();
    assert!(counted >= reports[0].len() as u64);
    // Shrunk cases that coincide are one finding.
    let inputs: std::collections::BTreeSet<String> = reports[0]
        .iter()
        .map(|r| {
            fs::read_to_string(program_dir(&dir.path().join("jobs1")).join(&r["input"])).unwrap()
        })
        .collect();
    assert_eq!(inputs.len(), reports[0].len());
}

#[test]
#[ignore = "long tier: .ci/run runs it (cargo test -- --include-ignored)"]
fn the_html_report_shows_how_to_reproduce_each_finding() {
    let dir = crate::common::scratch::reachable();
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
    let found = findings(&out).len();
    assert_eq!(page.matches("class=\"problem\"").count(), found);
    // Findings, not problems: not every finding is a line of the package's verdict.
    let said = if found == 1 {
        "1 finding:".to_string()
    } else {
        format!("{found} findings:")
    };
    assert!(
        page.contains(&said) && !page.contains(" problems:"),
        "{said}"
    );
    for needle in [
        "wrong-answer",
        "class=\"replay\"",
        "the program&#39;s output",
        "the engine&#39;s verdict",
        "confirmed-by-reference",
        "<dt>reproduce</dt>",
        &format!(
            "-- {cmd} &#60; {}",
            out.join("programs/mover/pousse-case").display()
        ),
        "<dt>input form</dt><dd><pre>multi</pre>",
        "<dt>limits</dt><dd><pre>contest</pre>",
    ] {
        assert!(page.contains(needle), "{needle}");
    }
}

#[test]
fn a_program_named_or_not_gives_the_same_reports() {
    let dir = crate::common::scratch::reachable();
    build(dir.path(), "pousse.c", &["-DPLANT_MOVER_ONLY"], "j");
    let run = |cmd: &str, out: &str| {
        let run = referee()
            .current_dir(dir.path())
            .args([
                "audit", "pousse", "--cmd", cmd, "--cases", "200", "--out", out,
            ])
            .timeout(Duration::from_secs(600))
            .output()
            .unwrap();
        assert_eq!(run.status.code(), Some(1), "{cmd}: {}", stderr(&run));
        dir.path().join(out)
    };
    let bare = run("./j", "bare");
    let named = run("j=./j", "named");
    let (a, b) = (files_of(&bare), files_of(&named));
    assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>());
    assert!(a.contains_key("programs/j/findings.csv"), "{:?}", a.keys());
    for (name, bytes) in &a {
        // The findings' CPU and wall-clock times and memory, and the manifest's, differ from
        // run to run.
        if name.ends_with("findings.csv") {
            let rows = |bytes: &[u8]| -> Vec<Vec<String>> {
                csv::Reader::from_reader(bytes)
                    .records()
                    .map(|r| {
                        let r = r.unwrap();
                        r.iter()
                            .enumerate()
                            .filter(|(i, _)| ![8, 9, 10].contains(i))
                            .map(|(_, v)| v.to_string())
                            .collect()
                    })
                    .collect()
            };
            assert_eq!(rows(bytes), rows(&b[name]), "{name}");
        } else if name != "audit.json" {
            assert_eq!(bytes, &b[name], "{name}");
        }
    }
}

/// The fewest moves of a Pousse game that the judge `cmd` (of the multi-case form) answers
/// wrongly: every game of one move, then of two, ..., on boards of 1 x 1 to 4 x 4 (each board
/// size and length while it has at most 300,000 games), thousands to a run, against the
/// engine. `None` up to six moves.
fn shortest_wrong_game(cmd: &str) -> Option<usize> {
    use referee::game::{Engine, Game, Judged};
    use referee::pousse::{Pousse, Rules};
    let moves_of = |n: usize| -> Vec<String> {
        ["L", "R", "T", "B"]
            .iter()
            .flat_map(|e| (1..=n).map(move |i| format!("{e}{i}")))
            .collect()
    };
    for length in 1..=6u32 {
        for n in 1..=4usize {
            let all = moves_of(n);
            let games = (all.len() as u64).pow(length);
            if games > 300_000 {
                continue;
            }
            let game = |mut k: u64| -> String {
                let mut text = format!("{n}\n");
                for _ in 0..length {
                    text.push_str(&all[(k % all.len() as u64) as usize]);
                    text.push('\n');
                    k /= all.len() as u64;
                }
                text + "QUIT\n"
            };
            for start in (0..games).step_by(5000) {
                let batch: Vec<String> = (start..games.min(start + 5000)).map(game).collect();
                let input = format!("{}\n\n{}", batch.len(), batch.join("\n"));
                let expected: Vec<String> =
                    Pousse::judge(Engine::Fast, &mut input.as_bytes(), Rules::Waterloo)
                        .unwrap()
                        .iter()
                        .map(Judged::verdict)
                        .collect();
                let run = std::process::Command::new(cmd)
                    .stdin(std::process::Stdio::piped())
                    .stdout(std::process::Stdio::piped())
                    .spawn()
                    .unwrap();
                std::io::Write::write_all(&mut run.stdin.as_ref().unwrap(), input.as_bytes())
                    .unwrap();
                let out = run.wait_with_output().unwrap();
                let got: Vec<String> = String::from_utf8_lossy(&out.stdout)
                    .lines()
                    .filter(|l| !l.trim().is_empty())
                    .map(|l| l.trim().to_string())
                    .collect();
                if got != expected {
                    return Some(length as usize);
                }
            }
        }
    }
    None
}

#[test]
#[ignore = "long tier: .ci/run runs it (cargo test -- --include-ignored)"]
fn pousse_findings_shrink_to_at_most_one_move_more_than_the_shortest_wrong_game() {
    let dir = crate::common::scratch::reachable();
    let planted = [
        build(dir.path(), "pousse.c", &["-DPLANT_MOVER_ONLY"], "mover"),
        build(
            dir.path(),
            "pousse.c",
            &["-DPLANT_R_WRONG_END"],
            "r-wrong-end",
        ),
        build(
            dir.path(),
            "pousse_uva.c",
            &["-DPLANT_FULL_LINE_FROM_END"],
            "full-line",
        ),
    ];
    for cmd in &planted {
        let shortest = shortest_wrong_game(cmd).expect("a wrong game of six moves or fewer");
        for seed in ["1", "2"] {
            let out = dir.path().join(format!("{}-{seed}", cmd.replace('/', "_")));
            let run = audit("pousse", cmd, &out, &["--cases", "2000", "--seed", seed]);
            assert_eq!(run.status.code(), Some(1), "{cmd}: {}", stderr(&run));
            let rows = findings(&out);
            let input = fs::read_to_string(program_dir(&out).join(&rows[0]["input"])).unwrap();
            assert!(
                moves(&input) <= shortest + 1,
                "{cmd} seed {seed}: {} moves where {shortest} show the bug:\n{input}",
                moves(&input)
            );
            fails_as_saved(cmd, &out, &rows[0]);
        }
    }
}

/// `examples/judges/pousse.c` built in `dir` with a hang (a busy loop) on every game of a
/// board of `n` squares a side: its command.
fn hangs_on_boards_of(dir: &std::path::Path, n: u32) -> String {
    let judge = fs::read_to_string(judges().join("pousse.c")).unwrap();
    let source = dir.join("hangs.c");
    fs::write(
        &source,
        judge.replace("puts(game(", "puts(hang_or_game(").replace(
            "int main(void) {",
            &format!(
                "static const char *hang_or_game(int n, int multi) {{\n\
                 if (n == {n}) for (volatile unsigned long i = 0;; i++) {{}}\n\
                 return game(n, multi);\n}}\nint main(void) {{"
            ),
        ),
    )
    .unwrap();
    let program = dir.join("hangs");
    let built = std::process::Command::new("cc")
        .arg("-O2")
        .arg("-o")
        .arg(&program)
        .arg(&source)
        .status()
        .unwrap();
    assert!(built.success());
    program.display().to_string()
}

#[test]
#[ignore = "long tier: .ci/run runs it (cargo test -- --include-ignored)"]
fn a_hang_on_one_case_of_a_batch_is_that_cases_timeout_isolated_and_shrunk() {
    // Twenty cases a run, 1 s of CPU time a case: the run stops soon after the case that hangs
    // overruns its own second (never after the twenty seconds of the whole run), the case is
    // found alone, confirmed and shrunk within --time, and it fails alone: no "only with the
    // other cases of its run".
    let _alone = common::programs::budget_test();
    let dir = crate::common::scratch::reachable();
    let judge = hangs_on_boards_of(dir.path(), 7);
    let out = dir.path().join("out");
    let run = audit(
        "pousse",
        &judge,
        &out,
        &[
            "--form",
            "multi",
            "--batch",
            "20",
            "--timeout",
            "1",
            "--time",
            "60",
            "--seed",
            "3",
        ],
    );
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(1), "{err}");
    let rows = findings(&out);
    let row = &rows[0];
    assert_eq!(row["kind"], "timeout", "{rows:?}\n{err}");
    assert!(
        row["confirmed"].starts_with("reproduced"),
        "{rows:?}\n{err}"
    );
    assert!(
        !row["detail"].contains("only with the other cases"),
        "{rows:?}\n{err}"
    );
    let input = fs::read_to_string(program_dir(&out).join(&row["input"])).unwrap();
    // One game, on a board of 7, shrunk.
    assert!(input.lines().any(|l| l.trim() == "7"), "{input}");
    assert!(moves(&input) <= 8, "{input}\n{rows:?}");
}
