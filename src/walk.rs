//! Finding the cases: `*.in` files under the given paths, in sorted order.

use std::path::{Path, PathBuf};

use walkdir::WalkDir;

use crate::error::RunError;
pub use crate::guard::display;
use crate::guard::{kind, Tree};

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
}

/// Every `*.in` file under `paths` (a file named directly is taken whatever its name), sorted
/// by path components. A path that does not exist is an error (the run cannot start); places
/// inside the walk that cannot be read are returned with their error.
///
/// Symbolic links are followed only while they stay inside the tree being walked (the
/// directory named on the command line): a link to a file or directory elsewhere on the
/// machine is reported, never read. Anything named `*.in` that is not a regular file (a FIFO,
/// a socket, a device) is reported too, never opened.
pub fn find_cases(paths: &[PathBuf]) -> Result<Vec<CaseFile>, RunError> {
    let mut out = Vec::new();
    for root in paths {
        let meta = std::fs::metadata(root).map_err(|e| RunError::io(root, e))?;
        let tree = Tree::new(root).map_err(|e| RunError::io(root, e))?;
        let found = |path: &Path, error: Option<String>| CaseFile {
            path: path.to_path_buf(),
            name: display(path),
            error,
            tree: tree.clone(),
        };
        if !meta.is_dir() {
            let error = (!meta.is_file()).then(|| kind(meta.file_type()).to_string());
            out.push(found(root, error));
            continue;
        }
        let mut walk = WalkDir::new(root)
            .follow_links(true)
            .sort_by_file_name()
            .into_iter();
        while let Some(entry) = walk.next() {
            let e = match entry {
                Ok(e) => e,
                Err(e) => {
                    let path = e.path().map_or(root.clone(), Path::to_path_buf);
                    let why = match e.loop_ancestor() {
                        Some(a) => format!("symbolic link loop back to {}", display(a)),
                        None => e
                            .io_error()
                            .map_or_else(|| e.to_string(), |io| io.to_string()),
                    };
                    out.push(found(&path, Some(why)));
                    continue;
                }
            };
            let is_in = e.path().extension().is_some_and(|x| x == "in");
            if e.path_is_symlink() {
                let target = e.path().canonicalize();
                if !target.as_ref().is_ok_and(|t| t.starts_with(&tree.real)) {
                    if e.file_type().is_dir() {
                        walk.skip_current_dir();
                    }
                    if is_in || e.file_type().is_dir() {
                        let why =
                            format!("a symbolic link leaving {} (not followed)", display(root));
                        out.push(found(e.path(), Some(why)));
                    }
                    continue;
                }
            }
            if !is_in || e.file_type().is_dir() {
                continue;
            }
            let error = (!e.file_type().is_file())
                .then(|| format!("{}, not a regular file (not read)", kind(e.file_type())));
            out.push(found(e.path(), error));
        }
    }
    // The same file reached from two roots (`corpus` and `corpus/pousse`, `./corpus`) is one
    // case; distinct paths stay distinct cases even when their names look alike.
    let key = |p: &Path| -> PathBuf {
        p.components()
            .filter(|c| *c != std::path::Component::CurDir)
            .collect()
    };
    out.sort_by(|a, b| {
        a.name
            .split('/')
            .cmp(b.name.split('/'))
            .then_with(|| key(&a.path).cmp(&key(&b.path)))
    });
    out.dedup_by(|a, b| key(&a.path) == key(&b.path));
    Ok(out)
}
