//! What each run of the program holds (a unit): the cases of the input files, then seeded
//! random cases, written in the program's input form with the engine's expected output.
//!
//! Units are numbered. The input files come first: in the multi-case form one unit per file,
//! in the single-case form one unit per case of a file. Random units follow, `batch` cases
//! each; in the multi-case form one unit in [`many_every`] holds [`MANY_CASES`] small cases
//! instead (a program that keeps every case, or state between cases, breaks there). Random
//! case `i` is drawn from its own stream ([`Rng::for_item`]), so a unit's content does not
//! depend on who prepares it, or when.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

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
    /// The cases judged for every audit of a run of several programs, and this audit's number
    /// among them.
    shared: Option<(Arc<SharedCases<G::Case>>, usize)>,
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
            shared: None,
        }
    }

    /// The plan of audit `audit` drawing its cases from `shared`: each case is generated and
    /// judged once for every audit that shares it.
    pub fn sharing(mut self, shared: Arc<SharedCases<G::Case>>, audit: usize) -> Plan<G> {
        self.shared = Some((shared, audit));
        self
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

    /// The cases of unit `index` (where each comes from, and which it is), or `None` beyond
    /// the last unit.
    fn keys(&self, index: u64) -> Option<Vec<(Source, CaseKey)>> {
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
                        (source, CaseKey::File { file: f, case: c })
                    })
                    .collect(),
            );
        }
        let (first, count, many) = self.random_range(index - self.file_units());
        let cases: Vec<_> = (first..first + count)
            .map(|local| self.shard.map_or(local, |s| s.nth(local)))
            .take_while(|&i| self.random_budget.is_none_or(|budget| i < budget))
            .map(|i| {
                let key = CaseKey::Random {
                    index: i,
                    small: many,
                };
                (Source::Random { index: i }, key)
            })
            .collect();
        (!cases.is_empty()).then_some(cases)
    }

    /// Case `key` judged by the engine; `None` when the engine does not judge it.
    fn judge_case(&self, key: CaseKey) -> Option<JudgedCase<G::Case>> {
        let case = match key {
            CaseKey::File { file, case } => self.files[file].cases[case].clone(),
            CaseKey::Random { index, small } => self.random_case(index, small),
        };
        let input = case.input();
        let judged = G::judge(Engine::Fast, &mut &input[..], self.rules).ok()?;
        Some(JudgedCase {
            outside: judged.iter().find_map(G::outside_contest),
            verdicts: judged.iter().map(|j| j.verdict()).collect(),
            case,
            input,
        })
    }

    /// Unit `index` ready to run: its cases judged by the engine (once for every audit
    /// sharing them). Random cases outside the contest's limits (with
    /// [`Constraints::Contest`]) are dropped, file cases are kept and marked; cases the engine
    /// does not judge are dropped.
    pub fn prepare(&self, index: u64) -> Option<Prepared<G::Case>> {
        let keys = self.keys(index)?;
        let mut kept = Vec::with_capacity(keys.len());
        let mut verdicts = Vec::with_capacity(keys.len());
        let mut dropped = 0;
        for (source, key) in keys {
            let judged = match &self.shared {
                Some((shared, audit)) => shared.get(key, *audit, || self.judge_case(key)),
                None => self.judge_case(key),
            };
            let Some(judged) = judged else {
                dropped += 1;
                continue;
            };
            let random = matches!(source, Source::Random { .. });
            if random && judged.outside.is_some() && self.constraints == Constraints::Contest {
                dropped += 1;
                continue;
            }
            verdicts.extend(judged.verdicts);
            kept.push(UnitCase {
                source,
                case: judged.case,
                input: judged.input,
                outside: judged.outside,
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

/// Which case: case `case` of input file `file` (its place in the plan's files), or random
/// case `index`, drawn small for a many-case unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CaseKey {
    /// A case of an input file.
    File {
        /// The file's place in the plan's files.
        file: usize,
        /// The case within it, from 0.
        case: usize,
    },
    /// A random case.
    Random {
        /// Its index in the seed's stream.
        index: u64,
        /// Drawn small (a many-case unit's).
        small: bool,
    },
}

/// A case and the engine's judgement of it.
#[derive(Debug, Clone)]
pub struct JudgedCase<C> {
    case: C,
    input: Vec<u8>,
    verdicts: Vec<String>,
    outside: Option<(String, String)>,
}

/// A case judged at most once, by whichever audit needs it first.
type Shared<C> = Arc<OnceLock<Option<JudgedCase<C>>>>;

/// A case kept for the audits that have not taken it yet: the case, and which audits took it.
type Kept<C> = (Shared<C>, Vec<bool>);

/// The cases of a run auditing several programs on the same cases: each is generated and
/// judged by the engine once, on its first use, and kept until every audit still running its
/// cases has taken it (an audit that ends its cases leaves, and is no longer waited for), so
/// memory holds the cases between the fastest audit and the slowest. Audits are numbered from
/// 0.
#[derive(Debug)]
pub struct SharedCases<C> {
    /// Each case not yet taken by every running audit, and which audits took it.
    entries: Mutex<HashMap<CaseKey, Kept<C>>>,
    /// Which audits still run their cases.
    running: Mutex<Vec<bool>>,
    /// The cases judged so far.
    judged: AtomicU64,
}

impl<C: Clone> SharedCases<C> {
    /// The cases of `audits` audits.
    pub fn new(audits: usize) -> SharedCases<C> {
        SharedCases {
            entries: Mutex::new(HashMap::new()),
            running: Mutex::new(vec![true; audits]),
            judged: AtomicU64::new(0),
        }
    }

    /// Case `key` for audit `audit`, judged by `judge` if no audit has judged it yet.
    fn get(
        &self,
        key: CaseKey,
        audit: usize,
        judge: impl FnOnce() -> Option<JudgedCase<C>>,
    ) -> Option<JudgedCase<C>> {
        let cell = {
            let running = self.running.lock().unwrap_or_else(|e| e.into_inner());
            let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
            let entry = entries
                .entry(key)
                .or_insert_with(|| (Shared::default(), vec![false; running.len()]));
            if let Some(took) = entry.1.get_mut(audit) {
                *took = true;
            }
            let cell = Arc::clone(&entry.0);
            if taken_by_all(&entry.1, &running) {
                entries.remove(&key);
            }
            cell
        };
        cell.get_or_init(|| {
            self.judged.fetch_add(1, Ordering::Relaxed);
            judge()
        })
        .clone()
    }

    /// Audit `audit` ran its last case: cases are no longer kept for it.
    pub fn leave(&self, audit: usize) {
        let mut running = self.running.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(r) = running.get_mut(audit) {
            *r = false;
        }
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        entries.retain(|_, (_, took)| !taken_by_all(took, &running));
    }

    /// The cases the engine judged (each once).
    pub fn judged(&self) -> u64 {
        self.judged.load(Ordering::Relaxed)
    }
}

/// Whether every running audit took a case.
fn taken_by_all(took: &[bool], running: &[bool]) -> bool {
    running.iter().zip(took).all(|(&r, &t)| !r || t)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn judged(case: u32) -> Option<JudgedCase<u32>> {
        Some(JudgedCase {
            case,
            input: Vec::new(),
            verdicts: Vec::new(),
            outside: None,
        })
    }

    fn kept(shared: &SharedCases<u32>) -> usize {
        shared.entries.lock().unwrap().len()
    }

    #[test]
    fn a_shared_case_is_judged_once_and_kept_until_every_running_audit_took_it() {
        let shared = SharedCases::new(3);
        let one = CaseKey::Random {
            index: 1,
            small: false,
        };
        for audit in 0..3 {
            let got = shared.get(one, audit, || judged(7 + audit as u32));
            assert_eq!(
                got.map(|j| j.case),
                Some(7),
                "judged by the first audit only"
            );
            assert_eq!(kept(&shared), usize::from(audit < 2));
        }
        assert_eq!(shared.judged(), 1);
        // Audit 0 ends its cases: a case audits 0 and 1 took still waits for audit 2, one that
        // audits 1 and 2 took is let go.
        let two = CaseKey::File { file: 0, case: 0 };
        let three = CaseKey::File { file: 0, case: 1 };
        shared.get(two, 0, || judged(2));
        shared.get(two, 1, || judged(2));
        shared.get(three, 1, || judged(3));
        shared.get(three, 2, || judged(3));
        assert_eq!(kept(&shared), 2);
        shared.leave(0);
        assert_eq!(kept(&shared), 1);
        assert_eq!(shared.get(two, 2, || judged(99)).map(|j| j.case), Some(2));
        assert_eq!(kept(&shared), 0);
        assert_eq!(shared.judged(), 3);
    }
}
