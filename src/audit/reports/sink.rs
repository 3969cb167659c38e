//! Where a finished audit goes. The pipeline returns the typed report with the bytes of its
//! files ([`Audited`]); each reader of it is a [`Sink`]: the report directory ([`ReportDir`],
//! laid out by [`Layout`](crate::audit::terms::layout::Layout)) here; the summary on standard error, the CI
//! outputs (JUnit, GitHub annotations, JSON) and the HTML page in the command line's layer.

use std::path::PathBuf;

use crate::audit::reports::audited::AuditReport;
use crate::audit::reports::report::{write_report, ReportFile, RunOptions};
use crate::audit::settings::Settings;
use crate::formats::manifest::Manifest;
use crate::formats::write::Staging;
use crate::game::RuleSet;
use crate::package::edit::PackageEdit;
use crate::util::error::RunError;
use crate::util::shard::Shard;
use crate::util::walk::CaseFile;

/// A finished audit: the typed report and what its readers need beside it.
pub struct Audited {
    /// The typed report.
    pub report: AuditReport,
    /// The report directory's files beside its tables: each finding's case, answer, output and
    /// standard error, and each strengthening case with its answer, at their layout's paths.
    pub files: Vec<ReportFile>,
    /// Every data file found (the manifest lists them, and the shard's).
    pub found: Vec<CaseFile>,
    /// The changes to `--add-to`'s package, made once the audit is complete
    /// ([`PackageEdit::commit`]).
    pub edit: Option<PackageEdit>,
}

/// A reader of a finished audit.
pub trait Sink {
    /// Takes the audit: writes it where this sink writes.
    fn take(&mut self, audited: &Audited) -> Result<(), RunError>;
}

/// The report directory, replaced as a whole when the audit is done; made ready (its staging
/// directory created) before any work, so that an `--out` that cannot be written stops the run
/// first.
pub struct ReportDir {
    out: PathBuf,
    staging: Option<Staging>,
    options: RunOptions,
    shard: Option<Shard>,
}

impl ReportDir {
    /// The report directory of an audit of `game` with `settings`.
    pub fn new<O: RuleSet>(game: &str, settings: &Settings<O>) -> Result<ReportDir, RunError> {
        let staging = Staging::new(&settings.out).map_err(|e| RunError::io(&settings.out, e))?;
        Ok(ReportDir {
            out: settings.out.clone(),
            staging: Some(staging),
            options: RunOptions::of(game, settings),
            shard: settings.shard,
        })
    }

    /// The run's options.
    pub fn options(&self) -> &RunOptions {
        &self.options
    }
}

impl Sink for ReportDir {
    /// Writes the reports once (a second audit given to the same directory is refused).
    fn take(&mut self, audited: &Audited) -> Result<(), RunError> {
        let staging = self.staging.take().ok_or_else(|| {
            let written = std::io::Error::new(std::io::ErrorKind::AlreadyExists, "written already");
            RunError::io(&self.out, written)
        })?;
        let judged: Vec<CaseFile> = audited
            .found
            .iter()
            .filter(|f| self.shard.is_none_or(|s| s.contains(&f.name)))
            .cloned()
            .collect();
        let manifest = Manifest::new(
            "audit",
            crate::formats::as_text::to_map(&self.options),
            &audited.found,
            self.shard.map(|s| (s, &judged[..])),
        );
        write_report(staging, &audited.report, manifest, &audited.files)
            .map_err(|e| RunError::io(&self.out, e))
    }
}
