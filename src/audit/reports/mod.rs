//! The reports: what an audit found as typed values ([`audited`]), printed as its files
//! ([`report`]) and its HTML page ([`page`]), and where a finished audit goes ([`sink`]).

pub mod audited;
pub mod page;
pub mod report;
pub mod sink;
