//! Where a case comes from.

/// Where a case comes from. Ordered as reports list findings: the statement's examples, then
/// the input files in their sorted order, then random cases by index.
#[derive(
    Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(tag = "from", rename_all = "kebab-case")]
pub enum Source {
    /// One of the problem statement's own examples ([`Forms::PROBES`](crate::game::Forms::PROBES)): case
    /// `case` (1-based) of the `of` examples.
    Example {
        /// The example, from 1.
        case: usize,
        /// The examples.
        of: usize,
    },
    /// The problem statement's examples together, as the probe runs them.
    Examples,
    /// Case `case` (1-based) of the `of` cases of an input file, the file at `position` in the
    /// sorted list of every input file.
    File {
        /// Its place among every input file.
        position: usize,
        /// The file's name.
        name: String,
        /// The case within it, from 1.
        case: usize,
        /// The cases it holds.
        of: usize,
    },
    /// A random case (its number).
    Random {
        /// The case's number in the seed's stream.
        index: u64,
    },
}

impl Source {
    /// In words, for the detail column.
    pub fn describe(&self) -> String {
        match self {
            Source::Example { case, of } => format!("the statement's example ({case} of {of})"),
            Source::Examples => "the statement's examples".into(),
            Source::File { name, of: 1, .. } => format!("input file {name}"),
            Source::File { name, case, of, .. } => {
                format!("case {case} of {of} of input file {name}")
            }
            Source::Random { index } => format!("random case {index}"),
        }
    }

    /// The `case` column of `findings.csv`: `example K`, `file NAME` (`file NAME#K` for case K
    /// of several) or `random INDEX`.
    pub fn column(&self) -> String {
        match self {
            Source::Example { case, .. } => format!("example {case}"),
            Source::Examples => "examples".into(),
            Source::File { name, of: 1, .. } => format!("file {name}"),
            Source::File { name, case, .. } => format!("file {name}#{case}"),
            Source::Random { index } => format!("random {index}"),
        }
    }

    /// The stem of the finding's files: unique within a run and across the shards of one.
    pub fn stem(&self, game: &str, suffix: &str) -> String {
        match self {
            Source::Example { case, .. } => format!("{game}-example{case}{suffix}"),
            Source::Examples => format!("{game}-examples{suffix}"),
            Source::File {
                position, of: 1, ..
            } => format!("{game}-input{position}{suffix}"),
            Source::File { position, case, .. } => {
                format!("{game}-input{position}-case{case}{suffix}")
            }
            Source::Random { index } => format!("{game}-case{index}{suffix}"),
        }
    }
}
