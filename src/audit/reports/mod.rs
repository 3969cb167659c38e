//! The reports: what an audit found as typed values ([`audited`]), printed as its files
//! ([`report`]) and its HTML page ([`page`]) at the paths of [`layout`], durations as seconds
//! ([`seconds`]), and where a finished audit goes ([`sink`]).

pub mod audited;
pub mod layout;
pub mod page;
pub mod report;
pub mod seconds;
pub mod sink;
