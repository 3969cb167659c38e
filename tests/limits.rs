//! The advice on a problem's limits (`audit --repeat`), tested with submissions of known cost:
//! each burns a fixed CPU time on every data file (one a random extra share, its noise) and
//! holds a fixed memory, then answers as the correct judge (`tests/fixtures/costs/burn.c`).
//! The package's rule (2 x the slowest accepted run, rounded up to 0.1 s; expected time-outs over
//! 1.5 x the limit) puts the limit at 0.3 s for a slowest accepted run of 0.11 s, which every
//! burner below keeps clear of by at least 0.03 s, ten times the noise of a CPU-time reading;
//! the deciding run's own costs after its burn (its exit, freeing what it holds) stay 0.04 s
//! clear of 0.15 s, where the limit would round to 0.4 s, on a machine busy with other tests.

use std::fs;
use std::path::{Path, PathBuf};

use crate::common::audit::Report;
use crate::common::command::{repo, stderr};
use crate::common::package::Package;
use crate::common::scratch::reachable;

/// A burner's source: `burn_ms` of CPU time, up to `noise_ms` more at random, `touch_mb` MiB
/// held.
fn burner(burn_ms: u32, noise_ms: u32, touch_mb: u32) -> String {
    let judge = fs::read_to_string(repo().join("examples/judges/pousse.c")).unwrap();
    let burn = fs::read_to_string(repo().join("tests/fixtures/costs/burn.c")).unwrap();
    format!(
        "#define BURN_MS {burn_ms}\n#define NOISE_MS {noise_ms}\n#define TOUCH_MB {touch_mb}\n\
         #define main judge_main\n{judge}\n#undef main\n{burn}"
    )
}

/// The submissions: folder, name, and cost.
const SUBMISSIONS: [(&str, u32, u32, u32); 6] = [
    // The slowest accepted run decides the limit: 2 x 0.11 s, rounded up to 0.3 s.
    ("accepted/steady.c", 110, 0, 100),
    // 20 to 90 ms: its noise is reported.
    ("accepted/noisy.c", 20, 70, 0),
    // Under the limit: no data file times it out.
    ("time_limit_exceeded/passes.c", 100, 0, 0),
    // Over the limit, under 1.5 x it (0.45 s): within the margin.
    ("time_limit_exceeded/margin.c", 370, 0, 0),
    // Far over (1 s): stopped at the cap (0.56 s), beyond the margin on every file.
    ("time_limit_exceeded/slow.c", 1000, 0, 0),
    // 30 MiB, under the advised 256 MiB (2 x the 100 MiB steady.c holds, rounded up).
    ("memory_limit_exceeded/small.c", 0, 0, 30),
];

/// A package of two of the example contest's data files, in `format`, with `limits` in its
/// problem.yaml and the submissions above.
pub(crate) fn package(dir: &Path, format: &str, limits: &str) -> PathBuf {
    let mut package = Package::at(dir.join("burners"))
        .example_cases(&["001-n1-row-and-column", "003-quit-at-once"])
        .problem_yaml(&format!(
            "problem_format_version: {format}\nname: Burners\nkeywords: [pousse]\nlimits:\n{limits}"
        ));
    for (name, burn, noise, touch) in SUBMISSIONS {
        package = package.submission(name, &burner(burn, noise, touch));
    }
    package.done()
}

/// `referee audit pousse --package PACKAGE --out OUT ARGS`: its exit code, stderr and
/// `audit.json`'s advice.
pub(crate) fn audit(package: &Path, out: &Path, args: &[&str]) -> (i32, String, serde_json::Value) {
    let output = crate::common::audit::audit("pousse")
        .package(package)
        .out(out)
        .args(["--cases", "3", "--seed", "1"])
        .args(args)
        .run();
    let text = stderr(&output);
    let json = if out.join("audit.json").exists() {
        Report(out).json()
    } else {
        panic!("no audit.json\n{text}")
    };
    (
        output.status.code().unwrap_or(-1),
        text,
        json["report"]["limits"].clone(),
    )
}

