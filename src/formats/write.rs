//! Replacing a directory of reports as one: a run writes all its reports (CSV, RFC 4180, and a
//! JSON manifest) into a fresh *staging* directory beside the report directory, syncs them, and
//! then swaps the two directories in one atomic step (`renameat2` with `RENAME_EXCHANGE` on
//! Linux). At every moment the report directory holds one complete run: a run killed at any
//! point, or several runs into one directory at once, never leave reports of two runs mixed,
//! or half written. Other files already in the directory (another subcommand's reports) are
//! carried over into the new one, and its subdirectories (`reports/audit` under `reports`) are
//! moved into it right after the swap; should a run be killed in between, the next commit
//! beside it moves them back.
//!
//! The staging directory is created before the run does any work, so an unwritable report
//! directory fails the run at once. Commits into one directory are serialised by a lock on its
//! parent directory. A run ended by a signal removes its staging directory, the report
//! directory keeping the previous run's reports ([`clean_up_on_signals`]).

use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use serde::Serialize;

/// A report file's digest: its rows (lines) and the FNV-1a hash of its bytes, so that readers
/// can tell that the files of a directory belong together.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Digest {
    /// Records in the file, the header excluded (for CSV), or lines.
    pub rows: u64,
    /// FNV-1a of the file's bytes, in hexadecimal.
    #[serde(with = "hex")]
    pub fnv1a: u64,
}

mod hex {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &u64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format!("{v:016x}"))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
        let text = String::deserialize(d)?;
        u64::from_str_radix(&text, 16).map_err(serde::de::Error::custom)
    }
}

impl Digest {
    /// The digest of `bytes`.
    pub fn of(bytes: &[u8], header_rows: u64) -> Digest {
        let lines = bytes.iter().filter(|&&b| b == b'\n').count() as u64;
        Digest {
            rows: lines.saturating_sub(header_rows),
            fnv1a: crate::util::hash::fnv1a(bytes),
        }
    }

    /// The digest of the regular file at `path` (a FIFO or a device is refused, never read),
    /// read a buffer at a time.
    pub fn of_file(path: &Path, header_rows: u64) -> io::Result<Digest> {
        Digest::of_read(crate::util::guard::open_regular(path)?, header_rows)
    }

    /// The digest of what `reader` holds, read a buffer at a time.
    pub fn of_read(mut reader: impl io::Read, header_rows: u64) -> io::Result<Digest> {
        let mut hashing = Hashing::new(io::sink());
        io::copy(&mut reader, &mut hashing)?;
        Ok(hashing.digest(header_rows))
    }
}

/// The real path of `path`, which need not exist yet: its longest existing ancestor resolved
/// (links followed), the rest appended, `.` and `..` taken away.
pub fn real_path(path: &Path) -> PathBuf {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut existing = absolute.as_path();
    let mut rest = Vec::new();
    let resolved = loop {
        match fs::canonicalize(existing) {
            Ok(real) => break real,
            Err(_) => match (existing.parent(), existing.file_name()) {
                (Some(parent), Some(name)) => {
                    rest.push(name.to_os_string());
                    existing = parent;
                }
                _ => break existing.to_path_buf(),
            },
        }
    };
    let mut real = resolved;
    for part in rest.iter().rev() {
        match part.to_str() {
            Some("..") => {
                real.pop();
            }
            Some(".") => {}
            _ => real.push(part),
        }
    }
    real
}

/// Whether the report directory `out` is `dir` or lies inside it: reports that replace their
/// directory as a whole would replace, or be written into, that tree.
pub fn inside(out: &Path, dir: &Path) -> bool {
    real_path(out).starts_with(real_path(dir))
}

/// Replaces the file `path` with `bytes` in one step: they are written and synced beside it
/// under a temporary name, then renamed over it, so a reader sees the old file or the new one,
/// never a part.
pub fn replace_file(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut file = AtomicFile::create(path)?;
    file.write_all(bytes)?;
    file.commit(true)
}

