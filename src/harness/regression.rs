//! Regression vectors: every divergence or crash ever found, kept as one readable file that is
//! replayed by a plain `cargo test` (`tests/regressions.rs`), whatever generator found it.
//!
//! A file is a header of `# key: value` lines, a line `---`, then the input, byte for byte, to
//! the end of the file:
//!
//! ```text
//! # game: pousse
//! # rules: icfp98
//! # expect: engine and reference agree
//! # why: the root cause, in words; a long explanation
//! #   continues on lines that start with "#" and a space
//! ---
//! 2
//! R1
//! QUIT
//! ```
//!
//! Keys: `game` (required), `rules` (a rule set name, when the game has them), `expect` (one or
//! more; required), `why` (the root cause, kept with the case). An `expect` line is one of:
//! - `engine and reference agree`: the cross-examination finds no difference;
//! - a verdict line (`X WINS`): one per case, in order; both implementations agree and the
//!   engine gives exactly these verdicts;
//! - `rejected at LINE:COL` or `rejected at LINE:COL, case K`: both parsers reject the input
//!   there (1-based line, 1-based byte column).

use crate::game::Referenced;
use crate::game::{Engine, Game, Judged, RuleSet};
use crate::util::error::JudgeError;

/// What must hold for a regression's input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expectation {
    /// Engine and reference agree.
    Agree,
    /// They agree, and these are the verdicts.
    Verdicts(Vec<String>),
    /// Both reject the input at this 1-based line and column (and case, in multi-case input).
    Rejected {
        /// Line.
        line: u64,
        /// Byte column.
        column: u64,
        /// Case.
        case: Option<u64>,
    },
}

/// One regression vector.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Regression {
    /// The game's command-line name.
    pub game: String,
    /// The rule set's name (empty for the default).
    pub rules: String,
    /// What must hold.
    pub expect: Expectation,
    /// The root cause.
    pub why: String,
    /// The input.
    pub input: Vec<u8>,
}

const SEPARATOR: &[u8] = b"---\n";

impl Regression {
    /// Reads a regression file's content.
    pub fn parse(text: &[u8]) -> Result<Regression, VectorError> {
        let mut at = 0;
        let mut line_no = 0;
        let (mut game, mut rules, mut why) = (None, String::new(), String::new());
        let mut expects: Vec<String> = Vec::new();
        let mut last_key = "";
        loop {
            line_no += 1;
            let rest = &text[at..];
            if rest.starts_with(SEPARATOR) {
                at += SEPARATOR.len();
                break;
            }
            let end =
                memchr::memchr(b'\n', rest).ok_or(VectorError::NoSeparator { line: line_no })?;
            let line = std::str::from_utf8(&rest[..end])
                .map_err(|_| VectorError::NotUtf8 { line: line_no })?;
            at += end + 1;
            let body = line
                .strip_prefix('#')
                .ok_or(VectorError::NotAHeaderLine { line: line_no })?;
            match body.trim().split_once(": ") {
                Some((key, value))
                    if body.starts_with(' ') && !body.starts_with("  ") && !key.contains(' ') =>
                {
                    let value = value.trim().to_string();
                    match key {
                        "game" => game = Some(value),
                        "rules" => rules = value,
                        "expect" => expects.push(value),
                        "why" => why = value,
                        other => {
                            return Err(VectorError::UnknownKey {
                                line: line_no,
                                key: other.to_string(),
                            })
                        }
                    }
                    last_key = match key {
                        "why" => "why",
                        _ => "",
                    };
                }
                _ if last_key == "why" && !body.trim().is_empty() => {
                    why.push(' ');
                    why.push_str(body.trim());
                }
                _ => return Err(VectorError::NotKeyValue { line: line_no }),
            }
        }
        let game = game.ok_or(VectorError::NoGame)?;
        let expect = match &expects[..] {
            [] => return Err(VectorError::NoExpect),
            [one] if one == "engine and reference agree" => Expectation::Agree,
            [one] if one.starts_with("rejected at ") => parse_rejection(one)?,
            verdicts => Expectation::Verdicts(verdicts.to_vec()),
        };
        Ok(Regression {
            game,
            rules,
            expect,
            why,
            input: text[at..].to_vec(),
        })
    }

    /// The file's content.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut s = format!("# game: {}\n", self.game);
        if !self.rules.is_empty() {
            s.push_str(&format!("# rules: {}\n", self.rules));
        }
        match &self.expect {
            Expectation::Agree => s.push_str("# expect: engine and reference agree\n"),
            Expectation::Verdicts(vs) => {
                for v in vs {
                    s.push_str(&format!("# expect: {v}\n"));
                }
            }
            Expectation::Rejected { line, column, case } => {
                s.push_str(&format!("# expect: rejected at {line}:{column}"));
                if let Some(k) = case {
                    s.push_str(&format!(", case {k}"));
                }
                s.push('\n');
            }
        }
        if !self.why.is_empty() {
            s.push_str(&wrap("# why: ", &self.why));
        }
        let mut bytes = s.into_bytes();
        bytes.extend_from_slice(SEPARATOR);
        bytes.extend_from_slice(&self.input);
        bytes
    }

    /// Checks the regression as game `G`: `Err` says what no longer holds.
    pub fn check<G: Game + Referenced>(&self) -> Result<(), Replayed> {
        let rules = match self.rules.as_str() {
            "" => G::Options::default(),
            name => G::Options::from_name(name).ok_or_else(|| Replayed::NoRuleSet {
                game: G::NAME,
                name: name.to_string(),
            })?,
        };
        super::cross_examine::<G>(&self.input, rules).map_err(Replayed::Diverges)?;
        let engine = G::judge(Engine::Fast, &mut &self.input[..], rules);
        match (&self.expect, engine) {
            (Expectation::Agree, _) => Ok(()),
            (Expectation::Verdicts(want), Ok(js)) => {
                let got: Vec<String> = js.iter().map(Judged::verdict).collect();
                if &got == want {
                    Ok(())
                } else {
                    Err(Replayed::Verdicts {
                        got,
                        want: want.clone(),
                    })
                }
            }
            (Expectation::Rejected { line, column, case }, Err(JudgeError::Input(e)))
                if (e.position.line, e.position.column, e.case) == (*line, *column, *case) =>
            {
                Ok(())
            }
            (want, got) => Err(Replayed::Otherwise {
                want: format!("{want:?}"),
                got: format!("{got:?}"),
            }),
        }
    }
}

