//! One file's cases cross-examined: the engine's judgement of each case, the reference's own
//! reading and judgement of the same case, and the `.ans` line, compared case by case. The
//! reference reads the input a case at a time ([`Referenced::reference_cases`]), so its memory is
//! bounded by the largest case, and a case beyond its limits is skipped on its own. The cases
//! of a file are judged in batches on [`Settings::jobs`] threads and their rows handed over in
//! the file's order ([`crate::util::ordered`]).

use std::sync::mpsc::sync_channel;
use std::time::Instant;

use super::answers::AnswerLines;
use super::{Input, Settings};
use crate::formats::{Row, Status};
use crate::game::Referenced;
use crate::game::{Game, Judged, ReferenceCase, ReferenceStop};
use crate::util::error::JudgeError;
use crate::util::walk::CaseFile;

/// Inputs held in memory up to this many bytes are judged in the calling thread.
const PARALLEL_BYTES: usize = 1 << 20;

/// The most cases in a batch.
const BATCH_CASES: usize = 256;

/// The most case text (held by the reference) in a batch, in bytes.
const BATCH_BYTES: u64 = 4 << 20;

/// Batches judged at most this many per thread ahead of the first whose rows are handed over.
const BATCHES_PER_THREAD: usize = 4;

/// What the reference's reading has for one case.
enum Reading {
    /// The case as the reference cut it.
    Case(ReferenceCase),
    /// Not judged by the reference, for this reason (empty: said once for the whole run).
    NotRun(String),
    /// The reference's reading rejects the input here.
    Rejected(JudgeError),
    /// The reference's reading ended after `found` cases.
    Ended {
        /// The cases it read.
        found: u64,
    },
}

/// One case to judge: its 0-based index, the engine's judgement (`None` past the engine's
/// last case) and its time on it, the reference's reading, the `.ans` line (`None`: no `.ans`;
/// `Some(None)`: past its last line), and the engine's count of cases once it is known.
struct Work<J> {
    index: u64,
    judgement: Option<J>,
    micros: u64,
    reading: Reading,
    expected: Option<Option<String>>,
    judged: Option<u64>,
}

/// Makes the batches of a file's cases, in order, from the engine's judgements as they come:
/// each judgement with the reference's reading of the same case and its `.ans` line.
struct Batcher<'a, J> {
    reference: Option<Box<dyn Iterator<Item = Result<ReferenceCase, ReferenceStop>> + Send + 'a>>,
    /// Why the reference reads no further case, once its reading stopped.
    stopped: Option<Reading>,
    found: u64,
    bound: u64,
    answers: Option<AnswerLines>,
    next: u64,
    batch: Vec<Work<J>>,
    bytes: u64,
}

