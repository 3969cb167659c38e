//! `referee audit --add-to`: strengthening cases added to a package, after its cases, in its
//! data and in its generators.

use std::fs;
use std::path::Path;

use crate::error::RunError;

/// Adds `inputs` and their `answers` to `package`'s `data/secret/`, named to sort after every
/// case already there (a number one past the largest leading number, at its width, then
/// `-referee`), never over an existing file. Lists them in the package's `referee-files.txt`
/// when it has one, and in its `generators/generators.yaml` when it has the one `referee
/// package` writes ([`add_to_generators`]). The names given, relative to `data/secret`.
pub fn add_to_package(
    package: &Path,
    inputs: &[&[u8]],
    answers: &[&str],
) -> Result<Vec<String>, RunError> {
    let secret = package.join("data/secret");
    fs::create_dir_all(&secret).map_err(|e| RunError::io(&secret, e))?;
    let mut stems: Vec<String> = fs::read_dir(&secret)
        .map_err(|e| RunError::io(&secret, e))?
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().to_string();
            name.strip_suffix(".in").map(str::to_string)
        })
        .collect();
    stems.sort();
    let last = stems.last().cloned().unwrap_or_default();
    let digits = last.bytes().take_while(u8::is_ascii_digit).count();
    let (width, mut number) = if digits > 0 {
        (digits, last[..digits].parse::<u64>().unwrap_or(0) + 1)
    } else {
        (3, 1)
    };
    let mut names = Vec::new();
    let mut listed = String::new();
    for (input, answer) in inputs.iter().zip(answers) {
        let mut stem = format!("{number:0width$}-referee");
        if digits == 0 || stem <= last {
            stem = format!("{last}-referee-{number:03}");
        }
        number += 1;
        for (ext, bytes) in [("in", *input), ("ans", answer.as_bytes())] {
            let path = secret.join(format!("{stem}.{ext}"));
            let mut file = fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&path)
                .map_err(|e| RunError::io(&path, e))?;
            std::io::Write::write_all(&mut file, bytes).map_err(|e| RunError::io(&path, e))?;
            listed.push_str(&format!("data/secret/{stem}.{ext}\n"));
        }
        names.push(format!("{stem}.in"));
    }
    add_to_generators(package, &names, inputs, answers, &mut listed)?;
    let manifest = package.join(super::PACKAGE_MANIFEST);
    if manifest.is_file() && !listed.is_empty() {
        let mut file = fs::OpenOptions::new()
            .append(true)
            .open(&manifest)
            .map_err(|e| RunError::io(&manifest, e))?;
        std::io::Write::write_all(&mut file, listed.as_bytes())
            .map_err(|e| RunError::io(&manifest, e))?;
    }
    Ok(names)
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
    package: &Path,
    stems: &[String],
    inputs: &[&[u8]],
    answers: &[&str],
    listed: &mut String,
) -> Result<(), RunError> {
    let yaml_path = package.join("generators/generators.yaml");
    let Ok(yaml) = fs::read_to_string(&yaml_path) else {
        return Ok(());
    };
    let entries: Vec<String> = stems
        .iter()
        .map(|name| {
            let stem = name.trim_end_matches(".in");
            format!("      \"{stem}\": {{copy: \"added/{stem}\"}}\n")
        })
        .collect();
    if !ends_with_secret_cases(&yaml) {
        eprintln!(
            "audit: {} does not end with the secret cases referee package writes: add these \
             under data.secret.data for bt generate to keep the cases (their files are in \
             data/secret/):\n{}",
            yaml_path.display(),
            entries.concat()
        );
        return Ok(());
    }
    let added = package.join("generators/added");
    fs::create_dir_all(&added).map_err(|e| RunError::io(&added, e))?;
    for ((name, input), answer) in stems.iter().zip(inputs).zip(answers) {
        let stem = name.trim_end_matches(".in");
        for (ext, bytes) in [("in", *input), ("ans", answer.as_bytes())] {
            let path = added.join(format!("{stem}.{ext}"));
            fs::write(&path, bytes).map_err(|e| RunError::io(&path, e))?;
            listed.push_str(&format!("generators/added/{stem}.{ext}\n"));
        }
    }
    let mut file = fs::OpenOptions::new()
        .append(true)
        .open(&yaml_path)
        .map_err(|e| RunError::io(&yaml_path, e))?;
    std::io::Write::write_all(
        &mut file,
        format!(
            "      # added by referee audit --add-to\n{}",
            entries.concat()
        )
        .as_bytes(),
    )
    .map_err(|e| RunError::io(&yaml_path, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn added_cases_sort_after_every_existing_one_and_never_overwrite() {
        let dir = tempfile::tempdir().unwrap();
        let secret = dir.path().join("data/secret");
        fs::create_dir_all(&secret).unwrap();
        for name in ["001-a", "009-b", "010-generated-1-0"] {
            fs::write(secret.join(format!("{name}.in")), name).unwrap();
        }
        let names = add_to_package(dir.path(), &[b"x", b"y"], &["X\n", "Y\n"]).unwrap();
        assert_eq!(names, ["011-referee.in", "012-referee.in"]);
        assert_eq!(fs::read(secret.join("012-referee.ans")).unwrap(), b"Y\n");
        let names = add_to_package(dir.path(), &[b"z"], &["Z\n"]).unwrap();
        assert_eq!(names, ["013-referee.in"]);
        let other = tempfile::tempdir().unwrap();
        let secret = other.path().join("data/secret");
        fs::create_dir_all(&secret).unwrap();
        fs::write(secret.join("zeta.in"), "").unwrap();
        let names = add_to_package(other.path(), &[b"z"], &["Z\n"]).unwrap();
        assert_eq!(names, ["zeta-referee-001.in"]);
        assert!("zeta-referee-001" > "zeta");
    }

    #[test]
    fn added_cases_are_listed_in_the_generators_referee_wrote_and_only_there() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir_all(dir.path().join("data/secret")).unwrap();
        fs::create_dir_all(dir.path().join("generators")).unwrap();
        let yaml = "data:\n  sample:\n    data:\n  secret:\n    data:\n      \"001-a\": \"referee --case a\"\n";
        fs::write(dir.path().join("generators/generators.yaml"), yaml).unwrap();
        fs::write(dir.path().join("data/secret/001-a.in"), "a").unwrap();
        let names = add_to_package(dir.path(), &[b"x"], &["X\n"]).unwrap();
        assert_eq!(names, ["002-referee.in"]);
        let after = fs::read_to_string(dir.path().join("generators/generators.yaml")).unwrap();
        assert_eq!(
            after,
            format!("{yaml}      # added by referee audit --add-to\n      \"002-referee\": {{copy: \"added/002-referee\"}}\n")
        );
        assert_eq!(
            fs::read(dir.path().join("generators/added/002-referee.in")).unwrap(),
            b"x"
        );
        assert_eq!(
            fs::read(dir.path().join("generators/added/002-referee.ans")).unwrap(),
            b"X\n"
        );
        // Again: still the end of the secret cases.
        add_to_package(dir.path(), &[b"y"], &["Y\n"]).unwrap();
        let again = fs::read_to_string(dir.path().join("generators/generators.yaml")).unwrap();
        assert!(
            again.ends_with("\"003-referee\": {copy: \"added/003-referee\"}\n"),
            "{again}"
        );
        // A generators.yaml edited so that it ends elsewhere is left as it is.
        let edited = format!("{again}  invalid_input:\n    data: []\n");
        fs::write(dir.path().join("generators/generators.yaml"), &edited).unwrap();
        add_to_package(dir.path(), &[b"z"], &["Z\n"]).unwrap();
        assert_eq!(
            fs::read_to_string(dir.path().join("generators/generators.yaml")).unwrap(),
            edited
        );
        assert!(dir.path().join("data/secret/004-referee.in").is_file());
        assert!(!dir.path().join("generators/added/004-referee.in").exists());
    }
}
