//! Where a contest audit writes: never inside the trees it reads; its shards merged into the
//! whole run's reports, and only shards of one run.

use super::*;
#[test]
fn reports_are_never_written_inside_the_trees_audit_reads() {
    let dir = crate::common::scratch::reachable();
    let package = dir.path().join("pousse");
    copy_tree(&repo().join("examples/contest/pousse"), &package);
    let before = files_of(&package);
    let inputs = dir.path().join("inputs");
    fs::create_dir_all(&inputs).unwrap();
    for (flags, out) in [
        (vec!["--package"], package.join("data")),
        (vec!["--package"], package.clone()),
        (
            vec!["--cmd", "cat", "--add-to"],
            package.join("data/secret/x"),
        ),
        (vec!["--cmd", "cat", "--inputs"], inputs.join("reports")),
    ] {
        let tree = if flags[0] == "--cmd" && flags[2] == "--inputs" {
            &inputs
        } else {
            &package
        };
        let run = referee_process()
            .args(["audit", "pousse"])
            .args(&flags)
            .arg(tree)
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap();
        assert_eq!(run.status.code(), Some(2), "{flags:?} {}", stderr(&run));
        assert!(stderr(&run).contains("is inside"), "{}", stderr(&run));
        assert!(!out.exists() || out == package || out == package.join("data"));
    }
    // Nothing was built, written or added.
    assert_eq!(files_of(&package), before);
    assert_eq!(fs::read_dir(&inputs).unwrap().count(), 0);
}

#[test]
fn the_shards_of_a_contest_audit_merge_into_its_reports() {
    let _alone = common::programs::budget_test();
    let dir = crate::common::scratch::reachable();
    let good = judge(dir.path(), &[], "good");
    let mover = judge(dir.path(), &["-DPLANT_MOVER_ONLY"], "mover");
    let audit = |out: &Path, shard: Option<&str>, extra: &[&str]| {
        let mut cmd = referee_process();
        cmd.args(["audit", "pousse", "--cases", "300", "--seed", "2"])
            .args([
                "--cmd",
                &format!("good={good}"),
                "--cmd",
                &format!("mover={mover}"),
            ])
            .arg("--out")
            .arg(out);
        if let Some(shard) = shard {
            cmd.args(["--shard", shard]);
        }
        cmd.args(extra);
        let run = cmd.output().unwrap();
        assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    };
    let whole = dir.path().join("whole");
    audit(&whole, None, &[]);
    let shards: Vec<PathBuf> = (1..=2).map(|k| dir.path().join(format!("s{k}"))).collect();
    audit(&shards[0], Some("1/2"), &[]);
    audit(&shards[1], Some("2/2"), &[]);
    let merged = dir.path().join("merged");
    let run = referee_process()
        .arg("merge")
        .args(&shards)
        .arg("--out")
        .arg(&merged)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    // Each program does the same and gets the same verdict as in the whole run.
    let verdicts = |out: &Path| -> Vec<(String, String, String, String)> {
        Report(out)
            .program_rows()
            .into_iter()
            .map(|p| {
                (
                    p["program"].clone(),
                    p["does"].clone(),
                    p["after-strengthening"].clone(),
                    p["verdict"].clone(),
                )
            })
            .collect()
    };
    assert_eq!(verdicts(&merged), verdicts(&whole));
    // The wrong program's findings, each with its files; one strengthening case rejects it.
    let findings = Report(&merged).findings("mover");
    assert!(!findings.is_empty());
    for f in &findings {
        assert!(
            merged.join("programs/mover").join(&f["input"]).is_file(),
            "{f:?}"
        );
    }
    let manifest: serde_json::Value = Report(&merged).json();
    let tests = manifest["report"]["tests"].as_array().unwrap();
    assert_eq!(tests.len(), 1, "{manifest}");
    assert!(merged.join("tests/001.in").is_file());
    // A missing slice is refused.
    let run = referee_process()
        .arg("merge")
        .arg(&shards[0])
        .arg("--out")
        .arg(dir.path().join("partial"))
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2), "{}", stderr(&run));
    // So is a slice a signal interrupted: its reports hold what it found before, not its slice.
    let stopped = dir.path().join("s2-interrupted");
    copy_tree(&shards[1], &stopped);
    let manifest = stopped.join("audit.json");
    let mut json: serde_json::Value =
        serde_json::from_slice(&fs::read(&manifest).unwrap()).unwrap();
    json["report"]["interrupted"] = serde_json::Value::Bool(true);
    fs::write(&manifest, serde_json::to_vec_pretty(&json).unwrap()).unwrap();
    let run = referee_process()
        .arg("merge")
        .arg(&shards[0])
        .arg(&stopped)
        .arg("--out")
        .arg(dir.path().join("with-interrupted"))
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2), "{}", stderr(&run));
    assert!(stderr(&run).contains("interrupted"), "{}", stderr(&run));
    assert!(!dir.path().join("with-interrupted").exists());
    // And slices run with other options, which the refusal names.
    let other = dir.path().join("s2-repeat");
    audit(
        &other,
        Some("2/2"),
        &["--repeat", "1", "--compile-time", "9"],
    );
    let run = referee_process()
        .arg("merge")
        .arg(&shards[0])
        .arg(&other)
        .arg("--out")
        .arg(dir.path().join("with-other-options"))
        .output()
        .unwrap();
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(2), "{err}");
    assert!(
        err.contains("compile-time 9 against 60") && err.contains("repeat 1 against 5"),
        "{err}"
    );
}
