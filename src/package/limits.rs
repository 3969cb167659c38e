//! `referee audit --add-to`: the advised time and memory limits written into a package as its
//! format keeps them: `problem.yaml`'s `limits` (`time_limit` in seconds, 2023-07 and later;
//! `memory` in MiB); in DMOJ's `init.yml`, the `time` (seconds) and `memory` (KiB) of each entry
//! of `tests:` (what `dmoj-cli test` runs each submission with), at its language's own limit
//! where one limit does not fit every language. DMOJ keeps a problem's limits themselves on the
//! site (the problem's time and memory limits, and its language-specific resource limits), not
//! in its folder: the change lines say what to enter there.
//!
//! The files are edited as text, a key's line (or a test's entry) replaced or added, so that
//! their comments and order stay; the result is read back as YAML and must give the values
//! written, else nothing is written. The changes are made with the package's others, at once
//! ([`PackageEdit`]).

use std::path::Path;

use yaml_rust2::Yaml;

use super::edit::PackageEdit;
use crate::judge_system::problem_yaml::first_document;
use crate::util::error::RunError;

/// The limits to write: the time limit in seconds (as text, at the format's resolution) and
/// the memory limit in MiB.
#[derive(Debug, Clone, PartialEq)]
pub struct Limits {
    /// The time limit, written as is (`1.0`).
    pub time: Option<String>,
    /// The memory limit, in MiB.
    pub memory_mib: Option<u64>,
    /// Each language's own time limit (referee's name of the language, the limit as written),
    /// when one limit does not fit every language; empty otherwise.
    pub per_language: Vec<(String, String)>,
}

impl Limits {
    /// The time limit of a submission in `language` (referee's name).
    fn time_for(&self, language: Option<&str>) -> Option<&String> {
        language
            .and_then(|l| self.per_language.iter().find(|(name, _)| name == l))
            .map(|(_, time)| time)
            .or(self.time.as_ref())
    }
}

/// Writes `limits` into the package being edited: its `problem.yaml` (the time limit only when
/// `time_in_yaml`, the format keeping it there) and the tests of its `init.yml` when it has
/// one. What changed, a line each (`problem.yaml: limits.time_limit 1.0 (was 2)`); nothing when
/// every value is already there.
pub fn write_limits(
    edit: &mut PackageEdit,
    limits: &Limits,
    time_in_yaml: bool,
) -> Result<Vec<String>, RunError> {
    let mut changed = Vec::new();
    let yaml = Path::new("problem.yaml");
    if let Some(text) = text_of(edit, yaml)? {
        let mut keys = Vec::new();
        if let (Some(time), true) = (&limits.time, time_in_yaml) {
            keys.push(("time_limit", time.clone()));
        }
        if let Some(mib) = limits.memory_mib {
            keys.push(("memory", mib.to_string()));
        }
        let (edited, said) = edited_problem_yaml(&text, &keys).map_err(|why| ByHandIn {
            file: shown(edit, yaml),
            why,
        })?;
        replace(edit, yaml, &edited, said, &mut changed)?;
    }
    let init = Path::new("init.yml");
    if let Some(text) = text_of(edit, init)? {
        edit_tests(edit, &text, limits, &mut changed)?;
    }
    Ok(changed)
}

/// Writes `limits` into the package at `package` at once ([`write_limits`] in an edit of its
/// own, committed): what changed.
pub fn write_limits_into(
    package: &Path,
    limits: &Limits,
    time_in_yaml: bool,
) -> Result<Vec<String>, RunError> {
    let mut edit = PackageEdit::begin(package)?;
    check_editable(&edit, time_in_yaml)?;
    let changed = write_limits(&mut edit, limits, time_in_yaml)?;
    edit.commit(|| false)?;
    Ok(changed)
}

