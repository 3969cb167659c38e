//! `referee audit` of several programs at once: the contest of `examples/contest/` (a package
//! whose data misses three of its wrong submissions) audited, strengthened and checked again
//! by `verify` and problemtools; each case judged once whatever the number of programs; the
//! table of programs and its errors.
//!
//! Real compiled programs: the package's C submissions are built with gcc, its Python ones run
//! with pypy3 or python3, as `--package` does for users.

mod shards;
mod strengthening;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common;
use crate::common::audit::Report;
use common::command::{copy_tree, files_of, referee_process, repo, stderr};
use common::programs::{after_the_probe, alive_with, build, script};

#[test]
fn the_example_contests_data_is_the_package_referee_writes() {
    // examples/contest/README.md says how the package was made; its data must stay that.
    let dir = crate::common::scratch::reachable();
    let fresh = dir.path().join("pousse");
    let made = referee_process()
        .args(["package", "pousse", "--cases", "10", "--seed", "7", "--out"])
        .arg(&fresh)
        .output()
        .unwrap();
    assert!(made.status.success(), "{}", stderr(&made));
    let shipped = repo().join("examples/contest/pousse");
    assert_eq!(
        files_of(&shipped.join("data")),
        files_of(&fresh.join("data"))
    );
    for file in [
        "problem.yaml",
        "generators/generators.yaml",
        "referee-files.txt",
    ] {
        assert_eq!(
            fs::read(shipped.join(file)).unwrap(),
            fs::read(fresh.join(file)).unwrap(),
            "{file}"
        );
    }
}

