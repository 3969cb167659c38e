//! The programs of an audit: commands (`--cmd COMMAND`, named after the file they run, or
//! `--cmd NAME=COMMAND`), a table of them (`--programs FILE`), or a Kattis package's
//! `submissions/<class>/`, each built by the command of its language ([`LANGUAGES`]).
//!
//! The entrants named on the command line or in a table ([`mod@named`]), and those of a package,
//! built ([`build`]).

pub mod build;
pub mod named;

pub use build::{from_package, BuildError, Builder, Language, BUILD_MEMORY, LANGUAGES};
pub use named::{apart_from, from_commands, from_table, name_of, named, unique, valid_name};

use referee_sandbox::Program;

use crate::audit::terms::class::Class;
use crate::audit::terms::layout::Layout;

/// One program of a contest audit.
#[derive(Debug, Clone)]
pub struct Entrant {
    /// Its name: unique in the run, for reports (`CLASS/FILE` for a package's submission).
    pub name: String,
    /// Its class, when known.
    pub expected: Option<Class>,
    /// The program, or why it cannot be run (it did not build).
    pub program: Result<Program, BuildError>,
    /// The language it is written in, when known (a package's submission, or a table's
    /// `language` column).
    pub language: Option<String>,
}

impl Entrant {
    /// The name as one path component: its report directory under `programs/`.
    pub fn dir(&self) -> String {
        Layout::component(&self.name)
    }
}
