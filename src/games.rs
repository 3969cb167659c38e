//! The games referee judges, and the one place that turns a game's name into its type.
//!
//! Every driver is generic over [`Game`]; where a game is chosen at run time (a command-line
//! argument, a file recognised by its content) the driver hands a [`Visitor`] to
//! [`GameName::visit`], which calls it with the game's type. Adding a game is one folder and
//! one line in each of the two lists below (see `docs/architecture.md`).

use crate::case::{Case, Knob};
use crate::game::{Game, RuleSet};
use crate::littlesquares::LittleSquares;
use crate::pousse::Pousse;
use crate::somegame::SomeGame;

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
    /// Does the work for game `G`.
    fn visit<G: Game>(self) -> Self::Output;
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

    /// The command-line spelling.
    pub fn as_str(self) -> &'static str {
        struct Name;
        impl Visitor for Name {
            type Output = &'static str;
            fn visit<G: Game>(self) -> &'static str {
                G::NAME
            }
        }
        self.visit(Name)
    }

    /// The game's rule set names, the default first (empty without rule sets).
    pub fn rule_sets(self) -> &'static [&'static str] {
        struct Names;
        impl Visitor for Names {
            type Output = &'static [&'static str];
            fn visit<G: Game>(self) -> Self::Output {
                G::Options::NAMES
            }
        }
        self.visit(Names)
    }

    /// The game's generator knobs.
    pub fn knobs(self) -> &'static [Knob] {
        struct Knobs;
        impl Visitor for Knobs {
            type Output = &'static [Knob];
            fn visit<G: Game>(self) -> Self::Output {
                <G::Case as Case>::KNOBS
            }
        }
        self.visit(Knobs)
    }

    /// What the first non-blank line of the game's input is.
    fn first_line(self) -> &'static str {
        struct FirstLine;
        impl Visitor for FirstLine {
            type Output = &'static str;
            fn visit<G: Game>(self) -> &'static str {
                G::FIRST_LINE
            }
        }
        self.visit(FirstLine)
    }

    /// Whether `line` (the first non-blank line of an input) starts this game's input.
    fn recognises(self, line: &[u8]) -> bool {
        struct Recognises<'a>(&'a [u8]);
        impl Visitor for Recognises<'_> {
            type Output = bool;
            fn visit<G: Game>(self) -> bool {
                G::recognises(self.0)
            }
        }
        self.visit(Recognises(line))
    }
}

/// The game whose input starts with `line` (the first line that is not blank), or why none.
pub fn recognise(line: &[u8]) -> Result<GameName, String> {
    if let Some(game) = ALL.into_iter().find(|g| g.recognises(line)) {
        return Ok(game);
    }
    let shapes: Vec<String> = ALL
        .iter()
        .map(|g| format!("{} ({})", g.first_line(), g.as_str()))
        .collect();
    Err(format!(
        "not recognised: the first line {} is none of: {}; pass --game",
        crate::error::describe_bytes(line),
        shapes.join(", ")
    ))
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
pub fn check_rule_set_name(name: &str) -> Result<(), String> {
    if ALL.iter().any(|g| g.rule_sets().contains(&name)) {
        Ok(())
    } else {
        Err(format!("unknown rule set '{name}' ({})", rule_sets_help()))
    }
}
