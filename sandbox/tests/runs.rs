//! The sandbox's runs, through its public face: a program's input and outputs, hostile
//! programs ended, CPU time the limit and wall time only a cap, every thread and every process
//! counted (or, where no control group counts them, one process a run), memory, what a run
//! sees (its own root, processes and network), the scratch and the environment, deadlines.
//! Each test runs as the machine allows: as root (programs as nobody, accounted by control
//! groups) and as a normal user; `.ci/run` runs them both ways, here and on Debian's kernels.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use referee_sandbox::{Ending, Interrupt, Limits, Options, Program, Refusal, RunError, Sandbox};
fn limits(cpu_ms: u64) -> Limits {
    Limits {
        cpu: Duration::from_millis(cpu_ms),
        memory: 1 << 30,
        max_output: 1 << 16,
        stderr_tail: 64,
        ..Limits::default()
    }
}

fn sh(script: &str) -> Program {
    Program::from_argv(vec!["sh".into(), "-c".into(), script.into()])
}

fn sandbox() -> Arc<Sandbox> {
    Sandbox::probe(&[]).expect("the sandbox works on the test machine")
}

/// Whether a confined run here may have more than one process (a control group counts
/// them).
fn many_processes(sandbox: &Sandbox) -> bool {
    sandbox.accounting().by_kernel()
}

/// `sh -c SCRIPT`, unconfined and confined.
fn both(sandbox: &Arc<Sandbox>, script: &str) -> [Program; 2] {
    let plain = sh(script);
    let confined = plain.confined(sandbox).unwrap();
    [plain, confined]
}

#[test]
fn a_program_reads_its_input_and_exits() {
    let sandbox = sandbox();
    // Shell built-ins only: where no control group counts a run, it is one process.
    for program in both(
        &sandbox,
        "read -r line; echo \"$line\"; echo done >&2; exit 3",
    ) {
        let run = program.run(b"hello\n", &limits(5000), None).unwrap();
        assert_eq!(run.ending, Ending::Exited(3), "{run:?}");
        assert_eq!(run.stdout, b"hello\n");
        assert_eq!(run.stderr_tail, b"done\n");
    }
}

#[test]
fn hostile_programs_are_ended() {
    let sandbox = sandbox();
    for [program] in both(&sandbox, "exec yes").map(|p| [p]) {
        // Endless output: ended at the cap.
        let run = program.run(b"", &limits(5000), None).unwrap();
        assert_eq!(run.ending, Ending::OutputLimit);
        assert_eq!(run.stdout.len(), 1 << 16);
    }
    // A child left sleeping with the pipes open: the run still ends with the program (and
    // where no control group counts a run's processes, the child is refused).
    let [plain, confined] = both(&sandbox, "sleep 30 & echo ok");
    let run = plain.run(b"", &limits(5000), None).unwrap();
    assert_eq!(run.ending, Ending::Exited(0), "{run:?}");
    let run = confined.run(b"", &limits(5000), None).unwrap();
    if many_processes(&sandbox) {
        assert_eq!(
            (run.ending, run.stdout.as_slice()),
            (Ending::Exited(0), &b"ok\n"[..]),
            "{run:?}"
        );
    } else {
        assert_eq!(
            run.ending,
            Ending::Forbidden(Refusal { call: "fork" }),
            "{run:?}"
        );
    }
    // Standard input closed at once, a large input unread.
    for program in both(&sandbox, "exec 0<&-; echo closed") {
        let run = program
            .run(&vec![b'x'; 1 << 22], &limits(5000), None)
            .unwrap();
        assert_eq!(run.stdout, b"closed\n");
    }
    // A signal.
    for program in both(&sandbox, "kill -SEGV $$") {
        let run = program.run(b"", &limits(5000), None).unwrap();
        assert_eq!(run.ending, Ending::Signalled(11), "{run:?}");
    }
    // More environment, when asked.
    let padded = Limits {
        padding: 1000,
        ..limits(5000)
    };
    for program in both(&sandbox, "echo ${#SANDBOX_PADDING}") {
        let run = program.run(b"", &padded, None).unwrap();
        assert_eq!(String::from_utf8_lossy(&run.stdout).trim(), "1000");
    }
    // Standard error of any length: its end is kept.
    for program in both(
        &sandbox,
        "exec python3 -c 'import sys; sys.stderr.write(\"e\\n\" * 50000)'",
    ) {
        let run = program.run(b"", &limits(5000), None).unwrap();
        assert_eq!(run.stderr_tail.len(), 64);
    }
}

