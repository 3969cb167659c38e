//! The input form a program is audited in: the one it answers, kept end to end, and random
//! cases within the contest's limits.

use super::*;
use crate::common;
use common::command::{referee, stderr};
use common::programs::{build, script};
use std::fs;

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
        let manifest: serde_json::Value = Report(&out).json();
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
    // Without --batch, nothing is said of it.
    let out = dir.path().join("single");
    let run = audit("littlesquares", &single, &out, &["--cases", "20"]);
    assert!(!stderr(&run).contains("--batch"), "{}", stderr(&run));
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

#[test]
#[ignore = "long tier: .ci/run runs it (cargo test -- --include-ignored)"]
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
fn a_program_out_of_memory_before_any_answer_is_said_so_not_as_a_matter_of_form() {
    let dir = crate::common::scratch::reachable();
    let hungry = script(
        dir.path(),
        "hungry.sh",
        "exec python3 -c 'x = bytearray(1 << 30); print(len(x))'",
    );
    let out = dir.path().join("hungry");
    let run = audit(
        "pousse",
        &hungry,
        &out,
        &["--cases", "10", "--memory", "64"],
    );
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(1), "{err}");
    let rows = findings(&out);
    assert_eq!(rows[0]["kind"], "memory-limit", "{rows:?}");
    assert!(
        rows[0]["detail"].contains("no run on the statement's examples ended with an answer"),
        "{rows:?}"
    );
    assert!(
        !err.contains("fits no") && !rows[0]["detail"].contains("fits no"),
        "{err}"
    );
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
    // The command audit ran, confined with the finding's limits, on the saved input.
    assert!(
        row["reproduce"].starts_with("referee run --timeout ")
            && row["reproduce"].ends_with(&format!(" -- {cmd} < {}", row["input"])),
        "{row:?}"
    );
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
#[ignore = "long tier: .ci/run runs it (cargo test -- --include-ignored)"]
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
