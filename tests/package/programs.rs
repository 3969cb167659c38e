//! The programs of a package (its generator, validators and checker): each finds referee or
//! says how to install it, never hangs on a referee that does not answer, and the package
//! refuses what they could not use.

use super::*;
#[test]
fn programs_find_referee_or_say_how_to_install_it() {
    let (_scratch, dir) = scratch::scratch("build");
    let out = dir.join("somegame");
    referee_package("somegame", None, &out);
    let binary = crate::common::command::referee_path().to_str().unwrap();
    let program = out.join("output_validator");
    let text = |o: &std::process::Output| String::from_utf8_lossy(&o.stderr).to_string();
    // Nowhere: a clear error.
    let none = build(&program, &[("PATH", "/usr/bin:/bin")]);
    assert_eq!(none.status.code(), Some(1));
    let said = text(&none);
    assert!(
        said.contains("referee 0.1.0") && said.contains("REFEREE_SOURCE"),
        "{said}"
    );
    assert!(!program.join("run").exists());
    // Another version: refused, named.
    let fake = dir.join("fake-referee");
    script(&fake, "#!/bin/sh\necho referee 9.9.9\n");
    let other = build(
        &program,
        &[
            ("PATH", "/usr/bin:/bin"),
            ("REFEREE", fake.to_str().unwrap()),
        ],
    );
    assert_eq!(other.status.code(), Some(1));
    assert!(text(&other).contains("referee 9.9.9"), "{}", text(&other));
    // $REFEREE: the run script calls it by its absolute path.
    let given = build(&program, &[("PATH", "/usr/bin:/bin"), ("REFEREE", binary)]);
    assert!(given.status.success(), "{}", text(&given));
    let run = std::fs::read_to_string(program.join("run")).unwrap();
    assert_eq!(
        run,
        format!("#!/bin/sh\nexec '{binary}' check somegame \"$@\"\n")
    );
    std::fs::remove_file(program.join("run")).unwrap();
    // From a source, with cargo: built once into the cache, then found there. (A stand-in
    // cargo records its calls and installs this binary.)
    let tools = dir.join("tools");
    std::fs::create_dir_all(&tools).unwrap();
    let calls = dir.join("cargo-calls");
    script(
        &tools.join("cargo"),
        &format!(
            "#!/bin/sh\necho \"$@\" >> '{}'\nwhile [ \"$1\" != --root ]; do shift; done\n\
             mkdir -p \"$2/bin\" && cp '{binary}' \"$2/bin/referee\"\n",
            calls.display()
        ),
    );
    let path = format!("{}:/usr/bin:/bin", tools.display());
    let cache = dir.join("cache");
    let env = [
        ("PATH", path.as_str()),
        ("REFEREE_SOURCE", "/src/referee"),
        ("REFEREE_CACHE", cache.to_str().unwrap()),
    ];
    for _ in 0..2 {
        let built = build(&program, &env);
        assert!(built.status.success(), "{}", text(&built));
    }
    let recorded = std::fs::read_to_string(&calls).unwrap();
    assert_eq!(
        recorded,
        format!(
            "install --quiet --locked --root {c}/0.1.0 --target-dir {c}/0.1.0/target --path \
             /src/referee\n",
            c = cache.display()
        )
    );
    let run = std::fs::read_to_string(program.join("run")).unwrap();
    assert!(
        run.contains(&format!("'{}/0.1.0/bin/referee'", cache.display())),
        "{run}"
    );
    // The source the package names: a git URL at a revision.
    let pinned = dir.join("pinned").join("somegame");
    referee()
        .args(["package", "somegame", "--cases", "2", "--out"])
        .arg(&pinned)
        .args(["--referee-source", "https://example.org/referee.git#abc123"])
        .assert()
        .success();
    std::fs::remove_file(&calls).unwrap();
    let cache = dir.join("cache-pinned");
    let built = build(
        &pinned.join("answer_validators/referee"),
        &[
            ("PATH", path.as_str()),
            ("REFEREE_CACHE", cache.to_str().unwrap()),
        ],
    );
    assert!(built.status.success(), "{}", text(&built));
    assert_eq!(
        std::fs::read_to_string(&calls).unwrap(),
        format!(
            "install --quiet --locked --root {c}/0.1.0 --target-dir {c}/0.1.0/target --git \
             https://example.org/referee.git --rev abc123 referee\n",
            c = cache.display()
        )
    );
    // The build's files went to the cache and were removed: nothing is left beside the binary.
    let left: Vec<_> = std::fs::read_dir(cache.join("0.1.0"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, ["bin"]);
    // Bundled with --referee: found first, beside the scripts.
    let bundled = dir.join("bundled").join("somegame");
    referee()
        .args([
            "package",
            "somegame",
            "--cases",
            "2",
            "--referee",
            binary,
            "--out",
        ])
        .arg(&bundled)
        .assert()
        .success();
    let program = bundled.join("input_validators/referee");
    let found = build(&program, &[("PATH", "/usr/bin:/bin")]);
    assert!(found.status.success(), "{}", text(&found));
    let run = std::fs::read_to_string(program.join("run")).unwrap();
    assert!(
        run.contains(&format!("'{}/referee'", program.display())),
        "{run}"
    );
}

/// A `referee` on PATH that never answers: `build` gives up on it within its limit, says so,
/// and writes no `run`.
#[cfg(unix)]
#[test]
#[ignore = "long tier: .ci/run runs it (cargo test -- --include-ignored)"]
fn a_referee_that_never_answers_does_not_hang_the_build() {
    let (_scratch, dir) = scratch::scratch("hanging");
    let out = dir.join("pousse");
    referee_package("pousse", None, &out);
    let tools = dir.join("tools");
    std::fs::create_dir_all(&tools).unwrap();
    script(&tools.join("referee"), "#!/bin/sh\nexec sleep 1000\n");
    let path = format!("{}:/usr/bin:/bin", tools.display());
    let program = out.join("output_validator");
    let started = std::time::Instant::now();
    let built = build(&program, &[("PATH", path.as_str())]);
    // A hang guard: each --version call is limited to 10 s.
    assert!(
        started.elapsed() < std::time::Duration::from_secs(300),
        "hang guard"
    );
    assert_eq!(built.status.code(), Some(1));
    let said = String::from_utf8_lossy(&built.stderr);
    assert!(said.contains("was not found"), "{said}");
    assert!(!program.join("run").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// What `--referee` and `--referee-source` name is checked before any work: a referee binary
/// of this version, a git URL or a directory of referee's source; `--cases` has a bound.
#[test]
fn a_package_refuses_what_its_programs_could_not_use() {
    let (_scratch, dir) = scratch::scratch("refused");
    let out = dir.join("pousse");
    let refused = |args: &[&str], says: &str| {
        let run = referee()
            .args(["package", "pousse", "--out"])
            .arg(&out)
            .args(args)
            .timeout(std::time::Duration::from_secs(120))
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{args:?}: {said}");
        assert!(said.contains(says), "{args:?}: {said}");
        assert!(!out.exists(), "{args:?}");
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert!(left.is_empty(), "{args:?}: {left:?}");
    };
    refused(
        &["--referee", "/bin/true"],
        "to --version, not 'referee 0.1.0'",
    );
    refused(&["--referee", "/tmp"], "--referee /tmp: not a file");
    refused(&["--referee", "/no/such/file"], "--referee /no/such/file: ");
    refused(
        &["--referee-source", "/no/such/dir"],
        "--referee-source /no/such/dir: ",
    );
    refused(&["--referee-source", "/tmp"], "/tmp/Cargo.toml");
    refused(&["--cases", "100000000"], "at most 10000 random cases");
    // A directory of referee's source is pinned by its absolute path.
    let src = env!("CARGO_MANIFEST_DIR");
    referee()
        .args(["package", "pousse", "--cases", "2", "--referee-source", "."])
        .current_dir(src)
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    let script = std::fs::read_to_string(out.join("output_validator/build")).unwrap();
    assert!(
        script.contains(&format!("pinned_source='{src}'")),
        "{script}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
