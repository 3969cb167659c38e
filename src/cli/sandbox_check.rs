//! `referee sandbox-check`: what the sandbox of `audit` and `run` gets on this machine, a
//! confined run tried, and what would give more (`referee_sandbox::check`).

use std::path::PathBuf;
use std::process::ExitCode;

use crate::util::error::RunError;

/// `referee sandbox-check`'s flags.
#[derive(Debug, clap::Args)]
pub struct SandboxCheckArgs {
    /// A cgroup v2 directory you may manage (a delegated subtree), to check as `audit --cgroup`
    /// would use it.
    #[arg(long, value_name = "DIR", env = "REFEREE_CGROUP")]
    cgroup: Option<PathBuf>,
}

/// Prints the facts, the confined run's walls and accounting (or why it failed) and the
/// advice. Exit 0 when confined runs work, 1 when they do not.
pub(super) fn sandbox_check(args: SandboxCheckArgs) -> Result<ExitCode, RunError> {
    let options = referee_sandbox::Options {
        allow_read: Vec::new(),
        cgroup: args.cgroup,
        ..Default::default()
    };
    let check = referee_sandbox::check(&options);
    let mut out = String::new();
    for fact in &check.facts {
        out.push_str(&format!(
            "{:<8} {}: {}\n",
            fact.bearing.word(),
            fact.topic,
            fact.value
        ));
    }
    match &check.runs {
        Ok((walls, accounting)) => {
            out.push_str(&format!(
                "confined runs work here; each has: {}\naccounting {}\n",
                walls.join(", "),
                accounting.describe()
            ));
        }
        Err(why) => out.push_str(&format!("confined runs do not work here: {why}\n")),
    }
    for advice in &check.advice {
        out.push_str(&format!("for more: {advice}\n"));
    }
    if matches!(&check.runs, Ok((_, referee_sandbox::Accounting::Processes))) {
        out.push_str(
            "for more: referee takes a cgroup directory you may write with --cgroup DIR (or \
             REFEREE_CGROUP), and runs under systemd-run --user --scope -p Delegate=yes \
             referee ... (docs/security.md)\n",
        );
    }
    use std::io::Write;
    std::io::stdout()
        .write_all(out.as_bytes())
        .map_err(|e| RunError::stdout("the check", e))?;
    Ok(if check.works() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
