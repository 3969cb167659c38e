//! What one run of the program means against the engine's expected output: its [`Kind`] of
//! failure, which cases of a multi-case run it got wrong, and how its output differs (the
//! signatures' text).

use crate::audit::terms::Auditable;
use crate::audit::terms::Kind;
use crate::game::{render, Engine, Judged};
use crate::util::answer::{compare, escape, Verdict};
use referee_sandbox::{Ending, Run};

/// One run's outcome against the engine's expected output.
#[derive(Debug, Clone)]
pub struct Tried {
    /// What went wrong, `None` when the output is accepted.
    pub kind: Option<Kind>,
    /// The run.
    pub run: Run,
    /// The engine's output for the run's input.
    pub expected: String,
}

impl Tried {
    /// Classifies `run` against `expected`.
    pub fn new(run: Run, expected: String) -> Tried {
        Tried {
            kind: classify(&run, &expected),
            run,
            expected,
        }
    }

    /// Whether the run was cut short by the audit itself (its deadline or an interruption):
    /// it says nothing about the program.
    pub fn cut(&self) -> bool {
        self.run.ending == Ending::Cut
    }
}

/// What the program's run means, against `expected`.
pub fn classify(run: &Run, expected: &str) -> Option<Kind> {
    match run.ending {
        Ending::Cut => None,
        Ending::TimedOut | Ending::AnswerLate | Ending::WallCap => Some(Kind::Timeout),
        Ending::OutputLimit => Some(Kind::OutputLimit),
        Ending::MemoryLimit => Some(Kind::MemoryLimit),
        Ending::Signalled(_) | Ending::Exited(1..) | Ending::Exited(..0) | Ending::Forbidden(_) => {
            Some(Kind::Crash)
        }
        Ending::Exited(0) if run.stdout.is_empty() && !expected.is_empty() => Some(Kind::NoOutput),
        Ending::Exited(_) => match compare(expected, &run.stdout) {
            Verdict::AC => None,
            Verdict::PE => Some(Kind::PresentationError),
            _ => Some(Kind::WrongAnswer),
        },
    }
}

/// The exit column: the code, the signal, or the forbidden call the run was ended on.
pub fn exit_text(ending: Ending) -> String {
    match ending {
        Ending::Exited(code) => code.to_string(),
        Ending::Signalled(signal) => format!("signal {signal}"),
        Ending::Forbidden(refusal) => format!("forbidden: {}", refusal.call),
        Ending::TimedOut
        | Ending::AnswerLate
        | Ending::WallCap
        | Ending::MemoryLimit
        | Ending::OutputLimit
        | Ending::Cut => String::new(),
    }
}

/// The lines of a text without their trailing blanks, without the empty lines at its end.
fn lines(text: &[u8]) -> Vec<&[u8]> {
    let mut lines: Vec<&[u8]> = text
        .split(|&b| b == b'\n')
        .map(|l| {
            let end = l
                .iter()
                .rposition(|&b| !matches!(b, b' ' | b'\t' | b'\r'))
                .map_or(0, |i| i + 1);
            &l[..end]
        })
        .collect();
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    lines
}

/// Every verdict of the games is one line: the non-blank lines of an output, one per case.
fn verdict_lines(text: &[u8]) -> Vec<&[u8]> {
    lines(text).into_iter().filter(|l| !l.is_empty()).collect()
}

/// Whether `run`'s output has the shape of an answer to `cases` cases, right or wrong: the
/// program exited normally and wrote one verdict line per case, each in the game's output
/// grammar ([`Forms::is_verdict`](crate::game::Forms::is_verdict), blanks normalised).
pub fn answers_in_shape<G: Auditable>(run: &Run, cases: usize) -> bool {
    if run.ending != Ending::Exited(0) {
        return false;
    }
    let lines = verdict_lines(&run.stdout);
    lines.len() == cases
        && lines.iter().all(|line| {
            let text = String::from_utf8_lossy(line);
            G::is_verdict(&text.split_ascii_whitespace().collect::<Vec<_>>().join(" "))
        })
}

/// How the output differs from the expected one, over the whole output: the first differing
/// line (expected, then what came) and how many lines differ, as in
/// `line 2: X WINS -> TIE GAME; 1 of 3 lines differ`. Empty when the lines agree.
pub fn difference(expected: &str, got: &[u8]) -> String {
    let (want, have) = (lines(expected.as_bytes()), lines(got));
    let total = want.len().max(have.len());
    let differing: Vec<usize> = (0..total).filter(|&i| want.get(i) != have.get(i)).collect();
    let Some(&first) = differing.first() else {
        return String::new();
    };
    let show = |line: Option<&&[u8]>| match line {
        None => "(no line)".to_string(),
        Some(&[]) => "(empty line)".to_string(),
        Some(l) => escape(l, 40),
    };
    format!(
        "line {}: {} -> {}; {} of {total} line{} differ{}",
        first + 1,
        show(want.get(first)),
        show(have.get(first)),
        differing.len(),
        if total == 1 { "" } else { "s" },
        if differing.len() == 1 { "s" } else { "" },
    )
}

