//! The cases every program runs, in units (one run of the program each): the statement's
//! examples, the cases of the data files, then seeded random cases, written in the problem's
//! input form with the engine's expected output.
//!
//! Units are numbered. The examples come first (one unit of both in the multi-case form, one
//! unit each in the single-case form); then the data files (in the multi-case form one unit per
//! file, in the single-case form one per case of a file); then random units of `batch` cases
//! each, where in the multi-case form one unit in [`many_every`] holds [`MANY_CASES`] small
//! cases instead (a program that keeps every case, or state between cases, breaks there).
//! Random case `i` is drawn from its own stream ([`Rng::for_item`]), so a unit's content depends
//! on its number alone, never on who prepares it or when: programs that run the same unit run
//! the same cases.

use crate::audit::terms::Auditable;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::audit::terms::Source;
use crate::game::Generated;
use crate::game::{
    case_for_programs, in_form, join_verdicts, Case, Constraints, Engine, Form, Game, Judged,
};
use crate::util::random::Rng;
use crate::util::shard::Shard;

/// The cases of a many-case unit.
pub const MANY_CASES: u64 = 1000;

/// The largest input of a case in a many-case unit (larger draws are drawn again).
const SMALL_INPUT: usize = 1024;

/// How many random units make one block ending in a many-case unit: about a tenth of the
/// random cases are in many-case units, and at least 50 units come between two of them.
pub fn many_every(batch: u64) -> u64 {
    (10 * MANY_CASES / batch.max(1)).max(50)
}

/// One case of a unit.
#[derive(Debug, Clone)]
pub struct UnitCase<C> {
    /// Where it comes from.
    pub source: Source,
    /// The case.
    pub case: C,
    /// Its input, in the game's single-case form.
    pub input: Vec<u8>,
    /// Where it lies outside the contest's limits: what they allow and what it has.
    pub outside: Option<(String, String)>,
}

/// A unit ready to run: its cases, its input in the form, the engine's output.
#[derive(Debug, Clone)]
pub struct Prepared<C> {
    /// The unit's number.
    pub index: u64,
    /// Its cases.
    pub cases: Vec<UnitCase<C>>,
    /// Its input, in the form.
    pub input: Vec<u8>,
    /// The engine's output for it.
    pub expected: String,
    /// The engine's verdict for each case.
    pub verdicts: Vec<String>,
    /// Random cases dropped for lying outside the contest's limits.
    pub dropped: u64,
}

/// An input file read as cases.
#[derive(Debug, Clone)]
pub struct FileCases<C> {
    /// Its name, as written in reports.
    pub name: String,
    /// Its place in the sorted list of every input file (of every shard).
    pub position: usize,
    /// Its cases.
    pub cases: Vec<C>,
}

/// Which case: an example, case `case` of data file `file` (its place in the plan's files),
/// or random case `index`, drawn small for a many-case unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum CaseKey {
    Example { case: usize },
    File { file: usize, case: usize },
    Random { index: u64, small: bool },
}

/// A case, its input, and the engine's judgement of it.
type JudgedCase<G> = (<G as Generated>::Case, Vec<u8>, Vec<<G as Game>::Judgement>);

/// The schedule of the units.
#[derive(Debug)]
pub struct Plan<G: Auditable> {
    /// The statement's examples, as cases.
    examples: Vec<G::Case>,
    /// The data files of this slice.
    files: Vec<FileCases<G::Case>>,
    /// The form every unit is written in.
    pub form: Form,
    /// Random cases per unit.
    pub batch: u64,
    seed: u64,
    rules: G::Options,
    constraints: Constraints,
    /// Random cases run have indices below this.
    random_budget: Option<u64>,
    shard: Option<Shard>,
    /// The units before the random ones: their cases' keys.
    fixed_units: Vec<Vec<(Source, CaseKey)>>,
    shape: <G::Case as Case>::Shape,
    judged: AtomicU64,
}

/// What a plan is made of.
#[derive(Debug)]
pub struct PlanSpec<G: Auditable> {
    /// The data files' cases.
    pub files: Vec<FileCases<G::Case>>,
    /// The form.
    pub form: Form,
    /// Random cases per unit (one in the single-case form).
    pub batch: u64,
    /// The seed of the random cases.
    pub seed: u64,
    /// The rule set.
    pub rules: G::Options,
    /// Which limits random cases keep to.
    pub constraints: Constraints,
    /// The most cases a program runs, examples and data included.
    pub cases: Option<u64>,
    /// Only this slice of the random units.
    pub shard: Option<Shard>,
}

