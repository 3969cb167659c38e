//! What a game's problem package holds besides the judged data: its statement, examples, edge
//! cases and solutions ([`Packaged::package`](crate::game::Packaged::package)); `judge_system::package` writes it out.

/// What a game puts in its package.
#[derive(Debug, Clone, Default)]
pub struct Content {
    /// The problem's name.
    pub title: String,
    /// Where the problem comes from (`source` in problem.yaml).
    pub source: String,
    /// The statement's Markdown, without the title (problemtools adds the samples).
    pub statement: String,
    /// The statement's examples: a name and the input.
    pub samples: Vec<(String, Vec<u8>)>,
    /// Hand-made edge cases: a name and the input.
    pub edge_cases: Vec<(String, Vec<u8>)>,
    /// Solutions: the expected verdict directory (`accepted`, `wrong_answer`), a file name and
    /// its source.
    pub submissions: Vec<(String, String, String)>,
    /// The package's seeded random cases: each rule's shape, taken in turn.
    pub generator_rules: Vec<GeneratorRule>,
}

/// A kind of random case in a package: `referee gen` with these knobs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeneratorRule {
    /// Its name, in the cases' names (`017-largest-board`).
    pub name: &'static str,
    /// The knobs, as `referee gen` takes them (`--n 100`); empty for the generator's own mix.
    pub knobs: &'static str,
    /// What it is for, in the package's generators.yaml.
    pub purpose: &'static str,
}
