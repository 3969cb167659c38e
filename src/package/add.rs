//! `referee audit --add-to`: strengthening cases added to a package, after its cases, in its
//! data and in its generators; made with the package's other changes, at once
//! ([`PackageEdit`]).

use std::path::{Path, PathBuf};

use super::edit::PackageEdit;
use crate::util::error::RunError;

/// Adds `inputs` and their `answers` to the package's `data/secret/` (into its last group
/// folder when it holds groups and no case of its own), named to sort after every case already
/// there ([`next_stems`]), never over an existing file. Lists them in the package's
/// `referee-files.txt` when it has one, and in its `generators/generators.yaml` when it has the
/// one `referee package` writes ([`add_to_generators`]). A DMOJ problem's folder gets them as
/// its `secret-*` cases ([`add_to_dmoj`]). The names given, relative to the package; nothing
/// changes when there is nothing to add.
pub fn add_to_package(
    edit: &mut PackageEdit,
    inputs: &[&[u8]],
    answers: &[&str],
) -> Result<Vec<String>, RunError> {
    if inputs.is_empty() {
        return Ok(Vec::new());
    }
    if is_dmoj(edit) {
        return add_to_dmoj(edit, inputs, answers);
    }
    let secret = Path::new("data/secret");
    let (dir, names) = case_directory(edit)?;
    let stems = next_stems(&names, inputs.len());
    let group = dir.strip_prefix(secret).unwrap_or(Path::new(""));
    let mut listed = String::new();
    let mut added = Vec::new();
    for ((stem, input), answer) in stems.iter().zip(inputs).zip(answers) {
        // Never over a file (an answer left without its input, say).
        for ext in ["in", "ans"] {
            let path = dir.join(format!("{stem}.{ext}"));
            if edit.exists(&path) {
                let taken = std::io::ErrorKind::AlreadyExists.into();
                return Err(RunError::io(&edit.package().join(&path), taken));
            }
        }
        write_case(edit, &dir.join(stem), input, answer, &mut listed)?;
        added.push(
            secret
                .join(group)
                .join(format!("{stem}.in"))
                .display()
                .to_string(),
        );
    }
    add_to_generators(edit, &stems, inputs, answers, &mut listed)?;
    list_in_manifest(edit, &listed)?;
    Ok(added)
}

/// Where [`add_to_package`] adds cases, relative to the package, and the names it holds:
/// `data/secret/`, or its last group folder when it holds groups and no case of its own.
fn case_directory(edit: &PackageEdit) -> Result<(PathBuf, Vec<String>), RunError> {
    let secret = Path::new("data/secret");
    let mut dir = secret.to_path_buf();
    let mut names = edit.list(&dir)?;
    if !names.iter().any(|n| n.ends_with(".in")) {
        let groups: Vec<&String> = (names.iter())
            .filter(|n| !n.starts_with('.') && edit.package().join(secret).join(n).is_dir())
            .collect();
        if let Some(last) = groups.last() {
            dir = secret.join(last);
            names = edit.list(&dir)?;
        }
    }
    Ok((dir, names))
}

/// The longest file name a directory may hold (Linux's `NAME_MAX`), in bytes.
const NAME_MAX: usize = 255;

/// Up to how many cases one audit's names are checked for before the audit (their numbers'
/// width): a strengthening adds a few dozen.
const CHECKED_CASES: usize = 9999;

/// Whether the names of cases added after `names` fit a file name: the name of the longest
/// one's answer file when it does not.
fn too_long(names: &[String], prefix: &str) -> Option<String> {
    next_stems(names, CHECKED_CASES)
        .into_iter()
        .map(|stem| format!("{prefix}{stem}.ans"))
        .max_by_key(String::len)
        .filter(|name| name.len() > NAME_MAX)
}

/// Writes a case's `STEM.in` (`input`) and `STEM.ans` (`answer`) into the edit, each listed on
/// `listed`.
fn write_case(
    edit: &mut PackageEdit,
    stem: &Path,
    input: &[u8],
    answer: &str,
    listed: &mut String,
) -> Result<(), RunError> {
    for (ext, bytes) in [("in", input), ("ans", answer.as_bytes())] {
        let path = PathBuf::from(format!("{}.{ext}", stem.display()));
        edit.write(&path, bytes.to_vec())?;
        listed.push_str(&format!("{}\n", path.display()));
    }
    Ok(())
}

