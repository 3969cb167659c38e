//! Strengthening the data: the programs' shrunk findings, written in the problem's input form,
//! are candidate data cases ([`candidates`]); a candidate is kept only when no program that
//! must be accepted fails it ([`screen`], [`ProgramRecord::must_pass`]); then greedy set cover
//! picks the fewest that reject every wrong program the data accepts ([`cover`],
//! [`ProgramRecord::to_reject`]); the data's scores before and after ([`crate::audit::reports::audited::scores_of`]).
//!
//! [`screen`] and [`cover`] work on [`Trial`]s: each candidate with how each program did on
//! it, by the program's name.
//!
//! Greedy set cover takes, each time, the candidate that fails the most programs still
//! uncovered (the smaller case on a tie): within a factor ln(n) + 1 of the smallest cover,
//! and exact on the small tables of a contest in practice.

use crate::audit::terms::Auditable;
use std::collections::{BTreeMap, HashSet};

use crate::audit::findings::confirm::confirm;
use crate::audit::findings::evidence::{Confirmation, Evidence, Reruns};
use crate::audit::findings::failure::{Failure, Finding, Settled};
use crate::audit::findings::finding::ProgramFindings;
use crate::audit::reports::audited::{OnCase, ProgramRecord, TestRecord};
use crate::audit::terms::outcome::Tried;
use crate::audit::terms::{Kind, Source};
use crate::game::{in_form, render, Constraints, Engine, Form};
use crate::judge_system::validate::validate;

/// How many runs a failing program gets on a candidate: a case that rejects it only some of
/// the time is no data case for it.
pub const CONFIRMING_RUNS: usize = 3;

/// A shrunk finding that may strengthen the data.
#[derive(Debug, Clone)]
pub struct Candidate {
    /// Its input, in the problem's form.
    pub input: Vec<u8>,
    /// The engine's output for it, which the reference confirms.
    pub expected: String,
    /// Whose finding it is: `NAME finding N (KIND)`.
    pub from: String,
    /// The program whose finding it is (its name).
    pub program: String,
    /// Its size as the game counts it (moves, squares).
    pub size: Option<String>,
    /// Its case alone, in the game's single-case form.
    pub case: Vec<u8>,
    /// Where the finding's case comes from.
    pub source: Source,
    /// The shape of its case.
    pub shape: Option<String>,
}

/// The candidates among the findings of `programs` (each a name and its findings): every
/// finding that proves a program wrong, fails alone, lies inside the contest's limits, passes
/// the contest's input validator in the problem's `form`, is not already in the data
/// (`known` inputs, in the form) and whose expected output the reference confirms within
/// `budget`. Also the findings not taken, and why.
pub fn candidates<G: Auditable>(
    programs: &[(&str, &ProgramFindings)],
    known: &[&[u8]],
    form: Form,
    rules: G::Options,
    budget: u64,
) -> (Vec<Candidate>, Vec<String>) {
    let mut seen: HashSet<Vec<u8>> = known.iter().map(|k| k.to_vec()).collect();
    let mut kept = Vec::new();
    let mut not_taken = Vec::new();
    for (name, found) in programs {
        for (number, (_, finding, _)) in found.findings.iter().enumerate() {
            let finding = &finding.stage;
            if !finding.kind.proves_wrong() {
                continue;
            }
            let from = format!("{name} finding {} ({})", number + 1, finding.kind);
            let input = in_form::<G>(form, std::slice::from_ref(&finding.case));
            let why = if finding.batch_only {
                Some("it fails only with the other cases of its run".to_string())
            } else if let Some((allowed, has)) = &finding.outside {
                Some(format!(
                    "outside the contest's limits: they allow {allowed}, the case has {has}"
                ))
            } else if let Err(why) = validate::<G>(&input[..], rules, Constraints::Contest) {
                Some(format!("not a valid contest input: {}", why.0))
            } else if !seen.insert(input.clone()) {
                continue;
            } else {
                match confirm::<G>(&input, b"", rules, budget) {
                    Confirmation::ByReference => None,
                    other => Some(format!("not confirmed: {}", other.text())),
                }
            };
            match why {
                Some(why) => not_taken.push(format!("{from}: {why}")),
                None => {
                    let judged =
                        G::judge(Engine::Fast, &mut &input[..], rules).expect("validated above");
                    kept.push(Candidate {
                        expected: render::<G>(&judged),
                        input,
                        from,
                        program: name.to_string(),
                        size: finding.size.clone(),
                        case: finding.case.clone(),
                        source: finding.source.clone(),
                        shape: finding.shape.clone(),
                    });
                }
            }
        }
    }
    (kept, not_taken)
}

