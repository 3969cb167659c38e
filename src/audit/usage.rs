//! What a run's processes use, as judge systems measure it: the **CPU time** of the program
//! (the user and system time of every process of its process group, and of the children they
//! waited for), which the time limit counts; the **wall-clock** time, which only caps a
//! program that sleeps or blocks; and the **memory** its processes hold, which the memory
//! limit counts.
//!
//! All come from `/proc` (Linux), for each process whose process group is the run's:
//! `/proc/PID/schedstat` (its first field: the nanoseconds the process ran on a CPU; its
//! second: the nanoseconds it spent runnable, waiting for a CPU) and `/proc/PID/stat` (fields
//! `cutime` and `cstime`: the CPU time of the children it waited for, in clock ticks; `utime`
//! and `stime` stand for the first field of `schedstat` on a kernel without it). The wall-clock
//! cap does not count the wait for a CPU: a program starved of CPU by a busy machine is not
//! stopped for it. When the program has exited, its CPU time is read from its process before
//! it is reaped, or is the last reading of its group when that is more (children it never
//! waited for). The memory is the resident set of the group's processes together
//! (`/proc/PID/statm`, its second field), read while they run; once the program has exited,
//! the kernel's high-water mark of its largest process (`ru_maxrss`) stands for the moments
//! between two readings.

use std::io;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::time::Duration;

/// How many times the CPU time limit a run's wall-clock time may reach, not counting the time
/// its processes waited for a CPU, before the run is stopped: the cap for programs that sleep
/// or block (as DMOJ's `wall_time_factor`, 3 by default).
pub const WALL_FACTOR: u32 = 3;

/// The wall-clock cap of a run held to `cpu_limit` of CPU time.
pub fn wall_cap(cpu_limit: Duration) -> Duration {
    cpu_limit * WALL_FACTOR
}

/// The CPU time the calling thread has used.
pub fn thread_cpu() -> Duration {
    let now = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    Duration::new(now.tv_sec.max(0) as u64, now.tv_nsec.max(0) as u32)
}

/// What processes have used.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Usage {
    /// CPU time: their time on a CPU and that of the children they waited for.
    pub cpu: Duration,
    /// The longest time one of them spent waiting for a CPU.
    pub waited: Duration,
    /// The bytes they hold in memory together (their resident sets).
    pub memory: u64,
}

/// What one `/proc/PID` says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Process {
    group: i32,
    /// `utime + stime`, in ticks.
    own_ticks: u64,
    /// `cutime + cstime`, in ticks.
    children_ticks: u64,
}

/// The duration of `ticks` clock ticks.
fn ticks(ticks: u64) -> Duration {
    let per_second = rustix::param::clock_ticks_per_second().max(1);
    Duration::from_micros(ticks.saturating_mul(1_000_000) / per_second)
}

/// What a `/proc/PID/stat` line says.
fn parse_stat(stat: &str) -> Option<Process> {
    // The fields after the command name, which may hold spaces, in parentheses: field 3 (the
    // state) comes first, so field N is at N - 3.
    let rest = stat.rsplit_once(") ")?.1;
    let fields: Vec<&str> = rest.split(' ').collect();
    let number = |n: usize| -> Option<u64> { fields.get(n - 3)?.parse().ok() };
    Some(Process {
        group: fields.get(2)?.parse().ok()?,
        own_ticks: number(14)? + number(15)?,
        children_ticks: number(16)? + number(17)?,
    })
}

/// The nanoseconds on a CPU and waiting for one, from a `/proc/PID/schedstat` line.
fn parse_schedstat(text: &str) -> Option<(u64, u64)> {
    let mut fields = text.split_ascii_whitespace();
    let ran = fields.next()?.parse().ok()?;
    let waited = fields.next()?.parse().ok()?;
    Some((ran, waited))
}

/// What the process of `/proc/PID` directory `dir` has used, and its process group.
fn usage_of(dir: &Path) -> Option<(i32, Usage)> {
    let process = parse_stat(&std::fs::read_to_string(dir.join("stat")).ok()?)?;
    let scheduled = std::fs::read_to_string(dir.join("schedstat"))
        .ok()
        .and_then(|s| parse_schedstat(&s));
    let (own, waited) = match scheduled {
        Some((ran, waited)) => (Duration::from_nanos(ran), Duration::from_nanos(waited)),
        None => (ticks(process.own_ticks), Duration::ZERO),
    };
    Some((
        process.group,
        Usage {
            cpu: own + ticks(process.children_ticks),
            waited,
            memory: 0,
        },
    ))
}

