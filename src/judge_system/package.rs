//! `referee package`: a Kattis problem package (format version 2023-07-draft) for a game, which
//! Kattis problemtools' `verifyproblem` accepts:
//!
//! ```text
//! DIR/problem.yaml
//! DIR/statement/problem.en.md          the game's statement (Markdown)
//! DIR/data/sample/NN-NAME.{in,ans}      the statement's examples
//! DIR/data/secret/NN-NAME.{in,ans}      edge cases, then seeded generated cases
//! DIR/data/testdata.yaml                the rule set, as the output validator's argument
//! DIR/input_validators/referee/         build + run scripts and the referee binary
//! DIR/output_validator/referee/         the same, running `referee check`
//! DIR/submissions/accepted/...          a correct solution
//! DIR/submissions/wrong_answer/...      solutions with a realistic bug
//! ```
//!
//! Every `.ans` is the engine's; every `.in` passes `referee validate --constraints contest`
//! and differs from every other (generated cases outside the contest's limits, or repeating an
//! earlier case, are drawn again). The package is written
//! beside DIR and put in its place at the end, so a failed run leaves any earlier one intact.
//! `DIR/referee-files.txt` lists every file referee wrote: a directory is replaced only when
//! every file in it is one of those (or with `force`), so no file referee did not write is
//! ever deleted unasked.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use super::validate::{validate, Constraints};
use crate::error::RunError;
use crate::game::{render, Case, Engine, Game, RuleSet};
use crate::knobs::Knobs;
use crate::problem::Content;
use crate::random::Rng;

/// How to write a package.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The package directory.
    pub out: PathBuf,
    /// The seed of the generated cases.
    pub seed: u64,
    /// How many generated cases.
    pub cases: usize,
    /// The problem's name, as shown to contestants (default: the game's).
    pub name: Option<String>,
    /// The referee binary the validators run (copied into the package).
    pub referee: PathBuf,
    /// Replace `out` even when it holds files referee did not write.
    pub force: bool,
}

/// The list of the files a package holds, one relative path per line, inside the package.
pub const PACKAGE_MANIFEST: &str = "referee-files.txt";

/// What was written.
#[derive(Debug, Clone)]
pub struct Written {
    /// Sample cases.
    pub samples: usize,
    /// Secret cases.
    pub secret: usize,
    /// Submissions.
    pub submissions: usize,
}

/// The most draws for one generated case inside the contest's limits.
const DRAWS: u64 = 1000;

/// Writes the package of `G` under `rules`.
pub fn write<G: Game>(settings: &Settings, rules: G::Options) -> Result<Written, RunError> {
    let content = G::package(rules)
        .ok_or_else(|| RunError::Usage(format!("{} has no problem package content", G::NAME)))?;
    let out = &settings.out;
    let short = dir_name(out);
    if short.is_empty()
        || !short
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
    {
        return Err(RunError::Usage(format!(
            "--out {}: the directory's name is the problem's short name, which Kattis wants of \
             lowercase letters and digits only (like {})",
            out.display(),
            short_name::<G>(rules)
        )));
    }
    if out.exists() && !settings.force {
        if let Some(foreign) = foreign_file(out).map_err(|e| RunError::io(out, e))? {
            return Err(RunError::Usage(format!(
                "--out {}: holds {}, which referee did not write; refusing to replace it \
                 (--force replaces it anyway)",
                out.display(),
                foreign
            )));
        }
    }
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let staging = parent.join(format!(
        ".{}.tmp-{}",
        out.file_name()
            .map_or("package".into(), |n| n.to_string_lossy().to_string()),
        std::process::id()
    ));
    let _ = fs::remove_dir_all(&staging);
    let written = write_into::<G>(&staging, settings, rules, &content)
        .and_then(|w| write_file_list(&staging).map(|()| w))
        .map_err(|e| RunError::io(&staging, e));
    let written = match written {
        Ok(w) => w,
        Err(e) => {
            let _ = fs::remove_dir_all(&staging);
            return Err(e);
        }
    };
    if out.exists() {
        fs::remove_dir_all(out).map_err(|e| RunError::io(out, e))?;
    }
    fs::rename(&staging, out).map_err(|e| RunError::io(out, e))?;
    Ok(written)
}