/// A case every program ran: how each did on it, and its size.
pub trait Tested {
    /// How the program named `program` did on it (not run, when it did not run it).
    fn result_of(&self, program: &str) -> OnCase;
    /// Its size in bytes.
    fn size_in_bytes(&self) -> usize;
    /// Whose finding it is: `NAME finding N (KIND)`.
    fn from(&self) -> &str;
}

/// A candidate and how each program did on it, by the program's name.
#[derive(Debug, Clone)]
pub struct Trial {
    pub candidate: Candidate,
    /// How each program did on it; a program it does not name did not run it.
    pub on: BTreeMap<String, OnCase>,
}

impl Tested for Trial {
    fn result_of(&self, program: &str) -> OnCase {
        self.on.get(program).copied().unwrap_or(OnCase::NotRun)
    }

    fn size_in_bytes(&self) -> usize {
        self.candidate.input.len()
    }

    fn from(&self) -> &str {
        &self.candidate.from
    }
}

impl<T: Tested> Tested for &T {
    fn result_of(&self, program: &str) -> OnCase {
        (**self).result_of(program)
    }

    fn size_in_bytes(&self) -> usize {
        (**self).size_in_bytes()
    }

    fn from(&self) -> &str {
        (**self).from()
    }
}

impl Tested for TestRecord {
    fn result_of(&self, program: &str) -> OnCase {
        self.on_named(program)
    }

    fn size_in_bytes(&self) -> usize {
        self.bytes
    }

    fn from(&self) -> &str {
        &self.from
    }
}

/// Why `case` may not be used, if it may not: a program of `programs` that must be accepted
/// ([`ProgramRecord::must_pass`]) failed it, or did not run it to its end (each such program
/// named, in the order of `programs`).
pub fn screen(case: &impl Tested, programs: &[&ProgramRecord]) -> Option<String> {
    let names = |wanted: &[OnCase]| {
        programs
            .iter()
            .filter(|p| p.must_pass() && wanted.contains(&case.result_of(&p.name)))
            .map(|p| p.name.as_str())
            .collect::<Vec<_>>()
    };
    let failing = names(&[OnCase::Rejected, OnCase::Sometimes]);
    let unchecked = names(&[OnCase::NotRun]);
    if !failing.is_empty() {
        Some(format!(
            "it rejects {}, which must be accepted",
            failing.join(", ")
        ))
    } else if !unchecked.is_empty() {
        Some(format!(
            "{} did not run it to its end, and must be accepted",
            unchecked.join(", ")
        ))
    } else {
        None
    }
}

/// The strengthening set among `cases`: the cases every program of `programs` that must be
/// accepted passes ([`screen`]), covering ([`cover`]) the programs a strengthening set must
/// reject ([`ProgramRecord::to_reject`]). The cases chosen, in the order chosen; the cases
/// dropped, each `FROM: why`.
pub fn strengthening_set<T: Tested + Copy>(
    cases: impl IntoIterator<Item = T>,
    programs: &[&ProgramRecord],
) -> (Vec<T>, Vec<String>) {
    let mut dropped = Vec::new();
    let usable: Vec<T> = cases
        .into_iter()
        .filter(|case| match screen(case, programs) {
            Some(why) => {
                dropped.push(format!("{}: {why}", case.from()));
                false
            }
            None => true,
        })
        .collect();
    let targets: Vec<&str> = programs
        .iter()
        .filter(|p| p.to_reject())
        .map(|p| p.name.as_str())
        .collect();
    let chosen = cover(&usable, &targets).0.into_iter().copied().collect();
    (chosen, dropped)
}

