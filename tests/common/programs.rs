//! Helpers for the tests that run programs: scripts written on the fly, and the processes
//! still alive.

use referee::game::Forms;
use std::fs;
use std::path::Path;

/// `examples/judges/SOURCE` compiled by `cc -O2` with `defines` into `dir/NAME`: its path.
pub fn build(dir: &Path, source: &str, defines: &[&str], name: &str) -> String {
    let out = dir.join(name);
    let status = std::process::Command::new("cc")
        .arg("-O2")
        .args(defines)
        .arg("-o")
        .arg(&out)
        .arg(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("examples/judges")
                .join(source),
        )
        .status()
        .expect("a C compiler (cc) is needed to build the judges of examples/judges");
    assert!(status.success(), "cc {source} failed");
    out.display().to_string()
}

/// A copy of file `source` (of the repository, or referee's binary) in `dir`, with its mode: a
/// program an audit runs confined must be readable by the user it runs as (nobody, when the
/// tests run as root), wherever the checkout lies. Its path.
pub fn copied(dir: &Path, source: &Path) -> String {
    let copy = dir.join(source.file_name().unwrap());
    if !copy.exists() {
        fs::copy(source, &copy).unwrap();
    }
    copy.display().to_string()
}

/// An executable shell script `name` in `dir/programs/`: a directory of its own (a script's
/// directory is its own files, which audit refuses when it holds the reports or the data).
pub fn script(dir: &Path, name: &str, body: &str) -> String {
    let programs = dir.join("programs");
    if !programs.is_dir() {
        fs::create_dir(&programs).unwrap();
        let mut perms = fs::metadata(&programs).unwrap().permissions();
        std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
        fs::set_permissions(&programs, perms).unwrap();
    }
    let path = programs.join(name);
    fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    let mut perms = fs::metadata(&path).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    fs::set_permissions(&path, perms).unwrap();
    path.display().to_string()
}

/// A command that runs the executable shell script `NAME.sh` in `dir`, which answers an
/// audit's probe of the input form (the statement's examples, both in the multi-case form or the
/// second alone in the single-case form) with `judge`, and runs `body` on any other input (its
/// standard input already read). It keeps no state between runs (a confined program cannot): it
/// tells the probe by its input, which it compares with `probe-multi.in` and
/// `probe-single.in` written beside it; the command names those files and the judge, so a
/// confined run may read them.
pub fn after_the_probe(dir: &Path, name: &str, judge: &str, body: &str) -> String {
    use referee::game::{in_form, Form};
    use referee::pousse::Pousse;
    let probes: Vec<Vec<u8>> = Pousse::PROBES
        .iter()
        .map(|p| p.as_bytes().to_vec())
        .collect();
    let multi = dir.join("probe-multi.in");
    let single = dir.join("probe-single.in");
    fs::write(&multi, in_form::<Pousse>(Form::Multi, &probes)).unwrap();
    fs::write(&single, in_form::<Pousse>(Form::Single, &probes[1..])).unwrap();
    let script = script(
        dir,
        &format!("{name}.sh"),
        &format!(
            "input=$(mktemp)\ncat > \"$input\"\n\
             if cmp -s \"$input\" \"$2\" || cmp -s \"$input\" \"$3\"; then \
             exec \"$1\" < \"$input\"; fi\nrm -f \"$input\"\n{body}"
        ),
    );
    format!("{script} {judge} {} {}", multi.display(), single.display())
}

/// The processes whose command line holds `marker` (referee's own excluded), with their
/// process ids.
pub fn alive_with(marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in fs::read_dir("/proc").unwrap().flatten() {
        if let Ok(cmdline) = fs::read(entry.path().join("cmdline")) {
            let text = String::from_utf8_lossy(&cmdline).replace('\0', " ");
            if text.contains(marker) && !text.contains("referee") {
                found.push(format!("{}: {text}", entry.file_name().to_string_lossy()));
            }
        }
    }
    found
}

/// Held by each test that loads the machine itself ([`BusyMachine`]), whose outcome hangs on
/// how a wall-clock budget (`audit --time`) is shared, or that audits a whole contest: such
/// tests run one at a time, so one's busy loops or contest neither eat another's budget nor
/// stack on another's (with a `yes` per core beside the suite, two contests at once left a
/// `--time` audit a third of its cases).
pub fn budget_test() -> std::sync::MutexGuard<'static, ()> {
    static BUDGET: std::sync::Mutex<()> = std::sync::Mutex::new(());
    BUDGET.lock().unwrap_or_else(|e| e.into_inner())
}

/// Sends SIGINT to `child`, as a user's Ctrl-C would.
pub fn interrupt(child: &std::process::Child) {
    rustix::process::kill_process(
        rustix::process::Pid::from_child(child),
        rustix::process::Signal::INT,
    )
    .unwrap();
}

/// One busy loop per core while it lives: the machine as busy as it gets.
pub struct BusyMachine(Vec<std::process::Child>);

impl BusyMachine {
    pub fn start() -> BusyMachine {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        BusyMachine(
            (0..cores)
                .map(|_| {
                    std::process::Command::new("sh")
                        .args(["-c", "while :; do :; done"])
                        .spawn()
                        .unwrap()
                })
                .collect(),
        )
    }
}

impl Drop for BusyMachine {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}
