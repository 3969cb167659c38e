//! The output validator: the engine judges the input, the judges' answer file must agree with
//! it, and the team's output is compared with the engine's as `grade` does ([`crate::util::answer`]).
//!
//! How strictly the output's layout is compared is a [`Layout`], read from the validator's
//! arguments: the flags of the problem package format's default output validator
//! (`case_sensitive`, `space_change_sensitive`) mean what they mean there, and without either
//! flag referee's own rule holds (the lines of [`crate::util::answer`], case-sensitive).
//!
//! Memory is bounded by the input's verdicts, never by the team's output: at most
//! [`longest_output`] bytes of it are read (longer output is a wrong answer, read no further),
//! and the same bound holds for the answer file.

use std::io::{self, Read};
use std::path::Path;

use crate::game::{render, Engine, Game, Judged};
use crate::util::answer::{compare, escape, first_byte_difference, longest_output, Verdict};
use crate::util::error::JudgeError;
use crate::util::text::{read_at_most, Bounded};

/// The longest input read (larger ones are a judge error: the input is the judges' own file).
const LARGEST_INPUT: u64 = 16_000_000_000;

/// How white space is compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Whitespace {
    /// The same lines, blanks at the end of a line and one final newline aside; the same
    /// tokens laid out otherwise are a presentation error.
    Lines,
    /// The same tokens, however laid out (the default output validator without
    /// `space_change_sensitive`).
    Tokens,
    /// The same bytes (`space_change_sensitive`): any change of white space, a final newline
    /// included, is a presentation error.
    Exact,
}

/// How strictly the team's output must match the expected one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    /// How white space is compared.
    pub whitespace: Whitespace,
    /// Whether letters must match in case (`X WINS` is not `x wins`).
    pub case_sensitive: bool,
}

impl Layout {
    /// referee's rule: [`Whitespace::Lines`], case-sensitive.
    pub const REFEREE: Layout = Layout {
        whitespace: Whitespace::Lines,
        case_sensitive: true,
    };

    /// Byte for byte: what `case_sensitive space_change_sensitive` ask for.
    pub const EXACT: Layout = Layout {
        whitespace: Whitespace::Exact,
        case_sensitive: true,
    };

    /// The layout a validator's `arguments` ask for: with `case_sensitive` or
    /// `space_change_sensitive` among them, what the default output validator does with those
    /// flags (tokens compared ignoring case and layout unless flagged); with neither,
    /// [`Layout::REFEREE`].
    pub fn from_arguments(arguments: &[String]) -> Layout {
        let has = |flag: &str| arguments.iter().any(|a| a == flag);
        let (case, space) = (has("case_sensitive"), has("space_change_sensitive"));
        if !case && !space {
            return Layout::REFEREE;
        }
        Layout {
            whitespace: if space {
                Whitespace::Exact
            } else {
                Whitespace::Tokens
            },
            case_sensitive: case,
        }
    }

    /// The verdict on `got` when `expected` is right.
    pub fn compare(self, expected: &str, got: &[u8]) -> Verdict {
        let lowered;
        let (expected, got) = if self.case_sensitive {
            (expected, got)
        } else {
            lowered = (expected.to_ascii_lowercase(), got.to_ascii_lowercase());
            (lowered.0.as_str(), &lowered.1[..])
        };
        let by_lines = compare(expected, got);
        match self.whitespace {
            Whitespace::Lines => by_lines,
            Whitespace::Tokens if by_lines <= Verdict::PE => Verdict::AC,
            Whitespace::Tokens => Verdict::WA,
            Whitespace::Exact if got == expected.as_bytes() => Verdict::AC,
            Whitespace::Exact if by_lines <= Verdict::PE => Verdict::PE,
            Whitespace::Exact => Verdict::WA,
        }
    }
}

/// What the checker decides.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// The team's output is right.
    Accepted,
    /// The team's output is wrong (`WA`, `PE` or `NO`), and why: which case, expected and got.
    Rejected {
        /// How it is wrong.
        verdict: Verdict,
        /// Which case, what was expected and what came, the decisive move or reason.
        message: String,
    },
    /// The judges' files are wrong (an invalid input, an answer file that disagrees with the
    /// engine): the team is neither accepted nor rejected.
    JudgeError(String),
}

/// The verdict lines of an output: its lines without surrounding blanks, blank ones left out.
fn verdict_lines(bytes: &[u8]) -> Vec<&[u8]> {
    bytes
        .split(|&b| b == b'\n')
        .map(|l| l.trim_ascii())
        .filter(|l| !l.is_empty())
        .collect()
}

