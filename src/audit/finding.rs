//! A program's findings: each one a failure narrowed, reproduced, shrunk and confirmed
//! ([`Kept`]), kept apart by signature ([`Found`]).

use std::collections::BTreeMap;

use super::outcome::{difference, Tried};
use super::program::Ending;
use super::{Kind, Source};
use crate::harness::findings::{signature, Findings};

/// What the reference says of the expected output of a finding's input.
#[derive(Debug, Clone, PartialEq, Eq)]
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
    /// The `confirmed` column.
    pub fn text(&self) -> String {
        match self {
            Confirmation::ByReference => "confirmed-by-reference".into(),
            Confirmation::Unconfirmed(why) | Confirmation::Disputed(why) => why.clone(),
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
    /// What the reference says (answers), or how it was reproduced (the other kinds).
    pub confirmed: String,
    /// Shrinking steps taken.
    pub shrink_steps: usize,
    /// Whether it fails only with the other cases of its run.
    pub batch_only: bool,
    /// Where its case lies outside the contest's limits.
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

/// The exit code or signal of a crash, for signatures and the detail column.
pub fn crash_detail(kind: Kind, ending: Ending) -> String {
    match ending {
        Ending::Exited(code) if kind == Kind::Crash => format!("exit {code}"),
        Ending::Signalled(signal) => format!("signal {signal}"),
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
        if self.findings.len() >= self.findings_room() {
            self.findings.dropped += 1;
            return true;
        }
        false
    }

    fn findings_room(&self) -> usize {
        self.findings.max()
    }

    /// Keeps `kept`, found under pre-shrink `key`; findings whose shrunk cases coincide are
    /// one finding.
    pub fn keep(&mut self, key: String, kept: Kept) {
        let same = self
            .findings
            .iter()
            .find(|(_, other, _)| other.kind == kept.kind && other.input == kept.input)
            .map(|(s, _, _)| s.clone());
        let signature = same.unwrap_or_else(|| kept.signature());
        self.keys.insert(key, signature.clone());
        self.findings.add(signature, || kept);
    }

    /// The first finding that proves the program wrong.
    pub fn first_proof(&self) -> Option<&Kept> {
        self.findings
            .iter()
            .map(|(_, kept, _)| kept)
            .find(|kept| kept.kind.proves_wrong())
    }
}
