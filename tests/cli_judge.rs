//! `referee judge` through the binary: output, errors and exit codes per the CLI contract.

use crate::common::command::referee;
use crate::common::corpus;

#[test]
fn second_sample_from_the_corpus_is_x_wins_with_both_engines() {
    for engine in ["fast", "reference"] {
        referee()
            .args([
                "judge",
                "pousse",
                &corpus("pousse/sample-2-x-wins.in"),
                "--engine",
                engine,
            ])
            .assert()
            .success()
            .stdout("X WINS\n");
    }
}

#[test]
fn rule_sets_from_standard_input() {
    let input = "2\nL1\nL1\nL2\nL2\nT2\nQUIT\n";
    for (rules, verdict) in [
        ("icfp98-board", "O WINS\n"),
        ("icfp98", "TIE GAME\n"),
        ("waterloo", "TIE GAME\n"),
    ] {
        for engine in ["fast", "reference"] {
            referee()
                .args(["judge", "pousse", "--rules", rules, "--engine", engine])
                .write_stdin(input)
                .assert()
                .success()
                .stdout(verdict);
        }
    }
    referee()
        .args(["judge", "pousse", "-"])
        .write_stdin("1\nL1\nQUIT\n")
        .assert()
        .success()
        .stdout("X WINS\n");
}

#[test]
fn multi_case_output_has_blank_lines_between_verdicts() {
    referee()
        .args(["judge", "pousse", &corpus("pousse/multi-case-uva844.in")])
        .assert()
        .success()
        .stdout("TIE GAME\n\nX WINS\n\nX WINS\n");
}

#[test]
fn invalid_input_prints_nothing_and_one_located_error() {
    for engine in ["fast", "reference"] {
        referee()
            .args(["judge", "pousse", "--engine", engine])
            .write_stdin("4\nL2\nL02\nQUIT\n")
            .assert()
            .code(1)
            .stdout("")
            .stderr(predicates::str::starts_with(
                "error: <stdin>:3:2: expected ",
            ));
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.in");
    std::fs::write(&file, "2\n\n4\nL2\nQUIT\n\n3\nL4\nQUIT\n").unwrap();
    let out = referee()
        .args(["judge", "pousse"])
        .arg(&file)
        .assert()
        .code(1)
        .stdout("")
        .get_output()
        .stderr
        .clone();
    let err = String::from_utf8(out).unwrap();
    assert!(
        err.contains(&format!("{}:8:2: case 2: expected", file.display())),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1);
}

#[test]
fn could_not_run_exits_2() {
    referee()
        .args(["judge", "pousse", "/nonexistent/file.in"])
        .assert()
        .code(2)
        .stdout("");
    referee()
        .args(["judge", "pousse", "--rules", "chess"])
        .write_stdin("1\nL1\nQUIT\n")
        .assert()
        .code(2);
    referee().args(["judge", "go"]).assert().code(2);
}

#[test]
fn littlesquares_and_somegame_samples_with_both_engines() {
    for engine in ["fast", "reference"] {
        referee()
            .args([
                "judge",
                "littlesquares",
                &corpus("littlesquares/example-4.in"),
                "--engine",
                engine,
            ])
            .assert()
            .success()
            .stdout("second\n");
        referee()
            .args([
                "judge",
                "somegame",
                &corpus("somegame/samples-stacked.in"),
                "--engine",
                engine,
            ])
            .assert()
            .success()
            .stdout("PLAYER 1\n\nPLAYER 1\n\nERROR\n\nNO WINNERS\n");
    }
}

#[test]
fn reference_refusal_is_a_clear_error_not_a_guess() {
    referee()
        .args([
            "judge",
            "littlesquares",
            &corpus("littlesquares/example-5-8x8.in"),
        ])
        .assert()
        .success()
        .stdout("first\n");
    referee()
        .args([
            "judge",
            "littlesquares",
            &corpus("littlesquares/example-5-8x8.in"),
            "--engine",
            "reference",
        ])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicates::str::contains("beyond the reference's limit"));
}

#[test]
fn rules_only_for_pousse() {
    referee()
        .args(["judge", "somegame", "--rules", "icfp98"])
        .write_stdin("1 1 1 1\n0\n")
        .assert()
        .code(2);
}

#[test]
fn invalid_somegame_and_littlesquares_inputs_are_located() {
    referee()
        .args(["judge", "somegame"])
        .write_stdin("1 2 2 1\n0 0\n0 0 0\n")
        .assert()
        .code(1)
        .stdout("")
        .stderr("error: <stdin>:3:5: case 1: expected end of line after 2 values (row 2 of 2), found '0'\n");
    referee()
        .args(["judge", "littlesquares"])
        .write_stdin("..\n.x\n")
        .assert()
        .code(1)
        .stderr(predicates::str::starts_with(
            "error: <stdin>:2:2: case 1: expected",
        ));
}

#[test]
fn stress_refuses_time_limits_that_are_not_seconds() {
    for flag in ["--case-time=-1", "--case-time=nan", "--time=-3"] {
        referee()
            .args(["stress", "somegame", "--cases", "1", flag])
            .assert()
            .code(2)
            .stderr(predicates::str::contains(
                "must be a non-negative number of seconds",
            ));
    }
    // Its reports in a scratch directory, not the checkout's default `stress-failures`.
    let dir = crate::common::scratch::reachable();
    referee()
        .args([
            "stress",
            "somegame",
            "--cases",
            "50",
            "--case-time",
            "5",
            "--seed",
            "3",
            "--out",
        ])
        .arg(dir.path().join("stress"))
        .assert()
        .success()
        .stderr(predicates::str::contains("stress somegame: 50 cases"));
}

#[test]
fn help_texts_read_as_text() {
    // Every subcommand's help: no documentation link markup, and `package` names every system
    // it writes for.
    for command in [
        "judge", "verify", "merge", "grade", "gen", "stress", "audit", "show", "validate", "check",
        "package",
    ] {
        let run = crate::common::command::referee()
            .args([command, "--help"])
            .output()
            .unwrap();
        let help = crate::common::command::stdout(&run);
        assert!(run.status.success(), "{command}");
        assert!(
            !help.contains("[`"),
            "{command} --help shows link markup:\n{help}"
        );
        if command == "package" {
            assert!(help.contains("DMOJ") && help.contains("Kattis"), "{help}");
        }
    }
}
