//! The reports of the shards of one audit (`--shard K/N`) combined into those of one run: each
//! shard's `audit.json` read back as its typed report ([`AuditReport`]), the reports combined
//! program by program, and printed by the same writer as a run's ([`crate::audit::reports::report`]).
//!
//! A program's records combine as its runs would have: its findings one per signature (the
//! example from the lowest case, the counts summed), its result on the existing data the first
//! file it fails in any slice, its cases and runs summed. The strengthening cases of every
//! shard are screened again against the programs that must be accepted overall, and covered
//! again against the programs proved wrong that the whole data accepts: the merged `tests/`
//! is the fewest of the shards' cases that does it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::audit::reports::audited::{
    AuditReport, CasesOutcome, Effort, Examined, FindingRecord, Finish, OnCase, ProgramRecord,
    Reached, Tally, TestRecord,
};
use crate::audit::reports::report::{ReadBack, ReportFile};
use crate::audit::running::runner::{FromData, TimeLimit};
use crate::audit::strengthen::{strengthening_set, Tested};
use crate::audit::terms::layout::Layout;
use crate::formats::manifest::Manifest;
use crate::formats::merge::{Merged, ShardMerge, Shards};
use crate::formats::write::Staging;
use crate::util::error::RunError;

/// `audit`'s reports, merged.
pub struct AuditMerge;

impl ShardMerge for AuditMerge {
    fn command(&self) -> &'static str {
        "audit"
    }

    fn manifest(&self) -> &'static str {
        Layout::MANIFEST
    }

    fn combine(
        &self,
        shards: &Shards,
        staging: Staging,
        manifest: Manifest,
        _kept_rows: usize,
    ) -> Result<Merged, RunError> {
        use crate::audit::reports::report;
        let out = staging.dir().to_path_buf();
        let reports = read(shards.dirs)?;
        let (merged, files) = combine(shards.dirs, &reports)?;
        let options: report::RunOptions =
            crate::formats::as_text::from_map(&manifest.options).map_err(NotShards::Options)?;
        report::write_report(staging, &merged, manifest, &files)
            .map_err(|e| RunError::io(&out, e))?;
        let lines = report::lines(&merged);
        let scores = crate::audit::reports::audited::scores_of(&merged);
        let problems = lines.iter().filter(|l| !l.verdict.is_empty()).count()
            + report::package_verdict(&scores).len();
        let suite = report::suite(&merged, &lines, &report::properties(&merged, &options));
        Ok(Merged {
            command: "audit",
            shards: shards.dirs.len(),
            rows: lines.len(),
            problems,
            reports: vec![Layout::PROGRAMS.into(), Layout::MANIFEST.into()],
            suites: vec![suite],
            summary: None,
        })
    }
}

/// Why audit reports cannot be merged as the shards of one run.
#[derive(Debug, thiserror::Error)]
pub enum NotShards {
    /// A signal interrupted a shard's audit.
    #[error(
        "{}: an audit a signal interrupted: its slice is not whole (its reports hold what it \
         found before); run that shard again",
        .0.display()
    )]
    Interrupted(PathBuf),
    /// Shards that audit other programs.
    #[error("{}: audits other programs than {}: not shards of one run", dir.display(), first.display())]
    OtherPrograms {
        /// The shard.
        dir: PathBuf,
        /// The first shard.
        first: PathBuf,
    },
    /// The manifest's options are not audit's.
    #[error("{manifest}: the options: {0}", manifest = Layout::MANIFEST)]
    Options(serde_json::Error),
}

impl crate::util::error::RunRefusal for NotShards {}

/// The typed reports of the shard directories `dirs`.
/// The most bytes one file of a shard (a case's input, answer or output) is read to.
const SHARD_FILE_MAX: u64 = 1 << 30;

/// The file `relative` of shard directory `shard`: a regular file inside it, of at most
/// [`SHARD_FILE_MAX`] bytes ([`crate::util::guard::open_in`]: never a path outside it, a FIFO or a
/// device).
fn shard_file(shard: &Path, relative: &Path) -> Result<Vec<u8>, RunError> {
    use std::io::Read;
    let source = shard.join(relative);
    let mut bytes = Vec::new();
    crate::util::guard::open_in(shard, relative, SHARD_FILE_MAX)
        .and_then(|mut opened| opened.file.read_to_end(&mut bytes))
        .map_err(|e| RunError::io(&source, e))?;
    Ok(bytes)
}

fn read(dirs: &[PathBuf]) -> Result<Vec<AuditReport>, RunError> {
    dirs.iter()
        .map(|dir| {
            let (_, read): (Manifest, ReadBack) = Manifest::read_with(dir, Layout::MANIFEST)?;
            Ok(read.report)
        })
        .collect()
}

