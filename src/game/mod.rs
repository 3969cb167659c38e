//! The one interface every driver (judge, verify, grade, gen, stress, audit, fuzz, bench) is
//! written against: a game ([`Game`]), judged by either implementation ([`Engine`]), with its
//! rule sets ([`RuleSet`]) and its random cases ([`Case`]). A game is one folder under `src/` implementing [`Game`]; nothing outside that folder
//! knows its details, and [`crate::games`] is the one place that lists the games.
//!
//! Its files: the trait and its facets ([`facets`]), engines, forms and limits ([`form`]), random
//! cases ([`case`]), the contest's output ([`output`]); a game's knobs ([`knobs`]), problem
//! statement ([`problem`]), pictures ([`view`]) and corruptions of inputs ([`corrupt`]).

pub mod case;
pub mod corrupt;
pub mod facets;
pub mod form;
pub mod knobs;
pub mod output;
pub mod problem;
pub mod view;

pub use case::*;
pub use facets::*;
pub use form::*;
pub use output::*;
pub use referee_reference::cases::{Case as ReferenceCase, Stop as ReferenceStop};

use std::fmt::Debug;
use std::hash::Hash;
use std::io::Read;

use crate::game::knobs::{Knob, KnobError, Knobs};
use crate::game::view::{BoardView, DrawRequest};
use crate::util::error::JudgeError;
use crate::util::random::Entropy;
