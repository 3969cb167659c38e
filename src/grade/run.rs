//! Grading the submissions: each case judged once, each output graded against it, tallied.

use super::*;

/// The case's expected output per the engine, or why it cannot be graded (a JE). Its `.ans`
/// is read through [`crate::util::guard`], as `verify` reads it.
pub(super) fn judge_case(case: &CaseFile, options: &Options) -> Result<String, Ungradable> {
    let path = &case.path;
    let game = match options.game {
        Some(g) => g,
        None => recognise_file(path)?,
    };
    let output = game.visit(EngineOutput {
        path,
        rules: options.rules.as_deref(),
    })?;
    let ans = path.with_extension("ans");
    let input_len = fs::metadata(path).map_or(0, |m| m.len());
    let file = match crate::util::guard::open(
        &ans,
        &case.tree,
        crate::util::guard::answer_bound(input_len),
    ) {
        Ok(Some(opened)) => opened.file,
        Ok(None) => return Ok(output),
        Err(why) => return Err(Ungradable::AnswerNotRead(why)),
    };
    match compare_reader(&output, file) {
        Ok(c) if c.verdict == Verdict::AC => Ok(output),
        Ok(c) => Err(Ungradable::AnswerDisagrees {
            head: escape(&c.head, 200),
        }),
        Err(e) => Err(Ungradable::AnswerUnreadable(e)),
    }
}

/// The grade of one submission on one case.
#[derive(Debug, Clone)]
pub(super) struct Graded {
    pub(super) verdict: Verdict,
    /// The output's first bytes.
    pub(super) head: Vec<u8>,
    pub(super) detail: String,
}

/// Grades the output at `out_file` (of a submission in the submissions' `tree`) against
/// `expected`, reading it only when it is a regular file inside that tree, and no more of it
/// than the comparison needs.
pub(super) fn grade_output(
    out_file: &Path,
    tree: &crate::util::guard::Tree,
    expected: &Result<String, Ungradable>,
) -> Graded {
    let graded = |verdict, head, detail: &str| Graded {
        verdict,
        head,
        detail: detail.to_string(),
    };
    let no = |detail: &str| graded(Verdict::NO, Vec::new(), detail);
    // A case that cannot be judged is a judge error for every submission, output or none.
    let verdict_without_output = if expected.is_err() {
        Verdict::JE
    } else {
        Verdict::NO
    };
    let without = |detail: &str| graded(verdict_without_output, Vec::new(), detail);
    let (file, len) = match crate::util::guard::open(out_file, tree, u64::MAX) {
        Ok(Some(opened)) => (opened.file, opened.len),
        Ok(None) => return without(""),
        Err(why) => return without(&why.to_string()),
    };
    let expected = match expected {
        Ok(e) => e,
        Err(_) => {
            let mut head = Vec::new();
            let _ = file.take(HEAD as u64).read_to_end(&mut head);
            return graded(Verdict::JE, head, "");
        }
    };
    if len > longest_output(expected) {
        let mut head = Vec::new();
        let _ = file.take(HEAD as u64).read_to_end(&mut head);
        let why = format!(
            "the output has {} bytes, far more than expected (not read)",
            len
        );
        return graded(Verdict::WA, head, &why);
    }
    match compare_reader(expected, file) {
        Ok(c) => graded(c.verdict, c.head, &c.detail),
        Err(e) => no(&format!("unreadable: {e}")),
    }
}

