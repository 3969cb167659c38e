//! The games referee judges, and the one place that turns a game's name into its type.
//!
//! Every driver is generic over [`Game`](crate::game::Game); where a game is chosen at run time (a command-line
//! argument, a file recognised by its content) the driver hands a [`Visitor`] to
//! [`GameName::visit`], which calls it with the game's type. Adding a game is one folder and
//! one line in each of the two lists below (see `docs/architecture.md`).

pub mod detect;

use crate::game::knobs::Knob;
use crate::game::view::BoardView;
use crate::game::AnyGame;
use crate::game::Case;
use crate::game::{Engine, Judged, RuleSet};
use crate::littlesquares::LittleSquares;
use crate::pousse::Pousse;
use crate::somegame::SomeGame;
use crate::util::error::JudgeError;

/// A game's command-line name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, clap::ValueEnum)]
pub enum GameName {
    /// Pousse (ICFP 1998, UVa 844).
    Pousse,
    /// LittleSquares (TopCoder SRM 389).
    Littlesquares,
    /// Some Game (DMOJ ioiqrp5).
    Somegame,
}

/// Every game, in documentation order.
pub const ALL: [GameName; 3] = [
    GameName::Pousse,
    GameName::Littlesquares,
    GameName::Somegame,
];

/// Work to do with a game's type, chosen at run time.
pub trait Visitor {
    /// What the work returns.
    type Output;
    /// Does the work for game `G`, which has every facet.
    fn visit<G: AnyGame>(self) -> Self::Output;
}

/// What the drivers need to know of a game without its type.
#[derive(Debug, Clone, Copy)]
pub struct Info {
    /// The command-line name.
    pub name: &'static str,
    /// The rule set names, the default first (empty without rule sets).
    pub rule_sets: &'static [&'static str],
    /// The generator's knobs.
    pub knobs: &'static [Knob],
    /// What the first non-blank line of the game's input is.
    pub first_line: &'static str,
}

impl GameName {
    /// Calls `visitor` with this game's type.
    pub fn visit<V: Visitor>(self, visitor: V) -> V::Output {
        match self {
            GameName::Pousse => visitor.visit::<Pousse>(),
            GameName::Littlesquares => visitor.visit::<LittleSquares>(),
            GameName::Somegame => visitor.visit::<SomeGame>(),
        }
    }

    /// The game's name, rule sets, knobs and first line.
    pub fn info(self) -> Info {
        struct Describe;
        impl Visitor for Describe {
            type Output = Info;
            fn visit<G: AnyGame>(self) -> Info {
                Info {
                    name: G::NAME,
                    rule_sets: G::Options::NAMES,
                    knobs: <G::Case as Case>::KNOBS,
                    first_line: G::FIRST_LINE,
                }
            }
        }
        self.visit(Describe)
    }

    /// The command-line spelling.
    pub fn as_str(self) -> &'static str {
        self.info().name
    }

    /// The game's rule set names, the default first (empty without rule sets).
    pub fn rule_sets(self) -> &'static [&'static str] {
        self.info().rule_sets
    }

    /// The game's generator knobs.
    pub fn knobs(self) -> &'static [Knob] {
        self.info().knobs
    }

    /// Whether `line` (the first non-blank line of an input) starts this game's input.
    fn recognises(self, line: &[u8]) -> bool {
        struct Recognises<'a>(&'a [u8]);
        impl Visitor for Recognises<'_> {
            type Output = bool;
            fn visit<G: AnyGame>(self) -> bool {
                G::recognises(self.0)
            }
        }
        self.visit(Recognises(line))
    }
}

