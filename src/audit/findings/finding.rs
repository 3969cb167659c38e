//! A program's findings ([`ProgramFindings`]): each one a failure settled
//! ([`crate::audit::findings::failure::Finding`]), kept apart by signature, the failing cases counted per kind.

use std::collections::BTreeMap;

use crate::audit::findings::failure::Finding;
use crate::audit::terms::Kind;
use crate::harness::signatures::Findings;

/// One program's findings: one per signature (at most a maximum), the failing cases counted
/// per kind.
#[derive(Debug)]
pub struct ProgramFindings {
    /// The findings kept, first found first, with how many failures each stands for.
    pub findings: Findings<Finding>,
    /// The signature each pre-shrink key was kept under.
    keys: BTreeMap<String, String>,
    /// Failing cases per kind (every one, not only those kept).
    pub per_kind: BTreeMap<Kind, u64>,
    /// Failing runs not examined for lack of time.
    pub unexamined: u64,
}

impl ProgramFindings {
    /// No finding yet; at most `max` kept.
    pub fn new(max: usize) -> ProgramFindings {
        ProgramFindings {
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

    /// Keeps `finding`, found under pre-shrink `key` (none for a failure that was not
    /// counted by [`counted`](Self::counted)); findings whose shrunk cases coincide are one
    /// finding. Whether it is kept as a new finding.
    pub fn keep(&mut self, key: Option<String>, finding: Finding) -> bool {
        if key.is_none() {
            *self.per_kind.entry(finding.seen).or_default() += 1;
        }
        let same = self
            .findings
            .iter()
            .find(|(_, other, _)| {
                other.stage.kind == finding.stage.kind && other.stage.input == finding.stage.input
            })
            .map(|(s, _, _)| s.clone());
        let signature = same.unwrap_or_else(|| finding.signature());
        if let Some(key) = key {
            self.keys.insert(key, signature.clone());
        }
        self.findings.add(signature, || finding)
    }

    /// The first finding that proves the program wrong.
    pub fn first_proof(&self) -> Option<&Finding> {
        self.findings
            .iter()
            .map(|(_, finding, _)| finding)
            .find(|finding| finding.stage.kind.proves_wrong())
    }
}
