//! Advising: the limits from the measured runs, and every check of them (accepted programs near
//! or over the limit, expected time-outs that pass, per-language limits).

use super::rules::memory_step;
use super::*;
use crate::audit::terms::Class;
use crate::audit::terms::Kind;

/// The advice from `measured` under `rules`, with `set_memory_mib` the memory limit
/// `problem.yaml` sets.
pub fn advise(
    measured: Vec<Measured>,
    rules: TimeRules,
    set_memory_mib: Option<u64>,
    repeat: usize,
) -> Advice {
    let accepted: Vec<&Measured> = measured
        .iter()
        .filter(|m| m.class == Class::Accepted && m.passed() && m.ran().next().is_some())
        .collect();
    let deciding = accepted
        .iter()
        .filter_map(|m| m.slowest_high().map(|f| Spot::of(&m.program, f)))
        .max_by(|a, b| a.high.total_cmp(&b.high));
    let advised = deciding.as_ref().map(|d| time_limit(d.high, &rules));
    let in_effect = rules.time_limit.or(advised);
    let mut warnings = Vec::new();
    let time_tests = time_tests(&accepted);
    accepted_failing(&measured, &mut warnings);
    if let Some(limit) = in_effect {
        accepted_near(&accepted, limit, &rules, &mut warnings);
    }
    let (closest_tle, tle_margin, tle_tests) = match in_effect {
        Some(limit) => tle_checks(&measured, limit, &rules, &mut warnings),
        None => (None, None, Vec::new()),
    };
    let peak_memory = accepted
        .iter()
        .flat_map(|m| m.ran().map(move |f| (m, f)))
        .max_by_key(|(_, f)| f.peak())
        .map(|(m, f)| (m.program.clone(), f.file.clone(), f.peak()));
    let held_mib = peak_memory.as_ref().map(|p| memory_limit_mib(p.2));
    let memory_floor = accepted
        .iter()
        .filter_map(|m| {
            let language = m.language.as_deref()?;
            Some((language.to_string(), runtime_floor_mib(language)?))
        })
        .max_by_key(|floor| floor.1)
        .filter(|floor| held_mib.is_some_and(|held| memory_step(floor.1) > held));
    let memory_mib = match &memory_floor {
        Some(floor) => Some(memory_step(floor.1)),
        None => held_mib,
    };
    if let Some(memory) = set_memory_mib.or(memory_mib) {
        memory_checks(
            &measured,
            memory,
            set_memory_mib,
            &peak_memory,
            &mut warnings,
        );
    }
    if let Some(d) = &deciding {
        set_limit_contradicted(d, advised, &rules, &mut warnings);
    }
    let (languages, per_language) = languages(&accepted, advised, &rules, &mut warnings);
    Advice {
        repeat,
        accepted_margin: advised
            .zip(deciding.as_ref())
            .map(|(l, d)| l / d.high.max(1e-6)),
        deciding,
        time_tests,
        time_limit: advised,
        closest_tle,
        tle_margin,
        tle_tests,
        peak_memory,
        memory_mib,
        memory_floor,
        languages,
        per_language,
        warnings,
        written: Vec::new(),
        rules,
        set_memory_mib,
        measured,
    }
}

/// The data files on which an accepted program's slowest run, within its noise, is: the files
/// that decide the time limit.
pub(super) fn time_tests(accepted: &[&Measured]) -> Vec<String> {
    let mut time_tests = Vec::new();
    for m in accepted {
        let Some(slowest) = m.slowest_high() else {
            continue;
        };
        for f in m.ran() {
            if f.high() + slowest.noise() >= slowest.high() && !time_tests.contains(&f.file) {
                time_tests.push(f.file.clone());
            }
        }
    }
    time_tests
}

