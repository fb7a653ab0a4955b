//! Pancake sorting's fuzz property on frontier's harness
//! (`frontier_core::fuzz`): `cargo test` checks it on edits of the seeds
//! (`tests/fuzz.rs` of the workspace), cargo-fuzz for as long as one likes
//! (`fuzz/fuzz_targets/pancake_input.rs`, one line).

use frontier_core::fuzz::{bytes_of, packed_round_trip, packed_start, text_round_trip, Target};

use crate::Pancake;

/// Stack text parses to a stack that packs, unpacks and prints back to
/// itself, or is refused; arbitrary packed words unpack to a 7-stack that
/// re-packs to the same words, or are refused.
pub fn pancake_input(data: &[u8]) {
    text_round_trip(data, Pancake::parse, Pancake::text);
    if let Ok(stack) = Pancake::parse(&String::from_utf8_lossy(data)) {
        packed_round_trip(&stack, &[]);
    }
    if let Ok(seven) = Pancake::parse("5 3 1 2 4 6 7") {
        packed_round_trip(&seven, data);
    }
}

fn pancake_seeds() -> Vec<Vec<u8>> {
    let mut seeds = vec![b"5 3 1 2 4 6 7".to_vec(), b"3,1,2".to_vec()];
    if let Ok(seven) = Pancake::parse("5 3 1 2 4 6 7") {
        seeds.push(bytes_of(&packed_start(&seven)));
    }
    seeds
}

/// Pancake sorting's targets.
pub const TARGETS: &[Target] = &[Target {
    name: "pancake_input",
    property: pancake_input,
    seeds: pancake_seeds,
    alphabet: b"0123456789 ,-\n\x00",
}];
