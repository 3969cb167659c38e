//! Strengthening the data: the programs' shrunk findings, written in the problem's input form,
//! are candidate data cases ([`candidates`]); a candidate is kept only when no program that
//! must be accepted fails it ([`screen`], [`ProgramRecord::must_pass`]); then greedy set cover
//! picks the fewest that reject every wrong program the data accepts ([`cover`],
//! [`ProgramRecord::to_reject`]); the data's scores before and after ([`scores_of`]).
//!
//! [`screen`] and [`cover`] work on a table of how each program does on each candidate: a row
//! per candidate, a column per program in the order of the programs' records.
//!
//! Greedy set cover takes, each time, the candidate that fails the most programs still
//! uncovered (the smaller case on a tie): within a factor ln(n) + 1 of the smallest cover,
//! and exact on the small tables of a contest in practice.

use crate::audit::Auditable;
use std::collections::HashSet;

use super::audited::{AuditReport, OnCase, ProgramRecord};
use super::confirm::confirm;
use super::evidence::{Confirmation, Evidence, Reruns};
use super::failure::{Failure, Finding, Settled};
use super::finding::ProgramFindings;
use super::outcome::Tried;
use super::verdict::{scores, Scored, Scores};
use super::{Kind, Source};
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

/// Which candidates may be used: those every program that must be accepted (`keepers`, a flag
/// per column) passes; the others, and why (the keepers named by `name`).
pub fn screen(
    fails: &[Vec<OnCase>],
    keepers: &[bool],
    name: impl Fn(usize) -> String,
) -> (Vec<bool>, Vec<(usize, String)>) {
    let mut dropped = Vec::new();
    let usable = fails
        .iter()
        .enumerate()
        .map(|(c, row)| {
            let names = |wanted: &[OnCase]| {
                row.iter()
                    .zip(keepers)
                    .enumerate()
                    .filter(|(_, (on, &keeper))| keeper && wanted.contains(on))
                    .map(|(p, _)| name(p))
                    .collect::<Vec<_>>()
            };
            let failing = names(&[OnCase::Rejected, OnCase::Sometimes]);
            let unchecked = names(&[OnCase::NotRun]);
            let why = if !failing.is_empty() {
                format!("it rejects {}, which must be accepted", failing.join(", "))
            } else if !unchecked.is_empty() {
                format!(
                    "{} did not run it to its end, and must be accepted",
                    unchecked.join(", ")
                )
            } else {
                return true;
            };
            dropped.push((c, why));
            false
        })
        .collect();
    (usable, dropped)
}

