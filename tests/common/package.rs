//! Problem packages for the tests, built file by file ([`Package`]), from the example contest's
//! data or a test's own.

use std::fs;
use std::path::{Path, PathBuf};

use super::command::{copy_tree, repo};

/// A package being built in a directory of its own.
#[derive(Debug, Clone)]
pub struct Package {
    root: PathBuf,
}

impl Package {
    /// An empty package at `root` (made).
    pub fn at(root: PathBuf) -> Package {
        fs::create_dir_all(&root).unwrap();
        Package { root }
    }

    /// `text` as the file `rel` of the package (its folders made).
    pub fn file(self, rel: &str, text: &str) -> Package {
        let path = self.root.join(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, text).unwrap();
        self
    }

    /// `text` as its `problem.yaml`.
    pub fn problem_yaml(self, text: &str) -> Package {
        self.file("problem.yaml", text)
    }

    /// `text` as its submission `rel` (`CLASS/FILE`).
    pub fn submission(self, rel: &str, text: &str) -> Package {
        self.file(&format!("submissions/{rel}"), text)
    }

    /// The example contest's Pousse data (`data/sample`, `data/secret`), each test file of at
    /// most `largest` bytes with its answer.
    pub fn example_data(self, largest: u64) -> Package {
        copy_tree(&example().join("data"), &self.root.join("data"));
        for group in ["sample", "secret"] {
            for entry in fs::read_dir(self.root.join("data").join(group))
                .unwrap()
                .flatten()
            {
                let path = entry.path();
                if path.extension().is_some_and(|e| e == "in")
                    && entry.metadata().unwrap().len() > largest
                {
                    fs::remove_file(&path).unwrap();
                    let _ = fs::remove_file(path.with_extension("ans"));
                }
            }
        }
        self
    }

    /// The example contest's secret test files `stems` (`.in` and `.ans`).
    pub fn example_cases(self, stems: &[&str]) -> Package {
        let secret = self.root.join("data/secret");
        fs::create_dir_all(&secret).unwrap();
        for stem in stems {
            for ext in ["in", "ans"] {
                let name = format!("{stem}.{ext}");
                fs::copy(
                    example().join("data/secret").join(&name),
                    secret.join(&name),
                )
                .unwrap();
            }
        }
        self
    }

    /// Where it is.
    pub fn path(&self) -> &Path {
        &self.root
    }

    /// Where it is, the builder done.
    pub fn done(self) -> PathBuf {
        self.root
    }
}

/// The example contest's Pousse problem, `examples/contest/pousse`.
pub fn example() -> PathBuf {
    repo().join("examples/contest/pousse")
}
