//! Wordle's fuzz property on frontier's harness (`frontier_core::fuzz`):
//! `cargo test` checks it on edits of the seeds (`tests/fuzz.rs` of the
//! workspace), cargo-fuzz for as long as one likes
//! (`fuzz/fuzz_targets/wordle_input.rs`, one line).

use frontier_core::fuzz::Target;

use crate::{feedback, parse_pattern, pattern, Word};

/// Word lists and feedback strings parse or are refused; every word kept
/// prints back to itself, and every pattern (accepted or computed) prints
/// back to one with the same code.
pub fn wordle_input(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let list = crate::WordList::parse(&text);
    let lines = text.lines().filter(|l| !l.trim().is_empty()).count();
    assert!(list.words.len() + list.rejected <= lines, "{text:?}");
    for word in &list.words {
        assert_eq!(word.to_string().parse::<Word>().ok(), Some(*word));
    }
    for line in text.lines() {
        if let Ok(code) = parse_pattern(line) {
            assert!(code < 243, "{line:?}");
            assert_eq!(parse_pattern(&pattern(code)).ok(), Some(code), "{line:?}");
        }
    }
    if let [first, second, ..] = list.words[..] {
        let code = feedback(first, second);
        assert_eq!(parse_pattern(&pattern(code)).ok(), Some(code));
    }
}

fn wordle_seeds() -> Vec<Vec<u8>> {
    vec![
        b"salet\ncrane\ntrace\n".to_vec(),
        b"GY.-.\nbbgyb\n".to_vec(),
    ]
}

/// Wordle's targets.
pub const TARGETS: &[Target] = &[Target {
    name: "wordle_input",
    property: wordle_input,
    seeds: wordle_seeds,
    alphabet: b"aelrstGY.-bX \n",
}];
