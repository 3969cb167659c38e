//! Merging the shards of a `stress` run: their `findings.csv` read as typed rows, one finding
//! per signature, the example from the lowest case, the counts summed, its input and regression
//! vector copied. The result equals the unsharded run's when each signature's first case
//! shrinks alike on every machine (shrinking depends on the case alone) and no shard hit
//! `--max-findings`.

use crate::formats::refusal::Refusal;
use std::collections::btree_map::Entry;
use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::formats::ci::findings_suites;
use crate::formats::manifest::Manifest;
use crate::formats::merge::{Merged, ShardMerge, Shards};
use crate::formats::write::{Digest, Staging};
use crate::util::error::RunError;

use super::{FindingRow, FINDINGS, FINDINGS_HEADER, MANIFEST};

/// `stress`'s findings, merged.
pub struct StressMerge;

impl ShardMerge for StressMerge {
    fn command(&self) -> &'static str {
        "stress"
    }

    fn manifest(&self) -> &'static str {
        MANIFEST
    }

    fn combine(
        &self,
        shards: &Shards,
        mut staging: Staging,
        mut manifest: Manifest,
        _kept_rows: usize,
    ) -> Result<Merged, RunError> {
        let out = staging.dir().to_path_buf();
        let io = |e: std::io::Error| RunError::io(&out, e);
        let groups = lowest_of_each_signature(shards.dirs)?;
        let mut kept: Vec<(FindingRow, PathBuf)> = groups.into_values().collect();
        kept.sort_by_key(|(row, _)| row.case);
        let mut rows = Vec::new();
        for (number, (mut row, dir)) in kept.into_iter().enumerate() {
            row.finding = number + 1;
            for name in [&row.input, &row.regression] {
                if name.is_empty() || name.contains('/') || name.starts_with('.') {
                    continue;
                }
                let bytes =
                    std::fs::read(dir.join(name)).map_err(|e| RunError::io(&dir.join(name), e))?;
                staging.file(name, &bytes).map_err(io)?;
                manifest.reports.insert(name.clone(), Digest::of(&bytes, 1));
            }
            rows.push(row);
        }
        let digest = staging
            .csv(
                FINDINGS,
                &FINDINGS_HEADER,
                rows.iter().map(FindingRow::cells),
            )
            .map_err(io)?;
        manifest.reports.insert(FINDINGS.into(), digest);
        staging
            .json(MANIFEST, &manifest)
            .and_then(|()| staging.commit())
            .map_err(io)?;
        let game = crate::formats::as_text::from_map::<super::StressOptions>(&manifest.options)
            .map_or_else(|_| String::new(), |o| o.game);
        let properties: Vec<(String, String)> = manifest
            .options
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let shown: Vec<_> = rows.iter().map(|row| row.shown(&out)).collect();
        Ok(Merged {
            command: "stress",
            shards: shards.dirs.len(),
            rows: rows.len(),
            problems: rows.len(),
            reports: vec![FINDINGS.into(), MANIFEST.into()],
            suites: findings_suites(&game, &properties, &shown),
            summary: None,
        })
    }
}

/// Each signature's row of its lowest case among the shards' findings, with the shard's
/// directory, the counts summed.
fn lowest_of_each_signature(
    dirs: &[PathBuf],
) -> Result<BTreeMap<String, (FindingRow, PathBuf)>, RunError> {
    // signature -> (the row of its lowest case, its directory), the counts summed
    let mut groups: BTreeMap<String, (FindingRow, PathBuf)> = BTreeMap::new();
    for dir in dirs {
        let path = dir.join(FINDINGS);
        let (reader, header) = crate::formats::open_csv(&path)?;
        if header.iter().ne(FINDINGS_HEADER.iter().copied()) {
            return Err(Refusal::NotThisReport {
                path,
                what: "the findings of a stress run",
            }
            .into());
        }
        for row in reader.into_deserialize::<FindingRow>() {
            let row = row.map_err(|source| Refusal::Csv {
                path: path.clone(),
                source,
            })?;
            match groups.entry(row.signature.clone()) {
                Entry::Vacant(slot) => {
                    slot.insert((row, dir.clone()));
                }
                Entry::Occupied(mut slot) => {
                    let (known, from) = slot.get_mut();
                    let count = known.count + row.count;
                    if row.case < known.case {
                        (*known, *from) = (row, dir.clone());
                    }
                    known.count = count;
                }
            }
        }
    }
    Ok(groups)
}
