//! The attack programs of the workspace (`tests/fixtures/attacks/`, each trying one thing and
//! then answering), run through the sandbox's public face alone: each compiled with `cc`
//! around a stand-in answer (`answered`), run confined, and checked for its trace outside the
//! run (a file written, a connection or datagram received, a process left behind) and for its
//! answer (an attack that saw what it sought says `X WINS` instead). As root the programs run
//! as nobody; as a normal user, as that user: `.ci/run` runs both, here and on Debian's
//! kernels. Without `cc` the test says so and passes, unless `REFEREE_REQUIRE_TOOLS` is set.

use std::fs;
use std::net::TcpListener;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::UnixDatagram;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

use referee_sandbox::{Ending, Limits, Program, Refusal, Sandbox};

/// The stand-in for a correct judge: what every attack answers once it has tried its thing.
const ANSWER: &str = "answered\n";

/// Where an attack is told to reach, all in one directory every user may write (so that only
/// the sandbox stops it).
struct Targets {
    dir: tempfile::TempDir,
    port: u16,
    marker: String,
}

impl Targets {
    fn written(&self) -> PathBuf {
        self.dir.path().join("written")
    }
    fn secret(&self) -> PathBuf {
        self.dir.path().join("secret")
    }
    fn socket(&self) -> PathBuf {
        self.dir.path().join("socket")
    }
}

fn attack_source(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/attacks")
        .join(name);
    fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `name` compiled around the stand-in answer with the targets as macros, in a directory of
/// its own beside them.
fn build(name: &str, targets: &Targets) -> PathBuf {
    let dir = targets.dir.path();
    let programs = dir.join("programs");
    fs::create_dir_all(&programs).unwrap();
    fs::set_permissions(&programs, fs::Permissions::from_mode(0o755)).unwrap();
    let source = format!(
        "#define _GNU_SOURCE\n#define TARGET \"{}\"\n#define SECRET \"{}\"\n#define PORT {}\n\
         #define SOCKET \"{}\"\n#define MARKER \"{}\"\n#define PACKAGE \"{}\"\n\
         #define TARGET_DIR \"{}\"\n#include <stdio.h>\n\
         static int judge_main(void) {{ fputs({ANSWER:?}, stdout); return 0; }}\n{}",
        targets.written().display(),
        targets.secret().display(),
        targets.port,
        targets.socket().display(),
        targets.marker,
        dir.display(),
        dir.display(),
        attack_source(name),
    );
    let c = programs.join(name);
    fs::write(&c, source).unwrap();
    let exe = programs.join(name.trim_end_matches(".c"));
    let out = Command::new("cc")
        .arg("-O1")
        .arg("-o")
        .arg(&exe)
        .arg(&c)
        .output()
        .expect("cc runs");
    assert!(
        out.status.success(),
        "{name}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    exe
}

fn have_cc() -> bool {
    let found = Command::new("cc")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        assert!(
            std::env::var_os("REFEREE_REQUIRE_TOOLS").is_none(),
            "cc is required (REFEREE_REQUIRE_TOOLS)"
        );
        eprintln!("no cc: the attacks are not compiled, nor run");
    }
    found
}

/// The processes whose command line is `sleep MARKER`, as `pgrep -f` finds them.
fn sleeping(marker: &str) -> usize {
    let out = Command::new("pgrep")
        .args(["-f", &format!("^sleep {marker}$")])
        .output()
        .expect("pgrep runs");
    String::from_utf8_lossy(&out.stdout).lines().count()
}

/// The attacks, and what they leave, against one target directory, a listener and a socket.
struct Range {
    targets: Targets,
    listener: TcpListener,
    datagrams: UnixDatagram,
}

/// Ranges made so far in this process.
static RANGES: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);

impl Range {
    fn new() -> Range {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let targets = Targets {
            dir: tempfile::tempdir().unwrap(),
            port: listener.local_addr().unwrap().port(),
            // Its own per range: the tests run at once.
            marker: format!(
                "{}{}",
                40_000 + std::process::id() % 10_000,
                RANGES.fetch_add(1, std::sync::atomic::Ordering::SeqCst)
            ),
        };
        fs::set_permissions(targets.dir.path(), fs::Permissions::from_mode(0o1777)).unwrap();
        fs::write(targets.secret(), "the test's secret\n").unwrap();
        fs::set_permissions(targets.secret(), fs::Permissions::from_mode(0o644)).unwrap();
        let datagrams = UnixDatagram::bind(targets.socket()).unwrap();
        datagrams.set_nonblocking(true).unwrap();
        fs::set_permissions(targets.socket(), fs::Permissions::from_mode(0o777)).unwrap();
        Range {
            targets,
            listener,
            datagrams,
        }
    }

