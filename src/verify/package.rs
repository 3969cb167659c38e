//! `verify` on Kattis problem packages: a directory given to `verify` that holds `problem.yaml`
//! is a package. Its `data/sample` and `data/secret` cases are verified as any others, under the
//! rule set named by the output validator's arguments in its yaml files (`validator_flags` in
//! `problem.yaml`, `output_validator_flags` or `output_validator_args` in `data/testdata.yaml`
//! or `data/test_group.yaml`), which also set the layout outputs are checked with;
//! every `data/invalid_input/*.in` must be refused by the contest's input validator (a refusal
//! is an `ok` row, an acceptance an `expected-mismatch`); each `.out` under `data/valid_output`
//! and `data/invalid_output` must be accepted, or not accepted, by the output validator.
//!
//! Only the directories given on the command line are looked at for `problem.yaml`: nothing
//! above them is read.

use std::path::{Path, PathBuf};

use yaml_rust2::Yaml;

use crate::formats::{Row, Status};
use crate::game::Packaged;
use crate::game::{Game, RuleSet};
use crate::games::GameName;
use crate::judge_system::check::{check, Decision, Layout};
use crate::judge_system::validate::{validate, Constraints};
use crate::util::walk::{display, CaseFile};

/// A package among the paths given to `verify`.
#[derive(Debug, Clone)]
pub struct Package {
    /// Its directory.
    pub root: PathBuf,
    /// The rule set its validator arguments name, if any.
    pub rules: Option<String>,
    /// The output's layout its validator arguments ask for.
    pub layout: Layout,
}

/// What a file is in its package.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// A test case (`data/sample`, `data/secret`, ...).
    Case,
    /// An input every input validator must refuse.
    InvalidInput,
    /// A case whose `.out` must be accepted.
    ValidOutput,
    /// A case whose `.out` must not be accepted.
    InvalidOutput,
}

/// The packages among `paths`.
pub fn find(paths: &[PathBuf]) -> Vec<Package> {
    paths
        .iter()
        .filter(|p| p.join("problem.yaml").is_file())
        .map(|root| {
            let arguments = validator_arguments(root);
            Package {
                root: root.clone(),
                rules: crate::judge_system::rules_in(&arguments),
                layout: Layout::from_arguments(&arguments),
            }
        })
        .collect()
}

/// The output validator's arguments in `root`'s yaml files, in every format version.
fn validator_arguments(root: &Path) -> Vec<String> {
    let mut arguments = Vec::new();
    let words = |y: &Yaml| -> Vec<String> {
        match y {
            Yaml::String(s) => s.split_whitespace().map(str::to_string).collect(),
            Yaml::Array(a) => a
                .iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect(),
            _ => Vec::new(),
        }
    };
    if let Some(y) = crate::judge_system::problem_yaml::read(&root.join("problem.yaml")) {
        arguments.extend(words(&y["validator_flags"]));
        arguments.extend(words(&y["validation"]["args"]));
    }
    for name in ["data/testdata.yaml", "data/test_group.yaml"] {
        if let Some(y) = crate::judge_system::problem_yaml::read(&root.join(name)) {
            arguments.extend(words(&y["output_validator_flags"]));
            arguments.extend(words(&y["output_validator_args"]));
        }
    }
    arguments
}

/// The package `file` lies in, and its role there.
pub fn place<'a>(packages: &'a [Package], file: &CaseFile) -> Option<(&'a Package, Role)> {
    packages.iter().find_map(|p| {
        let relative = file.path.strip_prefix(&p.root).ok()?;
        let mut parts = relative
            .components()
            .map(|c| c.as_os_str().to_string_lossy());
        let role = match (parts.next().as_deref(), parts.next().as_deref()) {
            (Some("data"), Some("invalid_input")) => Role::InvalidInput,
            (Some("data"), Some("valid_output")) => Role::ValidOutput,
            (Some("data"), Some("invalid_output")) => Role::InvalidOutput,
            _ => Role::Case,
        };
        Some((p, role))
    })
}