/// Checks, before any work, that the limits can be written into the package being edited as
/// [`write_limits`] writes them: its `problem.yaml` and `init.yml` parse, and keep their
/// limits where referee edits them (an error naming the file, and the line where YAML does not
/// parse).
pub fn check_editable(edit: &PackageEdit, time_in_yaml: bool) -> Result<(), RunError> {
    let probe = Limits {
        time: Some("1.5".into()),
        memory_mib: Some(1023),
        per_language: Vec::new(),
    };
    let yaml = Path::new("problem.yaml");
    if let Some(text) = text_of(edit, yaml)? {
        let mut keys = vec![("memory", "1023".to_string())];
        if time_in_yaml {
            keys.push(("time_limit", "1.5".to_string()));
        }
        edited_problem_yaml(&text, &keys).map_err(|why| ByHandIn {
            file: shown(edit, yaml),
            why,
        })?;
    }
    let init = Path::new("init.yml");
    if let Some(text) = text_of(edit, init)? {
        edited_tests(&text, &probe).map_err(|why| ByHandIn {
            file: shown(edit, init),
            why,
        })?;
    }
    Ok(())
}

/// The text of package file `relative` as the edit leaves it, if there is one.
fn text_of(edit: &PackageEdit, relative: &Path) -> Result<Option<String>, RunError> {
    let Some(bytes) = edit.read(relative)? else {
        return Ok(None);
    };
    String::from_utf8(bytes).map(Some).map_err(|_| {
        ByHandIn {
            file: shown(edit, relative),
            why: ByHand::NotUtf8,
        }
        .into()
    })
}

/// Package file `relative` as messages name it.
fn shown(edit: &PackageEdit, relative: &Path) -> String {
    crate::util::walk::display(&edit.package().join(relative))
}

