//! The kernel's accounting of runs by control groups, where the machine gives one: cgroup v1's
//! `cpuacct`, `memory` and `pids` hierarchies ([`v1`]: a slot's groups, reused), or cgroup v2
//! ([`v2`]: a group per run, in a subtree of the sandbox's own).

pub(crate) mod v1;
pub(crate) mod v2;

use std::io;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// The sandbox's control groups.
#[derive(Debug)]
pub(crate) enum Cgroups {
    V1(v1::Cgroups),
    V2(v2::Cgroups),
}

/// One run's control groups.
#[derive(Debug)]
pub(crate) enum RunGroups {
    V1(v1::RunGroups),
    V2(v2::RunGroups),
}

impl Cgroups {
    /// The groups of a new run, within `memory` bytes and `processes` processes and threads
    /// (its init among them).
    pub(crate) fn for_run(&self, memory: u64, processes: u64) -> io::Result<RunGroups> {
        Ok(match self {
            Cgroups::V1(c) => RunGroups::V1(c.for_run(memory, processes)?),
            Cgroups::V2(c) => RunGroups::V2(c.for_run(memory, processes)?),
        })
    }
}

/// What a run's groups are charged.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Charged {
    /// The CPU time of every thread that was in the groups.
    pub(crate) cpu: Duration,
    /// The memory charged now.
    pub(crate) memory: u64,
}

impl RunGroups {
    /// What the groups are charged now.
    pub(crate) fn charged(&self) -> Charged {
        let (cpu, memory) = match self {
            RunGroups::V1(g) => g.charged(),
            RunGroups::V2(g) => g.charged(),
        };
        Charged { cpu, memory }
    }

    /// The most memory the groups were charged at once.
    pub(crate) fn peak_memory(&self) -> u64 {
        match self {
            RunGroups::V1(g) => g.peak_memory(),
            RunGroups::V2(g) => g.peak_memory(),
        }
    }

    /// Whether the kernel ended a process of the run at its memory limit.
    pub(crate) fn out_of_memory(&self) -> bool {
        match self {
            RunGroups::V1(g) => g.out_of_memory(),
            RunGroups::V2(g) => g.out_of_memory(),
        }
    }

    /// The run's processes now.
    pub(crate) fn processes(&self) -> Vec<i32> {
        match self {
            RunGroups::V1(g) => g.processes(),
            RunGroups::V2(g) => g.processes(),
        }
    }

    /// Ends every process of the run at once, where the groups can (cgroup v2).
    pub(crate) fn kill(&self) {
        if let RunGroups::V2(g) = self {
            g.kill();
        }
    }
}

/// A number that differs from one call to the next (the time and a counter).
pub(crate) fn unique_number() -> u64 {
    static COUNT: AtomicU64 = AtomicU64::new(0);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos() as u64);
    now.wrapping_add(COUNT.fetch_add(1, Ordering::Relaxed))
}

/// The number after `key ` on a line of the flat-keyed `file` (`cpu.stat`, `memory.events`,
/// `memory.oom_control`, `cgroup.events`); 0 when there is none.
pub(crate) fn field(file: &Path, key: &str) -> u64 {
    std::fs::read_to_string(file)
        .ok()
        .and_then(|text| {
            text.lines().find_map(|l| {
                let (k, v) = l.split_once(' ')?;
                (k == key).then(|| v.trim().parse().ok())?
            })
        })
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_field_of_a_flat_keyed_file_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("cpu.stat");
        std::fs::write(&file, "usage_usec 1234\nuser_usec 1000\nsystem_usec 234\n").unwrap();
        assert_eq!(field(&file, "usage_usec"), 1234);
        assert_eq!(field(&file, "system_usec"), 234);
        assert_eq!(field(&file, "usage"), 0);
        assert_eq!(field(&dir.path().join("none"), "usage_usec"), 0);
    }
}
