//! `referee audit --add-to`: the advised time and memory limits written into a package as its
//! format keeps them: `problem.yaml`'s `limits` (`time_limit` in seconds, 2023-07 and later;
//! `memory` in MiB), DMOJ's `init.yml` (`time` in seconds, `memory` in KiB).
//!
//! The files are edited as text, a key's line replaced or added, so that their comments and
//! order stay; the result is read back as YAML and must give the values written, else nothing
//! is written. Each file is replaced atomically.

use std::fs;
use std::path::Path;

use yaml_rust2::{Yaml, YamlLoader};

use crate::error::RunError;

/// The limits to write: the time limit in seconds (as text, at the format's resolution) and
/// the memory limit in MiB.
#[derive(Debug, Clone, PartialEq)]
pub struct Limits {
    /// The time limit, written as is (`1.0`).
    pub time: Option<String>,
    /// The memory limit, in MiB.
    pub memory_mib: Option<u64>,
}

/// Writes `limits` into the package at `package`: its `problem.yaml` (the time limit only when
/// `time_in_yaml`, the format keeping it there) and its `init.yml` when it has one. What
/// changed, a line each (`problem.yaml: limits.time_limit 1.0 (was 2)`); nothing when every
/// value is already there.
pub fn write_limits(
    package: &Path,
    limits: &Limits,
    time_in_yaml: bool,
) -> Result<Vec<String>, RunError> {
    let mut changed = Vec::new();
    let yaml = package.join("problem.yaml");
    if yaml.is_file() {
        let mut keys = Vec::new();
        if let (Some(time), true) = (&limits.time, time_in_yaml) {
            keys.push(("time_limit", time.clone()));
        }
        if let Some(mib) = limits.memory_mib {
            keys.push(("memory", mib.to_string()));
        }
        edit(&yaml, Some("limits"), &keys, &mut changed)?;
    }
    let init = package.join("init.yml");
    if init.is_file() {
        let mut keys = Vec::new();
        if let Some(time) = &limits.time {
            keys.push(("time", time.clone()));
        }
        if let Some(mib) = limits.memory_mib {
            keys.push(("memory", (mib * 1024).to_string()));
        }
        edit(&init, None, &keys, &mut changed)?;
    }
    Ok(changed)
}

/// Sets `keys` in the yaml file at `path`, under the top-level mapping `block` (or at the top
/// level), saying each change in `changed`.
fn edit(
    path: &Path,
    block: Option<&str>,
    keys: &[(&str, String)],
    changed: &mut Vec<String>,
) -> Result<(), RunError> {
    let shown = crate::walk::display(path);
    let text = fs::read_to_string(path).map_err(|e| RunError::io(path, e))?;
    let (edited, said) =
        set_keys(&text, block, keys).map_err(|why| RunError::Usage(format!("{shown}: {why}")))?;
    if said.is_empty() {
        return Ok(());
    }
    let parsed = YamlLoader::load_from_str(&edited)
        .ok()
        .and_then(|d| d.into_iter().next())
        .unwrap_or(Yaml::BadValue);
    for (key, value) in keys {
        let node = match block {
            Some(b) => &parsed[b][*key],
            None => &parsed[*key],
        };
        let read = match node {
            Yaml::Integer(i) => Some(i.to_string()),
            Yaml::Real(r) => Some(r.clone()),
            _ => None,
        };
        if read.as_deref() != Some(value.as_str()) {
            return Err(RunError::Usage(format!(
                "{shown}: setting {key} would not read back as {value}: set the limits by hand"
            )));
        }
    }
    crate::report::write::replace_file(path, edited.as_bytes())
        .map_err(|e| RunError::io(path, e))?;
    for line in said {
        changed.push(format!("{shown}: {line}"));
    }
    Ok(())
}

