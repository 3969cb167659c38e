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

use crate::error::JudgeError;
use crate::game::{Engine, Game, Judged, RuleSet};

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
    pub fn parse(text: &[u8]) -> Result<Regression, String> {
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
            let end = memchr::memchr(b'\n', rest)
                .ok_or_else(|| format!("line {line_no}: no '---' line before the input"))?;
            let line = std::str::from_utf8(&rest[..end])
                .map_err(|_| format!("line {line_no}: the header is not UTF-8"))?;
            at += end + 1;
            let body = line
                .strip_prefix('#')
                .ok_or_else(|| format!("line {line_no}: expected '# key: value' or '---'"))?;
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
                        other => return Err(format!("line {line_no}: unknown key '{other}'")),
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
                _ => return Err(format!("line {line_no}: expected '# key: value'")),
            }
        }
        let game = game.ok_or("no '# game:' line")?;
        let expect = match &expects[..] {
            [] => return Err("no '# expect:' line".into()),
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
    pub fn check<G: Game>(&self) -> Result<(), String> {
        let rules = match self.rules.as_str() {
            "" => G::Options::default(),
            name => G::Options::from_name(name)
                .ok_or_else(|| format!("{} has no rule set '{name}'", G::NAME))?,
        };
        super::cross_examine::<G>(&self.input, rules).map_err(|d| d.to_string())?;
        let engine = G::judge(Engine::Fast, &mut &self.input[..], rules);
        match (&self.expect, engine) {
            (Expectation::Agree, _) => Ok(()),
            (Expectation::Verdicts(want), Ok(js)) => {
                let got: Vec<String> = js.iter().map(Judged::verdict).collect();
                if &got == want {
                    Ok(())
                } else {
                    Err(format!("verdicts {got:?}, expected {want:?}"))
                }
            }
            (Expectation::Rejected { line, column, case }, Err(JudgeError::Input(e)))
                if (e.position.line, e.position.column, e.case) == (*line, *column, *case) =>
            {
                Ok(())
            }
            (want, got) => Err(format!("expected {want:?}, the engine gives {got:?}")),
        }
    }
}

fn parse_rejection(value: &str) -> Result<Expectation, String> {
    let bad = || format!("'{value}': expected 'rejected at LINE:COL' or '..., case K'");
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
            .contains("expect"));
        assert!(Regression::parse(b"# colour: blue\n---\n")
            .unwrap_err()
            .contains("colour"));
        let r = Regression::parse(b"# game: pousse\n# expect: rejected at 2:x\n---\n");
        assert!(r.unwrap_err().contains("rejected at"));
    }
}
