//! Word lists and boards never panic: any bytes parse into a word list (bad
//! lines counted), any text is a board or an error, and a parsed board
//! scores the same with the tuned solver and the path listing.
//!
//! Boards are scored up to 12 cells: a depth-first Boggle solver visits
//! every path that spells a dictionary prefix, and a fuzzer soon writes a
//! board of one letter with a list of that letter repeated, whose paths on
//! a 5×5 board outnumber any time limit (the slow input of the first
//! ten-minute run). Real dictionaries bound that; the fuzzer does not.
#![no_main]
use frontier_boggle::{find_words, Board, Scorer, Trie, WordList};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let split = data.iter().position(|&b| b == 0).unwrap_or(data.len());
    let (words, board) = data.split_at(split);
    let list = WordList::parse(words);
    let trie = Trie::build(&list);
    if let Ok(text) = std::str::from_utf8(board.get(1..).unwrap_or_default()) {
        if let Some(board) = Board::parse(text, None).ok().filter(|b| b.shape().cells() <= 12) {
            let score = Scorer::new(&trie).score(&board);
            let listed: u32 = find_words(&trie, &board).iter().map(|w| w.points).sum();
            assert_eq!(score, listed);
        }
    }
});
