//! Opening a file that a tree walk found or that sits beside one (a case's `.in` and `.ans`, a
//! submission's `.out`): only a regular file whose real path is inside the tree the user named
//! is read, and no more of it than a bound.
//!
//! A symbolic link leaving the tree, a link to nothing, a FIFO, a socket or a device is refused
//! with a reason that reports show, never opened (a FIFO would block the run, `/dev/zero` would
//! fill memory). The file is opened without blocking and checked again after opening, so a
//! file swapped for a FIFO between the check and the open is refused too.

use std::fs::File;
use std::io::Read;
use std::path::Path;

/// A path as reports show it: `/`-separated, without a leading `./`, and unambiguous: a byte
/// that is not part of valid UTF-8, a control character or an invisible formatting character
/// ([`crate::util::text::invisible`]: a right-to-left override would show a name backwards) is written `\xHH` per
/// byte (two hexadecimal digits), and a backslash is written `\\`. Two different paths never
/// show alike.
pub fn display(path: &Path) -> String {
    #[cfg(unix)]
    let bytes = {
        use std::os::unix::ffi::OsStrExt;
        path.as_os_str().as_bytes().to_vec()
    };
    #[cfg(not(unix))]
    let bytes = path.to_string_lossy().replace('\\', "/").into_bytes();
    let bytes = bytes.strip_prefix(b"./").unwrap_or(&bytes);
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '\\' => out.push_str("\\\\"),
                c if c.is_control() || crate::util::text::invisible(c) => {
                    let mut buf = [0; 4];
                    for b in c.encode_utf8(&mut buf).bytes() {
                        out.push_str(&format!("\\x{b:02X}"));
                    }
                }
                c => out.push(c),
            }
        }
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02X}"));
        }
    }
    out
}

/// What kind of file this is, when it is not a regular file.
pub fn kind(file_type: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a FIFO";
        }
        if file_type.is_socket() {
            return "a socket";
        }
        if file_type.is_block_device() || file_type.is_char_device() {
            return "a device";
        }
    }
    if file_type.is_dir() {
        "a directory"
    } else {
        "not a regular file"
    }
}

/// A tree the user named: where files may be read from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tree {
    /// The tree's real path (symbolic links resolved).
    pub real: std::path::PathBuf,
    /// The tree as messages show it.
    pub shown: String,
}

impl Tree {
    /// The tree at `root` (a directory, or the directory holding a file named directly).
    pub fn new(root: &Path) -> std::io::Result<Tree> {
        let dir = if root.is_dir() {
            root
        } else {
            match root.parent() {
                Some(p) if !p.as_os_str().is_empty() => p,
                _ => Path::new("."),
            }
        };
        Ok(Tree {
            real: dir.canonicalize()?,
            shown: display(dir),
        })
    }
}

/// The most bytes an answer file of an input of `input_len` bytes can need: four times the
/// input (every game's shortest case is longer than a quarter of its verdict line) and 64 KiB.
pub fn answer_bound(input_len: u64) -> u64 {
    input_len.saturating_mul(4).saturating_add(64 << 10)
}

/// A regular file inside its tree, open for reading.
#[derive(Debug)]
pub struct Opened {
    /// The file, limited to the bound it was opened with.
    pub file: std::io::Take<File>,
    /// Its length when opened.
    pub len: u64,
}

