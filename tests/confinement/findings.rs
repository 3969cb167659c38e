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
    let row = &crate::common::audit::Report(&out).program_rows()[0];
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

#[test]
fn a_failing_program_is_never_run_again_with_more_to_read() {
    // A judge that answers only when it can open a pipe the sandbox hides from it. audit may
    // watch what it asks for and say so; it never runs it again with that pipe readable, so
    // the byte the test left in the pipe is still there after the audit.
    use std::io::{Read, Write};
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    let dir = reachable();
    let private = dir.path().join("private");
    fs::create_dir(&private).unwrap();
    fs::set_permissions(&private, fs::Permissions::from_mode(0o755)).unwrap();
    let pipe = private.join("pipe");
    assert!(Command::new("mkfifo")
        .arg("-m")
        .arg("666")
        .arg(&pipe)
        .status()
        .unwrap()
        .success());
    let mut held = fs::OpenOptions::new()
        .read(true)
        .write(true)
        .custom_flags(rustix::fs::OFlags::NONBLOCK.bits() as i32)
        .open(&pipe)
        .unwrap();
    held.write_all(b"x").unwrap();
    let judge = dir.path().join("littlesquares.py");
    fs::copy(repo().join("examples/judges/littlesquares.py"), &judge).unwrap();
    let wrapper = dir.path().join("wrapper.py");
    fs::write(
        &wrapper,
        format!(
            "import os, runpy, sys\n\
             try:\n    os.read(os.open({pipe:?}, os.O_RDONLY | os.O_NONBLOCK), 1)\n\
             except OSError:\n    print('nobody wins')\n    sys.exit(0)\n\
             sys.argv = sys.argv[1:]\n\
             runpy.run_path(sys.argv[0], run_name='__main__')\n",
            pipe = pipe.display().to_string()
        ),
    )
    .unwrap();
    for file in [&judge, &wrapper] {
        fs::set_permissions(file, fs::Permissions::from_mode(0o644)).unwrap();
    }
    let command = format!("python3 {} {}", wrapper.display(), judge.display());
    let out = dir.path().join("out");
    let run = referee_process()
        .args(["audit", "littlesquares", "--cmd", &command])
        .args(["--cases", "20", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    let err = stderr(&run);
    // Not audited, not proved wrong: the file it asked for named, and the grant a person may
    // decide to give.
    assert_eq!(run.status.code(), Some(2), "{err}");
    assert!(err.contains("not audited"), "{err}");
    assert!(err.contains(&pipe.display().to_string()), "{err}");
    assert!(
        err.contains(&format!("--allow-read {}", private.display())),
        "{err}"
    );
    let mut left = [0u8; 1];
    assert_eq!(
        held.read(&mut left).ok(),
        Some(1),
        "a run of the program read the pipe: audit gave it what it asked for\n{err}"
    );
}

/// A `#!` judge at `dir/judge.py` (executable) that answers as `examples/judges/pousse.py`
/// only when it can read `answer`, and wrongly otherwise; the data of `examples/contest/pousse`
/// copied to `dir/pkg/data`.
fn judge_beside_a_package(dir: &Path, answer: &str) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    crate::common::command::copy_tree(
        &repo().join("examples/contest/pousse/data"),
        &dir.join("pkg/data"),
    );
    let real = fs::read_to_string(repo().join("examples/judges/pousse.py")).unwrap();
    let judge = dir.join("judge.py");
    fs::write(
        &judge,
        real.replacen(
            "\"\"\"",
            &format!(
                "import os as _os, sys as _sys\n\
                 try:\n    open(_os.path.join(_os.path.dirname(__file__), {answer:?})).read()\n\
                 except OSError:\n    print('nobody wins')\n    _sys.exit(0)\n\"\"\""
            ),
            1,
        ),
    )
    .unwrap();
    for path in walkdir::WalkDir::new(dir) {
        let path = path.unwrap();
        let mode = if path.file_type().is_dir() || path.path() == judge {
            0o755
        } else {
            0o644
        };
        fs::set_permissions(path.path(), fs::Permissions::from_mode(mode)).unwrap();
    }
    judge
}

#[test]
fn a_script_beside_the_package_is_refused_its_directory() {
    // Its directory holds the package's answers: the script is not run, the path named. The
    // package named with `..` is the same package.
    let dir = reachable();
    let answer = fs::read_dir(repo().join("examples/contest/pousse/data/secret"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "ans"))
        .unwrap();
    let answer = format!(
        "pkg/data/secret/{}",
        answer.file_name().unwrap().to_str().unwrap()
    );
    let judge = judge_beside_a_package(dir.path(), &answer);
    fs::create_dir(dir.path().join("elsewhere")).unwrap();
    for data in ["pkg/data", "elsewhere/../pkg/data"] {
        let out = dir.path().join("out");
        let run = referee_process()
            .args(["audit", "pousse", "--cmd"])
            .arg(&judge)
            .arg("--inputs")
            .arg(dir.path().join(data))
            .args(["--cases", "10", "--out"])
            .arg(&out)
            .output()
            .unwrap();
        let err = stderr(&run);
        assert_eq!(run.status.code(), Some(2), "{data}: {err}");
        assert!(
            err.contains("a script's directory")
                && err.contains(&dir.path().join("pkg/data").display().to_string()),
            "{data}: {err}"
        );
        let row = &crate::common::audit::Report(&out).program_rows()[0];
        assert!(row["verdict"].starts_with("not run: "), "{row:?}");
    }
    // Nor may --allow-read give the directory holding the data: refused before any run.
    let run = referee_process()
        .args(["audit", "pousse", "--cmd", "true", "--allow-read"])
        .arg(dir.path())
        .arg("--inputs")
        .arg(dir.path().join("pkg/data"))
        .arg("--out")
        .arg(dir.path().join("refused"))
        .output()
        .unwrap();
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(2), "{err}");
    assert!(err.contains("--allow-read"), "{err}");
    assert!(!dir.path().join("refused").exists(), "{err}");
}
