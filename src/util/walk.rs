//! Finding the cases: `*.in` files under the given paths, in sorted order, streamed.
//!
//! The walk is depth first, each directory's entries in byte order of their names, so files
//! come in the order of their paths compared component by component (the report order). It
//! holds one directory's names at a time per level of the tree (in one buffer, not an object
//! per entry), never the list of every file: a million files cost the names of the largest
//! directory, whatever the number of files.

use std::collections::VecDeque;
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

use crate::util::error::RunError;
pub use crate::util::guard::display;
use crate::util::guard::{kind, Tree};

/// A case file found by the walk, or a place the walk could not or would not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaseFile {
    /// The path to open.
    pub path: PathBuf,
    /// The path as reported: see [`display`].
    pub name: String,
    /// Why it is not read (symbolic-link loop, a link leaving the tree, not a regular file,
    /// unreadable directory, ...).
    pub error: Option<String>,
    /// The tree it was found in: files beside it (its `.ans`) are read only from there.
    pub tree: Tree,
    /// Its size in bytes when the walk found it (none for what is not read).
    pub size: Option<u64>,
}

/// Every `*.in` file under `paths` (a file named directly is taken whatever its name), sorted
/// by path components, collected. See [`walk_cases`].
pub fn find_cases(paths: &[PathBuf]) -> Result<Vec<CaseFile>, RunError> {
    Ok(walk_cases(paths)?.collect())
}

/// Every `*.in` file under `paths` (a file named directly is taken whatever its name), sorted
/// by path components, as a stream. A path that does not exist is an error (the run cannot
/// start); places inside the walk that cannot be read come with their error.
///
/// Symbolic links are followed only while they stay inside the tree being walked (the
/// directory named on the command line): a link to a file or directory elsewhere on the
/// machine is reported, never read, and so is a link back to a directory it is in (a loop).
/// Anything named `*.in` that is not a regular file (a FIFO, a socket, a device) is reported
/// too, never opened. The same file reached from two roots (`corpus` and `corpus/pousse`,
/// `./corpus`) is one case; distinct paths stay distinct cases even when their names look
/// alike.
pub fn walk_cases(paths: &[PathBuf]) -> Result<Walk, RunError> {
    let mut roots = Vec::with_capacity(paths.len());
    for root in paths {
        let meta = std::fs::metadata(root).map_err(|e| RunError::io(root, e))?;
        let tree = Tree::new(root).map_err(|e| RunError::io(root, e))?;
        roots.push(if meta.is_dir() {
            RootWalk::Dir(DirWalk::new(root, tree, &meta))
        } else {
            let error = (!meta.is_file()).then(|| kind(meta.file_type()).to_string());
            let size = error.is_none().then_some(meta.len());
            RootWalk::File(Some(CaseFile {
                size,
                ..found(root, error, &tree)
            }))
        });
    }
    let mut heads: Vec<Option<CaseFile>> = Vec::with_capacity(roots.len());
    for root in &mut roots {
        heads.push(root.next());
    }
    Ok(Walk {
        roots,
        heads,
        last: None,
    })
}

fn found(path: &Path, error: Option<String>, tree: &Tree) -> CaseFile {
    CaseFile {
        path: path.to_path_buf(),
        name: display(path),
        error,
        tree: tree.clone(),
        size: None,
    }
}

/// The sorted walk of every root: the roots' own walks merged, the same file once.
pub struct Walk {
    roots: Vec<RootWalk>,
    heads: Vec<Option<CaseFile>>,
    /// The key of the file last given, to drop the same file reached from another root.
    last: Option<PathBuf>,
}

/// The key that tells two paths of the same file apart from two files: the path without its
/// `.` components.
fn key(p: &Path) -> PathBuf {
    p.components()
        .filter(|c| *c != std::path::Component::CurDir)
        .collect()
}

/// The walk's order: by name, component by component, then by path.
fn before(a: &CaseFile, b: &CaseFile) -> std::cmp::Ordering {
    a.name
        .split('/')
        .cmp(b.name.split('/'))
        .then_with(|| key(&a.path).cmp(&key(&b.path)))
}

impl Iterator for Walk {
    type Item = CaseFile;

    fn next(&mut self) -> Option<CaseFile> {
        loop {
            let first = (0..self.heads.len())
                .filter(|&i| self.heads[i].is_some())
                .min_by(|&a, &b| {
                    before(
                        self.heads[a].as_ref().expect("some"),
                        self.heads[b].as_ref().expect("some"),
                    )
                })?;
            let file = self.heads[first].take().expect("some");
            self.heads[first] = self.roots[first].next();
            let k = key(&file.path);
            if self.last.as_ref() == Some(&k) {
                continue;
            }
            self.last = Some(k);
            return Some(file);
        }
    }
}

enum RootWalk {
    File(Option<CaseFile>),
    Dir(DirWalk),
}

impl RootWalk {
    fn next(&mut self) -> Option<CaseFile> {
        match self {
            RootWalk::File(file) => file.take(),
            RootWalk::Dir(walk) => walk.next(),
        }
    }
}

/// The names of one directory, sorted by their bytes, in one buffer.
struct Names {
    bytes: Vec<u8>,
    /// Where each name starts and ends in `bytes`, in sorted order.
    spans: Vec<(usize, usize)>,
}

