//! CI-native output and sharded runs through the binary: `--junit` files of verify, grade,
//! stress, audit and merge validated against the JUnit schema CI systems follow (Jenkins's
//! junit-10.xsd, fetched by `scripts/ci/junit_schema.sh`, checked with xmllint); GitHub Actions
//! annotations and step summaries; `--json`; `--shard auto` under each scheduler's variables;
//! grade, stress and audit shards merged.

use crate::common::audit::Report;
use crate::common::command::{repo, stderr, stdout};
use crate::common::tool::required;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn referee(args: &[&str]) -> Command {
    let mut command = Command::new(crate::common::command::referee_path());
    command
        .args(args)
        .current_dir(repo())
        .env_remove("GITHUB_ACTIONS")
        .env_remove("GITHUB_STEP_SUMMARY");
    for name in [
        "REFEREE_SHARD",
        "REFEREE_SHARDS",
        "SLURM_ARRAY_TASK_ID",
        "JOB_COMPLETION_INDEX",
    ] {
        command.env_remove(name);
    }
    command
}

fn output(mut command: impl std::borrow::BorrowMut<Command>) -> Output {
    command.borrow_mut().output().unwrap()
}

/// The JUnit schema, if fetched.
fn schema() -> Option<PathBuf> {
    let path = std::env::var_os("REFEREE_JUNIT_XSD")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo().join("target/schemas/junit-10.xsd"));
    path.is_file().then_some(path)
}

/// Checks the JUnit file at `path`: it parses as JUnit with `failures` failures and `errors`
/// errors, and it is valid against the schema (when the schema and xmllint are here; CI
/// requires them).
fn check_junit(path: &Path, failures: usize, errors: usize) -> quick_junit::Report {
    let xml = fs::read_to_string(path).unwrap();
    let report = quick_junit::Report::deserialize_from_str(&xml)
        .unwrap_or_else(|e| panic!("{}: {e}\n{xml}", path.display()));
    assert_eq!(
        (report.failures, report.errors),
        (failures, errors),
        "{}",
        xml
    );
    let xmllint = Command::new("xmllint").arg("--version").output().is_ok();
    match schema() {
        Some(xsd) if xmllint => {
            let out = Command::new("xmllint")
                .args(["--noout", "--schema"])
                .arg(&xsd)
                .arg(path)
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{} is not valid JUnit: {}\n{xml}",
                path.display(),
                stderr(&out)
            );
        }
        _ if required() => panic!(
            "the JUnit schema check needs scripts/ci/junit_schema.sh run and xmllint \
             (libxml2-utils) installed"
        ),
        _ => eprintln!(
            "note: {} not checked against the schema (run scripts/ci/junit_schema.sh, install \
             xmllint)",
            path.display()
        ),
    }
    report
}

/// A directory of cases: two from the corpus, one invalid at line 3, column 1, and one whose
/// answer file is wrong.
fn cases_with_problems() -> tempfile::TempDir {
    let dir = crate::common::scratch::reachable();
    for name in ["sample-1-tie", "sample-2-x-wins"] {
        for ext in ["in", "ans"] {
            fs::copy(
                repo().join(format!("corpus/pousse/{name}.{ext}")),
                dir.path().join(format!("{name}.{ext}")),
            )
            .unwrap();
        }
    }
    fs::write(dir.path().join("bad.in"), "3\nL1\nZ9\nQUIT\n").unwrap();
    fs::copy(
        repo().join("corpus/pousse/sample-1-tie.in"),
        dir.path().join("wrong-answer.in"),
    )
    .unwrap();
    fs::write(dir.path().join("wrong-answer.ans"), "X WINS\n").unwrap();
    dir
}

