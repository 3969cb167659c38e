//! What a run's processes use, read from `/proc` (Linux): where the kernel's accounting by
//! control group is not available ([`crate::cgroup`]), and for the waits for a CPU, which no
//! control group here gives.
//!
//! - **CPU time** of a process: `utime + stime` of `/proc/PID/stat`, which sum every thread of
//!   it, those that ended included, in clock ticks; or, when more, the nanoseconds each of its
//!   living threads ran (the first field of `/proc/PID/task/TID/schedstat`), which is finer;
//!   and `cutime + cstime`, the time of the children it waited for. A zombie is skipped: its
//!   time moves to its parent's `cutime` when it is reaped, and is never counted twice.
//! - **Memory**: of a confined run's processes, what each holds (`/proc/PID/status`: its
//!   resident set, its swap and its page tables), summed; of an unconfined run's, the resident
//!   sets (`/proc/PID/statm`, its second field).
//! - **Waits for a CPU**: the second field of `/proc/PID/task/TID/schedstat`, the nanoseconds a
//!   thread was runnable but not running; the longest of any thread's is not counted by the
//!   wall-clock cap.
//!
//! A confined run's processes are the descendants of its init (the first process of its PID
//! namespace), which reaps them: the init's own memory and time are the sandbox's, and the CPU
//! time of what it reaped is counted through its `cutime`. An unconfined run's processes are
//! those of its process group.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

/// What processes have used.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Usage {
    /// CPU time: their time on a CPU and that of the children they waited for.
    pub(crate) cpu: Duration,
    /// The longest time one of them spent waiting for a CPU.
    pub(crate) waited: Duration,
    /// The bytes they hold in memory together (their resident sets).
    pub(crate) memory: u64,
}

/// What one `/proc/PID/stat` line says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Stat {
    pub(crate) pid: i32,
    /// The state letter (`Z` for a zombie).
    pub(crate) state: u8,
    pub(crate) parent: i32,
    pub(crate) group: i32,
    /// `utime + stime`, in ticks.
    pub(crate) own_ticks: u64,
    /// `cutime + cstime`, in ticks.
    pub(crate) children_ticks: u64,
}

/// The duration of `ticks` clock ticks.
fn ticks(ticks: u64) -> Duration {
    let per_second = rustix::param::clock_ticks_per_second().max(1);
    Duration::from_micros(ticks.saturating_mul(1_000_000) / per_second)
}

/// What a `/proc/PID/stat` line says.
pub(crate) fn parse_stat(stat: &str) -> Option<Stat> {
    // The fields after the command name, which may hold spaces, in parentheses: field 3 (the
    // state) comes first, so field N is at N - 3.
    let (head, rest) = stat.rsplit_once(") ")?;
    let pid = head.split(' ').next()?.parse().ok()?;
    let fields: Vec<&str> = rest.split(' ').collect();
    let number = |n: usize| -> Option<u64> { fields.get(n - 3)?.parse().ok() };
    Some(Stat {
        pid,
        state: *fields.first()?.as_bytes().first()?,
        parent: fields.get(1)?.parse().ok()?,
        group: fields.get(2)?.parse().ok()?,
        own_ticks: number(14)? + number(15)?,
        children_ticks: number(16)? + number(17)?,
    })
}

/// The nanoseconds on a CPU and waiting for one, from a `/proc/PID/schedstat` line.
pub(crate) fn parse_schedstat(text: &str) -> Option<(u64, u64)> {
    let mut fields = text.split_ascii_whitespace();
    let ran = fields.next()?.parse().ok()?;
    let waited = fields.next()?.parse().ok()?;
    Some((ran, waited))
}

/// Every process's `/proc/PID/stat`.
pub(crate) fn every_process() -> Vec<Stat> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_str()
                .is_some_and(|n| n.bytes().all(|b| b.is_ascii_digit()))
        })
        .filter_map(|e| stat_of(&e.path()))
        .collect()
}

/// The `/proc/PID/stat` of the process of directory `dir`.
fn stat_of(dir: &Path) -> Option<Stat> {
    parse_stat(&std::fs::read_to_string(dir.join("stat")).ok()?)
}

/// The nanoseconds the living threads of process `pid` ran, together, and the longest any of
/// them waited for a CPU.
fn threads(pid: i32) -> (Duration, Duration) {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return (Duration::ZERO, Duration::ZERO);
    };
    let (mut ran, mut waited) = (0u64, 0u64);
    for task in tasks.flatten() {
        if let Some((r, w)) = std::fs::read_to_string(task.path().join("schedstat"))
            .ok()
            .and_then(|s| parse_schedstat(&s))
        {
            ran += r;
            waited = waited.max(w);
        }
    }
    (Duration::from_nanos(ran), Duration::from_nanos(waited))
}

/// What process `p` has used: its CPU time and that of the children it waited for, its
/// longest wait for a CPU, its memory (`memory` of its process id).
fn used(p: &Stat, memory: fn(i32) -> u64) -> Usage {
    let (ran, waited) = threads(p.pid);
    Usage {
        cpu: ticks(p.own_ticks).max(ran) + ticks(p.children_ticks),
        waited,
        memory: memory(p.pid),
    }
}

