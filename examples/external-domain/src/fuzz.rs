//! TopSpin's fuzz properties, on frontier's generic harness: each is one
//! line, and is both a cargo-fuzz target's body and a `cargo test`
//! (tests/topspin.rs).

use frontier_core::fuzz::{packed_round_trip, text_round_trip, Target};

use crate::TopSpin;

/// Packed words round-trip through a 9-token ring's codec, or are refused.
pub fn codec(data: &[u8]) {
    packed_round_trip(
        &TopSpin::parse("8 7 6 5 4 3 2 1 0", 4).expect("a valid ring"),
        data,
    );
}

/// Any text is a ring or is refused; a ring prints and reads back the same.
pub fn instance(data: &[u8]) {
    text_round_trip(data, |t| TopSpin::parse(t, 3), TopSpin::text);
}

/// Both properties, with the inputs they are checked on.
pub const TARGETS: &[Target] = &[
    Target {
        name: "topspin_codec",
        property: codec,
        seeds: || vec![vec![8, 7, 6, 5, 4, 3, 2, 1, 0, 0, 0, 0], (0..12).collect()],
        alphabet: b"\x00\x01\x02\x07\x08\x09\xff",
    },
    Target {
        name: "topspin_instance",
        property: instance,
        seeds: || vec![b"3 0 1 2".to_vec(), b"0,1,2,3,4,5".to_vec()],
        alphabet: b"0123456789 ,-",
    },
];