/// A file written under a temporary name beside its place (`.NAME.referee-PID-N`), and renamed
/// there once whole ([`commit`](Self::commit)): a reader sees the old file or the new one, and a
/// run that fails halfway (a full disk, an error) leaves no part of it under its name. Dropped
/// without a commit, the temporary file is removed.
#[derive(Debug)]
pub struct AtomicFile {
    path: PathBuf,
    temporary: PathBuf,
    writer: Option<BufWriter<fs::File>>,
}

impl AtomicFile {
    /// Starts writing the file `path`.
    pub fn create(path: &Path) -> io::Result<AtomicFile> {
        let name = path
            .file_name()
            .ok_or_else(|| {
                io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!("{}: not a file name", path.display()),
                )
            })?
            .to_string_lossy()
            .to_string();
        let parent = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        static SERIAL: AtomicU64 = AtomicU64::new(0);
        let temporary = parent.join(format!(
            ".{name}.referee-{}-{}",
            std::process::id(),
            SERIAL.fetch_add(1, Ordering::Relaxed)
        ));
        let file = fs::File::create(&temporary)?;
        Ok(AtomicFile {
            path: path.to_path_buf(),
            temporary,
            writer: Some(BufWriter::new(file)),
        })
    }

    /// Puts the file in its place, synced to the disk first when `sync`.
    pub fn commit(mut self, sync: bool) -> io::Result<()> {
        let writer = self.writer.take().expect("not committed yet");
        let done = writer
            .into_inner()
            .map_err(io::IntoInnerError::into_error)
            .and_then(|file| if sync { file.sync_all() } else { Ok(()) })
            .and_then(|()| fs::rename(&self.temporary, &self.path));
        if done.is_err() {
            let _ = fs::remove_file(&self.temporary);
        }
        done
    }
}

impl Write for AtomicFile {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.writer.as_mut().expect("not committed").write(bytes)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.writer.as_mut().expect("not committed").flush()
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.writer.take().is_some() {
            let _ = fs::remove_file(&self.temporary);
        }
    }
}

/// Ends the process at the named point of a commit when `REFEREE_FAILPOINT` names it: the fault
/// tests use it to kill a run exactly between two steps.
fn failpoint(name: &str) {
    if std::env::var_os("REFEREE_FAILPOINT").is_some_and(|v| v == name) {
        std::process::abort();
    }
}

/// The reports of one run, written into a staging directory until [`Staging::commit`] puts
/// them in place.
#[derive(Debug)]
pub struct Staging {
    /// The report directory.
    dir: PathBuf,
    /// The staging directory beside it.
    path: PathBuf,
    /// The files written so far.
    written: Vec<String>,
    /// The manifests written (their names): the files the previous manifest of the same name
    /// lists are this command's own, replaced rather than kept.
    manifests: Vec<String>,
    committed: bool,
    /// The staging directory, open and locked (`flock`) for as long as this run may use it:
    /// what tells a live run's staging directory from an abandoned one, across PID
    /// namespaces too (containers on a shared volume), where a process number says nothing.
    _held: fs::File,
}

/// The staging directories of this process not committed yet; a commit holds the lock, so that
/// a signal never removes a staging directory halfway through its switch.
static STAGED: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Until the returned handle is closed, SIGINT, SIGTERM and SIGHUP end the process cleanly: the
/// staging directories not yet committed are removed (a commit in progress ends first), it is
/// said on standard error that the reports are the previous run's, and the process exits with
/// 128 + the signal.
pub fn clean_up_on_signals() -> io::Result<signal_hook::iterator::Handle> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])?;
    let handle = signals.handle();
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            let staged = STAGED.lock().unwrap_or_else(|e| e.into_inner());
            for path in staged.iter() {
                // Files may still be appearing in it: a few tries.
                for _ in 0..10 {
                    if fs::remove_dir_all(path).is_ok() || !path.exists() {
                        break;
                    }
                }
            }
            eprintln!(
                "interrupted by signal {signal}: no report written (the report directory keeps \
                 the previous run's)"
            );
            std::process::exit(128 + signal);
        }
    });
    Ok(handle)
}