impl<G: Auditable> Plan<G> {
    /// The plan of `spec`: the examples, the files, then random cases.
    pub fn new(spec: PlanSpec<G>) -> Plan<G> {
        let examples: Vec<G::Case> = G::PROBES
            .iter()
            .flat_map(|p| G::Case::from_input(p.as_bytes(), spec.rules).unwrap_or_default())
            .collect();
        let of = examples.len();
        let example = |case: usize| {
            (
                Source::Example { case: case + 1, of },
                CaseKey::Example { case },
            )
        };
        let mut fixed_units: Vec<Vec<(Source, CaseKey)>> = match spec.form {
            Form::Multi => vec![(0..of).map(example).collect()],
            Form::Single => (0..of).map(|c| vec![example(c)]).collect(),
        };
        for (f, file) in spec.files.iter().enumerate() {
            let keys: Vec<(Source, CaseKey)> = (0..file.cases.len())
                .map(|c| {
                    let source = Source::File {
                        position: file.position,
                        name: file.name.clone(),
                        case: c + 1,
                        of: file.cases.len(),
                    };
                    (source, CaseKey::File { file: f, case: c })
                })
                .collect();
            match spec.form {
                Form::Multi if !keys.is_empty() => fixed_units.push(keys),
                Form::Multi => {}
                Form::Single => fixed_units.extend(keys.into_iter().map(|k| vec![k])),
            }
        }
        let fixed_cases: u64 = fixed_units.iter().map(|u| u.len() as u64).sum();
        Plan {
            examples,
            files: spec.files,
            form: spec.form,
            batch: if spec.form == Form::Single {
                1
            } else {
                spec.batch.max(1)
            },
            seed: spec.seed,
            rules: spec.rules,
            constraints: spec.constraints,
            random_budget: spec.cases.map(|n| n.saturating_sub(fixed_cases)),
            shard: spec.shard,
            fixed_units,
            shape: G::Case::for_programs(spec.constraints),
            judged: AtomicU64::new(0),
        }
    }

    /// The cases the engine judged to prepare units so far.
    pub fn judged(&self) -> u64 {
        self.judged.load(Ordering::Relaxed)
    }

    /// The random case indices of random unit `r` (numbered before sharding: a slice runs
    /// whole units of the unsharded run), and whether it is a many-case unit.
    fn random_range(&self, r: u64) -> (u64, u64, bool) {
        if self.form == Form::Single {
            return (r, 1, false);
        }
        let every = many_every(self.batch);
        let block = (every - 1) * self.batch + MANY_CASES;
        let first = (r / every) * block + (r % every) * self.batch;
        if r % every == every - 1 {
            (first, MANY_CASES, true)
        } else {
            (first, self.batch, false)
        }
    }

    /// Random case `index` (a global index: after sharding): the game's corner at its place
    /// ([`case_for_programs`]); small ones only when `small` (no corner then).
    fn random_case(&self, index: u64, small: bool) -> G::Case {
        let draw = |seed: u64| {
            G::Case::generate(
                &mut Rng::for_item(seed, index),
                Some(self.rules),
                &self.shape,
            )
        };
        if !small {
            let mut rng = Rng::for_item(self.seed, index);
            return case_for_programs::<G::Case>(&mut rng, index, Some(self.rules), &self.shape);
        }
        let mut case = draw(self.seed);
        let mut attempt = 1;
        while small && case.input().len() > SMALL_INPUT && attempt < 8 {
            case = draw(self.seed.wrapping_add(attempt));
            attempt += 1;
        }
        case
    }

    /// The cases of unit `index`, or `None` beyond the last unit.
    fn keys(&self, index: u64) -> Option<Vec<(Source, CaseKey)>> {
        if let Some(unit) = self.fixed_units.get(index as usize) {
            return Some(unit.clone());
        }
        let local = index - self.fixed_units.len() as u64;
        let unit = self.shard.map_or(local, |s| s.nth(local));
        let (first, count, small) = self.random_range(unit);
        let cases: Vec<_> = (first..first + count)
            .take_while(|&i| self.random_budget.is_none_or(|budget| i < budget))
            .map(|index| {
                let key = CaseKey::Random { index, small };
                (Source::Random { index }, key)
            })
            .collect();
        (!cases.is_empty()).then_some(cases)
    }