impl GameName {
    /// The HTML report's view of case `case` of `input` under the rule set `rules` (empty for
    /// the default).
    pub fn board_view(self, rules: &str, input: &[u8], case: u64) -> Result<BoardView, JudgeError> {
        struct Draw<'a>(&'a str, &'a [u8], u64);
        impl Visitor for Draw<'_> {
            type Output = Result<BoardView, JudgeError>;
            fn visit<G: AnyGame>(self) -> Self::Output {
                let options = G::Options::from_name(self.0).unwrap_or_default();
                G::board_view(self.1, options, self.2)
            }
        }
        self.visit(Draw(rules, input, case))
    }

    /// The engine's verdicts on `input` under the rule set `rules` (empty for the default);
    /// `None` when it is not a valid input.
    pub fn verdicts(self, rules: &str, input: &[u8]) -> Option<Vec<String>> {
        struct Judge<'a>(&'a str, &'a [u8]);
        impl Visitor for Judge<'_> {
            type Output = Option<Vec<String>>;
            fn visit<G: AnyGame>(self) -> Self::Output {
                let options = G::Options::from_name(self.0).unwrap_or_default();
                let judgements = G::judge(Engine::Fast, &mut &self.1[..], options).ok()?;
                Some(judgements.iter().map(Judged::verdict).collect())
            }
        }
        self.visit(Judge(rules, input))
    }

    /// The byte ranges of the cases of a multi-case `input`, each a whole input of one case
    /// (see [`Forms::case_ranges`](crate::game::Forms::case_ranges)).
    pub fn case_ranges(self, input: &[u8]) -> Option<Vec<std::ops::Range<usize>>> {
        struct Cut<'a>(&'a [u8]);
        impl Visitor for Cut<'_> {
            type Output = Option<Vec<std::ops::Range<usize>>>;
            fn visit<G: AnyGame>(self) -> Self::Output {
                G::case_ranges(self.0)
            }
        }
        self.visit(Cut(input))
    }

    /// The game's script for the HTML report's replays (empty when it has none).
    pub fn report_script(self) -> &'static str {
        struct Script;
        impl Visitor for Script {
            type Output = &'static str;
            fn visit<G: AnyGame>(self) -> &'static str {
                G::REPORT_SCRIPT
            }
        }
        self.visit(Script)
    }
}

/// The game whose input starts with `line` (the first line that is not blank), or why none.
pub fn recognise(line: &[u8]) -> Result<GameName, RecogniseError> {
    if let Some(game) = ALL.into_iter().find(|g| g.recognises(line)) {
        return Ok(game);
    }
    Err(RecogniseError::NoGame {
        line: crate::util::error::describe_bytes(line),
    })
}

/// Why an input's game is not recognised.
#[derive(Debug, thiserror::Error)]
pub enum RecogniseError {
    /// Its first line is no game's.
    #[error(
        "not recognised: the first line {line} is none of: {}; pass --game",
        first_lines()
    )]
    NoGame {
        /// The first line, as messages show input.
        line: String,
    },
    /// It has no line but blank ones.
    #[error("empty input: no game to recognise")]
    Empty,
    /// It cannot be read.
    #[error("unreadable: {0}")]
    Unreadable(#[from] std::io::Error),
}

/// Each game's first line, as [`RecogniseError::NoGame`] lists them.
fn first_lines() -> String {
    let shapes: Vec<String> = ALL
        .iter()
        .map(|g| format!("{} ({})", g.info().first_line, g.as_str()))
        .collect();
    shapes.join(", ")
}

/// Every rule set name of any game, for `--rules` (values and defaults per game).
pub fn rule_sets_help() -> String {
    let parts: Vec<String> = ALL
        .iter()
        .filter(|g| !g.rule_sets().is_empty())
        .map(|g| {
            let names = g.rule_sets();
            format!(
                "{}: {} (default {})",
                g.as_str(),
                names.join(", "),
                names[0]
            )
        })
        .collect();
    parts.join("; ")
}

/// Checks a `--rules` value given without naming a game: some game must have that rule set.
pub fn check_rule_set_name(name: &str) -> Result<(), UnknownRuleSet> {
    if ALL.iter().any(|g| g.rule_sets().contains(&name)) {
        Ok(())
    } else {
        Err(UnknownRuleSet { name: name.into() })
    }
}

/// A `--rules` value of no game, given without naming a game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown rule set '{name}' ({})", rule_sets_help())]
pub struct UnknownRuleSet {
    /// The rule set asked for.
    pub name: String,
}

impl crate::util::error::RunRefusal for UnknownRuleSet {}

impl crate::util::error::RunRefusal for RecogniseError {}
