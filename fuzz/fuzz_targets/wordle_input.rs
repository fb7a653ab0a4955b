//! Word lists and feedback strings: parsing never panics; every word kept
//! prints back to its line; every accepted pattern prints back to a pattern
//! with the same code, and feedback codes always print and parse back.
#![no_main]
use frontier_wordle::{feedback, parse_pattern, pattern, Word, WordList};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let list = WordList::parse(&text);
    for w in &list.words {
        assert_eq!(w.to_string().parse::<Word>().ok(), Some(*w));
    }
    for line in text.lines() {
        if let Ok(code) = parse_pattern(line) {
            assert!(code < 243);
            assert_eq!(parse_pattern(&pattern(code)).ok(), Some(code));
        }
    }
    if list.words.len() >= 2 {
        let code = feedback(list.words[0], list.words[1]);
        assert_eq!(parse_pattern(&pattern(code)).ok(), Some(code));
    }
});