/// Where `got` first differs from the verdicts of `judgements`, in words.
fn first_difference<G: Game>(judgements: &[G::Judgement], got: &[u8]) -> String {
    let lines = verdict_lines(got);
    for (i, j) in judgements.iter().enumerate() {
        let expected = j.verdict();
        match lines.get(i) {
            Some(line) if *line == expected.as_bytes() => {}
            Some(line) => {
                return format!(
                    "case {}: expected {expected:?}, got \"{}\" ({})",
                    i + 1,
                    escape(line, 80),
                    j.explain()
                )
            }
            None => {
                return format!(
                    "case {}: expected {expected:?}, got nothing (the output has {} verdict{} for {} cases)",
                    i + 1,
                    lines.len(),
                    if lines.len() == 1 { "" } else { "s" },
                    judgements.len()
                )
            }
        }
    }
    match lines.get(judgements.len()) {
        Some(extra) => format!(
            "{} verdicts expected; the output goes on with \"{}\"",
            judgements.len(),
            escape(extra, 80)
        ),
        None => "the same verdicts, but not one per line with the expected blank lines".into(),
    }
}

/// Where the layout of `got` first differs from `expected` (for a presentation error).
fn layout_difference(expected: &str, got: &[u8]) -> String {
    let want: Vec<&[u8]> = expected.as_bytes().split(|&b| b == b'\n').collect();
    let have: Vec<&[u8]> = got.split(|&b| b == b'\n').collect();
    for (i, w) in want.iter().enumerate() {
        let h = have.get(i).copied().unwrap_or_default();
        if h.trim_ascii_end() != *w {
            return format!(
                "presentation error: the verdicts are right, but line {} is \"{}\" where \"{}\" is expected",
                i + 1,
                escape(h, 80),
                escape(w, 80)
            );
        }
    }
    "presentation error: the verdicts are right, but the output has extra lines".into()
}

/// Where `got` first differs from `expected` byte for byte (for a presentation error when the
/// layout must be exact).
fn exact_difference(expected: &str, got: &[u8], case_sensitive: bool) -> String {
    match first_byte_difference(expected.as_bytes(), got, case_sensitive) {
        Some(d) => format!(
            "presentation error: the verdicts are right, but at line {}, column {} the output \
             has {} where {} is expected (the white space must be exactly the expected one)",
            d.line, d.column, d.found, d.expected
        ),
        None => "presentation error".into(),
    }
}

/// The engine's judgements of the input file `input`, or why it has none (an invalid input).
fn judge_input<G: Game>(
    input: &Path,
    options: G::Options,
) -> io::Result<Result<Vec<G::Judgement>, NoVerdicts>> {
    let name = input.display().to_string();
    let file = crate::util::guard::open_regular_named(input)?;
    Ok(
        match G::judge(
            Engine::Fast,
            &mut Bounded::new(file, LARGEST_INPUT),
            options,
        ) {
            Ok(j) => Ok(j),
            Err(e @ JudgeError::Input(_)) => Err(NoVerdicts::Invalid(e.located(&name))),
            Err(e) => Err(NoVerdicts::Unjudged(e.located(&name))),
        },
    )
}

/// Why an input file has no verdicts to check against (its error located in it).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NoVerdicts {
    /// It breaks the game's grammar.
    #[error("the input is invalid: {0}")]
    Invalid(String),
    /// It cannot be read or judged.
    #[error("{0}")]
    Unjudged(String),
}

/// How an answer file is not the engine's verdicts (each message follows the name of the
/// answer, as `NAME:LINE:COLUMN: ...` or `NAME: ...`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotTheVerdicts {
    /// The input has none.
    #[error(" {0}")]
    NoVerdicts(#[from] NoVerdicts),
    /// Far longer than the verdicts.
    #[error(" the answer is far longer than the {0} bytes of the engine's verdicts")]
    TooLong(usize),
    /// The first byte that differs, 1-based line and column.
    #[error("{line}:{column}: expected {expected} (the engine's verdicts, byte for byte), found {found}")]
    Differs {
        /// The line, 1-based.
        line: usize,
        /// The byte column, 1-based.
        column: usize,
        /// What the verdicts have there.
        expected: String,
        /// What the answer has.
        found: String,
    },
}

