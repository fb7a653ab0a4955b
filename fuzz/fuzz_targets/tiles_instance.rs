//! Any text given as a tiles instance is parsed or rejected, never panics;
//! an accepted instance is solvable and round-trips through the codec.
#![no_main]
use frontier_core::{Domain, PackedState};
use frontier_tiles::{Goal, Tiles};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    for goal in [Goal::Korf, Goal::Standard] {
        if let Ok(puzzle) = Tiles::parse(text, goal) {
            let mut words = vec![0; puzzle.packed_words()];
            puzzle.pack(&puzzle.start(), &mut words);
            assert_eq!(puzzle.unpack(&words).ok(), Some(puzzle.start()));
        }
    }
});
