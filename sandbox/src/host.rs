//! What this machine offers a sandbox, read from the kernel and `/proc` without changing
//! anything: the kernel, the user, Landlock's ABI, user namespaces and what restricts them,
//! seccomp, and the control groups mounted (cgroup v1 hierarchies, the cgroup v2 one, this
//! process's group in each). [`crate::Sandbox::probe`] chooses the walls and the accounting
//! from it; [`crate::check()`] says it all in words.

use std::path::{Path, PathBuf};

/// The cgroup v1 controllers a run's groups need, in this order.
pub(crate) const V1_CONTROLLERS: [&str; 3] = ["cpuacct", "memory", "pids"];

/// The cgroup v2 controllers a run's group needs (CPU time, `cpu.stat`, needs none).
pub(crate) const V2_CONTROLLERS: [&str; 2] = ["memory", "pids"];

/// What the machine offers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Host {
    /// The kernel's release (`6.1.0-47-amd64`).
    pub kernel: String,
    /// The effective user id of this process.
    pub uid: u32,
    /// The effective group id of this process.
    pub gid: u32,
    /// Landlock's ABI version (0: none, not built in or not enabled at boot).
    pub landlock_abi: i32,
    /// `user.max_user_namespaces`, when readable.
    pub max_user_namespaces: Option<u64>,
    /// Debian's `kernel.unprivileged_userns_clone`, when the kernel has it.
    pub unprivileged_userns_clone: Option<bool>,
    /// Ubuntu's `kernel.apparmor_restrict_unprivileged_userns`, when the kernel has it.
    pub apparmor_restricts_userns: Option<bool>,
    /// Whether seccomp filters can notify a listener (`user_notif` among the actions).
    pub seccomp_notify: bool,
    /// The cgroup v1 hierarchies of `V1_CONTROLLERS` mounted, with this process's group in
    /// each (all three, or none).
    pub cgroup_v1: Option<[PathBuf; 3]>,
    /// The cgroup v2 hierarchy, when mounted.
    pub cgroup_v2: Option<CgroupV2>,
}

/// The cgroup v2 hierarchy of the machine as this process sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CgroupV2 {
    /// Where it is mounted (`/sys/fs/cgroup`).
    pub mount: PathBuf,
    /// This process's group (`/sys/fs/cgroup/user.slice/...`).
    pub own: PathBuf,
    /// The controllers its root offers (`cgroup.controllers` of the mount): empty where cgroup
    /// v1 hierarchies hold them all.
    pub controllers: Vec<String>,
}

impl Host {
    /// This machine, as this process sees it.
    pub fn read() -> Host {
        let mountinfo = std::fs::read_to_string("/proc/self/mountinfo").unwrap_or_default();
        let membership = std::fs::read_to_string("/proc/self/cgroup").unwrap_or_default();
        // SAFETY: plain system calls.
        let (uid, gid) = unsafe { (libc::geteuid(), libc::getegid()) };
        Host {
            kernel: kernel_release(),
            uid,
            gid,
            landlock_abi: landlock_abi(),
            max_user_namespaces: sysctl("user/max_user_namespaces"),
            unprivileged_userns_clone: sysctl("kernel/unprivileged_userns_clone").map(|v| v != 0),
            apparmor_restricts_userns: sysctl("kernel/apparmor_restrict_unprivileged_userns")
                .map(|v| v != 0),
            seccomp_notify: std::fs::read_to_string("/proc/sys/kernel/seccomp/actions_avail")
                .is_ok_and(|a| a.split_whitespace().any(|x| x == "user_notif")),
            cgroup_v1: cgroup_v1(&mountinfo, &membership),
            cgroup_v2: cgroup_v2(&mountinfo, &membership),
        }
    }

    /// Whether this process runs as root.
    pub fn is_root(&self) -> bool {
        self.uid == 0
    }

    /// The kernel's version as numbers (`6.1`), when its release starts with them.
    pub fn kernel_version(&self) -> Option<(u32, u32)> {
        let mut parts = self.kernel.split(['.', '-']);
        let major = parts.next()?.parse().ok()?;
        let minor = parts.next()?.parse().ok()?;
        Some((major, minor))
    }
}

/// The kernel's release, from `uname`.
fn kernel_release() -> String {
    rustix::system::uname()
        .release()
        .to_string_lossy()
        .into_owned()
}

/// A number under `/proc/sys`.
fn sysctl(name: &str) -> Option<u64> {
    std::fs::read_to_string(Path::new("/proc/sys").join(name))
        .ok()?
        .trim()
        .parse()
        .ok()
}

/// The Landlock ABI of the running kernel (0: none).
pub(crate) fn landlock_abi() -> i32 {
    const CREATE_RULESET_VERSION: libc::c_uint = 1;
    // SAFETY: the version query takes no attribute.
    let abi = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<u8>(),
            0usize,
            CREATE_RULESET_VERSION,
        ) as i32
    };
    abi.max(0)
}