#[test]
#[ignore = "long tier: .ci/run runs it (cargo test -- --include-ignored)"]
fn the_example_contest_is_audited_and_its_data_strengthened() {
    let _alone = common::programs::budget_test();
    let dir = crate::common::scratch::reachable();
    let package = dir.path().join("pousse");
    copy_tree(&repo().join("examples/contest/pousse"), &package);
    let before = files_of(&package.join("data"));
    let out = dir.path().join("audit");
    let run = referee_process()
        .args(["audit", "pousse", "--package"])
        .arg(&package)
        .arg("--add-to")
        .arg(&package)
        .arg("--out")
        .arg(&out)
        .args(["--cases", "400", "--batch", "50", "--seed", "1"])
        .args(["--shrink-time", "5", "--timeout", "2"])
        .output()
        .unwrap();
    let err = stderr(&run);
    // The package's verdict lists the wrong submissions its data accepts: exit 1.
    assert_eq!(run.status.code(), Some(1), "{err}");
    let programs = Report(&out).program_rows();
    assert_eq!(programs.len(), 10, "{err}");
    // Every program does what its folder says; referee proves every wrong one wrong.
    for p in &programs {
        let name = &p["program"];
        let expected = &p["expected"];
        assert_eq!(&p["does"], expected, "{name}: {p:?}\n{err}");
        assert_eq!(
            p["after-strengthening"] == "rejected",
            expected != "accepted",
            "{name}: {p:?}"
        );
        if expected == "accepted" {
            assert_eq!(p["verdict"], "as expected", "{name}: {p:?}");
            assert!(p["findings"].is_empty(), "{name}: {p:?}");
        } else if p["existing-data"].starts_with("time_limit_exceeded") {
            // A program that hangs on the data is classified by it, and done with.
            assert!(
                p["referee-cases"].contains("times out on the existing data"),
                "{p:?}"
            );
        } else {
            assert!(!p["first-case"].is_empty(), "{name}: {p:?}");
            assert!(out.join(&p["first-case"]).is_file(), "{name}: {p:?}");
        }
    }
    // One wrong program passes the existing data: the 64-bit rows (boards of 33 to 64, which
    // the data lacks); its long games (70,000 moves) break both buffers.
    let accepted_by_data: Vec<&str> = programs
        .iter()
        .filter(|p| p["expected"] != "accepted" && p["existing-data"].starts_with("accepted"))
        .map(|p| p["program"].as_str())
        .collect();
    assert_eq!(accepted_by_data, ["wrong_answer/bitrows.c"], "{err}");
    let buffer = programs
        .iter()
        .find(|p| p["program"] == "run_time_error/move_buffer.c")
        .unwrap();
    let moves = fs::read_to_string(out.join(&buffer["first-case"]))
        .unwrap()
        .lines()
        .count();
    assert!(
        moves > 32_767,
        "the buffer breaks only past 32,767 moves: {moves}"
    );
    // At most one case per bug the data misses, each failing a program proved wrong.
    let manifest: serde_json::Value = Report(&out).json();
    let tests = manifest["report"]["tests"].as_array().unwrap();
    assert_eq!(tests.len(), 1, "{err}");
    // The limits advised from five runs of the accepted and the too-slow submissions on every
    // data file: decided by an accepted one, the too-slow one the closest expected time-out.
    let limits = &manifest["report"]["limits"];
    assert!(limits["time_limit"].as_f64().unwrap() >= 1.0, "{err}");
    assert!(
        limits["deciding"]["program"]
            .as_str()
            .unwrap()
            .starts_with("accepted/"),
        "{err}"
    );
    assert_eq!(
        limits["closest_tle"]["program"], "time_limit_exceeded/slow.py",
        "{err}"
    );
    assert!(
        err.contains("\nlimits: 5 runs of each program on each of 27 data files"),
        "{err}"
    );
    let scores = &manifest["summary"]["scores"];
    assert_eq!(
        scores["tpr_existing"],
        serde_json::json!({"hits": 6, "of": 7})
    );
    assert_eq!(
        scores["tnr_existing"],
        serde_json::json!({"hits": 3, "of": 3})
    );
    assert_eq!(
        scores["tpr_strengthened"],
        serde_json::json!({"hits": 7, "of": 7})
    );
    assert_eq!(
        scores["tnr_strengthened"],
        serde_json::json!({"hits": 3, "of": 3})
    );
    assert!(err.contains("TPR") && err.contains("TNR"), "{err}");
    // Added after the existing cases, nothing overwritten, listed in the package's manifest.
    let after = files_of(&package.join("data"));
    for (name, bytes) in &before {
        assert_eq!(after.get(name), Some(bytes), "{name} changed");
    }
    let added: Vec<&String> = after.keys().filter(|k| !before.contains_key(*k)).collect();
    assert_eq!(added.len(), 2 * tests.len(), "{added:?}");
    let last_before = before
        .keys()
        .filter(|k| k.starts_with("secret/"))
        .max()
        .unwrap();
    for name in &added {
        assert!(name.starts_with("secret/") && *name > last_before, "{name}");
        let listed = fs::read_to_string(package.join("referee-files.txt")).unwrap();
        assert!(listed.contains(&format!("data/{name}")), "{name}");
    }
    for test in tests {
        let file = test["file"].as_str().unwrap();
        let input = fs::read(out.join(file)).unwrap();
        let added_as = test["added_as"].as_str().unwrap();
        assert_eq!(fs::read(package.join(added_as)).unwrap(), input);
        // Inside the contest's limits (42: valid, as Kattis input validators say).
        let valid = referee_process()
            .args(["validate", "pousse", "--constraints", "contest"])
            .arg(out.join(file))
            .output()
            .unwrap();
        assert_eq!(valid.status.code(), Some(42), "{file}: {}", stderr(&valid));
    }
    // The strengthened package still verifies.
    let verified = referee_process()
        .arg("verify")
        .arg(&package)
        .arg("--out")
        .arg(dir.path().join("verify"))
        .output()
        .unwrap();
    assert!(verified.status.success(), "{}", stderr(&verified));
    // And BAPCtools takes the strengthened package: `bt generate` keeps every case (the added
    // ones are in its generators.yaml), `bt run` gives every submission its folder's verdict.
    let Some(bt) = common::bapctools::bt() else {
        return;
    };
    let generated = common::bapctools::run(&bt, &package, &["generate", "--no-visualizer"]);
    assert!(
        generated.status.success(),
        "{}",
        common::bapctools::text(&generated)
    );
    assert_eq!(
        files_of(&package.join("data")),
        after,
        "bt generate changed the data"
    );
    let run = common::bapctools::run(&bt, &package, &["run"]);
    assert!(run.status.success(), "{}", common::bapctools::text(&run));
}

