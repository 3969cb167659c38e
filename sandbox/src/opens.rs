//! The paths a watched run asks to open ([`crate::Program::run_watched`]): read from
//! the asking process's memory while its call waits, resolved against its working directory
//! or the directory descriptor it names, and judged against what its jail lets it read.

use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;
use std::os::unix::fs::FileExt;
use std::path::{Component, Path, PathBuf};

use crate::sandbox::Jail;

/// The longest path read.
const PATH_MAX: usize = 4096;

/// The directories whose files no rule may open to a program, whatever it asks: the kernel's
/// views of processes and devices (another process's environment, the auditor's own).
const NEVER: [&str; 3] = ["/proc", "/sys", "/dev"];

/// The path process `pid` asks for: the string at `address` in its memory, relative to its
/// directory descriptor `directory` (`AT_FDCWD`: its working directory). `None` when it cannot
/// be read (the process is gone, or the address is not a string).
pub(crate) fn asked(pid: u32, directory: i32, address: u64) -> Option<PathBuf> {
    let memory = std::fs::File::open(format!("/proc/{pid}/mem")).ok()?;
    let mut bytes = Vec::new();
    let mut chunk = [0u8; 256];
    while bytes.len() < PATH_MAX {
        let read = memory
            .read_at(&mut chunk, address + bytes.len() as u64)
            .ok()?;
        if read == 0 {
            return None;
        }
        match chunk[..read].iter().position(|&b| b == 0) {
            Some(end) => {
                bytes.extend_from_slice(&chunk[..end]);
                break;
            }
            None => bytes.extend_from_slice(&chunk[..read]),
        }
    }
    if bytes.is_empty() {
        return None;
    }
    let path = PathBuf::from(OsString::from_vec(bytes));
    if path.is_absolute() {
        return Some(lexical(&path));
    }
    let base = if directory == libc::AT_FDCWD {
        std::fs::read_link(format!("/proc/{pid}/cwd")).ok()?
    } else {
        std::fs::read_link(format!("/proc/{pid}/fd/{directory}")).ok()?
    };
    Some(lexical(&base.join(path)))
}

/// `path` with its `.` and `..` components taken out, as written (links are not followed).
fn lexical(path: &Path) -> PathBuf {
    let mut clean = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                clean.pop();
            }
            other => clean.push(other),
        }
    }
    clean
}

/// Whether `path`, which a program of `jail` asked for, exists and is hidden from it by the
/// sandbox (and could be given to it: not under [`NEVER`]); a directory on the way to its own
/// files is not (its root holds it, as Python lists its script's directory).
pub(crate) fn hidden(jail: &Jail, path: &Path) -> bool {
    !jail.may_read(path)
        && !jail.leads_to_readable(path)
        && !NEVER.iter().any(|n| path.starts_with(n))
        && path.exists()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_cleaned_as_written() {
        assert_eq!(lexical(Path::new("/a/./b/../c")), PathBuf::from("/a/c"));
        assert_eq!(lexical(Path::new("/../x")), PathBuf::from("/x"));
    }

    #[test]
    fn a_string_is_read_from_a_process_memory() {
        let text = b"/some/where/file.txt\0";
        let address = text.as_ptr() as u64;
        let pid = std::process::id();
        assert_eq!(
            asked(pid, libc::AT_FDCWD, address),
            Some(PathBuf::from("/some/where/file.txt"))
        );
        let relative = b"sub/../file\0";
        let cwd = std::env::current_dir().unwrap();
        assert_eq!(
            asked(pid, libc::AT_FDCWD, relative.as_ptr() as u64),
            Some(cwd.join("file"))
        );
    }
}