impl Names {
    /// The names in `dir`, sorted.
    fn read(dir: &Path) -> std::io::Result<Names> {
        let mut bytes = Vec::new();
        let mut spans = Vec::new();
        for entry in std::fs::read_dir(dir)? {
            let name = entry?.file_name();
            let start = bytes.len();
            bytes.extend_from_slice(name.as_encoded_bytes());
            spans.push((start, bytes.len()));
        }
        spans.sort_unstable_by(|a, b| bytes[a.0..a.1].cmp(&bytes[b.0..b.1]));
        Ok(Names { bytes, spans })
    }

    fn len(&self) -> usize {
        self.spans.len()
    }

    #[cfg(unix)]
    fn get(&self, i: usize) -> OsString {
        use std::os::unix::ffi::OsStrExt;
        let (start, end) = self.spans[i];
        OsStr::from_bytes(&self.bytes[start..end]).to_os_string()
    }

    /// Elsewhere a name's bytes are read back as text.
    #[cfg(not(unix))]
    fn get(&self, i: usize) -> OsString {
        let (start, end) = self.spans[i];
        OsString::from(String::from_utf8_lossy(&self.bytes[start..end]).into_owned())
    }
}

/// A directory being walked: its sorted names, the next one, and its identity (for loops).
struct Frame {
    dir: PathBuf,
    names: Names,
    next: usize,
    id: (u64, u64),
}

/// The depth-first walk of one root directory.
struct DirWalk {
    root: PathBuf,
    tree: Tree,
    stack: Vec<Frame>,
    /// Files found and not yet given (an unreadable directory's error).
    ready: VecDeque<CaseFile>,
}

/// A directory's identity: its device and inode.
#[cfg(unix)]
fn id_of(meta: &std::fs::Metadata) -> (u64, u64) {
    use std::os::unix::fs::MetadataExt;
    (meta.dev(), meta.ino())
}

/// Without inodes, directories are told apart by nothing: loops end at the depth limit of
/// the path's length.
#[cfg(not(unix))]
fn id_of(_meta: &std::fs::Metadata) -> (u64, u64) {
    (0, 0)
}

impl DirWalk {
    fn new(root: &Path, tree: Tree, meta: &std::fs::Metadata) -> DirWalk {
        let mut walk = DirWalk {
            root: root.to_path_buf(),
            tree,
            stack: Vec::new(),
            ready: VecDeque::new(),
        };
        walk.enter(root, id_of(meta));
        walk
    }

    /// Starts walking directory `dir` (an unreadable one is reported).
    fn enter(&mut self, dir: &Path, id: (u64, u64)) {
        match Names::read(dir) {
            Ok(names) => self.stack.push(Frame {
                dir: dir.to_path_buf(),
                names,
                next: 0,
                id,
            }),
            Err(e) => self
                .ready
                .push_back(found(dir, Some(e.to_string()), &self.tree)),
        }
    }

    fn next(&mut self) -> Option<CaseFile> {
        loop {
            if let Some(file) = self.ready.pop_front() {
                return Some(file);
            }
            let frame = self.stack.last_mut()?;
            if frame.next == frame.names.len() {
                self.stack.pop();
                continue;
            }
            let path = frame.dir.join(frame.names.get(frame.next));
            frame.next += 1;
            if let Some(file) = self.visit(&path) {
                return Some(file);
            }
        }
    }

    /// What the entry at `path` gives: a case, a place not read (with why), or nothing (it is
    /// not a case; a directory is entered).
    fn visit(&mut self, path: &Path) -> Option<CaseFile> {
        let is_in = path.extension().is_some_and(|x| x == "in");
        // An entry that cannot be examined (a path too long, an I/O error, no permission) is
        // reported, never skipped: it may be a case.
        let link = match std::fs::symlink_metadata(path) {
            Ok(link) => link,
            Err(e) => {
                return Some(found(
                    path,
                    Some(format!("cannot be examined: {e}")),
                    &self.tree,
                ))
            }
        };
        let is_link = link.file_type().is_symlink();
        // What a link points to is looked up; anything else is what it is (one lookup per
        // entry on the hot path).
        let meta = if is_link {
            match std::fs::metadata(path) {
                Ok(m) => m,
                Err(e) => return Some(found(path, Some(e.to_string()), &self.tree)),
            }
        } else {
            link
        };
        if is_link {
            let target = path.canonicalize();
            if !target
                .as_ref()
                .is_ok_and(|t| t.starts_with(&self.tree.real))
            {
                return (is_in || meta.is_dir()).then(|| {
                    let why = format!(
                        "a symbolic link leaving {} (not followed)",
                        display(&self.root)
                    );
                    found(path, Some(why), &self.tree)
                });
            }
        }
        if meta.is_dir() {
            let id = id_of(&meta);
            if let Some(ancestor) = self.stack.iter().find(|f| f.id == id) {
                let why = format!("symbolic link loop back to {}", display(&ancestor.dir));
                return Some(found(path, Some(why), &self.tree));
            }
            self.enter(path, id);
            return None;
        }
        if !is_in {
            return None;
        }
        let error = (!meta.is_file())
            .then(|| format!("{}, not a regular file (not read)", kind(meta.file_type())));
        let size = error.is_none().then_some(meta.len());
        Some(CaseFile {
            size,
            ..found(path, error, &self.tree)
        })
    }
}
