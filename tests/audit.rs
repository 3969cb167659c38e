//! `referee audit` on real programs: the judges of `examples/judges` (C built here with the
//! system compiler, and Python 3), among them judges written the way public solutions are (a
//! UVa 844 judge that reads only the multi-case form, a TopCoder judge that trusts the contest's
//! limits), referee's own binary, and hostile programs. No test here asserts how long anything
//! takes; the hang guards are ten times what the runs need on a loaded machine.
#![cfg(target_os = "linux")]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;

use crate::common;
use common::command::{csv_rows, files_of, referee, stderr};
use common::programs::{after_the_probe, alive_with, build, script};

fn judges() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/judges")
}

/// `python3 SCRIPT ARGS` for the judge `script` of `examples/judges/`, copied into `dir`.
fn python(dir: &Path, script: &str, args: &str) -> String {
    let copy = crate::common::programs::copied(dir, &judges().join(script));
    format!("python3 {copy} {args}")
}

/// Runs `referee audit GAME --cmd CMD` with `extra` flags into `out` (hang guard: 10 minutes).
fn audit(game: &str, cmd: &str, out: &Path, extra: &[&str]) -> Output {
    // The CPU time limit, unless the test sets its own: ten times what the slowest correct
    // judge here takes on the largest extremes (about 2 s: a game of 10^5 moves on the largest
    // board under the ICFP rules), so that no correct judge is a timeout on a slower machine.
    let timeout: &[&str] = if extra.contains(&"--timeout") {
        &[]
    } else {
        &["--timeout", "20"]
    };
    referee()
        .args(["audit", game, "--cmd", cmd, "--out"])
        .arg(out)
        .args(extra)
        .args(timeout)
        // A hang guard only: an audit of a few thousand cases, in a debug build, on a machine
        // whose cores are all busy with other work.
        .timeout(Duration::from_secs(1200))
        .output()
        .unwrap()
}

/// The directory of the one program of an audit's report directory (`programs/NAME`).
/// The findings of the one program audited into `out`.
fn findings(out: &Path) -> Vec<std::collections::BTreeMap<String, String>> {
    csv_rows(&program_dir(out).join("findings.csv"))
}

fn program_dir(out: &Path) -> PathBuf {
    let dirs: Vec<PathBuf> = fs::read_dir(out.join("programs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(dirs.len(), 1, "{dirs:?}");
    dirs[0].clone()
}

/// The moves of a Pousse input (either form): lines that are moves.
fn moves(input: &str) -> usize {
    input
        .lines()
        .filter(|l| l.starts_with(['L', 'R', 'T', 'B']))
        .count()
}

/// The form `audit` chose, from its summary.
fn form(run: &Output) -> String {
    let text = stderr(run);
    text.lines()
        .find_map(|l| l.trim_start().strip_prefix("form "))
        .and_then(|l| l.split(':').next())
        .unwrap_or_else(|| panic!("no form line: {text}"))
        .to_string()
}

#[test]
fn the_input_form_is_the_one_the_program_answers() {
    let dir = crate::common::scratch::reachable();
    let both = build(dir.path(), "pousse.c", &[], "both");
    let multi = build(dir.path(), "pousse_uva.c", &[], "uva");
    let single = build(dir.path(), "littlesquares_tc.c", &[], "tc");
    for (game, cmd, expected) in [
        ("pousse", &both, "multi"),
        ("pousse", &multi, "multi"),
        ("littlesquares", &single, "single"),
    ] {
        let out = dir.path().join(format!("{expected}-{game}"));
        let run = audit(game, cmd, &out, &["--cases", "300", "--batch", "10"]);
        assert_eq!(run.status.code(), Some(0), "{cmd}: {}", stderr(&run));
        assert_eq!(form(&run), expected, "{cmd}: {}", stderr(&run));
        let manifest: serde_json::Value =
            serde_json::from_slice(&fs::read(out.join("audit.json")).unwrap()).unwrap();
        let used = &manifest["report"]["programs"][0]["outcome"]["form"];
        assert_eq!(used["form"], expected, "{manifest}");
        assert!(
            used["why"].as_str().is_some_and(|w| !w.is_empty()),
            "{manifest}"
        );
    }
    // The single-form judge cannot take batches: one case per run, said.
    let out = dir.path().join("batched-single");
    let run = audit(
        "littlesquares",
        &single,
        &out,
        &["--cases", "50", "--batch", "10"],
    );
    assert!(
        stderr(&run).contains("one case per run"),
        "{}",
        stderr(&run)
    );
    assert!(stderr(&run).contains("50 cases in"), "{}", stderr(&run));
    assert!(stderr(&run).contains("52 runs of"), "{}", stderr(&run));
    // Asked for a form the program does not read: the program is wrong for that problem, a
    // finding whose saved case fails as saved.
    let out = dir.path().join("asked-single");
    let run = audit(
        "pousse",
        &multi,
        &out,
        &["--form", "single", "--cases", "10"],
    );
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    let rows = findings(&out);
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0]["kind"], "crash", "{rows:?}");
    assert_eq!(rows[0]["form"], "single", "{rows:?}");
    assert!(
        rows[0]["detail"]
            .contains("does not read the problem's single form, its output fits the multi form"),
        "{rows:?}"
    );
    fails_as_saved(&multi, &out, &rows[0]);
}