/// A correct judge built from examples/judges, or with `defines` a planted one.
fn judge(dir: &Path, defines: &[&str], name: &str) -> String {
    build(dir, "pousse.c", defines, name)
}

/// Whether `program` answers the input file `input` as its `.ans` says (the words of its
/// output).
fn passes(program: &str, input: &Path) -> bool {
    let run = Command::new(program)
        .stdin(fs::File::open(input).unwrap())
        .output()
        .unwrap();
    let words = |b: &[u8]| -> Vec<String> {
        String::from_utf8_lossy(b)
            .split_whitespace()
            .map(String::from)
            .collect()
    };
    run.status.success()
        && words(&run.stdout) == words(&fs::read(input.with_extension("ans")).unwrap())
}

/// A copy of the example contest's package (`DIR/pousse`) in a scratch directory the
/// programs' user can reach.
fn example_contest() -> (tempfile::TempDir, PathBuf) {
    let dir = crate::common::scratch::reachable();
    let package = dir.path().join("pousse");
    copy_tree(&repo().join("examples/contest/pousse"), &package);
    (dir, package)
}

/// `package` audited into `out` with `--time TIME --seed SEED` and no repeated runs, exit 1
/// (the package's verdict lists a wrong program the data accepts): standard error and
/// `audit.json`.
fn audited_in_time(
    package: &Path,
    out: &Path,
    time: &str,
    seed: &str,
) -> (String, serde_json::Value) {
    let run = referee_process()
        .args(["audit", "pousse", "--package"])
        .arg(package)
        .arg("--out")
        .arg(out)
        .args(["--time", time, "--repeat", "0", "--seed", seed])
        .output()
        .unwrap();
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(1), "{}: {err}", out.display());
    let manifest = Report(out).json();
    (err, manifest)
}

fn cases_judged(out: &Path) -> u64 {
    let manifest: serde_json::Value = Report(out).json();
    manifest["report"]["effort"]["cases_judged"]
        .as_u64()
        .unwrap()
}

#[test]
fn every_case_is_generated_and_judged_once_whatever_the_number_of_programs() {
    let dir = crate::common::scratch::reachable();
    let good = judge(dir.path(), &[], "good");
    let audit = |programs: &[&str], out: &Path| {
        let mut cmd = referee_process();
        cmd.args([
            "audit", "pousse", "--cases", "300", "--batch", "10", "--out",
        ])
        .arg(out);
        for (i, p) in programs.iter().enumerate() {
            cmd.arg("--cmd")
                .arg(format!("{}={p}", ["a", "b", "c", "d"][i]));
        }
        let run = cmd.output().unwrap();
        assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
        run
    };
    let one = dir.path().join("one");
    audit(&[&good], &one);
    let four = dir.path().join("four");
    let run = audit(&[&good, &good, &good, &good], &four);
    let judged = cases_judged(&one);
    assert!(judged >= 300, "{judged}");
    assert_eq!(cases_judged(&four), judged, "{}", stderr(&run));
    let programs = Report(&four).program_rows();
    assert_eq!(programs.len(), 4);
    for p in &programs {
        assert_eq!(p["referee-cases"], "no finding in 300 cases", "{p:?}");
        assert_eq!(p["verdict"], "as expected", "{p:?}");
    }
}

