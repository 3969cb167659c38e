//! The programs named on the command line (`--cmd COMMAND`, named after the file they run, or
//! `--cmd NAME=COMMAND`) or in a table (`--programs FILE`).

use std::path::{Path, PathBuf};

use super::{BuildError, Entrant};
use crate::audit::terms::Class;
use crate::util::error::RunError;
use referee_sandbox::{CommandError, Program};

/// Whether `name` can name a program: letters, digits, `.`, `_`, `-` (and `/` inside, for a
/// package's `CLASS/FILE`), not starting with a dot, at most 100 bytes.
pub fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 100
        && !name.starts_with('.')
        && !name.ends_with('/')
        && !name.contains("//")
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._-/".contains(&b))
        && name.split('/').all(|part| !part.starts_with('.'))
}

/// `NAME=COMMAND` split, when the text before the first `=` is a valid name without `/`.
pub fn named(spec: &str) -> Option<(String, String)> {
    let (name, command) = spec.split_once('=')?;
    (valid_name(name) && !name.contains('/')).then(|| (name.to_string(), command.to_string()))
}

/// The name of a bare command: the file name of what it runs, the last of its words that names
/// a file (`python3 judge.py`: `judge.py`), else its first word (`./judge`: `judge`), as a
/// valid name (other characters as `-`).
pub fn name_of(program: &Program) -> String {
    let argv = program.words();
    let word = argv
        .iter()
        .rev()
        .find(|w| Path::new(w).is_file())
        .unwrap_or(&argv[0]);
    let file = Path::new(word)
        .file_name()
        .map_or(word.clone(), |n| n.to_string_lossy().to_string());
    sanitized(&file, "program")
}

/// `file` as a valid name ([`valid_name`]): each character but ASCII letters, digits, `.`, `_`
/// and `-` as `-`, at most 90 of them, no leading dot; `fallback` when nothing is left.
pub(super) fn sanitized(file: &str, fallback: &str) -> String {
    let name: String = file
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._-".contains(c) {
                c
            } else {
                '-'
            }
        })
        .take(90)
        .collect();
    match name.trim_start_matches('.') {
        "" => fallback.to_string(),
        name => name.to_string(),
    }
}

/// `base`, or when `taken` says it is another's, the first of `base-2`, `base-3`, ... that is
/// not.
pub(super) fn first_free(base: &str, taken: impl Fn(&str) -> bool) -> String {
    (1..)
        .map(|k| match k {
            1 => base.to_string(),
            k => format!("{base}-{k}"),
        })
        .find(|name| !taken(name))
        .expect("a free name")
}

/// Whether `program`'s own files ([`Program::own_files`]: what its command names, a script's
/// directory) keep apart from `protected` (real paths): none may be, hold or lie in one,
/// compared by real path (links and `..` resolved).
pub fn apart_from(program: &Program, protected: &[PathBuf]) -> Result<(), BuildError> {
    for own in &program.own_files() {
        let real = crate::formats::write::real_path(own);
        if let Some(q) = protected
            .iter()
            .find(|q| real.starts_with(q) || q.starts_with(&real))
        {
            return Err(BuildError::Protected {
                own: own.clone(),
                protected: q.clone(),
            });
        }
    }
    Ok(())
}

/// The entrants of `--cmd` values: each `NAME=COMMAND`, or a bare command named after what it
/// runs ([`name_of`]; a name already taken gets `-2`, `-3`, ...).
pub fn from_commands(specs: &[String]) -> Result<Vec<Entrant>, RunError> {
    let mut entrants: Vec<Entrant> = Vec::new();
    let taken: Vec<String> = specs.iter().filter_map(|s| named(s)).map(|n| n.0).collect();
    for spec in specs {
        let (name, command) = match named(spec) {
            Some(named) => named,
            None => (String::new(), spec.clone()),
        };
        let program = Program::parse(&command).map_err(|source| EntrantError::Command {
            spec: spec.clone(),
            source,
        })?;
        let name = if name.is_empty() {
            first_free(&name_of(&program), |n| {
                taken.iter().any(|t| t == n) || entrants.iter().any(|e| e.dir() == n)
            })
        } else {
            name
        };
        entrants.push(Entrant {
            name,
            expected: None,
            program: Ok(program),
            language: None,
        });
    }
    unique(entrants)
}

/// The entrants of a table (CSV with a header): `name`, `command`, and optionally `expected`
/// (a class of [`Class::ALL`]) and `language` (a name, for the limits' advice). Errors name the
/// file and the line ([`TableError`]).
pub fn from_table(path: &Path) -> Result<Vec<Entrant>, RunError> {
    let shown = crate::util::walk::display(path);
    let file = crate::util::guard::open_regular(path).map_err(|e| RunError::io(path, e))?;
    let mut reader = csv::ReaderBuilder::new()
        .flexible(false)
        .from_reader(std::io::Read::take(file, 16 << 20));
    let csv_error = |source| TableError::Csv {
        file: shown.clone(),
        source,
    };
    let header = reader.headers().map_err(csv_error)?.clone();
    let column = |name: &str| header.iter().position(|h| h.trim() == name);
    let (Some(name_at), Some(command_at)) = (column("name"), column("command")) else {
        return Err(TableError::Header {
            file: shown,
            found: header.iter().collect::<Vec<_>>().join(","),
        }
        .into());
    };
    let expected_at = column("expected");
    let language_at = column("language");
    let mut entrants = Vec::new();
    for record in reader.records() {
        let record = record.map_err(csv_error)?;
        let line = record.position().map_or(0, |p| p.line());
        let at = |why: RowError| TableError::Row {
            file: shown.clone(),
            line,
            why,
        };
        let name = record.get(name_at).unwrap_or("").trim().to_string();
        if !valid_name(&name) || name.contains('/') {
            return Err(at(RowError::Name(name)).into());
        }
        let command = record.get(command_at).unwrap_or("");
        let program = Program::parse(command).map_err(|e| at(RowError::Command(e)))?;
        let expected = match expected_at.map(|i| record.get(i).unwrap_or("").trim()) {
            None | Some("") => None,
            Some(text) => {
                Some(Class::parse(text).ok_or_else(|| at(RowError::Class(text.to_string())))?)
            }
        };
        let language = language_at
            .and_then(|i| record.get(i))
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(str::to_string);
        entrants.push(Entrant {
            name,
            expected,
            program: Ok(program),
            language,
        });
    }
    if entrants.is_empty() {
        return Err(TableError::Empty { file: shown }.into());
    }
    unique(entrants)
}