#[test]
fn cpu_time_is_the_limit_and_wall_time_only_caps() {
    let sandbox = sandbox();
    // Burning CPU, in the program or in a child it has not waited for yet: past the limit
    // of CPU time, whatever else runs on the machine.
    for burner in [
        "while :; do :; done",
        "sh -c 'while :; do :; done'; echo never",
    ] {
        let forks = burner.starts_with("sh");
        for (i, program) in both(&sandbox, burner).into_iter().enumerate() {
            if i == 1 && forks && !many_processes(&sandbox) {
                // One process a run here: the child is refused (tested above).
                continue;
            }
            let run = program.run(b"", &limits(300), None).unwrap();
            assert_eq!(run.ending, Ending::TimedOut, "{burner}: {run:?}");
            assert!(run.cpu > Duration::from_millis(300), "{burner}: {run:?}");
            assert!(
                run.stopped().starts_with("killed after"),
                "{}",
                run.stopped()
            );
        }
    }
    // Sleeping: no CPU time used (but the shell's and sleep's start, a fifth of a second
    // under emulation); stopped by the wall-clock cap (three times the limit).
    for program in both(&sandbox, "exec sleep 30") {
        let run = program.run(b"", &limits(1000), None).unwrap();
        assert_eq!(run.ending, Ending::WallCap, "{run:?}");
        assert!(run.elapsed >= Duration::from_millis(3000), "{run:?}");
        assert!(run.cpu < Duration::from_millis(1000), "{run:?}");
        assert!(
            run.stopped().contains("wall-clock cap"),
            "{}",
            run.stopped()
        );
    }
    // A program that finishes over its CPU time is over the limit all the same.
    for program in both(
        &sandbox,
        "i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done; echo late",
    ) {
        let run = program.run(b"", &limits(20), None).unwrap();
        assert_eq!(run.ending, Ending::TimedOut, "{run:?}");
    }
}

#[test]
fn every_thread_of_every_process_is_counted() {
    let sandbox = sandbox();
    // Four threads burn 0.5 s each while the main thread waits for them: 2 s of CPU time,
    // under a limit of 1 s a timeout (reported at its end, or killed on the way).
    let threads = "import threading, time\n\
         def burn():\n    end = time.thread_time() + 0.5\n    while time.thread_time() < end: pass\n\
         ts = [threading.Thread(target=burn) for _ in range(4)]\n\
         [t.start() for t in ts]\n[t.join() for t in ts]\nprint('done')";
    let plain = Program::from_argv(vec!["python3".into(), "-c".into(), threads.into()]);
    for program in [plain.clone(), plain.confined(&sandbox).unwrap()] {
        let run = program.run(b"", &limits(1000), None).unwrap();
        assert_eq!(run.ending, Ending::TimedOut, "{run:?}");
        // Under a limit of 10 s, the time of all four.
        let run = program.run(b"", &limits(10_000), None).unwrap();
        assert_eq!(run.ending, Ending::Exited(0), "{run:?}");
        assert!(run.cpu >= Duration::from_millis(1900), "{run:?}");
    }
}

#[test]
fn a_deadline_cuts_a_run_without_blaming_the_program() {
    let sandbox = sandbox();
    for program in both(&sandbox, "exec sleep 30") {
        let at = Instant::now() + Duration::from_millis(200);
        let run = program.run(b"", &limits(20_000), Some(at)).unwrap();
        assert_eq!(run.ending, Ending::Cut);
        // A deadline already passed: the program is not started.
        let run = program.run(b"", &limits(5000), Some(at)).unwrap();
        assert_eq!((run.ending, run.stdout.len()), (Ending::Cut, 0));
        // A cap before the deadline is still the program's.
        let far = Instant::now() + Duration::from_secs(60);
        let run = program.run(b"", &limits(1000), Some(far)).unwrap();
        assert_eq!(run.ending, Ending::WallCap, "{run:?}");
    }
}