/// One report of the shards `reports` (read from `dirs`), and the files it needs from them.
fn combine(
    dirs: &[PathBuf],
    reports: &[AuditReport],
) -> Result<(AuditReport, Vec<ReportFile>), RunError> {
    let first = &reports[0];
    let names = |r: &AuditReport| {
        r.programs
            .iter()
            .map(|p| p.name.clone())
            .collect::<Vec<_>>()
    };
    for (dir, report) in dirs.iter().zip(reports) {
        if report.interrupted {
            return Err(NotShards::Interrupted(dir.clone()).into());
        }
        if names(report) != names(first) {
            return Err(NotShards::OtherPrograms {
                dir: dir.clone(),
                first: dirs[0].clone(),
            }
            .into());
        }
    }
    let mut files = Vec::new();
    let mut programs = Vec::new();
    // Each shard's programs by name (every shard names the same ones, checked above).
    let by_name: Vec<BTreeMap<&str, &ProgramRecord>> = reports
        .iter()
        .map(|r| r.programs.iter().map(|p| (p.name.as_str(), p)).collect())
        .collect();
    for name in names(first) {
        let records: Vec<(&Path, &ProgramRecord)> = dirs
            .iter()
            .zip(&by_name)
            .filter_map(|(dir, shard)| Some((dir.as_path(), *shard.get(name.as_str())?)))
            .collect();
        programs.push(program(&records, &mut files)?);
    }
    let (tests, dropped) = tests(dirs, reports, &programs, &mut files)?;
    let report = AuditReport {
        game: first.game.clone(),
        rules: first.rules.clone(),
        strict: first.strict,
        problem: first.problem.clone(),
        time_limit: time_limit(reports),
        memory_limit: first.memory_limit,
        max_output: first.max_output,
        confinement: first.confinement.clone(),
        has_data: reports.iter().any(|r| r.has_data),
        programs,
        tests,
        dropped,
        not_candidates: union(reports.iter().map(|r| &r.not_candidates)),
        notes: union(reports.iter().map(|r| &r.notes)),
        effort: effort(reports),
        interrupted: reports.iter().any(|r| r.interrupted),
        limits: crate::audit::limits::merge(
            &reports
                .iter()
                .filter_map(|r| r.limits.as_ref())
                .collect::<Vec<_>>(),
        ),
    };
    Ok((report, files))
}

/// Every string of `lists`, once each, in order.
fn union<'a>(lists: impl Iterator<Item = &'a Vec<String>>) -> Vec<String> {
    let mut all: Vec<String> = Vec::new();
    for text in lists.flatten() {
        if !all.contains(text) {
            all.push(text.clone());
        }
    }
    all
}

/// The shards' time limit: `--timeout`, from the slowest accepted time of any slice's data.
fn time_limit(reports: &[AuditReport]) -> TimeLimit {
    let from = reports.iter().filter_map(|r| r.time_limit.from_data);
    let slowest = from.clone().map(|f| f.slowest).max();
    let largest = from.map(|f| f.largest).max();
    TimeLimit {
        most: reports[0].time_limit.most,
        from_data: slowest
            .zip(largest)
            .map(|(slowest, largest)| FromData { slowest, largest }),
    }
}

/// What the shards cost: cases summed, times the longest shard's (shards run at once).
fn effort(reports: &[AuditReport]) -> Effort {
    let mut phases: Vec<(String, f64)> = Vec::new();
    for (name, secs) in reports.iter().flat_map(|r| &r.effort.phases) {
        match phases.iter_mut().find(|(n, _)| n == name) {
            Some(phase) => phase.1 = phase.1.max(*secs),
            None => phases.push((name.clone(), *secs)),
        }
    }
    Effort {
        cases_judged: reports.iter().map(|r| r.effort.cases_judged).sum(),
        random_dropped: reports.iter().map(|r| r.effort.random_dropped).sum(),
        batch: reports[0].effort.batch,
        cases_time: reports
            .iter()
            .map(|r| r.effort.cases_time)
            .max()
            .unwrap_or_default(),
        phases,
        elapsed: reports
            .iter()
            .map(|r| r.effort.elapsed)
            .max()
            .unwrap_or_default(),
        // Each shard shared its own --time: its summary says how.
        budget: None,
    }
}

