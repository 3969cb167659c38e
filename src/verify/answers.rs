//! The expected verdicts of a case file: the non-empty lines of the `.ans` beside it, read one
//! at a time.

use std::io::{BufRead, BufReader, Read};
use std::path::PathBuf;

use crate::util::walk::CaseFile;

/// The non-empty lines of a `.ans`, read one at a time (each cut at [`ANSWER_LINE_MAX`]
/// bytes, no verdict being longer), trailing white space removed.
pub struct AnswerLines {
    reader: BufReader<std::io::Take<std::fs::File>>,
    path: PathBuf,
    /// The lines counted by [`AnswerLines::open_counted`].
    count: u64,
}

/// The longest `.ans` line kept: longer ones are cut (they are no verdict of any game).
pub const ANSWER_LINE_MAX: usize = 4096;

/// Why a case's `.ans` is not read.
#[derive(Debug, thiserror::Error)]
pub enum AnswerError {
    /// It is not read at all: why (outside the tree, too long, not a regular file, ...).
    #[error("{file}: {why}")]
    NotRead {
        /// The `.ans`, as shown.
        file: String,
        /// Why.
        why: crate::util::guard::NotRead,
    },
    /// Reading it failed.
    #[error("{file}: {source}")]
    Read {
        /// The `.ans`, as shown.
        file: String,
        /// Why.
        source: std::io::Error,
    },
}

impl AnswerLines {
    /// The `.ans` beside `case` (an input of `input_len` bytes), opened through
    /// [`crate::util::guard`]: from the case's tree only, a regular file, no longer than
    /// [`crate::util::guard::answer_bound`] of the input; `Ok(None)` when there is none.
    pub fn open(case: &CaseFile, input_len: u64) -> Result<Option<AnswerLines>, AnswerError> {
        let ans: PathBuf = case.path.with_extension("ans");
        match crate::util::guard::open(
            &ans,
            &case.tree,
            crate::util::guard::answer_bound(input_len),
        ) {
            Ok(Some(opened)) => Ok(Some(AnswerLines {
                reader: BufReader::new(opened.file),
                path: ans,
                count: 0,
            })),
            Ok(None) => Ok(None),
            Err(why) => Err(AnswerError::NotRead {
                file: crate::util::walk::display(&ans),
                why,
            }),
        }
    }

    /// [`open`](Self::open), its lines counted first (a pass over the file).
    pub fn open_counted(
        case: &CaseFile,
        input_len: u64,
    ) -> Result<Option<AnswerLines>, AnswerError> {
        let Some(mut counting) = AnswerLines::open(case, input_len)? else {
            return Ok(None);
        };
        let mut count = 0;
        while counting
            .read_line()
            .map_err(|e| counting.error(e))?
            .is_some()
        {
            count += 1;
        }
        Ok(AnswerLines::open(case, input_len)?.map(|lines| AnswerLines { count, ..lines }))
    }

    /// A read error, named by the file.
    pub fn error(&self, source: std::io::Error) -> AnswerError {
        AnswerError::Read {
            file: self.path.display().to_string(),
            source,
        }
    }

    pub fn count(&self) -> u64 {
        self.count
    }

    /// The next non-empty line, `None` at the end (or on a read error, which the count's
    /// pass would have met first).
    pub fn next_line(&mut self) -> Option<String> {
        self.read_line().ok().flatten()
    }

    pub fn read_line(&mut self) -> std::io::Result<Option<String>> {
        loop {
            let mut line = Vec::new();
            let read = (&mut self.reader)
                .take(ANSWER_LINE_MAX as u64)
                .read_until(b'\n', &mut line)?;
            if read == 0 {
                return Ok(None);
            }
            if line.last() != Some(&b'\n') && line.len() == ANSWER_LINE_MAX {
                // The rest of an overlong line.
                let mut rest = Vec::new();
                loop {
                    rest.clear();
                    let n = (&mut self.reader)
                        .take(64 * 1024)
                        .read_until(b'\n', &mut rest)?;
                    if n == 0 || rest.last() == Some(&b'\n') {
                        break;
                    }
                }
            }
            let text = String::from_utf8(line).map_err(|_| {
                std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    "stream did not contain valid UTF-8",
                )
            })?;
            let text = text.trim_end();
            if !text.is_empty() {
                return Ok(Some(text.to_string()));
            }
        }
    }
}
