//! The manifest of a report directory (`verify.json`, `grade.json`): what run wrote the reports
//! beside it. It names the tool, the command and its options, the case list (a digest of every
//! case's name and size, before any sharding), the shard when the run was one, and a digest of each
//! report. `referee merge` uses it to refuse what is not one run, and any reader can check with
//! it that the files of a directory belong together. It holds no time or machine name, so the
//! same run gives the same manifest.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::refusal::Refusal;
use super::write::Digest;
use crate::util::shard::Shard;
use crate::util::walk::CaseFile;

/// The tool and version that wrote a manifest.
pub fn tool() -> String {
    format!("referee {}", env!("CARGO_PKG_VERSION"))
}

/// The digest of a case list: how many cases, and FNV-1a of their names and sizes (one per
/// line). Shards of one run list the same cases; shards of inputs that differ in a file's name
/// or size (the walk knows both without reading a file; a shard reads only its own slice) do
/// not, and are not merged.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CaseList {
    /// Cases.
    pub files: u64,
    /// FNV-1a of the names and sizes, in hexadecimal.
    pub fnv1a: String,
}

impl CaseList {
    /// The digest of `files`.
    pub fn of(files: &[CaseFile]) -> CaseList {
        let mut list = CaseListBuilder::default();
        for f in files {
            list.add(f);
        }
        list.finish()
    }
}

/// A case list's digest, built one name at a time (a walk of any length costs nothing more).
#[derive(Debug, Clone, Copy)]
pub struct CaseListBuilder {
    files: u64,
    hash: u64,
}

impl Default for CaseListBuilder {
    fn default() -> CaseListBuilder {
        CaseListBuilder {
            files: 0,
            hash: crate::util::hash::FNV1A_START,
        }
    }
}

impl CaseListBuilder {
    /// Adds case `file`: its name and size.
    pub fn add(&mut self, file: &CaseFile) {
        self.files += 1;
        self.hash = crate::util::hash::fnv1a_more(self.hash, file.name.as_bytes());
        if let Some(size) = file.size {
            self.hash = crate::util::hash::fnv1a_more(self.hash, format!("\t{size}").as_bytes());
        }
        self.hash = crate::util::hash::fnv1a_more(self.hash, b"\n");
    }

    /// The digest.
    pub fn finish(self) -> CaseList {
        CaseList {
            files: self.files,
            fnv1a: format!("{:016x}", self.hash),
        }
    }
}

/// A shard's slice of the case list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Slice {
    /// 1-based slice number.
    pub k: u64,
    /// Slices in all.
    pub n: u64,
    /// The slice's cases.
    pub cases: CaseList,
}

/// What a run was, and what it wrote.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    /// `referee VERSION`.
    pub tool: String,
    /// The subcommand.
    pub command: String,
    /// The options that change the reports, by flag name.
    pub options: BTreeMap<String, String>,
    /// Every case the run's inputs hold, before sharding.
    pub cases: CaseList,
    /// The slice this run judged, when it was one shard of several.
    pub shard: Option<Slice>,
    /// Each report's digest, by file name.
    pub reports: BTreeMap<String, Digest>,
}

impl Manifest {
    /// The manifest of a run of `command` with `options` over the cases digested in `all`, of
    /// which it judged `shard`'s slice, digested in `judged`.
    pub fn of_lists(
        command: &str,
        options: BTreeMap<String, String>,
        all: CaseList,
        shard: Option<(Shard, CaseList)>,
    ) -> Manifest {
        Manifest {
            tool: tool(),
            command: command.to_string(),
            options,
            cases: all,
            shard: shard.map(|(s, judged)| Slice {
                k: s.k,
                n: s.n,
                cases: judged,
            }),
            reports: BTreeMap::new(),
        }
    }

    /// The manifest of a run of `command` with `options` over `all` cases, of which it judged
    /// `shard`'s slice `judged`.
    pub fn new(
        command: &str,
        options: BTreeMap<String, String>,
        all: &[CaseFile],
        shard: Option<(Shard, &[CaseFile])>,
    ) -> Manifest {
        Manifest {
            tool: tool(),
            command: command.to_string(),
            options,
            cases: CaseList::of(all),
            shard: shard.map(|(s, judged)| Slice {
                k: s.k,
                n: s.n,
                cases: CaseList::of(judged),
            }),
            reports: BTreeMap::new(),
        }
    }

    /// Reads the manifest `name` of directory `dir` and checks that every report it names is
    /// there, unchanged: the directory holds one run.
    pub fn read(dir: &Path, name: &str) -> Result<Manifest, Refusal> {
        Manifest::read_with::<Manifest>(dir, name).map(|(manifest, _)| manifest)
    }

    /// [`read`](Self::read), and the whole file read as a `T` too (a command's manifest that
    /// holds more than the common fields).
    pub fn read_with<T: serde::de::DeserializeOwned>(
        dir: &Path,
        name: &str,
    ) -> Result<(Manifest, T), Refusal> {
        let path = dir.join(name);
        let text =
            read_bounded(&path, MANIFEST_MAX_BYTES).map_err(|source| Refusal::Unreadable {
                path: path.clone(),
                source,
            })?;
        let not_a_manifest = |source| Refusal::NotAManifest {
            path: path.clone(),
            source,
        };
        let manifest: Manifest = serde_json::from_slice(&text).map_err(not_a_manifest)?;
        let whole: T = serde_json::from_slice(&text).map_err(not_a_manifest)?;
        for (report, digest) in &manifest.reports {
            let file = dir.join(report);
            let actual = crate::util::guard::open_in(dir, Path::new(report), u64::MAX)
                .and_then(|opened| Digest::of_read(opened.file, 1))
                .map_err(|source| Refusal::Unreadable {
                    path: file.clone(),
                    source,
                })?;
            if actual != *digest {
                return Err(Refusal::Changed {
                    file,
                    manifest: path,
                    actual: actual.rows,
                    expected: digest.rows,
                });
            }
        }
        Ok((manifest, whole))
    }
}

/// The largest manifest read: a manifest names its options and reports, a few kilobytes; an
/// audit's holds every program's record and findings, a few kilobytes per finding.
const MANIFEST_MAX_BYTES: u64 = 64 << 20;

/// The file at `path`, refused when longer than `max` bytes.
fn read_bounded(path: &Path, max: u64) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    crate::util::guard::open_regular(path)?
        .take(max + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        return Err(std::io::Error::other(format!(
            "longer than {max} bytes: not a referee manifest"
        )));
    }
    Ok(bytes)
}