impl<J> Batcher<'_, J> {
    /// The reference's reading of the next case.
    fn reading(&mut self) -> Reading {
        if let Some(stopped) = &self.stopped {
            return match stopped {
                Reading::NotRun(why) => Reading::NotRun(why.clone()),
                Reading::Ended { found } => Reading::Ended { found: *found },
                _ => unreachable!("a stop is kept as NotRun or Ended"),
            };
        }
        let Some(reference) = &mut self.reference else {
            return Reading::NotRun(String::new());
        };
        let case = self.next + 1;
        let (now, after) = match reference.next() {
            Some(Ok(read)) => {
                self.found += 1;
                return Reading::Case(read);
            }
            Some(Err(ReferenceStop::Malformed(e))) => (
                Reading::Rejected(e.into()),
                format!("reference not run: its reading of the input stopped at case {case}"),
            ),
            Some(Err(ReferenceStop::Unreadable(e))) => {
                let why = format!("reference not run: unreadable: {e}");
                (Reading::NotRun(why.clone()), why)
            }
            Some(Err(ReferenceStop::TooLong { line, .. })) => {
                let why = format!(
                    "reference not run: line {line} is longer than --reference-max-bytes {}",
                    self.bound
                );
                (Reading::NotRun(why.clone()), why)
            }
            None => {
                let found = self.found;
                self.stopped = Some(Reading::Ended { found });
                return Reading::Ended { found };
            }
        };
        self.stopped = Some(Reading::NotRun(after));
        now
    }

    fn push(&mut self, work: Work<J>, sink: &mut dyn FnMut(Vec<Work<J>>)) {
        if let Reading::Case(case) = &work.reading {
            self.bytes += case.bytes.min(self.bound);
        }
        self.batch.push(work);
        self.next += 1;
        if self.batch.len() >= BATCH_CASES || self.bytes >= BATCH_BYTES {
            self.bytes = 0;
            sink(std::mem::take(&mut self.batch));
        }
    }

    /// The engine's judgement of the next case, made in `micros`.
    fn case(&mut self, judgement: J, micros: u64, sink: &mut dyn FnMut(Vec<Work<J>>)) {
        let expected = self.answers.as_mut().map(AnswerLines::next_line);
        let reading = self.reading();
        let index = self.next;
        self.push(
            Work {
                index,
                judgement: Some(judgement),
                micros,
                reading,
                expected,
                judged: None,
            },
            sink,
        );
    }

    /// The engine judged its last case: the `.ans` lines left, and one more case of the
    /// reference's reading if it has one.
    fn finish(&mut self, sink: &mut dyn FnMut(Vec<Work<J>>)) {
        let judged = Some(self.next);
        let mut past_the_engine = |batcher: &mut Self, reading, expected| {
            let index = batcher.next;
            let work = Work {
                index,
                judgement: None,
                micros: 0,
                reading,
                expected,
                judged,
            };
            batcher.push(work, sink);
        };
        while let Some(Some(line)) = self.answers.as_mut().map(AnswerLines::next_line) {
            past_the_engine(self, Reading::NotRun(String::new()), Some(Some(line)));
        }
        if self.stopped.is_none() {
            if let Some(Ok(read)) = self.reference.as_mut().and_then(Iterator::next) {
                let found = read.number;
                past_the_engine(self, Reading::Ended { found }, None);
            }
        }
        self.flush(sink);
    }

    /// Hands over the cases batched so far.
    fn flush(&mut self, sink: &mut dyn FnMut(Vec<Work<J>>)) {
        if !self.batch.is_empty() {
            self.bytes = 0;
            sink(std::mem::take(&mut self.batch));
        }
    }
}

/// What every row of a file shares.
struct Context<'a, G: Game> {
    name: &'a str,
    base: &'a Row,
    settings: &'a Settings,
    options: G::Options,
    /// The verdicts of the `.ans` (`None`: no `.ans`).
    answers: Option<u64>,
}

/// The engine's pass over `input` ([`Game::judge_each`]): each judgement to `each` with the
/// engine's time on its case, in microseconds (the time outside `each`).
fn timed_pass<G: Game>(
    input: &Input,
    options: G::Options,
    each: &mut dyn FnMut(G::Judgement, u64),
) -> Result<(), JudgeError> {
    let mut reader = input.reader()?;
    let mut since = Instant::now();
    G::judge_each(&mut reader, options, &mut |j| {
        each(j, since.elapsed().as_micros() as u64);
        since = Instant::now();
    })
}

/// The engine's pass over `input`: each judgement, with the engine's time on it (the time
/// outside `batcher`), to `batcher`, batch by batch to `sink`; the batcher finished when every
/// case is valid, else the cases before the invalid one handed over and its error returned.
fn produce<G: Game>(
    input: &Input,
    options: G::Options,
    batcher: &mut Batcher<'_, G::Judgement>,
    sink: &mut dyn FnMut(Vec<Work<G::Judgement>>),
) -> Result<(), JudgeError> {
    let pass = timed_pass::<G>(input, options, &mut |j, micros| {
        batcher.case(j, micros, sink)
    });
    match pass {
        Ok(()) => batcher.finish(sink),
        Err(_) => batcher.flush(sink),
    }
    pass
}

/// What the engine's pass sends: its judgements with its time on each, and at its end whether
/// every case was valid.
enum EngineMessage<J> {
    Cases(Vec<(J, u64)>),
    End { valid: bool },
}

