//! Running the programs: every run of an audit through its [`runner::Runner`] (counted, held to
//! the time limit, cut at the deadline or on interruption), and how `--time` is shared between
//! the audit's stages ([`deadlines`]).

pub mod deadlines;
pub mod runner;