/// Warns of each program expected accepted that fails a data file.
pub(super) fn accepted_failing(measured: &[Measured], out: &mut Vec<Warning>) {
    for m in measured.iter().filter(|m| m.class == Class::Accepted) {
        if let Some(f) = m.files.iter().find(|f| f.failed.is_some()) {
            out.push(Warning {
                concern: Concern::AcceptedFails,
                program: Some(m.program.clone()),
                text: format!(
                    "{}: expected accepted, but {} on {} (of its runs there, {} ended): its \
                     times set no limit; fix it or move it out of accepted/",
                    m.program,
                    f.failed.map_or("fails", Kind::as_str),
                    f.file,
                    f.cpu.len()
                ),
            });
        }
    }
}

/// Warns when `problem.yaml`'s time limit is under the deciding run `d`.
pub(super) fn set_limit_contradicted(
    d: &Spot,
    advised: Option<f64>,
    rules: &TimeRules,
    out: &mut Vec<Warning>,
) {
    let Some(set) = rules.time_limit else { return };
    if d.high > set {
        out.push(Warning {
            concern: Concern::SetLimitContradicted,
            program: Some(d.program.clone()),
            text: format!(
                "problem.yaml's time_limit {} is under {}'s {} on {}: it would time out; \
                 the rule gives {}",
                seconds(set, rules),
                d.program,
                d.range(),
                d.file,
                seconds(advised.unwrap_or(set), rules)
            ),
        });
    }
}

/// Warns of each accepted program whose slowest run, plus its noise, reaches `limit`.
pub(super) fn accepted_near(
    accepted: &[&Measured],
    limit: f64,
    rules: &TimeRules,
    out: &mut Vec<Warning>,
) {
    for m in accepted {
        let Some(f) = m.slowest_high() else { continue };
        if f.high() + f.noise() >= limit {
            out.push(Warning {
                concern: Concern::AcceptedNearLimit,
                program: Some(m.program.clone()),
                text: format!(
                    "{}: {} on {} against the {} limit: within its own noise ({:.3} s) of it; \
                     raise the limit or make it faster",
                    m.program,
                    Spot::of(&m.program, f).range(),
                    f.file,
                    seconds(limit, rules),
                    f.noise()
                ),
            });
        }
    }
}

/// The checks of the programs expected to time out against `limit`: the one closest to
/// passing and its margin, the files that time any out beyond the margin; a warning for each
/// that passes, or fails only within the margin.
pub(super) fn tle_checks(
    measured: &[Measured],
    limit: f64,
    rules: &TimeRules,
    out: &mut Vec<Warning>,
) -> (Option<Spot>, Option<f64>, Vec<String>) {
    let beyond = limit * rules.time_limit_to_tle;
    let mut closest: Option<Spot> = None;
    let mut tests = Vec::new();
    for m in measured
        .iter()
        .filter(|m| m.class == Class::TimeLimitExceeded)
    {
        let Some(f) = m.slowest_low() else { continue };
        let spot = Spot::of(&m.program, f);
        for g in m.ran().filter(|g| g.low() > beyond) {
            if !tests.contains(&g.file) {
                tests.push(g.file.clone());
            }
        }
        if spot.low <= limit {
            out.push(Warning {
                concern: Concern::TleNotTimedOut,
                program: Some(m.program.clone()),
                text: format!(
                    "{}: expected to time out, but no data file takes it over the {} limit; the \
                     closest is {} ({}): add a test that makes it slow, or lower the limit",
                    m.program,
                    seconds(limit, rules),
                    f.file,
                    spot.range()
                ),
            });
        } else if spot.low <= beyond {
            out.push(Warning {
                concern: Concern::TleWithinMargin,
                program: Some(m.program.clone()),
                text: format!(
                    "{}: times out, but only within the margin: {} on {}, under {} x the limit \
                     ({}); a faster judge machine accepts it: make that test harder, or lower \
                     the limit",
                    m.program,
                    spot.range(),
                    f.file,
                    rules.time_limit_to_tle,
                    seconds(beyond, rules)
                ),
            });
        }
        if closest.as_ref().is_none_or(|c| spot.low < c.low) {
            closest = Some(spot);
        }
    }
    let margin = closest.as_ref().map(|c| c.low / beyond);
    (closest, margin, tests)
}