/// Whether `dir` can be replaced by a new report directory, found before any work: a
/// directory (or nothing yet), not holding the current directory, holding nothing that could
/// not be carried over, and not a mount point or immutable.
fn replaceable(dir: &Path) -> io::Result<()> {
    let invalid = |why: String| io::Error::new(io::ErrorKind::InvalidInput, why);
    match fs::metadata(dir) {
        Ok(m) if !m.is_dir() => {
            return Err(invalid(format!(
                "{}: exists and is not a directory",
                dir.display()
            )))
        }
        Ok(_) => {
            let here = std::env::current_dir()?.canonicalize()?;
            if here.starts_with(dir) {
                return Err(invalid(format!(
                    "{}: holds the current directory; reports replace their directory as a \
                     whole, so give them one of their own",
                    dir.display()
                )));
            }
            // Its files and subdirectories go into the new directory, its links are made
            // again; nothing else could be (a FIFO, a socket, a device): refused now.
            for entry in fs::read_dir(dir)? {
                let entry = entry?;
                let file_type = entry.file_type()?;
                if !(file_type.is_file() || file_type.is_dir() || file_type.is_symlink()) {
                    return Err(invalid(format!(
                        "{}: is {}; reports replace their directory as a whole, and it \
                         would not be kept: move it out, or give the reports a directory \
                         of their own",
                        crate::util::guard::display(&entry.path()),
                        crate::util::guard::kind(file_type)
                    )));
                }
            }
            irreplaceable(dir).map_err(|e| invalid(e.to_string()))?;
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    Ok(())
}

/// A new staging directory for report directory `name` in `parent`, open and locked: made and
/// locked under the parent's lock, which a commit's removal of abandoned staging directories
/// holds, so none sees it unlocked. A name taken (the same process number in another PID
/// namespace) is passed over.
fn create_locked(parent: &Path, name: &str) -> io::Result<(PathBuf, fs::File)> {
    fs::create_dir_all(parent)?;
    static SERIAL: AtomicU64 = AtomicU64::new(0);
    let parent_lock = fs::File::open(parent)?;
    parent_lock.lock()?;
    let mut staged = STAGED.lock().unwrap_or_else(|e| e.into_inner());
    let path = loop {
        let path = parent.join(format!(
            "{}{}-{}",
            staging_prefix(name),
            std::process::id(),
            SERIAL.fetch_add(1, Ordering::Relaxed)
        ));
        match fs::create_dir(&path) {
            Ok(()) => break path,
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    };
    staged.push(path.clone());
    drop(staged);
    let held = fs::File::open(&path)?;
    held.lock()?;
    drop(parent_lock);
    Ok((path, held))
}

/// The prefix of staging directories of report directory `name`.
fn staging_prefix(name: &str) -> String {
    format!(".{name}.referee-")
}

impl Staging {
    /// Prepares to replace the reports in `dir`: it must be a directory holding only files, or
    /// not exist yet (it is created), and the staging directory is created beside it now.
    pub fn new(dir: &Path) -> io::Result<Staging> {
        let invalid = |why: String| io::Error::new(io::ErrorKind::InvalidInput, why);
        let name = dir
            .file_name()
            .filter(|n| *n != "." && *n != "..")
            .ok_or_else(|| invalid(format!("{}: not a directory of its own", dir.display())))?
            .to_string_lossy()
            .to_string();
        // A report directory that is a symbolic link is replaced where it points.
        let dir = match fs::canonicalize(dir) {
            Ok(real) => real,
            Err(e) if e.kind() == io::ErrorKind::NotFound => dir.to_path_buf(),
            Err(e) => return Err(e),
        };
        replaceable(&dir)?;
        let parent = match dir.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let (path, held) = create_locked(&parent, &name)?;
        // The new directory takes the old one's mode (a setgid bit too) and group.
        if let Ok(meta) = fs::metadata(&dir) {
            use std::os::unix::fs::{MetadataExt, PermissionsExt};
            let _ = std::os::unix::fs::chown(&path, None, Some(meta.gid()));
            fs::set_permissions(&path, fs::Permissions::from_mode(meta.mode() & 0o7777))?;
        }
        Ok(Staging {
            dir,
            path,
            written: Vec::new(),
            manifests: Vec::new(),
            committed: false,
            _held: held,
        })
    }

    /// The report directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The staging directory, where the reports are until [`commit`](Self::commit): a caller
    /// may make subdirectories there (they replace the previous run's of the same name).
    pub fn staged(&self) -> &Path {
        &self.path
    }

    fn create(&mut self, name: &str) -> io::Result<fs::File> {
        self.written.push(name.to_string());
        fs::File::create(self.path.join(name))
    }

    /// Writes CSV report `name`: `header`, then `records`; returns its digest.
    pub fn csv<I, R>(&mut self, name: &str, header: &[&str], records: I) -> io::Result<Digest>
    where
        I: IntoIterator<Item = R>,
        R: IntoIterator,
        R::Item: AsRef<[u8]>,
    {
        let mut sink = self.csv_sink(name, header)?;
        for r in records {
            sink.write(r)?;
        }
        sink.finish()
    }

    /// Starts CSV report `name` with `header`, to be written record by record
    /// ([`CsvSink::write`]) and ended with [`CsvSink::finish`], which gives its digest: a report
    /// of any length costs a buffer.
    pub fn csv_sink(&mut self, name: &str, header: &[&str]) -> io::Result<CsvSink> {
        let file = self.create(name)?;
        let mut writer = csv::Writer::from_writer(Hashing::new(BufWriter::new(file)));
        writer.write_record(header)?;
        Ok(CsvSink {
            writer: Some(writer),
        })
    }

    /// Part `name` of a report, in the staging directory, opened to append to (made when
    /// missing); joined into the report by [`take_part`](Self::take_part).
    pub fn append_part(&mut self, name: &str) -> io::Result<fs::File> {
        fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.path.join(name))
    }

    /// Part `name` opened to read, and gone from the staging directory (its bytes last while
    /// the file is open); an empty reader when it was never written.
    pub fn take_part(&mut self, name: &str) -> io::Result<Box<dyn io::Read>> {
        let path = self.path.join(name);
        match fs::File::open(&path) {
            Ok(file) => {
                fs::remove_file(&path)?;
                Ok(Box::new(file))
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Box::new(io::empty())),
            Err(e) => Err(e),
        }
    }

    /// Writes file `name` holding `bytes`.
    pub fn file(&mut self, name: &str, bytes: &[u8]) -> io::Result<()> {
        let mut file = self.create(name)?;
        file.write_all(bytes)?;
        file.sync_all()
    }

    /// Writes `value` as pretty JSON file `name`. A manifest (a JSON file with `reports`):
    /// the files the directory's previous manifest of that name lists are the previous run's
    /// of the same command, and go with it at [`commit`](Self::commit).
    pub fn json(&mut self, name: &str, value: &impl Serialize) -> io::Result<()> {
        self.manifests.push(name.to_string());
        let mut bytes = serde_json::to_vec_pretty(value).map_err(io::Error::other)?;
        bytes.push(b'\n');
        let mut file = self.create(name)?;
        file.write_all(&bytes)?;
        file.sync_all()
    }

    /// Puts the reports in place of the directory's previous ones, in one step.
    pub fn commit(mut self) -> io::Result<()> {
        let mut staged = STAGED.lock().unwrap_or_else(|e| e.into_inner());
        staged.retain(|p| *p != self.path);
        fs::File::open(&self.path)?.sync_all()?;
        let parent = self
            .path
            .parent()
            .map_or(PathBuf::from("."), Path::to_path_buf);
        let lock = fs::File::open(&parent)?;
        lock.lock()?;
        let name = self
            .dir
            .file_name()
            .map_or(String::new(), |n| n.to_string_lossy().to_string());
        remove_abandoned(&parent, &name, &self.dir);
        // The files the previous run of the same command listed go with it, but for those
        // this run lists too (written into the directory as they were found).
        let listed = |dir: &Path| -> Vec<String> {
            self.manifests
                .iter()
                .filter_map(|m| read_manifest(&dir.join(m)))
                .filter_map(|bytes| serde_json::from_slice::<serde_json::Value>(&bytes).ok())
                .filter_map(|v| v.get("reports").and_then(|r| r.as_object()).cloned())
                .flat_map(|reports| reports.keys().cloned().collect::<Vec<_>>())
                .collect()
        };
        let current = listed(&self.path);
        let previous: Vec<String> = listed(&self.dir)
            .into_iter()
            .filter(|name| !current.contains(name))
            .collect();
        // Another subcommand's reports in the directory stay there.
        if let Ok(entries) = fs::read_dir(&self.dir) {
            for entry in entries {
                let entry = entry?;
                let name = entry.file_name();
                if self.written.iter().any(|w| name == w.as_str())
                    || previous.iter().any(|p| name == p.as_str())
                {
                    continue;
                }
                let to = self.path.join(&name);
                let file_type = entry.file_type()?;
                if file_type.is_symlink() {
                    std::os::unix::fs::symlink(fs::read_link(entry.path())?, &to)?;
                    continue;
                }
                if !file_type.is_file() {
                    continue;
                }
                if fs::hard_link(entry.path(), &to).is_err() {
                    fs::copy(entry.path(), &to)?;
                }
            }
        }
        failpoint("before-switch");
        let swapped = switch(&self.path, &self.dir)?;
        self.committed = true;
        failpoint("after-switch");
        if swapped {
            // The previous directory's subdirectories move into the new one.
            move_subdirectories(&self.path, &self.dir)?;
        }
        drop(lock);
        if swapped {
            // The previous reports are now in the staging directory.
            fs::remove_dir_all(&self.path)?;
        }
        Ok(())
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        if !self.committed {
            let mut staged = STAGED.lock().unwrap_or_else(|e| e.into_inner());
            staged.retain(|p| *p != self.path);
            let _ = fs::remove_dir_all(&self.path);
        }
    }
}

/// Why directory `dir` cannot be replaced as a whole, as a run's reports replace it: a mount
/// point (a volume of Docker or Kubernetes, a bind mount, a tmpfs), which cannot be renamed, or a
/// directory marked immutable or append-only. Found before any work, where the commit would
/// find it after all of it.
#[cfg(target_os = "linux")]
pub fn irreplaceable(dir: &Path) -> Result<(), Irreplaceable> {
    use rustix::fs::{statx, AtFlags, StatxAttributes, StatxFlags, CWD};
    let Ok(status) = statx(CWD, dir, AtFlags::empty(), StatxFlags::BASIC_STATS) else {
        return Ok(());
    };
    let has = |attribute: StatxAttributes| {
        status.stx_attributes_mask.contains(attribute) && status.stx_attributes.contains(attribute)
    };
    let why = if has(StatxAttributes::MOUNT_ROOT) {
        "a mount point"
    } else if has(StatxAttributes::IMMUTABLE) {
        "immutable (chattr +i)"
    } else if has(StatxAttributes::APPEND) {
        "append-only (chattr +a)"
    } else {
        return Ok(());
    };
    Err(Irreplaceable { why })
}

#[cfg(not(target_os = "linux"))]
pub fn irreplaceable(_dir: &Path) -> Result<(), Irreplaceable> {
    Ok(())
}

/// A directory reports cannot replace as a whole: `why` (a mount point, immutable, ...).
#[derive(Debug, thiserror::Error)]
#[error(
    "is {why}; reports replace their directory as a whole, which cannot be done to it: give them \
     a directory inside it"
)]
pub struct Irreplaceable {
    /// What the directory is.
    pub why: &'static str,
}

