//! Builds bounded in what they write, as runs are, and the reports anywhere the auditor can
//! write: the runs' own directories are referee's.

use std::fs;
use std::path::Path;

use super::{programs, Contest};
use crate::common::command::stderr;

/// The largest file under `dir`, in bytes.
fn largest_file(dir: &Path) -> u64 {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .flatten()
        .filter(|e| e.file_type().is_file())
        .filter_map(|e| e.metadata().ok())
        .map(|m| m.len())
        .max()
        .unwrap_or(0)
}

#[test]
fn a_build_that_writes_900_mib_is_a_compile_error_and_writes_nothing_of_it() {
    let _alone = crate::common::programs::budget_test();
    let contest = Contest::new(
        "3900",
        256,
        &[
            ("accepted/judge.c", "answers.c"),
            ("rejected/big_build.c", "big_build.c"),
        ],
    );
    let run = contest.audit(&["--cases", "4", "--compile-time", "30"]);
    let err = stderr(&run);
    // The submission that does not build is the package's verdict.
    assert_eq!(run.status.code(), Some(1), "{err}");
    let programs = programs(&contest.out);
    let big = &programs["rejected/big_build.c"];
    assert!(
        big["referee-cases"].starts_with("not run: compile-error: C")
            && big["referee-cases"].contains("256.0 MiB or more, the most a build may write"),
        "{big:?}\n{err}"
    );
    assert_eq!(programs["accepted/judge.c"]["does"], "accepted", "{err}");
    // Nothing of its 900 MiB anywhere: not in the reports, not left in the temporary
    // directory.
    assert!(largest_file(&contest.out) < 256 << 20, "{err}");
}

#[test]
fn the_reports_may_go_under_a_directory_only_the_auditor_may_enter() {
    // `mktemp -d`: mode 700, its owner's alone (as root, nobody, whom the programs run as,
    // cannot enter it): the builds and runs are the sandbox's, the reports the auditor's.
    let _alone = crate::common::programs::budget_test();
    let contest = Contest::new("3910", 256, &[("accepted/judge.c", "answers.c")]);
    let private = tempfile::tempdir().unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(private.path(), fs::Permissions::from_mode(0o700)).unwrap();
    }
    let out = private.path().join("a");
    let run = crate::common::command::referee_process()
        .args(["audit", "pousse", "--package"])
        .arg(&contest.package)
        .args(["--cases", "4", "--repeat", "0", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(0), "{err}");
    assert_eq!(
        programs(&out)["accepted/judge.c"]["does"],
        "accepted",
        "{err}"
    );
    // The build's files are in the reports, where the reproducing commands name them.
    assert!(
        out.join("build/accepted-judge.c/program").is_file(),
        "{err}"
    );
    assert!(fs::read_dir(private.path()).unwrap().count() == 1);
}