/// Sets the `time` and `memory` of every entry of `tests:` in DMOJ's `init.yml` (`text`), and
/// says what to enter on DMOJ's site.
fn edit_tests(
    edit: &mut PackageEdit,
    text: &str,
    limits: &Limits,
    changed: &mut Vec<String>,
) -> Result<(), RunError> {
    let init = Path::new("init.yml");
    let (edited, said) = edited_tests(text, limits).map_err(|why| ByHandIn {
        file: shown(edit, init),
        why,
    })?;
    replace(edit, init, &edited, said, changed)?;
    let mut site = Vec::new();
    if let Some(time) = &limits.time {
        site.push(format!("time limit {time} s"));
    }
    if let Some(mib) = limits.memory_mib {
        site.push(format!("memory limit {} KiB", mib * 1024));
    }
    if !limits.per_language.is_empty() {
        site.push(format!(
            "language-specific resource limits {}",
            limits
                .per_language
                .iter()
                .map(|(language, time)| format!("{language} {time} s"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if !site.is_empty() {
        changed.push(format!(
            "{}: DMOJ keeps the problem's limits on the site, not in its folder: enter {}",
            shown(edit, init),
            site.join("; ")
        ));
    }
    Ok(())
}

/// DMOJ's `init.yml` (`text`, which must parse) with [`set_test_limits`] done and read back.
fn edited_tests(text: &str, limits: &Limits) -> Result<(String, Vec<String>), ByHand> {
    parsed_strictly(text)?;
    let (edited, said) = set_test_limits(text, limits)?;
    if said.is_empty() {
        return Ok((edited, said));
    }
    let parsed = parsed(&edited);
    let tests = parsed["tests"].as_vec().cloned().unwrap_or_default();
    for test in &tests {
        let language = dmoj_language_name(test["language"].as_str().unwrap_or(""));
        let read = yaml_text(&test["time"]);
        if limits
            .time_for(language)
            .is_some_and(|t| Some(t) != read.as_ref())
            || limits
                .memory_mib
                .is_some_and(|m| test["memory"].as_i64() != Some(m as i64 * 1024))
        {
            return Err(ByHand::TestsDoNotReadBack);
        }
    }
    Ok((edited, said))
}

/// `problem.yaml` (`text`) with `keys` set under `limits` ([`set_keys`]), refused unless the
/// file parses as a mapping with at most one `limits` key, written where referee edits it, and
/// the result reads back with those values and no key more than it added.
fn edited_problem_yaml(
    text: &str,
    keys: &[(&str, String)],
) -> Result<(String, Vec<String>), ByHand> {
    let original = parsed_strictly(text)?;
    let Yaml::Hash(top) = &original else {
        return Err(ByHand::NotAMapping);
    };
    let blocks = text
        .lines()
        .filter(|l| top_level_key(l) == Some("limits"))
        .count();
    let has_limits = top.keys().any(|k| k.as_str() == Some("limits"));
    if blocks > 1 || has_limits != (blocks == 1) {
        return Err(ByHand::LimitsNotPlain);
    }
    let (edited, said) = set_keys(text, "limits", keys)?;
    if said.is_empty() {
        return Ok((edited, said));
    }
    let parsed = parsed(&edited);
    for (key, value) in keys {
        if yaml_text(&parsed["limits"][*key]).as_deref() != Some(value.as_str()) {
            return Err(ByHand::DoesNotReadBack {
                key: key.to_string(),
                value: value.clone(),
            });
        }
    }
    let count = |y: &Yaml| y.as_hash().map_or(0, |h| h.len());
    let added = said.iter().filter(|s| s.ends_with("(was unset)")).count();
    if count(&parsed) != top.len() + usize::from(!has_limits)
        || count(&parsed["limits"]) != count(&original["limits"]) + added
    {
        return Err(ByHand::LimitsNotPlain);
    }
    Ok((edited, said))
}

/// Sets package file `relative` to `edited` when that changes it, its changes `said` added to
/// `changed`, each named by the file.
fn replace(
    edit: &mut PackageEdit,
    relative: &Path,
    edited: &str,
    said: Vec<String>,
    changed: &mut Vec<String>,
) -> Result<(), RunError> {
    if said.is_empty() {
        return Ok(());
    }
    edit.write(relative, edited.as_bytes().to_vec())?;
    let shown = shown(edit, relative);
    changed.extend(said.into_iter().map(|line| format!("{shown}: {line}")));
    Ok(())
}

/// The first document of `text`, or where it does not parse.
pub(super) fn parsed_strictly(text: &str) -> Result<Yaml, ByHand> {
    first_document(text).map_err(|e| ByHand::NotYaml {
        line: e.line,
        column: e.column,
        why: e.why,
    })
}

/// The first document of `text` (`BadValue` when it is not YAML).
fn parsed(text: &str) -> Yaml {
    first_document(text).unwrap_or(Yaml::BadValue)
}

/// A YAML scalar as it would be written (`1.0`, `2`).
fn yaml_text(value: &Yaml) -> Option<String> {
    match value {
        Yaml::Real(text) => Some(text.clone()),
        Yaml::Integer(n) => Some(n.to_string()),
        Yaml::String(text) => Some(text.clone()),
        _ => None,
    }
}

/// referee's name of the language of DMOJ's executor `key` (`CPP17` is `C++`).
fn dmoj_language_name(key: &str) -> Option<&'static str> {
    let key = key.to_ascii_uppercase();
    [
        ("CPP", "C++"),
        ("C", "C"),
        ("PYPY3", "Python 3"),
        ("PY3", "Python 3"),
        ("JAVA", "Java"),
        ("RUST", "Rust"),
    ]
    .into_iter()
    .find(|(prefix, _)| key.starts_with(prefix))
    .map(|(_, name)| name)
}

/// A file whose limits are written in a way referee does not edit: they are set by hand.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ByHand {
    /// A file that is not YAML (lines and columns from 1).
    #[error("{line}:{column}: not YAML ({why}); fix it, or set the limits by hand")]
    NotYaml {
        /// The line, from 1.
        line: usize,
        /// The column, from 1.
        column: usize,
        /// What the parser says.
        why: String,
    },
    /// Text that is not UTF-8.
    #[error("not UTF-8 text; set the limits by hand")]
    NotUtf8,
    /// DMOJ's `test_cases` not written one entry a line under a `test_cases:` of its own.
    #[error(
        "its `test_cases` are not a list written one entry a line under `test_cases:`; add the \
         cases by hand"
    )]
    TestCasesNotPlain,
    /// A file whose top level is not a mapping.
    #[error("its top level is not a mapping of keys; set the limits by hand")]
    NotAMapping,
    /// `limits` written twice, quoted, or with keys referee does not find as written.
    #[error(
        "its `limits` are not written as plain `key: value` lines under one `limits:` (quoted or \
         repeated keys); set them by hand"
    )]
    LimitsNotPlain,
    /// An entry of DMOJ's `tests:` over several lines.
    #[error("an entry of `tests:` is written over several lines; set its time and memory by hand")]
    TestOverLines,
    /// A block written on one line (`limits: {memory: 256}`).
    #[error("`{block}:` is written on one line ({value}); set the limits by hand")]
    BlockOnOneLine {
        /// The block's key.
        block: String,
        /// Its value.
        value: String,
    },
    /// The limits written in DMOJ's tests would not read back as written.
    #[error("the limits written do not read back from its tests; set them by hand")]
    TestsDoNotReadBack,
    /// A key of `limits:` would not read back as written.
    #[error("setting {key} would not read back as {value}: set the limits by hand")]
    DoesNotReadBack {
        /// The key.
        key: String,
        /// The value written.
        value: String,
    },
}

