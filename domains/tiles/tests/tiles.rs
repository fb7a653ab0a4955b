//! The tiles domain against independent answers: exhaustive search on small
//! boards, a brute-force abstract search for pattern databases, and the
//! published optima of Korf's instances.

use std::collections::{HashMap, VecDeque};
use std::path::PathBuf;
use std::sync::Arc;

use frontier_core::{astar, Domain, Heuristic, PackedState, SearchOptions};
use frontier_tiles::pdb::{build, placements, rank, unrank};
use frontier_tiles::{
    cache, partition, solvable, AdditivePdb, Board, Dir, Goal, LinearRank, Manhattan, NetworkRank,
    TileState, Tiles, TilesHeuristic,
};

struct Rng(u64);
impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
    fn shuffle(&mut self, v: &mut [u8]) {
        for i in (1..v.len()).rev() {
            v.swap(i, self.below(i + 1));
        }
    }
}

/// Distances from the goal to every reachable state (moves are reversible).
fn all_distances(board: &Board, goal: Goal) -> HashMap<[u8; frontier_tiles::MAX_CELLS], u32> {
    let start = TileState::goal(board, goal);
    let mut dist = HashMap::from([(start.cells, 0)]);
    let mut queue = VecDeque::from([start]);
    while let Some(s) = queue.pop_front() {
        let d = dist[&s.cells];
        for dir in Dir::ALL {
            if let Some(next) = s.slide(board, dir) {
                dist.entry(next.cells).or_insert_with(|| {
                    queue.push_back(next);
                    d + 1
                });
            }
        }
    }
    dist
}

fn state_from(cells: &[u8; frontier_tiles::MAX_CELLS], board: &Board) -> TileState {
    TileState::from_tiles(board, &cells[..board.cells()]).unwrap()
}

#[test]
fn parity_test_agrees_with_exhaustive_search_on_2x3_and_3x3() {
    for (rows, cols) in [(2, 3), (3, 3)] {
        let board = Board::new(rows, cols).unwrap();
        for goal in [Goal::Korf, Goal::Standard] {
            let reachable = all_distances(&board, goal);
            let n = board.cells();
            assert_eq!(reachable.len(), (1..=n).product::<usize>() / 2);
            let goal_state = TileState::goal(&board, goal);
            let mut rng = Rng(n as u64);
            for _ in 0..2000 {
                let mut tiles: Vec<u8> = (0..n as u8).collect();
                rng.shuffle(&mut tiles);
                let s = TileState::from_tiles(&board, &tiles).unwrap();
                assert_eq!(
                    solvable(&board, &s, &goal_state),
                    reachable.contains_key(&s.cells),
                    "{tiles:?}"
                );
            }
        }
    }
}

#[test]
fn packed_states_round_trip_and_garbage_is_rejected() {
    let mut rng = Rng(3);
    for side in [3u8, 4, 5] {
        let n = usize::from(side * side);
        let mut tiles: Vec<u8> = (0..n as u8).collect();
        rng.shuffle(&mut tiles);
        let puzzle = Tiles::new(
            Board::new(side, side).unwrap(),
            TileState::from_tiles(&Board::new(side, side).unwrap(), &tiles).unwrap(),
            Goal::Korf,
        )
        .or_else(|_| {
            tiles.swap(0, 1);
            let board = Board::new(side, side).unwrap();
            Tiles::new(
                board.clone(),
                TileState::from_tiles(&board, &tiles).unwrap(),
                Goal::Korf,
            )
        })
        .unwrap();
        assert_eq!(puzzle.packed_words(), if n <= 16 { 2 } else { 4 });
        let mut words = vec![0u32; puzzle.packed_words()];
        for _ in 0..200 {
            let mut t: Vec<u8> = (0..n as u8).collect();
            rng.shuffle(&mut t);
            let s = TileState::from_tiles(puzzle.board(), &t).unwrap();
            puzzle.pack(&s, &mut words);
            assert_eq!(puzzle.unpack(&words).unwrap(), s);
        }
        assert!(puzzle.unpack(&[0; 1]).is_err());
        assert!(
            puzzle.unpack(&vec![0; puzzle.packed_words()]).is_err(),
            "all-blank board"
        );
        assert!(puzzle
            .unpack(&vec![u32::MAX; puzzle.packed_words()])
            .is_err());
        // The last move travels beside the packed words (mpi-hda), so a
        // state sent away does not generate its parent again.
        let mut children = Vec::new();
        puzzle.expand(&puzzle.start(), &mut children);
        for child in children {
            puzzle.pack(&child.state, &mut words);
            let mut back = puzzle.unpack(&words).unwrap();
            assert_eq!(back.came_from, None);
            puzzle.unpack_extra(&mut back, puzzle.pack_extra(&child.state));
            assert_eq!(back.came_from, child.state.came_from);
            assert!(back.came_from.is_some());
        }
    }
}

/// 0-1 BFS over (pattern tile cells, blank cell), the textbook definition,
/// minimised over the blank: what a pattern database must hold.
fn brute_force_pdb(board: &Board, tiles: &[u8], goal: Goal) -> Vec<u8> {
    let n = board.cells();
    let k = tiles.len();
    let start: (Vec<u8>, u8) = (
        tiles.iter().map(|&t| goal.cell_of(t, n)).collect(),
        goal.cell_of(0, n),
    );
    let mut dist = HashMap::from([(start.clone(), 0u8)]);
    let mut deque = VecDeque::from([(start, 0u8)]);
    while let Some(((cells, blank), d)) = deque.pop_front() {
        if dist[&(cells.clone(), blank)] < d {
            continue;
        }
        for dir in Dir::ALL {
            let Some(to) = board.neighbour(blank, dir) else {
                continue;
            };
            let mut next = cells.clone();
            let cost = match cells.iter().position(|&c| c == to) {
                Some(i) => {
                    next[i] = blank;
                    1
                }
                None => 0,
            };
            let key = (next, to);
            if dist.get(&key).is_none_or(|&old| d + cost < old) {
                dist.insert(key.clone(), d + cost);
                if cost == 0 {
                    deque.push_front((key, d));
                } else {
                    deque.push_back((key, d + 1));
                }
            }
        }
    }
    let mut table = vec![u8::MAX; placements(n, k) as usize];
    for ((cells, _), d) in dist {
        let i = rank(cells.iter().copied(), n);
        table[i] = table[i].min(d);
    }
    table
}

#[test]
fn built_databases_equal_a_brute_force_abstract_search() {
    for (rows, cols, tiles) in [
        (3u8, 3u8, vec![1u8, 2, 3]),
        (3, 3, vec![5, 7, 8, 4]),
        (2, 4, vec![2, 6, 7]),
        // The builder's 32-bit masks (17-32 cells) and 64-bit ones.
        (3, 6, vec![1, 2, 8]),
        (5, 7, vec![3, 12]),
    ] {
        let board = Board::new(rows, cols).unwrap();
        for goal in [Goal::Korf, Goal::Standard] {
            let n = board.cells();
            let pattern = frontier_tiles::Pattern {
                goal_cells: tiles.iter().map(|&t| goal.cell_of(t, n)).collect(),
                tiles: tiles.clone(),
                blank_goal: goal.cell_of(0, n),
            };
            for threads in [1, 2] {
                let table = build(&board, &pattern, threads, &|_| {});
                assert_eq!(
                    table,
                    brute_force_pdb(&board, &tiles, goal),
                    "{rows}x{cols} {tiles:?} {goal:?}"
                );
            }
        }
    }
}

fn pdb_heuristic(
    board: &Board,
    goal: Goal,
    spec: &str,
    reflect: bool,
    dir: &std::path::Path,
) -> AdditivePdb {
    let dbs = partition(spec, board, goal)
        .unwrap()
        .iter()
        .map(|p| Arc::new(cache::load_or_build(board, p, dir, 2, &|_| {}).unwrap()))
        .collect();
    AdditivePdb::new(board, goal, dbs, reflect).unwrap()
}

#[test]
fn heuristics_never_overestimate_anywhere_on_the_8_puzzle() {
    let dir = tempdir("admissible");
    let board = Board::new(3, 3).unwrap();
    for goal in [Goal::Korf, Goal::Standard] {
        let truth = all_distances(&board, goal);
        let puzzle = Tiles::new(board.clone(), TileState::goal(&board, goal), goal).unwrap();
        let manhattan = Manhattan::new(&board, goal);
        let plain = pdb_heuristic(&board, goal, "4-4", false, &dir);
        let reflected = pdb_heuristic(&board, goal, "4-4", true, &dir);
        let mut tighter = 0;
        for (cells, &d) in &truth {
            let s = state_from(cells, &board);
            let (m, p, r) = (
                manhattan.h(&puzzle, &s),
                plain.h(&puzzle, &s),
                reflected.h(&puzzle, &s),
            );
            assert!(
                m <= d && p <= d && r <= d,
                "{s:?}: true {d}, manhattan {m}, pdb {p}, reflected {r}"
            );
            assert!(r >= p);
            tighter += usize::from(p > m);
            if d == 0 {
                assert_eq!((m, p, r), (0, 0, 0));
            }
        }
        assert!(
            tighter > truth.len() / 10,
            "the PDB should beat Manhattan often"
        );
    }
}

/// The largest of several partitions never overestimates, equals the
/// largest part, and beats each part alone on some boards (the point of
/// taking it).
#[test]
fn the_largest_of_several_partitions_is_admissible_and_beats_each_part() {
    let dir = tempdir("max-partitions");
    let board = Board::new(3, 3).unwrap();
    for goal in [Goal::Korf, Goal::Standard] {
        let truth = all_distances(&board, goal);
        let parts = [
            pdb_heuristic(&board, goal, "1,2,3,4/5,6,7,8", false, &dir),
            pdb_heuristic(&board, goal, "1,2,5,6/3,4,7,8", false, &dir),
        ];
        let max = TilesHeuristic::Max(parts.to_vec());
        assert!(Heuristic::<Tiles>::consistent(&max));
        let mut beats = [0usize; 2];
        for (cells, &d) in &truth {
            let puzzle = Tiles::new(board.clone(), state_from(cells, &board), goal).unwrap();
            let s = puzzle.start();
            let each = [parts[0].h(&puzzle, &s), parts[1].h(&puzzle, &s)];
            let h = max.h(&puzzle, &s);
            assert!(h <= d, "{s:?}: true {d}, max {h}");
            assert_eq!(h, each[0].max(each[1]));
            for (count, part) in beats.iter_mut().zip(each) {
                *count += usize::from(h > part);
            }
        }
        assert!(
            beats.iter().all(|&b| b > truth.len() / 20),
            "each partition should lose to the other often: {beats:?}"
        );
    }
}

