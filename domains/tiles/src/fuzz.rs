//! The sliding tiles' fuzz properties on frontier's harness
//! (`frontier_core::fuzz`): `cargo test` checks them on edits of the seeds
//! (`tests/fuzz.rs` of the workspace), cargo-fuzz for as long as one likes
//! (`fuzz/fuzz_targets/tiles_*.rs`, one line each).

use frontier_core::fuzz::{bytes_of, packed_round_trip, packed_start, Target};

use crate::{Goal, Tiles};

const TILES_TEXT: [&str; 3] = [
    "1 2 3 4 5 6 7 8 0",
    "13 6 8 12 15 14 0 10 11 7 4 5 9 1 3 2",
    "14 5 9 2 18 8 23 19 12 17 15 0 10 20 4 6 11 21 1 7 24 3 16 22 13",
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

/// Arbitrary packed words decode to a valid 8- or 15-puzzle board that
/// re-encodes to the same words, or are refused.
pub fn tiles_codec(data: &[u8]) {
    for text in &TILES_TEXT[..2] {
        if let Ok(puzzle) = Tiles::parse(text, Goal::Standard) {
            packed_round_trip(&puzzle, data);
        }
    }
}

fn tiles_codec_seeds() -> Vec<Vec<u8>> {
    TILES_TEXT[..2]
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