/// Puts directory `new` in the place of `dir`: swaps them when `dir` exists (returning
/// `true`: the old directory is then at `new`), else renames `new` to `dir`.
fn switch(new: &Path, dir: &Path) -> io::Result<bool> {
    match fs::rename(new, dir) {
        Ok(()) => return Ok(false),
        Err(e) if dir.exists() => {
            // A directory that is not empty cannot be renamed over: swap the two.
            let _ = e;
        }
        Err(e) => return Err(e),
    }
    exchange(new, dir)?;
    Ok(true)
}

/// Swaps directories `a` and `b` in one step.
#[cfg(target_os = "linux")]
pub fn exchange(a: &Path, b: &Path) -> io::Result<()> {
    use rustix::fs::{renameat_with, RenameFlags, CWD};
    renameat_with(CWD, a, CWD, b, RenameFlags::EXCHANGE).map_err(io::Error::from)
}

/// Elsewhere the swap is two renames: a run killed between them leaves the old reports beside
/// the report directory rather than in it.
#[cfg(not(target_os = "linux"))]
pub fn exchange(a: &Path, b: &Path) -> io::Result<()> {
    let aside = a.with_extension("previous");
    fs::rename(b, &aside)?;
    fs::rename(a, b)?;
    fs::rename(&aside, a)
}

