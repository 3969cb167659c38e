//! `referee validate` and `referee check` as the judge systems call them: each protocol's exit
//! codes and feedback files for an accepted output, a wrong answer, a presentation error, an
//! answer file that disagrees with the engine, an invalid input, an empty output, binary junk
//! and an endless output.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command as Process, Stdio};

use crate::common::command::referee;
use crate::common::scratch;
use crate::common::tool;

/// A scratch directory holding a two-game Pousse input, its answer and a feedback directory.
fn setup(name: &str) -> (tempfile::TempDir, PathBuf) {
    let (scratch, dir) = scratch::scratch(name);
    std::fs::create_dir_all(dir.join("feedback")).unwrap();
    std::fs::write(dir.join("in"), "2\n\n1\nL1\nQUIT\n\n2\nQUIT\n").unwrap();
    std::fs::write(dir.join("ans"), "X WINS\n\nTIE GAME\n").unwrap();
    (scratch, dir)
}

fn kattis(dir: &Path, output: &[u8]) -> (i32, String, Option<String>) {
    let out = referee()
        .args(["check", "pousse"])
        .arg(dir.join("in"))
        .arg(dir.join("ans"))
        .arg(dir.join("feedback"))
        .write_stdin(output.to_vec())
        .output()
        .unwrap();
    let message = std::fs::read_to_string(dir.join("feedback/judgemessage.txt")).unwrap();
    let error = std::fs::read_to_string(dir.join("feedback/judgeerror.txt")).ok();
    (out.status.code().unwrap(), message, error)
}

#[test]
fn kattis_accepts_rejects_and_reports_judge_errors() {
    let (_scratch, dir) = setup("kattis");
    let (code, message, error) = kattis(&dir, b"X WINS\n\nTIE GAME\n");
    assert_eq!((code, error), (42, None));
    assert!(message.starts_with("accepted"), "{message}");
    let (code, message, _) = kattis(&dir, b"X WINS\n\nO WINS\n");
    assert_eq!(code, 43);
    assert_eq!(
        message,
        "wrong answer: case 2: expected \"TIE GAME\", got \"O WINS\" (QUIT after 0 moves, no decision)\n"
    );
    let (code, message, _) = kattis(&dir, b"X WINS\nTIE GAME\n");
    assert_eq!(code, 43);
    assert!(message.starts_with("presentation error: "), "{message}");
    let (code, message, _) = kattis(&dir, b"");
    assert_eq!(code, 43);
    assert!(message.starts_with("no output"), "{message}");
    let (code, message, _) = kattis(&dir, b"\x7fELF\x00\x00\xff garbage");
    assert_eq!(code, 43);
    assert!(message.contains("\\x7FELF\\x00"), "{message}");
    // The judges' answer file is wrong: never a verdict on the team.
    std::fs::write(dir.join("ans"), "X WINS\n\nO WINS\n").unwrap();
    let (code, _, error) = kattis(&dir, b"X WINS\n\nTIE GAME\n");
    assert_eq!(code, 1);
    assert!(error.unwrap().contains("disagrees with the engine: case 2"));
    // The input is invalid.
    std::fs::write(dir.join("in"), "3\nL9\nQUIT\n").unwrap();
    let (code, _, error) = kattis(&dir, b"X WINS\n");
    assert_eq!(code, 1);
    let error = error.unwrap();
    assert!(
        error.contains("the input is invalid") && error.contains("in:2:"),
        "{error}"
    );
}

#[test]
fn kattis_validator_arguments_choose_the_rule_set_and_the_team_message_is_optional() {
    let (_scratch, dir) = setup("rules");
    // After 4 moves on a 2 x 2 board, R1 R1 R1 R1 repeats the board of move 2 under icfp98.
    std::fs::write(dir.join("in"), "2\nR1\nR1\nR1\nR1\nQUIT\n").unwrap();
    std::fs::write(dir.join("ans"), "X WINS\n").unwrap();
    for extra in [&["icfp98"][..], &["rules=icfp98"], &["--rules", "icfp98"]] {
        referee()
            .args(["check", "pousse"])
            .arg(dir.join("in"))
            .arg(dir.join("ans"))
            .arg(dir.join("feedback"))
            .args(extra)
            .write_stdin("X WINS\n")
            .assert()
            .code(42);
    }
    // Under the default rules the same game is a tie: the answer file is a judge error.
    referee()
        .args(["check", "pousse"])
        .arg(dir.join("in"))
        .arg(dir.join("ans"))
        .arg(dir.join("feedback"))
        .write_stdin("X WINS\n")
        .assert()
        .code(1);
    let _ = std::fs::remove_file(dir.join("feedback/teammessage.txt"));
    referee()
        .args(["check", "pousse", "--team-message"])
        .arg(dir.join("in"))
        .arg(dir.join("ans"))
        .arg(dir.join("feedback"))
        .arg("icfp98")
        .write_stdin("O WINS\n")
        .assert()
        .code(43);
    let team = std::fs::read_to_string(dir.join("feedback/teammessage.txt")).unwrap();
    assert!(team.starts_with("wrong answer: case 1"), "{team}");
}

