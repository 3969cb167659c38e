//! A problem package's yaml files (`problem.yaml`, `data/testdata.yaml`), read with a bound on
//! their size, and the limits `problem.yaml` sets, in every format version.

use std::io::Read;
use std::path::Path;

use yaml_rust2::{Yaml, YamlLoader};

/// The largest yaml file read, in bytes: a longer one is refused, never read in part.
const LARGEST_YAML: u64 = 1 << 20;

/// The memory limit of a Kattis package without one: 2048 MiB.
pub const DEFAULT_MEMORY_MIB: u64 = 2048;

/// The first document of the yaml file at `path`, if it is a regular file that parses.
pub fn read(path: &Path) -> Option<Yaml> {
    parse(path).ok().flatten()
}

/// The first document of the yaml file at `path` (a UTF-8 byte order mark skipped): `Ok(None)`
/// when there is no file there, or no document in it, an error naming the file, line and column when it does not
/// parse.
pub fn parse(path: &Path) -> Result<Option<Yaml>, LimitError> {
    let file = match crate::util::guard::open_regular(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(LimitError::Unreadable {
                file: crate::util::walk::display(path),
                why: e.to_string(),
            })
        }
    };
    let mut text = String::new();
    file.take(LARGEST_YAML + 1)
        .read_to_string(&mut text)
        .map_err(|e| LimitError::Unreadable {
            file: crate::util::walk::display(path),
            why: e.to_string(),
        })?;
    if text.len() as u64 > LARGEST_YAML {
        return Err(LimitError::Unreadable {
            file: crate::util::walk::display(path),
            why: format!(
                "longer than {} MiB, the most a yaml file referee reads may be: not read",
                LARGEST_YAML >> 20
            ),
        });
    }
    match first_document(&text) {
        Ok(Yaml::Null) => Ok(None),
        Ok(yaml) => Ok(Some(yaml)),
        Err(e) => Err(LimitError::Unparsable {
            file: crate::util::walk::display(path),
            line: e.line,
            column: e.column,
            why: e.why,
        }),
    }
}

/// Where YAML text does not parse (lines and columns from 1), and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Syntax {
    /// The line, from 1.
    pub line: usize,
    /// The column, from 1.
    pub column: usize,
    /// What the parser says.
    pub why: String,
}

/// The first document of YAML `text` (a UTF-8 byte order mark skipped; `Null` when it holds
/// none), or where it does not parse.
pub fn first_document(text: &str) -> Result<Yaml, Syntax> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    match YamlLoader::load_from_str(text) {
        Ok(documents) => Ok(documents.into_iter().next().unwrap_or(Yaml::Null)),
        Err(e) => Err(Syntax {
            line: e.marker().line(),
            column: e.marker().col() + 1,
            why: e.info().to_string(),
        }),
    }
}

/// The memory limit `problem.yaml` sets for the package at `root`, in MiB (`limits: memory:`,
/// the same in the legacy, 2023-07 and 2025-09 formats): `Ok(None)` when it sets none (or the
/// file is absent), an error naming the file when the value is not a positive whole number.
pub fn memory_mib(root: &Path) -> Result<Option<u64>, LimitError> {
    let path = root.join("problem.yaml");
    let Some(yaml) = parse(&path)? else {
        return Ok(None);
    };
    match &yaml["limits"]["memory"] {
        Yaml::BadValue | Yaml::Null => Ok(None),
        Yaml::Integer(mib) if *mib > 0 => Ok(Some(*mib as u64)),
        other => Err(LimitError::NotWholeMib {
            file: crate::util::walk::display(&path),
            found: format!("{other:?}"),
        }),
    }
}