#[test]
fn an_interrupt_ends_the_runs_holding_it_and_no_others() {
    let interrupt = Interrupt::new();
    let held = Sandbox::new(&Options {
        interrupt: interrupt.clone(),
        ..Options::default()
    })
    .unwrap();
    let other = sandbox();
    let sleeper = sh("exec sleep 30");
    let runs = [
        sleeper.clone().ended_by(&interrupt),
        sleeper.confined(&held).unwrap(),
        // `exec`: where no control group counts a run, it is one process.
        sh("exec sleep 1").confined(&other).unwrap(),
        sh("exec sleep 1"),
    ];
    let ended: Vec<_> = std::thread::scope(|scope| {
        let running: Vec<_> = runs
            .iter()
            .map(|program| scope.spawn(|| program.run(b"", &limits(20_000), None).unwrap()))
            .collect();
        std::thread::sleep(Duration::from_millis(300));
        interrupt.interrupt();
        running.into_iter().map(|r| r.join().unwrap()).collect()
    });
    // The two holding it are ended (a sleep of 30 s would have exited): the confined one cut,
    // the unconfined one's process group killed.
    assert_eq!(ended[1].ending, Ending::Cut, "{:?}", ended[1]);
    assert!(
        matches!(ended[0].ending, Ending::Cut | Ending::Signalled(9)),
        "{:?}",
        ended[0]
    );
    // ... the others, confined or not, run to their end: no state is shared between callers.
    for run in &ended[2..] {
        assert_eq!(run.ending, Ending::Exited(0), "{run:?}");
    }
    // And a run started after it is not started at all.
    let late = runs[0].run(b"", &limits(20_000), None).unwrap();
    assert_eq!((late.ending, interrupt.interrupted()), (Ending::Cut, true));
    assert!(!runs[2].interrupt().interrupted());
}

#[test]
fn memory_over_the_limit_ends_the_run() {
    let sandbox = sandbox();
    let hog = |script: &str| Program::from_argv(vec!["python3".into(), "-c".into(), script.into()]);
    let limits = Limits {
        memory: 100 << 20,
        ..limits(30_000)
    };
    // 400 MiB written under a 100 MiB limit: the run ends there.
    let over = hog("x = b'x' * (400 << 20)\nimport time\ntime.sleep(30)");
    for program in [over.clone(), over.confined(&sandbox).unwrap()] {
        let run = program.run(b"", &limits, None).unwrap();
        assert_eq!(run.ending, Ending::MemoryLimit, "{run:?}");
        assert!(run.memory >= 100 << 20, "{run:?}");
        assert!(
            run.stopped().contains("over the limit"),
            "{}",
            run.stopped()
        );
    }
    // Under it, the run is the program's and its memory is measured.
    let under = hog("x = b'x' * (20 << 20)\nprint(len(x))");
    for program in [under.clone(), under.confined(&sandbox).unwrap()] {
        let run = program.run(b"", &limits, None).unwrap();
        assert_eq!(run.ending, Ending::Exited(0), "{run:?}");
        assert!(run.memory > 20 << 20 && run.memory < 100 << 20, "{run:?}");
    }
}