#[test]
fn verify_junit_has_a_suite_per_game_and_a_failure_per_problem() {
    let cases = cases_with_problems();
    let out = crate::common::scratch::reachable();
    let junit = out.path().join("junit.xml");
    let run = output(
        referee(&["verify", "--game", "pousse", "--out"])
            .arg(out.path().join("reports"))
            .arg("--junit")
            .arg(&junit)
            .arg(cases.path()),
    );
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    let report = check_junit(&junit, 2, 0);
    assert_eq!(report.test_suites.len(), 1);
    let suite = &report.test_suites[0];
    assert_eq!(suite.name.as_str(), "pousse (waterloo)");
    assert_eq!(suite.test_cases.len(), 4);
    let xml = fs::read_to_string(&junit).unwrap();
    assert!(
        xml.contains(r#"<property name="game" value="pousse"/>"#),
        "{xml}"
    );
    assert!(
        xml.contains(r#"<property name="rules" value="waterloo"/>"#),
        "{xml}"
    );
    assert!(xml.contains("type=\"invalid-input\""), "{xml}");
    assert!(xml.contains("bad.in:3:1: expected"), "{xml}");
    assert!(xml.contains("type=\"expected-mismatch\""), "{xml}");
    // The same run writes the same file.
    let again = out.path().join("again.xml");
    output(
        referee(&["verify", "--game", "pousse", "--out"])
            .arg(out.path().join("reports"))
            .arg("--junit")
            .arg(&again)
            .arg(cases.path()),
    );
    assert_eq!(fs::read(&junit).unwrap(), fs::read(&again).unwrap());
    // With --timings, each case has its engine time, in the schema's form.
    output(
        referee(&["verify", "--game", "pousse", "--timings", "--out"])
            .arg(out.path().join("reports"))
            .arg("--junit")
            .arg(&again)
            .arg(cases.path()),
    );
    check_junit(&again, 2, 0);
    assert!(fs::read_to_string(&again).unwrap().contains(" time=\""));
}

#[test]
fn grade_and_stress_junit_follow_the_schema() {
    let out = crate::common::scratch::reachable();
    let junit = out.path().join("grade.xml");
    let run = output(
        referee(&[
            "grade",
            "--cases",
            "corpus/pousse",
            "--submissions",
            "examples/submissions",
            "--out",
        ])
        .arg(out.path().join("grades"))
        .arg("--junit")
        .arg(&junit),
    );
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let grades = fs::read_to_string(out.path().join("grades/grades.csv")).unwrap();
    let wrong = grades
        .lines()
        .filter(|l| [",PE,", ",WA,", ",NO,"].iter().any(|v| l.contains(v)))
        .count();
    let report = check_junit(&junit, wrong, 0);
    let names: Vec<&str> = report.test_suites.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["alice", "bob"]);
    let junit = out.path().join("stress.xml");
    let run = output(
        referee(&["stress", "somegame", "--cases", "300", "--out"])
            .arg(out.path().join("stress"))
            .arg("--junit")
            .arg(&junit),
    );
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let report = check_junit(&junit, 0, 0);
    assert_eq!(report.tests, 1);
    let xml = fs::read_to_string(&junit).unwrap();
    assert!(
        xml.contains(r#"<property name="cases" value="300"/>"#),
        "{xml}"
    );
}

/// Builds a C judge of `examples/judges` with `defines`.
fn build_judge(dir: &Path, source: &str, defines: &[&str]) -> String {
    let exe = dir.join(source.replace(".c", ""));
    let out = Command::new("cc")
        .args(["-O2", "-o"])
        .arg(&exe)
        .args(defines)
        .arg(repo().join("examples/judges").join(source))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    exe.display().to_string()
}

#[test]
fn audit_shards_merge_by_signature_and_report_as_junit() {
    let dir = crate::common::scratch::reachable();
    let judge = build_judge(dir.path(), "pousse.c", &["-DPLANT_MOVER_ONLY"]);
    let audit = |out: &Path, extra: &[&str]| {
        let mut args = vec![
            "audit",
            "pousse",
            "--cmd",
            &judge,
            "--cases",
            "300",
            "--seed",
            "4",
            "--keep-going",
            "--shrink-time",
            "20",
        ];
        args.extend_from_slice(extra);
        let run = output(referee(&args).arg("--out").arg(out));
        assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    };
    let whole = dir.path().join("whole");
    audit(&whole, &[]);
    let shards: Vec<PathBuf> = (1..=2).map(|k| dir.path().join(format!("s{k}"))).collect();
    audit(&shards[0], &["--shard", "1/2"]);
    // The second slice from a Kubernetes Indexed Job's variables.
    let run = output(
        referee(&[
            "audit",
            "pousse",
            "--cmd",
            &judge,
            "--cases",
            "300",
            "--seed",
            "4",
            "--keep-going",
            "--shrink-time",
            "20",
            "--shard",
            "auto",
            "--shards",
            "2",
        ])
        .arg("--out")
        .arg(&shards[1])
        .env("JOB_COMPLETION_INDEX", "1"),
    );
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    let merged = dir.path().join("merged");
    let junit = dir.path().join("audit.xml");
    let run = output(
        referee(&["merge"])
            .args(&shards)
            .arg("--out")
            .arg(&merged)
            .arg("--junit")
            .arg(&junit),
    );
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    let rows = Report(&merged).findings("pousse");
    let total = |rows: &[std::collections::BTreeMap<String, String>]| {
        rows.iter()
            .map(|r| r["count"].parse::<u64>().unwrap())
            .sum::<u64>()
    };
    // Every failing run of the whole run is counted once, in one slice or the other.
    assert_eq!(total(&rows), total(&Report(&whole).findings("pousse")));
    let shard_signatures: Vec<String> = shards
        .iter()
        .flat_map(|s| Report(s).findings("pousse"))
        .map(|r| r["signature"].clone())
        .collect();
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row["finding"], (i + 1).to_string());
        assert!(shard_signatures.contains(&row["signature"]));
        let stem = row["input"].trim_end_matches(".in");
        for ext in ["in", "ans", "out", "err"] {
            let file = merged.join(format!("programs/pousse/{stem}.{ext}"));
            assert!(file.is_file(), "{}", file.display());
        }
    }
    let signatures: std::collections::BTreeSet<&String> =
        rows.iter().map(|r| &r["signature"]).collect();
    assert_eq!(signatures.len(), rows.len(), "one row per signature");
    // One test case per program: the judge is proved wrong, its findings in the detail.
    let report = check_junit(&junit, 1, 0);
    assert_eq!(report.tests, 1);
    let xml = fs::read_to_string(&junit).unwrap();
    assert!(xml.contains("proved wrong"), "{xml}");
    // The merged program's line is the whole run's but for the counts of cases.
    let line = |dir: &Path| {
        let mut reader = csv::Reader::from_path(dir.join("programs.csv")).unwrap();
        let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
        assert_eq!(rows.len(), 1);
        (rows[0][2].to_string(), rows[0][11].to_string())
    };
    assert_eq!(line(&merged), line(&whole));
    // A slice missing, or given twice, is refused by name.
    let run = output(
        referee(&["merge"])
            .arg(&shards[0])
            .arg("--out")
            .arg(&merged),
    );
    assert_eq!(run.status.code(), Some(2));
    assert!(
        stderr(&run).contains("slice missing: 2/2"),
        "{}",
        stderr(&run)
    );
    let run = output(
        referee(&["merge"])
            .args([&shards[0], &shards[0], &shards[1]])
            .arg("--out")
            .arg(&merged),
    );
    assert_eq!(run.status.code(), Some(2));
    assert!(
        stderr(&run).contains("slice given twice: 1/2"),
        "{}",
        stderr(&run)
    );
}

