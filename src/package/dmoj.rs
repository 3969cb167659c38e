//! A problem for DMOJ's judge (`--system dmoj`): the cases of the Kattis package, flat in the
//! problem's folder, with a Python checker that calls `referee check`.
//!
//! ```text
//! DIR/init.yml                     the cases, the checker, and `tests:` (dmoj-cli test)
//! DIR/check.py                     the checker: `referee check GAME --protocol testlib`
//! DIR/sample-NN-NAME.{in,ans}      the statement's examples
//! DIR/secret-NNN-NAME.{in,ans}     edge cases, then seeded random cases
//! DIR/submissions/CLASS/FILE       the package's submissions, each a test of `tests:`
//! ```
//!
//! DMOJ runs a Python checker inside the judge's own process, outside the sandbox, as
//! `check(process_output, judge_output, judge_input=..., point_value=..., ...)`. `check.py`
//! writes the three to a temporary directory and runs `referee check GAME --protocol testlib
//! INPUT OUTPUT ANSWER` on them (exit 0 accepted, 1 wrong answer, 2 presentation error, 3 a judge
//! error), found as the Kattis programs find it: beside `check.py` (bundled with `--referee`),
//! `$REFEREE`, `referee` on `PATH`; each must answer `referee VERSION` to `--version`. Its
//! message, the case and what was expected, is the case's feedback; a judge error is an internal
//! error of the judge (`IE`), never a verdict. Every call has a time limit.
//!
//! `tests:` lists each submission with the codes `dmoj-cli test` must see on every case: `AC`
//! for an accepted one; for the others `AC` or their class (`WA` for `wrong_answer`, `TLE`,
//! `RTE`), since a wrong submission passes some cases (that it fails one is the Kattis package's
//! contract, which `referee audit --package` checks).

use std::io;
use std::path::Path;

use super::cases::{Group, Planned};
use super::programs::Pin;
use super::{write_cases, write_file, Written};
use crate::game::problem::Content;
use crate::game::{Game, RuleSet};

/// The time limit of `tests:`, in seconds, and the memory limit, in KiB.
const TIME: u32 = 2;
const MEMORY: u32 = 262_144;

/// The name of a case's files in the problem's folder.
fn file_name(case: &Planned) -> String {
    match case.group {
        Group::Sample => format!("sample-{}", case.name),
        Group::Secret => format!("secret-{}", case.name),
    }
}

/// DMOJ's language of a submission, from its file name.
fn language(file: &str) -> &'static str {
    match Path::new(file).extension().and_then(|e| e.to_str()) {
        Some("c") => "C",
        Some("cpp" | "cc") => "CPP17",
        _ => "PY3",
    }
}

/// The codes a submission of `class` may get on one case.
fn codes(class: &str) -> &'static str {
    match class {
        "accepted" => "AC",
        "time_limit_exceeded" => "[AC, TLE]",
        "run_time_error" => "[AC, RTE, IR]",
        _ => "[AC, WA]",
    }
}

/// `init.yml`.
fn init_yml(planned: &[Planned], content: &Content) -> String {
    let mut yml = String::from(
        "# A DMOJ problem written by `referee package --system dmoj`: every case, the checker\n\
         # that calls `referee check`, and the submissions `dmoj-cli test` runs.\ntest_cases:\n",
    );
    for case in planned {
        let name = file_name(case);
        yml.push_str(&format!(
            "- {{in: {name}.in, out: {name}.ans, points: 1}}\n"
        ));
    }
    yml.push_str("checker: check.py\ntests:\n");
    for (class, file, _) in &content.submissions {
        yml.push_str(&format!(
            "- {{source: submissions/{class}/{file}, language: {}, time: {TIME}, memory: \
             {MEMORY}, expect: {}}}\n",
            language(file),
            codes(class)
        ));
    }
    yml
}