#[test]
fn testlib_and_cms_speak_their_own_codes() {
    let (_scratch, dir) = setup("testlib");
    let out = dir.join("out");
    let testlib = |output: &str| {
        std::fs::write(&out, output).unwrap();
        referee()
            .args(["check", "pousse", "--protocol", "testlib"])
            .arg(dir.join("in"))
            .arg(&out)
            .arg(dir.join("ans"))
            .output()
            .unwrap()
            .status
            .code()
            .unwrap()
    };
    assert_eq!(testlib("X WINS\n\nTIE GAME\n"), 0);
    assert_eq!(testlib("X WINS\n\nO WINS\n"), 1);
    assert_eq!(testlib("X WINS\nTIE GAME\n"), 2);
    let cms = |output: &str| {
        std::fs::write(&out, output).unwrap();
        let o = referee()
            .args(["check", "pousse", "--protocol", "cms"])
            .arg(dir.join("in"))
            .arg(dir.join("ans"))
            .arg(&out)
            .output()
            .unwrap();
        (
            o.status.code().unwrap(),
            String::from_utf8(o.stdout).unwrap(),
            String::from_utf8(o.stderr).unwrap(),
        )
    };
    assert_eq!(cms("X WINS\n\nTIE GAME\n").0, 0);
    assert_eq!(cms("X WINS\n\nTIE GAME\n").1, "1.0\n");
    let (code, score, message) = cms("TIE GAME\n\nTIE GAME\n");
    assert_eq!((code, score.as_str()), (0, "0.0\n"));
    assert!(message.contains("case 1: expected \"X WINS\""), "{message}");
    std::fs::write(dir.join("ans"), "O WINS\n\nTIE GAME\n").unwrap();
    assert_eq!(testlib("X WINS\n\nTIE GAME\n"), 3);
    let (code, score, message) = cms("X WINS\n\nTIE GAME\n");
    assert_eq!((code, score.as_str()), (1, ""));
    assert!(message.contains("judge error"), "{message}");
}

#[test]
fn an_endless_output_is_a_wrong_answer_read_only_so_far() {
    let (_scratch, dir) = setup("endless");
    let mut child = Process::new(crate::common::command::referee_path())
        .args(["check", "pousse"])
        .arg(dir.join("in"))
        .arg(dir.join("ans"))
        .arg(dir.join("feedback"))
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let chunk = vec![b'X'; 1 << 20];
    let mut written = 0u64;
    // Up to a gigabyte; the checker stops reading long before.
    while written < 1 << 30 {
        if stdin.write_all(&chunk).is_err() {
            break;
        }
        written += chunk.len() as u64;
    }
    drop(stdin);
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(43));
    assert!(written < 16 << 20, "{written} bytes were taken");
    let message = std::fs::read_to_string(dir.join("feedback/judgemessage.txt")).unwrap();
    assert!(message.contains("far longer"), "{message}");
}

#[test]
fn the_input_validator_exits_42_or_43_with_the_place() {
    referee()
        .args(["validate", "pousse"])
        .write_stdin("3\nL1\nQUIT\n")
        .assert()
        .code(42);
    referee()
        .args(["validate", "pousse"])
        .write_stdin("3\nL4\nQUIT\n")
        .assert()
        .code(43)
        .stderr(predicates::str::starts_with("<stdin>:2:"));
    referee()
        .args(["validate", "pousse", "--constraints", "contest"])
        .write_stdin("101\nQUIT\n")
        .assert()
        .code(43)
        .stderr(predicates::str::contains("N <= 100"));
    referee()
        .args(["validate", "somegame", "--constraints", "contest"])
        .write_stdin("2 3 3 4\n1 2  0\n2 1 0\n0 0 1\n")
        .assert()
        .code(43)
        .stderr(predicates::str::contains(
            "<stdin>:2:5: case 1: expected a single space",
        ));
    referee()
        .args(["validate", "littlesquares", "--constraints", "contest"])
        .write_stdin("..\n..\n")
        .assert()
        .code(42);
}

