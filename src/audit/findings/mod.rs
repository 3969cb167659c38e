//! The findings: a failure from its run to its finding ([`failure`]), examined until it is one
//! ([`settle`]): narrowed to a case that fails alone ([`narrow`]) and shrunk ([`shrink`]); what stands
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
pub(crate) mod narrow;
#[cfg(target_os = "linux")]
pub(crate) mod settle;
#[cfg(target_os = "linux")]
pub(crate) mod shrink;
pub mod verdict;