/// A limit of `problem.yaml` that is not one, naming the file (lines and columns counted
/// from 1).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LimitError {
    /// A file that does not parse as YAML.
    #[error("{file}:{line}:{column}: not YAML: {why}")]
    Unparsable {
        /// The file.
        file: String,
        /// The line, from 1.
        line: usize,
        /// The column, from 1.
        column: usize,
        /// What the parser says.
        why: String,
    },
    /// A file that cannot be read.
    #[error("{file}: {why}")]
    Unreadable {
        /// The file.
        file: String,
        /// Why.
        why: String,
    },
    /// `limits.memory` that is not a positive whole number.
    #[error("{file}: limits.memory must be a positive whole number of MiB, found {found}")]
    NotWholeMib {
        /// The file.
        file: String,
        /// The value, as YAML reads it.
        found: String,
    },
    /// A time limit or multiplier that is not a positive number.
    #[error("{file}: limits.{key} must be a positive number, found {found}")]
    NotPositive {
        /// The file.
        file: String,
        /// The key under `limits`.
        key: &'static str,
        /// The value, as YAML reads it.
        found: String,
    },
}

/// How a package's time limit is set (its `limits` in `problem.yaml`): the multipliers and the
/// resolution of the rule, and the limit it sets itself, if any.
///
/// In the 2023-07 and 2025-09 formats the limit is `ac_to_time_limit` times the slowest
/// accepted time, rounded up to a multiple of `time_resolution`, unless `time_limit` sets it;
/// a submission expected to time out must take over `time_limit_to_tle` times the limit
/// (defaults 2.0, 1.5 and 1.0 s). The legacy format names them `time_multiplier` and
/// `time_safety_margin` (defaults 5 and 2), rounds to whole seconds and sets no limit itself.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TimeRules {
    /// `problem_format_version`: `legacy` when absent.
    pub format: String,
    /// The slowest accepted time times this is the limit.
    pub ac_to_time_limit: f64,
    /// A submission expected to time out takes over the limit times this.
    pub time_limit_to_tle: f64,
    /// The limit is a multiple of this, in seconds.
    pub time_resolution: f64,
    /// The limit `problem.yaml` sets, in seconds.
    pub time_limit: Option<f64>,
    /// Whether the package sets any of the multipliers (else they are the format's defaults).
    pub from_package: bool,
}

impl TimeRules {
    /// The rules of a package of `format` that sets none of them.
    pub fn defaults(format: &str) -> TimeRules {
        let legacy = format == "legacy";
        TimeRules {
            format: format.to_string(),
            ac_to_time_limit: if legacy { 5.0 } else { 2.0 },
            time_limit_to_tle: if legacy { 2.0 } else { 1.5 },
            time_resolution: 1.0,
            time_limit: None,
            from_package: false,
        }
    }

    /// Whether the format keeps the time limit in `problem.yaml` (2023-07 and later).
    pub fn sets_time_limit(&self) -> bool {
        self.format != "legacy"
    }
}

/// The time rules of the package at `root` ([`TimeRules`]): the format's defaults for what
/// `problem.yaml` does not set (or when it is absent); an error naming the file and the key when
/// a value is not a positive number.
pub fn time_rules(root: &Path) -> Result<TimeRules, LimitError> {
    let path = root.join("problem.yaml");
    let Some(yaml) = parse(&path)? else {
        return Ok(TimeRules::defaults("2025-09"));
    };
    let format = match &yaml["problem_format_version"] {
        Yaml::String(v) if !v.is_empty() => v.clone(),
        _ => "legacy".to_string(),
    };
    let mut rules = TimeRules::defaults(&format);
    let limits = &yaml["limits"];
    let number = |value: &Yaml, key: &'static str| -> Result<Option<f64>, LimitError> {
        let n = match value {
            Yaml::BadValue | Yaml::Null => return Ok(None),
            Yaml::Integer(i) => *i as f64,
            Yaml::Real(r) => r.parse::<f64>().unwrap_or(f64::NAN),
            _ => f64::NAN,
        };
        if n.is_finite() && n > 0.0 {
            Ok(Some(n))
        } else {
            Err(LimitError::NotPositive {
                file: crate::util::walk::display(&path),
                key,
                found: format!("{value:?}"),
            })
        }
    };
    let (ac, tle) = if rules.sets_time_limit() {
        let m = &limits["time_multipliers"];
        (
            number(&m["ac_to_time_limit"], "time_multipliers.ac_to_time_limit")?,
            number(
                &m["time_limit_to_tle"],
                "time_multipliers.time_limit_to_tle",
            )?,
        )
    } else {
        (
            number(&limits["time_multiplier"], "time_multiplier")?,
            number(&limits["time_safety_margin"], "time_safety_margin")?,
        )
    };
    rules.from_package = ac.is_some() || tle.is_some();
    rules.ac_to_time_limit = ac.unwrap_or(rules.ac_to_time_limit);
    rules.time_limit_to_tle = tle.unwrap_or(rules.time_limit_to_tle);
    if rules.sets_time_limit() {
        if let Some(r) = number(&limits["time_resolution"], "time_resolution")? {
            rules.time_resolution = r;
        }
        rules.time_limit = number(&limits["time_limit"], "time_limit")?;
    }
    Ok(rules)
}