/// Adds the files `listed` to the package's `referee-files.txt`, when it has one.
fn list_in_manifest(edit: &mut PackageEdit, listed: &str) -> Result<(), RunError> {
    let manifest = Path::new(super::PACKAGE_MANIFEST);
    if let Some(mut text) = edit.read(manifest)? {
        text.extend_from_slice(listed.as_bytes());
        edit.write(manifest, text)?;
    }
    Ok(())
}

/// Checks, before any work, that cases can be added to the package being edited as
/// [`add_to_package`] adds them: a DMOJ problem's `init.yml` keeps its `test_cases` where
/// [`with_test_cases`] edits them (an error naming the file, and the line where YAML does not
/// parse). A package of the problem package format needs nothing more than the edit checks.
pub fn check_addable(edit: &PackageEdit) -> Result<(), RunError> {
    let named = |dir: &Path, name: String| {
        RunError::from(NameTooLong {
            dir: crate::util::walk::display(&edit.package().join(dir)),
            name,
        })
    };
    if !is_dmoj(edit) {
        let (dir, names) = case_directory(edit)?;
        return match too_long(&names, "") {
            Some(name) => Err(named(&dir, name)),
            None => Ok(()),
        };
    }
    if let Some(name) = too_long(&dmoj_secret_stems(edit)?, "secret-") {
        return Err(named(Path::new(""), name));
    }
    let init = Path::new("init.yml");
    let text = edit.read(init)?.unwrap_or_default();
    with_test_cases(
        &String::from_utf8_lossy(&text),
        &["secret-probe.in".to_string()],
    )
    .map_err(|why| super::limits::ByHandIn {
        file: crate::util::walk::display(&edit.package().join(init)),
        why,
    })?;
    Ok(())
}

/// The names of a DMOJ problem folder's `secret-*` files, without the prefix.
fn dmoj_secret_stems(edit: &PackageEdit) -> Result<Vec<String>, RunError> {
    Ok((edit.list(Path::new(""))?.iter())
        .filter_map(|name| name.strip_prefix("secret-"))
        .map(str::to_string)
        .collect())
}

/// A case [`add_to_package`] would add whose file name is longer than a directory may hold:
/// refused before the audit.
#[derive(Debug, thiserror::Error)]
#[error(
    "--add-to: {dir}: a case added after its last would be named {name} ({} bytes), longer \
     than a file name may be ({NAME_MAX} bytes); shorten the last case's name",
    name.len()
)]
pub struct NameTooLong {
    /// The directory the case would be added to.
    dir: String,
    /// The name.
    name: String,
}

impl crate::util::error::RunRefusal for NameTooLong {}

/// Whether the package is a DMOJ problem's folder: an `init.yml`, no `data/`.
pub fn is_dmoj(edit: &PackageEdit) -> bool {
    edit.exists(Path::new("init.yml")) && !edit.exists(Path::new("data"))
}

/// Adds `inputs` and their `answers` to a DMOJ problem's folder as `referee package --system
/// dmoj` lays its cases out: `secret-STEM.in` and `.ans` beside the others ([`next_stems`] after
/// the last `secret-*` case), each an entry of `init.yml`'s `test_cases` ([`with_test_cases`]).
fn add_to_dmoj(
    edit: &mut PackageEdit,
    inputs: &[&[u8]],
    answers: &[&str],
) -> Result<Vec<String>, RunError> {
    let secret = dmoj_secret_stems(edit)?;
    let mut entries = Vec::new();
    let mut listed = String::new();
    for ((stem, input), answer) in next_stems(&secret, inputs.len())
        .iter()
        .zip(inputs)
        .zip(answers)
    {
        let file = format!("secret-{stem}");
        write_case(edit, Path::new(&file), input, answer, &mut listed)?;
        entries.push(format!("{file}.in"));
    }
    let init = Path::new("init.yml");
    let text = edit.read(init)?.unwrap_or_default();
    let edited = with_test_cases(&String::from_utf8_lossy(&text), &entries).map_err(|why| {
        super::limits::ByHandIn {
            file: crate::util::walk::display(&edit.package().join(init)),
            why,
        }
    })?;
    edit.write(init, edited.into_bytes())?;
    list_in_manifest(edit, &listed)?;
    Ok(entries)
}