#[test]
fn runs_one_after_another_are_each_counted_alone() {
    // Confined runs one after another share their control groups (as root): what one run
    // used, and its end at the memory ceiling, must not be the next one's.
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::write(&data, vec![7u8; 96 << 20]).unwrap();
    std::fs::File::open(&data).unwrap().sync_all().unwrap();
    set_readable(dir.path());
    let sandbox = Sandbox::probe(&[dir.path().to_path_buf()]).unwrap();
    let python = |script: String| {
        Program::from_argv(vec!["python3".into(), "-c".into(), script])
            .confined(&sandbox)
            .unwrap()
    };
    let limits = Limits {
        memory: 64 << 20,
        ..limits(20_000)
    };
    // CPU time, file pages of a file nobody has read since it was dropped from the cache,
    // then 200 MiB under 64 MiB.
    let heavy = python(format!(
        "import os\nsum(range(10**7))\nf = os.open({data:?}, os.O_RDONLY)\n\
         os.posix_fadvise(f, 0, 0, os.POSIX_FADV_DONTNEED)\n\
         while os.read(f, 1 << 20): pass\nx = b'x' * (200 << 20)",
        data = data.display().to_string()
    ));
    let light = python("print(1)".to_string());
    for _ in 0..2 {
        let heavy = heavy.run(b"", &limits, None).unwrap();
        assert_eq!(heavy.ending, Ending::MemoryLimit, "{heavy:?}");
        let run = light.run(b"", &limits, None).unwrap();
        assert_eq!(run.ending, Ending::Exited(0), "{run:?}");
        // Whatever the machine's speed (under emulation Python's start alone takes a second):
        // the heavy run's CPU time (ten million additions and more) is not the light one's.
        assert!(run.cpu < heavy.cpu, "{run:?} after {heavy:?}");
        assert!(run.memory < 32 << 20, "{run:?}");
        // What the run cost counts the sandbox's work for it when the kernel accounts it.
        match sandbox.accounting() {
            a if a.by_kernel() => assert!(run.cost > run.cpu, "{run:?}"),
            _ => assert_eq!(run.cost, run.cpu, "{run:?}"),
        }
    }
}

/// Makes `dir` and what is in it readable by everyone (as root, the runs are nobody's).
fn set_readable(dir: &Path) {
    use std::os::unix::fs::PermissionsExt;
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let mode = if entry.path().is_dir() { 0o755 } else { 0o644 };
        std::fs::set_permissions(entry.path(), std::fs::Permissions::from_mode(mode)).unwrap();
    }
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn a_confined_run_is_held_to_its_sandbox() {
    let sandbox = sandbox();
    let confined = |script: &str| sh(script).confined(&sandbox).unwrap();
    // A forbidden call ends the run, named.
    let run =
        confined("exec python3 -c 'import socket; socket.socket().connect((\"127.0.0.1\", 9))'")
            .run(b"", &limits(10_000), None)
            .unwrap();
    assert_eq!(
        run.ending,
        Ending::Forbidden(Refusal { call: "connect" }),
        "{run:?}"
    );
    assert!(run.stopped().contains("connect"), "{}", run.stopped());
    // It writes in its scratch, its working directory, and nowhere else; it sees none of
    // the caller's environment; it is the second process of a PID namespace of its own, in
    // a process group of its own (`setsid`); it has no descriptor but its standard ones.
    let script = "import os\n\
         open('here', 'w').write('kept')\nprint(open('here').read())\n\
         try:\n    open('/etc/referee-test', 'w')\nexcept OSError:\n    print('refused')\n\
         print('home' if os.environ['HOME'] == os.getcwd() else 'elsewhere')\n\
         print(os.environ.get('CARGO', 'none'))\nprint(os.getpid(), os.getsid(0))\n\
         print(sorted(int(f) for f in os.listdir('/proc/self/fd')))";
    let run = python(script)
        .confined(&sandbox)
        .unwrap()
        .run(b"", &limits(10_000), None)
        .unwrap();
    let text = String::from_utf8_lossy(&run.stdout).to_string();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines,
        ["kept", "refused", "home", "none", "2 2", "[0, 1, 2, 3]"],
        "{run:?}"
    );
    assert!(!Path::new("/etc/referee-test").exists());
}

fn python(script: &str) -> Program {
    Program::from_argv(vec!["python3".into(), "-c".into(), script.into()])
}