impl crate::util::error::RunRefusal for LimitError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_yaml_file_longer_than_the_bound_is_refused_not_read_in_part() {
        let dir = tempfile::tempdir().unwrap();
        let mut text = "# padding\n".repeat((LARGEST_YAML as usize) / 10);
        text.push_str("limits:\n  memory: 5\n");
        std::fs::write(dir.path().join("problem.yaml"), &text).unwrap();
        let refused = memory_mib(dir.path()).unwrap_err().to_string();
        assert!(refused.contains("longer than 1 MiB"), "{refused}");
    }

    #[test]
    fn the_memory_limit_is_read_when_set() {
        let dir = std::env::temp_dir().join(format!("referee-yaml-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        assert_eq!(memory_mib(&dir), Ok(None));
        std::fs::write(dir.join("problem.yaml"), "name: x\n").unwrap();
        assert_eq!(memory_mib(&dir), Ok(None));
        std::fs::write(dir.join("problem.yaml"), "limits:\n  memory: 512\n").unwrap();
        assert_eq!(memory_mib(&dir), Ok(Some(512)));
        std::fs::write(dir.join("problem.yaml"), "limits:\n  memory: lots\n").unwrap();
        assert!(memory_mib(&dir)
            .unwrap_err()
            .to_string()
            .contains("limits.memory"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_time_rules_are_read_in_each_format_with_the_formats_defaults() {
        let dir = tempfile::tempdir().unwrap();
        let rules = |yaml: &str| {
            std::fs::write(dir.path().join("problem.yaml"), yaml).unwrap();
            time_rules(dir.path())
        };
        let new = rules("problem_format_version: 2025-09\nname: x\n").unwrap();
        assert_eq!(new, TimeRules::defaults("2025-09"));
        assert_eq!((new.ac_to_time_limit, new.time_limit_to_tle), (2.0, 1.5));
        let set = rules(
            "problem_format_version: 2023-07-draft\nlimits:\n  time_multipliers:\n    \
             ac_to_time_limit: 3\n  time_resolution: 0.1\n  time_limit: 2.5\n",
        )
        .unwrap();
        assert_eq!(
            (
                set.ac_to_time_limit,
                set.time_limit_to_tle,
                set.time_resolution
            ),
            (3.0, 1.5, 0.1)
        );
        assert_eq!(set.time_limit, Some(2.5));
        assert!(set.from_package);
        let legacy = rules("name: x\nlimits:\n  time_safety_margin: 3\n  time_limit: 9\n").unwrap();
        assert_eq!(legacy.format, "legacy");
        assert_eq!(
            (legacy.ac_to_time_limit, legacy.time_limit_to_tle),
            (5.0, 3.0)
        );
        assert_eq!(
            legacy.time_limit, None,
            "the legacy format sets no limit itself"
        );
        let bad = rules("problem_format_version: 2025-09\nlimits:\n  time_limit: -1\n");
        assert!(bad.unwrap_err().to_string().contains("limits.time_limit"));
        let marked = rules("\u{feff}problem_format_version: 2025-09\n").unwrap();
        assert_eq!(
            marked.format, "2025-09",
            "a byte order mark is not part of the key"
        );
        let broken = rules("name: x\nlimits:\n  memory: [256\n").unwrap_err();
        assert!(
            matches!(broken, LimitError::Unparsable { line: 4, .. }),
            "{broken}"
        );
        assert!(
            memory_mib(dir.path()).is_err(),
            "never the default silently"
        );
    }
}
