//! The sliding tiles' fuzz properties on frontier's harness
//! (`frontier_core::fuzz`): `cargo test` checks them on edits of the seeds
//! (`tests/fuzz.rs` of the workspace), cargo-fuzz for as long as one likes
//! (`fuzz/fuzz_targets/tiles_*.rs`, one line each).

use frontier_core::fuzz::{bytes_of, packed_round_trip, packed_start, Target};

use crate::{Goal, Tiles};

const TILES_TEXT: [&str; 5] = [
    "1 2 3 4 5 6 7 8 0",
    "13 6 8 12 15 14 0 10 11 7 4 5 9 1 3 2",
    "14 5 9 2 18 8 23 19 12 17 15 0 10 20 4 6 11 21 1 7 24 3 16 22 13",
    // The 35- and 48-puzzles' goals: 6 bits a tile, 7 and 10 words.
    "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 0",
    "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 0",
];

/// Any text given as a tiles instance is parsed or refused; an accepted
/// instance's start and its successors round-trip through the codec.
pub fn tiles_instance(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for goal in [Goal::Korf, Goal::Standard] {
        if let Ok(puzzle) = Tiles::parse(text, goal) {
            packed_round_trip(&puzzle, &[]);
        }
    }
}

fn tiles_seeds() -> Vec<Vec<u8>> {
    TILES_TEXT.iter().map(|t| t.as_bytes().to_vec()).collect()
}

/// Arbitrary packed words decode to a valid board (8- to 48-puzzle) that
/// re-encodes to the same words, or are refused.
pub fn tiles_codec(data: &[u8]) {
    for text in &TILES_TEXT {
        if let Ok(puzzle) = Tiles::parse(text, Goal::Standard) {
            packed_round_trip(&puzzle, data);
        }
    }
}

fn tiles_codec_seeds() -> Vec<Vec<u8>> {
    TILES_TEXT
        .iter()
        .filter_map(|text| Tiles::parse(text, Goal::Standard).ok())
        .map(|puzzle| bytes_of(&packed_start(&puzzle)))
        .collect()
}

/// The tiles' targets.
pub const TARGETS: &[Target] = &[
    Target {
        name: "tiles_instance",
        property: tiles_instance,
        seeds: tiles_seeds,
        alphabet: b"0123456789 \n,-",
    },
    Target {
        name: "tiles_codec",
        property: tiles_codec,
        seeds: tiles_codec_seeds,
        alphabet: b"\x00\x01\x02\x0f\x10\x21\x43\xff",
    },
];
