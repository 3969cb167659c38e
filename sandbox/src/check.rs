//! What the sandbox gets on this machine, said in words (as isolate's
//! `isolate-check-environment` says what a machine lacks for isolate): the kernel, Landlock,
//! user namespaces and what restricts them, seccomp, the control groups and what this user may
//! write in them; then a confined run tried, the walls and the accounting it had, and what to
//! do for more.

use std::path::Path;

use crate::host::{Host, V1_CONTROLLERS, V2_CONTROLLERS};
use crate::sandbox::{Accounting, Options, Sandbox};

/// How a fact bears on the sandbox.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bearing {
    /// As the sandbox wants it.
    Good,
    /// The sandbox works, with less (a wall or the kernel's accounting missing).
    Less,
    /// Confined runs cannot work.
    Missing,
    /// Said for the record.
    Note,
}

impl Bearing {
    /// Its word in a report.
    pub fn word(self) -> &'static str {
        match self {
            Bearing::Good => "ok",
            Bearing::Less => "less",
            Bearing::Missing => "MISSING",
            Bearing::Note => "note",
        }
    }
}

/// One fact of the machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fact {
    /// What it is about (`kernel`, `landlock`, `cgroup v2`).
    pub topic: &'static str,
    /// What it is, in words.
    pub value: String,
    /// How it bears on the sandbox.
    pub bearing: Bearing,
}

/// What the sandbox gets here.
#[derive(Debug)]
pub struct Check {
    /// The machine's facts.
    pub facts: Vec<Fact>,
    /// Whether a confined run works; the walls and the accounting it had, or why not.
    pub runs: Result<(Vec<String>, Accounting), String>,
    /// What would give the runs more, in words.
    pub advice: Vec<String>,
}

impl Check {
    /// Whether confined runs work here.
    pub fn works(&self) -> bool {
        self.runs.is_ok()
    }
}

/// Checks this machine as a sandbox made with `options` would use it.
pub fn check(options: &Options) -> Check {
    let host = Host::read();
    let mut facts = Vec::new();
    let mut advice = Vec::new();
    facts.push(kernel(&host));
    facts.push(Fact {
        topic: "user",
        value: if host.is_root() {
            "root: programs run as nobody (uid 65534)".to_string()
        } else {
            format!("uid {}: programs run as this user", host.uid)
        },
        bearing: Bearing::Note,
    });
    facts.extend(namespaces(&host, &mut advice));
    facts.push(Fact {
        topic: "seccomp",
        value: if host.seccomp_notify {
            "filters with a listener (user_notif)".to_string()
        } else {
            "no user_notif action (Linux 5.0 or later, CONFIG_SECCOMP_FILTER)".to_string()
        },
        bearing: if host.seccomp_notify {
            Bearing::Good
        } else {
            Bearing::Missing
        },
    });
    facts.push(landlock(&host, &mut advice));
    facts.extend(cgroups(&host));
    facts.push(keeper());
    let runs = match Sandbox::new(options) {
        Ok(sandbox) => {
            if let Some(why) = sandbox.no_cgroup() {
                facts.push(Fact {
                    topic: "control groups",
                    value: format!("none for the runs: {why}"),
                    bearing: Bearing::Less,
                });
                advice.push(
                    "for the kernel's accounting (more than one process a run), run as root, or \
                     in a cgroup v2 subtree delegated to you (systemd-run --user --scope -p \
                     Delegate=yes COMMAND), or give the sandbox a cgroup directory you may write"
                        .to_string(),
                );
            }
            if let Some(subtree) = sandbox.cgroup_subtree() {
                facts.push(Fact {
                    topic: "control groups",
                    value: format!("the runs' groups under {}", subtree.display()),
                    bearing: Bearing::Good,
                });
            }
            Ok((sandbox.walls(), sandbox.accounting()))
        }
        Err(e) => Err(e.to_string()),
    };
    if crate::keeper::beside_this_program().is_none() {
        advice.push(format!(
            "install {} beside this program (cargo install --path sandbox): runs start from \
             its small image, faster",
            crate::keeper::KEEPER
        ));
    }
    Check {
        facts,
        runs,
        advice,
    }
}

fn kernel(host: &Host) -> Fact {
    let old = host.kernel_version().is_some_and(|v| v < (5, 15));
    Fact {
        topic: "kernel",
        value: format!(
            "Linux {}{}",
            host.kernel,
            if old {
                " (older than 5.15: the sandbox is tested from Debian 12's 6.1 on)"
            } else {
                ""
            }
        ),
        bearing: if old { Bearing::Less } else { Bearing::Good },
    }
}

