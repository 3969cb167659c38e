//! Each program's record, built once from its stage, and the files of its findings.

use super::{Stage, Subject};
use crate::audit::terms::Auditable;

use crate::audit::findings::failure::Finding;
use crate::audit::reports::audited::{Examined, FindingRecord, ProgramRecord, Reached};
use crate::audit::reports::report::ReportFile;
use crate::audit::running::runner::Runner;
use crate::audit::terms::layout::Layout;
use crate::audit::terms::outcome::exit_text;
use crate::game::Form;
use crate::util::answer::escape;

/// A program whose stages are done, with its record.
pub(in crate::audit) struct Recorded<'e, G: Auditable> {
    pub(in crate::audit) subject: Subject<'e, G>,
    pub(in crate::audit) record: ProgramRecord,
}

impl<'e, G: Auditable> Recorded<'e, G> {
    /// The program of `subject`, its record built from its stage; the files of its findings
    /// (`programs/NAME/STEM.in`, `.ans`, `.out`, `.err`).
    fn new(subject: Subject<'e, G>, rules: G::Options) -> (Recorded<'e, G>, Vec<ReportFile>) {
        let (record, files) = record::<G>(&subject, rules);
        (Recorded { subject, record }, files)
    }

    /// Its record built again, after a later stage gave it a finding; the files of its
    /// findings.
    pub(in crate::audit) fn record_again(&mut self, rules: G::Options) -> Vec<ReportFile> {
        let (record, files) = record::<G>(&self.subject, rules);
        self.record = record;
        files
    }
}

/// Each program with its record, and the files of their findings.
pub(in crate::audit) fn records<'e, G: Auditable>(
    subjects: Vec<Subject<'e, G>>,
    rules: G::Options,
) -> (Vec<Recorded<'e, G>>, Vec<ReportFile>) {
    let mut files = Vec::new();
    let recorded = subjects
        .into_iter()
        .map(|subject| {
            let (recorded, written) = Recorded::new(subject, rules);
            files.extend(written);
            recorded
        })
        .collect();
    (recorded, files)
}

/// The record of one program, and the files of its findings.
fn record<G: Auditable>(
    subject: &Subject<G>,
    rules: G::Options,
) -> (ProgramRecord, Vec<ReportFile>) {
    let entrant = subject.entrant;
    let mut files = Vec::new();
    let mut findings = Vec::new();
    let (outcome, found) = match &subject.stage {
        Stage::CannotRun(why) => (Reached::CannotRun { why: why.clone() }, None),
        Stage::Examined {
            form,
            on_data,
            cases,
            found,
        } => {
            for (signature, finding, count) in found.findings.iter() {
                let (finding, written) = finding_record::<G>(
                    finding,
                    signature,
                    *count,
                    form.form(),
                    rules,
                    &entrant.name,
                );
                findings.push(finding);
                files.extend(written);
            }
            let examined = Examined {
                form: form.clone(),
                on_data: on_data.clone(),
                cases: *cases,
            };
            (Reached::Examined(examined), Some(found))
        }
        // Every stage advances every program it can: what is left was not probed.
        Stage::Entered | Stage::NotProbed | Stage::Probed(_) | Stage::Tried(..) => {
            (Reached::NotProbed, None)
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

/// The record of `finding` (kept under `signature`, standing for `count` failing cases)
/// of program `program`, whose runs used `form`, and its files in the program's directory.
pub(in crate::audit) fn finding_record<G: Auditable>(
    finding: &Finding,
    signature: &str,
    count: u64,
    form: Form,
    rules: G::Options,
    program: &str,
) -> (FindingRecord, Vec<ReportFile>) {
    let settled = &finding.stage;
    let stem = settled
        .source
        .stem(G::NAME, &crate::games::detect::file_suffix(rules));
    let run = &finding.tried.run;
    let parts = [
        settled.input.clone(),
        finding.tried.expected.as_bytes().to_vec(),
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
        kind: settled.kind,
        seen: finding.seen,
        signature: signature.to_string(),
        count,
        source: settled.source.clone(),
        file: format!("{stem}.in"),
        form,
        expected: escape(finding.tried.expected.as_bytes(), 200),
        got: escape(&run.stdout, 200),
        stderr: escape(&run.stderr_tail, 1000),
        exit: exit_text(run.ending),
        stopped: run.stopped(),
        limit: settled.limit,
        cpu: run.cpu,
        wall: run.elapsed,
        memory: run.memory,
        evidence: settled.evidence.clone(),
        shrink_steps: settled.shrink_steps,
        batch_only: settled.batch_only,
        outside: settled.outside.clone(),
        bytes: settled.input.len(),
        size: settled.size.clone(),
        notes: settled.notes.clone(),
    };
    (record, files)
}
