//! The knobs of a game's case generator ([`crate::game::Case`]): settings given to `referee gen`
//! as `--NAME VALUE` (`referee gen pousse --n 8 --moves 1000`). Every knob left unset is drawn
//! at random from the distribution the harness uses, so the same generator gives fixed shapes to
//! `gen` and varied ones to `stress`.

use std::collections::BTreeMap;
use std::str::FromStr;

/// The most moves, squares or cells of one generated case: one case is built in memory, and
/// one this size takes hundreds of megabytes.
pub const MOST_UNITS: u64 = 100_000_000;

/// What a knob's value is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KnobKind {
    /// A whole number.
    Count,
    /// A number from 0 to 1.
    Fraction,
    /// A flag without value.
    Switch,
}

/// One setting of a generator, given to `referee gen` as `--NAME VALUE` (or `--NAME` for a
/// switch).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Knob {
    /// The flag's name, without `--`.
    pub name: &'static str,
    /// What it sets.
    pub help: &'static str,
    /// Its kind of value.
    pub kind: KnobKind,
}

impl Knob {
    /// A knob taking a whole number.
    pub const fn count(name: &'static str, help: &'static str) -> Knob {
        Knob {
            name,
            help,
            kind: KnobKind::Count,
        }
    }

    /// A knob taking a number from 0 to 1.
    pub const fn fraction(name: &'static str, help: &'static str) -> Knob {
        Knob {
            name,
            help,
            kind: KnobKind::Fraction,
        }
    }

    /// A flag without value.
    pub const fn switch(name: &'static str, help: &'static str) -> Knob {
        Knob {
            name,
            help,
            kind: KnobKind::Switch,
        }
    }
}

/// A knob given wrongly: which, and what it takes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KnobError {
    /// A word that is not `--NAME`.
    #[error("'{word}' is not a knob (--NAME)")]
    NotAKnob {
        /// The word.
        word: String,
    },
    /// A knob the game does not have.
    #[error("--{name} is not a knob of this game")]
    Unknown {
        /// The knob's name.
        name: String,
    },
    /// A knob given last, without its value.
    #[error("--{name} needs a value")]
    NoValue {
        /// The knob's name.
        name: String,
    },
    /// A count knob whose value is not a whole number.
    #[error("--{name} takes a whole number, not '{value}'")]
    NotAWholeNumber {
        /// The knob's name.
        name: String,
        /// Its value.
        value: String,
    },
    /// A fraction knob whose value is not a number from 0 to 1.
    #[error("--{name} takes a number from 0 to 1, not '{value}'")]
    NotAFraction {
        /// The knob's name.
        name: String,
        /// Its value.
        value: String,
    },
    /// A count knob of 0 that must be at least 1.
    #[error("--{name} must be at least 1")]
    Zero {
        /// The knob's name.
        name: String,
    },
    /// A count over its most: `why` says why not more.
    #[error("--{name} must be at most {most} ({why}), not {value}")]
    OverMost {
        /// The knob's name.
        name: String,
        /// The most it may be.
        most: u64,
        /// Why not more.
        why: String,
        /// Its value.
        value: u64,
    },
    /// A count outside the range a game allows.
    #[error("--{name} must be from {least} to {most}, not {value}")]
    OutOfRange {
        /// The knob's name.
        name: String,
        /// The least it may be.
        least: u64,
        /// The most it may be.
        most: u64,
        /// Its value.
        value: u64,
    },
    /// `--rows` and `--cols` whose product is over the most squares.
    #[error("--rows {rows} --cols {cols}: {} squares, over the {most} of {why}", rows * cols)]
    TooManySquares {
        /// `--rows`.
        rows: u64,
        /// `--cols`.
        cols: u64,
        /// The most squares.
        most: u64,
        /// Why not more.
        why: String,
    },
    /// A knob the game `game` does not have (`known` lists its knobs).
    #[error("--{name} does not shape {game} cases (its knobs: {})", if known.is_empty() { "none".to_string() } else { known.join(", ") })]
    NotThisGames {
        /// The knob's name.
        name: String,
        /// The game.
        game: &'static str,
        /// Its knobs, as `--NAME`.
        known: Vec<String>,
    },
}

