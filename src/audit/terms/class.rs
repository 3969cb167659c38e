//! What a program is expected to do, or does: the classes of a Kattis package's `submissions/`.

use std::fmt;

use super::Kind;

/// What a program is expected to do on the problem's data, or does: the classes of a Kattis
/// package's `submissions/` folders.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    /// Accepted on every case.
    Accepted,
    /// A wrong answer on some case.
    WrongAnswer,
    /// Over the time limit on some case.
    TimeLimitExceeded,
    /// Crashes on some case (or writes more than the output cap); expected, it allows
    /// [`Class::MemoryLimitExceeded`] too, as Kattis' folders fold that into it.
    RunTimeError,
    /// Over the memory limit on some case.
    MemoryLimitExceeded,
    /// Expected only: anything but accepted.
    Rejected,
}

impl Class {
    /// Every class a folder or a table may name.
    pub const ALL: [Class; 6] = [
        Class::Accepted,
        Class::WrongAnswer,
        Class::TimeLimitExceeded,
        Class::RunTimeError,
        Class::MemoryLimitExceeded,
        Class::Rejected,
    ];

    /// The spelling of Kattis' folders.
    pub fn as_str(self) -> &'static str {
        match self {
            Class::Accepted => "accepted",
            Class::WrongAnswer => "wrong_answer",
            Class::TimeLimitExceeded => "time_limit_exceeded",
            Class::RunTimeError => "run_time_error",
            Class::MemoryLimitExceeded => "memory_limit_exceeded",
            Class::Rejected => "rejected",
        }
    }

    /// The class spelled `text`.
    pub fn parse(text: &str) -> Option<Class> {
        Class::ALL.into_iter().find(|c| c.as_str() == text)
    }

    /// The class of a run that failed with `kind`, as a judge system reports it.
    pub fn of_kind(kind: Kind) -> Class {
        match kind {
            Kind::Timeout => Class::TimeLimitExceeded,
            Kind::Crash | Kind::OutputLimit => Class::RunTimeError,
            Kind::MemoryLimit => Class::MemoryLimitExceeded,
            _ => Class::WrongAnswer,
        }
    }

    /// Whether a program expected in this class may do `does`.
    pub fn allows(self, does: Class) -> bool {
        match self {
            Class::Rejected => does != Class::Accepted,
            Class::RunTimeError => matches!(does, Class::RunTimeError | Class::MemoryLimitExceeded),
            expected => expected == does,
        }
    }
}

impl serde::Serialize for Class {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> serde::Deserialize<'de> for Class {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Class, D::Error> {
        let text = String::deserialize(d)?;
        Class::parse(&text).ok_or_else(|| serde::de::Error::custom(format!("not a class: {text}")))
    }
}

impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
