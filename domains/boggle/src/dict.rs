//! Word lists: reading a one-word-per-line file under Boggle's rules.
//!
//! A line counts as a word when, after trimming and case folding, it has at
//! least three letters, only `a`–`z`, and every `q` is followed by `u`. The
//! `qu` pair is stored as the single letter `q`, because the board's Qu die
//! is one cell. Everything else is counted by reason, never a panic.

use std::path::Path;

use crate::BoggleError;

/// Letters of a stored word: `0..26` for `a..z`, with `q` standing for "qu".
pub type Letters = Vec<u8>;

/// How many lines were skipped, by reason.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Skipped {
    /// Blank lines.
    pub blank: usize,
    /// Words shorter than three letters.
    pub too_short: usize,
    /// Lines with something other than a–z (after case folding).
    pub not_letters: usize,
    /// A `q` not followed by `u`.
    pub q_without_u: usize,
    /// The same word again.
    pub duplicates: usize,
}

impl Skipped {
    /// All skipped lines.
    pub fn total(&self) -> usize {
        self.blank + self.too_short + self.not_letters + self.q_without_u + self.duplicates
    }
}

/// The words of a list, sorted and distinct, in stored form.
#[derive(Clone, Debug, Default)]
pub struct WordList {
    /// Sorted, distinct stored words.
    pub words: Vec<Letters>,
    /// Lines read.
    pub lines: usize,
    /// Lines that were not words, by reason.
    pub skipped: Skipped,
}

impl WordList {
    /// Reads a word-list file (LF or CRLF).
    pub fn read(path: &Path) -> Result<WordList, BoggleError> {
        let bytes = std::fs::read(path).map_err(|source| BoggleError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Ok(WordList::parse(&bytes))
    }

    /// Parses the bytes of a word list. Lines that are not UTF-8 count as
    /// not letters.
    pub fn parse(bytes: &[u8]) -> WordList {
        let mut list = WordList::default();
        for raw in bytes.split(|&b| b == b'\n') {
            list.lines += 1;
            match stored_form(raw) {
                Ok(word) => list.words.push(word),
                Err(Reject::Blank) => list.skipped.blank += 1,
                Err(Reject::Short) => list.skipped.too_short += 1,
                Err(Reject::NotLetters) => list.skipped.not_letters += 1,
                Err(Reject::QWithoutU) => list.skipped.q_without_u += 1,
            }
        }
        // A final newline does not start another line.
        if bytes.last() == Some(&b'\n') {
            list.lines -= 1;
            list.skipped.blank -= 1;
        }
        list.words.sort_unstable();
        let before = list.words.len();
        list.words.dedup();
        list.skipped.duplicates = before - list.words.len();
        list
    }

    /// One line for logs: how many words, and what was skipped why.
    pub fn summary(&self) -> String {
        let s = &self.skipped;
        let mut reasons = Vec::new();
        for (n, why) in [
            (s.too_short, "shorter than 3 letters"),
            (s.not_letters, "not only a-z"),
            (s.q_without_u, "q without u"),
            (s.duplicates, "duplicates"),
            (s.blank, "blank"),
        ] {
            if n > 0 {
                reasons.push(format!("{n} {why}"));
            }
        }
        if reasons.is_empty() {
            format!("{} words from {} lines", self.words.len(), self.lines)
        } else {
            format!(
                "{} words from {} lines; {} skipped: {}",
                self.words.len(),
                self.lines,
                s.total(),
                reasons.join(", ")
            )
        }
    }
}

enum Reject {
    Blank,
    Short,
    NotLetters,
    QWithoutU,
}

fn stored_form(raw: &[u8]) -> Result<Letters, Reject> {
    let line = raw.trim_ascii();
    if line.is_empty() {
        return Err(Reject::Blank);
    }
    if !line.iter().all(u8::is_ascii_alphabetic) {
        return Err(Reject::NotLetters);
    }
    if line.len() < 3 {
        return Err(Reject::Short);
    }
    let mut word = Vec::with_capacity(line.len());
    let mut rest = line.iter().map(u8::to_ascii_lowercase).peekable();
    while let Some(c) = rest.next() {
        if c == b'q' && rest.next_if_eq(&b'u').is_none() {
            return Err(Reject::QWithoutU);
        }
        word.push(c - b'a');
    }
    Ok(word)
}

/// Boggle points for a stored word: its length counts `q` (Qu) as two.
pub fn points(word: &[u8]) -> u32 {
    let length = word.len() + word.iter().filter(|&&l| l == QU).count();
    points_for_length(length)
}

/// Points for a word of `length` letters: 3–4: 1, 5: 2, 6: 3, 7: 5, 8+: 11.
pub fn points_for_length(length: usize) -> u32 {
    match length {
        0..=2 => 0,
        3 | 4 => 1,
        5 => 2,
        6 => 3,
        7 => 5,
        _ => 11,
    }
}

/// The stored letter of the Qu die.
pub const QU: u8 = b'q' - b'a';

/// Spells a stored word the way it is read ("qu" for the Qu letter).
pub fn spell(word: &[u8]) -> String {
    let mut text = String::with_capacity(word.len() + 1);
    for &l in word {
        text.push((b'a' + l) as char);
        if l == QU {
            text.push('u');
        }
    }
    text
}
