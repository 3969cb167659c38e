//! The sandbox of the programs audit runs for someone else (docs/security.md), attacked: each
//! attack is a small C submission (`tests/fixtures/attacks/`) that tries one thing and then
//! answers as the correct judge, so that an escape shows as an accepted run or a trace outside
//! it. Contests of them are audited as an organiser would audit them, inside a PID namespace of
//! the test's own (so that a `kill(-1)` that got through would hit nothing of the machine's),
//! and each must come out as a judge system's sandbox would have it: nothing happens outside
//! its run, its verdict is the expected one, the reports are whole. The same attacks run
//! `--unconfined` show the tests can fail: there they succeed.
//!
//! A file per concern: `classic.rs` (files, environment, network, processes, memory),
//! `accounting.rs` (CPU time in threads, a starved leader and children the kernel reaps; memory
//! no resident set shows), `apart.rs` (runs apart from one another and from referee: process
//! groups, limits on other processes, inherited descriptors, datagrams to a socket path,
//! nothing left when referee is killed), `seen.rs` (what a run sees of the machine: processes,
//! mounts, interfaces, the package's files to watch), `builds.rs` (what a build
//! may write, where the reports may go), `findings.rs` (findings real as printed: a program
//! the sandbox hides files from, several cases in one run, the reproducing command).
//!
//! `.ci/run` runs this module twice: as root (the programs then run as nobody, accounted by
//! control groups) and as an unprivileged user (`setpriv` to uid 65534, accounted from
//! `/proc`).

mod accounting;
mod apart;
mod builds;
mod classic;
mod findings;
mod seen;

use std::collections::BTreeMap;
use std::fs;
use std::net::TcpListener;
use std::os::unix::net::UnixDatagram;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crate::common::audit::Report;
use crate::common::command::repo;
use crate::common::package::{example, Package};
use crate::common::scratch::reachable;

