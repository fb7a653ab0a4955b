//! Arbitrary packed words either decode to a valid board that re-encodes to
//! the same words, or are rejected; decoding never panics.
#![no_main]
use frontier_core::PackedState;
use frontier_tiles::{Goal, Tiles};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let words: Vec<u32> = data.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
    for text in ["1 2 3 4 5 6 7 8 0", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0"] {
        let Ok(puzzle) = Tiles::parse(text, Goal::Standard) else { continue };
        if let Ok(state) = puzzle.unpack(&words) {
            let mut again = vec![0; puzzle.packed_words()];
            puzzle.pack(&state, &mut again);
            assert_eq!(again, words);
        }
    }
});
