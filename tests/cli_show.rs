//! `referee show`: the drawings of each game on the command line, colour choices, bad input
//! and `--html`.

use crate::common::command::referee;
use crate::common::corpus;

fn printed(cmd: &mut assert_cmd::Command) -> String {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn pousse_is_drawn_as_in_the_statement_at_the_decisive_move() {
    let text = printed(referee().args([
        "show",
        "pousse",
        &corpus("pousse/unequal-straights-one-to-two-o-wins.in"),
    ]));
    let expected =
        "   1 2 3\n  +-+-+-+\n1 |X|X|X|\n  +-+-+-+\n2 |O|O|O|\n  +-+-+-+\n3 |O|O|O|\n  +-+-+-+\n";
    assert!(text.contains(expected), "{text}");
    assert!(
        text.contains("After move 12 of 12: O R3 (the decisive move)"),
        "{text}"
    );
    assert!(
        text.contains("Straights: X 1 (row 1); O 2 (rows 2, 3)"),
        "{text}"
    );
    assert!(!text.contains('\x1b'), "no colour off a terminal");
}

#[test]
fn an_earlier_move_and_the_empty_board_can_be_shown() {
    let file = corpus("pousse/unequal-straights-one-to-two-o-wins.in");
    let empty = printed(referee().args(["show", "pousse", &file, "--move", "0"]));
    assert!(empty.contains("1 | | | |"), "{empty}");
    let second = printed(referee().args(["show", "pousse", &file, "--move", "2"]));
    assert!(second.contains("After move 2 of 12"), "{second}");
}

#[test]
fn the_icfp_rules_name_the_recurring_move() {
    let text = printed(referee().args([
        "show",
        "pousse",
        "--rules",
        "icfp98",
        &corpus("pousse/same-board-same-side-to-move.icfp98.in"),
    ]));
    assert!(
        text.contains("Repeats the configuration after move 2 with the same side to move"),
        "{text}"
    );
    assert!(text.contains("1 |X|O|"), "{text}");
}

#[test]
fn colour_is_used_when_asked_and_never_when_refused() {
    let file = corpus("pousse/unequal-straights-one-to-two-o-wins.in");
    let always = printed(referee().args(["show", "pousse", &file, "--color", "always"]));
    assert!(always.contains("\x1b["), "{always}");
    let never = printed(
        referee()
            .args(["show", "pousse", &file, "--color", "auto"])
            .env("NO_COLOR", "1"),
    );
    assert!(!never.contains('\x1b'));
}

#[test]
fn littlesquares_and_somegame_explain_their_verdicts() {
    let ls = printed(referee().args([
        "show",
        "littlesquares",
        &corpus("littlesquares/run-of-11-against-5-and-3.in"),
    ]));
    assert!(
        ls.contains("run of 11 (columns 1-11) g=6, run of 5 (columns 13-17) g=4, run of 3 (columns 19-21) g=2; value 0"),
        "{ls}"
    );
    assert!(ls.contains("XOR of all: 0"), "{ls}");
    let sg = printed(referee().args([
        "show",
        "somegame",
        &corpus("somegame/both-players-have-lines.in"),
    ]));
    assert!(sg.contains("ERROR"), "{sg}");
    assert!(sg.contains("*1 *1 0"), "{sg}");
}

#[test]
fn bad_requests_and_bad_input_are_refused_with_their_place() {
    let ls = corpus("littlesquares/run-of-11-against-5-and-3.in");
    referee()
        .args(["show", "littlesquares", &ls, "--move", "3"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("no moves"));
    referee()
        .args(["show", "pousse", "--case", "2"])
        .write_stdin("3\nL1\nQUIT\n")
        .assert()
        .code(2)
        .stderr(predicates::str::contains("no case 2"));
    referee()
        .args(["show", "pousse"])
        .write_stdin("3\nL1\nZ9\n")
        .assert()
        .code(1)
        .stderr(predicates::str::contains("<stdin>:3:1:"));
}

#[test]
fn large_boards_are_a_window_with_a_note() {
    let mut input = String::from("100\n");
    for i in 0..200 {
        input.push_str(&format!("T{}\n", (i * 7) % 100 + 1));
    }
    input.push_str("QUIT\n");
    let out = referee()
        .args(["show", "pousse"])
        .write_stdin(input)
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.len() < 20_000, "{} bytes", text.len());
    assert!(text.contains("of 100"), "{text}");
}

#[test]
fn html_holds_the_replay_and_the_drawing() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path();
    let html = dir.join("show.html");
    referee()
        .args([
            "show",
            "pousse",
            &corpus("pousse/unequal-straights-one-to-two-o-wins.in"),
            "--html",
        ])
        .arg(&html)
        .assert()
        .success();
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("class=\"replay\""));
    assert!(page.contains("1 |X|X|X|"));
    assert!(!page.contains("<link") && !page.contains("src=\"http"));
    referee()
        .args(["show", "pousse", "--html"])
        .arg(dir.join("missing/show.html"))
        .write_stdin("3\nQUIT\n")
        .assert()
        .code(2)
        .stderr(predicates::str::contains("does not exist"));
}

#[test]
fn stress_writes_an_html_report_of_its_run() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path();
    let html = dir.join("stress.html");
    referee()
        .args([
            "stress", "somegame", "--cases", "200", "--seed", "3", "--out",
        ])
        .arg(dir.join("out"))
        .arg("--html")
        .arg(&html)
        .assert()
        .success();
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("<h1>referee stress somegame</h1>"), "{page}");
    assert!(page.contains("<p class=\"none\">No problem.</p>"), "{page}");
    assert!(page.contains("<td>somegame</td>"), "{page}");
    assert!(page.contains("seed: 3"), "{page}");
}

#[test]
fn a_move_past_the_last_is_refused_as_a_case_past_the_last_is() {
    // sample-1-tie.in is a game of 5 moves: --move 5 is its last board, --move 6 is none.
    let show = |args: &[&str]| {
        crate::common::command::referee()
            .args(["show", "pousse", "corpus/pousse/sample-1-tie.in"])
            .args(args)
            .output()
            .unwrap()
    };
    assert!(show(&["--move", "5"]).status.success());
    for (args, says) in [
        (&["--move", "6"][..], "no move 6: case 1 has 5 moves"),
        (&["--case", "2"], "no case 2"),
    ] {
        let run = show(args);
        let err = crate::common::command::stderr(&run);
        assert_eq!(run.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(run.stdout.is_empty(), "{args:?}");
    }
}
