//! What each run of the program holds (a unit): the cases of the input files, then seeded
//! random cases, written in the program's input form with the engine's expected output.
//!
//! Units are numbered. The input files come first: in the multi-case form one unit per file,
//! in the single-case form one unit per case of a file. Random units follow, `batch` cases
//! each; in the multi-case form one unit in [`many_every`] holds [`MANY_CASES`] small cases
//! instead (a program that keeps every case, or state between cases, breaks there). Random
//! case `i` is drawn from its own stream ([`Rng::for_item`]), so a unit's content does not
//! depend on who prepares it, or when.

use super::Source;
use crate::game::{in_form, render, Case, Constraints, Engine, Form, Game, Judged};
use crate::random::Rng;
use crate::shard::Shard;

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

/// A unit ready to run: its cases, its input in the program's form, the engine's output.
#[derive(Debug, Clone)]
pub struct Prepared<C> {
    /// The unit's number.
    pub index: u64,
    /// Its cases.
    pub cases: Vec<UnitCase<C>>,
    /// Its input, in the program's form.
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
pub struct InputFile<C> {
    /// Its name, as written in reports.
    pub name: String,
    /// Its place in the sorted list of every input file (of every shard).
    pub position: usize,
    /// Its cases.
    pub cases: Vec<C>,
}

/// The schedule of an audit's units.
#[derive(Debug)]
pub struct Plan<G: Game> {
    /// The input files of this slice.
    pub files: Vec<InputFile<G::Case>>,
    /// The program's form.
    pub form: Form,
    /// Random cases per unit.
    pub batch: u64,
    /// The seed of the random cases.
    pub seed: u64,
    /// The rule set.
    pub rules: G::Options,
    /// Which limits random cases keep to.
    pub constraints: Constraints,
    /// Random cases run have indices below this.
    pub random_budget: Option<u64>,
    /// Only this slice of the random case indices.
    pub shard: Option<Shard>,
    /// Units of file cases: file, first case, number of cases.
    file_units: Vec<(usize, usize, usize)>,
    /// The generator's shape.
    shape: <G::Case as Case>::Shape,
}

impl<G: Game> Plan<G> {
    /// The plan of `files`, then random cases.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        files: Vec<InputFile<G::Case>>,
        form: Form,
        batch: u64,
        seed: u64,
        rules: G::Options,
        constraints: Constraints,
        random_budget: Option<u64>,
        shard: Option<Shard>,
    ) -> Plan<G> {
        let mut file_units = Vec::new();
        for (f, file) in files.iter().enumerate() {
            match form {
                Form::Multi if !file.cases.is_empty() => file_units.push((f, 0, file.cases.len())),
                Form::Multi => {}
                Form::Single => file_units.extend((0..file.cases.len()).map(|c| (f, c, 1))),
            }
        }
        Plan {
            files,
            form,
            batch: if form == Form::Single { 1 } else { batch },
            seed,
            rules,
            constraints,
            random_budget,
            shard,
            file_units,
            shape: G::Case::for_programs(constraints),
        }
    }

    /// The number of units of file cases.
    pub fn file_units(&self) -> u64 {
        self.file_units.len() as u64
    }

    /// The random case indices of random unit `r` (before sharding), and whether it is a
    /// many-case unit.
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

    /// Random case `index` (a global index: after sharding); small ones only when `small`.
    fn random_case(&self, index: u64, small: bool) -> G::Case {
        let mut case = G::Case::generate(
            &mut Rng::for_item(self.seed, index),
            Some(self.rules),
            &self.shape,
        );
        let mut attempt = 1;
        while small && case.input().len() > SMALL_INPUT && attempt < 8 {
            let seed = self.seed.wrapping_add(attempt);
            case = G::Case::generate(
                &mut Rng::for_item(seed, index),
                Some(self.rules),
                &self.shape,
            );
            attempt += 1;
        }
        case
    }

    /// The cases of unit `index`, or `None` beyond the last unit.
    pub fn cases(&self, index: u64) -> Option<Vec<(Source, G::Case)>> {
        if let Some(&(f, first, count)) = self.file_units.get(index as usize) {
            let file = &self.files[f];
            return Some(
                (first..first + count)
                    .map(|c| {
                        let source = Source::File {
                            name: file.name.clone(),
                            position: file.position,
                            case: c + 1,
                            of: file.cases.len(),
                        };
                        (source, file.cases[c].clone())
                    })
                    .collect(),
            );
        }
        let (first, count, many) = self.random_range(index - self.file_units());
        let cases: Vec<_> = (first..first + count)
            .map(|local| self.shard.map_or(local, |s| s.nth(local)))
            .take_while(|&i| self.random_budget.is_none_or(|budget| i < budget))
            .map(|i| (Source::Random { index: i }, self.random_case(i, many)))
            .collect();
        (!cases.is_empty()).then_some(cases)
    }

    /// Unit `index` ready to run: its cases judged by the engine. Random cases outside the
    /// contest's limits (with [`Constraints::Contest`]) are dropped, file cases are kept and
    /// marked; cases the engine does not judge are dropped.
    pub fn prepare(&self, index: u64) -> Option<Prepared<G::Case>> {
        let cases = self.cases(index)?;
        let mut kept = Vec::with_capacity(cases.len());
        let mut verdicts = Vec::with_capacity(cases.len());
        let mut dropped = 0;
        for (source, case) in cases {
            let input = case.input();
            let Ok(judged) = G::judge(Engine::Fast, &mut &input[..], self.rules) else {
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
        let expected = expected_of(&verdicts, G::BETWEEN);
        Some(Prepared {
            index,
            cases: kept,
            input,
            expected,
            verdicts,
            dropped,
        })
    }
}

/// The contest's output of `verdicts`, with `between` between two of them.
fn expected_of(verdicts: &[String], between: &str) -> String {
    let mut out = String::new();
    for (i, v) in verdicts.iter().enumerate() {
        if i > 0 {
            out.push_str(between);
        }
        out.push_str(v);
        out.push('\n');
    }
    out
}

/// The engine's output for `input` of game `G` under `rules`, and each case's verdict; `None`
/// when the engine does not judge it.
pub fn judged<G: Game>(input: &[u8], rules: G::Options) -> Option<(String, Vec<String>)> {
    let judged = G::judge(Engine::Fast, &mut &input[..], rules).ok()?;
    let verdicts = judged.iter().map(|j| j.verdict()).collect();
    Some((render::<G>(&judged), verdicts))
}