/// A listener the test runs (a TCP port on 127.0.0.1, a datagram socket at a path) that counts
/// what reaches it, until dropped.
struct Listener {
    port: u16,
    socket: PathBuf,
    accepted: Arc<AtomicUsize>,
    datagrams: Arc<AtomicUsize>,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Listener {
    /// Listens on 127.0.0.1 and on a datagram socket at `socket`.
    fn start(socket: PathBuf) -> Listener {
        let tcp = TcpListener::bind("127.0.0.1:0").unwrap();
        tcp.set_nonblocking(true).unwrap();
        let port = tcp.local_addr().unwrap().port();
        let unix = UnixDatagram::bind(&socket).unwrap();
        unix.set_nonblocking(true).unwrap();
        {
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(&socket, fs::Permissions::from_mode(0o777)).unwrap();
        }
        let accepted = Arc::new(AtomicUsize::new(0));
        let datagrams = Arc::new(AtomicUsize::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let thread = {
            let (accepted, datagrams, stop) = (
                Arc::clone(&accepted),
                Arc::clone(&datagrams),
                Arc::clone(&stop),
            );
            std::thread::spawn(move || {
                let mut buf = [0u8; 256];
                while !stop.load(Ordering::SeqCst) {
                    let mut idle = true;
                    if tcp.accept().is_ok() {
                        accepted.fetch_add(1, Ordering::SeqCst);
                        idle = false;
                    }
                    if unix.recv(&mut buf).is_ok() {
                        datagrams.fetch_add(1, Ordering::SeqCst);
                        idle = false;
                    }
                    if idle {
                        std::thread::sleep(Duration::from_millis(10));
                    }
                }
            })
        };
        Listener {
            port,
            socket,
            accepted,
            datagrams,
            stop,
            thread: Some(thread),
        }
    }

    fn connections(&self) -> usize {
        self.accepted.load(Ordering::SeqCst)
    }

    fn datagrams(&self) -> usize {
        self.datagrams.load(Ordering::SeqCst)
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// What the attacks are told of the test: where to write, what to read, where to connect or
/// send, the mark of their processes.
struct Targets {
    /// A file the write attack creates, in a directory every user may write (so that only the
    /// sandbox stops it).
    written: PathBuf,
    /// A file of the test's the read attack reads (readable by every user).
    secret: PathBuf,
    /// The TCP listener's port.
    port: u16,
    /// The datagram socket's path, in the directory every user may write.
    socket: PathBuf,
    /// The argument of the attacks' `sleep`s.
    marker: String,
    /// A file only its owner may read, which the audit is started with open on descriptor 7.
    given: PathBuf,
    /// A file the audit is started with open for appending on descriptor 8.
    leak: PathBuf,
    /// The package's directory.
    package: PathBuf,
    /// The test's directory, which holds all of the above.
    dir: PathBuf,
}

/// The source of the submission `attack` (a file of `tests/fixtures/attacks/`): the targets as
/// macros, the correct judge of `examples/judges/pousse.c` with its `main` renamed `judge_main`,
/// then the attack.
fn submission(attack: &str, targets: &Targets) -> String {
    let judge = fs::read_to_string(repo().join("examples/judges/pousse.c")).unwrap();
    let attack = fs::read_to_string(repo().join("tests/fixtures/attacks").join(attack)).unwrap();
    format!(
        "#define _GNU_SOURCE\n#define TARGET \"{}\"\n#define SECRET \"{}\"\n#define PORT {}\n\
         #define SOCKET \"{}\"\n#define MARKER \"{}\"\n#define PACKAGE \"{}\"\n\
         #define TARGET_DIR \"{}\"\n\
         #define main judge_main\n{judge}\n#undef main\n{attack}",
        targets.written.display(),
        targets.secret.display(),
        targets.port,
        targets.socket.display(),
        targets.marker,
        targets.package.display(),
        targets.dir.display(),
    )
}

/// The largest of the example contest's test files the attack contests keep: the sandbox is
/// their subject, not the long games (which take most of a run's time on a slow machine, as a
/// kernel of the matrix under emulation is).
const LARGEST_DATA: u64 = 1024;

/// The example contest's package in `dir/pousse`, its test files of at most [`LARGEST_DATA`]
/// bytes, with `memory` MiB as its memory limit and `submissions` (`CLASS/FILE`, attack file; a
/// `.cpp`, `.py` or `.java` file as it is) as its only submissions.
fn package(dir: &Path, memory: u64, submissions: &[(&str, &str)], targets: &Targets) -> PathBuf {
    let yaml = fs::read_to_string(example().join("problem.yaml")).unwrap();
    let mut package = Package::at(dir.join("pousse"))
        .example_data(LARGEST_DATA)
        .problem_yaml(&format!("{yaml}limits:\n  memory: {memory}\n"));
    for (name, attack) in submissions {
        let source = if attack.ends_with(".c") {
            submission(attack, targets)
        } else {
            let dir = if attack.ends_with(".py") {
                repo().join("examples/judges")
            } else {
                repo().join("tests/fixtures/attacks")
            };
            fs::read_to_string(dir.join(attack)).unwrap()
        };
        package = package.submission(name, &source);
    }
    package.done()
}

/// `referee ARGS` inside a PID namespace of its own (and a mount namespace with its `/proc`),
/// with a secret of the auditor's in its environment and `given` open on descriptor 7, `leak`
/// open for appending on descriptor 8: `unshare`, with a user namespace too when not root. A
/// shell is the namespace's first process, and referee its child: the first process of a
/// namespace ignores `kill(-1)`, which must reach referee if the sandbox lets it.
fn in_own_pid_namespace(args: &[std::ffi::OsString], given: &Path, leak: &Path) -> Output {
    let mut command = Command::new("unshare");
    if !is_root() {
        command.args(["--user", "--map-current-user"]);
    }
    command
        .args([
            "--pid",
            "--fork",
            "--mount",
            "--mount-proc",
            "--kill-child",
            "--",
            "sh",
            "-c",
            "exec 7<\"$GIVEN\" 8>>\"$LEAK\"; \"$0\" \"$@\"; exit $?",
        ])
        .arg(crate::common::command::referee_path())
        .args(args)
        .current_dir(repo())
        .env("GIVEN", given)
        .env("LEAK", leak)
        .env("REFEREE_TEST_SECRET", "the auditor's token");
    command
        .output()
        .expect("unshare (util-linux) is needed to give the audit a PID namespace of its own")
}

fn is_root() -> bool {
    fs::read_to_string("/proc/self/status")
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix("Uid:"))
        .and_then(|ids| ids.split_whitespace().nth(1).map(|euid| euid == "0"))
        .unwrap_or(false)
}

/// `programs.csv` keyed by program.
fn programs(out: &Path) -> BTreeMap<String, BTreeMap<String, String>> {
    Report(out).programs()
}

/// The rows of a program's `findings.csv`.
fn findings(out: &Path, program: &str) -> Vec<BTreeMap<String, String>> {
    Report(out).findings(program)
}

/// `audit.json`, parsed.
fn audit_json(out: &Path) -> serde_json::Value {
    Report(out).json()
}

/// How `audit.json` says the programs ran (`confined`, `unconfined`).
fn confinement_of(out: &Path) -> String {
    audit_json(out)["report"]["confinement"]["mode"]
        .as_str()
        .unwrap()
        .to_string()
}

/// How `audit.json` says the runs were accounted (`cgroups`, `processes`).
fn accounting_of(out: &Path) -> String {
    audit_json(out)["report"]["confinement"]["accounting"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// Whether the kernel counts a confined audit's runs here (a control group), checked against
/// what the machine allows: `REFEREE_EXPECT_ACCOUNTING` when set (the kernel matrix of
/// `.ci/run` says what each guest gives), else a control group as root and none as a normal
/// user (this machine: cgroup v1 is root's).
fn kernel_counts(out: &Path) -> bool {
    let accounting = accounting_of(out);
    match std::env::var("REFEREE_EXPECT_ACCOUNTING") {
        Ok(expected) => assert_eq!(accounting, expected, "the accounting of {}", out.display()),
        Err(_) if is_root() => assert!(accounting.starts_with("cgroup-"), "{accounting}"),
        Err(_) => assert_eq!(accounting, "processes"),
    }
    accounting != "processes"
}

/// Prepares the targets in `dir`, the listener's socket among them.
fn targets(dir: &Path, marker: &str) -> (Targets, Listener) {
    use std::os::unix::fs::PermissionsExt;
    let open = dir.join("open");
    fs::create_dir(&open).unwrap();
    fs::set_permissions(&open, fs::Permissions::from_mode(0o777)).unwrap();
    let secret = dir.join("secret.txt");
    fs::write(&secret, "the test's secret\n").unwrap();
    fs::set_permissions(&secret, fs::Permissions::from_mode(0o644)).unwrap();
    let given = dir.join("given.txt");
    fs::write(&given, "the auditor's own file\n").unwrap();
    fs::set_permissions(&given, fs::Permissions::from_mode(0o600)).unwrap();
    let leak = dir.join("leak.txt");
    fs::write(&leak, "").unwrap();
    let listener = Listener::start(open.join("socket"));
    let targets = Targets {
        written: open.join("written-by-a-submission"),
        secret,
        port: listener.port,
        socket: listener.socket.clone(),
        marker: marker.to_string(),
        given,
        leak,
        package: dir.join("pousse"),
        dir: dir.to_path_buf(),
    };
    (targets, listener)
}

/// A contest of attack submissions audited by the tests: its scratch directory, the listener
/// and targets its attacks are told of, its package and its report directory.
struct Contest {
    /// Kept until the test ends (the directory goes with it).
    _dir: tempfile::TempDir,
    listener: Listener,
    targets: Targets,
    package: PathBuf,
    out: PathBuf,
}

impl Contest {
    /// The example contest's data with `submissions` (`CLASS/FILE`, attack file), `memory` MiB
    /// its memory limit; `marker` marks the attacks' processes.
    fn new(marker: &str, memory: u64, submissions: &[(&str, &str)]) -> Contest {
        let dir = reachable();
        let (targets, listener) = targets(dir.path(), marker);
        let package = package(dir.path(), memory, submissions, &targets);
        let out = dir.path().join("out");
        Contest {
            _dir: dir,
            listener,
            targets,
            package,
            out,
        }
    }

    /// `referee audit pousse --package PACKAGE --out OUT EXTRA...` in a PID namespace of its
    /// own.
    fn audit(&self, extra: &[&str]) -> Output {
        in_own_pid_namespace(&self.args(extra), &self.targets.given, &self.targets.leak)
    }

    /// [`Contest::audit`] as a child of the test, in its PID namespace: what outlives the
    /// audit is seen then (a PID namespace of the test's own would end it with the audit).
    fn audit_here(&self, extra: &[&str]) -> Output {
        Command::new("sh")
            .args([
                "-c",
                "exec 7<\"$GIVEN\" 8>>\"$LEAK\"; \"$0\" \"$@\"; exit $?",
            ])
            .arg(crate::common::command::referee_path())
            .args(self.args(extra))
            .current_dir(repo())
            .env("GIVEN", &self.targets.given)
            .env("LEAK", &self.targets.leak)
            .output()
            .unwrap()
    }

    /// The audit's arguments: `audit pousse --package PACKAGE --out OUT EXTRA...`.
    fn args(&self, extra: &[&str]) -> Vec<std::ffi::OsString> {
        crate::common::audit::audit("pousse")
            .package(&self.package)
            .out(&self.out)
            // The limits' repeated runs are tests/limits.rs' subject: each attack runs the data
            // once, as a judge system runs it.
            .args(["--repeat", "0"])
            .args(extra)
            .into_args()
    }

    /// What happened outside the runs, in words: nothing when empty.
    fn traces(&self) -> Vec<String> {
        let mut traces = Vec::new();
        if self.targets.written.exists() {
            traces.push("a submission wrote outside its run".to_string());
        }
        if self.listener.connections() > 0 {
            traces.push("a submission reached the network".to_string());
        }
        if self.listener.datagrams() > 0 {
            traces.push(format!(
                "{} datagrams reached the test's socket",
                self.listener.datagrams()
            ));
        }
        let leaked = fs::read_to_string(&self.targets.leak).unwrap_or_default();
        if !leaked.is_empty() {
            traces.push(format!("the auditor's descriptors leaked: {leaked:?}"));
        }
        let alive = crate::common::programs::alive_with(&format!("sleep {}", self.targets.marker));
        if !alive.is_empty() {
            traces.push(format!("processes outlived the audit: {alive:?}"));
        }
        if Path::new("/tmp").join(&self.targets.marker).exists() {
            traces.push("a run wrote in the machine's /tmp".to_string());
        }
        traces
    }
}

impl Drop for Contest {
    /// Ends what an attack left running, should one have escaped.
    fn drop(&mut self) {
        let _ = Command::new("pkill")
            .args(["-KILL", "-f", &format!("sleep {}", self.targets.marker)])
            .status();
    }
}