/// The input files of the DMOJ problem at `problem`: the `in` of each entry of its `init.yml`'s
/// `test_cases` (those of batches too) that names a file beside it; none without an `init.yml`
/// that parses.
pub fn case_inputs(problem: &Path) -> Vec<std::path::PathBuf> {
    use yaml_rust2::Yaml;
    let Some(init) = crate::judge_system::problem_yaml::read(&problem.join("init.yml")) else {
        return Vec::new();
    };
    let mut inputs = Vec::new();
    let mut add = |case: &Yaml| {
        if let Some(name) = case["in"].as_str() {
            let path = problem.join(name);
            if !name.contains("..") && path.is_file() {
                inputs.push(path);
            }
        }
    };
    for case in init["test_cases"].as_vec().into_iter().flatten() {
        add(case);
        for inner in case["batched"].as_vec().into_iter().flatten() {
            add(inner);
        }
    }
    inputs
}

/// `check.py`: runs `referee check` on the case (see the module's documentation).
fn check_py<G: Game>(pin: &Pin, rules: G::Options) -> String {
    let rules = if rules.name().is_empty() {
        String::new()
    } else {
        format!("'--rules', '{}', ", rules.name())
    };
    format!(
        r#""""DMOJ's checker for {game}: `referee check {game} --protocol testlib` on each case.

Written by `referee package --system dmoj`. referee {version} is looked for beside this file
(bundled), in $REFEREE, then on PATH; each must answer "referee {version}" to --version.
"""
import os
import shutil
import subprocess
import tempfile

from dmoj.error import InternalError
from dmoj.result import CheckerResult

VERSION = 'referee {version}'
HERE = os.path.dirname(os.path.abspath(__file__))
_found = []


def _is_pinned(path):
    try:
        said = subprocess.run([path, '--version'], capture_output=True, timeout=10,
                              stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError):
        return False
    return said.stdout.decode(errors='replace').strip() == VERSION


def _referee():
    if not _found:
        candidates = [os.path.join(HERE, 'referee'), os.environ.get('REFEREE'),
                      shutil.which('referee')]
        for path in candidates:
            if path and os.path.isfile(path) and os.access(path, os.X_OK) and _is_pinned(path):
                _found.append(path)
                break
        else:
            raise InternalError(VERSION + ' not found beside check.py, in $REFEREE or on PATH')
    return _found[0]


def check(process_output, judge_output, judge_input=b'', point_value=1, **kwargs):
    with tempfile.TemporaryDirectory(prefix='referee-dmoj-') as work:
        files = {{}}
        for name, data in (('in', judge_input), ('out', process_output), ('ans', judge_output)):
            files[name] = os.path.join(work, name)
            with open(files[name], 'wb') as f:
                f.write(data)
        try:
            done = subprocess.run(
                [_referee(), 'check', '{game}', {rules}'--protocol', 'testlib',
                 files['in'], files['out'], files['ans']],
                capture_output=True, timeout=60, stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            raise InternalError('referee check ran over 60 s')
    message = done.stderr.decode(errors='replace').strip()[:1000]
    if done.returncode == 0:
        return CheckerResult(True, point_value, message)
    if done.returncode in (1, 2):
        return CheckerResult(False, 0, message)
    raise InternalError('referee check: ' + message)
"#,
        game = G::NAME,
        version = pin.version,
    )
}

/// Writes the DMOJ problem of `G` under `rules` into `dir`: `planned`'s cases with the
/// engine's answers, `init.yml`, `check.py` (with the bundled referee, if any), the
/// submissions.
pub fn write_into<G: Game>(
    dir: &Path,
    pin: &Pin,
    rules: G::Options,
    content: &Content,
    planned: &[Planned],
) -> io::Result<Written> {
    let written = write_cases::<G>(planned, rules, content, |case| dir.join(file_name(case)))?;
    write_file(&dir.join("init.yml"), init_yml(planned, content).as_bytes())?;
    write_file(&dir.join("check.py"), check_py::<G>(pin, rules).as_bytes())?;
    if let Some(binary) = &pin.bundled {
        super::programs::bundle(binary, dir)?;
    }
    for (class, file, source) in &content.submissions {
        write_file(
            &dir.join("submissions").join(class).join(file),
            source.as_bytes(),
        )?;
    }
    Ok(written)
}