/// The fields of a `/proc/self/mountinfo` line this module reads: the mount point, the
/// filesystem type, its super options.
fn mounts(mountinfo: &str) -> impl Iterator<Item = (&str, &str, &str)> {
    // ID PARENT MAJ:MIN ROOT MOUNT-POINT OPTIONS [OPTIONAL...] - TYPE SOURCE SUPER-OPTIONS
    mountinfo.lines().filter_map(|line| {
        let (before, after) = line.split_once(" - ")?;
        let point = before.split(' ').nth(4)?;
        let mut after = after.split(' ');
        let kind = after.next()?;
        let options = after.nth(1).unwrap_or("");
        Some((point, kind, options))
    })
}

/// The directory of `controller`'s cgroup v1 hierarchy that this process belongs to, if the
/// machine mounts one.
pub(crate) fn own_v1_group(controller: &str, mountinfo: &str, membership: &str) -> Option<PathBuf> {
    let mount = mounts(mountinfo).find_map(|(point, kind, options)| {
        (kind == "cgroup" && options.split(',').any(|o| o == controller))
            .then(|| PathBuf::from(point))
    })?;
    // /proc/self/cgroup: ID:CONTROLLERS:PATH
    let path = membership.lines().find_map(|line| {
        let mut fields = line.splitn(3, ':');
        let _ = fields.next()?;
        let controllers = fields.next()?;
        let path = fields.next()?;
        controllers
            .split(',')
            .any(|c| c == controller)
            .then_some(path)
    })?;
    Some(mount.join(path.trim_start_matches('/')))
}

/// This process's group in each cgroup v1 hierarchy of [`V1_CONTROLLERS`], when all three are
/// mounted.
fn cgroup_v1(mountinfo: &str, membership: &str) -> Option<[PathBuf; 3]> {
    let groups: Vec<PathBuf> = V1_CONTROLLERS
        .iter()
        .map(|c| own_v1_group(c, mountinfo, membership))
        .collect::<Option<_>>()?;
    groups.try_into().ok()
}

/// The group of the cgroup v2 hierarchy mounted at `mount` that `membership` (a
/// `/proc/PID/cgroup`) names: its `0::PATH` line.
pub(crate) fn v2_group(mount: &Path, membership: &str) -> Option<PathBuf> {
    let path = membership.lines().find_map(|l| l.strip_prefix("0::"))?;
    Some(mount.join(path.trim_start_matches('/')))
}

/// The cgroup v2 hierarchy and this process's group in it.
fn cgroup_v2(mountinfo: &str, membership: &str) -> Option<CgroupV2> {
    let mount = mounts(mountinfo)
        .find_map(|(point, kind, _)| (kind == "cgroup2").then(|| PathBuf::from(point)))?;
    let own = v2_group(&mount, membership)?;
    let controllers = std::fs::read_to_string(mount.join("cgroup.controllers"))
        .unwrap_or_default()
        .split_whitespace()
        .map(str::to_string)
        .collect();
    Some(CgroupV2 {
        own,
        mount,
        controllers,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const MOUNTINFO: &str = "\
35 24 0:31 / /sys/fs/cgroup/cpu rw,relatime shared:9 - cgroup cgroup rw,cpu
36 24 0:32 / /sys/fs/cgroup/cpuacct rw,relatime shared:10 - cgroup cgroup rw,cpuacct
37 24 0:33 / /sys/fs/cgroup/memory rw,relatime shared:11 - cgroup cgroup rw,memory
38 24 0:34 / /sys/fs/cgroup/unified rw,relatime shared:12 - cgroup2 cgroup2 rw
39 24 0:35 / /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct
";

    #[test]
    fn a_controllers_group_is_found_from_mountinfo_and_membership() {
        let membership = "4:memory:/process_api/abc\n2:cpuacct:/\n0::/\n";
        assert_eq!(
            own_v1_group("memory", MOUNTINFO, membership),
            Some(PathBuf::from("/sys/fs/cgroup/memory/process_api/abc"))
        );
        assert_eq!(
            own_v1_group("cpuacct", MOUNTINFO, membership),
            Some(PathBuf::from("/sys/fs/cgroup/cpuacct"))
        );
        assert_eq!(own_v1_group("pids", MOUNTINFO, membership), None);
        // No pids hierarchy: no cgroup v1 accounting.
        assert_eq!(cgroup_v1(MOUNTINFO, membership), None);
    }

    #[test]
    fn the_unified_hierarchy_and_this_processs_group_in_it_are_found() {
        let membership = "0::/user.slice/user-1000.slice/app.slice/judge.scope\n";
        let v2 = cgroup_v2(MOUNTINFO, membership).unwrap();
        assert_eq!(v2.mount, PathBuf::from("/sys/fs/cgroup/unified"));
        assert_eq!(
            v2.own,
            PathBuf::from(
                "/sys/fs/cgroup/unified/user.slice/user-1000.slice/app.slice/judge.scope"
            )
        );
        assert_eq!(cgroup_v2("", membership), None);
    }

    #[test]
    fn the_kernel_version_is_read_from_its_release() {
        let mut host = Host::read();
        host.kernel = "6.1.0-47-amd64".into();
        assert_eq!(host.kernel_version(), Some((6, 1)));
        host.kernel = "6.12.95+deb12-amd64".into();
        assert_eq!(host.kernel_version(), Some((6, 12)));
        host.kernel = "weird".into();
        assert_eq!(host.kernel_version(), None);
    }
}
