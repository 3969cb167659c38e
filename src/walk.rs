//! Finding the cases: `*.in` files under the given paths, in sorted order, and the shard a
//! file belongs to.

use std::path::{Path, PathBuf};

use walkdir::WalkDir;

use crate::error::RunError;

/// A case file found by the walk, or a place the walk could not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaseFile {
    /// The path to open.
    pub path: PathBuf,
    /// The path as reported (`/`-separated).
    pub name: String,
    /// Why it could not be walked (symlink loop, unreadable directory, ...).
    pub error: Option<String>,
}

fn display(path: &Path) -> String {
    let s = path.to_string_lossy();
    let s = s.strip_prefix("./").unwrap_or(&s);
    s.replace('\\', "/")
}

/// Every `*.in` file under `paths` (a file named directly is taken whatever its name), sorted
/// by path components. A path that does not exist is an error (the run cannot start); places
/// inside the walk that cannot be read are returned with their error.
pub fn find_cases(paths: &[PathBuf]) -> Result<Vec<CaseFile>, RunError> {
    let mut out = Vec::new();
    for root in paths {
        let meta = std::fs::metadata(root).map_err(|e| RunError::io(root, e))?;
        if meta.is_file() {
            out.push(CaseFile {
                path: root.clone(),
                name: display(root),
                error: None,
            });
            continue;
        }
        for entry in WalkDir::new(root).follow_links(true).sort_by_file_name() {
            match entry {
                Ok(e) => {
                    let is_case =
                        e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "in");
                    if is_case {
                        out.push(CaseFile {
                            path: e.path().to_path_buf(),
                            name: display(e.path()),
                            error: None,
                        });
                    }
                }
                Err(e) => {
                    let path = e.path().map_or(root.clone(), Path::to_path_buf);
                    let why = match e.loop_ancestor() {
                        Some(a) => format!("symbolic link loop back to {}", display(a)),
                        None => e
                            .io_error()
                            .map_or_else(|| e.to_string(), |io| io.to_string()),
                    };
                    out.push(CaseFile {
                        name: display(&path),
                        path,
                        error: Some(why),
                    });
                }
            }
        }
    }
    out.sort_by(|a, b| a.name.split('/').cmp(b.name.split('/')));
    out.dedup_by(|a, b| a.name == b.name);
    Ok(out)
}

/// A shard selector `K/N`: the K-th (1-based) of N disjoint slices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// 1-based slice number.
    pub k: u64,
    /// Number of slices.
    pub n: u64,
}

impl std::str::FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Shard, String> {
        let (k, n) = s.split_once('/').ok_or("expected K/N, e.g. 2/5")?;
        let k: u64 = k.parse().map_err(|_| format!("bad K in {s}"))?;
        let n: u64 = n.parse().map_err(|_| format!("bad N in {s}"))?;
        if n == 0 || k == 0 || k > n {
            return Err(format!("need 1 <= K <= N, got {s}"));
        }
        Ok(Shard { k, n })
    }
}

impl Shard {
    /// Whether the file named `name` belongs to this slice. A file's slice depends only on its
    /// own reported path (FNV-1a hash modulo N), so slices are the same on every machine and do
    /// not move when other files come or go.
    pub fn contains(&self, name: &str) -> bool {
        crate::hash::fnv1a(name.as_bytes()) % self.n == self.k - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_partition_names() {
        let names: Vec<String> = (0..1000).map(|i| format!("dir/case-{i}.in")).collect();
        let shards: Vec<Shard> = (1..=3).map(|k| Shard { k, n: 3 }).collect();
        for name in &names {
            assert_eq!(shards.iter().filter(|s| s.contains(name)).count(), 1);
        }
        let sizes: Vec<usize> = shards
            .iter()
            .map(|s| names.iter().filter(|n| s.contains(n)).count())
            .collect();
        assert!(sizes.iter().all(|&s| s > 250), "{sizes:?}");
        assert!("0/3".parse::<Shard>().is_err());
        assert!("4/3".parse::<Shard>().is_err());
        assert_eq!("2/3".parse::<Shard>(), Ok(Shard { k: 2, n: 3 }));
    }
}
