//! A package changed in one step, or not at all (`referee audit --add-to`).
//!
//! The changes (files written whole, relative to the package) are gathered in memory while the
//! audit runs; the package is not touched. [`PackageEdit::commit`] then writes a copy of the
//! package beside it (`.NAME.referee-edit-PID`: its files hard links to the package's, copies
//! where a link cannot be made, its symbolic links and modes as they are, owned as the
//! package's are), writes the changed files there (never through a link: a changed file is a
//! new file), and swaps the copy and the package in one step (`renameat2` with
//! `RENAME_EXCHANGE`). At every moment the package is the old one or the new one; a run
//! interrupted or failing before the swap leaves it as it was and removes the copy.
//!
//! What a commit needs is checked when the edit begins, before any work
//! ([`PackageEdit::begin`]): a directory that can be swapped (not a mount point, not immutable),
//! directories the copy's removal can empty, no immutable or append-only file (a copy would
//! lose the flag), the files referee edits inside the package (a symbolic link among them is
//! followed, and refused when it leaves the package; as a normal user, each the user's own, in
//! a group the user is in, so that the changed file keeps its owner and group). Then the commit
//! is rehearsed: the copy is written (as a normal user, a file of another user's that cannot be
//! linked is refused: its copy would be the user's) and swapped with the package and back, so
//! that a file system that cannot swap them (a directory of an overlayfs lower layer, a
//! container image's, gives `EXDEV`; NFS has no `RENAME_EXCHANGE`) refuses the audit before it
//! starts. The copy is the package's files themselves (hard links), so the package shows the
//! same files at every moment of the rehearsal.

use std::collections::BTreeMap;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::util::error::RunError;

/// The files of a package that `--add-to` may change, relative to it.
pub const EDITED: [&str; 6] = [
    "problem.yaml",
    "init.yml",
    "data/secret",
    "generators/generators.yaml",
    "generators/added",
    super::PACKAGE_MANIFEST,
];

/// Changes to one package, made at once by [`PackageEdit::commit`].
#[derive(Debug)]
pub struct PackageEdit {
    /// The package as the user named it (for messages).
    shown: PathBuf,
    /// Its real path.
    real: PathBuf,
    /// The new contents of the files changed or added, by their real path relative to the
    /// package.
    changes: BTreeMap<PathBuf, Vec<u8>>,
    /// The package's directory, open and locked (`flock`) from [`begin`](Self::begin) to the
    /// end of [`commit`](Self::commit): one edit of a package at a time, in whatever PID
    /// namespace, and every copy beside it not this edit's is an abandoned one.
    _held: fs::File,
}

/// Why a package cannot be changed in one step, found before any work.
#[derive(Debug, thiserror::Error)]
pub enum EditError {
    /// Another edit of the package (another audit's `--add-to`) is under way.
    #[error(
        "--add-to {0}: another audit is adding to it; one at a time (each would otherwise lose \
         the other's cases and limits)"
    )]
    Busy(PathBuf),
    /// Not a directory.
    #[error("--add-to {0}: not a directory")]
    NotADirectory(PathBuf),
    /// A directory that cannot be swapped.
    #[error(
        "--add-to {package}: is {why}; a package is changed by swapping it with its edited copy, \
         which cannot be done to it"
    )]
    Irreplaceable {
        /// The package.
        package: PathBuf,
        /// What it is.
        why: &'static str,
    },
    /// No copy can be written beside it.
    #[error(
        "--add-to {package}: cannot write its edited copy beside it in {parent} ({source}); the \
         package is changed by swapping it with that copy"
    )]
    NoRoomBeside {
        /// The package.
        package: PathBuf,
        /// Its parent directory.
        parent: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// A directory the old package's removal could not empty.
    #[error(
        "--add-to {package}: {dir} is another user's directory, which the old package's removal \
         cannot empty; run as its owner"
    )]
    NotOwned {
        /// The package.
        package: PathBuf,
        /// The directory.
        dir: PathBuf,
    },
    /// An edited file that is a link leaving the package.
    #[error(
        "--add-to {package}: {file} is a link to {target}, outside the package; referee changes \
         nothing outside it"
    )]
    LeavesPackage {
        /// The package.
        package: PathBuf,
        /// The file, relative to the package.
        file: String,
        /// Where it leads.
        target: PathBuf,
    },
    /// As a normal user, a file whose changed or copied version would change owner or group.
    #[error(
        "--add-to {package}: {file} is {whose}; changed by you, it would become yours: run as its \
         owner (or as root, which keeps every owner)"
    )]
    NotYours {
        /// The package.
        package: PathBuf,
        /// The file.
        file: PathBuf,
        /// Whose it is ("uid 1001's", "in group 1001, which you are not in").
        whose: String,
    },
    /// The commit, rehearsed before the audit, failed.
    #[error(
        "--add-to {package}: the swap that changes it, tried before the audit, failed: \
         {source}{hint}; nothing was changed"
    )]
    Rehearsal {
        /// The package.
        package: PathBuf,
        /// Why.
        source: io::Error,
        /// What the error usually means.
        hint: &'static str,
    },
    /// The package cannot be read.
    #[error("--add-to {package}: {source}")]
    Unreadable {
        /// The package.
        package: PathBuf,
        /// Why.
        source: io::Error,
    },
}