/// Greedy set cover: of the `usable` cases, those that together reject every program of
/// `targets` (by name) any of them rejects, picked one by one, each time the one rejecting
/// the most programs still uncovered (on a tie the smaller, then the earlier). The chosen
/// cases, and the targets none of them rejects.
pub fn cover<'t, 'p, T: Tested>(
    usable: &'t [T],
    targets: &[&'p str],
) -> (Vec<&'t T>, Vec<&'p str>) {
    let rejects = |c: usize, p: &str| usable[c].result_of(p) == OnCase::Rejected;
    let mut uncovered: Vec<&str> = targets.to_vec();
    let mut chosen: Vec<usize> = Vec::new();
    loop {
        let best = (0..usable.len())
            .filter(|c| !chosen.contains(c))
            .map(|c| (uncovered.iter().filter(|p| rejects(c, p)).count(), c))
            .filter(|&(n, _)| n > 0)
            .max_by(|a, b| {
                let size = |c: usize| usable[c].size_in_bytes();
                a.0.cmp(&b.0)
                    .then(size(b.1).cmp(&size(a.1)))
                    .then(b.1.cmp(&a.1))
            });
        let Some((_, c)) = best else { break };
        uncovered.retain(|p| !rejects(c, p));
        chosen.push(c);
    }
    (chosen.into_iter().map(|c| &usable[c]).collect(), uncovered)
}

/// Whether failing a candidate with `kind` on every run proves a program wrong: a wrong
/// answer (the candidate's is confirmed by the reference) or a crash; not a resource limit,
/// which a slow but right program may meet on a case chosen for another.
pub fn proves_wrong_on_candidate(kind: Kind) -> bool {
    matches!(
        kind,
        Kind::WrongAnswer | Kind::PresentationError | Kind::NoOutput | Kind::Crash
    )
}

/// The finding `candidate` gives a program that failed it on every run, `tried` the last, each
/// run given `limit` of CPU time.
pub fn finding_of(candidate: &Candidate, tried: Tried, limit: std::time::Duration) -> Finding {
    let kind = tried.kind.expect("a failing run");
    let stage = Settled {
        limit,
        kind,
        source: candidate.source.clone(),
        shape: candidate.shape.clone(),
        case: candidate.case.clone(),
        input: candidate.input.clone(),
        evidence: Evidence {
            reruns: Reruns {
                runs: CONFIRMING_RUNS,
                failed: CONFIRMING_RUNS,
                cut: false,
                other_kinds: Vec::new(),
            },
            reference: kind.about_the_answer().then_some(Confirmation::ByReference),
        },
        shrink_steps: 0,
        batch_only: false,
        outside: None,
        size: candidate.size.clone(),
        notes: vec![format!(
            "the case of {}, a strengthening candidate, failed on every run",
            candidate.from
        )],
    };
    Failure {
        seen: kind,
        tried,
        stage,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::reports::audited::Reached;
    use crate::audit::terms::Class;

    /// Candidate `label` of `size` bytes, and how programs `p0`, `p1`, ... did on it.
    fn trial(label: &str, size: usize, on: &[OnCase]) -> Trial {
        Trial {
            candidate: Candidate {
                input: vec![b'x'; size],
                expected: String::new(),
                from: label.to_string(),
                program: "p0".to_string(),
                size: None,
                case: Vec::new(),
                source: Source::Examples,
                shape: None,
            },
            on: on
                .iter()
                .enumerate()
                .map(|(p, &on)| (format!("p{p}"), on))
                .collect(),
        }
    }

    fn labels(trials: &[&Trial]) -> Vec<String> {
        trials.iter().map(|t| t.candidate.from.clone()).collect()
    }

    #[test]
    fn the_cover_is_greedy_and_small() {
        use OnCase::{Passes as P, Rejected as R, Sometimes as S};
        let trials = [
            trial("covers p0 p1", 10, &[R, R, P, P]),
            trial("covers p1 p2 p3", 10, &[P, R, R, R]),
            trial("covers p0, larger", 50, &[R, P, P, P]),
            trial("covers p0, smaller", 5, &[R, P, P, P]),
            trial("rejects nobody every time", 1, &[S, S, S, S]),
        ];
        let (chosen, uncovered) = cover(&trials, &["p0", "p1", "p2", "p3"]);
        assert_eq!(labels(&chosen), ["covers p1 p2 p3", "covers p0, smaller"]);
        assert!(uncovered.is_empty());
        // A target nothing rejects every time stays uncovered.
        let (chosen, uncovered) = cover(&trials[4..], &["p0"]);
        assert!(chosen.is_empty());
        assert_eq!(uncovered, ["p0"]);
        // A program that is no target does not count, and a name no trial has is not run.
        let (chosen, uncovered) = cover(&trials[..1], &["p1", "q"]);
        assert_eq!(labels(&chosen), ["covers p0 p1"]);
        assert_eq!(uncovered, ["q"]);
    }

    /// A program of `expected` class examined with no finding in 8 cases, whose result on the
    /// existing data is `class` (with the file it fails).
    fn no_finding(expected: Class, class: Class) -> ProgramRecord {
        use crate::audit::cases::data::{DataOutcome, FailedFile, OnData};
        use crate::audit::reports::audited::{CasesOutcome, Examined, Finish, FormUsed, Tally};
        let failed = (class != Class::Accepted).then(|| FailedFile {
            name: "003.in".into(),
            position: 2,
            kind: crate::audit::terms::Kind::WrongAnswer,
        });
        ProgramRecord {
            name: format!("{expected}/p"),
            expected: Some(expected),
            command: Some("./p".into()),
            outcome: Reached::Examined(Examined {
                form: FormUsed::Fits {
                    form: crate::game::Form::Multi,
                    why: "it fits".into(),
                },
                on_data: DataOutcome::Ran(OnData {
                    class,
                    failed,
                    slowest: std::time::Duration::ZERO,
                    memory: 0,
                    files: 5,
                }),
                cases: CasesOutcome::Cases(Tally {
                    cases: 8,
                    examining: std::time::Duration::ZERO,
                    finish: Finish::Stopped,
                }),
            }),
            runs: 20,
            findings: Vec::new(),
            failing: std::collections::BTreeMap::new(),
            unexamined: 0,
            beyond_max: 0,
        }
    }

    #[test]
    fn a_program_the_existing_data_rejects_need_not_pass_a_strengthening_case() {
        // With no finding of referee's (a budget that ran few of its cases), a program the
        // data accepts may be right and must pass; one the data rejects is rejected by the
        // judge system already, and may fail a new case too: otherwise how many cases a busy
        // machine ran decides which candidates survive.
        let programs = [
            no_finding(Class::WrongAnswer, Class::Accepted),
            no_finding(Class::WrongAnswer, Class::WrongAnswer),
            no_finding(Class::Accepted, Class::WrongAnswer),
        ];
        let must_pass: Vec<bool> = programs.iter().map(ProgramRecord::must_pass).collect();
        // An accepted program the data rejects is wrong by it already (its own line of the
        // package's verdict): it vetoes no strengthening case.
        assert_eq!(must_pass, [true, false, false]);
        // Of those, only the one nothing expects accepted may be proved wrong by a candidate.
        let unproven: Vec<bool> = programs.iter().map(ProgramRecord::unproven).collect();
        assert_eq!(unproven, [true, false, false]);
        assert!(proves_wrong_on_candidate(Kind::WrongAnswer));
        assert!(proves_wrong_on_candidate(Kind::Crash));
        assert!(!proves_wrong_on_candidate(Kind::Timeout));
        assert!(!proves_wrong_on_candidate(Kind::MemoryLimit));
        assert!(!proves_wrong_on_candidate(Kind::Flaky));
    }

    #[test]
    fn a_candidate_a_keeper_fails_or_did_not_run_is_dropped_and_said() {
        use OnCase::*;
        // p0 and p2 must be accepted; p1 need not.
        let programs: Vec<ProgramRecord> = [
            ("p0", Class::Accepted, Class::Accepted),
            ("p1", Class::WrongAnswer, Class::WrongAnswer),
            ("p2", Class::Accepted, Class::Accepted),
        ]
        .into_iter()
        .map(|(name, expected, class)| ProgramRecord {
            name: name.to_string(),
            ..no_finding(expected, class)
        })
        .collect();
        let programs: Vec<&ProgramRecord> = programs.iter().collect();
        let why = |on: &[OnCase]| screen(&trial("t", 1, on), &programs);
        assert_eq!(why(&[Passes, Rejected, Passes]), None);
        assert_eq!(
            why(&[Sometimes, Rejected, Passes]).as_deref(),
            Some("it rejects p0, which must be accepted")
        );
        assert_eq!(
            why(&[Passes, Rejected, NotRun]).as_deref(),
            Some("p2 did not run it to its end, and must be accepted")
        );
        assert_eq!(
            why(&[Rejected, Passes, Rejected]).as_deref(),
            Some("it rejects p0, p2, which must be accepted")
        );
        // A program the trial does not name did not run it.
        assert_eq!(
            why(&[Passes]).as_deref(),
            Some("p2 did not run it to its end, and must be accepted")
        );
    }
}