/// The engine's pass over `input` in a thread of its own, sending its judgements in chunks.
fn engine_pass<G: Game>(
    input: &Input,
    options: G::Options,
    judged: std::sync::mpsc::SyncSender<EngineMessage<G::Judgement>>,
) -> Result<(), JudgeError> {
    let mut chunk = Vec::with_capacity(BATCH_CASES);
    // A closed channel: the rows are no longer wanted.
    let pass = timed_pass::<G>(input, options, &mut |j, micros| {
        chunk.push((j, micros));
        if chunk.len() == BATCH_CASES {
            let _ = judged.send(EngineMessage::Cases(std::mem::take(&mut chunk)));
        }
    });
    let _ = judged.send(EngineMessage::Cases(chunk));
    let _ = judged.send(EngineMessage::End {
        valid: pass.is_ok(),
    });
    pass
}

/// The batches of the engine's judgements as its pass sends them ([`engine_pass`]).
struct Pull<'a, J> {
    engine: std::sync::mpsc::Receiver<EngineMessage<J>>,
    batcher: Batcher<'a, J>,
    ready: std::collections::VecDeque<Vec<Work<J>>>,
    done: bool,
}

impl<J> Iterator for Pull<'_, J> {
    type Item = Vec<Work<J>>;

    fn next(&mut self) -> Option<Vec<Work<J>>> {
        loop {
            if let Some(batch) = self.ready.pop_front() {
                return Some(batch);
            }
            if self.done {
                return None;
            }
            let ready = &mut self.ready;
            let mut sink = |batch| ready.push_back(batch);
            match self.engine.recv() {
                Ok(EngineMessage::Cases(cases)) => {
                    for (j, micros) in cases {
                        self.batcher.case(j, micros, &mut sink);
                    }
                }
                Ok(EngineMessage::End { valid: true }) => {
                    self.batcher.finish(&mut sink);
                    self.done = true;
                }
                Ok(EngineMessage::End { valid: false }) | Err(_) => {
                    self.batcher.flush(&mut sink);
                    self.done = true;
                }
            }
        }
    }
}

/// Cross-examines every case of `file` (read as `input`) as the engine judges it: against the
/// reference's reading and judgement of the same case and against the `.ans` (`answers`),
/// handing each case's row to `emit` in order; at the engine's first invalid case, its row
/// ([`super::rejected`]). With one thread, or an input of a few cases in memory, all of it
/// happens in the calling thread; otherwise a thread runs the engine's pass ([`engine_pass`]),
/// and each of [`Settings::jobs`] workers takes the next batch of its judgements with the same
/// cases of the reference's reading and their `.ans` lines (both sequential by nature, read by
/// the worker taking the batch), judges them with the reference and writes their rows, in the
/// file's order.
pub(super) fn cross_examine<G: Game + Referenced>(
    file: &CaseFile,
    input: &Input,
    settings: &Settings,
    options: G::Options,
    base: Row,
    answers: Option<AnswerLines>,
    emit: &mut super::Emit,
) {
    let mut stopped = None;
    let reference = match (settings.no_reference, input.reader()) {
        (true, _) => None,
        (false, Ok(reader)) => Some(G::reference_cases(reader, settings.reference_max_bytes)),
        (false, Err(e)) => {
            stopped = Some(Reading::NotRun(format!(
                "reference not run: unreadable: {e}"
            )));
            None
        }
    };
    let context = Context::<G> {
        name: &file.name,
        base: &base,
        settings,
        options,
        answers: answers.as_ref().map(AnswerLines::count),
    };
    let mut batcher = Batcher {
        reference,
        stopped,
        found: 0,
        bound: settings.reference_max_bytes,
        answers,
        next: 0,
        batch: Vec::new(),
        bytes: 0,
    };
    let started = Instant::now();
    let many = match input {
        Input::Memory(bytes) => bytes.len() > PARALLEL_BYTES,
        Input::Disk(_) => true,
    };
    let pass = if settings.jobs > 1 && many {
        parallel_pass::<G>(input, options, batcher, &context, emit)
    } else {
        produce::<G>(input, options, &mut batcher, &mut |batch| {
            for work in batch {
                emit(row_of(work, &context));
            }
        })
    };
    if let Err(e) = pass {
        let mut row = base.clone();
        row.engine_micros = Some(started.elapsed().as_micros() as u64);
        emit(super::rejected::<G>(file, input, settings, row, e));
    }
}