impl crate::util::error::RunRefusal for EditError {}

impl PackageEdit {
    /// Begins changing `package`, checking now what [`commit`](Self::commit) needs (the
    /// module's list), so that the audit is refused before any work rather than after it.
    pub fn begin(package: &Path) -> Result<PackageEdit, EditError> {
        let unreadable = |source| EditError::Unreadable {
            package: package.to_path_buf(),
            source,
        };
        let real = package.canonicalize().map_err(unreadable)?;
        if !real.is_dir() {
            return Err(EditError::NotADirectory(package.to_path_buf()));
        }
        if let Err(e) = crate::formats::write::irreplaceable(&real) {
            return Err(EditError::Irreplaceable {
                package: package.to_path_buf(),
                why: e.why,
            });
        }
        let held = fs::File::open(&real).map_err(unreadable)?;
        match held.try_lock() {
            Ok(()) => {}
            Err(fs::TryLockError::WouldBlock) => {
                return Err(EditError::Busy(package.to_path_buf()))
            }
            Err(fs::TryLockError::Error(e)) => return Err(unreadable(e)),
        }
        let edit = PackageEdit {
            shown: package.to_path_buf(),
            real,
            changes: BTreeMap::new(),
            _held: held,
        };
        for file in EDITED {
            let inner = edit.inner(Path::new(file))?;
            edit.check_yours(&inner)?;
        }
        edit.check_tree()?;
        let copy = edit.copy_path();
        remove_abandoned(&edit.real);
        fs::create_dir(&copy)
            .and_then(|()| fs::remove_dir(&copy))
            .map_err(|source| EditError::NoRoomBeside {
                package: package.to_path_buf(),
                parent: copy.parent().map(Path::to_path_buf).unwrap_or_default(),
                source,
            })?;
        let rehearsed = edit.rehearse(&copy);
        let _ = remove_tree(&copy);
        rehearsed?;
        Ok(edit)
    }

    /// The package's directories must be ones the old package's removal can empty (the
    /// user's own, or any as root), and none of its directories or files immutable or
    /// append-only.
    fn check_tree(&self) -> Result<(), EditError> {
        use std::os::unix::fs::MetadataExt;
        let root = rustix::process::geteuid().is_root();
        let me = rustix::process::geteuid().as_raw();
        for entry in walkdir::WalkDir::new(&self.real).follow_links(false) {
            let entry = entry.map_err(|e| EditError::Unreadable {
                package: self.shown.clone(),
                source: e.into(),
            })?;
            if entry.file_type().is_symlink() {
                continue;
            }
            let meta = entry.metadata().map_err(|e| EditError::Unreadable {
                package: self.shown.clone(),
                source: e.into(),
            })?;
            if entry.file_type().is_dir() && !root && meta.uid() != me {
                return Err(EditError::NotOwned {
                    package: self.shown.clone(),
                    dir: entry.path().to_path_buf(),
                });
            }
            if let Err(e) = crate::formats::write::irreplaceable(entry.path()) {
                if e.why != "a mount point" || entry.depth() > 0 {
                    return Err(EditError::Irreplaceable {
                        package: entry.path().to_path_buf(),
                        why: e.why,
                    });
                }
            }
        }
        Ok(())
    }