#[test]
fn a_run_sees_its_own_root_processes_and_network_only() {
    // A file of the caller's, outside what the run is given: absent from the run's root.
    let dir = tempfile::tempdir().unwrap();
    let secret = dir.path().join("secret");
    std::fs::write(&secret, "the caller's").unwrap();
    let sandbox = sandbox();
    let script = format!(
        "import os\n\
         print(sorted(os.listdir('/')))\n\
         print(sorted(int(p) for p in os.listdir('/proc') if p.isdigit()))\n\
         print([l.split(':')[0].strip() for l in open('/proc/net/dev').readlines()[2:]])\n\
         print(os.path.exists({secret:?}), os.path.exists({dir:?}))\n\
         print(os.path.exists('/dev/null'), os.path.exists('/dev/sda'), os.path.exists('/home'))",
        secret = secret.display().to_string(),
        dir = dir.path().display().to_string(),
    );
    let run = python(&script)
        .confined(&sandbox)
        .unwrap()
        .run(b"", &limits(10_000), None)
        .unwrap();
    assert_eq!(run.ending, Ending::Exited(0), "{run:?}");
    let text = String::from_utf8_lossy(&run.stdout).to_string();
    let lines: Vec<&str> = text.lines().collect();
    // The system's directories (those of the machine), the devices, its own /proc, and
    // the path down to its scratch.
    let top = sandbox
        .scratch()
        .components()
        .nth(1)
        .map(|c| c.as_os_str().to_string_lossy().to_string());
    let mut expected: Vec<String> = [
        "usr", "bin", "sbin", "lib", "lib32", "lib64", "libx32", "etc", "opt",
    ]
    .iter()
    .filter(|d| Path::new("/").join(d).symlink_metadata().is_ok())
    .map(|d| d.to_string())
    .chain(["sys", "dev", "proc"].map(String::from))
    .chain(top)
    .collect();
    expected.sort();
    expected.dedup();
    let listed: Vec<String> = lines[0]
        .trim_matches(['[', ']'])
        .split(", ")
        .map(|s| s.trim_matches('\'').to_string())
        .collect();
    assert_eq!(listed, expected, "{run:?}");
    // Its init and itself.
    assert_eq!(lines[1], "[1, 2]", "{run:?}");
    // A network namespace of its own: its loopback alone.
    assert_eq!(lines[2], "['lo']", "{run:?}");
    assert_eq!(lines[3], "False False", "{run:?}");
    assert_eq!(lines[4], "True False False", "{run:?}");
}

#[test]
fn a_run_makes_a_few_unix_stream_pairs_with_small_buffers_and_nothing_else() {
    // Java's runtime makes a UNIX stream pair as it starts: a run may make 4 of them, no more,
    // and no datagram pair; their buffers stay at the system's default (cgroup v2 charges no
    // AF_UNIX buffer to a group). Unconfined, all six are made and the buffer grows.
    let script = "import socket\n\
                  pairs = []\n\
                  for _ in range(6):\n    \
                      try: pairs.append(socket.socketpair())\n    \
                      except OSError as e: print('refused', e.errno)\n\
                  print(len(pairs))\n\
                  try: socket.socketpair(type=socket.SOCK_DGRAM); print('datagram')\n\
                  except OSError as e: print('datagram refused', e.errno)\n\
                  try: pairs[0][0].setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 1 << 24); print('grown')\n\
                  except OSError as e: print('kept', e.errno)\n";
    let plain = python(script);
    let run = plain.run(b"", &limits(10_000), None).unwrap();
    assert_eq!(run.ending, Ending::Exited(0), "{run:?}");
    assert_eq!(run.stdout, b"6\ndatagram\ngrown\n", "{run:?}");
    let run = plain
        .confined(&sandbox())
        .unwrap()
        .run(b"", &limits(10_000), None)
        .unwrap();
    assert_eq!(run.ending, Ending::Exited(0), "{run:?}");
    let (eacces, eperm) = (libc::EACCES, libc::EPERM);
    assert_eq!(
        String::from_utf8_lossy(&run.stdout),
        format!("refused {eacces}\nrefused {eacces}\n4\ndatagram refused {eacces}\nkept {eperm}\n"),
        "{run:?}"
    );
}

#[test]
fn children_the_kernel_reaps_are_counted_or_refused() {
    // Children reaped by the kernel itself (SIGCHLD ignored) burn 1.2 s of CPU time: a
    // control group counts them whoever reaped them; with none to count them, a run is
    // one process and its first fork ends it.
    let sandbox = sandbox();
    let script = "import os, signal, time\n\
         signal.signal(signal.SIGCHLD, signal.SIG_IGN)\n\
         for _ in range(4):\n\
         \x20   if os.fork() == 0:\n\
         \x20       end = time.process_time() + 0.3\n\
         \x20       while time.process_time() < end: pass\n\
         \x20       os._exit(0)\n\
         time.sleep(2)\nprint('done')";
    let run = python(script)
        .confined(&sandbox)
        .unwrap()
        .run(b"", &limits(20_000), None)
        .unwrap();
    if many_processes(&sandbox) {
        assert_eq!(run.ending, Ending::Exited(0), "{run:?}");
        assert!(run.cpu >= Duration::from_millis(1150), "{run:?}");
    } else {
        assert_eq!(
            run.ending,
            Ending::Forbidden(Refusal { call: "fork" }),
            "{run:?}"
        );
    }
}

