//! Nonograms: readers and their errors, every solver against brute force
//! on small random puzzles, the framework executors, and the shared puzzle
//! set's verdicts where the peer solvers are fast.

use frontier_core::rng::SplitMix64;
use frontier_core::{astar, hda, Blind, HdaConfig, SearchOptions, StdHasher};
use frontier_nonogram::cdcl::solve_cdcl_until;
use frontier_nonogram::solver::Cutoff;
use frontier_nonogram::symmetry::symmetries;
use frontier_nonogram::{
    solve, solve_cdcl, solve_portfolio, NonogramSearch, Puzzle, SolveOptions, Verdict,
};

/// The text of reference file `nonogram/<name>` (the repository's data/
/// first, then `$FRONTIER_DATA`, then ../shared/data), or `None` after
/// `SKIPPED (needs …)`: GPL and GFDL puzzles are not shipped. Under CI a
/// missing file fails the test (`frontier_core::data::for_test`).
fn try_read(name: &str) -> Option<String> {
    let path = frontier_core::data::for_test(&format!("nonogram/{name}"))?;
    Some(std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
}

/// [`try_read`], returning from the test when the file is not here.
macro_rules! read {
    ($name:expr) => {
        match try_read(&$name) {
            Some(text) => text,
            None => return,
        }
    };
}

/// INDEX.tsv rows: (id, unique column, notes).
fn index() -> Vec<(String, String, String)> {
    try_read("INDEX.tsv")
        .expect("data/ ships INDEX.tsv")
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[0].to_string(), f[4].to_string(), f[7].to_string())
        })
        .collect()
}

/// Peer times from the notes: `pbnsolve 0.003 (…)`, `nonogrid_bt …`.
fn peer_seconds(notes: &str, peer: &str) -> Option<f64> {
    let at = notes.find(&format!("{peer} "))? + peer.len() + 1;
    notes[at..].split_whitespace().next()?.parse().ok()
}

fn verdict_of(column: &str) -> Option<Verdict> {
    match column {
        "yes" => Some(Verdict::Unique),
        "no" => Some(Verdict::Multiple),
        _ => None,
    }
}

#[test]
fn puzzles_the_peers_finish_within_a_second_get_the_index_verdict() {
    let mut checked = 0;
    for (id, unique, notes) in index() {
        let Some(want) = verdict_of(&unique) else {
            continue;
        };
        let fast = ["pbnsolve", "nonogrid_bt"]
            .iter()
            .all(|p| peer_seconds(&notes, p).is_some_and(|s| s < 1.0));
        if !fast {
            continue;
        }
        let Some(text) = try_read(&format!("{id}.nin")) else {
            continue;
        };
        let puzzle = Puzzle::parse(&text).unwrap();
        let outcome = solve_cdcl(
            &puzzle,
            &SolveOptions {
                max_seconds: Some(30.0),
                ..Default::default()
            },
        );
        assert_eq!(outcome.verdict, want, "{id}");
        assert!(outcome.solutions.iter().all(|s| puzzle.accepts(s)), "{id}");
        if want == Verdict::Unique {
            let sol = try_read(&format!("solutions/{id}.sol")).expect("shipped with its puzzle");
            let known: Vec<bool> = sol
                .lines()
                .flat_map(|l| l.trim().chars().map(|c| c == '#'))
                .collect();
            assert_eq!(
                outcome.solutions[0], known,
                "{id}: differs from the published solution"
            );
        }
        checked += 1;
    }
    assert!(checked >= 30, "only {checked} puzzles checked");
}

#[test]
fn knotty_has_several_solutions_found_through_its_symmetry() {
    // The survey's "Knotty": its clues are unchanged by a quarter turn of
    // the drawing inside the blank last row and column. No solution in 10
    // minutes searching the open grid; tying each cell to its turned
    // images finds one in a second, and a second solution lies near it.
    let puzzle = Puzzle::parse(&read!("knotty.nin")).unwrap();
    let turns: Vec<&str> = symmetries(&puzzle).iter().map(|s| s.name).collect();
    assert!(turns.contains(&"turn 90"), "{turns:?}");
    let outcome = solve_cdcl(
        &puzzle,
        &SolveOptions {
            max_seconds: Some(60.0),
            ..Default::default()
        },
    );
    assert_eq!(outcome.verdict, Verdict::Multiple, "{:?}", outcome.stats);
    let [first, second] = &outcome.solutions[..] else {
        panic!("{} solutions", outcome.solutions.len());
    };
    assert!(first != second && puzzle.accepts(first) && puzzle.accepts(second));
}

