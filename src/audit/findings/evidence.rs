//! What stands behind a finding ([`Evidence`]): how it came back when run again ([`Reruns`]),
//! and for an answer, the reference's word on the expected output ([`Confirmation`]).

use serde::{Deserialize, Serialize};

use crate::audit::terms::Kind;

/// What the reference says of the expected output of a finding's input.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "reference", content = "why", rename_all = "kebab-case")]
pub enum Confirmation {
    /// The reference gives the engine's output.
    ByReference,
    /// Neither confirmed nor disputed (the reference was not run, or refused the case), and
    /// why; the game's second opinion, where it has one, agrees with the engine.
    Unconfirmed(String),
    /// The reference, or the game's second opinion, does not side with the engine: the
    /// finding is the engine's fault.
    Disputed(String),
}

impl Confirmation {
    /// In words: `confirmed-by-reference`, or why not.
    pub fn text(&self) -> String {
        match self {
            Confirmation::ByReference => "confirmed-by-reference".into(),
            Confirmation::Unconfirmed(why) | Confirmation::Disputed(why) => why.clone(),
        }
    }
}

/// How a failure came back when its input was run again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reruns {
    /// Runs that ended, the first observation included.
    pub runs: usize,
    /// How many of them failed.
    pub failed: usize,
    /// The audit's deadline cut a run again short.
    pub cut: bool,
    /// The other kinds the runs again failed with (a timeout that, with twice the time, ends
    /// in a wrong answer).
    pub other_kinds: Vec<Kind>,
}

impl Reruns {
    /// A failure seen `seen` times, not run again yet.
    pub fn seen(seen: usize) -> Reruns {
        Reruns {
            runs: seen,
            failed: seen,
            cut: false,
            other_kinds: Vec::new(),
        }
    }

    /// Whether it passed a run again: flaky.
    pub fn passed_again(&self) -> bool {
        self.failed < self.runs
    }

    /// Whether the audit's deadline left no time to run it again: it was seen once, and
    /// nothing contradicts it.
    pub fn unchecked(&self) -> bool {
        self.runs == 1 && self.failed == 1
    }

    /// In words: `reproduced 3/3`, `reproduced 1/3`, or `seen once; --time ran out before it
    /// was run again`.
    pub fn text(&self) -> String {
        if self.unchecked() {
            return "seen once; --time ran out before it was run again".into();
        }
        let mut text = format!("reproduced {}/{}", self.failed, self.runs);
        if !self.other_kinds.is_empty() {
            let kinds: Vec<&str> = self.other_kinds.iter().map(|k| k.as_str()).collect();
            text.push_str(&format!(" (again as {})", kinds.join(", ")));
        }
        if self.cut {
            text.push_str(", then --time ran out");
        }
        text
    }
}

/// What stands behind a finding: how it came back when run again, and for an answer, what
/// the reference says of the expected output.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Evidence {
    /// The runs again.
    pub reruns: Reruns,
    /// The reference's word on the expected output (wrong answers and presentation errors).
    pub reference: Option<Confirmation>,
}

impl Evidence {
    /// The `confirmed` column: the reference's word for an answer, else the reproduction.
    pub fn text(&self) -> String {
        match &self.reference {
            Some(confirmation) => confirmation.text(),
            None => self.reruns.text(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reruns_say_whether_the_failure_came_back() {
        let mut again = Reruns::seen(1);
        assert!(again.unchecked() && !again.passed_again());
        assert_eq!(
            again.text(),
            "seen once; --time ran out before it was run again"
        );
        again.runs += 2;
        again.failed += 2;
        assert_eq!(
            (again.unchecked(), again.passed_again(), again.text()),
            (false, false, "reproduced 3/3".into())
        );
        again.runs += 1;
        assert_eq!(
            (again.unchecked(), again.passed_again(), again.text()),
            (false, true, "reproduced 3/4".into())
        );
        let evidence = Evidence {
            reruns: Reruns::seen(3),
            reference: Some(Confirmation::ByReference),
        };
        assert_eq!(evidence.text(), "confirmed-by-reference");
    }
}