    /// Attack `name` run as `confine` makes it: what got out (nothing when contained), an
    /// answer other than the stand-in's first, unless `refused` allows that ending.
    fn run(
        &self,
        name: &str,
        confine: impl Fn(Program) -> Program,
        refused: impl Fn(Ending) -> bool,
    ) -> Vec<String> {
        let exe = build(name, &self.targets);
        let program = confine(Program::from_argv(vec![exe.display().to_string()]));
        let limits = Limits {
            cpu: Duration::from_secs(10),
            memory: 512 << 20,
            ..Limits::default()
        };
        let run = program.run(b"", &limits, None).unwrap();
        let mut got_out = Vec::new();
        let answered =
            (run.ending, run.stdout.as_slice()) == (Ending::Exited(0), ANSWER.as_bytes());
        if !answered && !refused(run.ending) {
            got_out.push(format!(
                "{:?}, {:?}",
                run.ending,
                String::from_utf8_lossy(&run.stdout)
            ));
        }
        let targets = &self.targets;
        if fs::remove_file(targets.written()).is_ok() {
            got_out.push(format!("wrote {}", targets.written().display()));
        }
        if fs::remove_file(Path::new("/tmp").join(&targets.marker)).is_ok() {
            got_out.push("wrote in the machine's /tmp".to_string());
        }
        // A process left behind is `exec`ing `sleep` still, or asleep.
        std::thread::sleep(Duration::from_millis(100));
        if sleeping(&targets.marker) > 0 {
            got_out.push("a process outlived its run".to_string());
            let _ = Command::new("pkill")
                .args(["-KILL", "-f", &format!("^sleep {}$", targets.marker)])
                .status();
        }
        if self.listener.accept().is_ok() {
            got_out.push("connected to the test's listener".to_string());
        }
        let mut buf = [0u8; 64];
        if self.datagrams.recv(&mut buf).is_ok() {
            got_out.push("sent a datagram to the test's socket".to_string());
        }
        got_out
    }
}

/// The attacks both tests run, each with its one trace outside the run.
const ATTACKS: [&str; 7] = [
    "write_outside.c",
    "read_outside.c",
    "host_proc.c",
    "fork_bomb.c",
    "join_group.c",
    "connect.c",
    "unix_datagram.c",
];

#[test]
fn every_attack_is_contained_and_answers() {
    if !have_cc() {
        return;
    }
    let sandbox: Arc<Sandbox> = Sandbox::probe(&[]).expect("the sandbox works here");
    let range = Range::new();
    let many = sandbox.accounting().by_kernel();
    let mut escapes = Vec::new();
    // kill(-1) too: confined, it reaches nothing but the run's own processes.
    for name in ATTACKS.iter().chain(&["kill_all.c"]) {
        let got_out = range.run(
            name,
            |p| p.confined(&sandbox).unwrap(),
            |ending| match ending {
                // Where a run is one process, an attack that forks is ended on its first fork.
                Ending::Forbidden(Refusal { call: "fork" }) => {
                    !many && matches!(*name, "fork_bomb.c" | "join_group.c")
                }
                Ending::Forbidden(Refusal { call: "connect" }) => *name == "connect.c",
                _ => false,
            },
        );
        escapes.extend(got_out.into_iter().map(|e| format!("{name}: {e}")));
    }
    assert_eq!(escapes, Vec::<String>::new());
}

#[test]
fn unconfined_the_same_attacks_get_out() {
    // The checks above, shown to see each attack where nothing stops it (kill(-1) aside).
    if !have_cc() {
        return;
    }
    let range = Range::new();
    let contained: Vec<&str> = ATTACKS
        .into_iter()
        .filter(|name| range.run(name, |p| p, |_| false).is_empty())
        .collect();
    assert_eq!(contained, Vec::<&str>::new());
}