/// The program `cmd`, run on the finding `row`'s saved input (in `out`) as its reproduce
/// command says, fails again: its output is not the saved answer, or it crashes.
fn fails_as_saved(cmd: &str, out: &Path, row: &std::collections::BTreeMap<String, String>) {
    let argv = shlex::split(cmd).unwrap();
    let again = std::process::Command::new(&argv[0])
        .args(&argv[1..])
        .stdin(fs::File::open(program_dir(out).join(&row["input"])).unwrap())
        .output()
        .unwrap();
    let expected =
        fs::read_to_string(program_dir(out).join(row["input"].replace(".in", ".ans"))).unwrap();
    let words = |text: &[u8]| -> Vec<String> {
        String::from_utf8_lossy(text)
            .split_whitespace()
            .map(String::from)
            .collect()
    };
    assert!(
        !again.status.success() || words(&again.stdout) != words(expected.as_bytes()),
        "{cmd} passes its saved case {}: {row:?}",
        row["input"]
    );
}

#[test]
fn every_program_that_answers_wrongly_is_a_finding_never_a_refusal() {
    let dir = crate::common::scratch::reachable();
    // Output in the game's grammar but wrong on the statement's own examples: audited in the
    // form it answers, the example its first finding, shrunk and confirmed.
    let always_tie = script(
        dir.path(),
        "tie.sh",
        "n=$(head -n 1); i=0; while [ $i -lt $n ]; do [ $i -gt 0 ] && echo; echo 'TIE GAME'; \
         i=$((i+1)); done",
    );
    let out = dir.path().join("tie");
    let run = audit("pousse", &always_tie, &out, &["--cases", "50"]);
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    assert_eq!(form(&run), "multi");
    let rows = findings(&out);
    assert_eq!(rows[0]["kind"], "wrong-answer", "{rows:?}");
    assert!(rows[0]["case"].starts_with("example"), "{rows:?}");
    assert!(
        rows[0]["detail"].contains("the statement's example"),
        "{rows:?}"
    );
    assert_eq!(rows[0]["confirmed"], "confirmed-by-reference", "{rows:?}");
    fails_as_saved(&always_tie, &out, &rows[0]);
    // A LittleSquares program that always says `first`: wrong on the examples' second grid.
    let first = script(dir.path(), "first.sh", "cat >/dev/null; echo first");
    let out = dir.path().join("first");
    let run = audit("littlesquares", &first, &out, &["--cases", "50"]);
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    let rows = findings(&out);
    assert_eq!(rows[0]["kind"], "wrong-answer", "{rows:?}");
    fails_as_saved(&first, &out, &rows[0]);
    // Output in no form: both attempts shown, the attempt in the multi-case form saved.
    let nonsense = script(
        dir.path(),
        "nonsense.sh",
        "cat >/dev/null; echo 'maybe'; echo oops >&2",
    );
    let out = dir.path().join("nonsense");
    let run = audit("pousse", &nonsense, &out, &["--cases", "10"]);
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    let rows = findings(&out);
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0]["kind"], "wrong-answer", "{rows:?}");
    assert_eq!(rows[0]["case"], "examples", "{rows:?}");
    for needle in [
        "its output fits no input form",
        "multi form: an output that is not 2 answers of the game",
        "single form: an output that is not 1 answer of the game",
    ] {
        assert!(rows[0]["detail"].contains(needle), "{needle}: {rows:?}");
    }
    assert_eq!(rows[0]["got"], "maybe\\n");
    assert_eq!(rows[0]["stderr"], "oops\\n");
    // Saved in the multi-case form (a count, a blank line, the games), shrunk.
    let saved = fs::read_to_string(program_dir(&out).join(&rows[0]["input"])).unwrap();
    assert_eq!(saved.lines().nth(1), Some(""), "{saved}");
    assert!(rows[0]["detail"].contains("shrunk"), "{rows:?}");
    fails_as_saved(&nonsense, &out, &rows[0]);
    // A program that fails in every form, and one that exits 127 like a missing command.
    for (name, cmd) in [("false", "/bin/false"), ("127", "sh -c 'exit 127'")] {
        let out = dir.path().join(name);
        let run = audit("somegame", cmd, &out, &["--cases", "10"]);
        assert_eq!(run.status.code(), Some(1), "{cmd}: {}", stderr(&run));
        let rows = findings(&out);
        assert_eq!(rows[0]["kind"], "crash", "{rows:?}");
        assert_eq!(rows[0]["confirmed"], "reproduced 5/5", "{rows:?}");
        fails_as_saved(cmd, &out, &rows[0]);
    }
}