    /// The case of `key` and the engine's judgement of it; `None` when the engine does not
    /// judge it.
    fn judge_case(&self, key: CaseKey) -> Option<JudgedCase<G>> {
        let case = match key {
            CaseKey::Example { case } => self.examples[case].clone(),
            CaseKey::File { file, case } => self.files[file].cases[case].clone(),
            CaseKey::Random { index, small } => self.random_case(index, small),
        };
        let input = case.input();
        self.judged.fetch_add(1, Ordering::Relaxed);
        let judged = G::judge(Engine::Fast, &mut &input[..], self.rules).ok()?;
        Some((case, input, judged))
    }

    /// Unit `index` ready to run, or `None` beyond the last unit. Random cases outside the
    /// contest's limits (with [`Constraints::Contest`]) are dropped, the data's cases are
    /// kept and marked; cases the engine does not judge are dropped.
    pub fn prepare(&self, index: u64) -> Option<Prepared<G::Case>> {
        let keys = self.keys(index)?;
        let mut kept = Vec::with_capacity(keys.len());
        let mut verdicts = Vec::with_capacity(keys.len());
        let mut dropped = 0;
        for (source, key) in keys {
            let Some((case, input, judged)) = self.judge_case(key) else {
                dropped += 1;
                continue;
            };
            let outside = judged.iter().find_map(G::outside_contest);
            let random = matches!(source, Source::Random { .. });
            if random && outside.is_some() && self.constraints == Constraints::Contest {
                dropped += 1;
                continue;
            }
            verdicts.extend(judged.iter().map(|j| j.verdict()));
            kept.push(UnitCase {
                source,
                case,
                input,
                outside,
            });
        }
        let inputs: Vec<Vec<u8>> = kept.iter().map(|c| c.input.clone()).collect();
        let input = if inputs.is_empty() {
            Vec::new()
        } else {
            in_form::<G>(self.form, &inputs)
        };
        Some(Prepared {
            index,
            cases: kept,
            expected: join_verdicts::<G>(&verdicts),
            input,
            verdicts,
            dropped,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Forms;
    use crate::pousse::{Pousse, Rules};

    fn plan(form: Form, cases: Option<u64>) -> Plan<Pousse> {
        let files = vec![FileCases {
            name: "data.in".into(),
            position: 0,
            cases: PousseCase::from_input(b"2\n\n1\nL1\nQUIT\n\n2\nT1\nQUIT\n", Rules::Waterloo)
                .unwrap(),
        }];
        Plan::new(PlanSpec {
            files,
            form,
            batch: 10,
            seed: 7,
            rules: Rules::Waterloo,
            constraints: Constraints::Contest,
            cases,
            shard: None,
        })
    }

    use crate::pousse::PousseCase;

    #[test]
    fn the_examples_come_first_then_the_data_then_random_cases() {
        let multi = plan(Form::Multi, Some(25));
        let first = multi.prepare(0).unwrap();
        assert_eq!(first.cases.len(), 2);
        assert!(matches!(
            first.cases[0].source,
            Source::Example { case: 1, of: 2 }
        ));
        assert_eq!(first.expected, "TIE GAME\n\nX WINS\n");
        assert!(first.input.starts_with(b"2\n\n4\nL2\n"));
        let data = multi.prepare(1).unwrap();
        assert!(matches!(
            &data.cases[1].source,
            Source::File { case: 2, of: 2, .. }
        ));
        // 25 cases: 4 fixed, then 21 random in units of 10.
        let sizes: Vec<usize> = (2..6)
            .map_while(|u| multi.prepare(u))
            .map(|p| p.cases.len() + p.dropped as usize)
            .collect();
        assert_eq!(sizes, [10, 10, 1]);
        // The single form: one example per unit, one case per unit.
        let single = plan(Form::Single, None);
        assert_eq!(
            single.prepare(0).unwrap().input,
            Pousse::PROBES[0].as_bytes()
        );
        assert_eq!(single.prepare(1).unwrap().expected, "X WINS\n");
        assert_eq!(single.prepare(3).unwrap().input, b"2\nT1\nQUIT\n");
        assert_eq!(single.prepare(4).unwrap().cases.len(), 1);
        // A unit depends on its number alone.
        assert_eq!(plan(Form::Multi, None).prepare(9).unwrap().input, {
            let again = plan(Form::Multi, None);
            again.prepare(9).unwrap().input
        });
    }
}