fn namespaces(host: &Host, advice: &mut Vec<String>) -> Vec<Fact> {
    let mut facts = Vec::new();
    let none = host.max_user_namespaces == Some(0);
    facts.push(Fact {
        topic: "user namespaces",
        value: match host.max_user_namespaces {
            Some(n) => format!("user.max_user_namespaces = {n}"),
            None => "user.max_user_namespaces unreadable".to_string(),
        },
        bearing: if none {
            Bearing::Missing
        } else {
            Bearing::Good
        },
    });
    if none {
        advice.push("sysctl user.max_user_namespaces=10000".to_string());
    }
    if let Some(allowed) = host.unprivileged_userns_clone {
        let blocks = !allowed && !host.is_root();
        facts.push(Fact {
            topic: "user namespaces",
            value: format!("kernel.unprivileged_userns_clone = {}", u8::from(allowed)),
            bearing: if blocks {
                Bearing::Missing
            } else {
                Bearing::Good
            },
        });
        if blocks {
            advice.push("sysctl kernel.unprivileged_userns_clone=1, or run as root".to_string());
        }
    }
    if let Some(restricts) = host.apparmor_restricts_userns {
        let blocks = restricts && !host.is_root();
        facts.push(Fact {
            topic: "user namespaces",
            value: format!(
                "kernel.apparmor_restrict_unprivileged_userns = {} (Ubuntu's AppArmor)",
                u8::from(restricts)
            ),
            bearing: if blocks { Bearing::Less } else { Bearing::Good },
        });
        if blocks {
            advice.push(
                "Ubuntu restricts unprivileged user namespaces: an AppArmor profile for this \
                 program and its keeper that allows `userns,`, or sysctl \
                 kernel.apparmor_restrict_unprivileged_userns=0, or run as root"
                    .to_string(),
            );
        }
    }
    facts
}

fn landlock(host: &Host, advice: &mut Vec<String>) -> Fact {
    let abi = host.landlock_abi;
    if abi <= 0 {
        advice.push(
            "Landlock (Linux 5.13, lsm=...,landlock at boot) adds a second wall on files behind \
             the run's root"
                .to_string(),
        );
    }
    Fact {
        topic: "landlock",
        value: match abi {
            a if a <= 0 => "none: files are confined by the run's root alone".to_string(),
            a if a < 4 => format!("ABI {a}: files, a second wall behind the run's root"),
            a if a < 6 => format!("ABI {a}: files and TCP, behind the run's namespaces"),
            a => format!(
                "ABI {a}: files, TCP, signals and abstract sockets, behind the run's namespaces"
            ),
        },
        bearing: if abi > 0 {
            Bearing::Good
        } else {
            Bearing::Less
        },
    }
}

fn cgroups(host: &Host) -> Vec<Fact> {
    let mut facts = Vec::new();
    match &host.cgroup_v1 {
        Some(groups) => facts.push(Fact {
            topic: "cgroup v1",
            value: format!(
                "{} mounted ({}){}",
                V1_CONTROLLERS.join(", "),
                groups[0].display(),
                if host.is_root() { "" } else { ": root's alone" }
            ),
            bearing: Bearing::Note,
        }),
        None => facts.push(Fact {
            topic: "cgroup v1",
            value: "not mounted (every current distribution mounts cgroup v2 alone)".to_string(),
            bearing: Bearing::Note,
        }),
    }
    match &host.cgroup_v2 {
        Some(v2) => {
            let offered =
                std::fs::read_to_string(v2.own.join("cgroup.controllers")).unwrap_or_default();
            let has = V2_CONTROLLERS
                .iter()
                .all(|c| offered.split_whitespace().any(|o| o == *c));
            let writable = writable(&v2.own);
            facts.push(Fact {
                topic: "cgroup v2",
                value: format!(
                    "mounted at {}; this process's group {} offers {}{}",
                    v2.mount.display(),
                    v2.own.display(),
                    if offered.trim().is_empty() {
                        "no controller".to_string()
                    } else {
                        offered.trim().to_string()
                    },
                    if writable {
                        ", and this user may write it"
                    } else {
                        ", and this user may not write it"
                    }
                ),
                bearing: if has && writable {
                    Bearing::Good
                } else {
                    Bearing::Note
                },
            });
        }
        None => facts.push(Fact {
            topic: "cgroup v2",
            value: "not mounted".to_string(),
            bearing: Bearing::Note,
        }),
    }
    facts
}

/// Whether this process may make groups in `dir` and move itself there.
fn writable(dir: &Path) -> bool {
    rustix::fs::access(dir, rustix::fs::Access::WRITE_OK).is_ok()
        && rustix::fs::access(dir.join("cgroup.procs"), rustix::fs::Access::WRITE_OK).is_ok()
}

fn keeper() -> Fact {
    match crate::keeper::beside_this_program() {
        Some(path) => Fact {
            topic: "keeper",
            value: format!("{} starts the runs", path.display()),
            bearing: Bearing::Good,
        },
        None => Fact {
            topic: "keeper",
            value: format!(
                "no {} beside this program: each run is a copy of this process",
                crate::keeper::KEEPER
            ),
            bearing: Bearing::Less,
        },
    }
}