/// The warnings' (concern, program) pairs.
fn concerns(advice: &serde_json::Value) -> Vec<(String, String)> {
    advice["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| {
            (
                w["concern"].as_str().unwrap().to_string(),
                w["program"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

fn runs_of<'a>(advice: &'a serde_json::Value, program: &str) -> &'a Vec<serde_json::Value> {
    advice["measured"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["program"] == program)
        .unwrap_or_else(|| panic!("{program} measured"))["files"]
        .as_array()
        .unwrap()
}

fn cpu(file: &serde_json::Value) -> Vec<f64> {
    file["cpu"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_f64().unwrap())
        .collect()
}

#[test]
#[ignore = "long tier: .ci/run runs it (cargo test -- --include-ignored)"]
fn the_advised_limits_land_where_the_rule_puts_them_and_each_warning_fires_where_it_should() {
    let _alone = crate::common::programs::budget_test();
    let dir = reachable();
    let package = package(
        dir.path(),
        "2025-09",
        "  time_resolution: 0.1\n  memory: 1024\n",
    );
    let out = dir.path().join("out");
    let (code, text, advice) = audit(&package, &out, &["--add-to", package.to_str().unwrap()]);
    assert!(code == 0 || code == 1, "exit {code}\n{text}");
    assert_eq!(advice["time_limit"], 0.3, "{text}");
    assert_eq!(advice["memory_mib"], 256, "{text}");
    assert_eq!(advice["repeat"], 5);
    // Five runs of each accepted file; the noisy one's spread is seen.
    for file in runs_of(&advice, "accepted/steady.c") {
        assert_eq!(cpu(file).len(), 5, "{file}");
    }
    let spread = runs_of(&advice, "accepted/noisy.c")
        .iter()
        .map(|f| {
            let c = cpu(f);
            c.iter().copied().fold(0.0, f64::max) - c.iter().copied().fold(9.0, f64::min)
        })
        .fold(0.0, f64::max);
    assert!(
        spread > 0.02,
        "noisy.c's runs spread over {spread} s\n{text}"
    );
    assert_eq!(advice["deciding"]["program"], "accepted/steady.c");
    let mut said = concerns(&advice);
    said.sort();
    assert_eq!(
        said,
        [
            ("mle-not-exceeded", "memory_limit_exceeded/small.c"),
            ("tle-not-timed-out", "time_limit_exceeded/passes.c"),
            ("tle-within-margin", "time_limit_exceeded/margin.c"),
        ]
        .map(|(c, p)| (c.to_string(), p.to_string())),
        "{text}"
    );
    // The slow one stops at the cap on each file, after one run.
    for file in runs_of(&advice, "time_limit_exceeded/slow.c") {
        assert_eq!(file["failed"], "timeout");
        assert_eq!(cpu(file).len(), 1);
    }
    assert_eq!(advice["tle_tests"].as_array().unwrap().len(), 2, "{text}");
    assert!(
        text.contains("  time limit: 0.3 s, from accepted/steady.c"),
        "{text}"
    );
    // --add-to wrote both limits, said so, and they read back.
    let yaml = fs::read_to_string(package.join("problem.yaml")).unwrap();
    assert!(yaml.contains("\n  time_limit: 0.3\n"), "{yaml}");
    assert!(yaml.contains("\n  memory: 256\n"), "{yaml}");
    assert!(yaml.contains("\n  time_resolution: 0.1\n"), "{yaml}");
    assert!(text.contains("limits.memory 256 (was 1024)"), "{text}");
    let rules = referee::judge_system::problem_yaml::time_rules(&package).unwrap();
    assert_eq!(rules.time_limit, Some(0.3));

    // Audited again under the limit now set, every core busy with another program: the same
    // advice (CPU time does not see the load), nothing written.
    let idle = advice["deciding"]["high"].as_f64().unwrap();
    let busy = crate::common::programs::BusyMachine::start();
    let (_, again, advice) = audit(
        &package,
        &dir.path().join("again"),
        &["--add-to", package.to_str().unwrap()],
    );
    drop(busy);
    assert_eq!(advice["time_limit"], 0.3, "{again}");
    let loaded = advice["deciding"]["high"].as_f64().unwrap();
    assert!(
        (loaded - idle).abs() < 0.02,
        "the slowest accepted run took {loaded} s busy, {idle} s before\n{again}"
    );
    assert_eq!(concerns(&advice).len(), 3, "{again}");
    assert!(advice["written"].as_array().unwrap().is_empty(), "{again}");
}

#[test]
#[ignore = "long tier: .ci/run runs it (cargo test -- --include-ignored)"]
fn a_set_limit_the_measurements_contradict_is_said_and_repeat_0_gives_no_advice() {
    let dir = reachable();
    // 0.1 s is under steady.c's 0.11 s, and 64 MiB under the 100 MiB it holds.
    let package = package(
        dir.path(),
        "2023-07-draft",
        "  time_resolution: 0.1\n  time_limit: 0.1\n  memory: 1024\n",
    );
    let out = dir.path().join("out");
    let (_, text, advice) = audit(&package, &out, &[]);
    let said = concerns(&advice);
    // Said of the deciding run's program: steady.c by its cost, noisy.c when one of its runs
    // is slower still on a loaded machine.
    let deciding = advice["deciding"]["program"].as_str().unwrap().to_string();
    assert!(
        ["accepted/steady.c", "accepted/noisy.c"].contains(&deciding.as_str()),
        "{text}"
    );
    assert!(
        said.contains(&("set-limit-contradicted".into(), deciding)),
        "{text}"
    );
    assert!(
        said.contains(&("accepted-near-limit".into(), "accepted/steady.c".into())),
        "{text}"
    );
    // The rule's advice stands beside it: 2 x the deciding run, rounded up to 0.1 s (0.3 s
    // for steady.c's 0.11 s; more where a loaded machine made a run slower).
    let high = advice["deciding"]["high"].as_f64().unwrap();
    let advised = advice["time_limit"].as_f64().unwrap();
    let tenths = advised * 10.0;
    assert!(
        (tenths - tenths.round()).abs() < 1e-9
            && advised >= 2.0 * high - 1e-9
            && advised - 0.1 < 2.0 * high - 1e-9
            && advised >= 0.3,
        "{advised} from {high}\n{text}"
    );
    let (_, text, advice) = audit(&package, &dir.path().join("none"), &["--repeat", "0"]);
    assert!(advice.is_null(), "{advice}\n{text}");
    assert!(!text.contains("limits:"), "{text}");
}

/// The limits `--add-to` writes, read back by the judge systems' own readers: problemtools'
/// (`load_metadata`, the package in 2023-07-draft, the newest format it reads) and BAPCtools'
/// (`bt run` says the time limit it uses).
#[test]
#[ignore = "runs problemtools and BAPCtools: REFEREE_VERIFYPROBLEM and REFEREE_BT set (scripts/ci/), cargo test -- --include-ignored (.ci/run does)"]
fn problemtools_and_bapctools_read_the_written_limits_back() {
    let verifyproblem = crate::common::tool::from_env(
        "REFEREE_VERIFYPROBLEM",
        "Kattis problemtools' verifyproblem, installed by scripts/ci/problemtools.sh",
    );
    let bt = crate::common::bapctools::bt();
    let dir = reachable();
    let limits = referee::package::limits::Limits {
        time: Some("0.3".into()),
        memory_mib: Some(256),
        per_language: Vec::new(),
    };
    if let Some(verifyproblem) = verifyproblem {
        let package = package(
            &dir.path().join("problemtools"),
            "2023-07-draft",
            "  time_resolution: 0.1\n  memory: 1024\n",
        );
        let changed = referee::package::limits::write_limits_into(&package, &limits, true).unwrap();
        assert_eq!(changed.len(), 2, "{changed:?}");
        let python = verifyproblem.parent().unwrap().join("python");
        let read = std::process::Command::new(python)
            .args([
                "-c",
                "import sys; from pathlib import Path; \
                 from problemtools.metadata import load_metadata; \
                 m = load_metadata(Path(sys.argv[1])); \
                 print(m.limits.time_limit, m.limits.memory)",
            ])
            .arg(&package)
            .output()
            .unwrap();
        assert_eq!(
            String::from_utf8_lossy(&read.stdout).trim(),
            "0.3 256",
            "{}",
            stderr(&read)
        );
    }
    if let Some(bt) = bt {
        let package = package(
            &dir.path().join("bapctools"),
            "2025-09",
            "  time_resolution: 0.1\n  memory: 1024\n",
        );
        referee::package::limits::write_limits_into(&package, &limits, true).unwrap();
        let run = crate::common::bapctools::run(&bt, &package, &["run", "accepted/noisy.c"]);
        let text = crate::common::bapctools::text(&run);
        assert!(text.contains("using timelimit: 0.3s"), "{text}");
    }
}

#[test]
#[ignore = "runs DMOJ's judge: REFEREE_DMOJ set (scripts/ci/dmoj.sh), cargo test -- --include-ignored (.ci/run does)"]
fn dmoj_runs_each_test_at_the_limits_written_for_its_language() {
    let Some(dmoj) = crate::common::dmoj::cli() else {
        return;
    };
    let dir = reachable();
    let problems = dir.path().join("problems");
    let problem = problems.join("pousse");
    let made = crate::common::command::referee_process()
        .args([
            "package", "pousse", "--system", "dmoj", "--cases", "6", "--out",
        ])
        .arg(&problem)
        .output()
        .unwrap();
    assert!(made.status.success(), "{}", stderr(&made));
    // One limit does not fit: C gets 1.0 s, Python 3 gets 3.0 s, both 256 MiB.
    let limits = referee::package::limits::Limits {
        time: Some("1.0".into()),
        memory_mib: Some(256),
        per_language: vec![
            ("C".into(), "1.0".into()),
            ("Python 3".into(), "3.0".into()),
        ],
    };
    let changed = referee::package::limits::write_limits_into(&problem, &limits, true).unwrap();
    assert!(
        changed
            .iter()
            .any(|c| c.contains("language-specific resource limits C 1.0 s, Python 3 3.0 s")),
        "{changed:?}"
    );
    let init = fs::read_to_string(problem.join("init.yml")).unwrap();
    let tests: Vec<&str> = init
        .lines()
        .filter(|l| l.starts_with("- {source: "))
        .collect();
    assert!(!tests.is_empty(), "{init}");
    for test in &tests {
        let time = if test.contains("language: PY3") {
            "3.0"
        } else {
            "1.0"
        };
        assert!(
            test.contains(&format!("time: {time}, memory: 262144")),
            "{test}"
        );
    }
    // DMOJ's own runner reads them and every test still passes.
    let (said, run) = crate::common::dmoj::test(&dmoj, dir.path(), "pousse");
    assert_eq!(run.status.code(), Some(0), "{said}");
    assert!(said.contains("All tests passed."), "{said}");
}
