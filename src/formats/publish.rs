//! Publishing a run's results to CI systems: the JUnit file, the GitHub Actions annotations and
//! the step summary that a run's flags ask for.

use std::path::PathBuf;

use super::ci::Suite;

/// Where a run's CI output goes.
#[derive(Debug, Clone, Default)]
pub struct CiOutput {
    /// `--junit FILE`.
    pub junit: Option<PathBuf>,
    /// Print GitHub Actions workflow commands (annotations).
    pub annotations: bool,
    /// Print them on standard error (standard output holds JSON).
    pub annotations_on_stderr: bool,
    /// The Markdown file to append a summary to (`$GITHUB_STEP_SUMMARY`).
    pub step_summary: Option<PathBuf>,
    /// The directory of the run's reports, named in the annotations and summary.
    pub reports: Option<PathBuf>,
}

impl CiOutput {
    /// Whether anything is to be written.
    pub fn wanted(&self) -> bool {
        self.junit.is_some() || self.annotations || self.step_summary.is_some()
    }
}

/// Writes the JUnit report, prints the annotations and appends the step summary that
/// `output` asks for, for the run `title` (`referee verify`, ...) with `suites`.
pub fn publish(title: &str, suites: &[Suite], output: &CiOutput) -> std::io::Result<()> {
    if let Some(path) = &output.junit {
        super::junit::write(path, title, suites)?;
    }
    if output.annotations {
        let text = super::github::annotations(suites, output.reports.as_deref());
        if output.annotations_on_stderr {
            eprint!("{text}");
        } else {
            use std::io::Write;
            let mut out = std::io::stdout().lock();
            out.write_all(text.as_bytes())?;
            out.flush()?;
        }
    }
    if let Some(path) = &output.step_summary {
        super::github::append_summary(path, title, suites, output.reports.as_deref())?;
    }
    Ok(())
}