#[test]
fn findings_stay_in_the_programs_form_end_to_end() {
    let dir = crate::common::scratch::reachable();
    let cmd = build(
        dir.path(),
        "pousse_uva.c",
        &["-DPLANT_FULL_LINE_FROM_END"],
        "uva-full-line",
    );
    let out = dir.path().join("out");
    let run = audit(
        "pousse",
        &cmd,
        &out,
        &["--cases", "2000", "--batch", "20", "--seed", "1"],
    );
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    assert_eq!(form(&run), "multi");
    let rows = findings(&out);
    assert_eq!(rows.len(), 1, "{rows:?}");
    let row = &rows[0];
    assert_eq!(row["kind"], "wrong-answer", "{row:?}");
    assert_eq!(row["form"], "multi");
    assert_eq!(row["limits"], "contest");
    assert_eq!(row["confirmed"], "confirmed-by-reference");
    // The saved input is one game in the UVa form; the program, run on it as the reproduce
    // command says, gives the wrong answer again, and referee judge gives the .ans.
    let input_path = program_dir(&out).join(&row["input"]);
    let input = fs::read_to_string(&input_path).unwrap();
    assert!(input.starts_with("1\n\n"), "{input}");
    assert_eq!(row["reproduce"], format!("{cmd} < {}", row["input"]));
    let again = std::process::Command::new(&cmd)
        .stdin(fs::File::open(&input_path).unwrap())
        .output()
        .unwrap();
    let answer = fs::read_to_string(input_path.with_extension("ans")).unwrap();
    assert_ne!(String::from_utf8_lossy(&again.stdout), answer);
    let judged = referee()
        .args(["judge", "pousse"])
        .arg(&input_path)
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&judged.stdout), answer);
    // One misjudged push: at most 8 moves.
    assert!(moves(&input) <= 8, "{input}");
    // The signature covers the whole output.
    assert!(row["signature"].contains("of 1 line differs"), "{row:?}");
}

#[test]
fn random_cases_keep_to_the_contests_limits_unless_told_otherwise() {
    let dir = crate::common::scratch::reachable();
    let tc = build(dir.path(), "littlesquares_tc.c", &[], "tc");
    // Correct inside the limits: no finding.
    let out = dir.path().join("contest");
    let run = audit(
        "littlesquares",
        &tc,
        &out,
        &["--cases", "400", "--seed", "3"],
    );
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    // With the engine's limits, it breaks, and every finding says it is outside the contest's.
    let out = dir.path().join("engine");
    let run = audit(
        "littlesquares",
        &tc,
        &out,
        &[
            "--cases",
            "400",
            "--seed",
            "3",
            "--constraints",
            "engine",
            "--keep-going",
            "--shrink-time",
            "5",
        ],
    );
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    let rows = findings(&out);
    assert!(!rows.is_empty());
    for row in &rows {
        assert_eq!(row["limits"], "outside-contest", "{row:?}");
        assert!(
            row["detail"].contains("outside the contest's limits"),
            "{row:?}"
        );
    }
    assert!(stderr(&run).contains("outside the contest's limits"));
}

#[test]
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
        let manifest: serde_json::Value =
            serde_json::from_slice(&fs::read(out.join("audit.json")).unwrap()).unwrap();
        let runs = manifest["report"]["programs"][0]["runs"].as_u64().unwrap();
        assert!(runs <= 120, "{runs} runs");
        for _ in 0..5 {
            fails_as_saved(&cmd, &out, &rows[0]);
        }
    }
}