/// The manifest at `path`, when it is a regular file of at most 64 MiB: never a FIFO waited
/// on, nor a device read without end.
fn read_manifest(path: &Path) -> Option<Vec<u8>> {
    let file = crate::util::guard::open_regular(path).ok()?;
    crate::util::text::read_at_most(file, 64 << 20)
        .ok()
        .flatten()
}

/// Moves the subdirectories of `from` into `to`, unless `to` has one of that name (links to
/// directories are not subdirectories).
fn move_subdirectories(from: &Path, to: &Path) -> io::Result<()> {
    for entry in fs::read_dir(from)? {
        let entry = entry?;
        if entry.file_type()?.is_dir() {
            let target = to.join(entry.file_name());
            if !target.exists() {
                fs::rename(entry.path(), target)?;
            }
        }
    }
    Ok(())
}

/// Removes staging directories of `name` in `parent` that no run holds any more (their lock
/// free: the run that made one ended, in whatever PID namespace), first moving back into
/// `dir` the subdirectories a run killed right after its switch left in them. Only real
/// directories of this user's are candidates: a link, a file or another user's directory
/// named like one is left as it is.
fn remove_abandoned(parent: &Path, name: &str, dir: &Path) {
    let prefix = staging_prefix(name);
    let Ok(entries) = fs::read_dir(parent) else {
        return;
    };
    for entry in entries.flatten() {
        if !entry.file_name().to_string_lossy().starts_with(&prefix) || !abandoned(&entry.path()) {
            continue;
        }
        if dir.is_dir() {
            let _ = move_subdirectories(&entry.path(), dir);
        }
        let _ = fs::remove_dir_all(entry.path());
    }
}