#[test]
fn symmetric_puzzles_count_like_brute_force() {
    // Clues drawn from grids that a quarter turn or a mirror keeps: the
    // search for a symmetric first solution, its images and the open
    // search after it must still count exactly.
    let mut rng = SplitMix64::new(77);
    let side = 4;
    for round in 0..60 {
        let turn = |cell: usize| (cell % side) * side + side - 1 - cell / side;
        let mirror = |cell: usize| cell / side * side + side - 1 - cell % side;
        let coin: Vec<bool> = (0..side * side).map(|_| rng.below(2) == 0).collect();
        let grid: Vec<bool> = (0..side * side)
            .map(|cell| {
                let orbit: Vec<usize> = if round % 2 == 0 {
                    vec![cell, turn(cell), turn(turn(cell)), turn(turn(turn(cell)))]
                } else {
                    vec![cell, mirror(cell)]
                };
                coin[*orbit.iter().min().unwrap_or(&cell)]
            })
            .collect();
        let puzzle = Puzzle::from_grid(side, side, &grid).unwrap();
        let truth = brute_force_count(&puzzle);
        for want in [1, 2, 3] {
            let options = SolveOptions {
                max_solutions: want,
                ..Default::default()
            };
            // Seeded, `cdcl` skips the depth-first search it starts with
            // (which would settle these small puzzles alone).
            for seed in [0, 1 + round as u64] {
                let outcome = solve_cdcl_until(&puzzle, &options, seed, Cutoff::at);
                assert_eq!(outcome.solutions.len(), truth.min(want), "{puzzle:?}");
                let mut distinct = outcome.solutions.clone();
                distinct.sort();
                distinct.dedup();
                assert_eq!(distinct.len(), outcome.solutions.len(), "{puzzle:?}");
                assert!(outcome.solutions.iter().all(|s| puzzle.accepts(s)));
            }
        }
    }
}

#[test]
fn dom_09_uniqueness_is_proved() {
    let puzzle = Puzzle::parse(&read!("dom-09.nin")).unwrap();
    let outcome = solve_cdcl(&puzzle, &SolveOptions::default());
    assert_eq!(outcome.verdict, Verdict::Unique);
    assert!(puzzle.accepts(&outcome.solutions[0]));
}

/// Every grid of a small puzzle, to count solutions exactly.
fn brute_force_count(puzzle: &Puzzle) -> usize {
    let n = puzzle.width * puzzle.height;
    (0u32..1 << n)
        .filter(|bits| {
            let grid: Vec<bool> = (0..n).map(|i| bits >> i & 1 == 1).collect();
            puzzle.accepts(&grid)
        })
        .count()
}

fn random_puzzle(rng: &mut SplitMix64, width: usize, height: usize) -> Puzzle {
    let grid: Vec<bool> = (0..width * height).map(|_| rng.below(100) < 55).collect();
    let mut puzzle = Puzzle::from_grid(width, height, &grid).unwrap();
    // Now and then a clue of another grid, so some puzzles have no solution.
    if rng.below(4) == 0 {
        let other: Vec<bool> = (0..width * height).map(|_| rng.below(2) == 0).collect();
        let p = Puzzle::from_grid(width, height, &other).unwrap();
        puzzle.rows[0] = p.rows[0].clone();
    }
    puzzle
}