/// Whether `answer` is byte for byte the engine's verdicts on the input file `input` (an answer
/// validator's question): `Err` says where it first differs (`LINE:COLUMN: ...`, 1-based), or
/// that the input has no verdicts.
pub fn check_answer<G: Game>(
    input: &Path,
    answer: impl Read,
    options: G::Options,
) -> io::Result<Result<(), NotTheVerdicts>> {
    let judgements = match judge_input::<G>(input, options)? {
        Ok(j) => j,
        Err(why) => return Ok(Err(why.into())),
    };
    let expected = render::<G>(&judgements);
    let Some(got) = read_at_most(answer, longest_output(&expected))? else {
        return Ok(Err(NotTheVerdicts::TooLong(expected.len())));
    };
    Ok(
        match first_byte_difference(expected.as_bytes(), &got, true) {
            None => Ok(()),
            Some(d) => Err(NotTheVerdicts::Differs {
                line: d.line,
                column: d.column,
                expected: d.expected.to_string(),
                found: d.found.to_string(),
            }),
        },
    )
}

/// Judges `input` (a file of the game's input format) under `options`, checks `answer` against
/// the engine, and decides on the team's output read from `team`, laid out as `layout` asks.
pub fn check<G: Game>(
    input: &Path,
    answer: &Path,
    team: impl Read,
    options: G::Options,
    layout: Layout,
) -> io::Result<Decision> {
    let judgements = match judge_input::<G>(input, options)? {
        Ok(j) => j,
        Err(why) => return Ok(Decision::JudgeError(why.to_string())),
    };
    let expected = render::<G>(&judgements);
    let limit = longest_output(&expected);
    let answer_name = answer.display();
    match read_at_most(crate::util::guard::open_regular_named(answer)?, limit)? {
        None => {
            return Ok(Decision::JudgeError(format!(
                "the answer file {answer_name} is far longer than the engine's output"
            )))
        }
        Some(bytes) => {
            if compare(&expected, &bytes) > Verdict::PE {
                return Ok(Decision::JudgeError(format!(
                    "the answer file {answer_name} disagrees with the engine: {}",
                    first_difference::<G>(&judgements, &bytes)
                        .replace("expected", "the engine says")
                        .replace("got", "the answer file says")
                )));
            }
        }
    }
    let Some(got) = read_at_most(team, limit)? else {
        return Ok(Decision::Rejected {
            verdict: Verdict::WA,
            message: format!(
                "the output is longer than {limit} bytes, far longer than the expected {} (not read further)",
                expected.len()
            ),
        });
    };
    Ok(match layout.compare(&expected, &got) {
        Verdict::AC => Decision::Accepted,
        _ if got.iter().all(u8::is_ascii_whitespace) => Decision::Rejected {
            verdict: Verdict::NO,
            message: format!(
                "no output: {} verdict{} expected",
                judgements.len(),
                if judgements.len() == 1 { "" } else { "s" }
            ),
        },
        Verdict::PE => Decision::Rejected {
            verdict: Verdict::PE,
            message: match layout.whitespace {
                Whitespace::Exact => exact_difference(&expected, &got, layout.case_sensitive),
                _ => layout_difference(&expected, &got),
            },
        },
        verdict => Decision::Rejected {
            verdict,
            message: first_difference::<G>(&judgements, &got),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pousse::{Pousse, Rules};

    /// A directory of its own (tests run in parallel on the same texts) holding `input` and
    /// `answer`, removed when dropped.
    fn files(
        input: &str,
        answer: &str,
    ) -> (tempfile::TempDir, std::path::PathBuf, std::path::PathBuf) {
        let dir = tempfile::Builder::new()
            .prefix("referee-check-")
            .tempdir()
            .unwrap();
        std::fs::write(dir.path().join("in"), input).unwrap();
        std::fs::write(dir.path().join("ans"), answer).unwrap();
        let (i, a) = (dir.path().join("in"), dir.path().join("ans"));
        (dir, i, a)
    }

    fn decide(input: &str, answer: &str, team: &[u8]) -> Decision {
        let (_dir, i, a) = files(input, answer);
        check::<Pousse>(&i, &a, team, Rules::Waterloo, Layout::REFEREE).unwrap()
    }

    const TWO: &str = "2\n\n1\nL1\nQUIT\n\n2\nQUIT\n";

    #[test]
    fn right_wrong_and_badly_laid_out_outputs() {
        assert_eq!(
            decide(TWO, "X WINS\n\nTIE GAME\n", b"X WINS\n\nTIE GAME\n"),
            Decision::Accepted
        );
        assert_eq!(
            decide(TWO, "X WINS\n\nTIE GAME\n", b"X WINS\n\nO WINS\n"),
            Decision::Rejected {
                verdict: Verdict::WA,
                message: "case 2: expected \"TIE GAME\", got \"O WINS\" (QUIT after 0 moves, no decision)".into()
            }
        );
        let Decision::Rejected { verdict, message } =
            decide(TWO, "X WINS\n\nTIE GAME\n", b"X WINS\nTIE GAME\n")
        else {
            panic!()
        };
        assert_eq!(verdict, Verdict::PE);
        assert!(
            message.contains("line 2 is \"TIE GAME\" where \"\" is expected"),
            "{message}"
        );
        assert_eq!(
            decide(TWO, "X WINS\n\nTIE GAME\n", b""),
            Decision::Rejected {
                verdict: Verdict::NO,
                message: "no output: 2 verdicts expected".into()
            }
        );
    }

    /// The default output validator's flags, as the problem package format defines them.
    #[test]
    fn the_default_validators_flags_set_the_layout() {
        let args = |a: &[&str]| {
            Layout::from_arguments(&a.iter().map(|s| s.to_string()).collect::<Vec<_>>())
        };
        assert_eq!(args(&["rules=icfp98"]), Layout::REFEREE);
        assert_eq!(
            args(&["case_sensitive", "space_change_sensitive"]),
            Layout::EXACT
        );
        let expected = "X WINS\n\nTIE GAME\n";
        let verdicts = |layout: Layout| {
            [
                &b"X WINS\n\nTIE GAME\n"[..],
                b"X WINS\n\nTIE GAME",
                b"X WINS \n\nTIE GAME\n",
                b" X WINS\n\nTIE GAME\n",
                b"X WINS\nTIE GAME\n",
                b"X WINS\r\n\r\nTIE GAME\r\n",
                b"x wins\n\ntie game\n",
                b"X WINS\n\nO WINS\n",
            ]
            .map(|got| layout.compare(expected, got).as_str())
        };
        use Verdict::*;
        let names = |v: [Verdict; 8]| v.map(Verdict::as_str);
        assert_eq!(
            verdicts(Layout::REFEREE),
            names([AC, AC, AC, PE, PE, AC, WA, WA])
        );
        assert_eq!(
            verdicts(Layout::EXACT),
            names([AC, PE, PE, PE, PE, PE, WA, WA])
        );
        assert_eq!(
            verdicts(args(&["case_sensitive"])),
            names([AC, AC, AC, AC, AC, AC, WA, WA])
        );
        assert_eq!(
            verdicts(args(&["space_change_sensitive"])),
            names([AC, PE, PE, PE, PE, PE, AC, WA])
        );
        let (_dir, i, a) = files(TWO, expected);
        let Decision::Rejected {
            verdict: PE,
            message,
        } = check::<Pousse>(
            &i,
            &a,
            &b"X WINS\n\nTIE GAME"[..],
            Rules::Waterloo,
            Layout::EXACT,
        )
        .unwrap()
        else {
            panic!()
        };
        assert!(
            message.contains("line 3, column 9 the output has the end where \"\\n\" is expected"),
            "{message}"
        );
    }

    #[test]
    fn judge_errors_never_judge_the_team() {
        let Decision::JudgeError(why) = decide(TWO, "X WINS\n\nO WINS\n", b"X WINS\n\nTIE GAME\n")
        else {
            panic!()
        };
        assert!(why.contains("disagrees with the engine: case 2: the engine says \"TIE GAME\", the answer file says \"O WINS\""), "{why}");
        let Decision::JudgeError(why) = decide("3\nL9\nQUIT\n", "X WINS\n", b"X WINS\n") else {
            panic!()
        };
        assert!(
            why.contains("the input is invalid") && why.contains(":2:"),
            "{why}"
        );
    }

    #[test]
    fn endless_and_binary_outputs_are_wrong_answers_read_only_so_far() {
        let endless = std::io::repeat(b'X').take(1 << 40);
        let (_dir, i, a) = files("1\nL1\nQUIT\n", "X WINS\n");
        let Decision::Rejected { verdict, message } =
            check::<Pousse>(&i, &a, endless, Rules::Waterloo, Layout::REFEREE).unwrap()
        else {
            panic!()
        };
        assert_eq!(verdict, Verdict::WA);
        assert!(message.contains("far longer"), "{message}");
        let Decision::Rejected { message, .. } =
            decide("1\nL1\nQUIT\n", "X WINS\n", b"\x00\xff\x80")
        else {
            panic!()
        };
        assert!(message.contains("got \"\\x00\\xFF\\x80\""), "{message}");
    }
}