/// Greedy set cover: the candidates (rows of `fails`, each a row of programs; `usable`
/// candidates only) that together reject every program of `targets` any of them rejects,
/// picked one by one, each time the one rejecting the most programs still uncovered (on a tie
/// the smaller by `sizes`, then the earlier). The chosen candidates, and the targets no usable
/// candidate rejects.
pub fn cover(
    fails: &[Vec<OnCase>],
    usable: &[bool],
    targets: &[usize],
    sizes: &[usize],
) -> (Vec<usize>, Vec<usize>) {
    let rejects = |c: usize, p: usize| fails[c][p] == OnCase::Rejected;
    let mut uncovered: Vec<usize> = targets.to_vec();
    let mut chosen: Vec<usize> = Vec::new();
    loop {
        let best = (0..fails.len())
            .filter(|&c| usable[c] && !chosen.contains(&c))
            .map(|c| (uncovered.iter().filter(|&&p| rejects(c, p)).count(), c))
            .filter(|&(n, _)| n > 0)
            .max_by(|a, b| {
                a.0.cmp(&b.0)
                    .then(sizes[b.1].cmp(&sizes[a.1]))
                    .then(b.1.cmp(&a.1))
            });
        let Some((_, c)) = best else { break };
        uncovered.retain(|&p| !rejects(c, p));
        chosen.push(c);
    }
    (chosen, uncovered)
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

/// The finding `candidate` gives a program that failed it on every run, `tried` the last.
pub fn finding_of(candidate: &Candidate, tried: Tried) -> Finding {
    let kind = tried.kind.expect("a failing run");
    let stage = Settled {
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

/// The columns of the programs a strengthening set must reject ([`ProgramRecord::to_reject`]).
pub fn to_reject(programs: &[ProgramRecord]) -> Vec<usize> {
    (0..programs.len())
        .filter(|&p| programs[p].to_reject())
        .collect()
}

/// The programs of `report` a strengthening set must reject that none of its strengthening
/// cases rejects.
pub fn uncovered(report: &AuditReport) -> Vec<&ProgramRecord> {
    report
        .programs
        .iter()
        .filter(|p| p.to_reject() && !report.rejected_after(p))
        .collect()
}

/// The data's scores in `report`, before and after its strengthening cases.
pub fn scores_of(report: &AuditReport) -> Scores {
    let scored: Vec<Scored> = report
        .programs
        .iter()
        .map(|program| Scored {
            wrong: program
                .standing()
                .counted_wrong()
                .filter(|_| program.judged_by_data()),
            rejected_before: program.rejected_by_data(),
            rejected_after: report.rejected_after(program),
        })
        .collect();
    scores(&scored)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::audited::Reached;
    use crate::audit::entrants::Class;

    #[test]
    fn the_cover_is_greedy_small_and_skips_unusable_cases() {
        use OnCase::{Passes as P, Rejected as R, Sometimes as S};
        // Programs 0..4; targets 0, 1, 2, 3.
        let fails = vec![
            vec![R, R, P, P], // 0: covers 0, 1
            vec![P, R, R, R], // 1: covers 1, 2, 3
            vec![R, P, P, P], // 2: covers 0, larger
            vec![R, P, P, P], // 3: covers 0, smaller
            vec![R, R, R, R], // 4: covers all, but unusable
            vec![S, S, S, S], // 5: rejects nobody every time
        ];
        let usable = [true, true, true, true, false, true];
        let sizes = [10, 10, 50, 5, 1, 1];
        let (chosen, uncovered) = cover(&fails, &usable, &[0, 1, 2, 3], &sizes);
        assert_eq!(chosen, [1, 3]);
        assert!(uncovered.is_empty());
        // A target nothing rejects every time stays uncovered.
        let (chosen, uncovered) = cover(&fails[5..], &[true], &[0], &[1]);
        assert_eq!((chosen, uncovered), (vec![], vec![0]));
    }

    /// A program of `expected` class examined with no finding in 8 cases, whose result on the
    /// existing data is `class` (with the file it fails).
    fn no_finding(expected: Class, class: Class) -> ProgramRecord {
        use crate::audit::audited::{CasesOutcome, Examined, Finish, FormUsed, Tally};
        use crate::audit::data::{DataOutcome, FailedFile, OnData};
        let failed = (class != Class::Accepted).then(|| FailedFile {
            name: "003.in".into(),
            position: 2,
            kind: crate::audit::Kind::WrongAnswer,
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
        assert_eq!(must_pass, [true, false, true]);
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
        let fails = vec![
            vec![Passes, Rejected, Passes],
            vec![Sometimes, Rejected, Passes],
            vec![Passes, Rejected, NotRun],
            vec![Passes, Passes, Rejected],
        ];
        // Programs 0 and 2 must be accepted.
        let (usable, dropped) = screen(&fails, &[true, false, true], |p| format!("p{p}"));
        assert_eq!(usable, [true, false, false, false]);
        assert_eq!(
            dropped,
            [
                (1, "it rejects p0, which must be accepted".to_string()),
                (
                    2,
                    "p2 did not run it to its end, and must be accepted".to_string()
                ),
                (3, "it rejects p2, which must be accepted".to_string()),
            ]
        );
    }
}
