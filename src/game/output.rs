//! The contest's output of judgements, what two implementations disagree on, and rule sets
//! named by a flag.

use super::*;

/// The contest output for a list of judgements, exactly as the problem expects it.
pub fn render<G: Game>(judgements: &[G::Judgement]) -> String {
    join_verdicts::<G>(judgements.iter().map(|j| j.verdict()))
}

/// The contest's output of the cases whose verdicts are `verdicts`: each on its line,
/// [`Game::BETWEEN`] between two.
pub fn join_verdicts<G: Game>(verdicts: impl IntoIterator<Item = impl AsRef<str>>) -> String {
    let mut out = String::new();
    for (i, verdict) in verdicts.into_iter().enumerate() {
        if i > 0 {
            out.push_str(G::BETWEEN);
        }
        out.push_str(verdict.as_ref());
        out.push('\n');
    }
    out
}

/// How the engine and an independent check of the same input (a game's second opinion or
/// oracle) disagree, or why the check could not read the input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Disagreement {
    /// The check cannot read the input: which check, and its error.
    #[error("{check}: {error}")]
    Unread {
        /// The check (`the reference's parser`).
        check: &'static str,
        /// Its error.
        error: String,
    },
    /// Case `case` (1-based, `what` names it: `grid 2`): the check says `check_says`, the engine
    /// `engine_says`.
    #[error("{what} {case}: {check} says {check_says}, the engine {engine_says}")]
    Case {
        /// What a case is (`grid`).
        what: &'static str,
        /// The case, 1-based.
        case: usize,
        /// The check.
        check: &'static str,
        /// Its verdict.
        check_says: String,
        /// The engine's.
        engine_says: String,
    },
    /// After move `at` (1-based, `mv`), the engine and the check count different straights.
    #[error(
        "after move {at} ({mv}) the engine counts straights X {}, O {}, the reference X {}, O {}",
        engine.0, engine.1, reference.0, reference.1
    )]
    Straights {
        /// The move, 1-based.
        at: usize,
        /// The move, as written.
        mv: String,
        /// The engine's counts of X and O.
        engine: (u32, u32),
        /// The reference's.
        reference: (usize, usize),
    },
    /// A disagreement within moves `from..=to` (1-based) of game `game` (1-based).
    #[error("game {game}, moves {from}..{to}: {why}")]
    InWindow {
        /// The game, 1-based.
        game: usize,
        /// The window's first move, 1-based.
        from: usize,
        /// Its last.
        to: usize,
        /// The disagreement.
        why: Box<Disagreement>,
    },
    /// The boards differ after move `at` (1-based).
    #[error("the boards differ after move {at}")]
    Boards {
        /// The move, 1-based.
        at: usize,
    },
    /// The engine's verdict and the oracle's.
    #[error("engine {engine}, oracle {oracle}")]
    Verdict {
        /// The engine's verdict.
        engine: String,
        /// The oracle's.
        oracle: String,
    },
    /// The engine rejects a case the oracle decides.
    #[error("{0}")]
    Rejected(String),
}

/// The rule set asked for on the command line (`--rules`), or the default when absent; an
/// error naming the game's rule sets when it has no such rule set (or none at all).
pub fn rules_from_flag<G: Game>(flag: Option<&str>) -> Result<G::Options, RulesError> {
    let Some(name) = flag else {
        return Ok(G::Options::default());
    };
    G::Options::from_name(name).ok_or_else(|| match G::Options::NAMES {
        [] => RulesError::NoRuleSets {
            game: G::NAME,
            name: name.into(),
        },
        names => RulesError::Unknown {
            game: G::NAME,
            name: name.into(),
            known: names,
        },
    })
}

/// A `--rules` value no game (or not the game named) has.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// A rule set asked of a game that has none.
    #[error("{game} has no rule sets (--rules {name})")]
    NoRuleSets {
        /// The game.
        game: &'static str,
        /// The rule set asked for.
        name: String,
    },
    /// A rule set the game does not have.
    #[error("unknown rule set '{name}' for {game} (one of {}; default {})", known.join(", "), known[0])]
    Unknown {
        /// The game.
        game: &'static str,
        /// The rule set asked for.
        name: String,
        /// The game's rule sets, the default first.
        known: &'static [&'static str],
    },
}

impl crate::util::error::RunRefusal for RulesError {}