/// [`cross_examine`]'s passes in threads: the engine's in one, the reference's and the rows
/// in [`Settings::jobs`] workers, the rows handed to `emit` in order.
fn parallel_pass<G: Game + Referenced>(
    input: &Input,
    options: G::Options,
    batcher: Batcher<'_, G::Judgement>,
    context: &Context<G>,
    emit: &mut super::Emit,
) -> Result<(), JudgeError> {
    let settings = context.settings;
    std::thread::scope(|scope| {
        let window = settings.jobs * BATCHES_PER_THREAD;
        let (judged, engine) = sync_channel::<EngineMessage<G::Judgement>>(window);
        let pass = scope.spawn(move || engine_pass::<G>(input, options, judged));
        let batches = Pull {
            engine,
            batcher,
            ready: std::collections::VecDeque::new(),
            done: false,
        };
        // The batches are made by the worker that takes one (the reference's reading and the
        // `.ans` are sequential), and each batch's rows are handed over by the worker that
        // made them, in order.
        let _ = crate::util::ordered::for_each_ordered(
            batches,
            settings.jobs,
            window,
            |batch: Vec<Work<G::Judgement>>, out: &mut (dyn FnMut(Row) + Send)| {
                batch.into_iter().for_each(|w| out(row_of(w, context)))
            },
            |row| {
                emit(row);
                Ok(())
            },
        );
        pass.join()
            .unwrap_or_else(|_| Err(std::io::Error::other("the engine's pass failed").into()))
    })
}

/// What the reference said about one case.
enum ReferenceOutcome<J> {
    Judged(J),
    Rejected(JudgeError),
    /// Not judged, for this reason (empty: said once for the whole run).
    Skipped(String),
    /// The reference's reading ended after `found` cases.
    Missing {
        found: u64,
    },
}

/// The row of one case.
fn row_of<G: Game + Referenced>(work: Work<G::Judgement>, context: &Context<G>) -> Row {
    let Work {
        index,
        judgement,
        micros,
        reading,
        expected,
        judged,
    } = work;
    if judgement.is_none() && expected.is_none() {
        // A case the reference reads past the engine's last.
        let mut row = Row {
            index: Some(index + 1),
            ..context.base.clone()
        };
        row.status = Some(Status::EngineReferenceMismatch);
        row.detail = format!(
            "the reference reads more cases than the engine's {}",
            judged.unwrap_or(index)
        );
        return row;
    }
    let reference = match (reading, &judgement) {
        (Reading::Case(case), Some(j)) => judge_reference::<G>(&case, j, context),
        (Reading::Case(_), None) => ReferenceOutcome::Skipped(String::new()),
        (Reading::NotRun(why), _) => ReferenceOutcome::Skipped(why),
        (Reading::Rejected(e), _) => ReferenceOutcome::Rejected(e),
        (Reading::Ended { found }, _) => ReferenceOutcome::Missing { found },
    };
    let counts = Counts {
        judged,
        answers: context.answers,
    };
    let mut row = row_for::<G>(
        context.name,
        context.base,
        index,
        judgement.as_ref(),
        &reference,
        expected.as_ref().map(|e| e.as_deref()),
        counts,
    );
    if judgement.is_some() {
        row.engine_micros = Some(micros);
    }
    row
}

