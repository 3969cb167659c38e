//! A problem package's yaml files (`problem.yaml`, `data/testdata.yaml`), read with a bound on
//! their size, and the limits `problem.yaml` sets, in every format version.

use std::io::Read;
use std::path::Path;

use yaml_rust2::{Yaml, YamlLoader};

/// The largest yaml file read, in bytes (more is cut).
const LARGEST_YAML: u64 = 1 << 20;

/// The memory limit of a Kattis package without one: 2048 MiB.
pub const DEFAULT_MEMORY_MIB: u64 = 2048;

/// The first document of the yaml file at `path`, if it is a regular file that parses.
pub fn read(path: &Path) -> Option<Yaml> {
    let mut text = String::new();
    crate::guard::open_regular(path)
        .ok()?
        .take(LARGEST_YAML)
        .read_to_string(&mut text)
        .ok()?;
    YamlLoader::load_from_str(&text).ok()?.into_iter().next()
}

/// The memory limit `problem.yaml` sets for the package at `root`, in MiB (`limits: memory:`,
/// the same in the legacy, 2023-07 and 2025-09 formats): `Ok(None)` when it sets none (or the
/// file is absent), an error naming the file when the value is not a positive whole number.
pub fn memory_mib(root: &Path) -> Result<Option<u64>, String> {
    let path = root.join("problem.yaml");
    let Some(yaml) = read(&path) else {
        return Ok(None);
    };
    match &yaml["limits"]["memory"] {
        Yaml::BadValue | Yaml::Null => Ok(None),
        Yaml::Integer(mib) if *mib > 0 => Ok(Some(*mib as u64)),
        other => Err(format!(
            "{}: limits.memory must be a positive whole number of MiB, found {other:?}",
            crate::walk::display(&path)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_memory_limit_is_read_when_set() {
        let dir = std::env::temp_dir().join(format!("referee-yaml-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        assert_eq!(memory_mib(&dir), Ok(None));
        std::fs::write(dir.join("problem.yaml"), "name: x\n").unwrap();
        assert_eq!(memory_mib(&dir), Ok(None));
        std::fs::write(dir.join("problem.yaml"), "limits:\n  memory: 512\n").unwrap();
        assert_eq!(memory_mib(&dir), Ok(Some(512)));
        std::fs::write(dir.join("problem.yaml"), "limits:\n  memory: lots\n").unwrap();
        assert!(memory_mib(&dir).unwrap_err().contains("limits.memory"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
