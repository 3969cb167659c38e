//! The words every room of audit shares: what went wrong in a run ([`kind`]), where a case
//! comes from ([`source`]), a program's class ([`class`]), one run against its expected output
//! ([`outcome`]), durations as seconds in reports ([`seconds`]) and the paths of the reports'
//! files ([`layout`]). It uses no other room of audit.

pub mod class;
pub mod kind;
pub mod layout;
pub mod outcome;
pub mod seconds;
pub mod source;

pub use class::Class;
pub use kind::Kind;
pub use source::Source;

/// What `audit` asks of a game: its reference (to confirm findings), its input forms (to probe
/// and run programs), its generated cases, and its contest's limits.
pub trait Auditable:
    crate::game::Referenced + crate::game::Forms + crate::game::Generated + crate::game::Packaged
{
}

impl<G> Auditable for G where
    G: crate::game::Referenced
        + crate::game::Forms
        + crate::game::Generated
        + crate::game::Packaged
{
}
