//! Where a command's reports go: apart from its inputs and from one another, the CI and HTML flags, and publishing them.

use super::*;

/// Where a run writes, and what it reads, checked before any work.
pub(super) struct Destinations<'a> {
    /// The report directory, `--out`.
    pub(super) out: &'a std::path::Path,
    /// The files and trees the run reads, each with its flag or role.
    pub(super) reads: Vec<(&'static str, &'a std::path::Path)>,
    /// The names the run's reports take in `out`.
    pub(super) reports: &'a [&'a str],
}

impl Destinations<'_> {
    /// Checks, before any work, that `--out` holds nothing the run reads, and that each output
    /// file (`--junit`, `--html`, `$GITHUB_STEP_SUMMARY`) can be written where asked without
    /// replacing anything the run reads or writes: not a directory, in a directory that exists
    /// (or `--out`, which the run makes), not inside what the run reads, not one of the run's
    /// reports, and no two of them the same file.
    pub(super) fn check(&self, ci: &CiArgs, html: Option<&HtmlArgs>) -> Result<(), RunError> {
        out_apart(self.out, self.reads.iter().copied())?;
        let mut files: Vec<(&'static str, &std::path::Path)> = Vec::new();
        if let Some(junit) = &ci.junit {
            files.push(("--junit", junit));
        }
        if let Some(page) = html.and_then(|h| h.html.as_deref()) {
            files.push(("--html", page));
        }
        let answers = self.answers();
        for (flag, path) in &files {
            check_output_file(flag, path, Some(self.out))?;
            self.apart(flag, path, &answers)?;
        }
        if let [(a, first), (b, second)] = files[..] {
            use crate::formats::write::real_path;
            if real_path(first) == real_path(second) {
                return Err(UsageError::SameFile {
                    a,
                    first: first.to_path_buf(),
                    b,
                    second: second.to_path_buf(),
                }
                .into());
            }
        }
        ci.check_step_summary()?;
        if let Some(summary) = CiArgs::step_summary() {
            self.apart("$GITHUB_STEP_SUMMARY", &summary, &answers)?;
        }
        Ok(())
    }

    /// The answers read beside the input files named alone: `X.ans` beside each input `X.*`,
    /// whatever its extension (as the run reads them).
    pub(super) fn answers(&self) -> Vec<std::path::PathBuf> {
        (self.reads.iter())
            .filter(|(_, path)| path.is_file() && path.extension().is_none_or(|e| e != "ans"))
            .map(|(_, path)| path.with_extension("ans"))
            .collect()
    }

    /// Refuses the output file `path` (the value of `flag`) when it is, or lies inside, what the
    /// run reads (`answers` besides [`Self::reads`]: [`Self::answers`]), or is one of the
    /// reports the run writes in `--out`.
    pub(super) fn apart(
        &self,
        flag: &'static str,
        path: &std::path::Path,
        answers: &[std::path::PathBuf],
    ) -> Result<(), RunError> {
        use crate::formats::write::real_path;
        let answers = answers.iter().map(|a| ("the answer", a.as_path()));
        not_inside(flag, path, self.reads.iter().copied().chain(answers))?;
        let real = real_path(path);
        if let Ok(rest) = real.strip_prefix(real_path(self.out)) {
            if let Some(first) = rest.components().next() {
                let name = first.as_os_str().to_string_lossy();
                if self.reports.contains(&name.as_ref()) {
                    return Err(UsageError::OneOfTheReports {
                        flag,
                        path: path.to_path_buf(),
                        name: name.into_owned(),
                        out: self.out.to_path_buf(),
                    }
                    .into());
                }
            }
        }
        Ok(())
    }
}

