//! The advice's unit tests: the rule, rounding, the memory steps, per-language limits, shard
//! merging.

use super::*;
use crate::audit::terms::Class;
use crate::audit::terms::Kind;

fn runs(file: &str, cpu: &[f64], memory_mib: u64) -> FileRuns {
    FileRuns {
        file: file.to_string(),
        cpu: cpu.to_vec(),
        memory: cpu.iter().map(|_| memory_mib << 20).collect(),
        failed: None,
    }
}

fn program(name: &str, class: Class, language: &str, files: Vec<FileRuns>) -> Measured {
    Measured {
        program: name.to_string(),
        class,
        language: Some(language.to_string()),
        files,
    }
}

fn rules(resolution: f64) -> TimeRules {
    TimeRules {
        time_resolution: resolution,
        ..TimeRules::defaults("2025-09")
    }
}

fn concerns(advice: &Advice) -> Vec<(Concern, Option<String>)> {
    advice
        .warnings
        .iter()
        .map(|w| (w.concern, w.program.clone()))
        .collect()
}

#[test]
fn rounding_is_up_to_the_resolution_and_printed_at_its_precision() {
    assert_eq!(round_up(0.24, 0.1), 0.3);
    assert_eq!(round_up(0.3, 0.1), 0.3);
    assert_eq!(round_up(0.0001, 1.0), 1.0);
    assert_eq!(round_up(2.01, 1.0), 3.0);
    assert_eq!(round_up(0.26, 0.25), 0.5);
    assert_eq!(seconds(0.3, &rules(0.1)), "0.3 s");
    assert_eq!(seconds(3.0, &rules(1.0)), "3.0 s");
    assert_eq!(seconds(0.25, &rules(0.05)), "0.25 s");
    assert_eq!(seconds(0.3 * 1.5, &rules(0.1)), "0.45 s");
}

#[test]
fn the_memory_limit_is_the_step_over_twice_the_peak() {
    assert_eq!(memory_limit_mib(10 << 20), 64);
    assert_eq!(memory_limit_mib(100 << 20), 256);
    assert_eq!(memory_limit_mib(128 << 20), 256);
    assert_eq!(memory_limit_mib((128 << 20) + 1), 512);
    assert_eq!(memory_limit_mib(1500 << 20), 3072);
}

#[test]
fn limits_are_written_from_complete_measurements_only() {
    let measured = |second: &[f64]| {
        vec![
            program(
                "accepted/a.c",
                Class::Accepted,
                "C",
                vec![runs("1.in", &[0.05, 0.06], 10), runs("2.in", second, 20)],
            ),
            program(
                "time_limit_exceeded/t.c",
                Class::TimeLimitExceeded,
                "C",
                vec![runs("1.in", &[0.5], 10)],
            ),
        ]
    };
    let complete = advise(measured(&[0.1, 0.1]), rules(0.1), None, 2);
    assert_eq!(
        complete.missing(2),
        None,
        "an expected time-out may run less"
    );
    // The budget cut the second file's runs short: nothing is written, and it says why.
    let cut = advise(measured(&[0.1]), rules(0.1), None, 2);
    let said = cut.missing(2).unwrap();
    assert!(
        said.starts_with("1 accepted program-file pair ran fewer than 2 times"),
        "{said}"
    );
    // A data file it never ran.
    assert!(complete.missing(3).unwrap().starts_with("1 accepted"));
}

#[test]
fn the_limit_is_the_rule_over_the_slowest_accepted_runs_upper_end() {
    let measured = vec![
        program(
            "accepted/a.c",
            Class::Accepted,
            "C",
            vec![
                runs("1.in", &[0.05, 0.06], 10),
                runs("2.in", &[0.10, 0.12], 20),
            ],
        ),
        program(
            "accepted/b.c",
            Class::Accepted,
            "C",
            vec![runs("1.in", &[0.02, 0.03], 100), runs("2.in", &[0.04], 5)],
        ),
    ];
    let advice = advise(measured, rules(0.1), None, 2);
    assert_eq!(advice.time_limit, Some(0.3), "2 x 0.12 rounded up to 0.1");
    let deciding = advice.deciding.as_ref().unwrap();
    assert_eq!(
        (deciding.program.as_str(), deciding.file.as_str()),
        ("accepted/a.c", "2.in")
    );
    assert!(
        (deciding.high - deciding.low - 0.02).abs() < 1e-9,
        "the noise is the spread"
    );
    assert_eq!(advice.time_tests, vec!["2.in".to_string()]);
    assert_eq!(advice.memory_mib, Some(256), "2 x 100 MiB");
    assert_eq!(advice.peak_memory.as_ref().unwrap().0, "accepted/b.c");
    assert!(advice.warnings.is_empty(), "{:?}", advice.warnings);
    assert!(!advice.per_language && advice.languages.is_empty());
}

