//! Running DMOJ's judge on problems: the command is the path in `REFEREE_DMOJ` (as `.ci/run`
//! sets it after `scripts/ci/dmoj.sh`). Without it a test says it was skipped, and fails instead
//! when `REFEREE_REQUIRE_TOOLS` is set.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// `dmoj-cli`, or `None` (the test is skipped) when `REFEREE_DMOJ` is not set.
pub fn cli() -> Option<PathBuf> {
    super::tool::from_env(
        "REFEREE_DMOJ",
        "DMOJ's dmoj-cli, installed by scripts/ci/dmoj.sh",
    )
}

/// `dmoj-cli test PROBLEM` on the problems in `dir/problems/` (a `judge.yml` written in `dir`
/// for gcc and python3), with this referee first on PATH (the checker finds it there). What
/// it printed, standard output then standard error, and the run.
pub fn test(dmoj: &Path, dir: &Path, problem: &str) -> (String, Output) {
    let bin = Path::new(env!("CARGO_BIN_EXE_referee")).parent().unwrap();
    std::fs::write(
        dir.join("judge.yml"),
        format!(
            "id: referee\nkey: referee\nproblem_storage_globs:\n  - {}/*\nruntime:\n  gcc: \
             /usr/bin/gcc\n  python3: /usr/bin/python3\n",
            dir.join("problems").display()
        ),
    )
    .unwrap();
    let run = Command::new(dmoj)
        .args(["-c", "judge.yml", "--no-ansi", "test", problem])
        .current_dir(dir)
        .env("PATH", format!("{}:/usr/bin:/bin", bin.display()))
        .env("HOME", dir)
        .output()
        .unwrap();
    let said =
        String::from_utf8_lossy(&run.stdout).to_string() + &String::from_utf8_lossy(&run.stderr);
    (said, run)
}