/// Opens `path` if it is a regular file inside `tree` of at most `max_bytes` bytes; `Ok(None)`
/// when nothing is at `path`; otherwise why it is not read (a message for a report row).
pub fn open(path: &Path, tree: &Tree, max_bytes: u64) -> Result<Option<Opened>, NotRead> {
    let link = match path.symlink_metadata() {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(NotRead::Unreadable(e)),
    };
    let real = match path.canonicalize() {
        Ok(real) => real,
        Err(_) if link.file_type().is_symlink() => return Err(NotRead::DanglingLink),
        Err(e) => return Err(NotRead::Unreadable(e)),
    };
    if !real.starts_with(&tree.real) {
        return Err(NotRead::LeavesTree {
            tree: tree.shown.clone(),
        });
    }
    let meta = std::fs::metadata(&real).map_err(NotRead::Unreadable)?;
    if !meta.is_file() {
        return Err(NotRead::NotRegular {
            kind: kind(meta.file_type()),
        });
    }
    let file = open_regular(&real).map_err(NotRead::Unreadable)?;
    let len = file.metadata().map_err(NotRead::Metadata)?.len();
    if len > max_bytes {
        return Err(NotRead::TooLarge {
            len,
            most: max_bytes,
        });
    }
    Ok(Some(Opened {
        file: file.take(max_bytes),
        len,
    }))
}

/// The regular file `relative` of directory `dir` (a report another run wrote, a shard's
/// file), open for reading at most `max_bytes`: refused when `relative` is not a plain
/// relative path (absolute, or with `..`), when it resolves outside `dir` (a link leaving it),
/// or is not a regular file (a FIFO, a device: never opened to wait on or read without end).
pub fn open_in(dir: &Path, relative: &Path, max_bytes: u64) -> std::io::Result<Opened> {
    use std::path::Component;
    let path = dir.join(relative);
    let plain = relative
        .components()
        .all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
    let refused = |why: String| std::io::Error::other(format!("{}: {why}", display(&path)));
    if !plain || relative.as_os_str().is_empty() {
        return Err(refused(format!(
            "names a path outside {} (not read)",
            display(dir)
        )));
    }
    let tree = Tree::new(dir)?;
    match open(&path, &tree, max_bytes) {
        Ok(Some(opened)) => Ok(opened),
        Ok(None) => Err(std::io::Error::new(
            std::io::ErrorKind::NotFound,
            format!("{}: no such file", display(&path)),
        )),
        Err(why) => Err(refused(why.to_string())),
    }
}

/// Why a file beside an input (its `.ans`, a submission's output) is not read: a message for a
/// report row.
#[derive(Debug, thiserror::Error)]
pub enum NotRead {
    /// It cannot be examined or opened.
    #[error("unreadable: {0}")]
    Unreadable(std::io::Error),
    /// Its length cannot be read.
    #[error("{0}")]
    Metadata(std::io::Error),
    /// A symbolic link to nothing.
    #[error("a symbolic link to nothing")]
    DanglingLink,
    /// A symbolic link out of the tree.
    #[error("a symbolic link leaving {tree} (not followed)")]
    LeavesTree {
        /// The tree, as shown.
        tree: String,
    },
    /// Not a regular file (a directory, a FIFO, ...).
    #[error("{kind}, not a regular file (not read)")]
    NotRegular {
        /// What it is.
        kind: &'static str,
    },
    /// Longer than it can need to be.
    #[error("{len} bytes, more than the {most} it can need (not read)")]
    TooLarge {
        /// Its length.
        len: u64,
        /// The most it can need.
        most: u64,
    },
}

/// Opens `path` for reading without ever blocking on it, and only if what was opened is a
/// regular file.
pub fn open_regular(path: &Path) -> std::io::Result<File> {
    #[cfg(unix)]
    let file = {
        use rustix::fs::{Mode, OFlags};
        let fd = rustix::fs::open(
            path,
            OFlags::RDONLY | OFlags::NONBLOCK | OFlags::CLOEXEC,
            Mode::empty(),
        )?;
        File::from(fd)
    };
    #[cfg(not(unix))]
    let file = File::open(path)?;
    let file_type = file.metadata()?.file_type();
    if !file_type.is_file() {
        return Err(std::io::Error::other(format!(
            "{}, not a regular file (not read)",
            kind(file_type)
        )));
    }
    Ok(file)
}

