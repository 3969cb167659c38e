//! Pousse's rule sets: what ends a game, and their command-line names.

use std::fmt;
use std::str::FromStr;

use crate::game::RuleSet;

/// Which events end a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Rules {
    /// Straights only (the judging problem, UVa 844).
    #[default]
    Waterloo,
    /// Straights, and a move that repeats an earlier configuration (board contents plus side
    /// to move) makes the mover lose.
    Icfp98,
    /// As `Icfp98`, but a configuration is the board contents alone.
    Icfp98Board,
}

impl Rules {
    /// Every rule set, in documentation order.
    pub const ALL: [Rules; 3] = [Rules::Waterloo, Rules::Icfp98, Rules::Icfp98Board];

    /// The command-line name of the rule set.
    pub fn name(self) -> &'static str {
        match self {
            Rules::Waterloo => "waterloo",
            Rules::Icfp98 => "icfp98",
            Rules::Icfp98Board => "icfp98-board",
        }
    }

    /// Whether repeating a configuration ends the game.
    pub fn forbids_repetition(self) -> bool {
        self != Rules::Waterloo
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Rules {
    type Err = crate::game::RulesError;
    fn from_str(s: &str) -> Result<Rules, crate::game::RulesError> {
        Rules::from_name(s).ok_or_else(|| crate::game::RulesError::Unknown {
            game: "pousse",
            name: s.into(),
            known: <Rules as RuleSet>::NAMES,
        })
    }
}

impl RuleSet for Rules {
    const NAMES: &'static [&'static str] = &["waterloo", "icfp98", "icfp98-board"];

    fn from_name(name: &str) -> Option<Rules> {
        Rules::ALL.into_iter().find(|r| r.name() == name)
    }

    fn name(self) -> &'static str {
        Rules::name(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_the_default_comes_first() {
        for (rules, name) in Rules::ALL.into_iter().zip(<Rules as RuleSet>::NAMES) {
            assert_eq!(rules.name(), *name);
            assert_eq!(name.parse::<Rules>(), Ok(rules));
        }
        assert_eq!(<Rules as RuleSet>::NAMES[0], Rules::default().name());
        assert!("ICFP98".parse::<Rules>().is_err());
    }
}
