//! The strengthening of a contest's data: a program whose bug the budget did not reach proved
//! wrong by another's case, the same cases busy and idle, cases in the problem's form that
//! reject no program that must pass.

use super::*;
#[test]
#[ignore = "long tier: .ci/run runs it (cargo test -- --include-ignored)"]
fn a_program_whose_bug_the_budget_did_not_reach_is_proved_wrong_by_the_case_of_another() {
    // A copy of the bit rows program that sleeps half a second a run: under --time it runs too
    // few cases to reach the bug (random case 54 at seed 9, after the data's 27) and has no
    // finding, so it must pass every strengthening case... but the bit rows' case fails it on
    // every run, with the answer the reference confirms: it is proved wrong by that case, which strengthens the
    // data against both. (Otherwise the case is dropped, as rejecting a program that must be
    // accepted, and the data misses the bug of two programs.)
    let _alone = common::programs::budget_test();
    let (dir, package) = example_contest();
    // One accepted program and the two with the bug: fewer programs share the budget.
    let submissions = package.join("submissions");
    for other in [
        "accepted/judge.c",
        "accepted/judge.py",
        "run_time_error",
        "time_limit_exceeded",
        "wrong_answer/full_line_from_end.c",
        "wrong_answer/mover_only.c",
        "wrong_answer/touched_lines.c",
    ] {
        let path = submissions.join(other);
        if path.is_dir() {
            fs::remove_dir_all(path).unwrap();
        } else {
            fs::remove_file(path).unwrap();
        }
    }
    let wrong = submissions.join("wrong_answer");
    let source = fs::read_to_string(wrong.join("bitrows.c")).unwrap();
    fs::write(
        wrong.join("bitrows_slow.c"),
        format!(
            "#include <unistd.h>\n#define main bitrows_main\n{source}\n#undef main\n\
             int main(void) {{\n    usleep(500000);\n    return bitrows_main();\n}}\n"
        ),
    )
    .unwrap();
    let out = dir.path().join("audit");
    let (err, manifest) = audited_in_time(&package, &out, "60", "9");
    let rows = Report(&out).program_rows();
    let row = |name: &str| rows.iter().find(|p| p["program"] == name).unwrap();
    for name in ["wrong_answer/bitrows.c", "wrong_answer/bitrows_slow.c"] {
        let p = row(name);
        assert!(p["existing-data"].starts_with("accepted"), "{p:?}\n{err}");
        assert_eq!(p["after-strengthening"], "rejected", "{p:?}\n{err}");
        assert!(out.join(&p["first-case"]).is_file(), "{p:?}");
    }
    let slow = row("wrong_answer/bitrows_slow.c");
    assert!(
        slow["cases"].parse::<u64>().unwrap() < 27 + 54,
        "it did not reach the bug itself: {slow:?}"
    );
    assert!(
        err.contains(
            "the case of wrong_answer/bitrows.c finding 1 (wrong-answer), a strengthening \
             candidate, failed on every run"
        ),
        "{err}"
    );
    assert_eq!(
        manifest["report"]["dropped"].as_array().unwrap().len(),
        0,
        "{err}"
    );
    assert_eq!(manifest["report"]["tests"].as_array().unwrap().len(), 1);
    assert_eq!(
        manifest["summary"]["scores"]["tpr_strengthened"],
        serde_json::json!({"hits": 2, "of": 2}),
        "{err}"
    );
}

#[test]
#[ignore = "long tier: .ci/run runs it (cargo test -- --include-ignored)"]
fn the_example_contests_strengthened_data_rejects_the_same_programs_busy_and_idle() {
    // With --time, a busy machine runs fewer cases: it may find less, but the data's verdicts
    // must still end, and the screening keep its share, so the strengthened data rejects the
    // same wrong programs. (Cut at a tenth of --time, the data's runs leave the wrong programs
    // of a busy machine with no verdict: none is a target, nothing strengthens the data.) Seed 6
    // puts the bit rows' bug in the first random case, so what is compared is how the budget is
    // shared, not how many cases a loaded machine reaches.
    let _alone = common::programs::budget_test();
    let (dir, package) = example_contest();
    let audit = |name: &str| {
        let out = dir.path().join(name);
        let (err, manifest) = audited_in_time(&package, &out, "80", "6");
        // Nothing dropped for lack of time; the budget said.
        let dropped = manifest["report"]["dropped"].as_array().unwrap();
        assert!(
            !dropped
                .iter()
                .any(|d| d.as_str().unwrap().contains("did not run")),
            "{name}: {dropped:?}\n{err}"
        );
        assert!(
            err.contains("\nbudget: --time 80.0 s: the findings' deadline "),
            "{err}"
        );
        let budget = &manifest["report"]["effort"]["budget"];
        assert_eq!(budget["time"], 80.0, "{name}: {budget}");
        let rows = Report(&out).program_rows();
        let verdicts: Vec<(String, String, String)> = rows
            .iter()
            .map(|p| {
                (
                    p["program"].clone(),
                    p["existing-data"].split(' ').next().unwrap().to_string(),
                    p["after-strengthening"].clone(),
                )
            })
            .collect();
        (verdicts, err)
    };
    let (idle, idle_err) = audit("idle");
    let (busy, busy_err) = {
        let _busy = common::programs::BusyMachine::start();
        audit("busy")
    };
    assert_eq!(idle, busy, "idle:\n{idle_err}\nbusy:\n{busy_err}");
    // And that is every wrong program rejected, every accepted one accepted, the bit rows by a
    // strengthening case.
    for (program, on_data, after) in &idle {
        let wrong = !program.starts_with("accepted/");
        assert_eq!(after == "rejected", wrong, "{program}\n{idle_err}");
        assert_eq!(
            on_data == "accepted",
            !wrong || program == "wrong_answer/bitrows.c",
            "{program}\n{idle_err}"
        );
    }
}