#[test]
fn the_memory_limit_leaves_pypy_room_to_start_when_python_is_accepted() {
    // 20 MiB held: 64 MiB for C, but PyPy, which runs Python 3 on problemtools and
    // BAPCtools under an address-space limit, needs 320 MiB to start.
    let c = program(
        "accepted/a.c",
        Class::Accepted,
        "C",
        vec![runs("1.in", &[0.1], 20)],
    );
    let advice = advise(vec![c.clone()], rules(0.1), None, 1);
    assert_eq!(advice.memory_mib, Some(64));
    assert_eq!(advice.memory_floor, None);
    let python = program(
        "accepted/a.py",
        Class::Accepted,
        "Python 3",
        vec![runs("1.in", &[0.1], 20)],
    );
    let advice = advise(vec![c, python], rules(0.1), None, 1);
    assert_eq!(advice.memory_mib, Some(512));
    assert_eq!(
        advice.memory_floor,
        Some(("Python 3".to_string(), RUNTIME_FLOOR_PYPY_MIB))
    );
    let said = advice.facts().into_iter().find(|f| f.0 == "memory limit");
    assert!(said.unwrap().1.contains("PyPy"), "{:?}", advice.facts());
}

/// An accepted program whose runs on its one file took 0.10 and 0.12 s.
fn accepted_a() -> Measured {
    program(
        "accepted/a.c",
        Class::Accepted,
        "C",
        vec![runs("1.in", &[0.1, 0.12], 1)],
    )
}

#[test]
fn the_tle_warnings_fire_when_they_should_and_not_otherwise() {
    let accepted = accepted_a();
    let tle = |name: &str, secs: &[f64]| {
        program(
            name,
            Class::TimeLimitExceeded,
            "C",
            vec![runs("1.in", secs, 1), runs("2.in", &[0.01], 1)],
        )
    };
    let mut capped = tle("time_limit_exceeded/slow.c", &[0.56]);
    capped.files[0].failed = Some(Kind::Timeout);
    let measured = vec![
        accepted.clone(),
        capped,
        tle("time_limit_exceeded/passes.c", &[0.2, 0.25]),
        tle("time_limit_exceeded/margin.c", &[0.35, 0.4]),
    ];
    // The limit is 0.3 s: 0.2-0.25 passes, 0.35-0.40 is under 1.5 x 0.3 = 0.45.
    let advice = advise(measured, rules(0.1), None, 2);
    assert_eq!(advice.time_limit, Some(0.3));
    assert_eq!(
        concerns(&advice),
        vec![
            (
                Concern::TleNotTimedOut,
                Some("time_limit_exceeded/passes.c".into())
            ),
            (
                Concern::TleWithinMargin,
                Some("time_limit_exceeded/margin.c".into())
            ),
        ]
    );
    assert!(advice.warnings[0]
        .text
        .contains("the closest is 1.in (0.200-0.250 s)"));
    assert_eq!(
        advice.closest_tle.as_ref().unwrap().program,
        "time_limit_exceeded/passes.c"
    );
    assert_eq!(advice.tle_tests, vec!["1.in".to_string()]);
}

#[test]
fn the_accepted_warnings_fire_when_they_should_and_not_otherwise() {
    let accepted = accepted_a();
    // problem.yaml's 0.11 s is within the accepted 0.10-0.12 s, and under its slowest run.
    let set = TimeRules {
        time_limit: Some(0.11),
        ..rules(0.1)
    };
    let advice = advise(vec![accepted.clone()], set, Some(1), 2);
    assert_eq!(
        concerns(&advice),
        vec![
            (Concern::AcceptedNearLimit, Some("accepted/a.c".into())),
            (Concern::SetLimitContradicted, Some("accepted/a.c".into())),
        ]
    );
    let advice = advise(vec![accepted.clone()], rules(0.1), Some(1000), 2);
    assert!(advice.warnings.is_empty());
}