/// Whether `path` is a directory of this user's, not a link, that no process holds locked.
fn abandoned(path: &Path) -> bool {
    use rustix::fs::OFlags;
    use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
    let Ok(meta) = fs::symlink_metadata(path) else {
        return false;
    };
    if !meta.is_dir() || meta.uid() != rustix::process::geteuid().as_raw() {
        return false;
    }
    let Ok(opened) = fs::OpenOptions::new()
        .read(true)
        .custom_flags((OFlags::NOFOLLOW | OFlags::DIRECTORY).bits() as i32)
        .open(path)
    else {
        return false;
    };
    opened.try_lock().is_ok()
}

/// A CSV report being written, one record at a time.
pub struct CsvSink {
    /// Always `Some` but while [`CsvSink::copy_from`] writes around the CSV writer.
    writer: Option<csv::Writer<Hashing<BufWriter<fs::File>>>>,
}

impl CsvSink {
    fn writer(&mut self) -> &mut csv::Writer<Hashing<BufWriter<fs::File>>> {
        self.writer.as_mut().expect("a CSV writer")
    }

    /// Writes one record.
    pub fn write<R>(&mut self, record: R) -> io::Result<()>
    where
        R: IntoIterator,
        R::Item: AsRef<[u8]>,
    {
        self.writer().write_record(record)?;
        Ok(())
    }

