//! The properties the fuzz targets check, in one place: `fuzz/` runs them
//! under libFuzzer, and `cargo test` runs them on inputs that
//! [`arbitrary`] builds from each target's seeds (`tests/fuzz.rs`), so CI
//! exercises every property on every submission.
//!
//! A property takes the raw bytes a fuzzer would give and panics when what
//! it holds is false: here a panic is the finding, not an input error.
//! Each target also names seeds (valid inputs, so that edits of them reach
//! past the first parse error) and the bytes its format is made of.

use arbitrary::Unstructured;
use frontier_boggle::{find_words, Board, Scorer, Trie};
use frontier_core::grid::Grid;
use frontier_core::PackedState;
use frontier_nonogram::{solve_cdcl, Puzzle, SolveOptions};
use frontier_pancake::Pancake;
use frontier_tiles::{Goal, Tiles};
use frontier_wordle::{feedback, parse_pattern, pattern, Word};

/// One fuzz target: its property, and what `cargo test` builds inputs from.
pub struct Target {
    /// The cargo-fuzz binary's name (`fuzz/fuzz_targets/<name>.rs`).
    pub name: &'static str,
    /// Panics when the property fails for these bytes.
    pub property: fn(&[u8]),
    /// Valid inputs to edit.
    pub seeds: fn() -> Vec<Vec<u8>>,
    /// The bytes the format is made of, favoured by the edits.
    pub alphabet: &'static [u8],
}

/// Every target, in the order `fuzz/README.md` lists them.
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
    Target {
        name: "grid_parse",
        property: grid_parse,
        seeds: grid_seeds,
        alphabet: b".#SG@T \n",
    },
    Target {
        name: "nonogram_parse",
        property: nonogram_parse,
        seeds: nonogram_seeds,
        alphabet: b"0123 ,\nwidthegrowsclumn",
    },
    Target {
        name: "nonogram_explain",
        property: nonogram_explain,
        seeds: nonogram_explain_seeds,
        alphabet: b"0123 ;#.?",
    },
    Target {
        name: "nonogram_overlap",
        property: nonogram_overlap,
        seeds: nonogram_explain_seeds,
        alphabet: b"0123 ;#.?",
    },
    Target {
        name: "boggle_input",
        property: boggle_input,
        seeds: boggle_seeds,
        alphabet: b"aeqrstu\n\x00 /",
    },
    Target {
        name: "pancake_input",
        property: pancake_input,
        seeds: pancake_seeds,
        alphabet: b"0123456789 ,-\n\x00",
    },
    Target {
        name: "wordle_input",
        property: wordle_input,
        seeds: wordle_seeds,
        alphabet: b"aelrstGY.-bX \n",
    },
    Target {
        name: "config_parse",
        property: config_parse,
        seeds: config_seeds,
        alphabet: b"(),:[]\"0a-{}",
    },
];

/// The target called `name`, if there is one.
pub fn target(name: &str) -> Option<&'static Target> {
    TARGETS.iter().find(|t| t.name == name)
}

/// Builds one input for `target` from `u`: one of its seeds (or nothing),
/// then up to eight edits, each a byte inserted, removed or replaced (from
/// the target's alphabet or any byte), or a slice of another seed spliced
/// in. Once `u` runs dry every choice takes its first option, so short
/// entropy still gives valid inputs.
pub fn input(u: &mut Unstructured, target: &Target) -> arbitrary::Result<Vec<u8>> {
    let seeds = (target.seeds)();
    let mut data = if seeds.is_empty() || u.ratio(1, 16)? {
        Vec::new()
    } else {
        u.choose(&seeds)?.clone()
    };
    for _ in 0..u.int_in_range(0..=8u8)? {
        let byte = if u.ratio(3, 4)? {
            *u.choose(target.alphabet)?
        } else {
            u.arbitrary()?
        };
        let at = u.choose_index(data.len() + 1)?;
        match u.int_in_range(0..=3u8)? {
            0 => data.insert(at, byte),
            1 if at < data.len() => drop(data.remove(at)),
            2 if at < data.len() => data[at] = byte,
            3 if !seeds.is_empty() => {
                let other = u.choose(&seeds)?;
                let from = u.choose_index(other.len() + 1)?;
                let to = from + u.choose_index(other.len() - from + 1)?;
                data.splice(at..at, other[from..to].iter().copied());
            }
            _ => data.insert(at, byte),
        }
    }
    Ok(data)
}

