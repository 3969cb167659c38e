//! Writing a package: into a staging directory beside `--out`, its file list, and the swap into place.

use super::*;

/// Writes the package of `G` under `rules`.
pub fn write<G: Game + Generated + Packaged>(
    settings: &Settings,
    rules: G::Options,
) -> Result<Written, RunError> {
    if settings.cases > MOST_CASES {
        return Err(PackageError::TooManyCases(settings.cases).into());
    }
    let content = G::package(rules).ok_or(PackageError::NoContent(G::NAME))?;
    let out = &settings.out;
    let short = dir_name(out);
    if short.is_empty()
        || !short
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
    {
        return Err(PackageError::ShortName {
            out: out.clone(),
            example: short_name::<G>(rules),
        }
        .into());
    }
    if fs::symlink_metadata(out).is_ok() && !settings.force {
        if let Some(foreign) = foreign_file(out).map_err(|e| RunError::io(out, e))? {
            return Err(PackageError::Foreign {
                out: out.clone(),
                foreign,
            }
            .into());
        }
    }
    let planned = cases::plan::<G>(&content, rules, settings.cases, &settings.seed.to_string())?;
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
    let written = match settings.system {
        System::Kattis => write_into::<G>(&staging, settings, rules, &content, &planned),
        System::Dmoj => dmoj::write_into::<G>(&staging, &settings.pin, rules, &content, &planned),
    }
    .and_then(|w| write_file_list(&staging).map(|()| w))
    .map_err(|e| RunError::io(&staging, e));
    let replaced = written.and_then(|written| {
        replace(&staging, out).map_err(|e| RunError::io(out, e))?;
        Ok(written)
    });
    if replaced.is_err() {
        let _ = fs::remove_dir_all(&staging);
    }
    replaced
}

/// Puts the directory `staging` in the place of `out`, whatever `out` is (a directory, a file,
/// a symbolic link, which is replaced, not followed) or nothing.
pub(super) fn replace(staging: &Path, out: &Path) -> io::Result<()> {
    match fs::symlink_metadata(out) {
        Ok(meta) if meta.is_dir() => fs::remove_dir_all(out)?,
        Ok(_) => fs::remove_file(out)?,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    fs::rename(staging, out)
}

/// The files under `dir`, relative to it, `/`-separated and sorted (links not followed).
pub(super) fn files_under(dir: &Path) -> io::Result<Vec<String>> {
    let mut files = Vec::new();
    for entry in walkdir::WalkDir::new(dir).sort_by_file_name() {
        let entry = entry.map_err(io::Error::other)?;
        if !entry.file_type().is_dir() {
            let rel = entry.path().strip_prefix(dir).unwrap_or(entry.path());
            files.push(crate::util::walk::display(rel));
        }
    }
    Ok(files)
}

/// Writes [`PACKAGE_MANIFEST`]: every file of the package in `dir`.
pub(super) fn write_file_list(dir: &Path) -> io::Result<()> {
    let mut list = String::new();
    for file in files_under(dir)? {
        list.push_str(&file);
        list.push('\n');
    }
    fs::write(dir.join(PACKAGE_MANIFEST), list)
}

/// What in the existing `out` referee did not write (`holds FILE`: the first file its
/// [`PACKAGE_MANIFEST`] does not list, any file when it has no list; `is a file`, `is a
/// symbolic link`): `None` when referee wrote everything in it.
pub(super) fn foreign_file(out: &Path) -> io::Result<Option<String>> {
    let meta = fs::symlink_metadata(out)?;
    if meta.file_type().is_symlink() {
        return Ok(Some("is a symbolic link".into()));
    }
    if !meta.is_dir() {
        return Ok(Some("is a file".into()));
    }
    // A regular file inside the package of at most 64 MiB (a FIFO or a device is never
    // opened to wait on, a link out of it never followed).
    let read_list = || -> io::Result<String> {
        use std::io::Read;
        let mut text = String::new();
        crate::util::guard::open_in(out, Path::new(PACKAGE_MANIFEST), 64 << 20)?
            .file
            .read_to_string(&mut text)?;
        Ok(text)
    };
    let listed = match read_list() {
        Ok(text) => text,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Ok(files_under(out)?
                .into_iter()
                .next()
                .map(|f| format!("holds {f}")))
        }
        Err(e) => return Err(e),
    };
    let listed: std::collections::HashSet<&str> = listed.lines().collect();
    Ok(files_under(out)?
        .into_iter()
        .find(|f| f != PACKAGE_MANIFEST && !listed.contains(f.as_str()))
        .map(|f| format!("holds {f}")))
}

