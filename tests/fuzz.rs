//! Every fuzz target's property (`frontier::fuzzing`) on inputs that
//! `arbitrary` builds from seeded random bytes: edits of each target's
//! valid seeds, for a couple of seconds per target (`FRONTIER_FUZZ_SECONDS`
//! sets how many), so that every `cargo test` exercises what `fuzz/`
//! checks for hours. A failure prints the input; add it as a regression
//! test beside the property's domain.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

use arbitrary::Unstructured;
use frontier::fuzzing::{self, TARGETS};
use frontier_core::rng::SplitMix64;

/// Fewest inputs per target, however slow the build.
const MIN_INPUTS: u64 = 200;

fn budget() -> Duration {
    let seconds = std::env::var("FRONTIER_FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s >= 0.0)
        .unwrap_or(2.0);
    Duration::from_secs_f64(seconds)
}

fn exercise(name: &str) {
    let target = fuzzing::target(name).unwrap_or_else(|| panic!("no fuzz target {name}"));
    let seed = name
        .bytes()
        .fold(0xF0221u64, |h, b| h.rotate_left(7) ^ u64::from(b));
    let mut rng = SplitMix64::new(seed);
    let budget = budget();
    let start = Instant::now();
    let mut entropy = vec![0u8; 128];
    let mut inputs = 0u64;
    while inputs < MIN_INPUTS || start.elapsed() < budget {
        for chunk in entropy.chunks_mut(8) {
            chunk.copy_from_slice(&rng.next_u64().to_le_bytes());
        }
        let mut u = Unstructured::new(&entropy);
        // Every choice `input` makes has a first option to fall back on
        // once the bytes run out, so building never fails.
        let data = fuzzing::input(&mut u, target).expect("inputs build from any bytes");
        if catch_unwind(AssertUnwindSafe(|| (target.property)(&data))).is_err() {
            panic!(
                "{name}: the property fails on {:?}",
                String::from_utf8_lossy(&data)
            );
        }
        inputs += 1;
    }
    eprintln!(
        "{name}: {inputs} inputs in {:.1} s",
        start.elapsed().as_secs_f64()
    );
}

#[test]
fn every_fuzz_target_is_exercised_here() {
    let names: Vec<&str> = TARGETS.iter().map(|t| t.name).collect();
    let mut listed: Vec<String> =
        std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/fuzz/fuzz_targets"))
            .expect("fuzz/fuzz_targets exists")
            .filter_map(|e| e.ok()?.path().file_stem()?.to_str().map(String::from))
            .collect();
    listed.sort();
    let mut ours: Vec<String> = names.iter().map(|n| n.to_string()).collect();
    ours.sort();
    assert_eq!(
        listed, ours,
        "fuzz/fuzz_targets and frontier::fuzzing::TARGETS differ"
    );
}

#[test]
fn seeds_are_inputs_the_parsers_accept() {
    // Edits of valid inputs reach past the first parse error; a seed the
    // parser refuses would leave a target testing only its error path.
    let accepted = |name: &str, data: &[u8]| -> bool {
        let text = String::from_utf8_lossy(data);
        match name {
            "tiles_instance" => {
                frontier_tiles::Tiles::parse(&text, frontier_tiles::Goal::Standard).is_ok()
            }
            "grid_parse" => frontier_core::grid::Grid::parse(&text).is_ok(),
            "nonogram_parse" => frontier_nonogram::Puzzle::parse(&text).is_ok(),
            // A line the property reads (clue; cells of # . ?).
            "nonogram_explain" | "nonogram_overlap" => {
                text.split_once(';').is_some_and(|(clue, cells)| {
                    clue.split_whitespace().all(|t| t.parse::<u32>().is_ok())
                        && cells.chars().all(|c| "#.?".contains(c))
                })
            }
            "boggle_input" => {
                let board = data.splitn(2, |&b| b == 0).nth(1).unwrap_or_default();
                frontier_boggle::Board::parse(&String::from_utf8_lossy(board), None).is_ok()
            }
            "pancake_input" => frontier_pancake::Pancake::parse(&text).is_ok(),
            "wordle_input" => !frontier_wordle::WordList::parse(&text).words.is_empty(),
            "config_parse" => frontier::check_config(&text).is_ok(),
            "tiles_codec" => {
                let words: Vec<u32> = data
                    .chunks_exact(4)
                    .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                    .collect();
                let puzzle = frontier_tiles::Tiles::parse(
                    "1 2 3 4 5 6 7 8 0",
                    frontier_tiles::Goal::Standard,
                )
                .unwrap();
                frontier_core::PackedState::unpack(&puzzle, &words).is_ok()
            }
            other => panic!("no acceptance check for {other}"),
        }
    };
    for target in TARGETS {
        let seeds = (target.seeds)();
        assert!(
            seeds.iter().any(|seed| accepted(target.name, seed)),
            "{}: no seed is accepted",
            target.name
        );
    }
}

#[test]
fn tiles_instance() {
    exercise("tiles_instance");
}

#[test]
fn tiles_codec() {
    exercise("tiles_codec");
}

#[test]
fn grid_parse() {
    exercise("grid_parse");
}

#[test]
fn nonogram_parse() {
    exercise("nonogram_parse");
}

#[test]
fn nonogram_explain() {
    exercise("nonogram_explain");
}

#[test]
fn nonogram_overlap() {
    exercise("nonogram_overlap");
}

#[test]
fn boggle_input() {
    exercise("boggle_input");
}

#[test]
fn pancake_input() {
    exercise("pancake_input");
}

#[test]
fn wordle_input() {
    exercise("wordle_input");
}

#[test]
fn config_parse() {
    exercise("config_parse");
}
