//! The cases of a package and how each is made: every case is one `referee gen` call, so
//! BAPCtools' `bt generate` remakes the data from `generators/generators.yaml` byte for byte,
//! and `bt fuzz` draws more of the same rules.
//!
//! A sample or an edge case is `referee --case NAME` (the game's named case); a random case is
//! `referee --seed {seed} --item I KNOBS`, where BAPCtools puts for `{seed}` the seed it
//! derives from the rule: the low 31 bits of the SHA-512 of the generators' `random_salt`
//! followed by the command ([`bapctools_seed`]), `random_salt` being `referee package`'s
//! `--seed`. `referee package` computes the same seed, so it writes what `bt generate` will.

use sha2::{Digest, Sha512};

use crate::game::knobs::{KnobError, Knobs};
use crate::game::problem::{Content, GeneratorRule};
use crate::game::Generated;
use crate::game::Packaged;
use crate::game::{Case as _, Game};

/// Where a case goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Group {
    /// `data/sample`.
    Sample,
    /// `data/secret`.
    Secret,
}

impl Group {
    /// Its directory under `data/`.
    pub fn dir(self) -> &'static str {
        match self {
            Group::Sample => "sample",
            Group::Secret => "secret",
        }
    }
}

/// One case of the package.
#[derive(Debug, Clone)]
pub struct Planned {
    /// Sample or secret.
    pub group: Group,
    /// Its name, without extension (`017-largest-board`).
    pub name: String,
    /// The generator's command in generators.yaml (`referee --case tie`).
    pub command: String,
    /// What the rule is for (a comment in generators.yaml), if anything.
    pub purpose: Option<&'static str>,
    /// The input.
    pub input: Vec<u8>,
}

/// The name of the generator program (`generators/referee/`).
pub const GENERATOR: &str = "referee";

/// The seed BAPCtools passes for `{seed}` in the rule `command` under `salt`.
pub fn bapctools_seed(salt: &str, command: &str) -> u64 {
    let digest = Sha512::digest(format!("{salt}{}", command.trim()).as_bytes());
    let low = u32::from_be_bytes([digest[60], digest[61], digest[62], digest[63]]);
    u64::from(low & 0x7fff_ffff)
}

/// Every case of `G`'s package under `rules`: the samples, the edge cases, then `count`
/// random cases taking the generator rules in turn, all different and inside the contest's
/// limits.
pub fn plan<G: Game + Generated + Packaged>(
    content: &Content,
    rules: G::Options,
    count: usize,
    salt: &str,
) -> Result<Vec<Planned>, PlanError> {
    let mut planned = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let named = |group: Group, index: usize, name: &str, input: &[u8]| Planned {
        group,
        name: match group {
            Group::Sample => format!("{index:02}-{name}"),
            Group::Secret => format!("{index:03}-{name}"),
        },
        command: format!("{GENERATOR} --case {name}"),
        purpose: None,
        input: input.to_vec(),
    };
    for (i, (name, input)) in content.samples.iter().enumerate() {
        seen.insert(input.clone());
        planned.push(named(Group::Sample, i + 1, name, input));
    }
    let mut secret = 0;
    for (name, input) in &content.edge_cases {
        if !seen.insert(input.clone()) {
            return Err(PlanError::RepeatedEdgeCase { name: name.clone() });
        }
        secret += 1;
        planned.push(named(Group::Secret, secret, name, input));
    }
    if count > 0 && content.generator_rules.is_empty() {
        return Err(PlanError::NoGeneratorRules { game: G::NAME });
    }
    let shapes = content
        .generator_rules
        .iter()
        .map(|rule| {
            let words: Vec<&str> = rule.knobs.split_whitespace().collect();
            G::Case::shape(&Knobs::from_words(
                &words,
                <G::Case as crate::game::Case>::KNOBS,
            )?)
        })
        .collect::<Result<Vec<_>, KnobError>>()?;
    let mut item = 0u64;
    let bar = crate::util::pool::progress(count, "package", "random cases");
    for i in 0..count {
        bar.inc(1);
        let rule = &content.generator_rules[i % content.generator_rules.len()];
        let shape = &shapes[i % shapes.len()];
        let draw = Draw {
            rule,
            salt,
            most_items: 100 * (count as u64 + 1),
        };
        let (command, input) = draw.fresh::<G>(shape, rules, &mut item, &mut seen)?;
        secret += 1;
        planned.push(Planned {
            group: Group::Secret,
            name: format!("{secret:03}-{}", rule.name),
            command,
            purpose: Some(rule.purpose),
            input,
        });
    }
    bar.finish_and_clear();
    Ok(planned)
}