/// DMOJ's `init.yml` (`text`) with a case `NAME.in` of `inputs` (its answer `NAME.ans`, one
/// point) added at the end of its `test_cases` list, each on one line as `referee package`
/// writes them, at the list's indentation; read back, the list must end with them. Refused
/// where the list is not written one entry a line under a `test_cases:` of its own.
pub fn with_test_cases(text: &str, inputs: &[String]) -> Result<String, super::limits::ByHand> {
    use super::limits::{joined, parsed_strictly, top_level_key, ByHand};
    let original = parsed_strictly(text)?;
    let before = original["test_cases"].as_vec().map_or(0, Vec::len);
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let at = lines
        .iter()
        .position(|l| top_level_key(l) == Some("test_cases"))
        .ok_or(ByHand::TestCasesNotPlain)?;
    if !lines[at]["test_cases:".len()..].trim().is_empty() {
        return Err(ByHand::TestCasesNotPlain);
    }
    let end = (at + 1..lines.len())
        .find(|&i| top_level_key(&lines[i]).is_some())
        .unwrap_or(lines.len());
    let last = (at + 1..end)
        .rev()
        .find(|&i| !lines[i].trim().is_empty() && !lines[i].trim_start().starts_with('#'))
        .unwrap_or(at);
    let indent = (at + 1..end)
        .map(|i| &lines[i])
        .find(|l| l.trim_start().starts_with("- "))
        .map_or(String::new(), |l| {
            l[..l.len() - l.trim_start().len()].to_string()
        });
    for (k, input) in inputs.iter().enumerate() {
        let stem = input.trim_end_matches(".in");
        lines.insert(
            last + 1 + k,
            format!("{indent}- {{in: {input}, out: {stem}.ans, points: 1}}"),
        );
    }
    let edited = joined(text, &lines);
    let cases = parsed_strictly(&edited)?["test_cases"]
        .as_vec()
        .cloned()
        .unwrap_or_default();
    let reads_back = cases.len() == before + inputs.len()
        && (cases[before..].iter().zip(inputs))
            .all(|(case, input)| case["in"].as_str() == Some(input));
    if !reads_back {
        return Err(ByHand::TestCasesNotPlain);
    }
    Ok(edited)
}

/// `count` stems for new cases in a directory holding the files `names`, each `NAME.in` sorting
/// after every `.in` there and after the one before it: a number one past the last case's
/// leading number, at its width, then `-referee` (`011-referee`); where that would not sort
/// after it (no leading number, or the number outgrows its width), the last case's stem then
/// `_referee-NNN` (`_` sorts after the `.` of `.in`); `001-referee` on in an empty directory.
pub fn next_stems(names: &[String], count: usize) -> Vec<String> {
    let last = names
        .iter()
        .filter(|n| n.ends_with(".in"))
        .max()
        .map(|n| n.trim_end_matches(".in").to_string());
    let Some(last) = last else {
        return (1..=count).map(|k| format!("{k:03}-referee")).collect();
    };
    let last_name = format!("{last}.in");
    let digits = last.bytes().take_while(u8::is_ascii_digit).count();
    let first = last[..digits].parse::<u64>().map_or(1, |n| n + 1);
    let numbered: Vec<String> = (0..count as u64)
        .map(|k| format!("{:0digits$}-referee", first + k))
        .collect();
    let sorts_after = |stems: &[String]| {
        stems
            .windows(2)
            .all(|w| format!("{}.in", w[0]) < format!("{}.in", w[1]))
            && stems.first().is_none_or(|s| format!("{s}.in") > last_name)
    };
    if digits > 0 && sorts_after(&numbered) {
        return numbered;
    }
    let width = count.to_string().len().max(3);
    (1..=count)
        .map(|k| format!("{last}_referee-{k:0width$}"))
        .collect()
}

/// Where the secret cases of a generators.yaml written by `referee package` end: the file
/// ends with them (its `data.secret.data` map, one `"NAME": RULE` line each).
fn ends_with_secret_cases(yaml: &str) -> bool {
    let last = yaml.lines().rev().find(|l| !l.trim().is_empty());
    yaml.contains("\n  secret:\n    data:\n")
        && last.is_some_and(|l| l.starts_with("      \"") && !l.starts_with("       "))
}