#[test]
fn every_solver_counts_like_brute_force_on_random_small_puzzles() {
    let mut rng = SplitMix64::new(2024);
    for round in 0..150 {
        let (w, h) = [(4, 4), (3, 5), (5, 3), (4, 3)][round % 4];
        let puzzle = random_puzzle(&mut rng, w, h);
        let truth = brute_force_count(&puzzle);
        let want = match truth {
            0 => Verdict::None,
            1 => Verdict::Unique,
            _ => Verdict::Multiple,
        };
        let options = SolveOptions {
            max_solutions: 3,
            ..Default::default()
        };
        let seeded = solve_cdcl_until(&puzzle, &options, 7 + round as u64, Cutoff::at);
        for (name, outcome) in [
            ("cdcl", solve_cdcl(&puzzle, &options)),
            ("seeded cdcl", seeded),
            ("dfs", solve(&puzzle, &options)),
            ("portfolio", solve_portfolio(&puzzle, &options, 3)),
        ] {
            assert_eq!(outcome.verdict, want, "{name} on {puzzle:?}");
            assert_eq!(
                outcome.solutions.len(),
                truth.min(3),
                "{name} on {puzzle:?}"
            );
            assert!(outcome.solutions.iter().all(|s| puzzle.accepts(s)));
            let mut distinct = outcome.solutions.clone();
            distinct.sort();
            distinct.dedup();
            assert_eq!(
                distinct.len(),
                outcome.solutions.len(),
                "{name} repeats a solution"
            );
        }
        let search = NonogramSearch::new(&puzzle, round % 2 == 0);
        let (walked, verdict, _) = search.solutions(3, &SearchOptions::default());
        assert_eq!(
            (walked.len(), verdict),
            (truth.min(3), want),
            "walk on {puzzle:?}"
        );
        // Probes cut short by a deadline (here: passed already) keep every
        // child: the search only guesses more, and counts the same.
        let cut = NonogramSearch::until(&puzzle, true, Some(std::time::Instant::now()));
        let (walked, verdict, _) = cut.solutions(3, &SearchOptions::default());
        assert_eq!(
            (walked.len(), verdict),
            (truth.min(3), want),
            "walk with its probes cut on {puzzle:?}"
        );
        let first = astar(&search, &Blind, &SearchOptions::default()).expect("valid limits");
        assert_eq!(first.solution().is_some(), truth > 0, "astar on {puzzle:?}");
        if let Some(s) = first.solution() {
            let grid: Vec<bool> = s.states.last().unwrap().iter().map(|&c| c == 1).collect();
            assert!(puzzle.accepts(&grid));
        }
    }
}

#[test]
fn hda_finds_valid_solutions_on_any_thread_count() {
    for id in [
        "webpbn-00023",
        "dom-06",
        "icga2016-0204",
        "rand-30x30-d50-s1",
    ] {
        let Some(text) = try_read(&format!("{id}.nin")) else {
            continue;
        };
        let puzzle = Puzzle::parse(&text).unwrap();
        let search = NonogramSearch::new(&puzzle, true);
        for threads in [1, 2, 3, 7] {
            let config = HdaConfig {
                threads,
                ..HdaConfig::default()
            };
            let outcome = hda(
                &search,
                &Blind,
                &StdHasher,
                &config,
                &SearchOptions::default(),
            )
            .expect("a valid HDA* config");
            let solution = outcome
                .solution()
                .unwrap_or_else(|| panic!("{id} on {threads} threads"));
            let grid: Vec<bool> = solution
                .states
                .last()
                .unwrap()
                .iter()
                .map(|&c| c == 1)
                .collect();
            assert!(puzzle.accepts(&grid), "{id} on {threads} threads");
        }
    }
}