/// The files under `dir`, relative to it, `/`-separated and sorted (links not followed).
fn files_under(dir: &Path) -> io::Result<Vec<String>> {
    let mut files = Vec::new();
    for entry in walkdir::WalkDir::new(dir).sort_by_file_name() {
        let entry = entry.map_err(io::Error::other)?;
        if !entry.file_type().is_dir() {
            let rel = entry.path().strip_prefix(dir).unwrap_or(entry.path());
            files.push(crate::walk::display(rel));
        }
    }
    Ok(files)
}

/// Writes [`PACKAGE_MANIFEST`]: every file of the package in `dir`.
fn write_file_list(dir: &Path) -> io::Result<()> {
    let mut list = String::new();
    for file in files_under(dir)? {
        list.push_str(&file);
        list.push('\n');
    }
    fs::write(dir.join(PACKAGE_MANIFEST), list)
}

/// The first file under the existing directory `out` that its [`PACKAGE_MANIFEST`] does not
/// list (the directory itself when it has no list): `None` when referee wrote everything in
/// it.
fn foreign_file(out: &Path) -> io::Result<Option<String>> {
    if !out.is_dir() {
        return Ok(Some(crate::walk::display(out)));
    }
    let listed = match fs::read_to_string(out.join(PACKAGE_MANIFEST)) {
        Ok(text) => text,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Ok(files_under(out)?.into_iter().next())
        }
        Err(e) => return Err(e),
    };
    let listed: std::collections::HashSet<&str> = listed.lines().collect();
    Ok(files_under(out)?
        .into_iter()
        .find(|f| f != PACKAGE_MANIFEST && !listed.contains(f.as_str())))
}

/// A short name for the package of `G` under `rules`: the game's, with the rule set's letters
/// and digits when not the default.
fn short_name<G: Game>(rules: G::Options) -> String {
    let mut name = G::NAME.to_string();
    if rules != G::Options::default() {
        name.extend(rules.name().chars().filter(char::is_ascii_alphanumeric));
    }
    name
}

fn dir_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default()
}

/// A UUID (version 8, from the FNV hashes of `text`): the same name gives the same UUID.
fn uuid_of(text: &str) -> String {
    let a = crate::hash::fnv1a(text.as_bytes());
    let b = crate::hash::mix64(a ^ 0x9e37_79b9_7f4a_7c15);
    let hex = format!("{a:016x}{b:016x}");
    format!(
        "{}-{}-8{}-{}{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[13..16],
        ["8", "9", "a", "b"][(b & 3) as usize],
        &hex[17..20],
        &hex[20..32]
    )
}

fn write_file(path: &Path, bytes: &[u8]) -> io::Result<()> {
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir)?;
    }
    fs::write(path, bytes)
}

#[cfg(unix)]
fn make_executable(path: &Path) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(path, fs::Permissions::from_mode(0o755))
}

/// A directory program running the referee binary beside its scripts with `arguments`.
fn validator_program(dir: &Path, referee: &Path, arguments: &str) -> io::Result<()> {
    fs::create_dir_all(dir)?;
    fs::copy(referee, dir.join("referee"))?;
    make_executable(&dir.join("referee"))?;
    write_file(
        &dir.join("build"),
        b"#!/bin/sh\n# The validator is the referee binary beside this script: nothing to build.\nchmod +x referee\n",
    )?;
    write_file(
        &dir.join("run"),
        format!("#!/bin/sh\nexec \"$(dirname \"$0\")/referee\" {arguments}\n").as_bytes(),
    )?;
    make_executable(&dir.join("build"))?;
    make_executable(&dir.join("run"))
}

/// One case: its `.in` and the engine's `.ans`, after checking it against the contest's
/// limits.
fn write_case<G: Game>(dir: &Path, name: &str, input: &[u8], rules: G::Options) -> io::Result<()> {
    if let Err(why) = validate::<G>(input, rules, Constraints::Contest) {
        return Err(io::Error::other(format!(
            "the case {name} is not a valid contest input: {}",
            why.0
        )));
    }
    let judgements = G::judge(Engine::Fast, &mut &input[..], rules)
        .map_err(|e| io::Error::other(format!("{name}: {e}")))?;
    write_file(&dir.join(format!("{name}.in")), input)?;
    write_file(
        &dir.join(format!("{name}.ans")),
        render::<G>(&judgements).as_bytes(),
    )
}