    /// Copies `from` (whole records in CSV form, as a sink without header wrote them) into the
    /// report.
    pub fn copy_from(&mut self, from: &mut impl io::Read) -> io::Result<()> {
        let mut inner = self
            .writer
            .take()
            .expect("a CSV writer")
            .into_inner()
            .map_err(|e| io::Error::other(e.to_string()))?;
        let copied = io::copy(from, &mut inner);
        self.writer = Some(csv::Writer::from_writer(inner));
        copied.map(|_| ())
    }

    /// Ends the report, synced: its digest.
    pub fn finish(mut self) -> io::Result<Digest> {
        let mut w = self.writer.take().expect("a CSV writer");
        w.flush()?;
        let hashing = w
            .into_inner()
            .map_err(|e| io::Error::other(e.to_string()))?;
        let digest = hashing.digest(1);
        let file = hashing.inner.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        failpoint("between-reports");
        Ok(digest)
    }
}

/// A writer that hashes (FNV-1a) and counts the lines of what goes through it.
struct Hashing<W> {
    inner: W,
    hash: u64,
    lines: u64,
}

impl<W> Hashing<W> {
    fn new(inner: W) -> Hashing<W> {
        Hashing {
            inner,
            hash: crate::util::hash::FNV1A_START,
            lines: 0,
        }
    }

    /// The digest of what went through, its first `header_rows` lines not counted as rows.
    fn digest(&self, header_rows: u64) -> Digest {
        Digest {
            rows: self.lines.saturating_sub(header_rows),
            fnv1a: self.hash,
        }
    }
}