#[test]
fn a_table_of_programs_says_which_accepted_one_is_wrong() {
    let dir = crate::common::scratch::reachable();
    let good = judge(dir.path(), &[], "good");
    let planted = judge(dir.path(), &["-DPLANT_MOVER_ONLY"], "planted");
    let table = dir.path().join("programs.csv");
    fs::write(
        &table,
        format!("name,command,expected\ngood,{good},accepted\nplanted,{planted},accepted\n"),
    )
    .unwrap();
    let out = dir.path().join("out");
    let junit = dir.path().join("junit.xml");
    let run = referee_process()
        .args([
            "audit",
            "pousse",
            "--cases",
            "500",
            "--batch",
            "20",
            "--programs",
        ])
        .arg(&table)
        .arg("--out")
        .arg(&out)
        .arg("--junit")
        .arg(&junit)
        .output()
        .unwrap();
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(1), "{err}");
    let programs = Report(&out).program_rows();
    assert_eq!(programs[0]["verdict"], "as expected");
    assert!(
        programs[1]["verdict"].starts_with("accepted, but proved wrong"),
        "{:?}",
        programs[1]
    );
    assert_eq!(programs[1]["does"], "wrong_answer");
    assert!(err.contains("planted: accepted, but proved wrong"), "{err}");
    // One JUnit test case per program, failed where the package's verdict says something.
    let xml = fs::read_to_string(&junit).unwrap();
    assert_eq!(xml.matches("<testcase").count(), 2, "{xml}");
    assert_eq!(xml.matches("<failure").count(), 1, "{xml}");
    assert!(xml.contains("name=\"planted\""), "{xml}");
    // Each program's own findings, as a single audit writes them.
    assert!(out.join("programs/planted/findings.csv").is_file());
    assert_eq!(Report(&out).findings("good").len(), 0);

    // A table that cannot be read is an error naming the file and the line.
    fs::write(
        &table,
        "name,command,expected\nx,./x,accepted\ny,./y,maybe\n",
    )
    .unwrap();
    let bad = referee_process()
        .args(["audit", "pousse", "--programs"])
        .arg(&table)
        .arg("--out")
        .arg(dir.path().join("bad"))
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    let err = stderr(&bad);
    assert!(
        err.contains("programs.csv:3:") && err.contains("'maybe'"),
        "{err}"
    );
    // --add-to needs a package.
    let alone = referee_process()
        .args(["audit", "pousse", "--cmd", &good, "--add-to"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(alone.status.code(), Some(2), "{}", stderr(&alone));
}

#[test]
#[ignore = "long tier: .ci/run runs it (cargo test -- --include-ignored)"]
fn submissions_are_built_by_their_language_and_one_that_does_not_build_is_reported() {
    let _alone = common::programs::budget_test();
    // Each submission hands its input to `referee judge`: a correct judge in every language.
    // referee's binary is outside the sandbox's system directories: --allow-read lets them run
    // it, as an organiser lets a judge read a file beside it.
    let dir = crate::common::scratch::reachable();
    let package = dir.path().join("pousse");
    copy_tree(
        &repo().join("examples/contest/pousse/data"),
        &package.join("data"),
    );
    // referee's binary, copied where the programs' user can read it.
    let referee_path =
        &crate::common::programs::copied(dir.path(), crate::common::command::referee_path());
    let accepted = package.join("submissions/accepted");
    fs::create_dir_all(&accepted).unwrap();
    fs::write(
        accepted.join("relay.cpp"),
        format!(
            "#include <cstdlib>\nint main() {{ return std::system(\"'{referee_path}' judge pousse\") ? 1 : 0; }}\n"
        ),
    )
    .unwrap();
    fs::write(
        accepted.join("Relay.java"),
        format!(
            "public class Relay {{\n    public static void main(String[] args) throws Exception {{\n        \
             Process p = new ProcessBuilder(\"{referee_path}\", \"judge\", \"pousse\").inheritIO().start();\n        \
             System.exit(p.waitFor());\n    }}\n}}\n"
        ),
    )
    .unwrap();
    let broken = package.join("submissions/wrong_answer");
    fs::create_dir_all(&broken).unwrap();
    fs::write(broken.join("broken.c"), "int main( { return 0; }\n").unwrap();
    fs::create_dir_all(package.join("submissions/partially_accepted")).unwrap();
    let out = dir.path().join("out");
    let run = referee_process()
        .args(["audit", "pousse", "--package"])
        .arg(&package)
        .args([
            "--cases",
            "100",
            "--batch",
            "20",
            "--allow-read",
            referee_path,
        ])
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let err = stderr(&run);
    // The broken submission does not do what its folder says: exit 1, and said.
    assert_eq!(run.status.code(), Some(1), "{err}");
    assert!(err.contains("not a class Kattis knows"), "{err}");
    let programs = Report(&out).program_rows();
    let by_name: BTreeMap<&str, &BTreeMap<String, String>> = programs
        .iter()
        .map(|p| (p["program"].as_str(), p))
        .collect();
    for name in ["accepted/relay.cpp", "accepted/Relay.java"] {
        let p = by_name[name];
        assert_eq!(p["does"], "accepted", "{p:?}\n{err}");
        assert_eq!(p["verdict"], "as expected", "{p:?}");
        assert_eq!(p["referee-cases"], "no finding in 100 cases", "{p:?}");
    }
    let p = by_name["wrong_answer/broken.c"];
    assert!(
        p["referee-cases"].starts_with("not run: compile-error: C (gcc"),
        "{p:?}"
    );
    assert!(p["verdict"].starts_with("not run"), "{p:?}");
    assert!(out.join("build/accepted-Relay.java/Relay.class").is_file());
}

#[test]
fn a_contest_audit_keeps_to_its_time_and_a_signal_ends_every_process_it_started() {
    let _alone = common::programs::budget_test();
    use std::time::{Duration, Instant};
    let dir = crate::common::scratch::reachable();
    let good = judge(dir.path(), &[], "good");
    // --time bounds the whole run, a program that never answers after the probe included. It
    // counts its runs (the probe's input is also the first cases' run), which needs state
    // between runs, which a confined program has not: these programs run unconfined.
    let count = dir.path().join("stuck.count");
    let stuck = script(
        dir.path(),
        "stuck.sh",
        &format!(
            "echo x >> {count}; if [ \"$(wc -l < {count})\" -le 1 ]; then exec {good}; fi\nsleep 3261",
            count = count.display()
        ),
    );
    let out = dir.path().join("timed");
    let started = Instant::now();
    let run = referee_process()
        .args([
            "audit",
            "pousse",
            "--time",
            "6",
            "--timeout",
            "600",
            "--unconfined",
        ])
        .args([
            "--cmd",
            &format!("good={good}"),
            "--cmd",
            &format!("stuck={stuck}"),
        ])
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    // Hang guard: ten times the budget.
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "hang guard: {}",
        stderr(&run)
    );
    let programs = Report(&out).program_rows();
    assert_eq!(programs[0]["verdict"], "as expected", "{:?}", programs[0]);
    // Nothing is said of a program none of whose runs ended: not counted as accepted.
    assert!(
        programs[1]["referee-cases"].starts_with("not audited"),
        "{:?}",
        programs[1]
    );
    assert!(
        programs[1]["verdict"].starts_with("not audited"),
        "{:?}",
        programs[1]
    );
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    assert!(alive_with("sleep 3261").is_empty());

    // A signal: every program's processes end, the reports are written, exit 128 + signal.
    let background = after_the_probe(dir.path(), "background", &good, "sleep 3262 & sleep 3263");
    let double_fork = after_the_probe(
        dir.path(),
        "double-fork",
        &good,
        "setsid sh -c 'sleep 3264 & sleep 3265' & sleep 3266",
    );
    let out = dir.path().join("interrupted");
    let mut child = referee_process()
        .args([
            "audit",
            "pousse",
            "--cases",
            "100",
            "--timeout",
            "600",
            "--jobs",
            "4",
        ])
        .args(["--cmd", &format!("good={good}")])
        .args(["--cmd", &format!("background={background}")])
        .args(["--cmd", &format!("double-fork={double_fork}")])
        .arg("--out")
        .arg(&out)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Until the programs' children are up (hang guard: 60 s).
    let waited = Instant::now();
    while alive_with("sleep 3263").is_empty() || alive_with("sleep 3266").is_empty() {
        assert!(
            waited.elapsed() < Duration::from_secs(60),
            "hang guard: never ran"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(200));
    let sent = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let status = child.wait().unwrap();
    let mut text = String::new();
    std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut text).unwrap();
    assert_eq!(status.code(), Some(143), "{text}");
    assert!(text.contains("interrupted by signal 15"), "{text}");
    assert_eq!(Report(&out).program_rows().len(), 3, "{text}");
    std::thread::sleep(Duration::from_millis(200));
    for n in 3262..=3266 {
        let marker = format!("sleep {n}");
        assert!(
            alive_with(&marker).is_empty(),
            "{marker} outlived the audit"
        );
    }
}