/// A package file (`file`) whose limits are set by hand.
#[derive(Debug, thiserror::Error)]
#[error("{file}: {why}")]
pub struct ByHandIn {
    /// The file.
    pub file: String,
    /// How its limits are written.
    pub why: ByHand,
}

impl crate::util::error::RunRefusal for ByHandIn {}

/// `text` (DMOJ's `init.yml`) with the `time` and `memory` of every entry of its top-level
/// `tests:` list set (each entry written on one line, `- {source: ..., language: ..., ...}`,
/// as `referee package --system dmoj` writes them). What changed, a line per entry.
pub fn set_test_limits(text: &str, limits: &Limits) -> Result<(String, Vec<String>), ByHand> {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let Some(at) = lines.iter().position(|l| top_level_key(l) == Some("tests")) else {
        return Ok((text.to_string(), Vec::new()));
    };
    let mut said = Vec::new();
    for line in lines.iter_mut().skip(at + 1) {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        if top_level_key(line).is_some() {
            break;
        }
        let indent = &line[..line.len() - line.trim_start().len()];
        let Some(inner) = trimmed
            .strip_prefix("- {")
            .and_then(|rest| rest.strip_suffix('}'))
        else {
            if trimmed.starts_with("- ") || trimmed == "-" {
                return Err(ByHand::TestOverLines);
            }
            continue;
        };
        let mut pairs: Vec<(String, String)> = split_flow(inner)
            .into_iter()
            .map(|piece| match piece.split_once(':') {
                Some((k, v)) => (k.trim().to_string(), v.trim().to_string()),
                None => (piece.trim().to_string(), String::new()),
            })
            .collect();
        let value = |pairs: &[(String, String)], key: &str| {
            pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone())
        };
        let language = value(&pairs, "language").and_then(|l| dmoj_language_name(&l));
        let mut wanted = Vec::new();
        if let Some(time) = limits.time_for(language) {
            wanted.push(("time", time.clone()));
        }
        if let Some(mib) = limits.memory_mib {
            wanted.push(("memory", (mib * 1024).to_string()));
        }
        let mut changes = Vec::new();
        for (key, new) in wanted {
            match pairs.iter_mut().find(|(k, _)| k == key) {
                Some((_, old)) if *old == new => {}
                Some((_, old)) => {
                    changes.push(format!("{key} {new} (was {old})"));
                    *old = new;
                }
                None => {
                    changes.push(format!("{key} {new} (was unset)"));
                    pairs.push((key.to_string(), new));
                }
            }
        }
        if !changes.is_empty() {
            let source = value(&pairs, "source").unwrap_or_else(|| "?".into());
            said.push(format!("tests: {source} {}", changes.join(", ")));
            let written: Vec<String> = pairs
                .iter()
                .map(|(k, v)| {
                    if v.is_empty() {
                        k.clone()
                    } else {
                        format!("{k}: {v}")
                    }
                })
                .collect();
            *line = format!("{indent}- {{{}}}", written.join(", "));
        }
    }
    Ok((joined(text, &lines), said))
}

