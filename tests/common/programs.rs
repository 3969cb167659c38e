//! Helpers for the tests that run programs: scripts written on the fly, and the processes
//! still alive.

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

/// An executable shell script `name` in `dir`.
pub fn script(dir: &Path, name: &str, body: &str) -> String {
    let path = dir.join(name);
    fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    let mut perms = fs::metadata(&path).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    fs::set_permissions(&path, perms).unwrap();
    path.display().to_string()
}

/// An executable shell script `NAME.sh` in `dir` that answers its first `probes` runs (an
/// audit's probe of the input form: two runs for one program, whose form is found by trying
/// both; one in a contest, whose form is known) with `judge`, then runs `body`; it counts its
/// runs in `NAME.count`.
pub fn after_the_probe(dir: &Path, name: &str, probes: usize, judge: &str, body: &str) -> String {
    let count = dir.join(format!("{name}.count")).display().to_string();
    script(
        dir,
        &format!("{name}.sh"),
        &format!(
            "echo x >> {count}; if [ \"$(wc -l < {count})\" -le {probes} ]; then exec {judge}; \
             fi\n{body}"
        ),
    )
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