#[test]
fn astar_returns_exact_distances_on_random_8_puzzles_and_replays() {
    let dir = tempdir("astar8");
    let board = Board::new(3, 3).unwrap();
    let goal = Goal::Standard;
    let truth = all_distances(&board, goal);
    let heuristics = [
        TilesHeuristic::Manhattan(Manhattan::new(&board, goal)),
        TilesHeuristic::Pdb(pdb_heuristic(&board, goal, "4-4", true, &dir)),
        TilesHeuristic::Pdb(pdb_heuristic(&board, goal, "1,2,3/4,5,6/7,8", false, &dir)),
        TilesHeuristic::Max(vec![
            pdb_heuristic(&board, goal, "4-4", true, &dir),
            pdb_heuristic(&board, goal, "1,2,3/4,5,6/7,8", true, &dir),
        ]),
    ];
    let mut rng = Rng(5);
    let states: Vec<&[u8; frontier_tiles::MAX_CELLS]> = truth.keys().collect();
    for _ in 0..150 {
        let cells = states[rng.below(states.len())];
        let puzzle = Tiles::new(board.clone(), state_from(cells, &board), goal).unwrap();
        for h in &heuristics {
            let ida = frontier_core::ida(
                &puzzle,
                h,
                &frontier_core::IdaConfig {
                    threads: 2,
                    roots_per_thread: 4,
                    ..frontier_core::IdaConfig::default()
                },
                &SearchOptions::default(),
            )
            .unwrap();
            for outcome in [
                astar(&puzzle, h, &SearchOptions::default()).expect("valid limits"),
                ida,
            ] {
                let solution = outcome.solution().expect("reachable");
                assert_eq!(solution.cost, truth[cells]);
                let end = puzzle.replay(&solution.moves).expect("legal moves");
                assert!(puzzle.is_goal(&end));
            }
        }
    }
}

/// A goal board of one's own (the 8-puzzle's spiral, the blank in the
/// middle; a 2×3 reversed): Manhattan and databases (with the reflection
/// where the blank is on the diagonal) never overestimate the exhaustive
/// distances to it, A* and IDA* find them exactly, and the layout reads
/// back as it was written.
#[test]
fn goal_boards_of_ones_own_get_exact_distances_and_admissible_heuristics() {
    let dir = tempdir("layouts");
    for (text, spec, reflect) in [
        ("1 2 3 8 0 4 7 6 5", "1,2,3,4/5,6,7,8", true),
        ("2x3: 5 4 3 2 1 0", "1,2,3/4,5", false),
    ] {
        let goal: Goal = text.parse().unwrap();
        let Goal::Layout(layout) = goal else {
            panic!("{text} is a layout");
        };
        assert_eq!(layout.to_string(), text);
        assert_eq!(format!("{goal:?}"), format!("Layout(\"{text}\")"));
        let (rows, cols) = if text.starts_with("2x3") {
            (2, 3)
        } else {
            (3, 3)
        };
        let board = Board::new(rows, cols).unwrap();
        assert_eq!(
            &TileState::goal(&board, goal).cells[..board.cells()],
            layout.tiles()
        );
        let truth = all_distances(&board, goal);
        let heuristics = [
            TilesHeuristic::Manhattan(Manhattan::new(&board, goal)),
            TilesHeuristic::Pdb(pdb_heuristic(&board, goal, spec, reflect, &dir)),
        ];
        let puzzle = Tiles::new(board.clone(), TileState::goal(&board, goal), goal).unwrap();
        for (cells, &d) in &truth {
            let s = state_from(cells, &board);
            for h in &heuristics {
                assert!(h.h(&puzzle, &s) <= d, "{text}: {s:?} true {d}");
            }
        }
        let mut rng = Rng(17);
        let states: Vec<&[u8; frontier_tiles::MAX_CELLS]> = truth.keys().collect();
        for _ in 0..60 {
            let cells = states[rng.below(states.len())];
            let puzzle = Tiles::new(board.clone(), state_from(cells, &board), goal).unwrap();
            for h in &heuristics {
                let ida = frontier_core::ida(
                    &puzzle,
                    h,
                    &frontier_core::IdaConfig::default(),
                    &SearchOptions::default(),
                )
                .unwrap();
                for outcome in [astar(&puzzle, h, &SearchOptions::default()).unwrap(), ida] {
                    let solution = outcome.solution().expect("reachable");
                    assert_eq!(solution.cost, truth[cells], "{text}");
                    assert!(puzzle.is_goal(&puzzle.replay(&solution.moves).unwrap()));
                }
            }
        }
    }
}

/// What a goal board refuses, each with its reason: another shape, the
/// presets (laid out for the conventions), the reflection with the blank
/// off the diagonal, and a board that cannot reach it.
#[test]
fn goal_boards_refuse_what_they_cannot_serve() {
    let spiral: Goal = "1 2 3 8 0 4 7 6 5".parse().unwrap();
    let square = Board::new(3, 3).unwrap();
    let other = Board::new(4, 4).unwrap();
    let start = TileState::goal(&other, Goal::Korf);
    let refused = Tiles::new(other, start, spiral).unwrap_err().to_string();
    assert!(
        refused.contains("the goal board is 3x3, the instance 4x4"),
        "{refused}"
    );
    let refused = partition("4-4", &square, spiral).unwrap_err().to_string();
    assert!(
        refused.contains("give the partition as tile lists"),
        "{refused}"
    );
    let low: Goal = "1 2 3 8 6 4 7 0 5".parse().unwrap();
    let dbs = partition("1,2,3,4/5,6,7,8", &square, low)
        .unwrap()
        .iter()
        .map(|p| {
            Arc::new(cache::load_or_build(&square, p, &tempdir("refuse"), 1, &|_| {}).unwrap())
        })
        .collect();
    let refused = AdditivePdb::new(&square, low, dbs, true)
        .unwrap_err()
        .to_string();
    assert!(refused.contains("blank on the main diagonal"), "{refused}");
    let standard = Tiles::parse("1 2 3 4 5 6 7 8 0", spiral)
        .unwrap_err()
        .to_string();
    assert!(standard.contains("unsolvable"), "{standard}");
    for bad in ["1 2 3 8 0 4 7 6", "1 2 3 8 0 4 7 6 6", "3x2: 1 2 3"] {
        assert!(bad.parse::<Goal>().is_err(), "{bad}");
    }
}

/// Greedy 8-puzzle solutions re-solved in windows: never dearer, never
/// below the exact distance, replayed; a window as long as the whole path
/// gives the exact distance; the estimate between two boards never exceeds
/// their distance.
#[test]
fn windows_re_solve_greedy_8_puzzle_paths_and_a_whole_window_is_optimal() {
    use frontier_core::search::{replay, windows, Order, Weight};
    let board = Board::new(3, 3).unwrap();
    let goal = Goal::Standard;
    let truth = all_distances(&board, goal);
    let h = Manhattan::new(&board, goal);
    let greedy = SearchOptions {
        order: Order {
            weight: Weight::Greedy,
            ..Order::default()
        },
        ..SearchOptions::default()
    };
    let mut rng = Rng(43);
    let states: Vec<&[u8; frontier_tiles::MAX_CELLS]> = truth.keys().collect();
    let mut improved = 0;
    for _ in 0..60 {
        let cells = states[rng.below(states.len())];
        let puzzle = Tiles::new(board.clone(), state_from(cells, &board), goal).unwrap();
        let optimum = truth[cells];
        let estimate = puzzle.estimate_between(&puzzle.start(), puzzle.goal_state());
        assert!(estimate.unwrap() <= optimum);
        let outcome = astar(&puzzle, &h, &greedy).unwrap();
        let path = outcome.solution().expect("reachable").clone();
        for length in [6, 12] {
            let (states, done) = windows::resolve(
                &puzzle,
                path.states.clone(),
                length,
                windows::WINDOW_EXPANSIONS,
            );
            let cost = replay(&puzzle, states).unwrap().cost;
            assert!(cost <= path.cost && cost >= optimum, "window {length}");
            assert_eq!(cost, done.after);
        }
        let (whole, _) = windows::resolve(
            &puzzle,
            path.states.clone(),
            path.cost,
            windows::WINDOW_EXPANSIONS,
        );
        assert_eq!(replay(&puzzle, whole).unwrap().cost, optimum);
        improved += usize::from(path.cost > optimum);
    }
    assert!(
        improved >= 10,
        "only {improved} greedy paths were not optimal"
    );
}

#[test]
fn malformed_and_unsolvable_instances_are_rejected_with_a_reason() {
    let cases = [
        ("1 2 3 4 5 6 7 8", "8 tiles is not a square board"),
        ("1 2 3 4 5 6 7 8 8", "tile 8 appears twice"),
        ("1 2 3 4 5 6 7 8 9", "tile 9 is out of range 0..=8"),
        ("1 2 3 4 5 6 7 x 0", "'x' is not a tile number"),
        ("2 1 3 4 5 6 7 8 0", "unsolvable"),
        ("3x4: 1 2 3 4 5 6 7 8 9 10 11", "expected 12 tiles, got 11"),
        ("7x7: 1 2 3", "expected 49 tiles, got 3"),
        ("8x7: 1 2 3", "8x7 boards are not supported"),
        // 64 tiles are a square board, just too large: its size is named.
        (
            &(0..64).map(|t| t.to_string()).collect::<Vec<_>>().join(" "),
            "8x8 boards are not supported (2 to 49 cells)",
        ),
        ("4by4: 1 2", "board shape '4by4' should look like 4x4"),
    ];
    for (text, message) in cases {
        let err = Tiles::parse(text, Goal::Standard)
            .expect_err(text)
            .to_string();
        assert!(err.contains(message), "{text}: {err}");
    }
    assert!(Tiles::parse("2x3: 1 2 3 4 5 0", Goal::Standard).is_ok());
}

#[test]
fn a_corrupt_cached_database_is_detected_and_rebuilt() {
    let dir = tempdir("corrupt");
    let board = Board::new(3, 3).unwrap();
    let pattern = &partition("1,2,3,4", &board, Goal::Standard).unwrap()[0];
    let fresh = cache::load_or_build(&board, pattern, &dir, 2, &|_| {}).unwrap();
    let file = std::fs::read_dir(&dir)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let mut bytes = std::fs::read(&file).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x5A;
    std::fs::write(&file, &bytes).unwrap();
    let reloaded = cache::load_or_build(&board, pattern, &dir, 1, &|_| {}).unwrap();
    assert_eq!(reloaded.table(), fresh.table());
    assert_ne!(
        std::fs::read(&file).unwrap(),
        bytes,
        "the bad file was replaced"
    );
    std::fs::write(&file, &bytes[..100]).unwrap();
    let truncated = cache::load_or_build(&board, pattern, &dir, 1, &|_| {}).unwrap();
    assert_eq!(truncated.table(), fresh.table());
}

#[test]
fn unrank_inverts_rank_on_15_puzzle_placements() {
    let mut rng = Rng(9);
    let mut cells = [0u8; 25];
    for _ in 0..10_000 {
        let index = rng.below(placements(16, 7) as usize);
        unrank(index, 16, 7, &mut cells);
        assert_eq!(rank(cells[..7].iter().copied(), 16), index);
    }
}

/// Korf's 100: (id, Korf goal, standard goal, optimal length).
fn korf100() -> Vec<(String, String, String, u32)> {
    // Shipped in the repository's data/ (see `frontier_core::data`).
    let path = frontier_core::data::find("tiles/korf100.tsv").unwrap_or_default();
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "MISSING TEST DATA: {} ({e}); set FRONTIER_DATA to the shared data directory",
            path.display()
        )
    });
    text.lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (
                f[0].to_string(),
                f[1].to_string(),
                f[2].to_string(),
                f[3].parse().unwrap(),
            )
        })
        .collect()
}