/// The bytes process `pid` holds: its resident set, its swap and its page tables
/// (`/proc/PID/status`).
pub(crate) fn held(pid: i32) -> u64 {
    let Ok(status) = std::fs::read_to_string(format!("/proc/{pid}/status")) else {
        return 0;
    };
    status
        .lines()
        .filter_map(|line| {
            let rest = ["VmRSS:", "VmSwap:", "VmPTE:"]
                .iter()
                .find_map(|key| line.strip_prefix(key))?;
            rest.trim()
                .trim_end_matches("kB")
                .trim()
                .parse::<u64>()
                .ok()
        })
        .sum::<u64>()
        .saturating_mul(1024)
}

/// How long the calling thread has waited for a CPU (runnable, not running), from
/// `/proc/thread-self/schedstat`; zero where the kernel does not say.
pub(crate) fn thread_waited() -> Duration {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| parse_schedstat(&s))
        .map_or(Duration::ZERO, |(_, waited)| Duration::from_nanos(waited))
}

/// The bytes process `pid` holds in memory (its resident set).
pub(crate) fn resident(pid: i32) -> u64 {
    let Ok(statm) = std::fs::read_to_string(format!("/proc/{pid}/statm")) else {
        return 0;
    };
    let pages: u64 = statm
        .split_ascii_whitespace()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .unwrap_or(0);
    pages.saturating_mul(rustix::param::page_size() as u64)
}

/// What the processes of process group `group` have used.
pub(crate) fn group_usage(group: i32) -> Usage {
    total(
        every_process()
            .iter()
            .filter(|p| p.group == group && p.state != b'Z'),
        resident,
    )
}

/// What `processes` have used together, their memory `memory` of each.
fn total<'a>(processes: impl Iterator<Item = &'a Stat>, memory: fn(i32) -> u64) -> Usage {
    let mut total = Usage::default();
    for p in processes {
        let used = used(p, memory);
        total.cpu += used.cpu;
        total.waited = total.waited.max(used.waited);
        total.memory = total.memory.saturating_add(used.memory);
    }
    total
}

/// The descendants of process `root` among `processes` (not `root` itself).
fn descendants(root: i32, processes: &[Stat]) -> Vec<&Stat> {
    let mut children: BTreeMap<i32, Vec<&Stat>> = BTreeMap::new();
    for p in processes {
        children.entry(p.parent).or_default().push(p);
    }
    let mut found = Vec::new();
    let mut next = vec![root];
    while let Some(parent) = next.pop() {
        for child in children.get(&parent).into_iter().flatten() {
            next.push(child.pid);
            found.push(*child);
        }
    }
    found
}

/// What a confined run whose init is process `init` has used: the init's `cutime` (what it
/// reaped) and everything of the processes below it.
pub(crate) fn run_usage(init: i32) -> Usage {
    let processes = every_process();
    let reaped = processes
        .iter()
        .find(|p| p.pid == init)
        .map_or(Duration::ZERO, |p| ticks(p.children_ticks));
    let below = descendants(init, &processes);
    let mut usage = total(below.into_iter().filter(|p| p.state != b'Z'), held);
    usage.cpu += reaped;
    usage
}

/// The longest wait for a CPU of a thread of processes `pids`.
pub(crate) fn longest_wait(pids: &[i32]) -> Duration {
    pids.iter().map(|&p| threads(p).1).max().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_lines_give_the_tree_and_the_cpu_fields() {
        let stat = "4242 (a (strange) name) S 1 4240 4240 0 -1 4194560 100 0 0 0 \
                    7 3 20 10 20 0 1 0 500 1000 100";
        assert_eq!(
            parse_stat(stat),
            Some(Stat {
                pid: 4242,
                state: b'S',
                parent: 1,
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
    fn a_runs_processes_are_below_its_init() {
        let p = |pid, parent| Stat {
            pid,
            state: b'R',
            parent,
            group: 0,
            own_ticks: 0,
            children_ticks: 0,
        };
        // 10 a starter, 11 its run's init, 12 the program, 13 its child, 14 an orphan the
        // init adopted; 20 and 21 another tree.
        let all = [
            p(10, 1),
            p(11, 10),
            p(12, 11),
            p(13, 12),
            p(14, 11),
            p(20, 1),
            p(21, 20),
        ];
        let mut below: Vec<i32> = descendants(11, &all).iter().map(|s| s.pid).collect();
        below.sort();
        assert_eq!(below, [12, 13, 14]);
    }

    #[test]
    fn a_busy_group_is_measured_with_every_thread() {
        use std::os::unix::process::CommandExt;
        // Two threads burning: the process's CPU time is theirs together.
        let mut child = std::process::Command::new("python3")
            .args([
                "-c",
                "import threading\n\
                 def burn():\n    while True: pass\n\
                 [threading.Thread(target=burn, daemon=True).start() for _ in range(2)]\n\
                 import time\ntime.sleep(60)",
            ])
            .process_group(0)
            .spawn()
            .unwrap();
        let group = child.id() as i32;
        let started = std::time::Instant::now();
        let mut used = Usage::default();
        // Hang guard: 20 s.
        while used.cpu < Duration::from_millis(300) && started.elapsed() < Duration::from_secs(20) {
            std::thread::sleep(Duration::from_millis(20));
            used = group_usage(group);
        }
        let _ = child.kill();
        let _ = child.wait();
        assert!(used.cpu >= Duration::from_millis(300), "{used:?}");
        // The main thread sleeps: its own schedstat says it ran for almost nothing.
        assert!(used.memory > 0 && used.memory < 1 << 30, "{used:?}");
        // What it holds counts its page tables too.
        let own = std::process::id() as i32;
        assert!(held(own) > resident(own), "{} {}", held(own), resident(own));
    }
}