#[test]
fn programs_that_cannot_start_are_errors() {
    let sandbox = sandbox();
    let missing = Program::parse("/nonexistent/judge --flag").unwrap();
    assert!(missing.run(b"", &limits(1000), None).is_err());
    let confined = Program::from_argv(vec!["no-such-program-here".into()])
        .confined(&sandbox)
        .unwrap();
    assert!(confined.run(b"", &limits(1000), None).is_err());
    assert_eq!(
        Program::parse("a 'b c' \"d\"").unwrap().words(),
        ["a", "b c", "d"]
    );
    assert!(Program::parse("a 'b").is_err());
    assert!(Program::parse("  ").is_err());
}

#[test]
fn a_run_cannot_make_itself_the_oom_killers_last_choice() {
    // Its /proc is read-only: it cannot lower its OOM score adjustment to spare itself at the
    // cost of its starter (which, on cgroup v1, shares its memory group). As root the runs
    // are set to the killer's first choice.
    let sandbox = sandbox();
    let run = sh("read a < /proc/self/oom_score_adj; echo $a; \
                  { echo 0 > /proc/self/oom_score_adj; } 2>/dev/null && echo lowered || echo kept")
    .confined(&sandbox)
    .unwrap()
    .run(b"", &limits(10_000), None)
    .unwrap();
    assert_eq!(run.ending, Ending::Exited(0), "{run:?}");
    let text = String::from_utf8_lossy(&run.stdout).to_string();
    let lines: Vec<&str> = text.lines().collect();
    // SAFETY: a plain system call.
    if unsafe { libc::geteuid() } == 0 {
        assert_eq!(lines[0], "1000", "{text}");
    }
    assert_eq!(lines.get(1), Some(&"kept"), "{text}");
}

#[test]
fn runs_start_while_other_threads_of_the_caller_allocate() {
    // The caller of a judge system is threaded: while its other threads allocate (and hold
    // their allocator's locks) and start threads of their own (which the C library's changes
    // of identity wait for), each run's first process, a copy of it, must still start its
    // program. Hang guard: 600 s for 300 runs that take a few milliseconds each here and some
    // 20 times that under emulation (Debian's kernels in `.ci/run`).
    let sandbox = sandbox();
    let program = Program::from_argv(vec!["true".into()])
        .confined(&sandbox)
        .unwrap();
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let busy: Vec<_> = (0..4)
        .map(|i| {
            let stop = stop.clone();
            std::thread::spawn(move || {
                let mut kept = Vec::new();
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    if i % 2 == 0 {
                        kept.push(vec![0u8; 4096 + kept.len()]);
                        if kept.len() > 64 {
                            kept.clear();
                        }
                    } else {
                        std::thread::spawn(|| ()).join().unwrap();
                    }
                }
            })
        })
        .collect();
    let (done, ended) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for _ in 0..300 {
            let run = program.run(b"", &limits(5000), None).unwrap();
            assert_eq!(run.ending, Ending::Exited(0), "{run:?}");
        }
        done.send(()).unwrap();
    });
    let finished = ended.recv_timeout(Duration::from_secs(600));
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    for thread in busy {
        thread.join().unwrap();
    }
    assert!(finished.is_ok(), "a run's first process hung: {finished:?}");
}