/// `text` with each of `keys` set under `block` (a top-level key whose value is an indented
/// mapping, made when absent) or at the top level: a key's line replaced, or added first in
/// the block. What changed, in words (`limits.memory 256 (was 2048)`).
pub fn set_keys(
    text: &str,
    block: Option<&str>,
    keys: &[(&str, String)],
) -> Result<(String, Vec<String>), String> {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let (start, end, indent) = match block {
        None => (0, lines.len(), String::new()),
        Some(block) => match lines.iter().position(|l| top_level_key(l) == Some(block)) {
            Some(at) => {
                let rest = value_of(&lines[at], block);
                if !rest.is_empty() {
                    return Err(format!(
                        "`{block}:` is written on one line ({rest}); set the limits by hand"
                    ));
                }
                let end = (at + 1..lines.len())
                    .find(|&i| {
                        let l = &lines[i];
                        !l.trim().is_empty() && !l.starts_with([' ', '\t', '#'])
                    })
                    .unwrap_or(lines.len());
                let indent = lines[at + 1..end]
                    .iter()
                    .find(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
                    .map_or("  ".to_string(), |l| {
                        l[..l.len() - l.trim_start().len()].to_string()
                    });
                (at + 1, end, indent)
            }
            None => {
                lines.push(format!("{block}:"));
                (lines.len(), lines.len(), "  ".to_string())
            }
        },
    };
    let prefix = block.map_or(String::new(), |b| format!("{b}."));
    let mut said = Vec::new();
    let mut inserted = 0;
    for (key, value) in keys {
        let found = (start..end + inserted).find(|&i| {
            let l = &lines[i];
            l.starts_with(indent.as_str()) && top_level_key(&l[indent.len()..]) == Some(*key)
        });
        let line = format!("{indent}{key}: {value}");
        match found {
            Some(i) => {
                let old = value_of(&lines[i][indent.len()..], key).to_string();
                if old != *value {
                    said.push(format!("{prefix}{key} {value} (was {old})"));
                    lines[i] = line;
                }
            }
            None => {
                said.push(format!("{prefix}{key} {value} (was unset)"));
                lines.insert(start, line);
                inserted += 1;
            }
        }
    }
    let mut out = lines.join("\n");
    out.push('\n');
    Ok((out, said))
}

/// The key of a line `KEY: ...` that starts at its first column.
fn top_level_key(line: &str) -> Option<&str> {
    let (key, _) = line.split_once(':')?;
    (!key.is_empty()
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-'))
    .then_some(key)
}

/// The value on the line of `key` (`key: VALUE # comment`), comment and spaces left out.
fn value_of<'a>(line: &'a str, key: &str) -> &'a str {
    let rest = line.trim_start()[key.len() + 1..].trim();
    match rest.find(" #") {
        Some(at) => rest[..at].trim(),
        None if rest.starts_with('#') => "",
        None => rest,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(text: &str, block: Option<&str>, keys: &[(&str, &str)]) -> (String, Vec<String>) {
        let keys: Vec<(&str, String)> = keys.iter().map(|(k, v)| (*k, v.to_string())).collect();
        set_keys(text, block, &keys).unwrap()
    }

    #[test]
    fn a_missing_block_is_added_and_an_existing_one_keeps_its_other_keys_and_comments() {
        let (text, said) = set(
            "name: x\n",
            Some("limits"),
            &[("time_limit", "1.0"), ("memory", "256")],
        );
        assert_eq!(text, "name: x\nlimits:\n  memory: 256\n  time_limit: 1.0\n");
        assert_eq!(
            said,
            [
                "limits.time_limit 1.0 (was unset)",
                "limits.memory 256 (was unset)"
            ]
        );

        let yaml = "name: x\nlimits:\n    # the judges' machine\n    memory: 2048 # MiB\n    output: 8\nkeywords: [a]\n";
        let (text, said) = set(
            yaml,
            Some("limits"),
            &[("time_limit", "0.3"), ("memory", "256")],
        );
        assert_eq!(
            text,
            "name: x\nlimits:\n    time_limit: 0.3\n    # the judges' machine\n    memory: 256\n    output: 8\nkeywords: [a]\n"
        );
        assert_eq!(
            said,
            [
                "limits.time_limit 0.3 (was unset)",
                "limits.memory 256 (was 2048)"
            ]
        );
        let (again, said) = set(
            &text,
            Some("limits"),
            &[("time_limit", "0.3"), ("memory", "256")],
        );
        assert_eq!(
            (again, said.len()),
            (text, 0),
            "nothing changes the second time"
        );
    }

    #[test]
    fn a_nested_key_of_the_same_name_is_not_taken_for_the_blocks_own() {
        let yaml = "limits:\n  time_multipliers:\n    time_limit: 3\n  memory: 512\n";
        let (text, _) = set(yaml, Some("limits"), &[("time_limit", "1.0")]);
        assert_eq!(
            text,
            "limits:\n  time_limit: 1.0\n  time_multipliers:\n    time_limit: 3\n  memory: 512\n"
        );
    }

    #[test]
    fn top_level_keys_are_set_for_dmoj() {
        let (text, said) = set(
            "test_cases:\n- {in: a.in}\ntime: 2\n",
            None,
            &[("time", "1.0"), ("memory", "262144")],
        );
        assert_eq!(
            text,
            "memory: 262144\ntest_cases:\n- {in: a.in}\ntime: 1.0\n"
        );
        assert_eq!(said, ["time 1.0 (was 2)", "memory 262144 (was unset)"]);
    }

    #[test]
    fn a_block_on_one_line_is_refused() {
        let keys = [("memory", "256".to_string())];
        let why = set_keys("limits: {memory: 512}\n", Some("limits"), &keys).unwrap_err();
        assert!(why.contains("set the limits by hand"), "{why}");
    }

    #[test]
    fn the_files_of_a_package_are_written_and_read_back() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(
            dir.path().join("problem.yaml"),
            "problem_format_version: 2025-09\nname: x\n",
        )
        .unwrap();
        fs::write(dir.path().join("init.yml"), "time: 5\nmemory: 65536\n").unwrap();
        let limits = Limits {
            time: Some("1.0".into()),
            memory_mib: Some(256),
        };
        let changed = write_limits(dir.path(), &limits, true).unwrap();
        assert_eq!(changed.len(), 4, "{changed:?}");
        let rules = crate::judge_system::problem_yaml::time_rules(dir.path()).unwrap();
        assert_eq!(rules.time_limit, Some(1.0));
        assert_eq!(
            crate::judge_system::problem_yaml::memory_mib(dir.path()),
            Ok(Some(256))
        );
        let init = fs::read_to_string(dir.path().join("init.yml")).unwrap();
        assert_eq!(init, "time: 1.0\nmemory: 262144\n");
        assert!(write_limits(dir.path(), &limits, true).unwrap().is_empty());
    }
}