#[test]
fn stress_shards_split_the_case_indices_and_merge() {
    let dir = crate::common::scratch::reachable();
    let shards: Vec<PathBuf> = (1..=3).map(|k| dir.path().join(format!("s{k}"))).collect();
    for (k, out) in shards.iter().enumerate() {
        let run = output(
            referee(&[
                "stress", "pousse", "--cases", "300", "--shard", "auto", "--out",
            ])
            .arg(out)
            .env("SLURM_ARRAY_TASK_ID", (10 + k).to_string())
            .env("SLURM_ARRAY_TASK_MIN", "10")
            .env("SLURM_ARRAY_TASK_COUNT", "3"),
        );
        assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
        // Indices k, k + 3, ... below 300: a hundred each.
        assert!(
            stderr(&run).contains("stress pousse: 100 cases"),
            "{}",
            stderr(&run)
        );
    }
    let merged = dir.path().join("merged");
    let run = output(
        referee(&["merge", "--json"])
            .args(&shards)
            .arg("--out")
            .arg(&merged),
    );
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let summary: serde_json::Value = serde_json::from_str(&stdout(&run)).unwrap();
    assert_eq!(summary["command"], "stress");
    assert_eq!(summary["problems"], 0);
    assert!(merged.join("stress.json").is_file());
    // Slices of different runs are refused.
    let other = dir.path().join("other");
    output(
        referee(&[
            "stress", "pousse", "--cases", "200", "--shard", "2/3", "--out",
        ])
        .arg(&other),
    );
    let run = output(
        referee(&["merge"])
            .args([&shards[0], &other, &shards[2]])
            .arg("--out")
            .arg(&merged),
    );
    assert_eq!(run.status.code(), Some(2));
    assert!(
        stderr(&run).contains("options (cases 200 against 300) differ"),
        "{}",
        stderr(&run)
    );
}