/// The answer validator BAPCtools runs (`run INPUT < ANSWER`): the engine's verdicts byte for
/// byte, or the first byte that differs; an input that is not one is named.
#[test]
fn an_answer_file_is_valid_only_as_the_engines_verdicts_byte_for_byte() {
    let (_scratch, dir) = setup("answer");
    let answer = |text: &str| {
        let out = referee()
            .args(["validate", "pousse", "--answer-of"])
            .arg(dir.join("in"))
            .write_stdin(text)
            .output()
            .unwrap();
        (
            out.status.code().unwrap(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    assert_eq!(answer("X WINS\n\nTIE GAME\n").0, 42);
    for (text, said) in [
        ("X WINS\n\nTIE GAME", "3:9: expected \"\\n\""),
        ("X WINS \n\nTIE GAME\n", "1:7: expected \"\\n\""),
        ("X WINS\n\ntie game\n", "3:1: expected \"T\""),
        ("X WINS\n\nTIE GAME\n\n", "4:1: expected the end"),
    ] {
        let (code, err) = answer(text);
        assert_eq!(code, 43, "{text:?}");
        assert!(err.contains(said), "{text:?}: {err}");
    }
    std::fs::write(dir.join("bad.in"), "3\nL9\nQUIT\n").unwrap();
    let out = referee()
        .args(["validate", "pousse", "--answer-of"])
        .arg(dir.join("bad.in"))
        .write_stdin("X WINS\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(43));
    assert!(String::from_utf8_lossy(&out.stderr).contains("the input is invalid"));
}

/// The tool in `REFEREE_OJ`, or `None`: the test is skipped.
fn oj() -> Option<PathBuf> {
    tool::from_env(
        "REFEREE_OJ",
        "online-judge-tools' oj, installed by scripts/ci/oj.sh",
    )
}

/// `oj test -c PROGRAM -d DIR --judge-command 'referee check GAME --protocol testlib'`: oj
/// calls its judge command as `JUDGE INPUT ACTUAL EXPECTED` and reads exit 0 as accepted, the
/// testlib protocol's order and codes. On the shipped corpus of each game (its cases under the
/// default rules, `.ans` as oj's `.out`), a correct program is accepted on every case and a
/// program that always answers the same is rejected on exactly the cases whose answer differs.
#[test]
#[ignore = "runs online-judge-tools' oj: REFEREE_OJ set (scripts/ci/oj.sh), cargo test -- --include-ignored (.ci/run does)"]
fn online_judge_tools_takes_check_as_its_judge_command() {
    let Some(oj) = oj() else {
        return;
    };
    let referee = crate::common::command::referee_path().display();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (game, constant) in [
        ("pousse", "X WINS"),
        ("littlesquares", "first"),
        ("somegame", "NO WINNERS"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let mut cases = 0;
        let mut differ = 0;
        for entry in std::fs::read_dir(root.join("corpus").join(game)).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let Some(stem) = name.strip_suffix(".in") else {
                continue;
            };
            let answer = path.with_extension("ans");
            // One rule set per run: the default's cases (no rule set in the name).
            if stem.contains('.') || !answer.is_file() {
                continue;
            }
            let expected = std::fs::read_to_string(&answer).unwrap();
            std::fs::copy(&path, dir.path().join(format!("{stem}.in"))).unwrap();
            std::fs::write(dir.path().join(format!("{stem}.out")), &expected).unwrap();
            cases += 1;
            differ += usize::from(expected != format!("{constant}\n"));
        }
        assert!(cases >= 5, "{game}: {cases} cases");
        let judge = format!("{referee} check {game} --protocol testlib");
        let run = |program: &str| {
            let out = Process::new(&oj)
                .args(["test", "--no-print-input", "-c", program, "-d"])
                .arg(dir.path())
                .args(["--judge-command", &judge])
                .env("HOME", dir.path())
                .current_dir(dir.path())
                .output()
                .unwrap();
            let said = format!(
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
            (out.status.code(), said)
        };
        let (code, said) = run(&format!("{referee} judge {game}"));
        assert_eq!(code, Some(0), "{game}: {said}");
        assert!(
            said.contains(&format!("test success: {cases} cases")),
            "{game}: {said}"
        );
        let (code, said) = run(&format!("echo '{constant}'"));
        assert_eq!(code, Some(1), "{game}: {said}");
        let verdict = format!("test failed: {} AC / {cases} cases", cases - differ);
        assert!(said.contains(&verdict), "{game}: {verdict}?\n{said}");
    }
}