/// A short name for the package of `G` under `rules`: the game's, with the rule set's letters
/// and digits when not the default.
pub(super) fn short_name<G: Game>(rules: G::Options) -> String {
    let mut name = G::NAME.to_string();
    if rules != G::Options::default() {
        name.extend(rules.name().chars().filter(char::is_ascii_alphanumeric));
    }
    name
}

pub(super) fn dir_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default()
}

/// A UUID (version 8, from the FNV hashes of `text`): the same name gives the same UUID.
pub(super) fn uuid_of(text: &str) -> String {
    let a = crate::util::hash::fnv1a(text.as_bytes());
    let b = crate::util::hash::mix64(a ^ 0x9e37_79b9_7f4a_7c15);
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

pub(super) fn write_file(path: &Path, bytes: &[u8]) -> io::Result<()> {
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir)?;
    }
    fs::write(path, bytes)
}

/// Writes each of `planned`'s cases at `path_of(case)` with the extensions `.in` and `.ans`
/// (the engine's answer); what was written.
pub(super) fn write_cases<G: Game>(
    planned: &[Planned],
    rules: G::Options,
    content: &Content,
    path_of: impl Fn(&Planned) -> PathBuf,
) -> io::Result<Written> {
    let mut written = Written {
        samples: 0,
        secret: 0,
        submissions: content.submissions.len(),
    };
    for case in planned {
        let answer = crate::gen::answer_of::<G>(&case.input, rules)
            .map_err(|e| io::Error::other(format!("{}: {e}", case.name)))?;
        let at = path_of(case);
        write_file(&at.with_extension("in"), &case.input)?;
        write_file(&at.with_extension("ans"), answer.as_bytes())?;
        match case.group {
            Group::Sample => written.samples += 1,
            Group::Secret => written.secret += 1,
        }
    }
    Ok(written)
}

/// The output validator's arguments: the rule set, and the default output validator's flags
/// that say what `referee check` then does (compare byte for byte).
pub fn output_validator_args(rules_name: &str) -> Vec<String> {
    let mut args = Vec::new();
    if !rules_name.is_empty() {
        args.push(format!("rules={rules_name}"));
    }
    args.extend(["case_sensitive".into(), "space_change_sensitive".into()]);
    args
}