    /// As a normal user, an edited file (`inner`, relative to the package) that exists must be
    /// the user's own and in one of the user's groups: its changed version is written by the
    /// user and given that group. Root gives every file its owner back.
    fn check_yours(&self, inner: &Path) -> Result<(), EditError> {
        use std::os::unix::fs::MetadataExt;
        let path = self.real.join(inner);
        let Ok(meta) = fs::symlink_metadata(&path) else {
            return Ok(());
        };
        if rustix::process::geteuid().is_root() || !meta.is_file() {
            return Ok(());
        }
        let whose = if meta.uid() != rustix::process::geteuid().as_raw() {
            format!("uid {}'s", meta.uid())
        } else if !in_group(meta.gid()) {
            format!("in group {}, which you are not in", meta.gid())
        } else {
            return Ok(());
        };
        Err(EditError::NotYours {
            package: self.shown.clone(),
            file: self.shown.join(inner),
            whose,
        })
    }

    /// Writes the copy at `copy` (where nothing is) and swaps it with the package and back:
    /// what the commit does, with the package's own files.
    fn rehearse(&self, copy: &Path) -> Result<(), EditError> {
        let failed = |source: io::Error| {
            let hint = match rustix::io::Errno::from_io_error(&source) {
                Some(rustix::io::Errno::XDEV) => {
                    " (an overlayfs lower layer, a container image's, cannot move its \
                     directories: copy the package out of the image, or into a volume)"
                }
                Some(rustix::io::Errno::INVAL) => {
                    " (a file system without RENAME_EXCHANGE, such as NFS: copy the package to a \
                     local disk)"
                }
                _ => "",
            };
            EditError::Rehearsal {
                package: self.shown.clone(),
                source,
                hint,
            }
        };
        mirror(&self.real, copy).map_err(|e| match e.downcast::<NotYours>() {
            Ok(theirs) => EditError::NotYours {
                package: self.shown.clone(),
                file: self.shown.join(theirs.relative),
                whose: format!("uid {}'s and cannot be linked", theirs.uid),
            },
            Err(e) => failed(e),
        })?;
        // The copy is locked too while it stands in the package's place: another edit that
        // opens the package's path then finds it held.
        let held = fs::File::open(copy).map_err(failed)?;
        held.try_lock()
            .map_err(|e| failed(io::Error::other(e.to_string())))?;
        crate::formats::write::exchange(copy, &self.real).map_err(failed)?;
        crate::formats::write::exchange(copy, &self.real).map_err(failed)
    }

    /// The real path of `relative` inside the package, relative to it: symbolic links
    /// followed, refused when they leave it.
    fn inner(&self, relative: &Path) -> Result<PathBuf, EditError> {
        let real = crate::formats::write::real_path(&self.real.join(relative));
        match real.strip_prefix(&self.real) {
            Ok(inside) => Ok(inside.to_path_buf()),
            Err(_) => Err(EditError::LeavesPackage {
                package: self.shown.clone(),
                file: relative.display().to_string(),
                target: real,
            }),
        }
    }

    /// The package as the user named it.
    pub fn package(&self) -> &Path {
        &self.shown
    }