/// In a run of several cases, which ones the program got wrong, when its output says: the run
/// ended normally and wrote one verdict line per case; the indices of the cases whose line is
/// not the expected verdict. `None` when the output cannot be split by case.
pub fn wrong_cases(tried: &Tried, verdicts: &[String]) -> Option<Vec<usize>> {
    if !matches!(tried.run.ending, Ending::Exited(0)) {
        return None;
    }
    let got = verdict_lines(&tried.run.stdout);
    (got.len() == verdicts.len()).then(|| {
        (0..verdicts.len())
            .filter(|&i| got[i] != verdicts[i].as_bytes())
            .collect()
    })
}

/// In a run of several cases that failed, the case it most likely failed on: the first whose
/// verdict line is missing or wrong (a crash or a timeout after the verdicts of the cases
/// before it).
pub fn first_unanswered(tried: &Tried, verdicts: &[String]) -> usize {
    let got = verdict_lines(&tried.run.stdout);
    (0..verdicts.len())
        .find(|&i| got.get(i).is_none_or(|l| *l != verdicts[i].as_bytes()))
        .unwrap_or(0)
}

/// The engine's output for `input` of game `G` under `rules`, and each case's verdict; `None`
/// when the engine does not judge it.
pub fn judged<G: Auditable>(input: &[u8], rules: G::Options) -> Option<(String, Vec<String>)> {
    let judged = G::judge(Engine::Fast, &mut &input[..], rules).ok()?;
    let verdicts = judged.iter().map(|j| j.verdict()).collect();
    Some((render::<G>(&judged), verdicts))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(ending: Ending, stdout: &[u8]) -> Run {
        Run::ended(ending, stdout)
    }

    #[test]
    fn the_difference_covers_the_whole_output() {
        assert_eq!(difference("X WINS\n", b"X WINS\n"), "");
        assert_eq!(
            difference("TIE GAME\n", b"TIE GAME\nX WINS\n"),
            "line 2: (no line) -> X WINS; 1 of 2 lines differs"
        );
        assert_eq!(
            difference("X WINS\n\nO WINS\n", b"TIE GAME\n\nTIE GAME\n"),
            "line 1: X WINS -> TIE GAME; 2 of 3 lines differ"
        );
        assert_eq!(
            difference("first\n", b""),
            "line 1: first -> (no line); 1 of 1 line differs"
        );
    }

    #[test]
    fn the_shape_of_an_answer_is_one_verdict_line_per_case_in_the_grammar() {
        use crate::pousse::Pousse;
        let shaped =
            |ending, out: &[u8], cases| answers_in_shape::<Pousse>(&run(ending, out), cases);
        // Right or wrong, blank lines and blanks aside: the shape of two answers.
        assert!(shaped(Ending::Exited(0), b"TIE GAME\n\nTIE GAME\n", 2));
        assert!(shaped(Ending::Exited(0), b" X  WINS \r\nO WINS", 2));
        // One answer for two cases, three for two, a line outside the grammar, a crash.
        assert!(!shaped(Ending::Exited(0), b"TIE GAME\n", 2));
        assert!(!shaped(Ending::Exited(0), b"X WINS\nX WINS\nX WINS\n", 2));
        assert!(!shaped(Ending::Exited(0), b"X WINS\nmaybe\n", 2));
        assert!(!shaped(Ending::Exited(0), b"x wins\nX WINS\n", 2));
        assert!(!shaped(Ending::Signalled(11), b"X WINS\nX WINS\n", 2));
        assert!(!shaped(Ending::Exited(1), b"", 1));
    }

    #[test]
    fn cases_are_told_apart_by_their_verdict_lines() {
        let verdicts = ["X WINS".to_string(), "TIE GAME".into(), "O WINS".into()];
        let tried = Tried::new(
            run(Ending::Exited(0), b"X WINS\n\nX WINS\n\nO WINS\n"),
            "X WINS\n\nTIE GAME\n\nO WINS\n".into(),
        );
        assert_eq!(tried.kind, Some(Kind::WrongAnswer));
        assert_eq!(wrong_cases(&tried, &verdicts), Some(vec![1]));
        assert_eq!(first_unanswered(&tried, &verdicts), 1);
        // A crash after the first verdict: the second case is the suspect.
        let crashed = Tried::new(run(Ending::Signalled(11), b"X WINS\n"), String::new());
        assert_eq!(wrong_cases(&crashed, &verdicts), None);
        assert_eq!(first_unanswered(&crashed, &verdicts), 1);
        // Too few lines: no attribution.
        let short = Tried::new(run(Ending::Exited(0), b"X WINS\n"), "X WINS\n".into());
        assert_eq!(wrong_cases(&short, &verdicts), None);
    }
}