/// The reference's judgement of `case`, which the engine judged `j`, within its limits.
fn judge_reference<G: Game + Referenced>(
    case: &ReferenceCase,
    j: &G::Judgement,
    context: &Context<G>,
) -> ReferenceOutcome<G::Judgement> {
    let settings = context.settings;
    if case.text.is_none() {
        return ReferenceOutcome::Skipped(format!(
            "reference not run: the case has {} bytes, over --reference-max-bytes {}",
            case.bytes, settings.reference_max_bytes
        ));
    }
    let cost = G::reference_cost(j, context.options);
    if cost > settings.reference_budget {
        return ReferenceOutcome::Skipped(format!(
            "reference not run: estimated {cost} steps, over --reference-budget {}",
            settings.reference_budget
        ));
    }
    match G::reference_judge_case(case, context.options) {
        Ok(r) => ReferenceOutcome::Judged(r),
        Err(JudgeError::Refused { reason, .. }) => ReferenceOutcome::Skipped(reason),
        Err(e) => ReferenceOutcome::Rejected(e),
    }
}

/// How many cases the engine judged in a file (`None` while it judges), and how many verdicts
/// its `.ans` holds (`None`: no `.ans`).
#[derive(Debug, Clone, Copy)]
struct Counts {
    judged: Option<u64>,
    answers: Option<u64>,
}

/// The row's status against the reference's outcome on the same case (the reference's columns
/// filled in), and why the reference skipped it, if it did.
fn against_reference<G: Game>(
    row: &mut Row,
    name: &str,
    j: &G::Judgement,
    reference: &ReferenceOutcome<G::Judgement>,
) -> (Status, Option<String>) {
    match reference {
        ReferenceOutcome::Judged(r) => {
            row.reference = r.verdict();
            row.reference_detail = r.explain();
            if r == j {
                (Status::Ok, None)
            } else {
                row.detail = "engine and reference disagree".into();
                (Status::EngineReferenceMismatch, None)
            }
        }
        ReferenceOutcome::Missing { found } => {
            row.detail = format!("the reference found {found} cases");
            (Status::EngineReferenceMismatch, None)
        }
        ReferenceOutcome::Rejected(e) => {
            row.reference_detail = format!("rejected: {}", e.located(name));
            (Status::EngineReferenceMismatch, None)
        }
        ReferenceOutcome::Skipped(why) => (Status::Ok, Some(why.clone())),
    }
}

/// The row of case `i` (from 0) of file `name`: the engine's `judgement` (`None` past its last
/// case), compared with the reference's and with the `.ans` line `expected` (`None`: no `.ans`;
/// `Some(None)`: past its last verdict).
fn row_for<G: Game>(
    name: &str,
    base: &Row,
    i: u64,
    judgement: Option<&G::Judgement>,
    reference: &ReferenceOutcome<G::Judgement>,
    expected: Option<Option<&str>>,
    counts: Counts,
) -> Row {
    let index = i + 1;
    let count_mismatch = || {
        let answers = counts.answers.unwrap_or(0);
        match counts.judged {
            Some(judged) => {
                format!("the answer file has {answers} verdicts, the input {judged} cases")
            }
            None => format!("the answer file has {answers} verdicts, the input more cases"),
        }
    };
    let mut row = Row {
        index: Some(index),
        ..base.clone()
    };
    // Escaped as outputs are: a byte-order mark or a control character is seen, not hidden.
    row.expected = expected.flatten().map_or(String::new(), |e| {
        crate::util::answer::escape(e.as_bytes(), usize::MAX)
    });
    let Some(j) = judgement else {
        row.status = Some(Status::ExpectedMismatch);
        row.detail = count_mismatch();
        return row;
    };
    row.engine = j.verdict();
    row.engine_detail = j.explain();
    row.size = Some(j.size());
    let (mut status, skipped) = against_reference::<G>(&mut row, name, j, reference);
    if status == Status::Ok {
        match expected {
            Some(None) => {
                status = Status::ExpectedMismatch;
                row.detail = count_mismatch();
            }
            Some(Some(e)) if e != row.engine => {
                status = Status::ExpectedMismatch;
                row.detail = "the engine disagrees with the answer file".into();
            }
            _ => {
                if let Some(why) = skipped {
                    status = Status::ReferenceSkipped;
                    row.detail = why;
                }
            }
        }
    }
    row.status = Some(status);
    row
}
