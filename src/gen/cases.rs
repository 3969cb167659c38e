//! One case of a seed, a named corner, and the coverage of a run's cases.

use super::*;

/// How often each feature of a game's [`Generated::COVERAGE`] occurs among random cases as `audit`
/// draws them.
#[derive(Debug, Clone)]
pub struct Coverage {
    /// Each feature: the cases that show it, and the first of them (its index).
    pub rows: Vec<(&'static str, u64, Option<u64>)>,
    /// Cases counted.
    pub cases: u64,
    /// Cases dropped for lying outside the contest's limits (as `audit` drops them).
    pub dropped: u64,
}

impl Coverage {
    /// The features no case shows.
    pub fn missing(&self) -> Vec<&'static str> {
        self.rows
            .iter()
            .filter(|(_, n, _)| *n == 0)
            .map(|(f, _, _)| *f)
            .collect()
    }

    /// The table in Markdown: feature, cases, share, first case.
    pub fn markdown(&self) -> String {
        let mut table =
            String::from("| feature | cases | share | first case |\n|---|---|---|---|\n");
        for (feature, n, first) in &self.rows {
            let share = 100.0 * *n as f64 / self.cases.max(1) as f64;
            let first = first.map_or("-".to_string(), |i| i.to_string());
            table.push_str(&format!("| {feature} | {n} | {share:.1}% | {first} |\n"));
        }
        table
    }
}

/// The coverage of the first `cases` random cases of `seed` under `rules`, drawn as `audit`
/// draws them for programs inside the contest's limits ([`case_for_programs`]); a case outside
/// the limits is dropped, as `audit` drops it.
pub fn coverage<G: Game + Generated + Packaged>(
    seed: u64,
    cases: u64,
    rules: G::Options,
) -> Coverage {
    let shape = G::Case::for_programs(Constraints::Contest);
    let mut rows: Vec<(&'static str, u64, Option<u64>)> =
        G::COVERAGE.iter().map(|f| (*f, 0, None)).collect();
    let mut dropped = 0;
    for index in 0..cases {
        let mut rng = Rng::for_item(seed, index);
        let input = case_for_programs::<G::Case>(&mut rng, index, Some(rules), &shape).input();
        let Ok(judged) = G::judge(Engine::Fast, &mut &input[..], rules) else {
            continue;
        };
        if judged.iter().any(|j| G::outside_contest(j).is_some()) {
            dropped += 1;
            continue;
        }
        for feature in G::coverage(&input, rules, &judged) {
            if let Some(row) = rows.iter_mut().find(|r| r.0 == feature) {
                row.1 += 1;
                row.2.get_or_insert(index);
            }
        }
    }
    Coverage {
        rows,
        cases,
        dropped,
    }
}

/// The most draws for one case inside the contest's limits.
pub const DRAWS: u64 = 1000;

/// Case `item` of `seed`'s random streams, shaped by `shape`. With `contest`, a case outside
/// the contest's limits is drawn again, from streams derived from the seed (draw `k` uses seed
/// `seed + k * 0x9E3779B97F4A7C15`), up to [`DRAWS`] times: the same arguments give the same
/// case, whoever asks (`referee package` and a package's generator alike).
pub fn one_case<G: Game + Generated + Packaged>(
    seed: u64,
    item: u64,
    shape: &<G::Case as Case>::Shape,
    rules: G::Options,
    contest: bool,
) -> Result<Vec<u8>, GenerateError> {
    for draw in 0..DRAWS {
        let stream = seed.wrapping_add(draw.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let input = G::Case::generate(&mut Rng::for_item(stream, item), Some(rules), shape).input();
        if !contest
            || crate::judge_system::validate::validate::<G>(
                &input[..],
                rules,
                crate::judge_system::validate::Constraints::Contest,
            )
            .is_ok()
        {
            return Ok(input);
        }
    }
    Err(GenerateError::NoContestCase {
        game: G::NAME,
        seed,
        item,
    })
}

/// The input of the case of `G`'s package named `name` (a sample or an edge case, as listed in
/// [`Packaged::package`]).
pub fn named_case<G: Game + Packaged>(
    name: &str,
    rules: G::Options,
) -> Result<Vec<u8>, GenerateError> {
    let content = G::package(rules).ok_or(GenerateError::NoPackage { game: G::NAME })?;
    let mut names = Vec::new();
    for (case, input) in content.samples.iter().chain(&content.edge_cases) {
        if case == name {
            return Ok(input.clone());
        }
        names.push(case.as_str());
    }
    Err(GenerateError::NoSuchCase {
        game: G::NAME,
        name: name.into(),
        known: names.join(", "),
    })
}
