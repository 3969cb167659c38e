//! The flags' values: rule sets, seconds, amounts and rates.

use super::*;

/// A `--rules` value checked against `game` when one is named, else against every game.
pub(super) fn check_rules(game: Option<GameName>, rules: Option<&str>) -> Result<(), RunError> {
    struct Check<'a>(Option<&'a str>);
    impl Visitor for Check<'_> {
        type Output = Result<(), RulesError>;
        fn visit<G: AnyGame>(self) -> Result<(), RulesError> {
            rules_from_flag::<G>(self.0).map(|_| ())
        }
    }
    match (game, rules) {
        (Some(g), _) => Ok(g.visit(Check(rules))?),
        (None, Some(name)) => Ok(games::check_rule_set_name(name)?),
        (None, None) => Ok(()),
    }
}

pub(super) fn seconds(flag: &'static str, value: f64) -> Result<Duration, RunError> {
    Duration::try_from_secs_f64(value).map_err(|_| {
        if value.is_finite() && value > 0.0 {
            UsageError::TooManySeconds { flag, value }.into()
        } else {
            UsageError::NotSeconds { flag, value }.into()
        }
    })
}

/// The least a limit of time may be: below it, every run or case would be over it.
pub(super) const LEAST_SECONDS: Duration = Duration::from_millis(1);

/// A limit of time, which must be at least [`LEAST_SECONDS`]: zero would put every program or
/// case over it, and report that as their fault.
pub(super) fn limit_seconds(flag: &'static str, value: f64) -> Result<Duration, RunError> {
    let limit = seconds(flag, value)?;
    if limit < LEAST_SECONDS {
        return Err(UsageError::BelowLeastSeconds { flag, value }.into());
    }
    Ok(limit)
}
/// A count of steps or bytes, written as a whole number (`2000000000`, `2_000_000_000`) or in
/// exponent notation (`2e9`).
pub(super) fn amount(text: &str) -> Result<u64, NotAnAmount> {
    crate::util::text::whole_number(text).ok_or_else(|| NotAnAmount(text.to_string()))
}

/// A flag's value that is not a count of steps or bytes.
#[derive(Debug, thiserror::Error)]
#[error("'{0}' is not a whole number (like 2000000000 or 2e9)")]
pub(super) struct NotAnAmount(String);

/// A throughput for summaries: `1234 cases/s`, `2.5 cases/s`, or for runs slower than one case
/// in ten seconds `12.3 s per case` (never a rounded `0 cases/s`); `no cases` for none.
pub(super) fn rate(cases: u64, time: Duration) -> String {
    let secs = time.as_secs_f64();
    if cases == 0 {
        return "no cases".to_string();
    }
    let per_second = cases as f64 / secs.max(1e-9);
    if per_second >= 100.0 {
        format!("{per_second:.0} cases/s")
    } else if per_second >= 0.1 {
        format!("{per_second:.2} cases/s")
    } else {
        format!("{:.1} s per case", secs / cases as f64)
    }
}

/// The help of every `--rules` flag: each game's rule sets and default.
pub(super) fn rules_help() -> String {
    format!(
        "Rule set, for the games that have them ({})",
        games::rule_sets_help()
    )
}