#[test]
fn the_memory_warnings_fire_when_they_should_and_not_otherwise() {
    // Memory: an expected-MLE program under the limit; a set limit under the accepted peak.
    let mle = program(
        "memory_limit_exceeded/m.c",
        Class::MemoryLimitExceeded,
        "C",
        vec![runs("1.in", &[0.1], 30)],
    );
    let big = program(
        "accepted/big.c",
        Class::Accepted,
        "C",
        vec![runs("1.in", &[0.1], 100)],
    );
    let advice = advise(vec![big.clone(), mle.clone()], rules(0.1), None, 1);
    assert_eq!(
        concerns(&advice),
        vec![(
            Concern::MleNotExceeded,
            Some("memory_limit_exceeded/m.c".into())
        )]
    );
    let advice = advise(vec![big, mle], rules(0.1), Some(64), 1);
    assert_eq!(
        concerns(&advice),
        vec![
            (Concern::SetLimitContradicted, Some("accepted/big.c".into())),
            (
                Concern::MleNotExceeded,
                Some("memory_limit_exceeded/m.c".into())
            ),
        ]
    );
}

#[test]
fn runs_the_budget_cut_short_are_said() {
    let whole = program(
        "accepted/a.c",
        Class::Accepted,
        "C",
        vec![runs("1.in", &[0.1, 0.1], 1)],
    );
    let advice = advise(vec![whole.clone()], rules(0.1), None, 2);
    assert_eq!(advice.cut_short(), 0);
    assert!(!advice.rule_text().contains("fewer runs"));
    let cut = program(
        "accepted/b.c",
        Class::Accepted,
        "C",
        vec![runs("1.in", &[0.1], 1)],
    );
    let advice = advise(vec![whole, cut], rules(0.1), None, 2);
    assert_eq!(advice.cut_short(), 1);
    assert!(advice
        .rule_text()
        .contains("(1 program-file pair with fewer runs: the budget"));
}

#[test]
fn an_accepted_program_that_fails_sets_no_limit_and_is_named() {
    let mut failing = program(
        "accepted/a.c",
        Class::Accepted,
        "C",
        vec![runs("1.in", &[3.0], 1)],
    );
    failing.files[0].failed = Some(Kind::WrongAnswer);
    let advice = advise(vec![failing], rules(1.0), None, 5);
    assert_eq!(advice.time_limit, None);
    assert_eq!(
        concerns(&advice),
        vec![(Concern::AcceptedFails, Some("accepted/a.c".into()))]
    );
}

#[test]
fn several_languages_get_their_own_limits_when_one_is_too_loose() {
    let c = program(
        "accepted/a.c",
        Class::Accepted,
        "C",
        vec![runs("1.in", &[0.1], 1)],
    );
    let py = program(
        "accepted/a.py",
        Class::Accepted,
        "Python 3",
        vec![runs("1.in", &[1.1], 1)],
    );
    let advice = advise(vec![c.clone(), py], rules(0.1), None, 1);
    assert_eq!(advice.time_limit, Some(2.2));
    let own: Vec<(&str, f64)> = advice
        .languages
        .iter()
        .map(|l| (l.language.as_str(), l.time_limit))
        .collect();
    assert_eq!(own, vec![("C", 0.2), ("Python 3", 2.2)]);
    assert!(advice.per_language);
    assert_eq!(concerns(&advice), vec![(Concern::PerLanguage, None)]);
    assert!(advice.warnings[0].text.contains("in C still passes"));
    // Close enough: one limit fits both.
    let java = program(
        "accepted/A.java",
        Class::Accepted,
        "Java",
        vec![runs("1.in", &[0.12], 1)],
    );
    let advice = advise(vec![c, java], rules(0.1), None, 1);
    assert!(!advice.per_language && advice.warnings.is_empty());
}

#[test]
fn shards_merge_into_the_advice_of_the_whole_data() {
    let part = |file: &str, secs: f64| {
        advise(
            vec![program(
                "accepted/a.c",
                Class::Accepted,
                "C",
                vec![runs(file, &[secs], 1)],
            )],
            rules(0.1),
            None,
            1,
        )
    };
    let (one, two) = (part("1.in", 0.1), part("2.in", 0.4));
    let merged = merge(&[&one, &two]).unwrap();
    assert_eq!(merged.time_limit, Some(0.8));
    assert_eq!(merged.measured[0].files.len(), 2);
}
