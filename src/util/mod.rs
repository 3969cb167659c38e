//! Helpers every layer may use and that know no game: errors ([`error`]), text ([`text`],
//! [`answer`]), walking trees and opening files safely ([`walk`], [`guard`]), the thread pool
//! and ordered results ([`pool`], [`ordered`]), hashing ([`hash`]), seeded randomness
//! ([`random`]), a hang guard ([`watchdog`]) and slices of a run ([`shard`]).

pub mod answer;
pub mod error;
pub mod guard;
pub mod hash;
pub mod ordered;
pub mod pool;
pub mod random;
pub mod shard;
pub mod text;
pub mod walk;
pub mod watchdog;
