//! The examples of `examples/ci/` run as far as this machine allows: each scheduler's shards
//! are run from the example itself (the Slurm scripts, the Kubernetes Jobs' commands, the
//! GitHub Actions workflow's steps) with the environment variables that scheduler sets, then
//! merged as the example merges them; the merged reports must be byte-identical to one
//! unsharded run over the same transcripts. (Linting the workflow is `scripts/ci/check_ci.sh`'s
//! job.)

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use yaml_rust2::{Yaml, YamlLoader};

use crate::common::audit::Report;
use crate::common::command::{copy_tree, repo};
use crate::common::tool;

/// `PATH` with referee's binary first, as an installed referee would be.
fn path_with_referee() -> String {
    let bin = crate::common::command::referee_path()
        .parent()
        .unwrap()
        .display()
        .to_string();
    format!("{bin}:{}", std::env::var("PATH").unwrap_or_default())
}

/// A work directory holding a copy of the shipped corpus, as a contest repository would.
fn workdir() -> tempfile::TempDir {
    // Reachable by every user: an audit run as root runs its programs as nobody.
    let dir = crate::common::scratch::reachable();
    copy_tree(&repo().join("corpus"), &dir.path().join("corpus"));
    dir
}

/// Runs `command`, requiring success, and returns its standard output.
fn run(command: &mut Command) -> String {
    let out = command.output().unwrap();
    assert!(
        out.status.success(),
        "{command:?}: {}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).to_string()
}

/// The unsharded run's reports, in `work/full`.
fn unsharded(work: &Path) -> PathBuf {
    let full = work.join("full");
    run(Command::new(crate::common::command::referee_path())
        .args(["verify", "corpus", "--out"])
        .arg(&full)
        .current_dir(work));
    full
}

fn same_reports(merged: &Path, full: &Path) {
    for name in ["verdicts.csv", "mismatches.csv", "verify.json"] {
        assert_eq!(
            fs::read(merged.join(name)).unwrap(),
            fs::read(full.join(name)).unwrap(),
            "{name} of {} differs from the unsharded run's",
            merged.display()
        );
    }
}

fn load_yaml(name: &str) -> Vec<Yaml> {
    let text = fs::read_to_string(repo().join("examples/ci").join(name)).unwrap();
    YamlLoader::load_from_str(&text).unwrap()
}

#[test]
fn slurm_array_tasks_merged_equal_one_run() {
    let script = repo().join("examples/ci/slurm-shard.sh");
    let text = fs::read_to_string(&script).unwrap();
    let range = text
        .lines()
        .find_map(|l| l.strip_prefix("#SBATCH --array="))
        .expect("an #SBATCH --array line");
    let (min, max) = range.split_once('-').unwrap();
    let (min, max): (u64, u64) = (min.parse().unwrap(), max.parse().unwrap());
    let work = workdir();
    let out = work.path().join("reports/slurm");
    for id in min..=max {
        run(Command::new("bash")
            .arg(&script)
            .args(["verify", "corpus"])
            .env("SLURM_ARRAY_JOB_ID", "4242")
            .env("SLURM_ARRAY_TASK_ID", id.to_string())
            .env("SLURM_ARRAY_TASK_MIN", min.to_string())
            .env("SLURM_ARRAY_TASK_MAX", max.to_string())
            .env("SLURM_ARRAY_TASK_COUNT", (max - min + 1).to_string())
            .env("SLURM_CPUS_PER_TASK", "1")
            .env("REFEREE", crate::common::command::referee_path())
            .env("OUT", &out)
            .current_dir(work.path()));
    }
    run(Command::new("bash")
        .arg(repo().join("examples/ci/slurm-merge.sh"))
        .env("REFEREE", crate::common::command::referee_path())
        .env("OUT", &out)
        .current_dir(work.path()));
    same_reports(&out.join("merged"), &unsharded(work.path()));
    assert!(out.join("merged-junit.xml").is_file());
    // Without its last task, the merge fails and names the missing slice.
    fs::remove_dir_all(out.join(format!("slice-{max}"))).unwrap();
    let failed = Command::new("bash")
        .arg(repo().join("examples/ci/slurm-merge.sh"))
        .env("REFEREE", crate::common::command::referee_path())
        .env("OUT", &out)
        .current_dir(work.path())
        .output()
        .unwrap();
    assert_eq!(failed.status.code(), Some(2));
    let n = max - min + 1;
    assert!(
        String::from_utf8_lossy(&failed.stderr).contains(&format!("slice missing: {n}/{n}")),
        "{}",
        String::from_utf8_lossy(&failed.stderr)
    );
}

/// The `sh -c` script of a Job's container, and its environment.
fn container(job: &Yaml) -> (String, Vec<(String, String)>) {
    let c = &job["spec"]["template"]["spec"]["containers"][0];
    assert_eq!(c["command"][0].as_str(), Some("sh"));
    assert_eq!(c["command"][1].as_str(), Some("-c"));
    let env = c["env"]
        .as_vec()
        .map(|v| {
            v.iter()
                .map(|e| {
                    (
                        e["name"].as_str().unwrap().to_string(),
                        e["value"].as_str().unwrap().to_string(),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    (c["args"][0].as_str().unwrap().to_string(), env)
}

#[test]
fn kubernetes_indexed_job_pods_merged_equal_one_run() {
    let docs = load_yaml("kubernetes-job.yaml");
    let (verify, merge) = (&docs[0], &docs[1]);
    assert_eq!(verify["kind"].as_str(), Some("Job"));
    assert_eq!(verify["spec"]["completionMode"].as_str(), Some("Indexed"));
    let completions = verify["spec"]["completions"].as_i64().unwrap();
    let (script, env) = container(verify);
    let shards = env.iter().find(|(k, _)| k == "REFEREE_SHARDS").unwrap();
    assert_eq!(
        shards.1,
        completions.to_string(),
        "REFEREE_SHARDS must be the Job's completions"
    );
    let work = workdir();
    for index in 0..completions {
        run(Command::new("sh")
            .args(["-c", &script])
            .envs(env.iter().map(|(k, v)| (k, v)))
            .env("JOB_COMPLETION_INDEX", index.to_string())
            .env("PATH", path_with_referee())
            .current_dir(work.path()));
    }
    let (script, env) = container(merge);
    run(Command::new("sh")
        .args(["-c", &script])
        .envs(env.iter().map(|(k, v)| (k, v)))
        .env("PATH", path_with_referee())
        .current_dir(work.path()));
    same_reports(&work.path().join("reports/merged"), &unsharded(work.path()));
}

/// Copies the directories of `from` whose names match `pattern` (`prefix*` or a name) into
/// `to`, one subdirectory per artifact, as actions/download-artifact does with a pattern.
fn download(from: &Path, pattern: &str, to: &Path) {
    for entry in fs::read_dir(from).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().to_string();
        let matches = match pattern.strip_suffix('*') {
            Some(prefix) => name.starts_with(prefix),
            None => name == pattern,
        };
        if matches {
            copy_tree(&from.join(&name), &to.join(&name));
        }
    }
}

/// Runs a job's steps in `work` for one matrix value: `run` steps (but installing referee,
/// which is already on the PATH), and the artifact actions, against `artifacts`.
fn run_job(
    job: &Yaml,
    env: &[(String, String)],
    matrix: Option<&str>,
    work: &Path,
    artifacts: &Path,
    extra_env: &[(&str, &Path)],
) -> String {
    let substitute = |text: &str| match matrix {
        Some(value) => text.replace("${{ matrix.shard }}", value),
        None => text.to_string(),
    };
    let mut stdout = String::new();
    for step in job["steps"].as_vec().unwrap() {
        if let Some(script) = step["run"].as_str() {
            if script.contains("cargo install") {
                continue;
            }
            let script = substitute(script);
            assert!(!script.contains("${{"), "an unhandled expression: {script}");
            let mut command = Command::new("bash");
            command
                .args(["--noprofile", "--norc", "-eo", "pipefail", "-c", &script])
                .envs(env.iter().map(|(k, v)| (k, v)))
                .env("PATH", path_with_referee())
                .current_dir(work);
            for (k, v) in extra_env {
                command.env(k, v);
            }
            stdout.push_str(&run(&mut command));
            continue;
        }
        let uses = step["uses"].as_str().unwrap_or("");
        let with = &step["with"];
        if uses.starts_with("actions/upload-artifact") {
            let name = substitute(with["name"].as_str().unwrap());
            let path = work.join(substitute(with["path"].as_str().unwrap()));
            if path.exists() {
                copy_tree(&path, &artifacts.join(name));
            }
        } else if uses.starts_with("actions/download-artifact") {
            let pattern = with["pattern"].as_str().unwrap();
            download(
                artifacts,
                pattern,
                &work.join(with["path"].as_str().unwrap()),
            );
        }
    }
    stdout
}

#[test]
fn github_actions_matrix_jobs_merged_equal_one_run() {
    let docs = load_yaml("github-actions.yml");
    let workflow = &docs[0];
    let env: Vec<(String, String)> = workflow["env"]
        .as_hash()
        .unwrap()
        .iter()
        .map(|(k, v)| {
            let value = match v {
                Yaml::Integer(i) => i.to_string(),
                other => other.as_str().unwrap().to_string(),
            };
            (k.as_str().unwrap().to_string(), value)
        })
        .collect();
    let verify = &workflow["jobs"]["verify"];
    let shards: Vec<String> = verify["strategy"]["matrix"]["shard"]
        .as_vec()
        .unwrap()
        .iter()
        .map(|v| v.as_i64().unwrap().to_string())
        .collect();
    let declared = env.iter().find(|(k, _)| k == "SHARDS").unwrap();
    assert_eq!(
        declared.1,
        shards.len().to_string(),
        "SHARDS and the matrix agree"
    );
    let artifacts = tempfile::tempdir().unwrap();
    for shard in &shards {
        // Each matrix job starts from a fresh checkout.
        let work = workdir();
        run_job(
            verify,
            &env,
            Some(shard),
            work.path(),
            artifacts.path(),
            &[],
        );
    }
    let merge = &workflow["jobs"]["merge"];
    assert_eq!(merge["needs"].as_str(), Some("verify"));
    let work = workdir();
    let summary = work.path().join("step-summary.md");
    let annotations = run_job(
        merge,
        &env,
        None,
        work.path(),
        artifacts.path(),
        &[("GITHUB_STEP_SUMMARY", &summary)],
    );
    assert_eq!(
        annotations, "",
        "the shipped corpus has no problem to annotate"
    );
    same_reports(&work.path().join("reports"), &unsharded(work.path()));
    let junit = fs::read_to_string(work.path().join("reports/junit.xml")).unwrap();
    assert!(
        junit.contains("<testsuites name=\"referee verify (merged)\""),
        "{junit}"
    );
    let summary = fs::read_to_string(&summary).unwrap();
    assert!(summary.contains("| suite | ok |"), "{summary}");
    assert!(artifacts.path().join("reports").is_dir());
}

/// The tool in `REFEREE_SLURM_CONF`, or `None`: the test is skipped.
fn slurm() -> Option<PathBuf> {
    tool::from_env(
        "REFEREE_SLURM_CONF",
        "the SLURM_CONF of a running cluster, from scripts/ci/slurm.sh start",
    )
}

/// `sbatch --wait` of `script ARGS` in `work` on the cluster of `conf` (with `--array=0-3` for
/// an array), `referee` as REFEREE and `OUT` as the reports' directory; its exit code.
fn sbatch(
    conf: &Path,
    work: &Path,
    array: bool,
    script: &str,
    args: &[&str],
    referee: &Path,
) -> Option<i32> {
    let mut command = Command::new("sbatch");
    command
        .args(["--wait", "--quiet", "--cpus-per-task=1", "--time=10"])
        .arg(format!("--chdir={}", work.display()))
        .arg(format!("--output={}/slurm-%A_%a.log", work.display()));
    if array {
        command.arg("--array=0-3");
    }
    command
        .arg(repo().join("examples/ci").join(script))
        .args(args)
        .env("SLURM_CONF", conf)
        .env("REFEREE", referee)
        .env("OUT", work.join("reports/slurm"))
        .current_dir(work);
    command.output().unwrap().status.code()
}

/// Runs `verify`, `grade`, `stress` and `audit` through real `sbatch --array=0-3 --wait` with
/// `examples/ci/slurm-shard.sh`, merges the slices with `examples/ci/slurm-merge.sh` (itself a
/// Slurm job), and compares with one unsharded run: `verify`'s and `grade`'s reports, manifest
/// included, byte for byte; `stress`'s findings byte for byte; `audit`'s findings row by row but
/// for what differs by nature (the times, and how the failing runs are split between
/// signatures: their total is the same). A task that fails makes the array's `sbatch --wait`
/// fail, and the merge refuse the gap.
#[test]
#[ignore = "runs a Slurm cluster: REFEREE_SLURM_CONF set (scripts/ci/slurm.sh start), cargo test -- --include-ignored (.ci/run does)"]
fn slurm_runs_every_sharded_command_for_real() {
    let Some(conf) = slurm() else {
        return;
    };
    let scratch = crate::common::scratch::reachable();
    let judge = scratch.path().join("mover-only");
    let built = Command::new("cc")
        .args(["-O2", "-DPLANT_MOVER_ONLY", "-o"])
        .arg(&judge)
        .arg(repo().join("examples/judges/pousse.c"))
        .output()
        .unwrap();
    assert!(built.status.success());
    let judge = judge.display().to_string();
    let audit = [
        "audit", "pousse", "--cmd", &judge, "--cases", "300", "--seed", "4",
    ];
    let audit_more = ["--keep-going", "--shrink-time", "20"];
    let audit_args: Vec<&str> = audit.iter().chain(&audit_more).copied().collect();
    let commands: [(&[&str], &[&str]); 4] = [
        (
            &["verify", "corpus"],
            &["verdicts.csv", "mismatches.csv", "verify.json"],
        ),
        (
            &[
                "grade",
                "--cases",
                "corpus/pousse",
                "--submissions",
                "submissions",
            ],
            &["grades.csv", "summary.csv", "grade.json"],
        ),
        (&["stress", "pousse", "--cases", "400"], &["findings.csv"]),
        (&audit_args, &[]),
    ];
    for (args, reports) in commands {
        let work = workdir();
        copy_tree(
            &repo().join("examples/submissions"),
            &work.path().join("submissions"),
        );
        let code = sbatch(
            &conf,
            work.path(),
            true,
            "slurm-shard.sh",
            args,
            crate::common::command::referee_path(),
        );
        assert_eq!(code, Some(0), "{args:?}: the array failed");
        let code = sbatch(
            &conf,
            work.path(),
            false,
            "slurm-merge.sh",
            &[],
            crate::common::command::referee_path(),
        );
        let merged = work.path().join("reports/slurm/merged");
        assert!(merged.is_dir(), "{args:?}: merge exit {code:?}");
        let full = work.path().join("full");
        let out = Command::new(crate::common::command::referee_path())
            .args(args)
            .arg("--out")
            .arg(&full)
            .current_dir(work.path())
            .output()
            .unwrap();
        assert!(out.status.code() <= Some(1), "{args:?}");
        for name in reports {
            assert_eq!(
                fs::read(merged.join(name)).unwrap(),
                fs::read(full.join(name)).unwrap(),
                "{args:?}: {name} of the merged slices differs from the unsharded run's"
            );
        }
        if args[0] == "audit" {
            let rows = |dir: &Path| {
                let rows = Report(dir).findings("mover-only");
                let total: u64 = rows
                    .iter()
                    .map(|r| r["count"].parse::<u64>().unwrap())
                    .sum();
                let kept: Vec<[String; 7]> = rows
                    .iter()
                    .map(|r| {
                        [
                            "finding",
                            "kind",
                            "input",
                            "expected",
                            "got",
                            "exit",
                            "signature",
                        ]
                        .map(|name| r[name].clone())
                    })
                    .collect();
                (kept, total)
            };
            let (merged_rows, merged_total) = rows(&merged);
            assert!(!merged_rows.is_empty());
            assert_eq!((merged_rows, merged_total), rows(&full));
        }
    }
    // A task that fails (its referee cannot run): the array's sbatch --wait fails, and the
    // merge refuses the missing slice.
    let work = workdir();
    let flaky = work.path().join("flaky-referee");
    fs::write(
        &flaky,
        format!(
            "#!/bin/sh\n[ \"$SLURM_ARRAY_TASK_ID\" = 2 ] && exit 3\nexec '{}' \"$@\"\n",
            crate::common::command::referee_path().display()
        ),
    )
    .unwrap();
    fs::set_permissions(&flaky, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let flaky = flaky.display().to_string();
    let code = sbatch(
        &conf,
        work.path(),
        true,
        "slurm-shard.sh",
        &["verify", "corpus"],
        Path::new(&flaky),
    );
    assert_eq!(code, Some(3));
    let merge = Command::new(crate::common::command::referee_path())
        .args(["merge"])
        .args(
            (0..4)
                .filter(|k| *k != 2)
                .map(|k| format!("reports/slurm/slice-{k}")),
        )
        .args(["--out", "merged"])
        .current_dir(work.path())
        .output()
        .unwrap();
    assert_eq!(merge.status.code(), Some(2));
    let said = String::from_utf8_lossy(&merge.stderr);
    assert!(said.contains("slice missing: 3/4"), "{said}");
}