/// Refuses a directory of saved runs (`--save-runs`) inside what the run reads (`reads`, each
/// with its flag or role), where the next run would read them as data, or inside the report
/// directory `out`, which the reports replace as a whole.
pub(super) fn saved_runs_apart(
    saved: &std::path::Path,
    out: &std::path::Path,
    reads: &[(&'static str, &std::path::Path)],
) -> Result<(), RunError> {
    use crate::formats::write::inside;
    if inside(saved, out) {
        return Err(UsageError::SavedRunsInOut {
            saved: saved.to_path_buf(),
            out: out.to_path_buf(),
        }
        .into());
    }
    not_inside("--save-runs", saved, reads.iter().copied())
}

/// Refuses the output `path` (the value of `flag`) when it is, or lies inside, one of the files
/// or trees a command reads (`reads`, each with its flag or role).
pub(super) fn not_inside<'a>(
    flag: &'static str,
    path: &std::path::Path,
    reads: impl IntoIterator<Item = (&'static str, &'a std::path::Path)>,
) -> Result<(), RunError> {
    for (what, tree) in reads {
        if crate::formats::write::inside(path, tree) {
            return Err(UsageError::InsideWhatIsRead {
                flag,
                path: path.to_path_buf(),
                what,
                tree: tree.to_path_buf(),
            }
            .into());
        }
    }
    Ok(())
}

/// Refuses a report directory `out` that holds one of the files or trees a command reads
/// (`trees`, each with its flag or role): its reports would be written among the data.
pub(super) fn out_apart<'a>(
    out: &std::path::Path,
    trees: impl IntoIterator<Item = (&'static str, &'a std::path::Path)>,
) -> Result<(), RunError> {
    for (what, tree) in trees {
        if crate::formats::write::inside(tree, out) {
            return Err(UsageError::OutHoldsWhatIsRead {
                out: out.to_path_buf(),
                what,
                tree: tree.to_path_buf(),
            }
            .into());
        }
    }
    Ok(())
}
/// When to print GitHub Actions annotations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(super) enum Annotations {
    /// When `GITHUB_ACTIONS=true`.
    Auto,
    /// Always.
    Github,
    /// Never.
    None,
}

/// The CI outputs of `verify`, `grade`, `stress` and `audit`.
#[derive(Debug, Clone, clap::Args)]
pub(super) struct CiArgs {
    /// Also write the results as JUnit XML to FILE: one testsuite per game (per submission for
    /// grade), one testcase per case, failures for problems (replaced atomically).
    #[arg(long, value_name = "FILE")]
    pub(super) junit: Option<std::path::PathBuf>,
    /// Print a GitHub Actions `::error file=...,line=...,col=...::` annotation per problem
    /// (at most 10, then a notice); `auto` does when GITHUB_ACTIONS=true. A Markdown summary
    /// is appended to $GITHUB_STEP_SUMMARY whenever it is set.
    #[arg(long, value_enum, default_value_t = Annotations::Auto)]
    pub(super) annotations: Annotations,
}

impl CiArgs {
    /// Checks, before any work, that the step summary ($GITHUB_STEP_SUMMARY) can be written
    /// where asked (the JUnit file is checked with the run's [`Destinations`]).
    pub(super) fn check_step_summary(&self) -> Result<(), RunError> {
        if let Some(path) = Self::step_summary() {
            check_output_file("$GITHUB_STEP_SUMMARY", &path, None)?;
        }
        Ok(())
    }

    /// The file `$GITHUB_STEP_SUMMARY` names, when set.
    pub(super) fn step_summary() -> Option<std::path::PathBuf> {
        std::env::var_os("GITHUB_STEP_SUMMARY")
            .filter(|v| !v.is_empty())
            .map(std::path::PathBuf::from)
    }

    /// Where the CI outputs of a run writing its reports into `reports` go. Annotations go to
    /// standard error when standard output holds JSON (`json`).
    pub(super) fn output(
        &self,
        reports: &std::path::Path,
        json: bool,
    ) -> crate::formats::publish::CiOutput {
        let github = std::env::var("GITHUB_ACTIONS").is_ok_and(|v| v == "true");
        crate::formats::publish::CiOutput {
            junit: self.junit.clone(),
            annotations: match self.annotations {
                Annotations::Auto => github,
                Annotations::Github => true,
                Annotations::None => false,
            },
            annotations_on_stderr: json,
            step_summary: Self::step_summary(),
            reports: Some(reports.to_path_buf()),
        }
    }
}

