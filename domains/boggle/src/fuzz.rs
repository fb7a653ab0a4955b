//! Boggle's fuzz property on frontier's harness (`frontier_core::fuzz`):
//! `cargo test` checks it on edits of the seeds (`tests/fuzz.rs` of the
//! workspace), cargo-fuzz for as long as one likes
//! (`fuzz/fuzz_targets/boggle_input.rs`, one line).

use frontier_core::fuzz::Target;

use crate::{find_words, Board, Scorer, Trie};

/// A word list (bytes before the first zero) and a board (the text after
/// it) parse or are refused; a board of up to 12 cells scores the same
/// with the tuned solver and the path listing. Larger boards are not
/// scored: a one-letter board with that letter repeated in the list has
/// more prefix paths on 5×5 and up than any time limit.
pub fn boggle_input(data: &[u8]) {
    let split = data.iter().position(|&b| b == 0).unwrap_or(data.len());
    let (words, board) = data.split_at(split);
    let list = crate::WordList::parse(words);
    let trie = Trie::build(&list);
    let Ok(text) = std::str::from_utf8(board.get(1..).unwrap_or_default()) else {
        return;
    };
    if let Some(board) = Board::parse(text, None)
        .ok()
        .filter(|b| b.shape().cells() <= 12)
    {
        let score = Scorer::new(&trie).score(&board);
        let listed: u32 = find_words(&trie, &board).iter().map(|w| w.points).sum();
        assert_eq!(score, listed, "{text:?}");
    }
}

fn boggle_seeds() -> Vec<Vec<u8>> {
    vec![
        b"tea\neat\nrate\nstare\nquest\nsea\0tear\nsqeu\nates".to_vec(),
        b"rates\ntears\naster\0rat/ese/sta".to_vec(),
    ]
}

/// Boggle's targets.
pub const TARGETS: &[Target] = &[Target {
    name: "boggle_input",
    property: boggle_input,
    seeds: boggle_seeds,
    alphabet: b"aeqrstu\n\x00 /",
}];