#[test]
fn grade_shards_merged_equal_one_run() {
    let dir = crate::common::scratch::reachable();
    let grade = |out: &Path, extra: &[&str]| {
        let mut args = vec![
            "grade",
            "--cases",
            "corpus/pousse",
            "--submissions",
            "examples/submissions",
        ];
        args.extend_from_slice(extra);
        let run = output(referee(&args).arg("--out").arg(out));
        assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    };
    let whole = dir.path().join("whole");
    grade(&whole, &[]);
    let shards: Vec<PathBuf> = (1..=3).map(|k| dir.path().join(format!("s{k}"))).collect();
    for (k, out) in shards.iter().enumerate() {
        grade(out, &["--shard", &format!("{}/3", k + 1)]);
    }
    let merged = dir.path().join("merged");
    let run = output(referee(&["merge"]).args(&shards).arg("--out").arg(&merged));
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    for name in ["grades.csv", "summary.csv", "grade.json"] {
        assert_eq!(
            fs::read(merged.join(name)).unwrap(),
            fs::read(whole.join(name)).unwrap(),
            "{name}"
        );
    }
}

#[test]
fn github_annotations_and_the_step_summary() {
    let cases = cases_with_problems();
    // Eleven more invalid files: 13 problems, 10 annotated, then a notice.
    for i in 0..11 {
        fs::write(cases.path().join(format!("more-{i:02}.in")), "2\nX\n").unwrap();
    }
    let out = crate::common::scratch::reachable();
    let summary = out.path().join("summary.md");
    fs::write(&summary, "earlier steps' summary\n").unwrap();
    let run = output(
        referee(&["verify", "--game", "pousse", "--out"])
            .arg(out.path().join("reports"))
            .arg(cases.path())
            .env("GITHUB_ACTIONS", "true")
            .env("GITHUB_STEP_SUMMARY", &summary),
    );
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    let annotations = stdout(&run);
    let lines: Vec<&str> = annotations.lines().collect();
    assert_eq!(lines.len(), 11, "{annotations}");
    let bad = format!("{}/bad.in", cases.path().display());
    assert!(
        lines.iter().any(|l| l.starts_with(&format!(
            "::error file={bad},line=3,col=1,title=referee%3A invalid-input::"
        ))),
        "{annotations}"
    );
    assert!(
        lines[10].starts_with("::notice title=referee::3 more problems"),
        "{annotations}"
    );
    let md = fs::read_to_string(&summary).unwrap();
    assert!(
        md.starts_with("earlier steps' summary\n### referee verify"),
        "{md}"
    );
    assert!(
        md.contains("| suite | ok | expected-mismatch | invalid-input | total |\n|---|---|---|---|---|\n| pousse (waterloo) | 2 | 1 | 12 | 15 |"),
        "{md}"
    );
    assert!(md.contains("13 problems:"), "{md}");
    // Inside the workspace, file names are relative to it.
    let run = output(
        referee(&["verify", "--game", "pousse", "--out"])
            .arg(out.path().join("reports"))
            .arg(cases.path())
            .env("GITHUB_ACTIONS", "true")
            .env("GITHUB_WORKSPACE", cases.path()),
    );
    assert!(
        stdout(&run).contains("::error file=bad.in,line=3,col=1,"),
        "{}",
        stdout(&run)
    );
    // --annotations none, and no annotation outside GitHub Actions.
    for extra in [&["--annotations", "none"][..], &[]] {
        let mut command = referee(&["verify", "--game", "pousse", "--out"]);
        command
            .arg(out.path().join("reports"))
            .arg(cases.path())
            .args(extra);
        if !extra.is_empty() {
            command.env("GITHUB_ACTIONS", "true");
        }
        let run = output(&mut command);
        assert_eq!(stdout(&run), "");
    }
}

