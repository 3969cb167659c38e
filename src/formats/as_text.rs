//! A command's typed options as its manifest writes them: a map of flag names to text (the
//! manifests' layout, which `merge` compares shard by shard), and read back by serde. A field
//! is written by [`text`] (its `Display`, read back by `FromStr`) or [`optional`] (`""` for
//! none).

use std::collections::BTreeMap;
use std::fmt::Display;
use std::str::FromStr;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// `options` (a struct whose every field is written as text) as the manifest's map.
///
/// # Panics
/// When a field is not written as text: a mistake in the options' type, caught by its tests.
pub fn to_map<T: Serialize>(options: &T) -> BTreeMap<String, String> {
    match serde_json::to_value(options).expect("options serialize") {
        serde_json::Value::Object(fields) => fields
            .into_iter()
            .map(|(k, v)| match v {
                serde_json::Value::String(text) => (k, text),
                other => panic!("option {k} is not written as text: {other}"),
            })
            .collect(),
        other => panic!("options are not a struct: {other}"),
    }
}

/// The typed options of a manifest's map.
pub fn from_map<T: DeserializeOwned>(
    map: &BTreeMap<String, String>,
) -> Result<T, serde_json::Error> {
    serde_json::from_value(serde_json::to_value(map)?)
}

/// A value written as its `Display`, read back by `FromStr`.
pub mod text {
    use super::*;

    /// Writes `value` as text.
    pub fn serialize<T: Display, S: Serializer>(value: &T, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(value)
    }

    /// Reads a value from its text.
    pub fn deserialize<'de, T, D>(d: D) -> Result<T, D::Error>
    where
        T: FromStr,
        T::Err: Display,
        D: Deserializer<'de>,
    {
        String::deserialize(d)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

/// An optional value written as its `Display`, `""` for none.
pub mod optional {
    use super::*;

    /// Writes `value` as text, or `""`.
    pub fn serialize<T: Display, S: Serializer>(
        value: &Option<T>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        match value {
            Some(v) => s.collect_str(v),
            None => s.serialize_str(""),
        }
    }

    /// Reads a value from its text, none from `""`.
    pub fn deserialize<'de, T, D>(d: D) -> Result<Option<T>, D::Error>
    where
        T: FromStr,
        T::Err: Display,
        D: Deserializer<'de>,
    {
        let text = String::deserialize(d)?;
        if text.is_empty() {
            return Ok(None);
        }
        text.parse().map(Some).map_err(serde::de::Error::custom)
    }
}
