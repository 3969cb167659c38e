//! The contest: its programs ([`entrants`]), the strengthening of its data by their findings
//! ([`strengthen`]), and the reports of an audit's shards combined ([`merge`]).

pub mod entrants;
pub mod merge;
pub mod strengthen;