#[test]
fn json_summaries_of_judge_and_verify() {
    let cases = cases_with_problems();
    let out = crate::common::scratch::reachable();
    let run = output(
        referee(&[
            "verify",
            "--game",
            "pousse",
            "--json",
            "--annotations",
            "github",
            "--out",
        ])
        .arg(out.path().join("reports"))
        .arg(cases.path()),
    );
    assert_eq!(run.status.code(), Some(1));
    let summary: serde_json::Value = serde_json::from_str(&stdout(&run)).unwrap();
    assert_eq!(summary["command"], "verify");
    assert_eq!(summary["files"], 4);
    assert_eq!(summary["cases"], 4);
    assert_eq!(summary["statuses"]["ok"], 2);
    assert_eq!(summary["statuses"]["invalid-input"], 1);
    assert_eq!(summary["statuses"]["expected-mismatch"], 1);
    assert_eq!(summary["games"]["pousse"]["ok"], 2);
    assert_eq!(summary["problems"], 2);
    assert_eq!(summary["exit"], 1);
    assert!(summary["reports"]["verdicts"]
        .as_str()
        .unwrap()
        .ends_with("reports/verdicts.csv"));
    // With JSON on standard output, annotations go to standard error.
    assert!(stderr(&run).contains("::error file="), "{}", stderr(&run));
    let judged = output(
        referee(&["judge", "pousse", "--json", "--rules", "icfp98"])
            .arg("corpus/pousse/sample-2-x-wins.in"),
    );
    assert_eq!(judged.status.code(), Some(0));
    let object: serde_json::Value = serde_json::from_str(&stdout(&judged)).unwrap();
    assert_eq!(object["game"], "pousse");
    assert_eq!(object["rules"], "icfp98");
    assert_eq!(object["cases"][0]["verdict"], "X WINS");
    assert_eq!(object["output"], "X WINS\n");
    let rejected = output(referee(&["judge", "pousse", "--json"]).arg(cases.path().join("bad.in")));
    assert_eq!(rejected.status.code(), Some(1));
    let object: serde_json::Value = serde_json::from_str(&stdout(&rejected)).unwrap();
    assert_eq!(object["error"]["line"], 3);
    assert_eq!(object["error"]["column"], 1);
    let rejected = output(referee(&["judge", "somegame", "--json", "--rules", "x"]).arg("x.in"));
    assert_eq!(rejected.status.code(), Some(2));
}

#[test]
fn shard_auto_names_the_variables_it_needs() {
    let run = output(referee(&["verify", "corpus", "--shard", "auto"]));
    assert_eq!(run.status.code(), Some(2));
    for name in [
        "SLURM_ARRAY_TASK_ID",
        "JOB_COMPLETION_INDEX",
        "REFEREE_SHARD",
    ] {
        assert!(stderr(&run).contains(name), "{}", stderr(&run));
    }
    let run =
        output(referee(&["verify", "corpus", "--shard", "auto"]).env("JOB_COMPLETION_INDEX", "0"));
    assert_eq!(run.status.code(), Some(2));
    assert!(stderr(&run).contains("--shards N"), "{}", stderr(&run));
    let run = output(referee(&["verify", "corpus", "--shards", "3"]));
    assert_eq!(run.status.code(), Some(2));
}