    /// The contents of `relative` as the edit leaves it: changed, or the package's (`None`
    /// when it has no such file).
    pub fn read(&self, relative: &Path) -> Result<Option<Vec<u8>>, RunError> {
        let inner = self.inner(relative)?;
        if let Some(bytes) = self.changes.get(&inner) {
            return Ok(Some(bytes.clone()));
        }
        let path = self.real.join(&inner);
        match crate::util::guard::open_regular(&path) {
            Ok(mut file) => {
                let mut bytes = Vec::new();
                io::Read::read_to_end(&mut file, &mut bytes).map_err(|e| RunError::io(&path, e))?;
                Ok(Some(bytes))
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(RunError::io(&path, e)),
        }
    }

    /// Whether `relative` exists, in the package or among the changes.
    pub fn exists(&self, relative: &Path) -> bool {
        self.inner(relative)
            .is_ok_and(|inner| self.changes.contains_key(&inner) || self.real.join(inner).exists())
    }

    /// The names of the files in directory `relative`, the package's and the ones added.
    pub fn list(&self, relative: &Path) -> Result<Vec<String>, RunError> {
        let inner = self.inner(relative)?;
        let dir = self.real.join(&inner);
        let mut names: Vec<String> = match fs::read_dir(&dir) {
            Ok(entries) => entries
                .filter_map(Result::ok)
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect(),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Vec::new(),
            Err(e) => return Err(RunError::io(&dir, e)),
        };
        names.extend(
            (self.changes.keys())
                .filter(|p| p.parent() == Some(inner.as_path()))
                .filter_map(|p| p.file_name())
                .map(|n| n.to_string_lossy().into_owned()),
        );
        names.sort();
        names.dedup();
        Ok(names)
    }

    /// Sets the contents of `relative` (a file changed or added).
    pub fn write(&mut self, relative: &Path, bytes: Vec<u8>) -> Result<(), RunError> {
        let inner = self.inner(relative)?;
        self.changes.insert(inner, bytes);
        Ok(())
    }

    /// Whether nothing is to change.
    pub fn is_empty(&self) -> bool {
        self.changes.is_empty()
    }

    /// Where the edited copy is written: beside the package.
    fn copy_path(&self) -> PathBuf {
        let name = self.real.file_name().unwrap_or_default().to_string_lossy();
        self.real
            .with_file_name(format!(".{name}.referee-edit-{}", std::process::id()))
    }

    /// Makes the changes in one step (the module's description); nothing when there are none,
    /// or when `stop()` says so before the swap (an interrupt), which leaves the package as it
    /// was. Whether the package was changed.
    pub fn commit(self, stop: impl Fn() -> bool) -> Result<bool, RunError> {
        if self.changes.is_empty() {
            return Ok(false);
        }
        let copy = self.copy_path();
        let made = self.write_copy(&copy);
        if made.is_err() || stop() {
            let _ = remove_tree(&copy);
            return made.map(|()| false);
        }
        crate::formats::write::exchange(&copy, &self.real).map_err(|e| {
            let _ = remove_tree(&copy);
            RunError::io(&self.real, e)
        })?;
        // The old package is now at the copy's path; the change is made whatever its removal
        // does.
        if let Err(e) = remove_tree(&copy) {
            eprintln!(
                "audit: {} is changed; its old files are left in {} ({e})",
                self.shown.display(),
                copy.display()
            );
        }
        Ok(true)
    }

    /// Writes the package with its changes at `copy`; errors name the package's path, not the
    /// copy's.
    fn write_copy(&self, copy: &Path) -> Result<(), RunError> {
        self.write_copy_at(copy).map_err(|(path, e)| {
            let inner = path.strip_prefix(copy).unwrap_or(&path);
            RunError::io(&self.shown.join(inner), e)
        })
    }

    /// [`write_copy`](Self::write_copy), its errors with the path they arose at.
    fn write_copy_at(&self, copy: &Path) -> Result<(), (PathBuf, io::Error)> {
        let at = |path: &Path| {
            let path = path.to_path_buf();
            move |e| (path, e)
        };
        mirror(&self.real, copy).map_err(at(copy))?;
        for (inner, bytes) in &self.changes {
            let path = copy.join(inner);
            let mode = fs::symlink_metadata(&path).ok().map(|m| m.permissions());
            let owner = owner_of(&self.real.join(inner))
                .or_else(|| self.real.join(inner).parent().and_then(owner_of));
            if mode.is_some() {
                fs::remove_file(&path).map_err(at(&path))?;
            }
            if let Some(parent) = path.parent() {
                make_directories(copy, parent, &self.real).map_err(at(parent))?;
            }
            let written = fs::File::create_new(&path).and_then(|mut file| {
                file.write_all(bytes)?;
                if let Some(mode) = mode {
                    file.set_permissions(mode)?;
                }
                file.sync_all()
            });
            written.map_err(at(&path))?;
            if let Some((uid, gid)) = owner {
                give(&path, uid, gid).map_err(at(&path))?;
            }
        }
        fs::File::open(copy)
            .and_then(|dir| dir.sync_all())
            .map_err(at(copy))
    }
}

/// The owner of `path` (not following a link), when it can be read.
fn owner_of(path: &Path) -> Option<(u32, u32)> {
    use std::os::unix::fs::MetadataExt;
    fs::symlink_metadata(path).ok().map(|m| (m.uid(), m.gid()))
}

/// Gives `path` to `uid`:`gid` when running as root (the package keeps its owners); as a
/// normal user, whose own every file written is, gives it group `gid` (one of the user's:
/// [`PackageEdit::begin`] checks the edited files') when it is not in it already.
fn give(path: &Path, uid: u32, gid: u32) -> io::Result<()> {
    use std::os::unix::fs::MetadataExt;
    if rustix::process::geteuid().is_root() {
        std::os::unix::fs::lchown(path, Some(uid), Some(gid))?;
    } else if fs::symlink_metadata(path)?.gid() != gid && in_group(gid) {
        std::os::unix::fs::lchown(path, None, Some(gid))?;
    }
    Ok(())
}

/// Whether this process is in group `gid` (its own or a supplementary one).
fn in_group(gid: u32) -> bool {
    rustix::process::getegid().as_raw() == gid
        || rustix::process::getgroups().is_ok_and(|groups| groups.iter().any(|g| g.as_raw() == gid))
}

/// A file of another user's that a normal user's copy of the package would take: it cannot
/// be hard-linked (`fs.protected_hardlinks`), and its copy would be the user's.
#[derive(Debug, thiserror::Error)]
#[error("{relative}: uid {uid}'s file, which cannot be linked")]
struct NotYours {
    /// The file, relative to the package.
    relative: String,
    /// Its owner.
    uid: u32,
}

/// Makes the directories down to `dir` inside `copy`, each with the mode and owner of its
/// counterpart in `package` when it has one.
fn make_directories(copy: &Path, dir: &Path, package: &Path) -> io::Result<()> {
    if dir.exists() {
        return Ok(());
    }
    if let Some(parent) = dir.parent() {
        make_directories(copy, parent, package)?;
    }
    fs::create_dir(dir)?;
    let relative = dir.strip_prefix(copy).unwrap_or(dir);
    if let Some((uid, gid)) = package
        .join(relative)
        .parent()
        .and_then(owner_of)
        .or_else(|| owner_of(package))
    {
        give(dir, uid, gid)?;
    }
    Ok(())
}

/// Writes at `copy` a tree like `package`: its directories (mode and owner kept, made
/// writable by the owner while the copy is written), its symbolic links as they are, its
/// files hard-linked (copied where a link cannot be made).
fn mirror(package: &Path, copy: &Path) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let mut modes = Vec::new();
    for entry in walkdir::WalkDir::new(package).follow_links(false) {
        let entry = entry?;
        let relative = entry.path().strip_prefix(package).unwrap_or(entry.path());
        let to = copy.join(relative);
        let meta = entry.metadata()?;
        let kind = entry.file_type();
        if kind.is_dir() {
            fs::create_dir(&to)?;
            fs::set_permissions(&to, fs::Permissions::from_mode(0o700))?;
            modes.push((to.clone(), meta.permissions()));
        } else if kind.is_symlink() {
            std::os::unix::fs::symlink(fs::read_link(entry.path())?, &to)?;
        } else if fs::hard_link(entry.path(), &to).is_ok() {
            continue;
        } else if kind.is_file()
            && !rustix::process::geteuid().is_root()
            && meta.uid() != rustix::process::geteuid().as_raw()
        {
            return Err(io::Error::other(NotYours {
                relative: relative.display().to_string(),
                uid: meta.uid(),
            }));
        } else if kind.is_file() {
            fs::copy(entry.path(), &to)?;
        } else {
            // A FIFO, socket or device that cannot be linked is never opened (a FIFO would
            // block): the edit fails, and the package stays as it is.
            return Err(io::Error::other(format!(
                "{}: {}, which cannot be linked into the edited copy",
                entry.path().display(),
                crate::util::guard::kind(kind)
            )));
        }
        use std::os::unix::fs::MetadataExt;
        give(&to, meta.uid(), meta.gid())?;
    }
    // The deepest first: a directory's mode may forbid writing into it.
    for (dir, mode) in modes.into_iter().rev() {
        fs::set_permissions(&dir, mode)?;
    }
    Ok(())
}