fn words_of(data: &[u8]) -> Vec<u32> {
    data.chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn bytes_of(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// The domain's start state, packed.
fn packed_start<D: PackedState>(domain: &D) -> Vec<u32> {
    let mut words = vec![0; domain.packed_words()];
    domain.pack(&domain.start(), &mut words);
    words
}

/// The start packs and unpacks back to itself.
fn assert_start_round_trips<D: PackedState>(domain: &D, context: &str) {
    let words = packed_start(domain);
    assert_eq!(
        domain.unpack(&words).ok(),
        Some(domain.start()),
        "{context:?}"
    );
}

/// Words that unpack re-pack to themselves (words that do not are refused).
fn assert_words_round_trip<D: PackedState>(domain: &D, words: &[u32]) {
    if let Ok(state) = domain.unpack(words) {
        let mut again = vec![0; domain.packed_words()];
        domain.pack(&state, &mut again);
        assert_eq!(again, words);
    }
}

const TILES_TEXT: [&str; 3] = [
    "1 2 3 4 5 6 7 8 0",
    "13 6 8 12 15 14 0 10 11 7 4 5 9 1 3 2",
    "14 5 9 2 18 8 23 19 12 17 15 0 10 20 4 6 11 21 1 7 24 3 16 22 13",
];

/// Any text given as a tiles instance is parsed or refused; an accepted
/// instance round-trips through the codec.
pub fn tiles_instance(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for goal in [Goal::Korf, Goal::Standard] {
        if let Ok(puzzle) = Tiles::parse(text, goal) {
            assert_start_round_trips(&puzzle, text);
        }
    }
}

fn tiles_seeds() -> Vec<Vec<u8>> {
    TILES_TEXT.iter().map(|t| t.as_bytes().to_vec()).collect()
}

/// Arbitrary packed words decode to a valid 8- or 15-puzzle board that
/// re-encodes to the same words, or are refused.
pub fn tiles_codec(data: &[u8]) {
    let words = words_of(data);
    for text in &TILES_TEXT[..2] {
        if let Ok(puzzle) = Tiles::parse(text, Goal::Standard) {
            assert_words_round_trip(&puzzle, &words);
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

/// Maze text parses or is refused with an error.
pub fn grid_parse(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = Grid::parse(text);
    }
}

fn grid_seeds() -> Vec<Vec<u8>> {
    vec![
        b"S..#\n.#..\n...G\n".to_vec(),
        b"S.........\n.########.\n.........G\n".to_vec(),
    ]
}

/// Puzzle text in either format parses or is refused; what parses prints
/// as `.non` and parses back to itself; a small puzzle is solved and every
/// solution reported satisfies the clues.
pub fn nonogram_parse(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(puzzle) = Puzzle::parse(text) else {
        return;
    };
    assert_eq!(
        Puzzle::parse_non(&puzzle.to_non()).ok(),
        Some(puzzle.clone()),
        "{text:?}"
    );
    if puzzle.width * puzzle.height <= 64 {
        let options = SolveOptions {
            max_seconds: Some(1.0),
            ..SolveOptions::default()
        };
        let outcome = solve_cdcl(&puzzle, &options);
        assert!(
            outcome.solutions.iter().all(|s| puzzle.accepts(s)),
            "{text:?}"
        );
    }
}

fn nonogram_seeds() -> Vec<Vec<u8>> {
    vec![
        b"width 3\nheight 3\n\nrows\n1\n3\n1\n\ncolumns\n1\n3\n1\n".to_vec(),
        b"width 4\nheight 2\n\nrows\n2,1\n4\n\ncolumns\n2\n2\n1\n2\n".to_vec(),
        b"3 3\n1\n3\n1\n1\n3\n1\n".to_vec(),
    ]
}

/// A line as `clue;cells` (`1 3;#.???.`: runs, then `#` filled, `.` empty,
/// `?` unknown) parses or is ignored; when its known cells leave it no
/// placement, the automaton cut (`frontier_nonogram::explain`) is a part
/// of them that the line solver still finds infeasible, and otherwise
/// there is no cut; each cell the line solver deduces is explained by a
/// part of the known cells that, with the cell's other value imposed, is
/// infeasible. A wrong cut would let `cdcl` learn a false clause.
pub fn nonogram_explain(data: &[u8]) {
    use frontier_nonogram::explain::LineCut;
    use frontier_nonogram::line::{LineSolver, EMPTY, FILLED, UNKNOWN};
    let Some((text, clue, cells)) = parse_line(data) else {
        return;
    };
    let n = cells.len();
    let mut cut = LineCut::default();
    let mut kept = Vec::new();
    let runs: Vec<u32> = clue.into_iter().filter(|&b| b > 0).collect();
    let least = runs.iter().map(|&b| u64::from(b) + 1).sum::<u64>();
    if n > 400 || least > n as u64 + 1 {
        // Runs that cannot fit are explained by no cell; the line solver
        // is not asked about such clues.
        if least > n as u64 + 1 {
            assert!(cut.explain(&runs, &cells, None, &mut kept), "{text:?}");
            assert!(kept.is_empty(), "{text:?}");
        }
        return;
    }
    let mut solver = LineSolver::default();
    let only = |kept: &[usize], imposed: Option<(usize, u8)>| {
        let mut part = vec![UNKNOWN; n];
        for &i in kept {
            assert_ne!(cells[i], UNKNOWN, "an unknown cell in the cut of {text:?}");
            part[i] = cells[i];
        }
        if let Some((i, v)) = imposed {
            assert!(
                !kept.contains(&i),
                "the imposed cell in its own cut: {text:?}"
            );
            part[i] = v;
        }
        part
    };
    let mut solved = cells.clone();
    let feasible = solver.solve(&runs, &mut solved).is_ok();
    let found = cut.explain(&runs, &cells, None, &mut kept);
    assert_eq!(found, !feasible, "{text:?}");
    if found {
        assert!(!solver.feasible(&runs, &mut only(&kept, None)), "{text:?}");
        return;
    }
    for i in (0..n).filter(|&i| cells[i] == UNKNOWN && solved[i] != UNKNOWN) {
        let other = if solved[i] == FILLED { EMPTY } else { FILLED };
        kept.clear();
        assert!(
            cut.explain(&runs, &cells, Some((i, other)), &mut kept),
            "{text:?} cell {i}"
        );
        let mut part = only(&kept, Some((i, other)));
        assert!(!solver.feasible(&runs, &mut part), "{text:?} cell {i}");
    }
}

/// A line as `clue;cells` (see [`nonogram_explain`]): the text, the clue
/// and the cells, or `None` where the bytes are not such a line.
fn parse_line(data: &[u8]) -> Option<(&str, Vec<u32>, Vec<u8>)> {
    use frontier_nonogram::line::{EMPTY, FILLED, UNKNOWN};
    let text = std::str::from_utf8(data).ok()?;
    let (clue_text, cells_text) = text.split_once(';')?;
    let clue = clue_text
        .split_whitespace()
        .map(str::parse::<u32>)
        .collect::<Result<Vec<u32>, _>>()
        .ok()?;
    let cells = cells_text
        .chars()
        .map(|c| match c {
            '#' => Some(FILLED),
            '.' => Some(EMPTY),
            '?' => Some(UNKNOWN),
            _ => None,
        })
        .collect::<Option<Vec<u8>>>()?;
    Some((text, clue, cells))
}

/// A line as in [`nonogram_explain`]: the quick solver
/// (`frontier_nonogram::overlap`), which propagation trusts on long lines
/// before the exact solver sees them, fixes only cells the exact line
/// solver fixes to the same value, finds a contradiction only where the
/// exact solver does, leaves the cells as they were where it gives up, and
/// on a line with no known cell fixes what the exact solver fixes. A wrong
/// quick deduction would let a search prune solutions and answer `unique`
/// or `none` wrongly.
pub fn nonogram_overlap(data: &[u8]) {
    use frontier_nonogram::line::{LineSolver, UNKNOWN};
    use frontier_nonogram::overlap::OverlapSolver;
    let Some((text, clue, cells)) = parse_line(data) else {
        return;
    };
    let runs: Vec<u32> = clue.into_iter().filter(|&b| b > 0).collect();
    let least = runs.iter().map(|&b| u64::from(b) + 1).sum::<u64>();
    if cells.len() > 400 || least > cells.len() as u64 + 1 {
        // The line solver is not asked about clues that cannot fit.
        return;
    }
    let mut exact = cells.clone();
    let exact_outcome = LineSolver::default().solve(&runs, &mut exact);
    let mut quick = cells.clone();
    match OverlapSolver::default().solve(&runs, &mut quick) {
        Err(_) => assert!(exact_outcome.is_err(), "a false contradiction: {text:?}"),
        Ok(None) => assert_eq!(quick, cells, "gave up but changed cells: {text:?}"),
        Ok(Some(changed)) => {
            assert_eq!(changed, quick != cells, "{text:?}");
            if exact_outcome.is_ok() {
                for (i, (&was, &now)) in cells.iter().zip(&quick).enumerate() {
                    if was != now {
                        assert_eq!(now, exact[i], "cell {i} of {text:?}");
                    }
                }
                if cells.iter().all(|&c| c == UNKNOWN) {
                    assert_eq!(quick, exact, "an empty line: {text:?}");
                }
            }
        }
    }
}

fn nonogram_explain_seeds() -> Vec<Vec<u8>> {
    vec![
        b"1 3;#.????.".to_vec(),
        b"2 1 3;??#???????.#?".to_vec(),
        b"3 3;??????".to_vec(),
        b"1 1 1;#.#.#.#".to_vec(),
    ]
}

/// A word list (bytes before the first zero) and a board (the text after
/// it) parse or are refused; a board of up to 12 cells scores the same
/// with the tuned solver and the path listing. Larger boards are not
/// scored: a one-letter board with that letter repeated in the list has
/// more prefix paths on 5×5 and up than any time limit.
pub fn boggle_input(data: &[u8]) {
    let split = data.iter().position(|&b| b == 0).unwrap_or(data.len());
    let (words, board) = data.split_at(split);
    let list = frontier_boggle::WordList::parse(words);
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

/// Stack text parses to a stack that packs, unpacks and prints back to
/// itself, or is refused; arbitrary packed words unpack to a 7-stack that
/// re-packs to the same words, or are refused.
pub fn pancake_input(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(stack) = Pancake::parse(&text) {
        assert_start_round_trips(&stack, &text);
        assert_eq!(Pancake::parse(&stack.text()).ok(), Some(stack));
    }
    if let Ok(seven) = Pancake::parse("5 3 1 2 4 6 7") {
        assert_words_round_trip(&seven, &words_of(data));
    }
}

fn pancake_seeds() -> Vec<Vec<u8>> {
    let mut seeds = vec![b"5 3 1 2 4 6 7".to_vec(), b"3,1,2".to_vec()];
    if let Ok(seven) = Pancake::parse("5 3 1 2 4 6 7") {
        seeds.push(bytes_of(&packed_start(&seven)));
    }
    seeds
}

/// Word lists and feedback strings parse or are refused; every word kept
/// prints back to itself, and every pattern (accepted or computed) prints
/// back to one with the same code.
pub fn wordle_input(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let list = frontier_wordle::WordList::parse(&text);
    let lines = text.lines().filter(|l| !l.trim().is_empty()).count();
    assert!(list.words.len() + list.rejected <= lines, "{text:?}");
    for word in &list.words {
        assert_eq!(word.to_string().parse::<Word>().ok(), Some(*word));
    }
    for line in text.lines() {
        if let Ok(code) = parse_pattern(line) {
            assert!(code < 243, "{line:?}");
            assert_eq!(parse_pattern(&pattern(code)).ok(), Some(code), "{line:?}");
        }
    }
    if let [first, second, ..] = list.words[..] {
        let code = feedback(first, second);
        assert_eq!(parse_pattern(&pattern(code)).ok(), Some(code));
    }
}

fn wordle_seeds() -> Vec<Vec<u8>> {
    vec![
        b"salet\ncrane\ntrace\n".to_vec(),
        b"GY.-.\nbbgyb\n".to_vec(),
    ]
}

/// Any text as an experiment config (every domain) parses and plans as
/// `frontier run` would before its first search, or is refused.
pub fn config_parse(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = crate::check_config(text);
    }
}

fn config_seeds() -> Vec<Vec<u8>> {
    [
        include_str!("../configs/demo.ron"),
        include_str!("../configs/pancake-60.ron"),
        include_str!("../configs/wordle-prove.ron"),
        include_str!("../configs/nonogram-common.ron"),
        include_str!("../configs/boggle-reference.ron"),
        include_str!("../configs/gpu-ida-kf24.ron"),
        include_str!("../configs/bench-hda-15.ron"),
    ]
    .iter()
    .map(|t| t.as_bytes().to_vec())
    .collect()
}