/// The entries of a flow mapping's inside (`a: 1, b: [x, y]`), split at its top-level commas.
fn split_flow(inner: &str) -> Vec<&str> {
    let mut pieces = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '[' | '{' => depth += 1,
            ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                pieces.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    pieces.push(&inner[start..]);
    pieces
        .into_iter()
        .filter(|p| !p.trim().is_empty())
        .collect()
}

/// `text` with each of `keys` set under `block` (a top-level key whose value is an indented
/// mapping, made when absent): a key's line replaced, or added first in the block. What
/// changed, in words (`limits.memory 256 (was 2048)`).
pub fn set_keys(
    text: &str,
    block: &str,
    keys: &[(&str, String)],
) -> Result<(String, Vec<String>), ByHand> {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let (start, end, indent) = match lines.iter().position(|l| top_level_key(l) == Some(block)) {
        Some(at) => {
            let rest = value_of(&lines[at], block);
            if !rest.is_empty() {
                return Err(ByHand::BlockOnOneLine {
                    block: block.to_string(),
                    value: rest.to_string(),
                });
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
    };
    let prefix = format!("{block}.");
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
                    lines[i] = format!("{line}{}", comment_of(&lines[i][indent.len()..], key));
                }
            }
            None => {
                said.push(format!("{prefix}{key} {value} (was unset)"));
                lines.insert(start, line);
                inserted += 1;
            }
        }
    }
    Ok((joined(text, &lines), said))
}