fn write_into<G: Game>(
    dir: &Path,
    settings: &Settings,
    rules: G::Options,
    content: &Content,
) -> io::Result<Written> {
    let short = dir_name(&settings.out);
    let title = settings
        .name
        .clone()
        .unwrap_or_else(|| content.title.clone());
    let rules_arg = if rules.name().is_empty() {
        String::new()
    } else {
        format!(" --rules {}", rules.name())
    };
    write_file(
        &dir.join("problem.yaml"),
        format!(
            "problem_format_version: 2023-07-draft\n\
             name: {}\n\
             uuid: {}\n\
             source: {}\n\
             license: cc by-sa\n\
             rights_owner: the problem's organisers\n\
             keywords: [{}]\n",
            yaml_string(&title),
            uuid_of(&format!("{short}/{}", rules.name())),
            yaml_string(&content.source),
            yaml_string(&short),
        )
        .as_bytes(),
    )?;
    write_file(
        &dir.join("statement/problem.en.md"),
        content.statement.as_bytes(),
    )?;
    for (i, (name, input)) in content.samples.iter().enumerate() {
        write_case::<G>(
            &dir.join("data/sample"),
            &format!("{:02}-{name}", i + 1),
            input,
            rules,
        )?;
    }
    // Every case differs from every other (problemtools warns of identical inputs).
    let mut seen: std::collections::HashSet<Vec<u8>> = content
        .samples
        .iter()
        .map(|(_, input)| input.clone())
        .collect();
    let mut secret = 0;
    for (name, input) in &content.edge_cases {
        if !seen.insert(input.clone()) {
            return Err(io::Error::other(format!(
                "the edge case {name} repeats an earlier case"
            )));
        }
        secret += 1;
        write_case::<G>(
            &dir.join("data/secret"),
            &format!("{secret:03}-{name}"),
            input,
            rules,
        )?;
    }
    let shape = <G::Case as Case>::shape(&Knobs::default()).map_err(io::Error::other)?;
    for i in 0..settings.cases {
        let mut drawn = None;
        for draw in 0..DRAWS {
            let mut rng = Rng::for_item(settings.seed, (i as u64) * DRAWS + draw);
            let input = G::Case::generate(&mut rng, Some(rules), &shape).input();
            if !seen.contains(&input)
                && validate::<G>(&input[..], rules, Constraints::Contest).is_ok()
            {
                seen.insert(input.clone());
                drawn = Some(input);
                break;
            }
        }
        let Some(input) = drawn else {
            return Err(io::Error::other(format!(
                "no new generated case inside the contest's limits in {DRAWS} draws"
            )));
        };
        secret += 1;
        write_case::<G>(
            &dir.join("data/secret"),
            &format!("{secret:03}-generated-{}-{i}", settings.seed),
            &input,
            rules,
        )?;
    }
    if !rules.name().is_empty() {
        write_file(
            &dir.join("data/testdata.yaml"),
            format!("output_validator_flags: rules={}\n", rules.name()).as_bytes(),
        )?;
    }
    validator_program(
        &dir.join("input_validators/referee"),
        &settings.referee,
        &format!("validate {}{rules_arg} --constraints contest", G::NAME),
    )?;
    validator_program(
        &dir.join("output_validator/referee"),
        &settings.referee,
        &format!("check {}{rules_arg} \"$@\"", G::NAME),
    )?;
    for (verdict, file, source) in &content.submissions {
        write_file(
            &dir.join("submissions").join(verdict).join(file),
            source.as_bytes(),
        )?;
    }
    Ok(Written {
        samples: content.samples.len(),
        secret,
        submissions: content.submissions.len(),
    })
}

/// `text` as a double-quoted YAML string.
fn yaml_string(text: &str) -> String {
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uuids_are_stable_and_well_formed() {
        let u = uuid_of("pousse");
        assert_eq!(u, uuid_of("pousse"));
        assert_ne!(u, uuid_of("pousse-icfp98"));
        let parts: Vec<&str> = u.split('-').collect();
        assert_eq!(
            parts.iter().map(|p| p.len()).collect::<Vec<_>>(),
            [8, 4, 4, 4, 12]
        );
        assert!(parts[2].starts_with('8'));
        assert!("89ab".contains(&parts[3][..1]));
    }
}
