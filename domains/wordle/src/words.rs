//! Five-letter words and word lists.

use std::path::Path;
use std::str::FromStr;

use crate::WordleError;

/// A five-letter word, letters `0..26`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Word(pub [u8; 5]);

impl FromStr for Word {
    type Err = WordleError;
    fn from_str(text: &str) -> Result<Word, WordleError> {
        let t = text.trim();
        let bytes = t.as_bytes();
        if bytes.len() != 5 || !bytes.iter().all(u8::is_ascii_alphabetic) {
            return Err(WordleError::Word(t.to_string()));
        }
        let mut w = [0u8; 5];
        for (slot, b) in w.iter_mut().zip(bytes) {
            *slot = b.to_ascii_lowercase() - b'a';
        }
        Ok(Word(w))
    }
}

impl std::fmt::Display for Word {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for &l in &self.0 {
            write!(f, "{}", (b'a' + l) as char)?;
        }
        Ok(())
    }
}

/// A list read from a file: the words, and how many lines were rejected.
#[derive(Clone, Debug, Default)]
pub struct WordList {
    /// Distinct words, in file order.
    pub words: Vec<Word>,
    /// Lines that were not five letters a–z (blank lines not counted).
    pub rejected: usize,
}

impl WordList {
    /// One word per line, duplicates kept once; other non-blank lines are
    /// counted in `rejected`.
    pub fn parse(text: &str) -> WordList {
        let mut list = WordList::default();
        let mut seen = std::collections::HashSet::new();
        for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
            match line.parse::<Word>() {
                Ok(w) if seen.insert(w) => list.words.push(w),
                Ok(_) => {}
                Err(_) => list.rejected += 1,
            }
        }
        list
    }
}

/// Reads one word per line; other lines are counted, not fatal.
pub fn read_words(path: &Path) -> Result<WordList, WordleError> {
    let text = std::fs::read_to_string(path).map_err(|source| WordleError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let list = WordList::parse(&text);
    if list.words.is_empty() {
        return Err(WordleError::Empty {
            path: path.to_path_buf(),
            skipped: list.rejected,
        });
    }
    Ok(list)
}
