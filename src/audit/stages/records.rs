//! Each program's record, built once from its stage, and the files of its findings.

use super::{Stage, Subject};
use crate::audit::Auditable;

use crate::answer::escape;
use crate::audit::audited::{Examined, FindingRecord, Outcome, ProgramRecord};
use crate::audit::finding::Kept;
use crate::audit::layout::Layout;
use crate::audit::outcome::exit_text;
use crate::audit::report::ReportFile;
use crate::audit::runner::Runner;
use crate::game::Form;

/// Each program's record, and the files of its findings (`programs/NAME/STEM.in`, `.ans`,
/// `.out`, `.err`).
pub(in crate::audit) fn records<G: Auditable>(
    subjects: &[Subject<G>],
    rules: G::Options,
) -> (Vec<ProgramRecord>, Vec<ReportFile>) {
    let mut files = Vec::new();
    let programs = subjects
        .iter()
        .map(|subject| {
            let (record, written) = record::<G>(subject, rules);
            files.extend(written);
            record
        })
        .collect();
    (programs, files)
}

/// The record of one program, and the files of its findings.
pub(in crate::audit) fn record<G: Auditable>(
    subject: &Subject<G>,
    rules: G::Options,
) -> (ProgramRecord, Vec<ReportFile>) {
    let entrant = subject.entrant;
    let mut files = Vec::new();
    let mut findings = Vec::new();
    let (outcome, found) = match &subject.stage {
        Stage::CannotRun(why) => (Outcome::CannotRun { why: why.clone() }, None),
        Stage::Examined {
            form,
            on_data,
            cases,
            found,
        } => {
            for (signature, kept, count) in found.findings.iter() {
                let (finding, written) =
                    finding_record::<G>(kept, signature, *count, form.form(), rules, &entrant.name);
                findings.push(finding);
                files.extend(written);
            }
            let examined = Examined {
                form: form.clone(),
                on_data: on_data.clone(),
                cases: *cases,
            };
            (Outcome::Examined(examined), Some(found))
        }
        // Every stage advances every program it can: what is left was not probed.
        Stage::Entered | Stage::NotProbed | Stage::Probed(_) | Stage::Tried(..) => {
            (Outcome::NotProbed, None)
        }
    };
    let record = ProgramRecord {
        name: entrant.name.clone(),
        expected: entrant.expected,
        command: entrant.program.as_ref().ok().map(|p| p.display()),
        outcome,
        runs: subject.runner.as_ref().map_or(0, Runner::runs),
        findings,
        failing: found.map(|f| f.per_kind.clone()).unwrap_or_default(),
        unexamined: found.map_or(0, |f| f.unexamined),
        beyond_max: found.map_or(0, |f| f.findings.dropped),
    };
    (record, files)
}

/// The record of finding `kept` (kept under `signature`, standing for `count` failing cases)
/// of program `program`, whose runs used `form`, and its files in the program's directory.
pub(in crate::audit) fn finding_record<G: Auditable>(
    kept: &Kept,
    signature: &str,
    count: u64,
    form: Form,
    rules: G::Options,
    program: &str,
) -> (FindingRecord, Vec<ReportFile>) {
    let stem = kept
        .source
        .stem(G::NAME, &crate::detect::file_suffix(rules));
    let run = &kept.tried.run;
    let parts = [
        kept.input.clone(),
        kept.tried.expected.as_bytes().to_vec(),
        run.stdout.clone(),
        run.stderr_tail.clone(),
    ];
    let files = Layout::FINDING_PARTS
        .into_iter()
        .zip(parts)
        .map(|(ext, bytes)| ReportFile {
            path: Layout::finding(program, &stem, ext),
            bytes,
        })
        .collect();
    let record = FindingRecord {
        kind: kept.kind,
        seen: kept.seen,
        signature: signature.to_string(),
        count,
        source: kept.source.clone(),
        file: format!("{stem}.in"),
        form,
        expected: escape(kept.tried.expected.as_bytes(), 200),
        got: escape(&run.stdout, 200),
        stderr: escape(&run.stderr_tail, 1000),
        exit: exit_text(run.ending),
        stopped: run.stopped(),
        cpu: run.cpu,
        wall: run.elapsed,
        memory: run.memory,
        evidence: kept.evidence.clone(),
        shrink_steps: kept.shrink_steps,
        batch_only: kept.batch_only,
        outside: kept.outside.clone(),
        bytes: kept.input.len(),
        size: kept.size.clone(),
        notes: kept.notes.clone(),
    };
    (record, files)
}