/// One program's records of every shard (with their directories) as one, its findings' files
/// added to `files`.
fn program(
    records: &[(&Path, &ProgramRecord)],
    files: &mut Vec<ReportFile>,
) -> Result<ProgramRecord, RunError> {
    let first = records[0].1;
    let outcome = records
        .iter()
        .map(|(_, r)| r.outcome.clone())
        .reduce(|a, b| outcome(&a, &b))
        .expect("at least one shard");
    // The lowest case of each signature (a file name names one case), its count summed.
    let mut kept: BTreeMap<String, (FindingRecord, &Path)> = BTreeMap::new();
    for (shard, record) in records {
        for finding in &record.findings {
            let same = kept
                .iter()
                .find(|(sig, (f, _))| **sig == finding.signature || f.file == finding.file)
                .map(|(sig, _)| sig.clone());
            match same.and_then(|sig| kept.get_mut(&sig)) {
                Some((known, from)) => {
                    let count = known.count + finding.count;
                    if finding.source < known.source {
                        (*known, *from) = (finding.clone(), shard);
                    }
                    known.count = count;
                }
                None => {
                    kept.insert(finding.signature.clone(), (finding.clone(), shard));
                }
            }
        }
    }
    let mut findings: Vec<(FindingRecord, &Path)> = kept.into_values().collect();
    findings.sort_by(|a, b| a.0.source.cmp(&b.0.source));
    for (finding, shard) in &findings {
        let stem = finding.file.trim_end_matches(".in");
        for ext in Layout::FINDING_PARTS {
            let path = Layout::finding(&first.name, stem, ext);
            let bytes = shard_file(shard, Path::new(&path))?;
            files.push(ReportFile { path, bytes });
        }
    }
    let mut failing = BTreeMap::new();
    for (_, record) in records {
        for (kind, n) in &record.failing {
            *failing.entry(*kind).or_default() += n;
        }
    }
    Ok(ProgramRecord {
        name: first.name.clone(),
        expected: first.expected,
        command: first.command.clone(),
        outcome,
        runs: records.iter().map(|(_, r)| r.runs).sum(),
        findings: findings.into_iter().map(|(f, _)| f).collect(),
        failing,
        unexamined: records.iter().map(|(_, r)| r.unexamined).sum(),
        beyond_max: records.iter().map(|(_, r)| r.beyond_max).sum(),
    })
}

/// The outcome of two shards' runs of one program.
fn outcome(a: &Reached, b: &Reached) -> Reached {
    match (a, b) {
        (Reached::CannotRun { .. }, _) => a.clone(),
        (_, Reached::CannotRun { .. }) => b.clone(),
        (Reached::NotProbed, other) | (other, Reached::NotProbed) => other.clone(),
        (Reached::Examined(x), Reached::Examined(y)) => {
            let on_data = x.on_data.and(&y.on_data);
            let cases = match (x.cases, y.cases) {
                (CasesOutcome::NoForm, _) | (_, CasesOutcome::NoForm) => CasesOutcome::NoForm,
                _ if on_data.result().is_some_and(|r| r.timed_out()) => {
                    CasesOutcome::TimesOutOnData
                }
                (CasesOutcome::Cases(s), CasesOutcome::Cases(t)) => CasesOutcome::Cases(Tally {
                    cases: s.cases + t.cases,
                    examining: s.examining + t.examining,
                    finish: finish(s.finish, t.finish),
                }),
                (CasesOutcome::Cases(t), _) | (_, CasesOutcome::Cases(t)) => CasesOutcome::Cases(t),
                _ => CasesOutcome::TimesOutOnData,
            };
            Reached::Examined(Examined {
                form: x.form.clone(),
                on_data,
                cases,
            })
        }
    }
}

/// Why a program stopped in two slices: proved wrong in either, else every unit run in both,
/// else stopped.
fn finish(a: Finish, b: Finish) -> Finish {
    match (a, b) {
        (Finish::ProvedWrong, _) | (_, Finish::ProvedWrong) => Finish::ProvedWrong,
        (Finish::Exhausted, Finish::Exhausted) => Finish::Exhausted,
        _ => Finish::Stopped,
    }
}

/// A strengthening case of a shard, and the shard's report directory.
#[derive(Clone, Copy)]
struct ShardTest<'a> {
    dir: &'a Path,
    test: &'a TestRecord,
}

impl Tested for ShardTest<'_> {
    fn result_of(&self, program: &str) -> OnCase {
        self.test.on_named(program)
    }

    fn size_in_bytes(&self) -> usize {
        self.test.bytes
    }

    fn from(&self) -> &str {
        &self.test.from
    }
}

/// The strengthening cases of every shard, screened against the merged programs that must be
/// accepted and covered again against the merged targets; their files added to `files`. The
/// tests, and the shards' cases dropped here, with why.
fn tests(
    dirs: &[PathBuf],
    reports: &[AuditReport],
    programs: &[ProgramRecord],
    files: &mut Vec<ReportFile>,
) -> Result<(Vec<TestRecord>, Vec<String>), RunError> {
    let programs: Vec<&ProgramRecord> = programs.iter().collect();
    let mut said = union(reports.iter().map(|r| &r.dropped));
    let shard_tests = dirs.iter().zip(reports).flat_map(|(dir, r)| {
        r.tests.iter().map(move |test| ShardTest {
            dir: dir.as_path(),
            test,
        })
    });
    let (chosen, dropped) = strengthening_set(shard_tests, &programs);
    said.extend(dropped);
    let mut tests = Vec::new();
    for (k, ShardTest { dir, test }) in chosen.into_iter().enumerate() {
        for ext in Layout::TEST_PARTS {
            let bytes = shard_file(dir, Path::new(&Layout::sibling(&test.file, ext)))?;
            files.push(ReportFile {
                path: Layout::test(k, ext),
                bytes,
            });
        }
        tests.push(TestRecord {
            file: Layout::test(k, "in"),
            added_as: None,
            ..(*test).clone()
        });
    }
    Ok((tests, said))
}