/// The knob values given on the command line, by name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Knobs {
    values: BTreeMap<String, String>,
}

impl Knobs {
    /// Knobs from `(name, value)` pairs (a switch's value is `true`).
    pub fn new<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> Knobs {
        Knobs {
            values: pairs
                .into_iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        }
    }

    /// Knobs from command-line words (`--n 100 --undecided`), each one of `known`.
    pub fn from_words(words: &[&str], known: &[Knob]) -> Result<Knobs, KnobError> {
        let mut pairs = Vec::new();
        let mut it = words.iter();
        while let Some(word) = it.next() {
            let name = word.strip_prefix("--").ok_or_else(|| KnobError::NotAKnob {
                word: word.to_string(),
            })?;
            let knob = known
                .iter()
                .find(|k| k.name == name)
                .ok_or_else(|| KnobError::Unknown { name: name.into() })?;
            let value = match knob.kind {
                KnobKind::Switch => "true",
                _ => it
                    .next()
                    .ok_or_else(|| KnobError::NoValue { name: name.into() })?,
            };
            pairs.push((knob.name, value));
        }
        Ok(Knobs::new(pairs))
    }

    /// The names of the knobs given.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.values.keys().map(String::as_str)
    }

    /// The value of count knob `name`, if given.
    pub fn count<T: FromStr>(&self, name: &str) -> Result<Option<T>, KnobError> {
        self.values
            .get(name)
            .map(|v| {
                crate::util::text::whole_number(v)
                    .and_then(|n| n.to_string().parse().ok())
                    .ok_or_else(|| KnobError::NotAWholeNumber {
                        name: name.into(),
                        value: v.clone(),
                    })
            })
            .transpose()
    }

    /// The value of count knob `name`, if given, which must be at least 1.
    pub fn positive<T: FromStr + PartialOrd + From<u8>>(
        &self,
        name: &str,
    ) -> Result<Option<T>, KnobError> {
        match self.count::<T>(name)? {
            Some(v) if v < T::from(1) => Err(KnobError::Zero { name: name.into() }),
            v => Ok(v),
        }
    }

    /// The value of count knob `name`, if given, which must be from 1 to `most`: `what` says
    /// why not more.
    pub fn within(&self, name: &str, most: u64, what: &str) -> Result<Option<u64>, KnobError> {
        match self.positive::<u64>(name)? {
            Some(value) if value > most => Err(KnobError::OverMost {
                name: name.into(),
                most,
                why: what.into(),
                value,
            }),
            v => Ok(v),
        }
    }

    /// The knobs `rows` and `cols`, if given: together at most [`MOST_UNITS`] squares.
    pub fn grid(&self) -> Result<(Option<u64>, Option<u64>), KnobError> {
        let what = "the squares of a case gen can hold";
        let (rows, cols) = (
            self.within("rows", MOST_UNITS, what)?,
            self.within("cols", MOST_UNITS, what)?,
        );
        if let (Some(r), Some(c)) = (rows, cols) {
            if r * c > MOST_UNITS {
                return Err(KnobError::TooManySquares {
                    rows: r,
                    cols: c,
                    most: MOST_UNITS,
                    why: what.into(),
                });
            }
        }
        Ok((rows, cols))
    }

    /// The value of fraction knob `name`, if given.
    pub fn fraction(&self, name: &str) -> Result<Option<f64>, KnobError> {
        self.values
            .get(name)
            .map(|v| match v.parse::<f64>() {
                Ok(f) if (0.0..=1.0).contains(&f) => Ok(f),
                _ => Err(KnobError::NotAFraction {
                    name: name.into(),
                    value: v.clone(),
                }),
            })
            .transpose()
    }

    /// Whether switch `name` is on.
    pub fn switch(&self, name: &str) -> bool {
        self.values.contains_key(name)
    }
}

impl crate::util::error::RunRefusal for KnobError {}