/// Grades every submission on every case (of the slice `shard`, when given); writes
/// `grades.csv`, `summary.csv` and the manifest into `out`. Cases are read as the walk finds
/// them, graded in parallel and written in order: memory holds a window of cases, not the run.
pub fn grade(
    cases: &Path,
    submissions: &Path,
    options: &Options,
    jobs: Option<usize>,
    shard: Option<Shard>,
    out: &Path,
) -> Result<GradeTotals, RunError> {
    let mut staging = Staging::new(out).map_err(|e| RunError::io(out, e))?;
    let relative = |f: &CaseFile| display(&case_name(&f.path, cases));
    let tree =
        crate::util::guard::Tree::new(submissions).map_err(|e| RunError::io(submissions, e))?;
    let names = submissions_in(submissions)?;
    let submission_names: Vec<String> = names.iter().map(|(n, _)| n.clone()).collect();
    let mut reports = GradeReports::new(&submission_names, options.kept_rows.unwrap_or(KEPT_ROWS));
    let mut all = CaseListBuilder::default();
    let mut judged = CaseListBuilder::default();
    let walk = walk_cases(&[cases.to_path_buf()])?.filter(|f| {
        all.add(f);
        let mine = shard.is_none_or(|s| s.contains(&relative(f)));
        if mine {
            judged.add(f);
        }
        mine
    });
    let bar = progress(0, "grading", "cases");
    let mut tally = Tally::default();
    let jobs = crate::util::pool::threads(jobs);
    crate::util::ordered::for_each_ordered(
        walk,
        jobs,
        jobs * 64,
        |f: CaseFile, emit: &mut (dyn FnMut(GradedCase) + Send)| {
            let rel = case_name(&f.path, cases);
            let expected = match &f.error {
                Some(e) => Err(Ungradable::NotRead(e.clone())),
                None => judge_case(&f, options),
            };
            let grades = names
                .iter()
                .map(|(_, dir)| {
                    grade_output(&dir.join(&rel).with_extension("out"), &tree, &expected)
                })
                .collect();
            bar.inc(1);
            emit(GradedCase {
                name: display(&rel),
                expected,
                grades,
            })
        },
        |case| tally.write(case, &submission_names, &mut reports, &mut staging),
    )
    .map_err(|e| RunError::io(out, e))?;
    bar.finish_and_clear();
    let mut manifest = Manifest::of_lists(
        "grade",
        options.manifest(),
        all.finish(),
        shard.map(|s| (s, judged.finish())),
    );
    let mut outcome = reports
        .finish(staging, &mut manifest)
        .map_err(|e| RunError::io(out, e))?;
    outcome.judge_errors = tally.judge_error_cases;
    // Named from the cases, so that they are named with no submission to grade too.
    outcome.judge_errors_named = tally.named_judge_errors;
    eprint!(
        "{}",
        summary(&outcome, names.len(), tally.graded_cases, out)
    );
    Ok(outcome)
}

/// The submissions: the folders directly under `submissions`, by name.
pub(super) fn submissions_in(submissions: &Path) -> Result<Vec<(String, PathBuf)>, RunError> {
    let mut names: Vec<(String, PathBuf)> = fs::read_dir(submissions)
        .map_err(|e| RunError::io(submissions, e))?
        .filter_map(Result::ok)
        .filter(|e| e.path().is_dir())
        .map(|e| (display(Path::new(&e.file_name())), e.path()))
        .collect();
    names.sort();
    Ok(names)
}

/// The graded cases written so far, and their judge errors.
#[derive(Default)]
pub(super) struct Tally {
    pub(super) graded_cases: usize,
    pub(super) judge_error_cases: usize,
    /// The first [`NAMED_JUDGE_ERRORS`] judge errors: (case, why).
    pub(super) named_judge_errors: Vec<(String, String)>,
}

impl Tally {
    /// Writes the rows of `case`, one per submission (`names`, in the order of its grades).
    fn write(
        &mut self,
        case: GradedCase,
        names: &[String],
        reports: &mut GradeReports,
        staging: &mut Staging,
    ) -> std::io::Result<()> {
        self.graded_cases += 1;
        let expected = match &case.expected {
            Ok(e) => escape(e.as_bytes(), 200),
            Err(why) => {
                self.judge_error_cases += 1;
                let why = format!("judge error: {why}");
                if self.named_judge_errors.len() < NAMED_JUDGE_ERRORS {
                    self.named_judge_errors
                        .push((case.name.clone(), why.clone()));
                }
                why
            }
        };
        for (submission, g) in names.iter().zip(case.grades) {
            let row = GradeRow {
                submission: submission.clone(),
                file: case.name.clone(),
                verdict: g.verdict,
                expected: expected.clone(),
                got: escape(&g.head, 200),
                detail: g.detail,
            };
            reports.row(staging, row)?;
        }
        Ok(())
    }
}

/// The name of the case file `path` found under `cases`: its path below `cases`, or its file
/// name when `cases` is the file itself (a submission's output for it is then `NAME.out` in the
/// submission's folder).
pub(super) fn case_name(path: &Path, cases: &Path) -> PathBuf {
    match path.strip_prefix(cases) {
        Ok(below) if !below.as_os_str().is_empty() => below.to_path_buf(),
        _ => path
            .file_name()
            .map_or_else(|| path.to_path_buf(), PathBuf::from),
    }
}