fn tempdir(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("frontier-tiles-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn easy_korf_instances_reach_their_published_optimum_under_both_goals() {
    let dir = tempdir("korf");
    let board = Board::new(4, 4).unwrap();
    let instances = korf100();
    assert_eq!(instances.len(), 100);
    let easy = ["1", "16", "42", "55", "79"];
    for goal in [Goal::Korf, Goal::Standard] {
        let h = pdb_heuristic(&board, goal, "5-5-5", true, &dir);
        for (id, korf, standard, optimum) in
            instances.iter().filter(|i| easy.contains(&i.0.as_str()))
        {
            let text = if goal == Goal::Korf { korf } else { standard };
            let puzzle = Tiles::parse(text, goal).unwrap();
            let outcome = astar(&puzzle, &h, &SearchOptions::default()).expect("valid limits");
            let solution = outcome
                .solution()
                .unwrap_or_else(|| panic!("#{id} unsolved"));
            assert_eq!(solution.cost, *optimum, "#{id} {goal:?}");
            assert!(puzzle.is_goal(&puzzle.replay(&solution.moves).unwrap()));
        }
    }
}

#[test]
fn hda_matches_astar_costs_on_random_8_puzzles_for_every_partition_and_thread_count() {
    use frontier_core::{hda, HdaConfig, StdHasher};
    let board = Board::new(3, 3).unwrap();
    let goal = Goal::Korf;
    let truth = all_distances(&board, goal);
    let h = Manhattan::new(&board, goal);
    let states: Vec<&[u8; frontier_tiles::MAX_CELLS]> = truth.keys().collect();
    let mut rng = Rng(77);
    for _ in 0..25 {
        let cells = states[rng.below(states.len())];
        let puzzle = Tiles::new(board.clone(), state_from(cells, &board), goal).unwrap();
        for threads in [1, 2, 3, 7] {
            let config = HdaConfig {
                threads,
                batch: 8,
                ..HdaConfig::default()
            };
            let by_hash = hda(&puzzle, &h, &StdHasher, &config, &SearchOptions::default())
                .expect("a valid HDA* config");
            assert_eq!(by_hash.solution().unwrap().cost, truth[cells]);
            for name in frontier_tiles::azh::PROJECTIONS {
                let azh = frontier_tiles::azh::projection(name, &board, 1).unwrap();
                let outcome = hda(&puzzle, &h, &azh, &config, &SearchOptions::default())
                    .expect("a valid HDA* config");
                let solution = outcome.solution().unwrap();
                assert_eq!(solution.cost, truth[cells], "{name}, {threads} threads");
                assert!(puzzle.is_goal(&puzzle.replay(&solution.moves).unwrap()));
            }
        }
    }
}

#[test]
fn hda_matches_published_optima_on_korf_instances() {
    use frontier_core::{hda, HdaConfig};
    let dir = tempdir("hda-korf");
    let board = Board::new(4, 4).unwrap();
    let h = pdb_heuristic(&board, Goal::Korf, "5-5-5", true, &dir);
    for (id, korf, _, optimum) in korf100()
        .iter()
        .filter(|i| ["16", "55", "79", "85"].contains(&i.0.as_str()))
    {
        let puzzle = Tiles::parse(korf, Goal::Korf).unwrap();
        for (threads, name) in [(2, "split"), (3, "block"), (7, "zobrist")] {
            let azh = frontier_tiles::azh::projection(name, &board, 3).unwrap();
            let config = HdaConfig {
                threads,
                ..HdaConfig::default()
            };
            let outcome = hda(&puzzle, &h, &azh, &config, &SearchOptions::default())
                .expect("a valid HDA* config");
            assert_eq!(
                outcome.solution().map(|s| s.cost),
                Some(*optimum),
                "#{id} {name} {threads}"
            );
            let co = outcome.stats.communication_overhead.unwrap();
            assert!((0.0..=1.0).contains(&co));
        }
    }
}

#[test]
fn ida_matches_published_optima_on_korf_instances() {
    use frontier_core::{ida, IdaConfig};
    let dir = tempdir("ida-korf");
    let board = Board::new(4, 4).unwrap();
    let h = pdb_heuristic(&board, Goal::Korf, "5-5-5", true, &dir);
    for (id, korf, _, optimum) in korf100()
        .iter()
        .filter(|i| ["16", "55", "79", "85"].contains(&i.0.as_str()))
    {
        let puzzle = Tiles::parse(korf, Goal::Korf).unwrap();
        for threads in [1, 3] {
            let config = IdaConfig {
                threads,
                ..IdaConfig::default()
            };
            let outcome = ida(&puzzle, &h, &config, &SearchOptions::default()).unwrap();
            let solution = outcome.solution().expect("solved");
            assert_eq!(solution.cost, *optimum, "#{id} {threads} threads");
            let end = puzzle.replay(&solution.moves).expect("legal moves");
            assert!(puzzle.is_goal(&end), "#{id}");
        }
    }
}

#[test]
fn split_projection_sends_fewer_states_than_plain_zobrist() {
    use frontier_core::{hda, HdaConfig};
    let board = Board::new(4, 4).unwrap();
    let puzzle = Tiles::parse("0 9 12 4 5 3 2 8 10 1 7 6 11 14 13 15", Goal::Standard).unwrap();
    let h = Manhattan::new(&board, Goal::Standard);
    let config = HdaConfig {
        threads: 4,
        ..HdaConfig::default()
    };
    let co = |name| {
        let azh = frontier_tiles::azh::projection(name, &board, 5).unwrap();
        hda(&puzzle, &h, &azh, &config, &SearchOptions::default())
            .expect("a valid HDA* config")
            .stats
            .communication_overhead
            .unwrap()
    };
    let (plain, split) = (co("zobrist"), co("split"));
    assert!(plain > 0.6, "zobrist moves almost everything: {plain}");
    assert!(split < 0.25, "split keeps most successors home: {split}");
}

#[test]
fn gpu_gastar_matches_astar_on_random_8_puzzles() {
    if !frontier_core::gpu::usable_or_skip("gpu_gastar_matches_astar_on_random_8_puzzles") {
        return;
    }
    use frontier_core::search::gpu::{gastar, GastarConfig};
    let board = Board::new(3, 3).unwrap();
    let truth = all_distances(&board, Goal::Standard);
    let h = TilesHeuristic::Manhattan(Manhattan::new(&board, Goal::Standard));
    let states: Vec<&[u8; frontier_tiles::MAX_CELLS]> = truth.keys().collect();
    let mut rng = Rng(31);
    for _ in 0..30 {
        let cells = states[rng.below(states.len())];
        let puzzle = Tiles::new(board.clone(), state_from(cells, &board), Goal::Standard).unwrap();
        for partial_expansion in [false, true] {
            let config = GastarConfig {
                heaps: 1024,
                table_log2: 20,
                memory_fraction: 0.2,
                partial_expansion,
                ..GastarConfig::default()
            };
            let outcome =
                gastar(&puzzle, &h, &config, &SearchOptions::default()).expect("GPU runs");
            let solution = outcome.solution().expect("solvable");
            assert_eq!(solution.cost, truth[cells], "partial {partial_expansion}");
            assert!(puzzle.is_goal(&puzzle.replay(&solution.moves).unwrap()));
        }
    }
}

#[test]
fn gpu_gastar_matches_published_optima_with_pattern_databases() {
    if !frontier_core::gpu::usable_or_skip(
        "gpu_gastar_matches_published_optima_with_pattern_databases",
    ) {
        return;
    }
    use frontier_core::search::gpu::{gastar, GastarConfig};
    let dir = tempdir("gpu-korf");
    let board = Board::new(4, 4).unwrap();
    for (spec, reflect) in [("5-5-5", true), ("manhattan", false)] {
        let h = if spec == "manhattan" {
            TilesHeuristic::Manhattan(Manhattan::new(&board, Goal::Korf))
        } else {
            TilesHeuristic::Pdb(pdb_heuristic(&board, Goal::Korf, spec, reflect, &dir))
        };
        for (id, korf, _, optimum) in korf100()
            .iter()
            .filter(|i| ["16", "55", "79", "85", "97"].contains(&i.0.as_str()))
        {
            let puzzle = Tiles::parse(korf, Goal::Korf).unwrap();
            let outcome = gastar(
                &puzzle,
                &h,
                &GastarConfig::default(),
                &SearchOptions::default(),
            )
            .expect("GPU runs");
            assert_eq!(
                outcome.solution().map(|s| s.cost),
                Some(*optimum),
                "#{id} {spec}"
            );
        }
    }
}

/// GPU IDA* returns the exact distance on random 8-puzzles (few roots,
/// so most of the search is on the GPU; every other run splits them
/// between two GPUs, or two sessions on one), and Korf's optima on 15-puzzles with pattern databases;
/// the CPU replays every path.
#[test]
fn gpu_ida_matches_exact_distances_and_published_optima() {
    if !frontier_core::gpu::usable_or_skip("gpu_ida_matches_exact_distances_and_published_optima") {
        return;
    }
    use frontier_core::search::gpu::{gpu_ida, GpuIdaConfig};
    let dir = tempdir("gpu-ida");
    let board = Board::new(3, 3).unwrap();
    let truth = all_distances(&board, Goal::Standard);
    let manhattan = TilesHeuristic::Manhattan(Manhattan::new(&board, Goal::Standard));
    let pdb = TilesHeuristic::Pdb(pdb_heuristic(&board, Goal::Standard, "4-4", true, &dir));
    let mut rng = Rng(31);
    let states: Vec<&[u8; frontier_tiles::MAX_CELLS]> = truth.keys().collect();
    let two = two_devices();
    for i in 0..40 {
        let cells = states[rng.below(states.len())];
        let puzzle = Tiles::new(board.clone(), state_from(cells, &board), Goal::Standard).unwrap();
        let config = GpuIdaConfig {
            devices: if i % 2 == 0 { vec![0] } else { two.clone() },
            roots: 1 + i % 5,
            threads: 2048,
            memory_fraction: 0.05,
            ..GpuIdaConfig::default()
        };
        let by_manhattan = gpu_ida(&puzzle, &manhattan, &config, &SearchOptions::default());
        let by_pdb = gpu_ida(&puzzle, &pdb, &config, &SearchOptions::default());
        for outcome in [by_manhattan.unwrap(), by_pdb.unwrap()] {
            let solution = outcome.solution().expect("reachable");
            assert_eq!(solution.cost, truth[cells]);
            assert!(puzzle.is_goal(&puzzle.replay(&solution.moves).unwrap()));
        }
    }
    let board = Board::new(4, 4).unwrap();
    let h = TilesHeuristic::Pdb(pdb_heuristic(&board, Goal::Korf, "5-5-5", true, &dir));
    for (id, korf, _, optimum) in korf100()
        .iter()
        .filter(|i| ["16", "55", "79", "85", "1"].contains(&i.0.as_str()))
    {
        let puzzle = Tiles::parse(korf, Goal::Korf).unwrap();
        let config = GpuIdaConfig {
            roots: 4096,
            memory_fraction: 0.2,
            ..GpuIdaConfig::default()
        };
        let outcome = gpu_ida(&puzzle, &h, &config, &SearchOptions::default()).unwrap();
        let solution = outcome.solution().expect("solved");
        assert_eq!(solution.cost, *optimum, "#{id}");
        assert!(puzzle.is_goal(&puzzle.replay(&solution.moves).unwrap()));
    }
}

/// The largest of several partitions on the GPU: GA*, GPU IDA* (which
/// then looks each child up whole) and the GPU beam keep Korf's optima and
/// their bounds, and IDA* with strong and weak partitions together expands
/// far fewer nodes than with the weak alone (the kernel takes the max, not
/// the first partition).
#[test]
fn gpu_searches_take_the_largest_of_several_partitions() {
    if !frontier_core::gpu::usable_or_skip("gpu_searches_take_the_largest_of_several_partitions") {
        return;
    }
    use frontier_core::search::gpu::{gastar, gpu_beam, gpu_ida, GastarConfig, GpuIdaConfig};
    use frontier_core::search::{Order, Weight};
    let dir = tempdir("gpu-max");
    let board = Board::new(4, 4).unwrap();
    let weak = pdb_heuristic(
        &board,
        Goal::Korf,
        "1,2/3,4/5,6/7,8/9,10/11,12/13,14/15",
        true,
        &dir,
    );
    let strong = pdb_heuristic(&board, Goal::Korf, "5-5-5", true, &dir);
    let alone = TilesHeuristic::Pdb(weak.clone());
    let max = TilesHeuristic::Max(vec![weak, strong.clone()]);
    // Partitions with and without the reflection, mixed as a library user
    // may: the GPU mirrors each partition as the CPU does. Taking the first
    // partition's setting for all would drop the strong partition's mirror
    // and expand as many nodes as with no reflection at all.
    let pairs = "1,2/3,4/5,6/7,8/9,10/11,12/13,14/15";
    let weak_plain = pdb_heuristic(&board, Goal::Korf, pairs, false, &dir);
    let strong_plain = pdb_heuristic(&board, Goal::Korf, "5-5-5", false, &dir);
    let mixed = TilesHeuristic::Max(vec![weak_plain.clone(), strong]);
    let neither = TilesHeuristic::Max(vec![weak_plain, strong_plain]);
    let (mut mixed_nodes, mut neither_nodes) = (0, 0);
    let plain = SearchOptions::default();
    let beam = SearchOptions {
        order: Order {
            beam: Some(2000),
            shortcut: None,
            window: None,
            weight: Weight::parse("1").unwrap(),
            anytime: false,
        },
        ..SearchOptions::default()
    };
    let config = GpuIdaConfig {
        roots: 4096,
        memory_fraction: 0.2,
        ..GpuIdaConfig::default()
    };
    for (id, korf, _, optimum) in korf100()
        .iter()
        .filter(|i| ["16", "55", "79"].contains(&i.0.as_str()))
    {
        let puzzle = Tiles::parse(korf, Goal::Korf).unwrap();
        let by_gastar = gastar(&puzzle, &max, &GastarConfig::default(), &plain).unwrap();
        let by_ida = gpu_ida(&puzzle, &max, &config, &plain).unwrap();
        let weak_ida = gpu_ida(&puzzle, &alone, &config, &plain).unwrap();
        for (outcome, what) in [(&by_gastar, "GA*"), (&by_ida, "IDA*"), (&weak_ida, "weak")] {
            let solution = outcome.solution().expect("solved");
            assert_eq!(solution.cost, *optimum, "#{id} {what}");
            assert!(puzzle.is_goal(&puzzle.replay(&solution.moves).unwrap()));
        }
        for (h, nodes) in [(&mixed, &mut mixed_nodes), (&neither, &mut neither_nodes)] {
            let outcome = gpu_ida(&puzzle, h, &config, &plain).unwrap();
            assert_eq!(
                outcome.solution().expect("solved").cost,
                *optimum,
                "#{id} mixed"
            );
            *nodes += outcome.stats.expanded;
        }
        assert!(
            by_ida.stats.expanded * 4 < weak_ida.stats.expanded,
            "#{id}: {} nodes with both, {} with the weak alone",
            by_ida.stats.expanded,
            weak_ida.stats.expanded
        );
        let beamed = gpu_beam(&puzzle, &max, 0, &beam).unwrap();
        let solution = beamed
            .solution()
            .expect("a beam of 2000 solves Korf's easy boards");
        let lower = beamed.stats.lower_bound.expect("a beam proves a bound");
        assert!(lower <= *optimum && *optimum <= solution.cost, "#{id} beam");
        assert!(puzzle.is_goal(&puzzle.replay(&solution.moves).unwrap()));
    }
    assert!(
        mixed_nodes * 10 < neither_nodes * 9,
        "the strong partition's mirror saved too little: {mixed_nodes} nodes mixed, {neither_nodes} with no mirror"
    );
}

/// Beams of 100 over Korf's 100 (5-5-5 with the reflection), ranked by h
/// and by h plus the conflicts across databases, through `run`: every
/// lower bound at most the published optimum, every path replayed.
/// Returns both rankings' total lengths (by h, ranked).
fn korf100_ranked_beams(
    dir: &str,
    run: impl Fn(&Tiles, &TilesHeuristic, &SearchOptions) -> frontier_core::DomainOutcome<Tiles>,
) -> (u32, u32) {
    use frontier_core::search::Order;
    let dir = tempdir(dir);
    let board = Board::new(4, 4).unwrap();
    let plain = pdb_heuristic(&board, Goal::Korf, "5-5-5", true, &dir);
    let ranked = TilesHeuristic::Pdb(plain.clone().ranked_by_conflicts(&board, Goal::Korf));
    let plain = TilesHeuristic::Pdb(plain);
    let options = SearchOptions {
        order: Order {
            beam: Some(100),
            ..Order::default()
        },
        ..SearchOptions::default()
    };
    let (mut plain_total, mut ranked_total) = (0, 0);
    for (id, korf, _, optimum) in korf100() {
        let puzzle = Tiles::parse(&korf, Goal::Korf).unwrap();
        for (h, total) in [(&plain, &mut plain_total), (&ranked, &mut ranked_total)] {
            let outcome = run(&puzzle, h, &options);
            let solution = outcome
                .solution()
                .expect("a beam of 100 solves Korf's boards");
            let lower = outcome.stats.lower_bound.expect("a beam proves a bound");
            assert!(
                lower <= optimum && optimum <= solution.cost,
                "#{id}: {lower} {optimum} {}",
                solution.cost
            );
            assert!(puzzle.is_goal(&puzzle.replay(&solution.moves).unwrap()));
            *total += solution.cost;
        }
    }
    (plain_total, ranked_total)
}

/// A beam ranked by h plus the conflicts across databases keeps bounds
/// from h alone (never above Korf's published optima) and finds shorter
/// paths on Korf's 100 than the same beam ranked by h.
#[test]
fn a_beam_ranked_by_conflicts_shortens_korfs_100_and_keeps_sound_bounds() {
    use frontier_core::search::beam::beam;
    let (plain, ranked) = korf100_ranked_beams("rank-conflicts", |puzzle, h, options| {
        beam(puzzle, h, 1, options).unwrap()
    });
    assert!(
        ranked < plain,
        "ranked by conflicts {ranked} moves in all, by h {plain}"
    );
}

/// On the GPU too, a beam ranked by conflicts across databases keeps its
/// bounds from h alone and finds shorter paths on Korf's 100 than the same
/// beam ranked by h (as the CPU's, tested above).
#[test]
fn gpu_beam_ranked_by_conflicts_shortens_korfs_100_and_keeps_sound_bounds() {
    if !frontier_core::gpu::usable_or_skip(
        "gpu_beam_ranked_by_conflicts_shortens_korfs_100_and_keeps_sound_bounds",
    ) {
        return;
    }
    use frontier_core::search::gpu::gpu_beam;
    let (plain, ranked) = korf100_ranked_beams("gpu-rank-conflicts", |puzzle, h, options| {
        gpu_beam(puzzle, h, 0, options).unwrap()
    });
    assert!(
        ranked < plain,
        "ranked by conflicts {ranked} moves in all, by h {plain}"
    );
}

/// Heuristics whose h and beam rank the tests compare across ways of
/// making them: Manhattan plain and ranked by conflicts on several shapes
/// and both goals, the 15-puzzle's databases plain and ranked, and on 6×6
/// two partial partitions ranked by conflicts, by a learned linear rank
/// (negative weights included) and by a learned network of 16 units.
fn rank_cases(dir: &std::path::Path) -> Vec<(Board, Goal, TilesHeuristic)> {
    let mut cases: Vec<(Board, Goal, TilesHeuristic)> = Vec::new();
    for (rows, cols) in [(3, 3), (4, 4), (6, 6), (7, 7), (2, 24), (3, 5)] {
        let board = Board::new(rows, cols).unwrap();
        for goal in [Goal::Korf, Goal::Standard] {
            let manhattan = Manhattan::new(&board, goal);
            cases.push((
                board.clone(),
                goal,
                TilesHeuristic::Manhattan(manhattan.clone()),
            ));
            cases.push((
                board.clone(),
                goal,
                TilesHeuristic::Manhattan(manhattan.ranked_by_conflicts(&board, goal)),
            ));
        }
    }
    let small = Board::new(4, 4).unwrap();
    let pdb = pdb_heuristic(&small, Goal::Korf, "5-5-5", true, dir);
    cases.push((small.clone(), Goal::Korf, TilesHeuristic::Pdb(pdb.clone())));
    cases.push((
        small.clone(),
        Goal::Korf,
        TilesHeuristic::Pdb(pdb.ranked_by_conflicts(&small, Goal::Korf)),
    ));
    let six = Board::new(6, 6).unwrap();
    for spec in [
        "1,2,3/7,8,9/13,14,15/4,5,6/10,11,12",
        "1,2,3/8,9/20,26,32,33",
    ] {
        let partial = pdb_heuristic(&six, Goal::Standard, spec, true, dir);
        cases.push((
            six.clone(),
            Goal::Standard,
            TilesHeuristic::Pdb(partial.clone().ranked_by_conflicts(&six, Goal::Standard)),
        ));
        // A learned rank, updated from the parent's on the GPU (negative
        // weights included).
        let k = partial.dbs().len();
        let weights: Vec<f64> = (0..2 * k + 3)
            .map(|i| [0.17, -0.09, 0.13, 0.87, 0.29, -0.02, 1.47][i % 7])
            .collect();
        let linear = frontier_tiles::LinearRank::new(&weights, k, true).unwrap();
        cases.push((
            six.clone(),
            Goal::Standard,
            TilesHeuristic::Pdb(
                partial
                    .clone()
                    .ranked_linearly(&six, Goal::Standard, linear)
                    .unwrap(),
            ),
        ));
        // A learned network of 16 units (a child's made from its parent's
        // detail, PLUGIN_RANK_DETAIL).
        let most = partial.most_rank_features();
        let table = 36 * 36 * 16;
        let n = table + most.len() * 16 + 32 + most.len() + 1;
        let weights: Vec<String> = (0..n)
            .map(|i| {
                let w = ((i * 7919 % 2003) as f64 - 1001.0) / 1001.0;
                format!("{:.5}", if i < table { w * 0.4 } else { w })
            })
            .collect();
        let text = format!("16 {}\n{}", most.len(), weights.join(" "));
        let network = NetworkRank::parse(&text, 36, &most).unwrap();
        cases.push((
            six.clone(),
            Goal::Standard,
            TilesHeuristic::Pdb(
                partial
                    .ranked_by_network(&six, Goal::Standard, network)
                    .unwrap(),
            ),
        ));
    }
    cases
}

/// A beam's children made at once from their parent
/// (`Heuristic::children_h_and_rank`: the parent's database indices, and a
/// network's table sums, shared by its children) have the h and rank of
/// each made afresh, on random boards of every case of `rank_cases`.
#[test]
fn children_at_once_equal_children_one_by_one() {
    let dir = tempdir("children-at-once");
    let mut rng = frontier_core::rng::SplitMix64::new(44);
    for (board, goal, heuristic) in rank_cases(&dir) {
        let cells = board.cells();
        let start = TileState::goal(&board, goal);
        let puzzle = Tiles::new(board.clone(), start, goal).unwrap();
        let mut edges = Vec::new();
        let mut at_once = Vec::new();
        for _ in 0..300 {
            let mut tiles: Vec<u8> = (0..cells as u8).collect();
            for i in (1..cells).rev() {
                tiles.swap(i, rng.below(i as u64 + 1) as usize);
            }
            let parent = TileState::from_tiles(&board, &tiles).unwrap();
            let parent_h = heuristic.h(&puzzle, &parent);
            let parent_rank = heuristic.rank(&puzzle, &parent, parent_h);
            edges.clear();
            puzzle.expand(&parent, &mut edges);
            at_once.clear();
            let of = frontier_core::Parent {
                state: &parent,
                h: parent_h,
                rank: parent_rank,
            };
            heuristic.children_h_and_rank(&puzzle, of, &edges, &mut at_once);
            let afresh: Vec<(u32, u32)> = edges
                .iter()
                .map(|e| {
                    let h = heuristic.h(&puzzle, &e.state);
                    (h, heuristic.rank(&puzzle, &e.state, h))
                })
                .collect();
            assert_eq!(
                at_once,
                afresh,
                "{}x{} {goal:?} children of {:?}",
                board.rows(),
                board.cols(),
                &parent.cells[..cells]
            );
        }
    }
}

/// The GPU's h and beam rank equal the CPU's on random boards of several
/// shapes: ranked by conflicts across databases (partial partitions too,
/// whose tiles outside every database conflict with every other), by a
/// learned linear rank and a learned network, and across every two tiles
/// with Manhattan distance, and unranked; computed
/// afresh, and for a random child of each board as the beam makes them
/// from the parent's (the incremental h and rank of the tiles plugin).
#[test]
fn gpu_ranks_equal_cpu_ranks() {
    if !frontier_core::gpu::usable_or_skip("gpu_ranks_equal_cpu_ranks") {
        return;
    }
    use frontier_core::search::gpu::{device_child_ranks, device_ranks};
    let dir = tempdir("gpu-ranks");
    let mut rng = frontier_core::rng::SplitMix64::new(43);
    let cases = rank_cases(&dir);
    for (board, goal, heuristic) in &cases {
        let cells = board.cells();
        let start = TileState::goal(board, *goal);
        let puzzle = Tiles::new(board.clone(), start, *goal).unwrap();
        let states: Vec<TileState> = (0..500)
            .map(|_| {
                let mut tiles: Vec<u8> = (0..cells as u8).collect();
                for i in (1..cells).rev() {
                    tiles.swap(i, rng.below(i as u64 + 1) as usize);
                }
                TileState::from_tiles(board, &tiles).unwrap()
            })
            .collect();
        // The GPU's (h, rank) of `state`, made from `parent`'s (or afresh,
        // where `parent` is the state itself), are the CPU's.
        let like_cpu = |state: &TileState, on_gpu: (u32, u32), parent: &TileState| {
            let cpu_h = heuristic.h(&puzzle, state);
            assert_eq!(
                on_gpu,
                (cpu_h, heuristic.rank(&puzzle, state, cpu_h)),
                "{}x{} {goal:?} {:?} from {:?}",
                board.rows(),
                board.cols(),
                &state.cells[..cells],
                &parent.cells[..cells]
            );
        };
        let on_gpu = device_ranks(0, &puzzle, heuristic, &states).unwrap();
        for (state, &ranks) in states.iter().zip(&on_gpu) {
            like_cpu(state, ranks, state);
        }
        let mut edges = Vec::new();
        let pairs: Vec<(TileState, TileState)> = states
            .iter()
            .map(|state| {
                edges.clear();
                puzzle.expand(state, &mut edges);
                let child = edges[rng.below(edges.len() as u64) as usize].state;
                (*state, child)
            })
            .collect();
        let from_parents = device_child_ranks(0, &puzzle, heuristic, &pairs).unwrap();
        for ((parent, child), &ranks) in pairs.iter().zip(&from_parents) {
            like_cpu(child, ranks, parent);
        }
    }
}

/// GPU IDA* below a GPU beam's solution (`incumbent_beam`) reaches Korf's
/// optima, its path replayed, with beams narrow enough to miss the optimum
/// (IDA* then finds it below the beam's cost) and wide enough to hit it
/// (the beam's path is then the answer). The ceiling itself, set directly:
/// at the optimum GPU IDA* ends with nothing cheaper, in no more nodes than
/// alone and fewer where alone iterated on the GPU (it skips the last
/// iteration); two above, it finds the optimum. (On the 15-puzzle a wide beam expands more
/// than the last iteration saves, so nodes are compared without a beam.)
#[test]
fn gpu_ida_below_a_beams_incumbent_reaches_korfs_optima() {
    if !frontier_core::gpu::usable_or_skip("gpu_ida_below_a_beams_incumbent_reaches_korfs_optima") {
        return;
    }
    use frontier_core::search::gpu::GpuIdaConfig;
    use frontier_core::{ExecutorConfig, Status};
    let dir = tempdir("gpu-ida-incumbent");
    let board = Board::new(4, 4).unwrap();
    let h = TilesHeuristic::Pdb(pdb_heuristic(&board, Goal::Korf, "5-5-5", true, &dir));
    let mut fewer = 0;
    for (id, korf, _, optimum) in korf100()
        .iter()
        .filter(|i| ["16", "55", "79", "85", "97"].contains(&i.0.as_str()))
    {
        let puzzle = Tiles::parse(korf, Goal::Korf).unwrap();
        let run_under = |incumbent_beam, ceiling| {
            let executor = ExecutorConfig::GpuIda(GpuIdaConfig {
                roots: 4096,
                memory_fraction: 0.2,
                incumbent_beam,
                ceiling,
                ..GpuIdaConfig::default()
            });
            executor
                .run_gpu(
                    &puzzle,
                    &h,
                    &frontier_core::domain::StdHasher,
                    &SearchOptions::default(),
                )
                .expect("the GPU runs")
        };
        let alone = run_under(0, None);
        let at_optimum = run_under(0, Some(*optimum));
        assert!(
            matches!(at_optimum.status, Status::NoSolution),
            "#{id}, ceiling at the optimum: {:?}",
            at_optimum.status
        );
        // Equal where the split that makes the GPU's roots met the goal
        // itself (#79: 2,863 nodes), before any iteration on the GPU.
        assert!(
            at_optimum.stats.expanded <= alone.stats.expanded,
            "#{id}: {} nodes under the ceiling, {} alone",
            at_optimum.stats.expanded,
            alone.stats.expanded
        );
        fewer += usize::from(at_optimum.stats.expanded < alone.stats.expanded);
        let above = run_under(0, Some(optimum + 2));
        assert_eq!(above.solution().map(|s| s.cost), Some(*optimum), "#{id}");
        for width in [10, 100_000] {
            let outcome = run_under(width, None);
            let solution = outcome.solution().expect("solved");
            assert_eq!(solution.cost, *optimum, "#{id}, beam {width}");
            assert!(puzzle.is_goal(&puzzle.replay(&solution.moves).unwrap()));
            assert_eq!(outcome.stats.lower_bound, None, "#{id}, beam {width}");
        }
    }
    assert!(
        fewer >= 2,
        "the ceiling skipped a last iteration on {fewer} of 5 boards"
    );
}

/// GA* on one GPU and on three shards (two GPUs and one, or three sessions
/// on one) stopped by an expansion limit report the least f left on their
/// heaps, among pruned children and in the last round's inboxes: between
/// the start's h and Korf's optimum, above h somewhere, and at the optimum
/// itself when cut late enough. The same search run to its end needs no
/// bound.
#[test]
fn gpu_gastar_cut_by_a_limit_reports_a_lower_bound_at_most_the_optimum() {
    if !frontier_core::gpu::usable_or_skip(
        "gpu_gastar_cut_by_a_limit_reports_a_lower_bound_at_most_the_optimum",
    ) {
        return;
    }
    use frontier_core::search::gpu::{MultiGpuConfig, MultiGpuSession, PackedHasher};
    use frontier_core::{Limit, Limits, Status};
    let board = Board::new(4, 4).unwrap();
    let h = TilesHeuristic::Manhattan(Manhattan::new(&board, Goal::Korf));
    let (mut cut, mut above_h0, mut at_the_optimum) = (0, 0, 0);
    for (id, korf, _, optimum) in korf100()
        .iter()
        .filter(|i| ["16", "55", "79"].contains(&i.0.as_str()))
    {
        let puzzle = Tiles::parse(korf, Goal::Korf).unwrap();
        let h0 = h.h(&puzzle, &puzzle.start());
        for (devices, partial_expansion) in
            [(vec![0], false), (vec![0], true), (test_devices(), false)]
        {
            let config = MultiGpuConfig {
                devices: devices.clone(),
                heaps: 4096,
                table_log2: 22,
                memory_fraction: 0.05,
                partial_expansion,
                ..MultiGpuConfig::default()
            };
            let what = format!(
                "#{id}, {} shards, partial {partial_expansion}",
                devices.len()
            );
            let mut session =
                MultiGpuSession::new(&puzzle, &h, &PackedHasher, &config).expect("the GPUs run");
            let mut solve = |options: &SearchOptions| {
                session
                    .solve(&puzzle, &h, &PackedHasher, options)
                    .expect("the GPUs run")
            };
            let whole = solve(&SearchOptions::default());
            assert_eq!(whole.solution().map(|s| s.cost), Some(*optimum), "{what}");
            assert_eq!(
                whole.stats.lower_bound, None,
                "{what}: a proven optimum needs none"
            );
            for share in [0.5, 0.9, 0.99] {
                let limits = Limits {
                    max_expanded: Some((whole.stats.expanded as f64 * share) as u64),
                    ..Limits::default()
                };
                let outcome = solve(&SearchOptions::with_limits(limits));
                if !matches!(outcome.status, Status::LimitReached(Limit::Expansions)) {
                    continue;
                }
                let lower = outcome
                    .stats
                    .lower_bound
                    .expect("a cut search states its bound");
                assert!(
                    (h0..=*optimum).contains(&lower),
                    "{what}, cut at {share} of the work: bound {lower}, h0 {h0}"
                );
                cut += 1;
                above_h0 += usize::from(lower > h0);
                at_the_optimum += usize::from(lower == *optimum);
            }
        }
    }
    assert!(cut > 0, "no search was cut: nothing tested");
    assert!(above_h0 > 0, "no cut search proved more than its start's h");
    assert!(at_the_optimum > 0, "no cut search proved its last layer");
}

/// GPU IDA* cut inside its iterations (segments of a few roots, runs of a
/// fifth of the work each) resumes after its last segment, run after run,
/// on two GPUs (or two sessions on one), and ends at Korf's optimum.
#[test]
fn gpu_ida_cut_inside_iterations_ends_at_the_optimum() {
    if !frontier_core::gpu::usable_or_skip("gpu_ida_cut_inside_iterations_ends_at_the_optimum") {
        return;
    }
    use frontier_core::search::gpu::{gpu_ida, GpuIdaConfig};
    use frontier_core::search::ida::Checkpoint;
    use frontier_core::{Limit, Limits, Status};
    let dir = tempdir("gpu-ida-segments");
    let board = Board::new(4, 4).unwrap();
    let h = TilesHeuristic::Pdb(pdb_heuristic(&board, Goal::Korf, "5-5-5", true, &dir));
    let (id, korf, _, optimum) = korf100().into_iter().find(|i| i.0 == "1").unwrap();
    let puzzle = Tiles::parse(&korf, Goal::Korf).unwrap();
    let two = two_devices();
    let config = GpuIdaConfig {
        devices: two,
        roots: 4096,
        memory_fraction: 0.1,
        ..GpuIdaConfig::default()
    };
    let whole = gpu_ida(&puzzle, &h, &config, &SearchOptions::default()).unwrap();
    assert_eq!(whole.solution().map(|s| s.cost), Some(optimum), "#{id}");
    let checkpoints = dir.join("checkpoints");
    let segmented = GpuIdaConfig {
        checkpoint: Some(checkpoints.clone()),
        segment_seconds: 1e-4,
        ..config
    };
    let start = Checkpoint::key(&puzzle);
    let step = whole.stats.expanded / 5;
    let mut cut_inside = 0;
    for k in 1.. {
        assert!(k < 60, "the chain of runs does not end");
        let limits = Limits {
            max_expanded: Some(k * step),
            ..Limits::default()
        };
        let outcome =
            gpu_ida(&puzzle, &h, &segmented, &SearchOptions::with_limits(limits)).unwrap();
        if outcome.status != Status::LimitReached(Limit::Expansions) {
            let solution = outcome.solution().expect("solved");
            assert_eq!(solution.cost, optimum, "#{id}");
            assert!(puzzle.is_goal(&puzzle.replay(&solution.moves).unwrap()));
            break;
        }
        let saved = Checkpoint::load(&checkpoints, &start, "")
            .unwrap()
            .expect("a checkpoint");
        cut_inside += usize::from(saved.partial.is_some());
    }
    assert!(cut_inside >= 1, "no run was cut inside an iteration");
}

#[test]
fn gpu_running_out_of_device_memory_is_an_outcome() {
    if !frontier_core::gpu::usable_or_skip("gpu_running_out_of_device_memory_is_an_outcome") {
        return;
    }
    use frontier_core::search::gpu::{gastar, GastarConfig};
    use frontier_core::{Limit, Status};
    let board = Board::new(4, 4).unwrap();
    let h = TilesHeuristic::Manhattan(Manhattan::new(&board, Goal::Korf));
    // Korf #88 with Manhattan needs far more nodes than a few megabytes hold.
    let (_, korf, _, _) = korf100().into_iter().find(|i| i.0 == "88").unwrap();
    let puzzle = Tiles::parse(&korf, Goal::Korf).unwrap();
    let tiny = GastarConfig {
        heaps: 1024,
        table_log2: 16,
        memory_fraction: 0.0002,
        ..GastarConfig::default()
    };
    let outcome = gastar(&puzzle, &h, &tiny, &SearchOptions::default()).expect("the session fits");
    assert_eq!(outcome.status, Status::LimitReached(Limit::Memory));
}

/// Shards for the multi-GPU tests: two devices where the machine has them,
/// and always two shards on device 0, so states cross between shards of
/// one GPU as well as between GPUs (the exchange is the same code).
fn test_devices() -> Vec<usize> {
    let mut devices = two_devices();
    devices.push(0);
    devices
}

/// Two GPUs where the machine has them, else two sessions on device 0
/// (the split between GPUs is the same code).
fn two_devices() -> Vec<usize> {
    if frontier_core::gpu::device_count().unwrap_or(0) >= 2 {
        vec![0, 1]
    } else {
        vec![0, 0]
    }
}

/// States met on a random walk from the goal: every distance, every blank cell.
fn random_walk(puzzle: &Tiles, steps: usize, rng: &mut Rng) -> Vec<TileState> {
    let mut at = puzzle.start();
    let mut edges = Vec::new();
    let mut seen = Vec::new();
    for _ in 0..steps {
        edges.clear();
        puzzle.expand(&at, &mut edges);
        at = edges[rng.below(edges.len())].state;
        seen.push(at);
    }
    seen
}

#[test]
fn gpu_partition_owners_equal_cpu_owners() {
    if !frontier_core::gpu::usable_or_skip("gpu_partition_owners_equal_cpu_owners") {
        return;
    }
    use frontier_core::search::gpu::{device_owners, PackedHasher};
    use frontier_core::Partitioner;
    let mut rng = Rng(77);
    for (rows, cols) in [(3, 4), (4, 4), (5, 5)] {
        let board = Board::new(rows, cols).unwrap();
        let puzzle = Tiles::new(
            board.clone(),
            TileState::goal(&board, Goal::Standard),
            Goal::Standard,
        )
        .unwrap();
        let h = TilesHeuristic::Manhattan(Manhattan::new(&board, Goal::Standard));
        let states = random_walk(&puzzle, 3000, &mut rng);
        let check =
            |name: &str, partition: &dyn Fn(&TileState, u32) -> u32, gpu: Vec<u32>, parts| {
                let cpu: Vec<u32> = states.iter().map(|s| partition(s, parts)).collect();
                assert_eq!(cpu, gpu, "{rows}x{cols} {name} into {parts}");
                assert!(cpu.iter().all(|&o| o < parts));
            };
        for parts in [2u32, 3, 8] {
            let owners = device_owners(0, &puzzle, &h, &PackedHasher, &states, parts).unwrap();
            check(
                "hash",
                &|s, n| PackedHasher.owner(&puzzle, s, n),
                owners,
                parts,
            );
            for name in frontier_tiles::azh::PROJECTIONS {
                let azh = frontier_tiles::azh::projection(name, &board, 0x5EED).unwrap();
                let owners = device_owners(0, &puzzle, &h, &azh, &states, parts).unwrap();
                check(name, &|s, n| azh.owner(&puzzle, s, n), owners, parts);
            }
        }
    }
}

#[test]
fn gpu_multi_gpu_matches_astar_on_random_8_puzzles_under_every_partition() {
    if !frontier_core::gpu::usable_or_skip(
        "gpu_multi_gpu_matches_astar_on_random_8_puzzles_under_every_partition",
    ) {
        return;
    }
    use frontier_core::search::gpu::{MultiGpuConfig, MultiGpuSession, PackedHasher};
    let board = Board::new(3, 3).unwrap();
    let truth = all_distances(&board, Goal::Standard);
    let h = TilesHeuristic::Manhattan(Manhattan::new(&board, Goal::Standard));
    let states: Vec<&[u8; frontier_tiles::MAX_CELLS]> = truth.keys().collect();
    let mut rng = Rng(41);
    let puzzles: Vec<Tiles> = (0..20)
        .map(|_| {
            let cells = states[rng.below(states.len())];
            Tiles::new(board.clone(), state_from(cells, &board), Goal::Standard).unwrap()
        })
        .collect();
    for (partition, partial_expansion) in [
        ("hash", true),
        ("hash", false),
        ("split", true),
        ("zobrist", false),
    ] {
        let config = MultiGpuConfig {
            devices: test_devices(),
            partition: partition.into(),
            heaps: 256,
            table_log2: 16,
            memory_fraction: 0.01,
            partial_expansion,
        };
        let azh = frontier_tiles::azh::projection(
            if partition == "hash" {
                "zobrist"
            } else {
                partition
            },
            &board,
            0x5EED,
        )
        .unwrap();
        let mut sent = 0;
        let solve = |puzzle: &Tiles| {
            let outcome = if partition == "hash" {
                MultiGpuSession::new(puzzle, &h, &PackedHasher, &config)
                    .and_then(|mut s| s.solve(puzzle, &h, &PackedHasher, &SearchOptions::default()))
            } else {
                MultiGpuSession::new(puzzle, &h, &azh, &config)
                    .and_then(|mut s| s.solve(puzzle, &h, &azh, &SearchOptions::default()))
            };
            outcome.expect("the GPUs run")
        };
        for puzzle in &puzzles {
            let outcome = solve(puzzle);
            let solution = outcome.solution().expect("solvable");
            assert_eq!(solution.cost, truth[&puzzle.start().cells], "{partition}");
            assert!(puzzle.is_goal(&puzzle.replay(&solution.moves).unwrap()));
            assert_eq!(outcome.stats.workers.len(), 3);
            sent += outcome.stats.workers.iter().map(|w| w.sent).sum::<u64>();
        }
        assert!(sent > 0, "{partition}: states must cross between shards");
    }
}

#[test]
fn gpu_multi_gpu_matches_published_optima_and_one_gpu_matches_gastar() {
    if !frontier_core::gpu::usable_or_skip(
        "gpu_multi_gpu_matches_published_optima_and_one_gpu_matches_gastar",
    ) {
        return;
    }
    use frontier_core::search::gpu::{
        gastar, GastarConfig, MultiGpuConfig, MultiGpuSession, PackedHasher,
    };
    let dir = tempdir("gpu-multi-korf");
    let board = Board::new(4, 4).unwrap();
    let h = TilesHeuristic::Pdb(pdb_heuristic(&board, Goal::Korf, "5-5-5", true, &dir));
    let split = frontier_tiles::azh::projection("split", &board, 0x5EED).unwrap();
    let config = MultiGpuConfig {
        devices: test_devices(),
        memory_fraction: 0.1,
        ..MultiGpuConfig::default()
    };
    let first = Tiles::parse(&korf100()[0].1, Goal::Korf).unwrap();
    let mut session = MultiGpuSession::new(&first, &h, &split, &config).expect("the GPUs open");
    for (id, korf, _, optimum) in korf100()
        .iter()
        .filter(|i| ["16", "55", "79", "85", "97"].contains(&i.0.as_str()))
    {
        let puzzle = Tiles::parse(korf, Goal::Korf).unwrap();
        let outcome = session
            .solve(&puzzle, &h, &split, &SearchOptions::default())
            .expect("the GPUs run");
        assert_eq!(outcome.solution().map(|s| s.cost), Some(*optimum), "#{id}");
        let load = outcome.stats.load_balance.unwrap();
        assert!((1.0..=3.0).contains(&load), "#{id}: load {load}");
        assert!(outcome.stats.termination_overhead.is_some());

        let one = MultiGpuConfig {
            devices: vec![0],
            ..config.clone()
        };
        let alone = frontier_core::search::gpu::multi_gpu(
            &puzzle,
            &h,
            &PackedHasher,
            &one,
            &SearchOptions::default(),
        )
        .expect("one GPU runs");
        let single = gastar(
            &puzzle,
            &h,
            &GastarConfig {
                memory_fraction: 0.1,
                ..GastarConfig::default()
            },
            &SearchOptions::default(),
        )
        .expect("GA* runs");
        assert_eq!(alone.solution().map(|s| s.cost), Some(*optimum));
        assert_eq!(single.solution().map(|s| s.cost), Some(*optimum));
        assert!(alone.stats.communication_overhead.is_none());
    }
}

/// The in-place path's bound equals `h` after every move of random walks
/// (Manhattan, pattern databases with and without reflection, 8- and
/// 15-puzzle), and in-place IDA* expands and generates exactly what IDA*
/// through `expand` does, with the same optimal cost.
#[test]
fn in_place_ida_equals_ida_and_its_bounds_equal_h() {
    use frontier_core::search::ida::{ida, ida_in_place, IdaConfig};
    use frontier_core::{InPlace, InPlaceHeuristic};
    let dir = tempdir("in-place");
    let mut rng = Rng(41);
    for (side, specs) in [
        (3, vec!["4-4", "1,2,3/4,5,6/7,8"]),
        (
            4,
            vec![
                "1,2,3,4,5/6,7,8,9,10/11,12,13,14,15",
                "1,2,3,4/5,6,7,8/9,10,11,12/13,14,15",
            ],
        ),
    ] {
        let board = Board::new(side, side).unwrap();
        for goal in [Goal::Korf, Goal::Standard] {
            let mut heuristics = vec![TilesHeuristic::Manhattan(Manhattan::new(&board, goal))];
            for reflect in [false, true] {
                // Each partition alone, and the largest of them.
                let mut each = Vec::new();
                for spec in &specs {
                    let pdb = pdb_heuristic(&board, goal, spec, reflect, &dir);
                    heuristics.push(TilesHeuristic::Pdb(pdb.clone()));
                    each.push(pdb);
                }
                heuristics.push(TilesHeuristic::Max(each));
            }
            for h in &heuristics {
                // Bounds along a random walk.
                let goal_state = TileState::goal(&board, goal);
                let puzzle = Tiles::new(board.clone(), goal_state, goal).unwrap();
                let mut state = puzzle.start();
                let mut detail = Default::default();
                let mut bound = h.root(&puzzle, &state, &mut detail);
                let (mut last, mut ops) = (None, Vec::new());
                for _ in 0..300 {
                    ops.clear();
                    puzzle.ops(&state, last, &mut ops);
                    let op = ops[rng.below(ops.len())];
                    puzzle.apply(&mut state, op);
                    let mut next = Default::default();
                    let parent_h = bound;
                    bound = h.after(&puzzle, &state, op, &detail, parent_h, &mut next);
                    assert_eq!(bound, h.h(&puzzle, &state), "{h:?} after {op:?}");
                    // The op between a state and each child is the one
                    // that made it; a state is no child of itself.
                    let mut all = Vec::new();
                    puzzle.ops(&state, None, &mut all);
                    for &other in &all {
                        let mut child = state;
                        puzzle.apply(&mut child, other);
                        assert_eq!(puzzle.op_between(&state, &child), Some(other));
                    }
                    assert_eq!(puzzle.op_between(&state, &state), None);
                    // Capped: exact below the cap, else between it and h.
                    for cap in [0, bound.saturating_sub(3), bound, bound + 1] {
                        let mut scratch = Default::default();
                        let v = h.after_below(
                            &puzzle,
                            &state,
                            op,
                            &detail,
                            parent_h,
                            &mut scratch,
                            cap,
                        );
                        if bound < cap {
                            assert_eq!(v, bound, "{h:?} under cap {cap}");
                        } else {
                            assert!(
                                (cap..=bound).contains(&v),
                                "{h:?}: {v} for cap {cap}, h {bound}"
                            );
                        }
                    }
                    detail = next;
                    last = Some(op);
                }
                // The same search, node for node, on an instance of some depth.
                let steps = if side == 3 { 40 } else { 30 };
                let walked = random_walk(&puzzle, steps, &mut rng);
                let mut start = *walked.last().unwrap();
                start.came_from = None;
                let puzzle = Tiles::new(board.clone(), start, goal).unwrap();
                let config = IdaConfig {
                    threads: 1,
                    ..IdaConfig::default()
                };
                let options = SearchOptions::default();
                let plain = ida(&puzzle, h, &config, &options).unwrap();
                let fast = ida_in_place(&puzzle, h, &config, &options).unwrap();
                assert_eq!(
                    fast.solution().map(|s| s.cost),
                    plain.solution().map(|s| s.cost)
                );
                assert_eq!(fast.stats.expanded, plain.stats.expanded);
                assert_eq!(fast.stats.generated, plain.stats.generated);
                let solution = fast.solution().unwrap();
                let end = solution.states.last().unwrap();
                assert!(puzzle.is_goal(end));
            }
        }
    }
}

/// Move pruning to 12 slides keeps A*'s optimum on random 8-puzzles and
/// random-walk 15-puzzles, on one and two threads, with Manhattan and
/// reflected databases, and expands fewer nodes in all.
#[test]
fn move_pruning_keeps_the_optimum_and_expands_fewer_nodes() {
    use frontier_core::search::ida::{ida_in_place, IdaConfig};
    let dir = tempdir("move-pruning");
    let mut rng = Rng(77);
    let (mut plain_total, mut pruned_total) = (0, 0);
    for (side, steps, spec) in [
        (3, 60, "4-4"),
        (4, 45, "1,2,3,4,5/6,7,8,9,10/11,12,13,14,15"),
    ] {
        let board = Board::new(side, side).unwrap();
        for goal in [Goal::Korf, Goal::Standard] {
            let heuristics = [
                TilesHeuristic::Manhattan(Manhattan::new(&board, goal)),
                TilesHeuristic::Pdb(pdb_heuristic(&board, goal, spec, true, &dir)),
            ];
            for h in &heuristics {
                for _ in 0..3 {
                    let goal_state = TileState::goal(&board, goal);
                    let puzzle = Tiles::new(board.clone(), goal_state, goal).unwrap();
                    let mut start = *random_walk(&puzzle, steps, &mut rng).last().unwrap();
                    start.came_from = None;
                    let puzzle = Tiles::new(board.clone(), start, goal).unwrap();
                    let options = SearchOptions::default();
                    let optimum = astar(&puzzle, h, &options)
                        .unwrap()
                        .solution()
                        .unwrap()
                        .cost;
                    let one = IdaConfig {
                        threads: 1,
                        roots_per_thread: 1,
                        ..IdaConfig::default()
                    };
                    plain_total += ida_in_place(&puzzle, h, &one, &options)
                        .unwrap()
                        .stats
                        .expanded;
                    for threads in [1, 2] {
                        let config = IdaConfig {
                            threads,
                            move_pruning: 12,
                            ..one.clone()
                        };
                        let outcome = ida_in_place(&puzzle, h, &config, &options).unwrap();
                        let solution = outcome.solution().unwrap();
                        assert_eq!(solution.cost, optimum);
                        assert!(puzzle.is_goal(solution.states.last().unwrap()));
                        if threads == 1 {
                            pruned_total += outcome.stats.expanded;
                        }
                    }
                }
            }
        }
    }
    assert!(
        pruned_total * 10 < plain_total * 9,
        "{pruned_total} of {plain_total}"
    );
}

/// One automaton serves every instance of a board and goal in a process
/// (a Korf's 100 run builds it once), and another goal or shape gets its
/// own. Which slide sequences are redundant depends on the board's shape
/// only, not on the tiles' labels: both goals' automata come out equal,
/// although they were built from different witness states.
#[test]
fn move_pruning_automata_are_shared_by_board_and_goal_only() {
    use frontier_core::search::move_pruning::MovePruning;
    let mut rng = Rng(5);
    let automaton = |side: u8, goal: Goal, rng: &mut Rng| {
        let board = Board::new(side, side).unwrap();
        let goal_state = TileState::goal(&board, goal);
        let puzzle = Tiles::new(board.clone(), goal_state, goal).unwrap();
        let mut start = *random_walk(&puzzle, 20, rng).last().unwrap();
        start.came_from = None;
        let puzzle = Tiles::new(board, start, goal).unwrap();
        MovePruning::shared(&puzzle, 8).unwrap()
    };
    let first = automaton(4, Goal::Korf, &mut rng);
    let again = automaton(4, Goal::Korf, &mut rng);
    assert!(Arc::ptr_eq(&first, &again));
    assert!(!Arc::ptr_eq(
        &first,
        &automaton(4, Goal::Standard, &mut rng)
    ));
    assert!(!Arc::ptr_eq(&first, &automaton(3, Goal::Korf, &mut rng)));
    assert_eq!(
        first.table(),
        automaton(4, Goal::Standard, &mut rng).table()
    );
    assert_ne!(first.table(), automaton(3, Goal::Korf, &mut rng).table());
}

/// The in-place walk visits what `walk` visits, in the same order, with
/// the same counts: every board of every path up to 12 slides from random
/// 15-puzzles (tiles' `expand` leaves out the undoing slide, as `ops`
/// does), and stops where `walk` stops.
#[test]
fn walk_in_place_visits_what_walk_visits() {
    use frontier_core::search::walk::{walk, walk_in_place, Visit};
    let mut rng = Rng(8);
    let board = Board::new(4, 4).unwrap();
    for stop_after in [None, Some(5000)] {
        let goal_state = TileState::goal(&board, Goal::Korf);
        let puzzle = Tiles::new(board.clone(), goal_state, Goal::Korf).unwrap();
        let mut start = *random_walk(&puzzle, 30, &mut rng).last().unwrap();
        start.came_from = None;
        let puzzle = Tiles::new(board.clone(), start, Goal::Korf).unwrap();
        let options = SearchOptions::default();
        let record = |seen: &mut Vec<(Vec<u8>, usize)>, state: &TileState, depth: usize| {
            seen.push((state.cells[..16].to_vec(), depth));
            if stop_after.is_some_and(|n| seen.len() >= n) {
                Visit::Stop
            } else if depth < 12 {
                Visit::Descend
            } else {
                Visit::Prune
            }
        };
        let (mut by_walk, mut in_place) = (Vec::new(), Vec::new());
        let (end, stats) = walk(&puzzle, &options, |s, d| record(&mut by_walk, s, d));
        let (end_in_place, stats_in_place) =
            walk_in_place(&puzzle, &options, |s, d| record(&mut in_place, s, d));
        assert_eq!(end, end_in_place);
        assert!(by_walk.len() > 4000, "{}", by_walk.len());
        assert_eq!(by_walk, in_place);
        assert_eq!(stats.expanded, stats_in_place.expanded);
        assert_eq!(stats.generated, stats_in_place.generated);
    }
}

/// Weighted A* and beams on Korf's 100 against the published optima: costs
/// within w of the optimum, lower bounds at or below it, paths that
/// replay to the goal, and beams that do not depend on the thread count.
#[test]
fn weighted_and_beam_solutions_on_korf100_keep_their_bounds() {
    use frontier_core::search::{beam::beam, Order, Weight};
    let dir = tempdir("order");
    let board = Board::new(4, 4).unwrap();
    let h = pdb_heuristic(&board, Goal::Korf, "5-5-5", true, &dir);
    let with = |order: Order| SearchOptions {
        order,
        ..SearchOptions::default()
    };
    for (id, korf, _, optimum) in korf100() {
        let puzzle = Tiles::parse(&korf, Goal::Korf).unwrap();
        let check = |outcome: &frontier_core::DomainOutcome<Tiles>, what: &str| {
            let solution = outcome.solution().unwrap_or_else(|| panic!("#{id} {what}"));
            let lower = outcome.stats.lower_bound.unwrap();
            assert!(lower <= optimum && optimum <= solution.cost, "#{id} {what}");
            assert_eq!(solution.moves.len() as u32, solution.cost, "#{id} {what}");
            assert!(puzzle.is_goal(&puzzle.replay(&solution.moves).unwrap()));
            solution.cost
        };
        for w in ["1.5", "2"] {
            let weight = Weight::parse(w).unwrap();
            let order = Order {
                weight,
                ..Order::default()
            };
            let cost = check(&astar(&puzzle, &h, &with(order)).unwrap(), w);
            assert!(
                f64::from(cost) <= weight.value() * f64::from(optimum),
                "#{id} w={w}"
            );
        }
        if id.parse::<u32>().unwrap() <= 20 {
            let order = Order {
                beam: Some(2000),
                ..Order::default()
            };
            let one = beam(&puzzle, &h, 1, &with(order)).unwrap();
            let three = beam(&puzzle, &h, 3, &with(order)).unwrap();
            check(&one, "beam");
            assert_eq!(one.status, three.status, "#{id} beam on 1 and 3 threads");
        }
    }
}

/// 6×6 and 7×7 boards: random-walk scrambles parse, beams solve them, and
/// the moves replay to the goal; the presets for them cover every tile once
/// under both goals.
#[test]
fn boards_up_to_7x7_are_scrambled_solved_and_replayed() {
    use frontier_core::search::{beam::beam, Order};
    let cli = |goal| frontier_tiles::cli::TilesCli {
        goal,
        heuristic: "manhattan".into(),
        reflect: false,
        rank_conflicts: false,
        rank_weights: Vec::new(),
        rank_network: None,
        dual: false,
        dual_without_walk: false,
        pdb_dir: None,
        pdb_threads: None,
        scramble: Some(200),
        scramble_to: None,
        walk: frontier_tiles::cli::Walk::NoUndo,
    };
    let mut rng = frontier_core::rng::SplitMix64::new(4);
    for (cells, preset, patterns) in [
        (36, "5-5-5-5-5-5-5", 7),
        (36, "6-6-6-6-6-5", 6),
        (49, "5-5-5-5-5-5-5-5-5-3", 10),
    ] {
        for goal in [Goal::Korf, Goal::Standard] {
            let text = cli(goal).random_board(cells, &mut rng).unwrap();
            let puzzle = Tiles::parse(&text, goal).unwrap();
            assert_eq!(puzzle.board().cells(), cells);
            let h = Manhattan::new(puzzle.board(), goal);
            let options = SearchOptions {
                order: Order {
                    beam: Some(100),
                    ..Order::default()
                },
                ..SearchOptions::default()
            };
            let outcome = beam(&puzzle, &h, 2, &options).unwrap();
            let solution = outcome
                .solution()
                .expect("a beam of 100 solves a 200-move scramble");
            // The scramble's 200 moves bound the optimum from above.
            let lower = outcome.stats.lower_bound.unwrap();
            assert!(
                lower <= 200 && lower <= solution.cost,
                "{cells} cells: {lower}"
            );
            let end = puzzle.replay(&solution.moves).unwrap();
            assert!(puzzle.is_goal(&end), "{cells} cells");
            let parts = partition(preset, puzzle.board(), goal).unwrap();
            assert_eq!(parts.len(), patterns);
            let mut tiles: Vec<u8> = parts.iter().flat_map(|p| p.tiles.clone()).collect();
            tiles.sort_unstable();
            assert_eq!(tiles, (1..cells as u8).collect::<Vec<_>>(), "{preset}");
        }
    }
    let e = cli(Goal::Standard).random_board(30, &mut rng).unwrap_err();
    assert!(e.to_string().contains("square board"), "{e}");
}

/// Uniform walks are DeepCubeA's: a step off the board is a no-op and
/// undoing is allowed, so from the 3×3 goal (blank in a corner) two steps
/// end where they began with probability 1/4 (stay, stay) + 1/2 · 1/4 (out
/// and back) = 3/8, where a no-undo walk never does. A length drawn from
/// 0..=1 leaves the goal with probability 1/2 · 1/2 = 1/4. Bad shapes of a
/// scramble are refused with a reason.
#[test]
fn uniform_walks_are_lazy_and_lengths_are_drawn_from_the_range() {
    use frontier_tiles::cli::{TilesCli, Walk};
    let cli = |scramble, scramble_to, walk| TilesCli {
        goal: Goal::Standard,
        heuristic: "manhattan".into(),
        reflect: false,
        rank_conflicts: false,
        rank_weights: Vec::new(),
        rank_network: None,
        dual: false,
        dual_without_walk: false,
        pdb_dir: None,
        pdb_threads: None,
        scramble,
        scramble_to,
        walk,
    };
    let goal = "1 2 3 4 5 6 7 8 0";
    let mut rng = frontier_core::rng::SplitMix64::new(45);
    let share_at_goal = |config: &TilesCli, rng: &mut frontier_core::rng::SplitMix64| {
        let samples = 4000;
        let home = (0..samples)
            .filter(|_| config.random_board(9, rng).unwrap() == goal)
            .count();
        home as f64 / samples as f64
    };
    // Four standard deviations of 4,000 samples are under 0.031.
    let uniform = share_at_goal(&cli(Some(2), None, Walk::Uniform), &mut rng);
    assert!((uniform - 0.375).abs() < 0.031, "{uniform}");
    let no_undo = share_at_goal(&cli(Some(2), None, Walk::NoUndo), &mut rng);
    assert_eq!(no_undo, 0.0);
    let drawn = share_at_goal(&cli(Some(0), Some(1), Walk::Uniform), &mut rng);
    assert!((drawn - 0.75).abs() < 0.031, "{drawn}");
    for (config, message) in [
        (
            cli(Some(5), Some(4), Walk::Uniform),
            "scramble_to 4 is below scramble 5",
        ),
        (cli(None, Some(4), Walk::NoUndo), "give scramble"),
        (cli(None, None, Walk::Uniform), "give scramble"),
    ] {
        let e = config.random_board(9, &mut rng).unwrap_err().to_string();
        assert!(e.contains(message), "{e}");
    }
}

/// Every GPU executor's kernel compiles for Hopper with NVRTC alone (no GPU
/// needed) for every heuristic's device code (Manhattan distance, one
/// additive partition, the largest of two) and every board size up to 7×7;
/// skipped loudly where NVRTC is not installed.
#[test]
fn every_gpu_kernel_compiles_without_a_gpu() {
    let dir = tempdir("compile");
    let small = Board::new(3, 3).unwrap();
    let mut cases: Vec<(Board, TilesHeuristic)> = vec![
        (
            small.clone(),
            TilesHeuristic::Pdb(pdb_heuristic(&small, Goal::Standard, "4-4", true, &dir)),
        ),
        (
            small.clone(),
            TilesHeuristic::Max(vec![
                pdb_heuristic(&small, Goal::Standard, "4-4", true, &dir),
                pdb_heuristic(&small, Goal::Standard, "1,2,3/4,5,6/7,8", false, &dir),
            ]),
        ),
        // A beam's rank by conflicts across databases.
        (
            small.clone(),
            TilesHeuristic::Pdb(
                pdb_heuristic(&small, Goal::Standard, "4-4", true, &dir)
                    .ranked_by_conflicts(&small, Goal::Standard),
            ),
        ),
    ];
    // Learned ranks: linear, and a network of 16 units (on 6×6 with a
    // partial partition, the size of the 35-puzzle's table).
    let linear = LinearRank::new(&[0.5, 0.25, 0.5, 0.25, 1.0, 0.3, 1.5], 2, true).unwrap();
    cases.push((
        small.clone(),
        TilesHeuristic::Pdb(
            pdb_heuristic(&small, Goal::Standard, "4-4", true, &dir)
                .ranked_linearly(&small, Goal::Standard, linear)
                .unwrap(),
        ),
    ));
    for (board, spec) in [
        (small.clone(), "4-4"),
        (Board::new(6, 6).unwrap(), "1,2,3/8,9"),
    ] {
        let pdb = pdb_heuristic(&board, Goal::Standard, spec, true, &dir);
        let most = pdb.most_rank_features();
        let n = board.cells() * board.cells() * 16 + most.len() * 16 + 32 + most.len() + 1;
        let weights: Vec<String> = (0..n)
            .map(|i| format!("{}", (i % 7) as f64 / 50.0 - 0.06))
            .collect();
        let text = format!("16 {}\n{}", most.len(), weights.join(" "));
        let network = NetworkRank::parse(&text, board.cells(), &most).unwrap();
        let ranked = pdb
            .ranked_by_network(&board, Goal::Standard, network)
            .unwrap();
        cases.push((board, TilesHeuristic::Pdb(ranked)));
    }
    for (rows, cols) in [(3, 3), (3, 4), (4, 4), (5, 5), (6, 6), (7, 7), (2, 24)] {
        let board = Board::new(rows, cols).unwrap();
        let manhattan = Manhattan::new(&board, Goal::Standard);
        cases.push((board.clone(), TilesHeuristic::Manhattan(manhattan.clone())));
        cases.push((
            board.clone(),
            TilesHeuristic::Manhattan(manhattan.ranked_by_conflicts(&board, Goal::Standard)),
        ));
    }
    for (board, heuristic) in cases {
        let goal = TileState::goal(&board, Goal::Standard);
        let puzzle = Tiles::new(board.clone(), goal, Goal::Standard).unwrap();
        let compiled = frontier_core::search::gpu::compile_engines(&puzzle, &heuristic, "sm_90");
        if !frontier_core::gpu::checked_unless_no_nvrtc(compiled)
            .unwrap_or_else(|e| panic!("{}x{}: {e}", board.rows(), board.cols()))
        {
            return;
        }
    }
}
