//! Strengthening the data: the programs' shrunk findings, written in the problem's input form,
//! are candidate data cases ([`candidates`]); a candidate is kept only when no program that
//! must be accepted fails it ([`rejects_a_keeper`]); then greedy set cover picks the fewest
//! that reject every wrong program the data accepts ([`cover`]).
//!
//! Greedy set cover takes, each time, the candidate that fails the most programs still
//! uncovered (the smaller case on a tie): within a factor ln(n) + 1 of the smallest cover,
//! and exact on the small tables of a contest in practice.

use std::collections::HashSet;

use super::confirm::confirm;
use super::finding::{Confirmation, Found};
use super::verdict::Scores;
use crate::game::{in_form, render, Constraints, Engine, Form, Game};
use crate::judge_system::validate::validate;

/// What the strengthening stage found.
#[derive(Debug, Clone)]
pub struct Strengthening {
    /// The candidates.
    pub candidates: Vec<Candidate>,
    /// Whether each program fails each candidate, run as a judge system runs a data file
    /// (`[candidate][program]`; `None`: not run, or cut short).
    pub fails: Vec<Vec<Option<bool>>>,
    /// The candidates dropped because a program that must be accepted fails them (or was not
    /// checked on them), and why.
    pub dropped: Vec<(usize, String)>,
    /// The candidates chosen, in the order picked.
    pub chosen: Vec<usize>,
    /// The programs proved wrong that the existing data accepts and no usable candidate fails.
    pub uncovered: Vec<usize>,
    /// Findings not taken as candidates, and why.
    pub not_candidates: Vec<String>,
    /// Whether the data with the chosen cases rejects each program.
    pub rejected_after: Vec<bool>,
    /// The data's scores before and after.
    pub scores: Scores,
}

/// A shrunk finding that may strengthen the data.
#[derive(Debug, Clone)]
pub struct Candidate {
    /// Its input, in the problem's form.
    pub input: Vec<u8>,
    /// The engine's output for it, which the reference confirms.
    pub expected: String,
    /// Whose finding it is: `NAME finding N (KIND)`.
    pub from: String,
    /// Its size as the game counts it (moves, squares).
    pub size: Option<u64>,
}

/// The candidates among the findings of `programs` (each a name and its findings): every
/// finding that proves a program wrong, fails alone, lies inside the contest's limits, passes
/// the contest's input validator in the problem's `form`, is not already in the data
/// (`known` inputs, in the form) and whose expected output the reference confirms within
/// `budget`. Also the findings not taken, and why.
pub fn candidates<G: Game>(
    programs: &[(&str, &Found)],
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
                        size: finding.size,
                    });
                }
            }
        }
    }
    (kept, not_taken)
}

/// The programs among `keepers` (programs that must be accepted) that fail a candidate, given
/// which programs fail it (`fails`, one entry per program).
pub fn rejects_a_keeper(fails: &[bool], keepers: &[bool]) -> Vec<usize> {
    fails
        .iter()
        .zip(keepers)
        .enumerate()
        .filter(|(_, (&fails, &keeper))| fails && keeper)
        .map(|(p, _)| p)
        .collect()
}

/// Greedy set cover: the candidates (rows of `fails`, each a row of programs; `usable`
/// candidates only) that together fail every program of `targets` any of them fails, picked
/// one by one, each time the one failing the most programs still uncovered (on a tie the
/// smaller by `sizes`, then the earlier). The chosen candidates, and the targets no usable
/// candidate fails.
pub fn cover(
    fails: &[Vec<bool>],
    usable: &[bool],
    targets: &[usize],
    sizes: &[usize],
) -> (Vec<usize>, Vec<usize>) {
    let mut uncovered: Vec<usize> = targets.to_vec();
    let mut chosen: Vec<usize> = Vec::new();
    loop {
        let best = (0..fails.len())
            .filter(|&c| usable[c] && !chosen.contains(&c))
            .map(|c| (uncovered.iter().filter(|&&p| fails[c][p]).count(), c))
            .filter(|&(n, _)| n > 0)
            .max_by(|a, b| {
                a.0.cmp(&b.0)
                    .then(sizes[b.1].cmp(&sizes[a.1]))
                    .then(b.1.cmp(&a.1))
            });
        let Some((_, c)) = best else { break };
        uncovered.retain(|&p| !fails[c][p]);
        chosen.push(c);
    }
    (chosen, uncovered)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cover_is_greedy_small_and_skips_unusable_cases() {
        // Programs 0..4; targets 0, 1, 2, 3.
        let fails = vec![
            vec![true, true, false, false],  // 0: covers 0, 1
            vec![false, true, true, true],   // 1: covers 1, 2, 3
            vec![true, false, false, false], // 2: covers 0, larger
            vec![true, false, false, false], // 3: covers 0, smaller
            vec![true, true, true, true],    // 4: covers all, but rejects a keeper
        ];
        let usable = [true, true, true, true, false];
        let sizes = [10, 10, 50, 5, 1];
        let (chosen, uncovered) = cover(&fails, &usable, &[0, 1, 2, 3], &sizes);
        assert_eq!(chosen, [1, 3]);
        assert!(uncovered.is_empty());
        // A target nothing fails stays uncovered.
        let (chosen, uncovered) = cover(&fails[..1], &[true], &[0, 2], &[1]);
        assert_eq!((chosen, uncovered), (vec![0], vec![2]));
    }

    #[test]
    fn a_candidate_failing_a_keeper_is_named() {
        assert_eq!(
            rejects_a_keeper(&[true, true, false, true], &[true, false, true, true]),
            [0, 3]
        );
        assert!(rejects_a_keeper(&[false, true], &[true, false]).is_empty());
    }
}