#[test]
fn formats_round_trip_and_malformed_input_names_the_line() {
    for id in ["webpbn-00001", "rosetta-3", "dom-07"] {
        let Some(text) = try_read(&format!("{id}.nin")) else {
            continue;
        };
        let puzzle = Puzzle::parse(&text).unwrap();
        assert_eq!(Puzzle::parse_non(&puzzle.to_non()).unwrap(), puzzle);
        assert_eq!(Puzzle::parse_nin(&puzzle.to_nin()).unwrap(), puzzle);
        assert_eq!(Puzzle::parse(&puzzle.to_non()).unwrap(), puzzle);
    }
    let non =
        "catalogue \"x\"\ntitle \"plus\"\nwidth 3\nheight 3\n\nrows\n1\n3\n1\n\ncolumns\n1\n3\n1\n";
    assert_eq!(
        Puzzle::parse(non).unwrap(),
        Puzzle::parse_nin("3 3\n1\n3\n1\n1\n3\n1\n").unwrap()
    );
    let cases = [
        (
            "3 2\n1\n1 1 1\n1\n1\n1\n",
            "line 3: row 2: clue 1,1,1 needs 5 cells but the line has 3",
        ),
        ("2 2\n1\n1\nx\n1\n", "line 4: 'x' is not a run length"),
        ("2 2\n1\n1\n2\n", "expected 2 row clues and 2 column clues"),
        (
            "2 2\n1\n2\n1\n1\n",
            "row clues fill 3 cells but column clues fill 2",
        ),
        ("2\n1\n", "line 1: the first line must be 'width height'"),
        (
            "2 2\n1 0\n1\n1\n1\n",
            "line 2: a run of length 0 among other runs",
        ),
        (
            "width 2\nheight 2\nrows\n1\n1\ncolumns\n1\n",
            "expected 2 clues under 'columns', found 1",
        ),
        ("height 2\nrows\n1\n1\n", "no 'width' line"),
        ("", "empty file"),
    ];
    for (text, message) in cases {
        let err = Puzzle::parse(text).unwrap_err().to_string();
        assert!(err.contains(message), "{text:?}: {err}");
    }
}

#[test]
fn contradictory_clues_have_no_solution() {
    // Totals agree but no grid fits: rows 2,0 vs columns 0,2 in a 2x2.
    let puzzle = Puzzle::parse_nin("2 2\n2\n0\n0\n2\n").unwrap_or_else(|e| panic!("{e}"));
    for outcome in [
        solve_cdcl(&puzzle, &SolveOptions::default()),
        solve(&puzzle, &SolveOptions::default()),
    ] {
        assert_eq!(outcome.verdict, Verdict::None);
    }
    let search = NonogramSearch::new(&puzzle, true);
    assert!(astar(&search, &Blind, &SearchOptions::default())
        .expect("valid limits")
        .solution()
        .is_none());
}

#[test]
fn png_has_the_grid_dimensions() {
    let image = frontier_nonogram::png::encode(3, 2, &[true, false, true, false, true, false], 4);
    assert_eq!(&image[..8], b"\x89PNG\r\n\x1a\n");
    assert_eq!(&image[16..24], &[0, 0, 0, 20, 0, 0, 0, 16]); // (3+2)*4 by (2+2)*4
}

#[cfg(feature = "gpu")]
#[test]
fn gpu_propagation_equals_cpu_propagation() {
    use frontier_nonogram::gpu::{propagate_cpu, GpuPropagator, Propagated};
    if !frontier_core::gpu::usable_or_skip("gpu_propagation_equals_cpu_propagation") {
        return;
    }
    let propagator = GpuPropagator::new(0).unwrap();
    let mut rng = SplitMix64::new(99);
    for (w, h, count) in [(5, 5, 2000), (30, 30, 2000), (63, 41, 500), (1, 63, 100)] {
        let puzzles: Vec<Puzzle> = (0..count).map(|_| random_puzzle(&mut rng, w, h)).collect();
        let puzzle_of: Vec<u32> = (0..count as u32).collect();
        let mut cpu_grids = vec![0u8; count * w * h];
        let mut gpu_grids = cpu_grids.clone();
        let cpu = propagate_cpu(&puzzles, &puzzle_of, &mut cpu_grids);
        let (gpu, _) = propagator
            .propagate(&puzzles, &puzzle_of, &mut gpu_grids)
            .unwrap();
        assert_eq!(cpu, gpu, "{w}x{h}");
        for i in 0..count {
            if cpu[i] != Propagated::Contradiction {
                assert_eq!(
                    cpu_grids[i * w * h..(i + 1) * w * h],
                    gpu_grids[i * w * h..(i + 1) * w * h]
                );
            }
        }
        assert!(cpu.contains(&Propagated::Solved) || w * h > 1000);
    }
    let big = Puzzle::parse(&read!("webpbn-00529.nin")).unwrap();
    let err = propagator
        .propagate(&[big], &[0], &mut vec![0; 45 * 45])
        .err();
    assert!(err.is_none(), "45x45 fits the GPU propagator");
}

