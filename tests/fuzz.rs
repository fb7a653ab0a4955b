//! Every fuzz target's property (each domain's `fuzz` module, gathered by
//! `frontier::fuzzing`) on edits of its valid seeds, for a couple of seconds
//! per target (`FRONTIER_FUZZ_SECONDS` sets how many), through
//! `frontier_core::fuzz::exercise`, so that every `cargo test` exercises what
//! `fuzz/` checks for hours. A failure prints the input; add it as a
//! regression test beside the property's domain.

use std::time::Duration;

use frontier::fuzzing;

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
    match frontier_core::fuzz::exercise(&target, budget(), MIN_INPUTS) {
        Ok(inputs) => eprintln!("{name}: {inputs} inputs"),
        Err(finding) => panic!("{finding}"),
    }
}

#[test]
fn every_fuzz_target_is_exercised_here() {
    let targets = fuzzing::targets();
    let names: Vec<&str> = targets.iter().map(|t| t.name).collect();
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
        "fuzz/fuzz_targets and frontier::fuzzing::targets() differ"
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
            "boggle_proof_files" => frontier_boggle::results::parse("seed", &text).is_ok(),
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
    for target in fuzzing::targets() {
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
fn boggle_proof_files() {
    exercise("boggle_proof_files");
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