/// A regression file that is not one: where (1-based lines of its header), and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VectorError {
    /// The header does not end.
    #[error("line {line}: no '---' line before the input")]
    NoSeparator {
        /// The line, 1-based.
        line: usize,
    },
    /// A header line that is not UTF-8.
    #[error("line {line}: the header is not UTF-8")]
    NotUtf8 {
        /// The line, 1-based.
        line: usize,
    },
    /// A line that is neither a header line nor the separator.
    #[error("line {line}: expected '# key: value' or '---'")]
    NotAHeaderLine {
        /// The line, 1-based.
        line: usize,
    },
    /// A key the format does not have.
    #[error("line {line}: unknown key '{key}'")]
    UnknownKey {
        /// The line, 1-based.
        line: usize,
        /// The key.
        key: String,
    },
    /// A header line that is not `# key: value`.
    #[error("line {line}: expected '# key: value'")]
    NotKeyValue {
        /// The line, 1-based.
        line: usize,
    },
    /// No game named.
    #[error("no '# game:' line")]
    NoGame,
    /// No expectation.
    #[error("no '# expect:' line")]
    NoExpect,
    /// An expected rejection written wrongly.
    #[error("'{value}': expected 'rejected at LINE:COL' or '..., case K'")]
    BadRejection {
        /// The value.
        value: String,
    },
}

/// What no longer holds when a regression is replayed.
#[derive(Debug, thiserror::Error)]
pub enum Replayed {
    /// The regression names a rule set its game does not have.
    #[error("{game} has no rule set '{name}'")]
    NoRuleSet {
        /// The game.
        game: &'static str,
        /// The rule set.
        name: String,
    },
    /// The engine and the reference disagree.
    #[error("{0}")]
    Diverges(super::Divergence),
    /// Other verdicts than expected.
    #[error("verdicts {got:?}, expected {want:?}")]
    Verdicts {
        /// The engine's.
        got: Vec<String>,
        /// The regression's.
        want: Vec<String>,
    },
    /// Another outcome than expected.
    #[error("expected {want}, the engine gives {got}")]
    Otherwise {
        /// The expectation.
        want: String,
        /// The engine's outcome.
        got: String,
    },
}

fn parse_rejection(value: &str) -> Result<Expectation, VectorError> {
    let bad = || VectorError::BadRejection {
        value: value.to_string(),
    };
    let rest = value.strip_prefix("rejected at ").ok_or_else(bad)?;
    let (position, case) = match rest.split_once(", case ") {
        Some((p, k)) => (p, Some(k.parse().map_err(|_| bad())?)),
        None => (rest, None),
    };
    let (line, column) = position.split_once(':').ok_or_else(bad)?;
    Ok(Expectation::Rejected {
        line: line.parse().map_err(|_| bad())?,
        column: column.parse().map_err(|_| bad())?,
        case,
    })
}

/// `text` after `first`, wrapped at about 96 columns into `#   ` continuation lines.
fn wrap(first: &str, text: &str) -> String {
    let mut out = String::from(first);
    let mut width = first.len();
    for (i, word) in text.split_whitespace().enumerate() {
        if i > 0 && width + 1 + word.len() > 96 {
            out.push_str("\n#   ");
            width = 4;
        } else if i > 0 {
            out.push(' ');
            width += 1;
        }
        out.push_str(word);
        width += word.len();
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_round_trip() {
        let r = Regression {
            game: "pousse".into(),
            rules: "icfp98".into(),
            expect: Expectation::Verdicts(vec!["X WINS".into(), "TIE GAME".into()]),
            why: "a long explanation ".repeat(12).trim().to_string(),
            input: b"2\n\n1\nL1\nQUIT\n\n1\nQUIT\n\xff---\n".to_vec(),
        };
        let bytes = r.to_bytes();
        assert_eq!(Regression::parse(&bytes), Ok(r));
        let rejected = Regression {
            game: "somegame".into(),
            rules: String::new(),
            expect: Expectation::Rejected {
                line: 3,
                column: 2,
                case: Some(2),
            },
            why: String::new(),
            input: Vec::new(),
        };
        assert_eq!(Regression::parse(&rejected.to_bytes()), Ok(rejected));
    }

    #[test]
    fn malformed_headers_are_named() {
        assert!(Regression::parse(b"# game: pousse\n2\n").is_err());
        assert!(Regression::parse(b"# game: pousse\n---\n")
            .unwrap_err()
            .to_string()
            .contains("expect"));
        assert!(Regression::parse(b"# colour: blue\n---\n")
            .unwrap_err()
            .to_string()
            .contains("colour"));
        let r = Regression::parse(b"# game: pousse\n# expect: rejected at 2:x\n---\n");
        assert!(r.unwrap_err().to_string().contains("rejected at"));
    }
}