/// Why a package's cases cannot be planned.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    /// An edge case the same as an earlier case.
    #[error("the edge case {name} repeats an earlier case")]
    RepeatedEdgeCase {
        /// The edge case.
        name: String,
    },
    /// Random cases asked of a game with no generator rules.
    #[error("{game} has no generator rules")]
    NoGeneratorRules {
        /// The game.
        game: &'static str,
    },
    /// A generator rule's knobs are wrong.
    #[error(transparent)]
    Knob(#[from] KnobError),
    /// A case cannot be drawn.
    #[error(transparent)]
    Generate(#[from] crate::gen::GenerateError),
    /// A rule whose draws keep repeating cases already planned.
    #[error("the rule {rule} of {game} keeps drawing cases already in the package")]
    KeepsRepeating {
        /// The rule.
        rule: String,
        /// The game.
        game: &'static str,
    },
}

/// The random cases of one generator rule, drawn item by item.
struct Draw<'a> {
    rule: &'a GeneratorRule,
    salt: &'a str,
    /// The item past which drawing stops: the rule keeps drawing cases already planned.
    most_items: u64,
}

impl Draw<'_> {
    /// The generator's command and the input of the first case from item `*item` on that is
    /// not in `seen` (a case repeating an earlier one is replaced by the next item's); `*item`
    /// moved past it, and it added to `seen`.
    fn fresh<G: Game + Generated + Packaged>(
        &self,
        shape: &<G::Case as crate::game::Case>::Shape,
        rules: G::Options,
        item: &mut u64,
        seen: &mut std::collections::HashSet<Vec<u8>>,
    ) -> Result<(String, Vec<u8>), PlanError> {
        loop {
            let mut command = format!("{GENERATOR} --seed {{seed}} --item {item}");
            if !self.rule.knobs.is_empty() {
                command.push(' ');
                command.push_str(self.rule.knobs);
            }
            let seed = bapctools_seed(self.salt, &command);
            let input = crate::gen::one_case::<G>(seed, *item, shape, rules, true)?;
            *item += 1;
            if seen.insert(input.clone()) {
                return Ok((command, input));
            }
            if *item > self.most_items {
                return Err(PlanError::KeepsRepeating {
                    rule: self.rule.name.to_string(),
                    game: G::NAME,
                });
            }
        }
    }
}

/// `generators/generators.yaml`: the solution, the test group's validator arguments, and the
/// rule of every case in `planned`.
pub fn generators_yaml(
    planned: &[Planned],
    salt: &str,
    solution: &str,
    output_validator_args: &[String],
) -> String {
    let mut yaml = String::from(
        "# Every case of data/ and how it is made, for BAPCtools (`bt generate` remakes data/\n\
         # byte for byte, `bt fuzz` draws more of the {seed} rules). The generator `referee`\n\
         # (generators/referee/) runs `referee gen` and writes each case's .ans, the engine's\n\
         # verdicts. Written by `referee package`.\n",
    );
    yaml.push_str("version: 2025-12\n");
    yaml.push_str(&format!("random_salt: {}\n", yaml_string(salt)));
    yaml.push_str(&format!("solution: /submissions/accepted/{solution}\n"));
    yaml.push_str("test_group.yaml:\n");
    yaml.push_str(&format!(
        "  output_validator_args: [{}]\n",
        output_validator_args
            .iter()
            .map(|a| yaml_string(a))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    yaml.push_str("data:\n");
    for group in [Group::Sample, Group::Secret] {
        yaml.push_str(&format!("  {}:\n    data:\n", group.dir()));
        let mut last_purpose = None;
        for case in planned.iter().filter(|c| c.group == group) {
            if case.purpose.is_some() && case.purpose != last_purpose {
                yaml.push_str(&format!("      # {}\n", case.purpose.unwrap_or_default()));
            }
            last_purpose = case.purpose;
            yaml.push_str(&format!(
                "      {}: {}\n",
                yaml_string(&case.name),
                yaml_string(&case.command)
            ));
        }
    }
    yaml
}

/// `text` as a double-quoted YAML string.
pub fn yaml_string(text: &str) -> String {
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
}

impl crate::util::error::RunRefusal for PlanError {}

#[cfg(test)]
mod tests {
    use super::*;

    /// BAPCtools' seed: int(sha512(salt + command).hexdigest(), 16) % 2**31.
    #[test]
    fn seeds_are_bapctools_seeds() {
        // python3 -c 'import hashlib; print(int(hashlib.sha512(b"7referee --seed {seed} --item 0").hexdigest(), 16) % 2**31)'
        assert_eq!(
            bapctools_seed("7", "  referee --seed {seed} --item 0 "),
            bapctools_seed("7", "referee --seed {seed} --item 0")
        );
        assert_ne!(
            bapctools_seed("7", "referee --seed {seed} --item 0"),
            bapctools_seed("8", "referee --seed {seed} --item 0")
        );
        assert_eq!(
            bapctools_seed("7", "referee --seed {seed} --item 0"),
            512_607_625
        );
        assert_eq!(bapctools_seed("", "x"), 1_427_832_418);
    }
}
