//! The findings: what one run means against the expected output ([`outcome`]), a failure from
//! its run to its finding ([`failure`]), examined until it is one ([`settle`]), what stands
//! behind it ([`evidence`], [`confirm`]), a program's findings ([`finding`]), and what the audit
//! says of each program and of the data ([`verdict`]).

#[cfg(target_os = "linux")]
pub mod confirm;
#[cfg(target_os = "linux")]
pub mod evidence;
#[cfg(target_os = "linux")]
pub mod failure;
#[cfg(target_os = "linux")]
pub mod finding;
#[cfg(target_os = "linux")]
pub mod outcome;
#[cfg(target_os = "linux")]
pub(crate) mod settle;
pub mod verdict;
