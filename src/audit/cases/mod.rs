//! The cases: the existing data read once ([`data`]), the form a program reads ([`probe`]), the
//! units every program runs ([`plan`]) and their schedule across the programs ([`schedule`]);
//! which case of a failing run fails alone ([`narrow`]) and shrinking it ([`shrink`]).

pub mod data;
pub(crate) mod narrow;
pub mod plan;
pub mod probe;
pub(crate) mod schedule;
pub(crate) mod shrink;