/// The row of an input of `data/invalid_input`, which the contest's validator must refuse.
pub fn invalid_input_row<G: Game + Packaged>(file: &CaseFile, rules: G::Options) -> Row {
    let mut row = Row {
        file: file.name.clone(),
        game: G::NAME.to_string(),
        rules: rules.name().to_string(),
        ..Row::default()
    };
    let refused = crate::util::guard::open_regular(&file.path)
        .map_err(|e| e.to_string())
        .map(|f| {
            validate::<G>(
                crate::util::text::Bounded::new(f, 1 << 34),
                rules,
                Constraints::Contest,
            )
        });
    match refused {
        Ok(Err(why)) => {
            row.status = Some(Status::Ok);
            row.detail = format!("refused as it must be: {}", why.0);
        }
        Ok(Ok(cases)) => {
            row.status = Some(Status::ExpectedMismatch);
            row.detail = format!(
                "data/invalid_input: the contest's input validator accepts this input ({cases} cases)"
            );
        }
        Err(e) => {
            row.status = Some(Status::InvalidInput);
            row.detail = format!("unreadable: {e}");
        }
    }
    row
}

/// The row of the `.out` beside `file` in `data/valid_output` (`must_accept`) or
/// `data/invalid_output`.
pub fn output_row<G: Game>(
    file: &CaseFile,
    rules: G::Options,
    layout: Layout,
    must_accept: bool,
) -> Row {
    let out = file.path.with_extension("out");
    let answer = file.path.with_extension("ans");
    let mut row = Row {
        file: display(&out),
        game: G::NAME.to_string(),
        rules: rules.name().to_string(),
        ..Row::default()
    };
    // The answer and the output are read only as regular files inside the package's tree.
    let guarded = |path: &Path| match crate::util::guard::open(path, &file.tree, u64::MAX) {
        Ok(Some(opened)) => Ok(opened.file),
        Ok(None) => Err(std::io::Error::new(
            std::io::ErrorKind::NotFound,
            format!("{}: no such file", display(path)),
        )),
        Err(why) => Err(std::io::Error::other(why)),
    };
    let decided = guarded(&answer)
        .and_then(|_| guarded(&out))
        .and_then(|team| check::<G>(&file.path, &answer, team, rules, layout));
    let (status, detail) = match decided {
        Err(e) => (Status::InvalidInput, format!("unreadable: {e}")),
        Ok(Decision::JudgeError(why)) => (
            Status::EngineReferenceMismatch,
            format!("judge error: {why}"),
        ),
        Ok(Decision::Accepted) if must_accept => (Status::Ok, "accepted as it must be".into()),
        Ok(Decision::Accepted) => (
            Status::ExpectedMismatch,
            "data/invalid_output: the output validator accepts this output".into(),
        ),
        Ok(Decision::Rejected { message, .. }) if must_accept => (
            Status::ExpectedMismatch,
            format!("data/valid_output: the output validator rejects this output: {message}"),
        ),
        Ok(Decision::Rejected { message, .. }) => {
            (Status::Ok, format!("rejected as it must be: {message}"))
        }
    };
    row.status = Some(status);
    row.detail = detail;
    row
}

/// The game named in a package's `problem.yaml` keywords, if any.
pub fn game_of(package: &Package) -> Option<GameName> {
    let y = crate::judge_system::problem_yaml::read(&package.root.join("problem.yaml"))?;
    let keywords: Vec<String> = match &y["keywords"] {
        Yaml::Array(a) => a
            .iter()
            .filter_map(|v| v.as_str().map(str::to_string))
            .collect(),
        Yaml::String(s) => s.split_whitespace().map(str::to_string).collect(),
        _ => Vec::new(),
    };
    crate::games::ALL
        .into_iter()
        .find(|g| keywords.iter().any(|k| k.starts_with(g.as_str())))
}
