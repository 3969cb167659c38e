//! Findings real as printed: a program that fails only because the sandbox hides a file it
//! reads is told apart from a wrong one (never proved wrong, never a strengthening case); a
//! run of several cases gets the time its cases would get, so no program is proved wrong by
//! how audit grouped them; a finding's `reproduce:` line, run as printed, reproduces it
//! confined with the audit's limits.

use std::fs;
use std::path::Path;
use std::process::Command;

use crate::common::command::{referee_path, referee_process, repo, stderr};
use crate::common::scratch::reachable;

/// `examples/judges/LittleSquares.java` compiled into `classes`, and an executable script
/// `script` that runs it as a judge's wrapper does (`exec java -cp CLASSES LittleSquares`,
/// the classes' directory named nowhere on the command line).
fn java_judge(classes: &Path, script: &Path) {
    fs::create_dir_all(classes).unwrap();
    // No JVM here leaves its performance data (`hsperfdata_USER`) in /tmp.
    let built = Command::new("javac")
        .arg("-J-XX:-UsePerfData")
        .arg("-d")
        .arg(classes)
        .arg(repo().join("examples/judges/LittleSquares.java"))
        .status()
        .expect("javac (a JDK) is needed to build the Java judge");
    assert!(built.success());
    fs::create_dir_all(script.parent().unwrap()).unwrap();
    fs::write(
        script,
        format!(
            "#!/bin/sh\nexec java -XX:-UsePerfData -cp {} LittleSquares\n",
            classes.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(script, fs::Permissions::from_mode(0o755)).unwrap();
    for dir in [classes, script.parent().unwrap()] {
        fs::set_permissions(dir, fs::Permissions::from_mode(0o755)).unwrap();
    }
}

#[test]
fn a_judge_the_sandbox_hides_its_classes_from_is_not_proved_wrong() {
    let dir = reachable();
    // The wrapper in bin/, the classes elsewhere: the sandbox hides them.
    let (classes, script) = (dir.path().join("classes"), dir.path().join("bin/run.sh"));
    java_judge(&classes, &script);
    let out = dir.path().join("out");
    let run = referee_process()
        .args(["audit", "littlesquares", "--cmd"])
        .arg(&script)
        .args(["--cases", "20", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    let err = stderr(&run);
    // Not a finding (exit 1), not a strengthening case: a program that cannot be audited so,
    // and the --allow-read it needs.
    assert_eq!(run.status.code(), Some(2), "{err}");
    assert!(
        err.contains("the sandbox hides files it reads")
            && err.contains(&format!("--allow-read {}", classes.display())),
        "{err}"
    );
    assert_eq!(fs::read_dir(out.join("tests")).unwrap().count(), 0, "{err}");
    let row = &crate::common::command::csv_rows(&out.join("programs.csv"))[0];
    assert!(row["verdict"].starts_with("not run: "), "{row:?}");
    // Given that, a correct judge.
    let run = referee_process()
        .args(["audit", "littlesquares", "--cmd"])
        .arg(&script)
        .args(["--cases", "20", "--allow-read"])
        .arg(&classes)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
}

#[test]
fn a_wrapper_reads_the_files_beside_it() {
    // The wrapper beside its classes: a script's own directory is its own.
    let dir = reachable();
    let judge = dir.path().join("judge");
    let (classes, script) = (judge.clone(), judge.join("run.sh"));
    java_judge(&classes, &script);
    let run = referee_process()
        .args(["audit", "littlesquares", "--cmd"])
        .arg(&script)
        .args(["--cases", "20", "--out"])
        .arg(dir.path().join("out"))
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
}

/// A correct judge (`examples/judges/pousse.c`) that spends `millis` of CPU time on each game
/// it answers, built in `dir`: its path.
fn slow_judge(dir: &Path, millis: u32) -> String {
    let judge = fs::read_to_string(repo().join("examples/judges/pousse.c")).unwrap();
    let source = dir.join("slow.c");
    fs::write(
        &source,
        format!(
            "#include <stdio.h>\n#include <time.h>\n\
             static int slow_puts(const char *s) {{\n\
             struct timespec t; clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);\n\
             double end = t.tv_sec + t.tv_nsec / 1e9 + {millis} / 1e3, now;\n\
             do {{ clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t); now = t.tv_sec + t.tv_nsec / 1e9; }}\n\
             while (now < end);\n\
             return puts(s);\n}}\n#define puts slow_puts\n{judge}"
        ),
    )
    .unwrap();
    let program = dir.join("slow");
    let built = Command::new("cc")
        .arg("-O2")
        .arg("-o")
        .arg(&program)
        .arg(&source)
        .status()
        .unwrap();
    assert!(built.success());
    program.display().to_string()
}

#[test]
fn a_run_of_twenty_cases_gets_the_time_of_twenty() {
    // 0.1 s of CPU time a game under a limit of 1 s a case: 2 s for a run of twenty, which is
    // twenty cases' time (20 s), not one's.
    let _alone = crate::common::programs::budget_test();
    let dir = reachable();
    let judge = slow_judge(dir.path(), 100);
    let run = referee_process()
        .args(["audit", "pousse", "--cmd", &judge, "--form", "multi"])
        .args(["--batch", "20", "--cases", "40", "--timeout", "1", "--out"])
        .arg(dir.path().join("out"))
        .output()
        .unwrap();
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(0), "{err}");
    assert!(err.contains("no finding in 40 cases"), "{err}");
}

#[test]
fn a_findings_reproducing_command_run_as_printed_reproduces_it() {
    let dir = reachable();
    // A judge that burns 2.5 s of CPU time in two threads: under --timeout 1, a timeout.
    let source = dir.path().join("threads.c");
    let judge = fs::read_to_string(repo().join("examples/judges/pousse.c")).unwrap();
    let attack = fs::read_to_string(repo().join("tests/fixtures/attacks/threads_cpu.c")).unwrap();
    fs::write(
        &source,
        format!("#define main judge_main\n{judge}\n#undef main\n{attack}"),
    )
    .unwrap();
    let program = dir.path().join("threads");
    assert!(Command::new("cc")
        .args(["-O2", "-o"])
        .arg(&program)
        .arg(&source)
        .status()
        .unwrap()
        .success());
    let run = referee_process()
        .args(["audit", "pousse", "--cmd"])
        .arg(&program)
        .args(["--cases", "4", "--timeout", "1", "--out"])
        .arg(dir.path().join("out"))
        .output()
        .unwrap();
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(1), "{err}");
    let line = err
        .lines()
        .find_map(|l| l.trim().strip_prefix("reproduce: "))
        .unwrap_or_else(|| panic!("no reproduce line: {err}"));
    assert!(
        line.starts_with("referee run --timeout 1.000 --memory"),
        "{line}"
    );
    // Run as printed, referee on PATH: the same timeout, confined as the audit ran it.
    let path = format!(
        "{}:{}",
        referee_path().parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let again = Command::new("sh")
        .args(["-c", line])
        .env("PATH", path)
        .output()
        .unwrap();
    let said = stderr(&again);
    assert_eq!(again.status.code(), Some(1), "{said}");
    assert!(
        said.contains("referee run: timeout: killed after") && said.contains("confined"),
        "{said}"
    );
}