impl<W: Write> Write for Hashing<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hash = crate::util::hash::fnv1a_more(self.hash, &buf[..n]);
        self.lines += buf[..n].iter().filter(|&&b| b == b'\n').count() as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_commit_replaces_its_own_files_and_keeps_the_others() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("reports");
        let mut first = Staging::new(&dir).unwrap();
        first.csv("a.csv", &["x"], [["1"], ["2"]]).unwrap();
        first.commit().unwrap();
        fs::write(dir.join("other.csv"), "kept\n").unwrap();
        let mut second = Staging::new(&dir).unwrap();
        let digest = second.csv("a.csv", &["x"], [["3"]]).unwrap();
        second.commit().unwrap();
        assert_eq!(fs::read_to_string(dir.join("a.csv")).unwrap(), "x\n3\n");
        assert_eq!(fs::read_to_string(dir.join("other.csv")).unwrap(), "kept\n");
        assert_eq!(digest, Digest::of_file(&dir.join("a.csv"), 1).unwrap());
        assert_eq!(digest.rows, 1);
        // Nothing is left beside the directory.
        let names: Vec<_> = fs::read_dir(root.path()).unwrap().collect();
        assert_eq!(names.len(), 1);
    }

    #[test]
    fn an_abandoned_run_leaves_the_reports_as_they_were() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("reports");
        let mut run = Staging::new(&dir).unwrap();
        run.csv("a.csv", &["x"], [["1"]]).unwrap();
        drop(run);
        assert!(!dir.exists());
        assert_eq!(fs::read_dir(root.path()).unwrap().count(), 0);
    }

    #[test]
    fn report_directories_that_cannot_be_replaced_are_refused_at_once() {
        let root = tempfile::tempdir().unwrap();
        let file = root.path().join("file");
        fs::write(&file, "").unwrap();
        assert!(Staging::new(&file).is_err());
        assert!(Staging::new(Path::new(".")).is_err());
        let here = std::env::current_dir().unwrap();
        assert!(Staging::new(&here).is_err());
    }

    #[test]
    fn subdirectories_move_into_the_new_directory() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("reports");
        fs::create_dir_all(dir.join("audit")).unwrap();
        fs::write(dir.join("audit/findings.csv"), "kept\n").unwrap();
        fs::write(dir.join("a.csv"), "old\n").unwrap();
        let mut run = Staging::new(&dir).unwrap();
        run.csv("a.csv", &["x"], [["new"]]).unwrap();
        run.commit().unwrap();
        assert_eq!(fs::read_to_string(dir.join("a.csv")).unwrap(), "x\nnew\n");
        assert_eq!(
            fs::read_to_string(dir.join("audit/findings.csv")).unwrap(),
            "kept\n"
        );
        // A run killed between the switch and the move leaves the subdirectory in its staging
        // directory; the next commit moves it back.
        let abandoned = root.path().join(".reports.referee-999999999-0");
        fs::create_dir(&abandoned).unwrap();
        fs::rename(dir.join("audit"), abandoned.join("audit")).unwrap();
        let mut run = Staging::new(&dir).unwrap();
        run.csv("a.csv", &["x"], [["newer"]]).unwrap();
        run.commit().unwrap();
        assert_eq!(
            fs::read_to_string(dir.join("audit/findings.csv")).unwrap(),
            "kept\n"
        );
        assert!(!abandoned.exists());
    }

    #[test]
    fn a_link_named_like_an_abandoned_staging_directory_is_never_followed() {
        let root = tempfile::tempdir().unwrap();
        let tree = root.path().join("tree");
        fs::create_dir_all(tree.join("src")).unwrap();
        fs::write(tree.join("src/lib.rs"), "kept\n").unwrap();
        // A checkout holding a link named like a staging directory of a dead process, to
        // the checkout itself.
        std::os::unix::fs::symlink(".", tree.join(".reports.referee-999999999-0")).unwrap();
        let dir = tree.join("reports");
        fs::create_dir(&dir).unwrap();
        let mut run = Staging::new(&dir).unwrap();
        run.csv("a.csv", &["x"], [["1"]]).unwrap();
        run.commit().unwrap();
        assert_eq!(
            fs::read_to_string(tree.join("src/lib.rs")).unwrap(),
            "kept\n"
        );
        assert!(!dir.join("src").exists());
        assert!(fs::symlink_metadata(tree.join(".reports.referee-999999999-0")).is_ok());
    }

    #[test]
    fn a_live_staging_directory_of_another_pid_namespace_is_left_alone() {
        // Another container on the same volume: its process is not in this /proc, and its
        // staging directory is held (locked) while it runs.
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("reports");
        let theirs = root.path().join(".reports.referee-999999999-0");
        fs::create_dir(&theirs).unwrap();
        fs::write(theirs.join("a.csv"), "theirs\n").unwrap();
        let held = fs::File::open(&theirs).unwrap();
        held.lock().unwrap();
        let mut run = Staging::new(&dir).unwrap();
        run.csv("a.csv", &["x"], [["1"]]).unwrap();
        run.commit().unwrap();
        assert_eq!(
            fs::read_to_string(theirs.join("a.csv")).unwrap(),
            "theirs\n"
        );
        drop(held);
        // Once nothing holds it, it is abandoned: the next commit removes it.
        let run = Staging::new(&dir).unwrap();
        run.commit().unwrap();
        assert!(!theirs.exists());
    }

    #[test]
    fn a_report_directory_holding_a_fifo_is_refused_at_once_never_waited_on() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("reports");
        fs::create_dir(&dir).unwrap();
        let fifo = dir.join("verify.json");
        assert!(std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success());
        let e = Staging::new(&dir).unwrap_err();
        assert!(e.to_string().contains("verify.json: is a FIFO"), "{e}");
        // A manifest that became a FIFO since is not read.
        assert_eq!(read_manifest(&fifo), None);
    }

    #[test]
    fn the_new_directory_keeps_the_old_ones_mode_group_and_links() {
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("reports");
        fs::create_dir(&dir).unwrap();
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o2770)).unwrap();
        let gid = fs::metadata(&dir).unwrap().gid();
        std::os::unix::fs::symlink("../elsewhere.txt", dir.join("notes.txt")).unwrap();
        let mut run = Staging::new(&dir).unwrap();
        run.csv("a.csv", &["x"], [["1"]]).unwrap();
        run.commit().unwrap();
        let meta = fs::metadata(&dir).unwrap();
        assert_eq!((meta.mode() & 0o7777, meta.gid()), (0o2770, gid));
        assert_eq!(
            fs::read_link(dir.join("notes.txt")).unwrap(),
            Path::new("../elsewhere.txt")
        );
    }
}