/// The key of a line `KEY: ...` that starts at its first column.
pub(super) fn top_level_key(line: &str) -> Option<&str> {
    let (key, _) = line.split_once(':')?;
    (!key.is_empty()
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-'))
    .then_some(key)
}

/// `lines` joined with the line ends of `text` (`\r\n` when it has them), ending with one.
pub(super) fn joined(text: &str, lines: &[String]) -> String {
    let end = if text.contains("\r\n") { "\r\n" } else { "\n" };
    let mut out = lines.join(end);
    out.push_str(end);
    out
}

/// The comment ending the line of `key` (`key: VALUE   # comment`), with the spaces before it;
/// empty when there is none.
fn comment_of<'a>(line: &'a str, key: &str) -> &'a str {
    let rest = line.trim_start()[key.len() + 1..].trim_end();
    match rest.find(" #") {
        Some(at) => {
            let value_end = rest[..at].trim_end().len();
            &rest[value_end..]
        }
        None => "",
    }
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

    fn set(text: &str, block: &str, keys: &[(&str, &str)]) -> (String, Vec<String>) {
        let keys: Vec<(&str, String)> = keys.iter().map(|(k, v)| (*k, v.to_string())).collect();
        set_keys(text, block, &keys).unwrap()
    }

    #[test]
    fn a_missing_block_is_added_and_an_existing_one_keeps_its_other_keys_and_comments() {
        let (text, said) = set(
            "name: x\n",
            "limits",
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
        let (text, said) = set(yaml, "limits", &[("time_limit", "0.3"), ("memory", "256")]);
        assert_eq!(
            text,
            "name: x\nlimits:\n    time_limit: 0.3\n    # the judges' machine\n    memory: 256 # MiB\n    output: 8\nkeywords: [a]\n"
        );
        assert_eq!(
            said,
            [
                "limits.time_limit 0.3 (was unset)",
                "limits.memory 256 (was 2048)"
            ]
        );
        let (again, said) = set(&text, "limits", &[("time_limit", "0.3"), ("memory", "256")]);
        assert_eq!(
            (again, said.len()),
            (text, 0),
            "nothing changes the second time"
        );
    }

    #[test]
    fn a_nested_key_of_the_same_name_is_not_taken_for_the_blocks_own() {
        let yaml = "limits:\n  time_multipliers:\n    time_limit: 3\n  memory: 512\n";
        let (text, _) = set(yaml, "limits", &[("time_limit", "1.0")]);
        assert_eq!(
            text,
            "limits:\n  time_limit: 1.0\n  time_multipliers:\n    time_limit: 3\n  memory: 512\n"
        );
    }

    const INIT: &str = "test_cases:\n- {in: a.in, out: a.ans, points: 1}\ntests:\n# each submission\n- {source: submissions/accepted/a.c, language: C, time: 2, memory: 262144, expect: AC}\n- {source: submissions/accepted/b.py, language: PY3, time: 2, memory: 262144, expect: [AC, WA]}\nchecker: check.py\n";

    fn limits(per_language: &[(&str, &str)]) -> Limits {
        Limits {
            time: Some("1.0".into()),
            memory_mib: Some(256),
            per_language: per_language
                .iter()
                .map(|(l, t)| (l.to_string(), t.to_string()))
                .collect(),
        }
    }

    #[test]
    fn dmojs_tests_get_the_limits_each_at_its_languages_own() {
        // One limit fits: every test gets it.
        let (text, said) = set_test_limits(INIT, &limits(&[])).unwrap();
        assert_eq!(text, INIT.replace("time: 2", "time: 1.0"));
        assert_eq!(
            said,
            [
                "tests: submissions/accepted/a.c time 1.0 (was 2)",
                "tests: submissions/accepted/b.py time 1.0 (was 2)"
            ]
        );
        // Per language: the Python test gets Python's, the list `[AC, WA]` kept whole.
        let (text, said) =
            set_test_limits(INIT, &limits(&[("C", "1.0"), ("Python 3", "3.0")])).unwrap();
        assert!(
            text.contains("language: C, time: 1.0, memory: 262144, expect: AC}"),
            "{text}"
        );
        assert!(
            text.contains("language: PY3, time: 3.0, memory: 262144, expect: [AC, WA]}"),
            "{text}"
        );
        assert_eq!(said.len(), 2);
        // Nothing to change the second time; a file with no tests is left as it is.
        assert!(
            set_test_limits(&text, &limits(&[("C", "1.0"), ("Python 3", "3.0")]))
                .unwrap()
                .1
                .is_empty()
        );
        assert!(set_test_limits("test_cases: []\n", &limits(&[]))
            .unwrap()
            .1
            .is_empty());
        // An entry over several lines is refused.
        let why =
            set_test_limits("tests:\n- source: a.c\n  language: C\n", &limits(&[])).unwrap_err();
        assert!(why.to_string().contains("by hand"), "{why}");
        assert_eq!(dmoj_language_name("CPP17"), Some("C++"));
        assert_eq!(dmoj_language_name("PYPY3"), Some("Python 3"));
        assert_eq!(dmoj_language_name("C11"), Some("C"));
    }

    #[test]
    fn a_block_on_one_line_is_refused() {
        let keys = [("memory", "256".to_string())];
        let why = set_keys("limits: {memory: 512}\n", "limits", &keys).unwrap_err();
        assert!(why.to_string().contains("set the limits by hand"), "{why}");
    }

    #[test]
    fn the_files_of_a_package_are_written_and_read_back() {
        let top = tempfile::tempdir().unwrap();
        let dir = top.path().join("p");
        std::fs::create_dir(&dir).unwrap();
        std::fs::write(
            dir.join("problem.yaml"),
            "problem_format_version: 2025-09\nname: x\n",
        )
        .unwrap();
        std::fs::write(dir.join("init.yml"), INIT).unwrap();
        let limits = limits(&[("C", "1.0"), ("Python 3", "3.0")]);
        let changed = write_limits_into(&dir, &limits, true).unwrap();
        assert_eq!(changed.len(), 5, "{changed:?}");
        assert!(
            changed[4].ends_with(
                "init.yml: DMOJ keeps the problem's limits on the site, not in its folder: enter \
                 time limit 1.0 s; memory limit 262144 KiB; language-specific resource limits C \
                 1.0 s, Python 3 3.0 s"
            ),
            "{changed:?}"
        );
        let rules = crate::judge_system::problem_yaml::time_rules(&dir).unwrap();
        assert_eq!(rules.time_limit, Some(1.0));
        assert_eq!(
            crate::judge_system::problem_yaml::memory_mib(&dir),
            Ok(Some(256))
        );
        let init = std::fs::read_to_string(dir.join("init.yml")).unwrap();
        assert!(init.contains("language: PY3, time: 3.0,"), "{init}");
        // The second time only the site's line: nothing is written.
        assert_eq!(write_limits_into(&dir, &limits, true).unwrap().len(), 1);
    }

    #[test]
    fn a_problem_yaml_referee_cannot_edit_is_refused_before_anything_is_written() {
        let keys = [("memory", "256".to_string())];
        for (yaml, why) in [
            ("name: x\nlimits:\n  memory: [256\n", "not YAML"),
            ("name: x\nlimits: {memory: 512}\n", "by hand"),
            ("base: &b\n  memory: 64\nlimits: *b\n", "by hand"),
            ("limits: &l\n  memory: 64\nother: *l\n", "by hand"),
            ("name: x\nlimits: ~\n", "by hand"),
            ("name: x\nlimits:\n\tmemory: 64\n", "not YAML"),
            (
                "name: x\n\"limits\":\n  memory: 64\n",
                "not written as plain",
            ),
            ("limits:\n  \"memory\": 64\n", "by hand"),
            ("- a\n- b\n", "not a mapping"),
            ("limits:\n  memory: &m 64\nother: *m\n", "by hand"),
        ] {
            let refused = edited_problem_yaml(yaml, &keys).unwrap_err();
            assert!(refused.to_string().contains(why), "{yaml:?}: {refused}");
        }
        let bad = edited_problem_yaml("name: x\nlimits:\n  memory: [256\n", &keys).unwrap_err();
        assert!(matches!(bad, ByHand::NotYaml { line: 4, .. }), "{bad}");
    }

    #[test]
    fn edits_keep_comments_line_ends_and_links() {
        let keys = [("memory", "256".to_string())];
        let (text, _) =
            edited_problem_yaml("name: x\r\nlimits:\r\n  memory: 64   # MiB\r\n", &keys).unwrap();
        assert_eq!(text, "name: x\r\nlimits:\r\n  memory: 256   # MiB\r\n");
        let top = tempfile::tempdir().unwrap();
        let dir = top.path().join("p");
        std::fs::create_dir_all(dir.join("config")).unwrap();
        std::fs::write(dir.join("config/problem.yaml"), "limits:\n  memory: 64\n").unwrap();
        std::os::unix::fs::symlink("config/problem.yaml", dir.join("problem.yaml")).unwrap();
        let limits = Limits {
            time: None,
            memory_mib: Some(256),
            per_language: Vec::new(),
        };
        write_limits_into(&dir, &limits, false).unwrap();
        assert!(std::fs::symlink_metadata(dir.join("problem.yaml"))
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(
            std::fs::read_to_string(dir.join("config/problem.yaml")).unwrap(),
            "limits:\n  memory: 256\n"
        );
    }
}
