//! The sandbox of the programs audit runs for someone else (docs/security.md), attacked: each
//! attack is a small C submission (`tests/fixtures/attacks/`) that tries one thing and then
//! answers as the correct judge. A contest of them is audited as an organiser would audit it,
//! inside a PID namespace of the test's own (so that a `kill(-1)` that got through would hit
//! nothing of the machine's), and each must come out as a judge system's sandbox would have it:
//! nothing happens outside its run, its verdict is the expected one, the reports are whole. The
//! same attacks run `--unconfined` show each test can fail: there they succeed.
//!
//! `.ci/run` runs this module twice: as root (the programs then run as nobody) and as an
//! unprivileged user (`setpriv` to uid 65534).

use std::collections::BTreeMap;
use std::fs;
use std::io::Read;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::common::command::{copy_tree, csv_rows, repo, stderr};
use crate::common::programs::alive_with;
use crate::common::scratch::reachable;

/// A TCP listener on 127.0.0.1 that counts the connections it accepts, until dropped.
struct Listener {
    port: u16,
    accepted: Arc<AtomicUsize>,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Listener {
    fn start() -> Listener {
        let socket = TcpListener::bind("127.0.0.1:0").unwrap();
        socket.set_nonblocking(true).unwrap();
        let port = socket.local_addr().unwrap().port();
        let accepted = Arc::new(AtomicUsize::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let thread = {
            let (accepted, stop) = (Arc::clone(&accepted), Arc::clone(&stop));
            std::thread::spawn(move || {
                while !stop.load(Ordering::SeqCst) {
                    match socket.accept() {
                        Ok(_) => {
                            accepted.fetch_add(1, Ordering::SeqCst);
                        }
                        Err(_) => std::thread::sleep(Duration::from_millis(10)),
                    }
                }
            })
        };
        Listener {
            port,
            accepted,
            stop,
            thread: Some(thread),
        }
    }

    fn connections(&self) -> usize {
        self.accepted.load(Ordering::SeqCst)
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

/// What the attacks are told of the test: where to write, what to read, where to connect, the
/// mark of their processes.
struct Targets {
    /// A file the write attack creates, in a directory every user may write (so that only the
    /// sandbox stops it).
    written: PathBuf,
    /// A file of the test's the read attack reads (readable by every user).
    secret: PathBuf,
    /// The listener.
    port: u16,
    /// The argument of the fork bomb's `sleep`s.
    marker: String,
}

/// The source of the submission `attack` (a file of `tests/fixtures/attacks/`): the targets as
/// macros, the correct judge of `examples/judges/pousse.c` with its `main` renamed `judge_main`,
/// then the attack.
fn submission(attack: &str, targets: &Targets) -> String {
    let judge = fs::read_to_string(repo().join("examples/judges/pousse.c")).unwrap();
    let attack = fs::read_to_string(repo().join("tests/fixtures/attacks").join(attack)).unwrap();
    format!(
        "#define TARGET \"{}\"\n#define SECRET \"{}\"\n#define PORT {}\n#define MARKER \"{}\"\n\
         #define main judge_main\n{judge}\n#undef main\n{attack}",
        targets.written.display(),
        targets.secret.display(),
        targets.port,
        targets.marker
    )
}

/// The example contest's package in `dir/pousse`, with `memory` MiB as its memory limit and
/// `submissions` (`CLASS/FILE`, attack file) as its only submissions.
fn package(dir: &Path, memory: u64, submissions: &[(&str, &str)], targets: &Targets) -> PathBuf {
    let package = dir.join("pousse");
    let example = repo().join("examples/contest/pousse");
    copy_tree(&example.join("data"), &package.join("data"));
    let yaml = fs::read_to_string(example.join("problem.yaml")).unwrap();
    fs::write(
        package.join("problem.yaml"),
        format!("{yaml}limits:\n  memory: {memory}\n"),
    )
    .unwrap();
    for (name, attack) in submissions {
        let path = package.join("submissions").join(name);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        let source = if attack.ends_with(".cpp") {
            fs::read_to_string(repo().join("tests/fixtures/attacks").join(attack)).unwrap()
        } else {
            submission(attack, targets)
        };
        fs::write(&path, source).unwrap();
    }
    package
}

/// `referee ARGS` inside a PID namespace of its own (and a mount namespace with its `/proc`),
/// with a secret of the auditor's in its environment: `unshare`, with a user namespace too
/// when not root. A shell is the namespace's first process, and referee its child: the first
/// process of a namespace ignores `kill(-1)`, which must reach referee if the sandbox lets it.
fn in_own_pid_namespace(args: &[&str]) -> Output {
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
            "\"$0\" \"$@\"; exit $?",
        ])
        .arg(crate::common::command::referee_path())
        .args(args)
        .current_dir(repo())
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
    csv_rows(&out.join("programs.csv"))
        .into_iter()
        .map(|row| (row["program"].clone(), row))
        .collect()
}

/// The rows of a program's `findings.csv`.
fn findings(out: &Path, program: &str) -> Vec<BTreeMap<String, String>> {
    let dir = program.replace('/', "-");
    csv_rows(&out.join("programs").join(dir).join("findings.csv"))
}

/// Whether `audit.json` parses and says how the programs ran.
fn confinement_of(out: &Path) -> String {
    let mut text = String::new();
    fs::File::open(out.join("audit.json"))
        .unwrap()
        .read_to_string(&mut text)
        .unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    json["report"]["confinement"]["mode"]
        .as_str()
        .unwrap()
        .to_string()
}

/// Prepares the targets in `dir`.
fn targets(dir: &Path, listener: &Listener, marker: &str) -> Targets {
    use std::os::unix::fs::PermissionsExt;
    let open = dir.join("open");
    fs::create_dir(&open).unwrap();
    fs::set_permissions(&open, fs::Permissions::from_mode(0o777)).unwrap();
    let secret = dir.join("secret.txt");
    fs::write(&secret, "the test's secret\n").unwrap();
    fs::set_permissions(&secret, fs::Permissions::from_mode(0o644)).unwrap();
    Targets {
        written: open.join("written-by-a-submission"),
        secret,
        port: listener.port,
        marker: marker.to_string(),
    }
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
    /// its memory limit; `marker` marks the fork bomb's processes.
    fn new(marker: &str, memory: u64, submissions: &[(&str, &str)]) -> Contest {
        let dir = reachable();
        let listener = Listener::start();
        let targets = targets(dir.path(), &listener, marker);
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
        let mut args = vec![
            "audit",
            "pousse",
            "--package",
            self.package.to_str().unwrap(),
            "--out",
            self.out.to_str().unwrap(),
            // The limits' repeated runs are tests/limits.rs' subject: each attack runs the data
            // once, as a judge system runs it.
            "--repeat",
            "0",
        ];
        args.extend_from_slice(extra);
        in_own_pid_namespace(&args)
    }
}

/// Every attack but memory's, its folder and the class a judge system's sandbox gives it.
const CONTEST: [(&str, &str, &str); 10] = [
    ("accepted/judge.c", "answers.c", "accepted"),
    ("accepted/write_outside.c", "write_outside.c", "accepted"),
    ("accepted/read_outside.c", "read_outside.c", "accepted"),
    ("accepted/find_answers.c", "find_answers.c", "accepted"),
    ("accepted/environment.c", "environment.c", "accepted"),
    ("accepted/fork_bomb.c", "fork_bomb.c", "accepted"),
    ("accepted/deep_recursion.c", "deep_recursion.c", "accepted"),
    ("accepted/kill_all.c", "kill_all.c", "accepted"),
    ("run_time_error/connect.c", "connect.c", "run_time_error"),
    ("rejected/slow_build.cpp", "slow_build.cpp", ""),
];

#[test]
fn a_contest_of_attacks_is_contained_and_judged_as_a_judge_systems_sandbox_would() {
    let _alone = crate::common::programs::budget_test();
    let marker = format!("31{}", std::process::id() % 10_000 + 10_000);
    let submissions: Vec<(&str, &str)> = CONTEST.iter().map(|(n, a, _)| (*n, *a)).collect();
    // The memory limit is 1 GiB: the recursion 500 MB deep passes.
    let contest = Contest::new(&marker, 1024, &submissions);
    let (out, targets) = (&contest.out, &contest.targets);
    let started = Instant::now();
    let run = contest.audit(&[
        "--cases",
        "20",
        "--batch",
        "10",
        "--shrink-time",
        "5",
        "--compile-time",
        "5",
        // The time limit is five times the slowest accepted run on the data (the recursion's,
        // about a second of CPU time here), not capped below that.
        "--timeout",
        "60",
    ]);
    let err = stderr(&run);
    // Hang guard: ten times what it takes on a busy machine.
    assert!(started.elapsed() < Duration::from_secs(600), "{err}");
    // The build that never ends is the one thing the package's verdict says.
    assert_eq!(run.status.code(), Some(1), "{err}");
    assert!(err.contains("programs run confined as"), "{err}");
    assert_eq!(confinement_of(out), "confined");
    let programs = programs(out);
    for (name, _, class) in CONTEST.iter().filter(|c| !c.2.is_empty()) {
        let p = &programs[*name];
        assert_eq!(p["does"], *class, "{name}: {p:?}\n{err}");
        assert_eq!(p["verdict"], "as expected", "{name}: {p:?}\n{err}");
    }
    // The forbidden call is named.
    let connect = findings(out, "run_time_error/connect.c");
    assert_eq!(connect[0]["kind"], "crash", "{connect:?}");
    assert_eq!(connect[0]["exit"], "forbidden: connect", "{connect:?}");
    assert!(
        connect[0]["detail"].contains("forbidden: connect"),
        "{connect:?}"
    );
    // The build past its limit.
    let slow = &programs["rejected/slow_build.cpp"];
    assert!(
        slow["referee-cases"].starts_with("not run: compile-error: C++")
            && slow["referee-cases"].contains("past the compile limit of 5 s"),
        "{slow:?}"
    );
    // Nothing happened outside the runs.
    assert!(
        !targets.written.exists(),
        "a submission wrote outside its run"
    );
    assert_eq!(
        contest.listener.connections(),
        0,
        "a submission reached the network"
    );
    let marker = format!("sleep {marker}");
    assert!(alive_with(&marker).is_empty(), "{:?}", alive_with(&marker));
    assert!(
        !Path::new("/tmp").join(&targets.marker).exists(),
        "a run's /tmp is its own"
    );
}

#[test]
fn unconfined_the_same_attacks_succeed() {
    let marker = format!("32{}", std::process::id() % 10_000 + 10_000);
    let contest = Contest::new(
        &marker,
        1024,
        &[
            ("accepted/judge.c", "answers.c"),
            ("accepted/write_outside.c", "write_outside.c"),
            ("accepted/read_outside.c", "read_outside.c"),
            ("accepted/find_answers.c", "find_answers.c"),
            ("accepted/environment.c", "environment.c"),
            ("accepted/connect.c", "connect.c"),
        ],
    );
    let run = contest.audit(&["--cases", "10", "--shrink-time", "2", "--unconfined"]);
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(1), "{err}");
    assert_eq!(confinement_of(&contest.out), "unconfined");
    let programs = programs(&contest.out);
    for name in [
        "accepted/read_outside.c",
        "accepted/find_answers.c",
        "accepted/environment.c",
    ] {
        assert_eq!(programs[name]["does"], "wrong_answer", "{name}\n{err}");
    }
    assert_eq!(programs["accepted/judge.c"]["does"], "accepted", "{err}");
    assert!(contest.targets.written.exists(), "{err}");
    assert!(contest.listener.connections() > 0, "{err}");
    let _ = fs::remove_file(Path::new("/tmp").join(&contest.targets.marker));
}

#[test]
fn unconfined_kill_minus_one_ends_the_audit_itself() {
    // In the test's own PID namespace, where it hits nothing but the audit: the attack the
    // sandbox stops above, shown to work without it.
    let contest = Contest::new("3300", 1024, &[("accepted/kill_all.c", "kill_all.c")]);
    let run = contest.audit(&["--cases", "10", "--unconfined"]);
    assert_ne!(run.status.code(), Some(0), "{}", stderr(&run));
    assert!(!contest.out.join("audit.json").exists(), "{}", stderr(&run));
}

#[test]
fn three_gibibytes_under_a_two_gibibyte_limit_is_memory_limit() {
    // A package whose only submission is expected over its memory: no program expected
    // accepted sets a time limit from the data, so the limit is --timeout's, ten times the
    // CPU time this machine's kernel takes to hand out 2 GiB.
    let contest = Contest::new(
        "3400",
        2048,
        &[("memory_limit_exceeded/touch_memory.c", "touch_memory.c")],
    );
    let run = contest.audit(&["--cases", "10", "--shrink-time", "5", "--timeout", "60"]);
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(0), "{err}");
    let program = &programs(&contest.out)["memory_limit_exceeded/touch_memory.c"];
    assert_eq!(
        program["does"], "memory_limit_exceeded",
        "{program:?}\n{err}"
    );
    assert_eq!(program["verdict"], "as expected", "{program:?}");
    let rows = findings(&contest.out, "memory_limit_exceeded/touch_memory.c");
    assert_eq!(rows[0]["kind"], "memory-limit", "{rows:?}\n{err}");
    let held: u64 = rows[0]["memory-kib"].parse().unwrap();
    assert!(held > 2 << 20 && held < 3 << 20, "{rows:?}");
    assert!(rows[0]["detail"].contains("over the limit"), "{rows:?}");
}