/// Why the entrants given cannot be audited.
#[derive(Debug, thiserror::Error)]
pub enum EntrantError {
    /// A `--cmd` value names no program.
    #[error("--cmd {spec}: {source}")]
    Command {
        /// The value.
        spec: String,
        /// Why.
        source: CommandError,
    },
    /// Two entrants would share a report directory.
    #[error("two programs are named {0}: names must differ")]
    SameName(String),
    /// A package's `submissions/` holds no submission.
    #[error("{0}: no submission in any class folder")]
    NoSubmission(String),
}

impl crate::util::error::RunRefusal for EntrantError {}

/// Why a `--programs` table cannot be read. Lines count from 1, the header being line 1.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    /// Not CSV, or a row of another width (the CSV reader's message says where).
    #[error("{file}: {source}")]
    Csv {
        /// The table, as shown.
        file: String,
        /// The reader's error.
        source: csv::Error,
    },
    /// The header lacks `name` or `command`.
    #[error(
        "{file}:1: the header must name the columns `name` and `command` (and optionally \
         `expected`), found: {found}"
    )]
    Header {
        /// The table, as shown.
        file: String,
        /// The header's columns, as read.
        found: String,
    },
    /// A row says something wrong.
    #[error("{file}:{line}: {why}")]
    Row {
        /// The table, as shown.
        file: String,
        /// The row's line.
        line: u64,
        /// What is wrong.
        why: RowError,
    },
    /// No row.
    #[error("{file}: no program listed")]
    Empty {
        /// The table, as shown.
        file: String,
    },
}

impl crate::util::error::RunRefusal for TableError {}

/// What is wrong with a row of a `--programs` table.
#[derive(Debug, thiserror::Error)]
pub enum RowError {
    /// A name with characters a report directory cannot take.
    #[error("the name '{0}' is not letters, digits, '.', '_' and '-'")]
    Name(String),
    /// A command that names no program.
    #[error("{0}")]
    Command(CommandError),
    /// A class that is not one.
    #[error("the class '{0}' is not one of {classes}", classes = Class::ALL.map(Class::as_str).join(", "))]
    Class(String),
}

/// `entrants`, if no two share a report directory ([`Entrant::dir`]).
pub fn unique(entrants: Vec<Entrant>) -> Result<Vec<Entrant>, RunError> {
    let mut seen = std::collections::HashSet::new();
    for e in &entrants {
        if !seen.insert(e.dir()) {
            return Err(EntrantError::SameName(e.name.clone()).into());
        }
    }
    Ok(entrants)
}

#[cfg(test)]
mod tests {
    use super::*;
    use referee_sandbox::Program;

    #[test]
    fn names_and_classes() {
        assert_eq!(
            named("alice=./alice --fast"),
            Some(("alice".into(), "./alice --fast".into()))
        );
        assert_eq!(named("./judge --rules=icfp98"), None);
        assert_eq!(named("a/b=x"), None);
        assert!(valid_name("accepted/pousse.c"));
        assert!(!valid_name("../x") && !valid_name(".hidden") && !valid_name(""));
        for class in Class::ALL {
            assert_eq!(Class::parse(class.as_str()), Some(class));
        }
        assert!(Class::Rejected.allows(Class::WrongAnswer));
        assert!(!Class::Rejected.allows(Class::Accepted));
        assert!(!Class::WrongAnswer.allows(Class::TimeLimitExceeded));
        assert!(Class::RunTimeError.allows(Class::MemoryLimitExceeded));
        assert!(!Class::MemoryLimitExceeded.allows(Class::RunTimeError));
    }

    #[test]
    fn a_bare_command_is_named_after_what_it_runs() {
        let name = |command: &str| name_of(&Program::parse(command).unwrap());
        assert_eq!(name("./judge --fast"), "judge");
        assert_eq!(name("/usr/bin/sleep 1002"), "sleep");
        assert_eq!(name("sh -c 'exit 127'"), "sh");
        let here = env!("CARGO_MANIFEST_DIR");
        assert_eq!(
            name(&format!(
                "python3 {here}/examples/judges/pousse.py --plant x"
            )),
            "pousse.py"
        );
        let same = from_commands(&["./j".into()]).unwrap();
        let named = from_commands(&["j=./j".into()]).unwrap();
        assert_eq!((same[0].name.as_str(), named[0].name.as_str()), ("j", "j"));
        let two = from_commands(&["./a/j".into(), "./b/j".into(), "j-2=./c".into()]).unwrap();
        let names: Vec<&str> = two.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["j", "j-3", "j-2"]);
    }
}