/// Lists the cases just added as `stems` (their `inputs` and `answers`) in the package's
/// `generators/generators.yaml`, copied from `generators/added/`, so that BAPCtools' `bt
/// generate` keeps them; the files written are pushed on `listed`. A generators.yaml that does
/// not end with its secret cases (edited by hand) is left alone, with a warning saying what to
/// add.
fn add_to_generators(
    edit: &mut PackageEdit,
    stems: &[String],
    inputs: &[&[u8]],
    answers: &[&str],
    listed: &mut String,
) -> Result<(), RunError> {
    let yaml_path = Path::new("generators/generators.yaml");
    let Some(yaml) = edit.read(yaml_path)? else {
        return Ok(());
    };
    let yaml = String::from_utf8_lossy(&yaml).into_owned();
    let entries: Vec<String> = stems
        .iter()
        .map(|stem| format!("      \"{stem}\": {{copy: \"added/{stem}\"}}\n"))
        .collect();
    if !ends_with_secret_cases(&yaml) {
        eprintln!(
            "audit: {} does not end with the secret cases referee package writes: add these \
             under data.secret.data for bt generate to keep the cases (their files are in \
             data/secret/):\n{}",
            edit.package().join(yaml_path).display(),
            entries.concat()
        );
        return Ok(());
    }
    let added = Path::new("generators/added");
    for ((stem, input), answer) in stems.iter().zip(inputs).zip(answers) {
        write_case(edit, &added.join(stem), input, answer, listed)?;
    }
    let appended = format!(
        "{yaml}      # added by referee audit --add-to\n{}",
        entries.concat()
    );
    edit.write(yaml_path, appended.into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    /// Adds `inputs` to the package at `dir` in one edit, committed.
    fn add(dir: &Path, inputs: &[&[u8]]) -> Vec<String> {
        let mut edit = PackageEdit::begin(dir).unwrap();
        let answers: Vec<String> = inputs
            .iter()
            .map(|i| format!("{}\n", String::from_utf8_lossy(i).to_uppercase()))
            .collect();
        let answers: Vec<&str> = answers.iter().map(String::as_str).collect();
        let names = add_to_package(&mut edit, inputs, &answers).unwrap();
        edit.commit(|| false).unwrap();
        names
    }

    fn package() -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("p");
        fs::create_dir_all(p.join("data/secret")).unwrap();
        (dir, p)
    }

    #[test]
    fn added_cases_sort_after_every_existing_one_and_never_overwrite() {
        let (_dir, p) = package();
        let secret = p.join("data/secret");
        for name in ["001-a", "009-b", "010-generated-1-0"] {
            fs::write(secret.join(format!("{name}.in")), name).unwrap();
        }
        assert_eq!(
            add(&p, &[b"x", b"y"]),
            ["data/secret/011-referee.in", "data/secret/012-referee.in"]
        );
        assert_eq!(fs::read(secret.join("012-referee.ans")).unwrap(), b"Y\n");
        assert_eq!(add(&p, &[b"z"]), ["data/secret/013-referee.in"]);
        let names = |files: &[&str]| files.iter().map(|f| f.to_string()).collect::<Vec<_>>();
        assert_eq!(next_stems(&names(&["zeta.in"]), 1), ["zeta_referee-001"]);
        // A name with no room left after it is found before the audit.
        let long = format!("{}.in", "z".repeat(240));
        assert!(too_long(&names(&[&long]), "").is_some_and(|n| n.len() > NAME_MAX));
        assert_eq!(too_long(&names(&["zeta.in"]), "secret-"), None);
        assert_eq!(next_stems(&names(&[]), 2), ["001-referee", "002-referee"]);
        assert_eq!(next_stems(&names(&["a.ans"]), 1), ["001-referee"]);
        // Past the width of the numbers: still after the last case.
        let stems = next_stems(&names(&["998-a.in", "999-last.in"]), 1);
        assert_eq!(stems, ["999-last_referee-001"]);
        assert!(format!("{}.in", stems[0]).as_str() > "999-last.in");
        // The last case by its file name: `b-x.in` sorts before `b.in`.
        let stems = next_stems(&names(&["b-x.in", "b.in"]), 1);
        assert!(format!("{}.in", stems[0]).as_str() > "b.in", "{stems:?}");
    }

    #[test]
    fn a_secret_of_groups_gets_the_cases_in_its_last_group_and_nothing_is_empty() {
        let (_dir, p) = package();
        let secret = p.join("data/secret");
        assert_eq!(add(&p, &[b"x"]), ["data/secret/001-referee.in"]);
        fs::remove_file(secret.join("001-referee.in")).unwrap();
        fs::remove_file(secret.join("001-referee.ans")).unwrap();
        for group in ["group1", "group2"] {
            fs::create_dir(secret.join(group)).unwrap();
            fs::write(secret.join(group).join("01-a.in"), "a").unwrap();
        }
        assert_eq!(add(&p, &[b"x"]), ["data/secret/group2/02-referee.in"]);
        assert!(secret.join("group2/02-referee.in").is_file());
        // Nothing to add: nothing changes.
        let mut edit = PackageEdit::begin(&p).unwrap();
        assert!(add_to_package(&mut edit, &[], &[]).unwrap().is_empty());
        assert!(edit.is_empty());
    }

    #[test]
    fn dmoj_test_cases_get_an_entry_each_or_are_refused() {
        let added = ["secret-001-referee.in".to_string()];
        let init = "# cases\ntest_cases:\n- {in: a.in, out: a.ans, points: 1}\nchecker: check.py\n";
        assert_eq!(
            with_test_cases(init, &added).unwrap(),
            "# cases\ntest_cases:\n- {in: a.in, out: a.ans, points: 1}\n\
             - {in: secret-001-referee.in, out: secret-001-referee.ans, points: 1}\n\
             checker: check.py\n"
        );
        // An entry written over several lines is followed by the new one.
        let long = "test_cases:\n- in: a.in\n  out: a.ans\n";
        assert!(with_test_cases(long, &added)
            .unwrap()
            .ends_with("points: 1}\n"));
        for refused in [
            "test_cases: []\n",
            "checker: check.py\n",
            "test_cases:\n  - {in: [a.in\n",
        ] {
            assert!(with_test_cases(refused, &added).is_err(), "{refused:?}");
        }
    }

    #[test]
    fn added_cases_are_listed_in_the_generators_referee_wrote_and_only_there() {
        let (_dir, p) = package();
        fs::create_dir_all(p.join("generators")).unwrap();
        let yaml = "data:\n  sample:\n    data:\n  secret:\n    data:\n      \"001-a\": \"referee --case a\"\n";
        fs::write(p.join("generators/generators.yaml"), yaml).unwrap();
        fs::write(p.join("data/secret/001-a.in"), "a").unwrap();
        assert_eq!(add(&p, &[b"x"]), ["data/secret/002-referee.in"]);
        let after = fs::read_to_string(p.join("generators/generators.yaml")).unwrap();
        assert_eq!(
            after,
            format!("{yaml}      # added by referee audit --add-to\n      \"002-referee\": {{copy: \"added/002-referee\"}}\n")
        );
        assert_eq!(
            fs::read(p.join("generators/added/002-referee.in")).unwrap(),
            b"x"
        );
        assert_eq!(
            fs::read(p.join("generators/added/002-referee.ans")).unwrap(),
            b"X\n"
        );
        // Again: still the end of the secret cases.
        add(&p, &[b"y"]);
        let again = fs::read_to_string(p.join("generators/generators.yaml")).unwrap();
        assert!(
            again.ends_with("\"003-referee\": {copy: \"added/003-referee\"}\n"),
            "{again}"
        );
        // A generators.yaml edited so that it ends elsewhere is left as it is.
        let edited = format!("{again}  invalid_input:\n    data: []\n");
        fs::write(p.join("generators/generators.yaml"), &edited).unwrap();
        add(&p, &[b"z"]);
        assert_eq!(
            fs::read_to_string(p.join("generators/generators.yaml")).unwrap(),
            edited
        );
        assert!(p.join("data/secret/004-referee.in").is_file());
        assert!(!p.join("generators/added/004-referee.in").exists());
    }
}