/// [`open_regular`], with an error that names `path`.
pub fn open_regular_named(path: &Path) -> std::io::Result<File> {
    open_regular(path)
        .map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", path.display())))
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    #[test]
    fn a_file_named_by_another_runs_report_is_read_only_inside_its_directory() {
        let dir = tempfile::tempdir().unwrap();
        let shard = dir.path().join("shard");
        std::fs::create_dir_all(shard.join("programs")).unwrap();
        std::fs::write(shard.join("programs/a.in"), "1\n").unwrap();
        std::fs::write(dir.path().join("outside.txt"), "secret").unwrap();
        symlink("/dev/zero", shard.join("zero.in")).unwrap();
        symlink(dir.path().join("outside.txt"), shard.join("out.in")).unwrap();
        let fifo = shard.join("fifo.in");
        assert!(std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success());
        let mut text = String::new();
        open_in(&shard, Path::new("programs/a.in"), 100)
            .unwrap()
            .file
            .read_to_string(&mut text)
            .unwrap();
        assert_eq!(text, "1\n");
        for refused in [
            "../outside.txt",
            "programs/../../outside.txt",
            "/etc/passwd",
            "",
            "zero.in",
            "out.in",
            "fifo.in",
        ] {
            assert!(
                open_in(&shard, Path::new(refused), 100).is_err(),
                "{refused}"
            );
        }
        assert_eq!(
            open_in(&shard, Path::new("none.in"), 100)
                .unwrap_err()
                .kind(),
            std::io::ErrorKind::NotFound
        );
    }

    #[test]
    fn only_regular_files_inside_the_tree_are_opened() {
        let dir = tempfile::tempdir().unwrap();
        let tree_dir = dir.path().join("tree");
        std::fs::create_dir(&tree_dir).unwrap();
        std::fs::write(tree_dir.join("a.ans"), "X WINS\n").unwrap();
        std::fs::write(dir.path().join("secret"), "secret\n").unwrap();
        symlink(tree_dir.join("a.ans"), tree_dir.join("inside.ans")).unwrap();
        symlink(dir.path().join("secret"), tree_dir.join("leak.ans")).unwrap();
        symlink(tree_dir.join("gone"), tree_dir.join("dangling.ans")).unwrap();
        let fifo = std::process::Command::new("mkfifo")
            .arg(tree_dir.join("fifo.ans"))
            .status()
            .is_ok_and(|s| s.success());
        let tree = Tree::new(&tree_dir).unwrap();
        let read = |name: &str, max: u64| {
            open(&tree_dir.join(name), &tree, max)
                .map(|o| {
                    o.map(|mut o| {
                        let mut s = String::new();
                        o.file.read_to_string(&mut s).unwrap();
                        s
                    })
                })
                .map_err(|e| e.to_string())
        };
        assert_eq!(read("a.ans", 100), Ok(Some("X WINS\n".to_string())));
        assert_eq!(read("inside.ans", 100), Ok(Some("X WINS\n".to_string())));
        assert_eq!(read("none.ans", 100), Ok(None));
        assert!(read("leak.ans", 100).unwrap_err().contains("leaving"));
        assert!(read("dangling.ans", 100)
            .unwrap_err()
            .contains("link to nothing"));
        if fifo {
            assert!(read("fifo.ans", 100).unwrap_err().contains("a FIFO"));
            assert!(open_regular(&tree_dir.join("fifo.ans")).is_err());
        }
        assert!(read("a.ans", 3).unwrap_err().contains("7 bytes"));
    }

    #[test]
    fn names_show_unambiguously_and_never_reordered() {
        // A right-to-left override would show `exe.txt` as `txt.exe`; a zero-width space would
        // make two names look alike.
        assert_eq!(
            display(Path::new("a/\u{202E}txt.exe")),
            "a/\\xE2\\x80\\xAEtxt.exe"
        );
        assert_eq!(display(Path::new("x\u{200B}.in")), "x\\xE2\\x80\\x8B.in");
        assert_eq!(display(Path::new("./b\\c\n.in")), "b\\\\c\\x0A.in");
        assert_eq!(display(Path::new("plain/é.in")), "plain/é.in");
    }
}
