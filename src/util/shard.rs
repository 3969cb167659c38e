//! Slices of one run spread over many machines: `--shard K/N`, or `--shard auto` read from the
//! scheduler's environment (Slurm job arrays, Kubernetes Indexed Jobs).
//!
//! A slice of files holds the files whose reported path hashes to it ([`Shard::contains`]); a
//! slice of random cases holds the case indices congruent to K - 1 modulo N
//! ([`Shard::takes`]). Both depend on the item alone, so every machine computes the same
//! slices, the N slices are disjoint and together make the whole run.

use std::fmt;
use std::str::FromStr;

/// The K-th (1-based) of N disjoint slices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// 1-based slice number.
    pub k: u64,
    /// Number of slices.
    pub n: u64,
}

impl Shard {
    /// The slice `k` of `n`, checked.
    pub fn new(k: u64, n: u64) -> Result<Shard, ShardError> {
        if n == 0 || k == 0 || k > n {
            return Err(ShardError::OutOfRange { k, n });
        }
        Ok(Shard { k, n })
    }

    /// Whether the file named `name` belongs to this slice. A file's slice depends only on its
    /// own reported path (FNV-1a hash modulo N), so slices are the same on every machine and do
    /// not move when other files come or go.
    pub fn contains(&self, name: &str) -> bool {
        crate::util::hash::fnv1a(name.as_bytes()) % self.n == self.k - 1
    }

    /// Whether random case `index` (0-based) belongs to this slice.
    pub fn takes(&self, index: u64) -> bool {
        index % self.n == self.k - 1
    }

    /// The `j`-th (0-based) case index of this slice.
    pub fn nth(&self, j: u64) -> u64 {
        j.saturating_mul(self.n).saturating_add(self.k - 1)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

impl FromStr for Shard {
    type Err = ShardError;
    fn from_str(s: &str) -> Result<Shard, ShardError> {
        let (k, n) = s.split_once('/').ok_or(ShardError::NotASlice)?;
        let k: u64 = k
            .trim()
            .parse()
            .map_err(|_| ShardError::BadK { text: s.into() })?;
        let n: u64 = n
            .trim()
            .parse()
            .map_err(|_| ShardError::BadN { text: s.into() })?;
        Shard::new(k, n)
    }
}

/// A slice that cannot be taken: a bad `--shard` value, or an environment that names none.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShardError {
    /// K or N outside `1 <= K <= N`.
    #[error("need 1 <= K <= N, got {k}/{n}")]
    OutOfRange {
        /// K.
        k: u64,
        /// N.
        n: u64,
    },
    /// No `/` in the value.
    #[error("expected K/N, e.g. 2/5")]
    NotASlice,
    /// K is not a whole number.
    #[error("bad K in {text}")]
    BadK {
        /// The value.
        text: String,
    },
    /// N is not a whole number.
    #[error("bad N in {text}")]
    BadN {
        /// The value.
        text: String,
    },
    /// A `--shard` value that is neither a slice nor `auto`.
    #[error("{0} (or `auto`)")]
    NotASliceOrAuto(Box<ShardError>),
    /// `--shards` with a slice given.
    #[error("--shards goes with --shard auto only")]
    ShardsWithoutAuto,
    /// An environment variable that is not a whole number.
    #[error("{name}={value} is not a whole number")]
    NotAWholeNumber {
        /// The variable.
        name: String,
        /// Its value.
        value: String,
    },
    /// `REFEREE_SHARD` that is not a slice.
    #[error("REFEREE_SHARD={value}: {why}")]
    RefereeShard {
        /// Its value.
        value: String,
        /// Why it is not a slice.
        why: Box<ShardError>,
    },
    /// A Slurm array task without the array's bounds.
    #[error("SLURM_ARRAY_TASK_ID is set without SLURM_ARRAY_TASK_MIN and SLURM_ARRAY_TASK_COUNT")]
    SlurmIncomplete,
    /// A Slurm array task id that is not one of the array's.
    #[error("SLURM_ARRAY_TASK_ID={id} is not in the array {min}, {}, ... (step {step})", min + step)]
    SlurmNotInArray {
        /// The task id.
        id: u64,
        /// The array's first id.
        min: u64,
        /// The array's step.
        step: u64,
    },
    /// A Slurm array whose ids do not make a slice.
    #[error(
        "SLURM_ARRAY_TASK_ID={id} with SLURM_ARRAY_TASK_MIN={min}, SLURM_ARRAY_TASK_COUNT={count}: \
         {why} (the array must be a range, such as --array=0-7)"
    )]
    SlurmRange {
        /// The task id.
        id: u64,
        /// The array's first id.
        min: u64,
        /// The array's task count.
        count: u64,
        /// Why not.
        why: Box<ShardError>,
    },
    /// A Kubernetes Job index without the slice count.
    #[error(
        "JOB_COMPLETION_INDEX is set, but not the slice count: pass --shards N or set \
         REFEREE_SHARDS (the Job's completions)"
    )]
    NoSliceCount,
    /// An index too large to count from 1.
    #[error("need an index below {n}")]
    IndexTooLarge {
        /// The slice count.
        n: u64,
    },
    /// A Kubernetes Job index that is not a slice of the count.
    #[error("JOB_COMPLETION_INDEX={index} of {n} slices: {why}")]
    JobIndex {
        /// The index.
        index: u64,
        /// The slice count.
        n: u64,
        /// Why not.
        why: Box<ShardError>,
    },
    /// `--shard auto` with no slice in the environment.
    #[error("--shard auto: no slice in the environment; set one of: {AUTO_VARIABLES}")]
    NoSlice,
}

