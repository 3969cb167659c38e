//! A game's random test case: generated from an [`Entropy`], written as contest input, and
//! shrunk. Each game has exactly one generator; `referee gen`, `referee stress`, `referee
//! audit`, the fuzz targets (through [`Fuzzed`]) and the property tests all draw from it.
//!
//! A generator is steered by its *knobs* (`referee gen pousse --n 8 --moves 1000`): every knob
//! left unset is drawn at random from the distribution the harness uses, so the same generator
//! gives fixed shapes to `gen` and varied ones to `stress`.

use std::collections::BTreeMap;
use std::fmt::Debug;
use std::str::FromStr;

use crate::game::Game;
use crate::random::Entropy;

/// A random, shrinkable case of one game.
pub trait Case: Clone + Debug + Send + Sync + 'static {
    /// The game.
    type Game: Game<Case = Self>;
    /// The generator's settings, read from the knobs; the default leaves every choice random.
    type Shape: Clone + Debug + Default + Send + Sync;
    /// The knobs of [`Self::Shape`].
    const KNOBS: &'static [Knob];

    /// The shape asked for by `knobs` (only this game's knobs are present).
    fn shape(knobs: &Knobs) -> Result<Self::Shape, String>;

    /// A random case of `shape`, under `options` (a random rule set when `None`).
    fn generate(
        entropy: &mut dyn Entropy,
        options: Option<<Self::Game as Game>::Options>,
        shape: &Self::Shape,
    ) -> Self;

    /// The rule set the case is judged under.
    fn options(&self) -> <Self::Game as Game>::Options;

    /// The case as input, in the game's contest format.
    fn input(&self) -> Vec<u8>;

    /// Smaller variants of the case, most promising first: fewer moves, a smaller board, fewer
    /// rows and columns, simpler values.
    fn shrink(&self) -> Vec<Self>;
}

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

    /// The names of the knobs given.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.values.keys().map(String::as_str)
    }

    /// The value of count knob `name`, if given.
    pub fn count<T: FromStr>(&self, name: &str) -> Result<Option<T>, String> {
        self.values
            .get(name)
            .map(|v| {
                v.parse()
                    .map_err(|_| format!("--{name} takes a whole number, not '{v}'"))
            })
            .transpose()
    }

    /// The value of fraction knob `name`, if given.
    pub fn fraction(&self, name: &str) -> Result<Option<f64>, String> {
        self.values
            .get(name)
            .map(|v| match v.parse::<f64>() {
                Ok(f) if (0.0..=1.0).contains(&f) => Ok(f),
                _ => Err(format!("--{name} takes a number from 0 to 1, not '{v}'")),
            })
            .transpose()
    }

    /// Whether switch `name` is on.
    pub fn switch(&self, name: &str) -> bool {
        self.values.contains_key(name)
    }

    /// Checks that every knob given is one of `G`'s.
    pub fn check_for<G: Game>(&self) -> Result<(), String> {
        let known = <G::Case as Case>::KNOBS;
        match self.names().find(|n| known.iter().all(|k| k.name != *n)) {
            None => Ok(()),
            Some(name) => {
                let names: Vec<String> = known.iter().map(|k| format!("--{}", k.name)).collect();
                Err(format!(
                    "--{name} does not shape {} cases (its knobs: {})",
                    G::NAME,
                    if names.is_empty() {
                        "none".to_string()
                    } else {
                        names.join(", ")
                    }
                ))
            }
        }
    }
}

/// A case decoded from a fuzzer's bytes by the game's one generator: the cargo-fuzz targets'
/// `Arbitrary` input.
#[derive(Debug, Clone)]
pub struct Fuzzed<C>(pub C);

impl<'a, C: Case> arbitrary::Arbitrary<'a> for Fuzzed<C> {
    fn arbitrary(u: &mut arbitrary::Unstructured<'a>) -> arbitrary::Result<Fuzzed<C>> {
        Ok(Fuzzed(C::generate(u, None, &C::Shape::default())))
    }
}
