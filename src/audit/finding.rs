//! A program's findings: each one a failure narrowed, run again, shrunk and confirmed
//! ([`Kept`]), kept apart by signature ([`Found`]), with what stands behind it ([`Evidence`]).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::outcome::{difference, Tried};
use super::program::Ending;
use super::{Kind, Source};
use crate::harness::findings::{signature, Findings};

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
pub struct Reproduction {
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

/// What a reproduction says of a failure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Came {
    /// It failed every time it was run again.
    Back,
    /// It passed a run again: flaky.
    NotBack,
    /// The audit's deadline left no time to run it again: it was seen once, and nothing
    /// contradicts it.
    Unchecked,
}

impl Reproduction {
    /// A failure seen `seen` times, not run again yet.
    pub fn seen(seen: usize) -> Reproduction {
        Reproduction {
            runs: seen,
            failed: seen,
            cut: false,
            other_kinds: Vec::new(),
        }
    }

    /// What the runs say.
    pub fn came(&self) -> Came {
        match (self.failed == self.runs, self.runs) {
            (false, _) => Came::NotBack,
            (true, 1) => Came::Unchecked,
            (true, _) => Came::Back,
        }
    }

    /// In words: `reproduced 3/3`, `reproduced 1/3`, or `seen once; --time ran out before it
    /// was run again`.
    pub fn text(&self) -> String {
        if self.came() == Came::Unchecked {
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
    pub reruns: Reproduction,
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

/// A finding ready to report.
#[derive(Debug, Clone)]
pub struct Kept {
    /// Its kind as reported.
    pub kind: Kind,
    /// The kind its failure was first seen as (differs for `flaky` and `engine-disputed`).
    pub seen: Kind,
    /// Where its case comes from.
    pub source: Source,
    /// The shape of its case (none for a failure of a whole run).
    pub shape: Option<String>,
    /// Its case alone, in the game's single-case form.
    pub case: Vec<u8>,
    /// Its input, in the form the program was run in.
    pub input: Vec<u8>,
    /// The run on it.
    pub tried: Tried,
    /// What stands behind it.
    pub evidence: Evidence,
    /// Shrinking steps taken.
    pub shrink_steps: usize,
    /// Whether it fails only with the other cases of its run.
    pub batch_only: bool,
    /// Where its case lies outside the contest's limits: what they allow, what it has.
    pub outside: Option<(String, String)>,
    /// The case's size as the game counts it (`12 moves`, `16 squares`), when known.
    pub size: Option<String>,
    /// More for the detail column.
    pub notes: Vec<String>,
}

impl Kept {
    /// The finding's signature: its kind, how the whole output differs (for answers) or the
    /// exit (for crashes), and the shape of its case.
    pub fn signature(&self) -> String {
        let answer = match self.kind {
            Kind::WrongAnswer | Kind::PresentationError | Kind::EngineDisputed => {
                difference(&self.tried.expected, &self.tried.run.stdout)
            }
            _ => String::new(),
        };
        let exit = crash_detail(self.seen, self.tried.run.ending);
        let seen = if self.kind == Kind::Flaky {
            format!("first seen as {}", self.seen)
        } else {
            String::new()
        };
        let shape = self.shape.clone().unwrap_or_default();
        signature(self.kind.as_str(), &[&seen, &answer, &exit, &shape])
    }
}

/// The exit code or signal of a crash, or the forbidden call it was ended on, for signatures
/// and the detail column.
pub fn crash_detail(kind: Kind, ending: Ending) -> String {
    match ending {
        Ending::Exited(code) if kind == Kind::Crash => format!("exit {code}"),
        Ending::Signalled(signal) => format!("signal {signal}"),
        Ending::Forbidden(refusal) => format!("forbidden: {}", refusal.call),
        _ => String::new(),
    }
}

/// The key that tells failures apart before shrinking: the kind and how the output differs.
pub fn key(kind: Kind, tried: &Tried) -> String {
    match kind {
        k if k.about_the_answer() => signature(
            kind.as_str(),
            &[&difference(&tried.expected, &tried.run.stdout)],
        ),
        _ => signature(kind.as_str(), &[&crash_detail(kind, tried.run.ending)]),
    }
}

/// One program's findings: one per signature (at most a maximum), the failing cases counted
/// per kind.
#[derive(Debug)]
pub struct Found {
    /// The findings kept, first found first, with how many failures each stands for.
    pub findings: Findings<Kept>,
    /// The signature each pre-shrink key was kept under.
    keys: BTreeMap<String, String>,
    /// Failing cases per kind (every one, not only those kept).
    pub per_kind: BTreeMap<Kind, u64>,
    /// Failing runs not examined for lack of time.
    pub unexamined: u64,
}

impl Found {
    /// No finding yet; at most `max` kept.
    pub fn new(max: usize) -> Found {
        Found {
            findings: Findings::new(max),
            keys: BTreeMap::new(),
            per_kind: BTreeMap::new(),
            unexamined: 0,
        }
    }

    /// Counts a failure of `kind` whose pre-shrink key is `key`: whether it is already known
    /// (then only counted) or there is no room for another finding.
    pub fn counted(&mut self, kind: Kind, key: &str) -> bool {
        *self.per_kind.entry(kind).or_default() += 1;
        if let Some(known) = self.keys.get(key) {
            self.findings.add(known.clone(), || {
                unreachable!("a known signature is only counted")
            });
            return true;
        }
        if self.findings.len() >= self.findings.max() {
            self.findings.dropped += 1;
            return true;
        }
        false
    }

    /// Keeps `kept`, found under pre-shrink `key` (none for a failure that was not counted
    /// by [`counted`](Self::counted)); findings whose shrunk cases coincide are one finding.
    /// Whether it is kept as a new finding.
    pub fn keep(&mut self, key: Option<String>, kept: Kept) -> bool {
        if key.is_none() {
            *self.per_kind.entry(kept.seen).or_default() += 1;
        }
        let same = self
            .findings
            .iter()
            .find(|(_, other, _)| other.kind == kept.kind && other.input == kept.input)
            .map(|(s, _, _)| s.clone());
        let signature = same.unwrap_or_else(|| kept.signature());
        if let Some(key) = key {
            self.keys.insert(key, signature.clone());
        }
        self.findings.add(signature, || kept)
    }

    /// The first finding that proves the program wrong.
    pub fn first_proof(&self) -> Option<&Kept> {
        self.findings
            .iter()
            .map(|(_, kept, _)| kept)
            .find(|kept| kept.kind.proves_wrong())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reproduction_says_whether_the_failure_came_back() {
        let mut again = Reproduction::seen(1);
        assert_eq!(again.came(), Came::Unchecked);
        assert_eq!(
            again.text(),
            "seen once; --time ran out before it was run again"
        );
        again.runs += 2;
        again.failed += 2;
        assert_eq!(
            (again.came(), again.text()),
            (Came::Back, "reproduced 3/3".into())
        );
        again.runs += 1;
        assert_eq!(
            (again.came(), again.text()),
            (Came::NotBack, "reproduced 3/4".into())
        );
        let evidence = Evidence {
            reruns: Reproduction::seen(3),
            reference: Some(Confirmation::ByReference),
        };
        assert_eq!(evidence.text(), "confirmed-by-reference");
    }
}
