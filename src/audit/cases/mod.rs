//! The cases: the existing data read once ([`data`]), the form a program reads ([`probe`]) and
//! the units every program runs ([`plan`]).

pub mod data;
pub mod plan;
pub mod probe;