/// A `--shard` value: a slice, or `auto`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShardSpec {
    /// `K/N`.
    Slice(Shard),
    /// The slice from the environment ([`ShardSpec::resolve`]).
    Auto,
}

impl FromStr for ShardSpec {
    type Err = ShardError;
    fn from_str(s: &str) -> Result<ShardSpec, ShardError> {
        if s == "auto" {
            Ok(ShardSpec::Auto)
        } else {
            s.parse()
                .map(ShardSpec::Slice)
                .map_err(|e| ShardError::NotASliceOrAuto(Box::new(e)))
        }
    }
}

/// The environment variables `--shard auto` reads, in the order it tries them.
pub const AUTO_VARIABLES: &str = "REFEREE_SHARD=K/N; a Slurm job array's SLURM_ARRAY_TASK_ID \
    with SLURM_ARRAY_TASK_MIN and SLURM_ARRAY_TASK_COUNT (and SLURM_ARRAY_TASK_STEP when not \
    1); a Kubernetes Indexed Job's JOB_COMPLETION_INDEX (0-based) with the slice count from \
    --shards N or REFEREE_SHARDS";

impl ShardSpec {
    /// The slice this process runs: the one given, or for `auto` the one the scheduler's
    /// environment (read through `var`) gives, tried in the order of [`AUTO_VARIABLES`].
    /// `shards` is `--shards`, the slice count of a Kubernetes Indexed Job.
    pub fn resolve(
        self,
        shards: Option<u64>,
        var: impl Fn(&str) -> Option<String>,
    ) -> Result<Shard, ShardError> {
        match self {
            ShardSpec::Slice(s) if shards.is_none() => return Ok(s),
            ShardSpec::Slice(_) => return Err(ShardError::ShardsWithoutAuto),
            ShardSpec::Auto => {}
        }
        let number = |name: &str| -> Result<Option<u64>, ShardError> {
            match var(name) {
                None => Ok(None),
                Some(v) => {
                    v.trim()
                        .parse::<u64>()
                        .map(Some)
                        .map_err(|_| ShardError::NotAWholeNumber {
                            name: name.into(),
                            value: v,
                        })
                }
            }
        };
        if let Some(v) = var("REFEREE_SHARD") {
            return v.parse().map_err(|e| ShardError::RefereeShard {
                value: v,
                why: Box::new(e),
            });
        }
        if let Some(id) = number("SLURM_ARRAY_TASK_ID")? {
            let min = number("SLURM_ARRAY_TASK_MIN")?;
            let count = number("SLURM_ARRAY_TASK_COUNT")?;
            let step = number("SLURM_ARRAY_TASK_STEP")?.unwrap_or(1).max(1);
            let (Some(min), Some(count)) = (min, count) else {
                return Err(ShardError::SlurmIncomplete);
            };
            if id < min || (id - min) % step != 0 {
                return Err(ShardError::SlurmNotInArray { id, min, step });
            }
            return Shard::new((id - min) / step + 1, count).map_err(|e| ShardError::SlurmRange {
                id,
                min,
                count,
                why: Box::new(e),
            });
        }
        if let Some(index) = number("JOB_COMPLETION_INDEX")? {
            let n = match shards {
                Some(n) => n,
                None => number("REFEREE_SHARDS")?.ok_or(ShardError::NoSliceCount)?,
            };
            // The index counts from 0: an index past the count (the largest one included) is
            // refused, never wrapped.
            return index
                .checked_add(1)
                .ok_or(ShardError::IndexTooLarge { n })
                .and_then(|k| Shard::new(k, n))
                .map_err(|e| ShardError::JobIndex {
                    index,
                    n,
                    why: Box::new(e),
                });
        }
        Err(ShardError::NoSlice)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn shards_partition_names_and_indices() {
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
        for index in 0..100 {
            assert_eq!(shards.iter().filter(|s| s.takes(index)).count(), 1);
        }
        for s in &shards {
            assert!((0..50).all(|j| s.takes(s.nth(j))));
        }
        assert!("0/3".parse::<Shard>().is_err());
        assert!("4/3".parse::<Shard>().is_err());
        assert_eq!("2/3".parse::<Shard>(), Ok(Shard { k: 2, n: 3 }));
        assert_eq!("auto".parse::<ShardSpec>(), Ok(ShardSpec::Auto));
    }

    #[test]
    fn auto_reads_slurm_arrays_kubernetes_indexed_jobs_and_referee_shard() {
        let slice = |pairs: &[(&str, &str)], shards| ShardSpec::Auto.resolve(shards, env(pairs));
        // The largest index does not wrap to the first slice.
        let largest = slice(&[("JOB_COMPLETION_INDEX", "18446744073709551615")], Some(4));
        assert!(largest
            .unwrap_err()
            .to_string()
            .contains("18446744073709551615"));
        let slurm = [
            ("SLURM_ARRAY_TASK_ID", "5"),
            ("SLURM_ARRAY_TASK_MIN", "3"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ];
        assert_eq!(slice(&slurm, None), Ok(Shard { k: 3, n: 4 }));
        let stepped = [
            ("SLURM_ARRAY_TASK_ID", "20"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
            ("SLURM_ARRAY_TASK_STEP", "10"),
        ];
        assert_eq!(slice(&stepped, None), Ok(Shard { k: 3, n: 4 }));
        let outside = [
            ("SLURM_ARRAY_TASK_ID", "9"),
            ("SLURM_ARRAY_TASK_MIN", "3"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ];
        assert!(slice(&outside, None)
            .unwrap_err()
            .to_string()
            .contains("range"));
        assert!(slice(&[("SLURM_ARRAY_TASK_ID", "1")], None)
            .unwrap_err()
            .to_string()
            .contains("SLURM_ARRAY_TASK_MIN"));
        let k8s = [("JOB_COMPLETION_INDEX", "0")];
        assert_eq!(slice(&k8s, Some(5)), Ok(Shard { k: 1, n: 5 }));
        assert!(slice(&k8s, None)
            .unwrap_err()
            .to_string()
            .contains("--shards"));
        let k8s_env = [("JOB_COMPLETION_INDEX", "4"), ("REFEREE_SHARDS", "5")];
        assert_eq!(slice(&k8s_env, None), Ok(Shard { k: 5, n: 5 }));
        assert!(slice(
            &[("JOB_COMPLETION_INDEX", "5"), ("REFEREE_SHARDS", "5")],
            None
        )
        .is_err());
        assert_eq!(
            slice(&[("REFEREE_SHARD", "2/7")], None),
            Ok(Shard { k: 2, n: 7 })
        );
        let none = slice(&[], None).unwrap_err().to_string();
        for name in [
            "SLURM_ARRAY_TASK_ID",
            "JOB_COMPLETION_INDEX",
            "REFEREE_SHARD",
        ] {
            assert!(none.contains(name), "{none}");
        }
        assert!(ShardSpec::Slice(Shard { k: 1, n: 2 })
            .resolve(Some(2), env(&[]))
            .is_err());
    }
}