/// Removes the tree at `path`, making its directories writable first (a package may hold
/// read-only ones).
fn remove_tree(path: &Path) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    if !path.exists() {
        return Ok(());
    }
    for entry in walkdir::WalkDir::new(path).follow_links(false) {
        let entry = entry?;
        if entry.file_type().is_dir() {
            let mode = entry.metadata()?.permissions().mode();
            fs::set_permissions(entry.path(), fs::Permissions::from_mode(mode | 0o700))?;
        }
    }
    fs::remove_dir_all(path)
}

/// Removes the copies of `package` that killed runs left beside it: with the package's lock
/// held, every copy is one (a link or a file named like one is left as it is).
fn remove_abandoned(package: &Path) {
    let (Some(parent), Some(name)) = (package.parent(), package.file_name()) else {
        return;
    };
    let prefix = format!(".{}.referee-edit-", name.to_string_lossy());
    let Ok(entries) = fs::read_dir(parent) else {
        return;
    };
    for entry in entries.filter_map(Result::ok) {
        let file = entry.file_name().to_string_lossy().into_owned();
        let Some(pid) = file.strip_prefix(&prefix) else {
            continue;
        };
        if pid.parse::<u32>().is_ok() && entry.file_type().is_ok_and(|t| t.is_dir()) {
            let _ = remove_tree(&entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn package() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("p");
        fs::create_dir_all(p.join("data/secret")).unwrap();
        fs::write(p.join("problem.yaml"), "name: x\n").unwrap();
        fs::write(p.join("data/secret/001.in"), "1\n").unwrap();
        dir
    }

    #[test]
    fn a_commit_changes_the_package_at_once_and_keeps_the_rest() {
        let dir = package();
        let p = dir.path().join("p");
        std::os::unix::fs::symlink("data/secret/001.in", p.join("link")).unwrap();
        let mut edit = PackageEdit::begin(&p).unwrap();
        edit.write(Path::new("problem.yaml"), b"name: y\n".to_vec())
            .unwrap();
        edit.write(Path::new("generators/added/a.in"), b"2\n".to_vec())
            .unwrap();
        assert_eq!(fs::read(p.join("problem.yaml")).unwrap(), b"name: x\n");
        assert!(edit.commit(|| false).unwrap());
        assert_eq!(fs::read(p.join("problem.yaml")).unwrap(), b"name: y\n");
        assert_eq!(fs::read(p.join("generators/added/a.in")).unwrap(), b"2\n");
        assert_eq!(fs::read(p.join("data/secret/001.in")).unwrap(), b"1\n");
        assert!(fs::symlink_metadata(p.join("link"))
            .unwrap()
            .file_type()
            .is_symlink());
        let left: Vec<_> = fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(left.len(), 1, "no copy left beside the package");
    }

    #[test]
    fn an_interrupted_commit_leaves_the_package_as_it_was() {
        let dir = package();
        let p = dir.path().join("p");
        let mut edit = PackageEdit::begin(&p).unwrap();
        edit.write(Path::new("problem.yaml"), b"name: y\n".to_vec())
            .unwrap();
        assert!(!edit.commit(|| true).unwrap());
        assert_eq!(fs::read(p.join("problem.yaml")).unwrap(), b"name: x\n");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn a_link_leaving_the_package_is_refused_before_any_work() {
        let dir = package();
        let p = dir.path().join("p");
        let outside = dir.path().join("outside");
        fs::create_dir(&outside).unwrap();
        fs::remove_dir_all(p.join("data/secret")).unwrap();
        std::os::unix::fs::symlink(&outside, p.join("data/secret")).unwrap();
        let refused = PackageEdit::begin(&p).unwrap_err();
        assert!(
            matches!(refused, EditError::LeavesPackage { .. }),
            "{refused}"
        );
    }

    #[test]
    fn a_file_linked_inside_the_package_is_changed_where_it_is() {
        let dir = package();
        let p = dir.path().join("p");
        fs::create_dir(p.join("config")).unwrap();
        fs::rename(p.join("problem.yaml"), p.join("config/problem.yaml")).unwrap();
        std::os::unix::fs::symlink("config/problem.yaml", p.join("problem.yaml")).unwrap();
        let mut edit = PackageEdit::begin(&p).unwrap();
        edit.write(Path::new("problem.yaml"), b"name: y\n".to_vec())
            .unwrap();
        edit.commit(|| false).unwrap();
        assert!(fs::symlink_metadata(p.join("problem.yaml"))
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(
            fs::read(p.join("config/problem.yaml")).unwrap(),
            b"name: y\n"
        );
    }

    #[test]
    fn two_edits_of_one_package_at_once_are_refused_not_lost() {
        let dir = package();
        let p = dir.path().join("p");
        let first = PackageEdit::begin(&p).unwrap();
        match PackageEdit::begin(&p) {
            Err(EditError::Busy(package)) => assert_eq!(package, p),
            other => panic!("{:?}", other.map(|_| ())),
        }
        drop(first);
        // Once the first is done, the next may begin.
        PackageEdit::begin(&p).unwrap();
    }

    #[test]
    fn a_copy_left_under_a_live_process_number_does_not_block_the_next_edit() {
        // A copy a killed run left under process number 1 (a container's first process,
        // alive in every namespace).
        let dir = package();
        let p = dir.path().join("p");
        let left = dir.path().join(".p.referee-edit-1");
        fs::create_dir_all(left.join("data")).unwrap();
        let mut edit = PackageEdit::begin(&p).unwrap();
        assert!(!left.exists());
        edit.write(Path::new("problem.yaml"), b"name: y\n".to_vec())
            .unwrap();
        assert!(edit.commit(|| false).unwrap());
        assert_eq!(
            fs::read_to_string(p.join("problem.yaml")).unwrap(),
            "name: y\n"
        );
    }
}