#[test]
fn search_states_pack_round_trip_and_garbage_is_refused() {
    use frontier_core::{Domain, PackedState};
    for id in ["webpbn-00023", "dom-06", "rand-30x30-d50-s1"] {
        let Some(text) = try_read(&format!("{id}.nin")) else {
            continue;
        };
        let puzzle = Puzzle::parse(&text).unwrap();
        let search = NonogramSearch::new(&puzzle, true);
        let mut words = vec![0u32; search.packed_words()];
        let mut states = vec![search.start()];
        let mut edges = Vec::new();
        search.expand(&states[0], &mut edges);
        states.extend(edges.into_iter().map(|e| e.state));
        for state in &states {
            search.pack(state, &mut words);
            assert_eq!(&search.unpack(&words).unwrap(), state, "{id}");
        }
        assert!(
            search.unpack(&vec![u32::MAX; words.len()]).is_err(),
            "cells of value 3"
        );
        assert!(search.unpack(&words[1..]).is_err(), "short");
    }
}

#[test]
fn cdcl_probes_a_puzzle_that_resists_learning() {
    // The upscaled tiger: line solving leaves most cells open and conflict
    // learning alone took 88,384 nodes and 136 s; probing at the first
    // restart settles it, and following chains of fixes keeps probing cheap
    // (15,759 probes in rounds over the whole grid, 2,907 along chains).
    let id = "up4-qnonograms-tiger";
    let puzzle = Puzzle::parse(&read!(format!("{id}.nin"))).unwrap();
    let outcome = solve_cdcl(
        &puzzle,
        &SolveOptions {
            max_seconds: Some(120.0),
            ..Default::default()
        },
    );
    assert_eq!(outcome.verdict, Verdict::Unique);
    assert!(puzzle.accepts(&outcome.solutions[0]));
    assert!(outcome.stats.probe_fixed > 0, "probing fixed nothing");
    assert!(outcome.stats.nodes < 1_000, "{:?}", outcome.stats);
    assert!(outcome.stats.probes < 5_000, "{:?}", outcome.stats);
    assert!(outcome.stats.line_cache_hits > 0, "{:?}", outcome.stats);
}

#[test]
fn probing_cut_short_keeps_only_sound_facts() {
    // A budget of a nanosecond a probe: the first probe is cut short
    // mid-propagation and probing ends. Every cell fixed on the way must
    // still agree with the puzzle's only solution, and the grid must stay
    // usable (a full probe afterwards solves it).
    let id = "up4-qnonograms-tiger";
    let puzzle = Puzzle::parse(&read!(format!("{id}.nin"))).unwrap();
    let solution: Vec<u8> = read!(format!("solutions/{id}.sol"))
        .lines()
        .flat_map(|row| {
            row.chars()
                .map(|c| if c == '#' { 1 } else { 2 })
                .collect::<Vec<u8>>()
        })
        .collect();
    let mut grid = frontier_nonogram::Grid::new(&puzzle);
    grid.propagate().unwrap();
    let known_after_lines = puzzle.width * puzzle.height - grid.unknown();
    grid.probe_while_fruitful(Cutoff::default(), 0.0, 1e-9)
        .unwrap();
    assert!(grid.stats.probes <= 1, "{:?}", grid.stats);
    for (cell, &value) in grid.cells.iter().enumerate() {
        assert!(
            value == 0 || value == solution[cell],
            "cell {cell} is wrong"
        );
    }
    assert!(puzzle.width * puzzle.height - grid.unknown() >= known_after_lines);
    assert_eq!(
        grid.probe(Cutoff::default()).unwrap(),
        None,
        "probing solves the tiger"
    );
    assert_eq!(grid.cells, solution);
}