#[test]
#[ignore = "long tier: .ci/run runs it (cargo test -- --include-ignored)"]
fn strengthening_cases_are_in_the_problems_form_and_never_reject_a_program_that_must_pass() {
    let _alone = common::programs::budget_test();
    let dir = crate::common::scratch::reachable();
    let d = dir.path();
    // Programs that read UVa 844's multi-case form only, as its public solutions do, and one
    // that reads both forms; the one expected accepted with the 32,767-move buffer is wrong.
    let uva = build(d, "pousse_uva.c", &[], "uva");
    let buffer = build(d, "pousse_uva.c", &["-DPLANT_MOVE_BUFFER"], "buffer");
    let full_line = build(
        d,
        "pousse_uva.c",
        &["-DPLANT_FULL_LINE_FROM_END"],
        "full-line",
    );
    let both = judge(d, &[], "both");
    // The problem's data, in the multi-case form: the statement's example and two files of
    // five small games each, which the full-line bug passes.
    let package = d.join("package");
    fs::create_dir_all(package.join("data/sample")).unwrap();
    fs::create_dir_all(package.join("data/secret")).unwrap();
    fs::write(
        package.join("data/sample/001.in"),
        "2\n\n4\nL2\nT2\nL2\nB2\nR2\nQUIT\n\n4\nL2\nT2\nL2\nB2\nR2\nT1\nL2\nQUIT\n",
    )
    .unwrap();
    let made = referee_process()
        .args([
            "gen",
            "pousse",
            "--form",
            "multi",
            "--per-file",
            "5",
            "--count",
            "2",
        ])
        .args(["--seed", "3", "--n", "3", "--moves", "6", "--out"])
        .arg(package.join("data/secret"))
        .output()
        .unwrap();
    assert!(made.status.success(), "{}", stderr(&made));
    let table = d.join("programs.csv");
    fs::write(
        &table,
        format!(
            "name,command,expected\nuva,{uva},accepted\nbuffer,{buffer},accepted\n\
             full-line,{full_line},wrong_answer\nboth,{both},accepted\n"
        ),
    )
    .unwrap();
    let before = files_of(&package.join("data"));
    let out = d.join("out");
    let run = referee_process()
        .args(["audit", "pousse", "--programs"])
        .arg(&table)
        .arg("--inputs")
        .arg(package.join("data"))
        .arg("--add-to")
        .arg(&package)
        .args(["--cases", "4000", "--batch", "50", "--seed", "1", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(1), "{err}");
    assert!(
        err.contains("the problem's form: multi (the data's form)"),
        "{err}"
    );
    let programs = Report(&out).program_rows();
    let by_name: BTreeMap<&str, &BTreeMap<String, String>> = programs
        .iter()
        .map(|p| (p["program"].as_str(), p))
        .collect();
    // The buffer is proved wrong; its long game would reject a program that must be accepted
    // (itself), so it is said and not written.
    assert!(
        by_name["buffer"]["verdict"].starts_with("accepted, but proved wrong"),
        "{:?}",
        by_name["buffer"]
    );
    let manifest: serde_json::Value = Report(&out).json();
    let dropped = manifest["report"]["dropped"].to_string();
    assert!(
        dropped.contains("buffer finding 1 (crash): it rejects buffer, which must be accepted"),
        "{dropped}\nbuffer's findings: {}",
        manifest["report"]["programs"][1]["findings"]
    );
    // The full-line bug, which the data misses, gets a case in the problem's form that every
    // program that must be accepted passes.
    assert_eq!(by_name["full-line"]["after-strengthening"], "rejected");
    let written: Vec<PathBuf> = fs::read_dir(out.join("tests"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "in"))
        .collect();
    assert!(!written.is_empty(), "{err}");
    for case in &written {
        let text = fs::read_to_string(case).unwrap();
        assert!(
            text.starts_with("1\n\n"),
            "not in the multi-case form: {text}"
        );
        assert!(
            passes(&uva, case) && passes(&both, case),
            "{}",
            case.display()
        );
        assert!(!passes(&full_line, case), "{}", case.display());
    }
    // --add-to added those cases and no other; every correct program passes each.
    let after = files_of(&package.join("data"));
    let added: Vec<&String> = after.keys().filter(|k| !before.contains_key(*k)).collect();
    assert_eq!(added.len(), 2 * written.len(), "{added:?}");
    for name in added.iter().filter(|n| n.ends_with(".in")) {
        let case = package.join("data").join(name);
        assert!(passes(&uva, &case) && passes(&both, &case), "{name}");
    }
}