pub(super) fn write_into<G: Game>(
    dir: &Path,
    settings: &Settings,
    rules: G::Options,
    content: &Content,
    planned: &[Planned],
) -> io::Result<Written> {
    let short = dir_name(&settings.out);
    let title = settings
        .name
        .clone()
        .unwrap_or_else(|| content.title.clone());
    let format = settings.format;
    let rules_arg = if rules.name().is_empty() {
        String::new()
    } else {
        format!(" --rules {}", rules.name())
    };
    let args = output_validator_args(rules.name());
    write_file(
        &dir.join("problem.yaml"),
        problem_yaml(format, &title, &short, rules.name(), content, &args).as_bytes(),
    )?;
    match format {
        FormatVersion::V2025_09 => write_file(
            &dir.join("statement/problem.en.tex"),
            statement::latex(&title, &content.statement).as_bytes(),
        )?,
        FormatVersion::V2023_07Draft => write_file(
            &dir.join("statement/problem.en.md"),
            content.statement.as_bytes(),
        )?,
        FormatVersion::Legacy => write_file(
            &dir.join("problem_statement/problem.en.tex"),
            statement::latex(&title, &content.statement).as_bytes(),
        )?,
    }
    let written = write_cases::<G>(planned, rules, content, |case| {
        dir.join("data").join(case.group.dir()).join(&case.name)
    })?;
    match format {
        FormatVersion::V2025_09 => write_file(
            &dir.join("data/test_group.yaml"),
            // As BAPCtools writes it from generators.yaml, so `bt generate` changes nothing.
            format!(
                "output_validator_args: [{}]\n",
                args.iter()
                    .map(|a| cases::yaml_string(a))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
            .as_bytes(),
        )?,
        FormatVersion::V2023_07Draft => write_file(
            &dir.join("data/testdata.yaml"),
            format!("output_validator_flags: {}\n", args.join(" ")).as_bytes(),
        )?,
        FormatVersion::Legacy => {}
    }
    write_programs::<G>(dir, settings, &rules_arg, content, planned, &args)?;
    for (verdict, file, source) in &content.submissions {
        write_file(
            &dir.join("submissions").join(verdict).join(file),
            source.as_bytes(),
        )?;
    }
    Ok(written)
}

/// The package's programs (validators, generator) and, in 2025-09, its generators.yaml.
pub(super) fn write_programs<G: Game>(
    dir: &Path,
    settings: &Settings,
    rules_arg: &str,
    content: &Content,
    planned: &[Planned],
    args: &[String],
) -> io::Result<()> {
    let format = settings.format;
    let pin = &settings.pin;
    let game = G::NAME;
    write_program(
        &dir.join("input_validators/referee"),
        pin,
        "input validator",
        &format!("validate {game}{rules_arg} --constraints contest"),
    )?;
    // 2025-09: the directory is the program; problemtools reads 2023-07-draft's as a
    // directory of programs.
    let output_validator = match format {
        FormatVersion::V2025_09 => dir.join("output_validator"),
        FormatVersion::V2023_07Draft => dir.join("output_validator/referee"),
        FormatVersion::Legacy => dir.join("output_validators/referee"),
    };
    write_program(
        &output_validator,
        pin,
        "output validator",
        &format!("check {game}{rules_arg} \"$@\""),
    )?;
    if format == FormatVersion::V2025_09 {
        write_program(
            &dir.join("answer_validators/referee"),
            pin,
            "answer validator",
            &format!("validate {game}{rules_arg} --answer-of \"$1\""),
        )?;
        write_program(
            &dir.join("generators").join(cases::GENERATOR),
            pin,
            "generator",
            &format!("gen {game}{rules_arg} --contest --answer testcase.ans \"$@\""),
        )?;
        let solution = content
            .submissions
            .iter()
            .find(|(verdict, _, _)| verdict == "accepted")
            .map(|(_, file, _)| file.as_str())
            .ok_or_else(|| io::Error::other("the package has no accepted solution"))?;
        write_file(
            &dir.join("generators/generators.yaml"),
            cases::generators_yaml(planned, &settings.seed.to_string(), solution, args).as_bytes(),
        )?;
    }
    Ok(())
}

/// `problem.yaml` in `format`.
pub(super) fn problem_yaml(
    format: FormatVersion,
    title: &str,
    short: &str,
    rules_name: &str,
    content: &Content,
    args: &[String],
) -> String {
    let q = cases::yaml_string;
    let uuid = uuid_of(&format!("{short}/{rules_name}"));
    let common = format!(
        "name: {}\nsource: {}\nlicense: cc by-sa\nrights_owner: the problem's organisers\n",
        q(title),
        q(&content.source)
    );
    match format {
        FormatVersion::V2025_09 => format!(
            "problem_format_version: 2025-09\ntype: pass-fail\n{common}uuid: {uuid}\nkeywords: [{}]\n",
            q(short)
        ),
        FormatVersion::V2023_07Draft => format!(
            "problem_format_version: 2023-07-draft\n{common}uuid: {uuid}\nkeywords: [{}]\n",
            q(short)
        ),
        FormatVersion::Legacy => format!(
            "problem_format_version: legacy\n{common}uuid: {uuid}\nvalidation: custom\nvalidator_flags: {}\nkeywords: {}\n",
            q(&args.join(" ")),
            q(short)
        ),
    }
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