/// The checks of memory against `memory` MiB (the set limit, else the advised one).
pub(super) fn memory_checks(
    measured: &[Measured],
    memory: u64,
    set: Option<u64>,
    peak: &Option<(String, String, u64)>,
    out: &mut Vec<Warning>,
) {
    let bytes = memory << 20;
    if let (Some(set), Some((program, file, held))) = (set, peak) {
        if *held > bytes {
            out.push(Warning {
                concern: Concern::SetLimitContradicted,
                program: Some(program.clone()),
                text: format!(
                    "problem.yaml's memory {set} MiB is under what {program} holds on {file} \
                     ({} MiB): it would run out of memory",
                    held.div_ceil(1 << 20)
                ),
            });
        }
    }
    for m in measured
        .iter()
        .filter(|m| m.class == Class::MemoryLimitExceeded)
    {
        let over = m
            .files
            .iter()
            .any(|f| f.failed == Some(Kind::MemoryLimit) || f.peak() > bytes);
        if !over {
            let most = m.files.iter().max_by_key(|f| f.peak());
            out.push(Warning {
                concern: Concern::MleNotExceeded,
                program: Some(m.program.clone()),
                text: format!(
                    "{}: expected to run out of memory, but holds at most {} MiB{} under the \
                     {memory} MiB limit: add a test that makes it grow, or lower the limit",
                    m.program,
                    most.map_or(0, |f| f.peak().div_ceil(1 << 20)),
                    most.map_or(String::new(), |f| format!(" (on {})", f.file))
                ),
            });
        }
    }
}

/// Each language's own limit, when the accepted programs are of several, and whether one
/// limit is too loose for some: a program of that language `time_limit_to_tle` times slower
/// than its own limit would still pass the one limit.
pub(super) fn languages(
    accepted: &[&Measured],
    advised: Option<f64>,
    rules: &TimeRules,
    out: &mut Vec<Warning>,
) -> (Vec<LanguageTime>, bool) {
    let mut names: Vec<&str> = accepted
        .iter()
        .filter_map(|m| m.language.as_deref())
        .collect();
    names.sort_unstable();
    names.dedup();
    if names.len() < 2 {
        return (Vec::new(), false);
    }
    let languages: Vec<LanguageTime> = names
        .iter()
        .filter_map(|&language| {
            let slowest = accepted
                .iter()
                .filter(|m| m.language.as_deref() == Some(language))
                .filter_map(|m| m.slowest_high().map(|f| Spot::of(&m.program, f)))
                .max_by(|a, b| a.high.total_cmp(&b.high))?;
            Some(LanguageTime {
                language: language.to_string(),
                time_limit: time_limit(slowest.high, rules),
                slowest,
            })
        })
        .collect();
    let Some(one) = advised else {
        return (languages, false);
    };
    let loose: Vec<&LanguageTime> = languages
        .iter()
        .filter(|l| l.time_limit * rules.time_limit_to_tle < one)
        .collect();
    if !loose.is_empty() {
        out.push(Warning {
            concern: Concern::PerLanguage,
            program: None,
            text: format!(
                "one limit of {} does not fit every language: {}; a submission {} x too slow \
                 in {} still passes it: set per-language limits (DMOJ's language-specific resource limits)",
                seconds(one, rules),
                languages
                    .iter()
                    .map(|l| format!("{} needs {}", l.language, seconds(l.time_limit, rules)))
                    .collect::<Vec<_>>()
                    .join(", "),
                rules.time_limit_to_tle,
                loose
                    .iter()
                    .map(|l| l.language.as_str())
                    .collect::<Vec<_>>()
                    .join(" or ")
            ),
        });
    }
    let per_language = !loose.is_empty();
    (languages, per_language)
}