/// How long the calling thread has waited for a CPU (runnable, not running), from
/// `/proc/thread-self/schedstat`; zero where the kernel does not say.
pub fn thread_waited() -> Duration {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| parse_schedstat(&s))
        .map_or(Duration::ZERO, |(_, waited)| Duration::from_nanos(waited))
}

/// What process `pid` has used (one that has exited and is not reaped yet included).
pub fn process_usage(pid: i32) -> Usage {
    usage_of(&Path::new("/proc").join(pid.to_string())).map_or_else(Usage::default, |(_, u)| u)
}

/// The bytes process `/proc/PID` directory `dir` holds in memory (its resident set).
fn resident(dir: &Path) -> u64 {
    let Ok(statm) = std::fs::read_to_string(dir.join("statm")) else {
        return 0;
    };
    let pages: u64 = statm
        .split_ascii_whitespace()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .unwrap_or(0);
    pages.saturating_mul(rustix::param::page_size() as u64)
}

/// What the processes of process group `group` have used, read from `/proc`.
pub fn group_usage(group: i32) -> Usage {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Usage::default();
    };
    let mut total = Usage::default();
    for entry in entries.flatten() {
        let name = entry.file_name();
        if !name
            .to_str()
            .is_some_and(|n| n.bytes().all(|b| b.is_ascii_digit()))
        {
            continue;
        }
        if let Some((their_group, used)) = usage_of(&entry.path()) {
            if their_group == group {
                total.cpu += used.cpu;
                total.waited = total.waited.max(used.waited);
                total.memory = total.memory.saturating_add(resident(&entry.path()));
            }
        }
    }
    total
}

/// Reaps process `pid`: its exit status, and the high-water mark of the resident set of the
/// largest of it and the children it waited for, in bytes.
#[allow(unsafe_code)]
pub fn reap(pid: i32) -> io::Result<(std::process::ExitStatus, u64)> {
    let mut status = 0;
    // SAFETY: `rusage` is plain data the kernel fills.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: pointers to locals that outlive the call.
        let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if reaped == pid {
            let kib = u64::try_from(usage.ru_maxrss).unwrap_or(0);
            return Ok((std::process::ExitStatus::from_raw(status), kib * 1024));
        }
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

/// How often a run's usage is read: a twentieth of its CPU limit, between 5 and 50 ms (a run
/// that ends sooner is never read while it runs).
pub fn sample_every(cpu_limit: Duration) -> Duration {
    (cpu_limit / 20).clamp(Duration::from_millis(5), Duration::from_millis(50))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_lines_give_the_group_and_the_cpu_fields() {
        let stat = "4242 (a (strange) name) S 1 4240 4240 0 -1 4194560 100 0 0 0 \
                    7 3 20 10 20 0 1 0 500 1000 100";
        assert_eq!(
            parse_stat(stat),
            Some(Process {
                group: 4240,
                own_ticks: 10,
                children_ticks: 30
            })
        );
        assert_eq!(parse_stat("garbage"), None);
        assert_eq!(
            parse_schedstat("1001307201 75623 7\n"),
            Some((1_001_307_201, 75_623))
        );
    }

    #[test]
    fn a_busy_group_is_measured_and_the_caps_scale() {
        use std::os::unix::process::CommandExt;
        let mut child = std::process::Command::new("sh")
            .args(["-c", "while :; do :; done"])
            .process_group(0)
            .spawn()
            .unwrap();
        let group = child.id() as i32;
        let started = std::time::Instant::now();
        let mut used = Usage::default();
        // Hang guard: 20 s.
        while used.cpu < Duration::from_millis(50) && started.elapsed() < Duration::from_secs(20) {
            std::thread::sleep(Duration::from_millis(20));
            used = group_usage(group);
        }
        let alone = process_usage(group);
        let _ = child.kill();
        let _ = child.wait();
        assert!(used.cpu >= Duration::from_millis(50), "{used:?}");
        // A shell holds some memory, far less than a gigabyte.
        assert!(used.memory > 0 && used.memory < 1 << 30, "{used:?}");
        assert!(alone.cpu >= used.cpu, "{alone:?} {used:?}");
        assert_eq!(wall_cap(Duration::from_secs(2)), Duration::from_secs(6));
        assert_eq!(
            sample_every(Duration::from_secs(2)),
            Duration::from_millis(50)
        );
        assert_eq!(
            sample_every(Duration::from_millis(40)),
            Duration::from_millis(5)
        );
    }
}