#[test]
fn the_runs_directory_is_no_other_users() {
    // It holds copies of programs and builds: as root, root's and nobody's group's (the
    // programs' user enters it, never lists it); as a normal user, that user's alone.
    use std::os::unix::fs::MetadataExt;
    let sandbox = sandbox();
    let runs = sandbox.scratch().parent().unwrap().to_path_buf();
    let meta = std::fs::metadata(&runs).unwrap();
    assert_eq!(meta.mode() & 0o007, 0, "{:o}", meta.mode());
    if sandbox.as_nobody() {
        assert_eq!((meta.uid(), meta.gid()), (0, referee_sandbox::NOBODY));
        assert_eq!(meta.mode() & 0o777, 0o710);
    } else {
        assert_eq!(meta.uid(), rustix::process::getuid().as_raw());
        assert_eq!(meta.mode() & 0o777, 0o700);
    }
    // A script only its user can read, in a directory all can, runs from a copy of both in
    // there.
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("hello.sh");
    std::fs::write(&script, "#!/bin/sh\necho hello\n").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o700)).unwrap();
    let program = Program::from_argv(vec![script.display().to_string()])
        .confined(&sandbox)
        .unwrap();
    let run = program.run(b"", &limits(5000), None).unwrap();
    assert_eq!(run.stdout, b"hello\n", "{run:?}");
}

#[test]
fn a_run_of_several_answers_stops_soon_after_one_overruns_its_own_limit() {
    // 200 ms of CPU time an answer within 10 s in all: two answers, then a busy loop, is
    // stopped after about 600 ms, never at 10 s; answers that come in time end as they do.
    let sandbox = sandbox();
    let each = Limits {
        cpu: Duration::from_secs(10),
        per_answer: Some(Duration::from_millis(200)),
        ..limits(10_000)
    };
    for program in both(&sandbox, "echo a; echo b; while :; do :; done") {
        let run = program.run(b"", &each, None).unwrap();
        assert_eq!(run.ending, Ending::AnswerLate, "{run:?}");
        assert_eq!(run.stdout, b"a\nb\n");
        assert!(run.cpu >= Duration::from_millis(600), "{run:?}");
        assert!(run.cpu < Duration::from_secs(5), "{run:?}");
    }
    for program in both(&sandbox, "for i in 1 2 3 4 5; do echo $i; done") {
        let run = program.run(b"", &each, None).unwrap();
        assert_eq!(run.ending, Ending::Exited(0), "{run:?}");
    }
}

#[test]
fn the_policy_is_the_limits_given() {
    let sandbox = sandbox();
    // The open files and tasks a confined run may have are its limits'.
    let policy = Limits {
        open_files: 100,
        processes: 7,
        ..limits(5000)
    };
    let [_, confined] = both(&sandbox, "ulimit -n; ulimit -p");
    let run = confined.run(b"", &policy, None).unwrap();
    assert_eq!(run.ending, Ending::Exited(0), "{run:?}");
    assert_eq!(String::from_utf8_lossy(&run.stdout), "100\n7\n");
    // A program that sleeps 1 s under 0.2 s of CPU time: past a wall-clock cap of 3 times
    // that, within one of 10 times.
    for program in both(&sandbox, "exec sleep 1") {
        let capped = Limits {
            wall_factor: 3,
            ..limits(200)
        };
        let run = program.run(b"", &capped, None).unwrap();
        assert_eq!(run.ending, Ending::WallCap, "{run:?}");
        let patient = Limits {
            wall_factor: 10,
            ..capped
        };
        let run = program.run(b"", &patient, None).unwrap();
        assert_eq!(
            (run.ending, run.stdout.as_slice()),
            (Ending::Exited(0), &b""[..]),
            "{run:?}"
        );
    }
}

#[test]
fn a_program_that_cannot_start_is_not_started_and_not_the_sandboxs_failure() {
    use std::os::unix::fs::PermissionsExt;
    let sandbox = sandbox();
    // A file that is not executable: its `exec` fails, confined and unconfined alike.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("not-a-program");
    std::fs::write(&file, "echo hi\n").unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
    let plain = Program::from_argv(vec![file.display().to_string()]);
    let confined = plain.confined(&sandbox).unwrap();
    for program in [plain, confined] {
        match program.run(b"", &limits(5000), None) {
            Err(RunError::NotStarted(e)) => {
                assert_eq!(e.kind(), std::io::ErrorKind::PermissionDenied, "{e}")
            }
            other => panic!("{other:?}"),
        }
    }
}
