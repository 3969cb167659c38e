//! Every path of an audit's report directory, relative to it, spelled here and nowhere else:
//!
//! ```text
//! programs.csv                           one line per program
//! audit.json                             the manifest and the typed report
//! programs/NAME/findings.csv             a program's findings (NAME: its name, `/` as `-`)
//! programs/NAME/STEM.in .ans .out .err   each finding's case, answer, output, standard error
//! tests/NNN.in .ans                      the strengthening cases, from 001
//! build/NAME/                            the package's submissions, built
//! ```

/// The report directory's paths (relative to it, `/`-separated).
pub struct Layout;

impl Layout {
    /// The programs table.
    pub const PROGRAMS: &'static str = "programs.csv";
    /// The manifest.
    pub const MANIFEST: &'static str = "audit.json";
    /// Each program's findings' file name, in its directory.
    pub const FINDINGS: &'static str = "findings.csv";
    /// The folder of the programs' directories.
    pub const PROGRAMS_DIR: &'static str = "programs";
    /// The folder of the strengthening cases.
    pub const TESTS_DIR: &'static str = "tests";
    /// The folder of the package's submissions, built.
    pub const BUILD_DIR: &'static str = "build";
    /// The names an audit's reports take in the directory: what replacing it may remove.
    pub const REPORTS: [&'static str; 5] = [
        Self::PROGRAMS,
        Self::MANIFEST,
        Self::PROGRAMS_DIR,
        Self::TESTS_DIR,
        Self::BUILD_DIR,
    ];

    /// A program's name as one path component: its directory under `programs/` and `build/`.
    pub fn component(name: &str) -> String {
        name.chars()
            .map(|c| if c == '/' { '-' } else { c })
            .collect()
    }

    /// The directory of program `name`.
    pub fn program_dir(name: &str) -> String {
        format!("{}/{}", Self::PROGRAMS_DIR, Self::component(name))
    }

    /// Program `name`'s findings table.
    pub fn findings(name: &str) -> String {
        format!("{}/{}", Self::program_dir(name), Self::FINDINGS)
    }

    /// The file `file` of program `name`'s directory (a finding's case, `STEM.in`).
    pub fn program_file(name: &str, file: &str) -> String {
        format!("{}/{file}", Self::program_dir(name))
    }

    /// The parts of a finding: its case, the reference's answer, the program's output and its
    /// standard error.
    pub const FINDING_PARTS: [&'static str; 4] = ["in", "ans", "out", "err"];
    /// The parts of a strengthening case.
    pub const TEST_PARTS: [&'static str; 2] = ["in", "ans"];

    /// Part `ext` (of [`FINDING_PARTS`](Self::FINDING_PARTS)) of program `name`'s finding
    /// whose files are named `stem`.
    pub fn finding(name: &str, stem: &str, ext: &str) -> String {
        format!("{}/{stem}.{ext}", Self::program_dir(name))
    }

    /// Strengthening case `k` (from 0)'s part `ext` (`in`, `ans`): `tests/001.in` for 0.
    pub fn test(k: usize, ext: &str) -> String {
        format!("{}/{:03}.{ext}", Self::TESTS_DIR, k + 1)
    }

    /// The other part `ext` of the strengthening case or finding whose case is `file`
    /// (`tests/001.in` -> `tests/001.ans`).
    pub fn sibling(file: &str, ext: &str) -> String {
        let stem = file.strip_suffix(".in").unwrap_or(file);
        format!("{stem}.{ext}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_paths_are_those_the_docs_draw() {
        assert_eq!(
            Layout::findings("accepted/a.c"),
            "programs/accepted-a.c/findings.csv"
        );
        assert_eq!(
            Layout::program_file("accepted/a.c", "pousse-case9.in"),
            "programs/accepted-a.c/pousse-case9.in"
        );
        assert_eq!(
            Layout::finding("a", "pousse-case9", "err"),
            "programs/a/pousse-case9.err"
        );
        assert_eq!(Layout::test(0, "in"), "tests/001.in");
        assert_eq!(Layout::test(11, "ans"), "tests/012.ans");
        assert_eq!(Layout::sibling("tests/001.in", "ans"), "tests/001.ans");
    }
}