#[test]
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
    for (i, (game, cmd, kind, largest, extra)) in planted.iter().enumerate() {
        for seed in ["1", "2"] {
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
}

#[test]
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
fn input_files_are_read_as_cases_written_in_the_form_and_shrunk() {
    let dir = crate::common::scratch::reachable();
    let cmd = build(
        dir.path(),
        "pousse_uva.c",
        &["-DPLANT_MOVE_BUFFER"],
        "uva-buffer",
    );
    // A single game of 40,000 moves in the single-game form, which this program does not read.
    let mut long = String::from("9\n");
    for i in 0..40_000 {
        long.push_str(["L1\n", "R2\n", "T3\n", "B4\n"][i % 4]);
    }
    long.push_str("QUIT\n");
    let inputs = dir.path().join("inputs");
    fs::create_dir(&inputs).unwrap();
    fs::write(inputs.join("long.in"), &long).unwrap();
    let out = dir.path().join("out");
    let run = audit(
        "pousse",
        &cmd,
        &out,
        &[
            "--inputs",
            inputs.to_str().unwrap(),
            "--cases",
            "1",
            "--shrink-time",
            "10",
        ],
    );
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    let rows = findings(&out);
    assert_eq!(rows[0]["kind"], "crash", "{rows:?}");
    assert!(rows[0]["case"].ends_with("long.in"), "{rows:?}");
    let input = fs::read_to_string(program_dir(&out).join(&rows[0]["input"])).unwrap();
    assert!(input.starts_with("1\n\n"), "{}", &input[..20]);
    let played = moves(&input);
    assert!((32_768..40_000).contains(&played), "{played}");
    assert!(rows[0]["detail"].contains("shrunk"), "{rows:?}");
}

#[test]
fn auditing_referee_itself_finds_nothing() {
    let dir = crate::common::scratch::reachable();
    // referee's binary, audited as any judge: copied where the program's user can read it.
    let bin = crate::common::programs::copied(dir.path(), &assert_cmd::cargo::cargo_bin("referee"));
    for (game, rules) in [
        ("pousse", "waterloo"),
        ("pousse", "icfp98"),
        ("littlesquares", ""),
        ("somegame", ""),
    ] {
        let mut cmd = format!("'{bin}' judge {game}");
        let mut extra = vec!["--cases", "300", "--batch", "5", "--constraints", "engine"];
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
fn hostile_programs_neither_hang_the_audit_nor_outlive_it() {
    let dir = crate::common::scratch::reachable();
    let judge = build(dir.path(), "pousse.c", &[], "pousse");
    // Each answers the probe (two runs) like the correct judge, then misbehaves.
    let hostile = |name: &str, body: &str| after_the_probe(dir.path(), name, &judge, body);
    let cases = [
        // A child left sleeping, holding the output pipe open.
        (
            hostile("forks", "sleep 3141 & cat >/dev/null; echo 'X WINS'"),
            "wrong-answer",
        ),
        // A child that leaves the process group.
        (
            hostile(
                "escapes",
                "setsid sleep 3142 & cat >/dev/null; echo 'X WINS'",
            ),
            "wrong-answer",
        ),
        // Output without end.
        (hostile("floods", "yes 'X WINS'"), "output-limit"),
        // Standard input closed at once, nothing read.
        (
            hostile("closes", "exec 0<&-; echo 'TIE GAME'"),
            "wrong-answer",
        ),
        // Standard input never read, and a long sleep.
        (hostile("sleeps", "sleep 3143"), "timeout"),
    ];
    for (cmd, kind) in &cases {
        let out = dir.path().join(format!("{kind}-out"));
        let run = audit(
            "pousse",
            cmd,
            &out,
            &[
                "--cases",
                "200",
                "--batch",
                "100",
                "--timeout",
                "1",
                "--shrink-time",
                "3",
                "--max-output",
                "1e6",
            ],
        );
        assert_eq!(run.status.code(), Some(1), "{cmd}: {}", stderr(&run));
        let rows = findings(&out);
        assert_eq!(rows[0]["kind"], *kind, "{cmd}: {rows:?}");
    }
    std::thread::sleep(Duration::from_millis(200));
    for marker in ["sleep 3141", "sleep 3142", "sleep 3143"] {
        assert!(
            alive_with(marker).is_empty(),
            "{marker} outlived the audit: {:?}",
            alive_with(marker)
        );
    }
}

#[test]
fn an_interrupted_audit_ends_every_process_it_started() {
    use std::os::unix::process::CommandExt;
    let dir = crate::common::scratch::reachable();
    let judge = build(dir.path(), "pousse.c", &[], "pousse");
    // Each answers the probe (two runs) like the correct judge, then leaves processes behind and
    // sleeps: a plain background child, a double fork that leaves the process group (setsid), SIGTERM ignored.
    let hostile = |name: &str, body: &str| after_the_probe(dir.path(), name, &judge, body);
    let bin = assert_cmd::cargo::cargo_bin("referee");
    for (signal, to_group) in [("INT", true), ("TERM", false), ("INT", false)] {
        let round = format!("{signal}-{to_group}");
        let programs = [
            (
                "background",
                hostile(&format!("background-{round}"), "sleep 3151 & sleep 3152"),
            ),
            (
                "double-fork",
                hostile(
                    &format!("double-fork-{round}"),
                    "setsid sh -c 'sleep 3153 & sleep 3154' & sleep 3155",
                ),
            ),
            (
                "ignores-term",
                hostile(
                    &format!("ignores-term-{round}"),
                    "trap '' TERM; sleep 3156 & sleep 3157",
                ),
            ),
            // Interrupted during the probe itself: its first run leaves a double fork.
            (
                "in-the-probe",
                script(
                    dir.path(),
                    &format!("in-the-probe-{round}.sh"),
                    "setsid sh -c 'sleep 3158 & sleep 3159' & sleep 3160",
                ),
            ),
        ];
        for (name, cmd) in &programs {
            let out = dir.path().join(format!("{name}-{signal}-{to_group}"));
            // A process group of its own, as a shell gives a foreground job.
            let mut child = std::process::Command::new(&bin)
                .args([
                    "audit",
                    "pousse",
                    "--cmd",
                    cmd,
                    "--cases",
                    "100",
                    "--timeout",
                    "600",
                ])
                .arg("--out")
                .arg(&out)
                .stderr(std::process::Stdio::piped())
                .process_group(0)
                .spawn()
                .unwrap();
            // Until the program's children are up (hang guard: 60 s).
            let marker = match *name {
                "background" => "sleep 3152",
                "double-fork" => "sleep 3155",
                "in-the-probe" => "sleep 3160",
                _ => "sleep 3157",
            };
            let waited = std::time::Instant::now();
            while alive_with(marker).is_empty() {
                assert!(
                    waited.elapsed() < Duration::from_secs(60),
                    "hang guard: {name} never ran"
                );
                std::thread::sleep(Duration::from_millis(50));
            }
            std::thread::sleep(Duration::from_millis(200));
            let target = if to_group {
                format!("-{}", child.id())
            } else {
                child.id().to_string()
            };
            let sent = std::process::Command::new("kill")
                .args([format!("-{signal}"), "--".into(), target])
                .status()
                .unwrap();
            assert!(sent.success());
            let status = child.wait().unwrap();
            let mut text = String::new();
            std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut text).unwrap();
            let code = if signal == "INT" { 130 } else { 143 };
            assert_eq!(status.code(), Some(code), "{name} {signal}: {text}");
            assert!(text.contains("interrupted by signal"), "{text}");
            // The reports are one consistent run.
            assert!(out.join("audit.json").is_file(), "{name}: {text}");
            let _ = findings(&out);
            std::thread::sleep(Duration::from_millis(200));
            for n in 3151..=3160 {
                let marker = format!("sleep {n}");
                assert!(
                    alive_with(&marker).is_empty(),
                    "{name} {signal}: {marker} outlived the audit: {:?}",
                    alive_with(&marker)
                );
            }
        }
    }
}

#[test]
fn programs_that_cannot_run_end_the_audit_with_exit_2() {
    let dir = crate::common::scratch::reachable();
    let not_executable = dir.path().join("judge.txt");
    fs::write(&not_executable, "not a program").unwrap();
    for cmd in [
        "/nonexistent/judge".to_string(),
        not_executable.display().to_string(),
        "'unbalanced".to_string(),
    ] {
        let run = audit("pousse", &cmd, &dir.path().join("out"), &["--cases", "10"]);
        assert_eq!(run.status.code(), Some(2), "{cmd}: {}", stderr(&run));
        assert!(
            stderr(&run).starts_with("error: "),
            "{cmd}: {}",
            stderr(&run)
        );
    }
    // An unwritable report directory: a file in its place.
    let file = dir.path().join("file");
    fs::write(&file, "").unwrap();
    let run = audit("pousse", "cat", &file, &["--cases", "10"]);
    assert_eq!(run.status.code(), Some(2));
}

#[test]
fn time_bounds_the_whole_audit() {
    // A judge wrong everywhere, audited with --keep-going for 4 s: the cases stop at 3 s,
    // narrowing and shrinking end by 4 s (the hang guard: 40 s).
    let dir = crate::common::scratch::reachable();
    let cmd = build(dir.path(), "pousse.c", &["-DPLANT_MOVER_ONLY"], "mover");
    let out = dir.path().join("out");
    let started = std::time::Instant::now();
    let run = audit(
        "pousse",
        &cmd,
        &out,
        &["--time", "4", "--keep-going", "--seed", "3"],
    );
    assert!(started.elapsed() < Duration::from_secs(40), "hang guard");
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    let text = stderr(&run);
    let total: f64 = text
        .lines()
        .find_map(|line| line.strip_suffix(" s in all"))
        .and_then(|line| line.rsplit("; ").next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("{text}"));
    // What the audit reports of itself: within --time and the last run's timeout.
    assert!(total <= 4.0 + 2.5, "{text}");
}

#[test]
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
    assert_eq!(
        page.matches("class=\"problem\"").count(),
        findings(&out).len()
    );
    for needle in [
        "wrong-answer",
        "class=\"replay\"",
        "the program&#39;s output",
        "the engine&#39;s verdict",
        "confirmed-by-reference",
        "<dt>reproduce</dt>",
        &format!("{cmd} &#60; pousse-case"),
        "<dt>input form</dt><dd><pre>multi</pre>",
        "<dt>limits</dt><dd><pre>contest</pre>",
    ] {
        assert!(page.contains(needle), "{needle}");
    }
}

#[test]
fn a_timeout_is_the_programs_whatever_else_runs_on_the_machine() {
    let _alone = crate::common::programs::budget_test();
    let dir = crate::common::scratch::reachable();
    let judge = build(dir.path(), "pousse.c", &[], "pousse");
    let _busy = crate::common::programs::BusyMachine::start();
    // Burning CPU after the probe: past the CPU time limit, however busy the machine.
    let burns = after_the_probe(dir.path(), "burns", &judge, "while :; do :; done");
    // Sleeping after the probe: stopped by the wall-clock cap, using no CPU time.
    let sleeps = after_the_probe(dir.path(), "sleeps", &judge, "sleep 3171");
    for (cmd, stopped) in [(&burns, "of CPU time"), (&sleeps, "wall-clock cap")] {
        let out = dir.path().join(cmd.replace('/', "_"));
        let flags = ["--cases", "100", "--timeout", "0.5", "--shrink-time", "2"];
        let run = audit("pousse", cmd, &out, &flags);
        assert_eq!(run.status.code(), Some(1), "{cmd}: {}", stderr(&run));
        let rows = findings(&out);
        assert_eq!(rows[0]["kind"], "timeout", "{cmd}: {rows:?}");
        assert!(rows[0]["detail"].contains(stopped), "{cmd}: {rows:?}");
    }
    // A correct judge on the same busy machine: no finding.
    let out = dir.path().join("correct");
    let run = audit(
        "pousse",
        &judge,
        &out,
        &["--cases", "500", "--timeout", "0.5"],
    );
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    assert!(alive_with("sleep 3171").is_empty());
}

#[test]
fn a_program_that_never_answers_within_time_is_a_finding() {
    // The hang guard: ten times --time.
    let dir = crate::common::scratch::reachable();
    let out = dir.path().join("out");
    let started = std::time::Instant::now();
    let run = referee()
        .args([
            "audit",
            "pousse",
            "--cmd",
            "sleep 1002",
            "--time",
            "10",
            "--out",
        ])
        .arg(&out)
        .timeout(Duration::from_secs(100))
        .output()
        .unwrap();
    assert!(started.elapsed() < Duration::from_secs(100), "hang guard");
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    let rows = findings(&out);
    assert_eq!(rows[0]["kind"], "timeout", "{rows:?}");
    assert!(rows[0]["detail"].contains("wall-clock cap"), "{rows:?}");
    assert!(
        stderr(&run).contains("sleep: proved wrong"),
        "{}",
        stderr(&run)
    );
    assert!(alive_with("sleep 1002").is_empty());
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