/// `--html FILE` of `verify`, `stress` and `audit`.
#[derive(Debug, Clone, clap::Args)]
pub(super) struct HtmlArgs {
    /// Also write a self-contained HTML report to FILE: the summary, every row (filter by
    /// status and game) and a board view of each problem (a replay for Pousse); replaced
    /// atomically.
    #[arg(long, value_name = "FILE")]
    pub(super) html: Option<std::path::PathBuf>,
}

impl HtmlArgs {
    /// Writes the page `page()` when asked.
    pub(super) fn write(
        &self,
        page: impl FnOnce() -> crate::formats::html::Page,
        suites: &[crate::formats::ci::Suite],
    ) -> Result<(), RunError> {
        match &self.html {
            Some(path) => page()
                .write(path, suites)
                .map_err(|e| RunError::io(path, e)),
            None => Ok(()),
        }
    }
}

/// An output file's path (the value of `flag`) must name a file, not a directory, in a
/// directory that exists or is the run's report directory `out` (which the run makes):
/// checked before any work, and no other directory is ever made for it.
pub(super) fn check_output_file(
    flag: &'static str,
    path: &std::path::Path,
    out: Option<&std::path::Path>,
) -> Result<(), RunError> {
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => std::path::Path::new("."),
    };
    let lexical = |p: &std::path::Path| -> std::path::PathBuf {
        p.components()
            .filter(|c| *c != std::path::Component::CurDir)
            .collect()
    };
    let in_out = out.is_some_and(|out| lexical(out) == lexical(parent));
    if path.is_dir() || path.file_name().is_none() {
        return Err(UsageError::IsDirectory {
            flag,
            path: path.to_path_buf(),
        }
        .into());
    }
    if !parent.is_dir() && !in_out {
        return Err(UsageError::NoDirectory {
            flag,
            path: path.to_path_buf(),
            parent: parent.to_path_buf(),
        }
        .into());
    }
    Ok(())
}

/// The slice of a run spread over machines.
#[derive(Debug, Clone, clap::Args)]
pub(super) struct ShardArgs {
    /// Run only the K-th of N disjoint slices (1-based), e.g. `2/4`; `referee merge` combines
    /// the slices' reports. `auto` reads the slice from the scheduler: REFEREE_SHARD, a Slurm
    /// job array (SLURM_ARRAY_TASK_ID, _MIN, _COUNT) or a Kubernetes Indexed Job
    /// (JOB_COMPLETION_INDEX with --shards).
    #[arg(long, value_name = "K/N|auto")]
    pub(super) shard: Option<crate::util::shard::ShardSpec>,
    /// The number of slices, for `--shard auto` in a Kubernetes Indexed Job (else
    /// REFEREE_SHARDS).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub(super) shards: Option<u64>,
}

impl ShardArgs {
    /// The slice asked for, if any.
    pub(super) fn slice(&self) -> Result<Option<crate::util::shard::Shard>, RunError> {
        match (self.shard, self.shards) {
            (None, None) => Ok(None),
            (None, Some(_)) => Err(crate::util::shard::ShardError::ShardsWithoutAuto.into()),
            (Some(spec), shards) => spec
                .resolve(shards, |name| std::env::var(name).ok())
                .map(Some)
                .map_err(RunError::from),
        }
    }
}

/// A run's CI outputs (`--junit`, annotations, the step summary) and its HTML report
/// (`--html`, the page `page()` over the same suites), each when asked.
pub(super) fn publish_all(
    title: &str,
    suites: &[crate::formats::ci::Suite],
    output: &crate::formats::publish::CiOutput,
    html: &HtmlArgs,
    page: impl FnOnce() -> crate::formats::html::Page,
) -> Result<(), RunError> {
    publish(title, suites, output)?;
    html.write(page, suites)
}

/// Publishes a run's CI outputs (`--junit`, annotations, the step summary), if any is wanted.
pub(super) fn publish(
    title: &str,
    suites: &[crate::formats::ci::Suite],
    output: &crate::formats::publish::CiOutput,
) -> Result<(), RunError> {
    if !output.wanted() {
        return Ok(());
    }
    crate::formats::publish::publish(title, suites, output).map_err(|e| {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            return RunError::ClosedPipe;
        }
        RunError::Publish {
            junit: output.junit.clone(),
            source: e,
        }
    })
}
