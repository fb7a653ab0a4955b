//! Parallel IDA* returns A*'s optimal cost on random weighted mazes for
//! every thread count (also with an inconsistent heuristic), replays its
//! paths, honours limits, and resumes from its checkpoints.

use frontier_core::grid::{Cell, Grid, Manhattan, Step};
use frontier_core::rng::SplitMix64;
use frontier_core::search::ida::{ida, ida_in_place, Checkpoint, IdaConfig, Partial};
use frontier_core::{astar, Cost, Domain, Error, Heuristic, Limit, Limits, SearchOptions, Status};

/// A weighted maze of `side`², start top left, goal bottom right.
fn maze(rng: &mut SplitMix64, side: usize) -> Grid {
    Grid::parse(&maze_text(rng, side)).expect("generated mazes are well formed")
}

fn maze_text(rng: &mut SplitMix64, side: usize) -> String {
    Grid::random_text(rng, side, side, 2, (0, 0), (side - 1, side - 1))
}

/// A random maze and A*'s optimal cost, if it has a path.
fn solvable_maze(rng: &mut SplitMix64, side: usize) -> Option<(Grid, Cost)> {
    let grid = maze(rng, side);
    let cost = astar(&grid, &Manhattan, &SearchOptions::default())
        .expect("valid limits")
        .solution()?
        .cost;
    Some((grid, cost))
}

fn config(threads: usize, roots_per_thread: usize) -> IdaConfig {
    IdaConfig {
        threads,
        roots_per_thread,
        ..IdaConfig::default()
    }
}

/// The cost of walking `moves` from the start, checking each state the
/// solution lists and that it ends on the goal.
fn replay(grid: &Grid, states: &[Cell], moves: &[frontier_core::grid::Step]) -> Cost {
    let mut at = grid.start();
    assert_eq!(states.first(), Some(&at));
    let mut cost = 0;
    for (mv, expected) in moves.iter().zip(&states[1..]) {
        at = grid.step(at, *mv).expect("every move is legal");
        assert_eq!(&at, expected);
        cost += grid.enter_cost(at).expect("a free cell");
    }
    assert!(grid.is_goal(&at));
    cost
}

#[test]
fn ida_returns_the_astar_cost_for_1_2_and_3_threads_on_random_mazes() {
    let mut rng = SplitMix64::new(5);
    let mut solved = 0;
    for _ in 0..80 {
        let side = 3 + rng.below(4) as usize;
        let grid = maze(&mut rng, side);
        // IDA* cannot prove a cyclic space has no goal: only solvable mazes.
        let Some(expected) = astar(&grid, &Manhattan, &SearchOptions::default())
            .expect("valid limits")
            .solution()
            .map(|s| s.cost)
        else {
            continue;
        };
        // 2 × 40,000 roots: a split in batches (see `split_batch`).
        for (threads, roots) in [(1, 1), (2, 4), (3, 64), (2, 40_000)] {
            let outcome = ida(
                &grid,
                &Manhattan,
                &config(threads, roots),
                &SearchOptions::default(),
            )
            .unwrap();
            let Status::Solved(solution) = &outcome.status else {
                panic!("{threads} threads: {:?} on\n{grid:?}", outcome.status);
            };
            assert_eq!(solution.cost, expected, "{threads} threads");
            assert_eq!(replay(&grid, &solution.states, &solution.moves), expected);
        }
        solved += 1;
    }
    assert!(solved > 40, "mostly solvable mazes: {solved}");
}

/// Admissible but inconsistent: the true cost-to-go, halved on a random
/// half of the cells.
struct Jittery(std::collections::HashMap<Cell, Cost>);
impl Heuristic<Grid> for Jittery {
    fn h(&self, _: &Grid, cell: &Cell) -> Cost {
        self.0.get(cell).copied().unwrap_or(0)
    }
    fn consistent(&self) -> bool {
        false
    }
}

/// The in-place interface for a heuristic with no detail: every state's
/// bound computed afresh.
macro_rules! in_place_from_h {
    ($heuristic:ty) => {
        impl frontier_core::InPlaceHeuristic<Grid> for $heuristic {
            type Detail = ();
            fn root(&self, grid: &Grid, cell: &Cell, _: &mut ()) -> Cost {
                self.h(grid, cell)
            }
            fn after(
                &self,
                grid: &Grid,
                cell: &Cell,
                _: Step,
                _: &(),
                _: Cost,
                _: &mut (),
            ) -> Cost {
                self.h(grid, cell)
            }
        }
    };
}
in_place_from_h!(Jittery);

/// Also with move pruning, which needs only admissibility.
#[test]
fn ida_stays_optimal_with_an_inconsistent_heuristic() {
    let mut rng = SplitMix64::new(9);
    let mut checked = 0;
    for _ in 0..40 {
        let text = maze_text(&mut rng, 5);
        let grid = Grid::parse(&text).unwrap();
        let Some(expected) = astar(&grid, &Manhattan, &SearchOptions::default())
            .expect("valid limits")
            .solution()
            .map(|s| s.cost)
        else {
            continue;
        };
        // The exact cost-to-go of every free cell, from A* started there
        // (the maze's text with the start moved), halved at random.
        let mut exact = std::collections::HashMap::new();
        let lines: Vec<&str> = text.lines().collect();
        for (r, line) in lines.iter().enumerate() {
            for (c, ch) in line.chars().enumerate() {
                if ch == '#' || ch == 'G' {
                    continue;
                }
                let moved: Vec<String> = lines
                    .iter()
                    .enumerate()
                    .map(|(i, l)| {
                        l.chars()
                            .enumerate()
                            .map(|(j, x)| match (x, (i, j) == (r, c)) {
                                (_, true) => 'S',
                                ('S', false) => '.',
                                (x, false) => x,
                            })
                            .collect()
                    })
                    .collect();
                let from = Grid::parse(&moved.join("\n")).unwrap();
                if let Some(s) = astar(&from, &Manhattan, &SearchOptions::default())
                    .expect("valid limits")
                    .solution()
                {
                    let h = if rng.below(2) == 0 {
                        s.cost / 2
                    } else {
                        s.cost
                    };
                    exact.insert((r as u16, c as u16), h);
                }
            }
        }
        let jittery = Jittery(exact);
        let outcome = ida(&grid, &jittery, &config(2, 8), &SearchOptions::default()).unwrap();
        assert_eq!(outcome.solution().map(|s| s.cost), Some(expected));
        // 80,000 roots: the split expands batches of the lowest f on two
        // threads, and usually meets the goal itself, which must still be
        // taken only when nothing open lies below it.
        let outcome = ida(
            &grid,
            &jittery,
            &config(2, 40_000),
            &SearchOptions::default(),
        )
        .unwrap();
        let solution = outcome.solution().expect("a solvable maze");
        assert_eq!(solution.cost, expected);
        assert_eq!(replay(&grid, &solution.states, &solution.moves), expected);
        let pruning = IdaConfig {
            move_pruning: 6,
            ..config(2, 8)
        };
        let outcome = ida_in_place(&grid, &jittery, &pruning, &SearchOptions::default()).unwrap();
        assert_eq!(outcome.solution().map(|s| s.cost), Some(expected));
        checked += 1;
    }
    assert!(checked > 20);
}

/// IDA* under [`HalfManhattan`], stopped after `max_expanded` expansions
/// where given.
fn ida_capped(
    grid: &Grid,
    config: &IdaConfig,
    max_expanded: Option<u64>,
) -> frontier_core::DomainOutcome<Grid> {
    let limits = Limits {
        max_expanded,
        ..Limits::default()
    };
    ida(
        grid,
        &HalfManhattan,
        config,
        &SearchOptions::with_limits(limits),
    )
    .unwrap()
}

/// An open 9×9 maze with a wall and heavy cells in the way, so that IDA*
/// needs many iterations and many thousand expansions.
fn open_maze() -> Grid {
    open_maze_of_side(9)
}

/// An open `n`×`n` maze: a wall across the middle row but for its last two
/// cells, heavy cells on every third diagonal. From 12 on, its last
/// iteration under HalfManhattan expands far more nodes than splitting it
/// into thousands of roots does.
fn open_maze_of_side(n: usize) -> Grid {
    let mut text = String::new();
    for r in 0..n {
        for c in 0..n {
            text.push(match (r, c) {
                (0, 0) => 'S',
                _ if r == n - 1 && c == n - 1 => 'G',
                _ if r == n / 2 && c + 2 < n => '#',
                _ if (r + c) % 3 == 0 => '3',
                _ => '.',
            });
        }
        text.push('\n');
    }
    Grid::parse(&text).unwrap()
}

/// Half the Manhattan distance: weaker, so IDA* has work to stop in.
struct HalfManhattan;
impl Heuristic<Grid> for HalfManhattan {
    fn h(&self, grid: &Grid, cell: &Cell) -> Cost {
        Manhattan.h(grid, cell) / 2
    }
}

/// A fresh checkpoint directory named `name`, the open maze, and its
/// optimal cost under `HalfManhattan` (by A*).
fn checkpoint_case(name: &str) -> (std::path::PathBuf, Grid, Cost) {
    checkpoint_case_on(name, open_maze())
}

/// A fresh checkpoint directory named for the test, `grid` and its optimum.
fn checkpoint_case_on(name: &str, grid: Grid) -> (std::path::PathBuf, Grid, Cost) {
    let dir = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let expected = astar(&grid, &HalfManhattan, &SearchOptions::default())
        .expect("valid limits")
        .solution()
        .map(|s| s.cost)
        .unwrap();
    (dir, grid, expected)
}

#[test]
fn a_stopped_search_resumes_at_its_last_completed_bound() {
    let (dir, grid, expected) = checkpoint_case("frontier-ida");
    let with_checkpoint = IdaConfig {
        checkpoint: Some(dir.clone()),
        ..config(2, 2)
    };
    let whole = ida(
        &grid,
        &HalfManhattan,
        &config(2, 2),
        &SearchOptions::default(),
    )
    .unwrap();
    assert_eq!(whole.solution().map(|s| s.cost), Some(expected));
    assert!(whole.stats.expanded > 100_000, "{}", whole.stats.expanded);

    // Stop after about half the work: at least one iteration completes.
    let limits = Limits {
        max_expanded: Some(whole.stats.expanded / 2),
        ..Limits::default()
    };
    let stopped = ida(
        &grid,
        &HalfManhattan,
        &with_checkpoint,
        &SearchOptions::with_limits(limits),
    )
    .unwrap();
    assert_eq!(stopped.status, Status::LimitReached(Limit::Expansions));
    let start = Checkpoint::key(&grid);
    let saved = Checkpoint::load(&dir, &start, "")
        .unwrap()
        .expect("a checkpoint");
    let first_bound = HalfManhattan.h(&grid, &grid.start());
    assert!(saved.bound > first_bound && saved.bound <= expected);
    assert!(saved.iterations >= 1);
    // The cut iteration's work counts: the checkpoint holds all of the
    // stopped run, and the resumed run's totals include it.
    assert_eq!(saved.expanded, stopped.stats.expanded);
    // (The run's clock stops a little after the checkpoint is written.)
    assert!(
        saved.seconds > 0.0 && stopped.stats.seconds - saved.seconds < 0.1,
        "{} vs {}",
        saved.seconds,
        stopped.stats.seconds
    );

    let resumed = ida(
        &grid,
        &HalfManhattan,
        &with_checkpoint,
        &SearchOptions::default(),
    )
    .unwrap();
    assert_eq!(resumed.solution().map(|s| s.cost), Some(expected));
    assert!(resumed.stats.expanded > saved.expanded);
    assert!(resumed.stats.seconds >= saved.seconds);

    // A file that names another start, or does not parse, is refused.
    let resume = || {
        ida(
            &grid,
            &HalfManhattan,
            &with_checkpoint,
            &SearchOptions::default(),
        )
    };
    let path = Checkpoint::path(&dir, &start);
    let other = Checkpoint {
        start: "another".into(),
        ..saved.clone()
    };
    std::fs::write(&path, other.sealed()).unwrap();
    let refused = resume();
    assert!(matches!(&refused, Err(Error::Checkpoint(m)) if m.contains("another start")));
    // The same file unsealed (its bound edited): the checksum refuses it.
    let edited = Checkpoint {
        bound: saved.bound + 2,
        ..saved.clone()
    };
    let text = saved.sealed().replace(
        &format!("\"bound\":{}", saved.bound),
        &format!("\"bound\":{}", edited.bound),
    );
    std::fs::write(&path, text).unwrap();
    let refused = resume();
    assert!(matches!(&refused, Err(Error::Checkpoint(m)) if m.contains("checksum")));
    // Written under another context (another goal, say): refused by name.
    std::fs::write(
        &path,
        Checkpoint {
            context: "goal=Korf".into(),
            ..saved.clone()
        }
        .sealed(),
    )
    .unwrap();
    let refused = resume();
    assert!(
        matches!(&refused, Err(Error::Checkpoint(m)) if m.contains("goal: written Korf, now -")),
        "{refused:?}"
    );
    std::fs::write(&path, "{ not json").unwrap();
    let refused = resume();
    assert!(matches!(refused, Err(Error::Checkpoint(_))));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// With segments of a root or two (a tiny `segment_seconds`), a search cut
/// inside an iteration checkpoints the roots it finished; the next run
/// skips them, and a chain of runs each cut short still ends at the
/// optimum. A split that differs (another `roots_per_thread`) ignores the
/// roots done and still ends there.
#[test]
fn an_iteration_cut_midway_resumes_after_its_last_segment() {
    let (dir, grid, expected) = checkpoint_case("frontier-ida-segments");
    let start = Checkpoint::key(&grid);
    let segmented = IdaConfig {
        checkpoint: Some(dir.clone()),
        segment_seconds: 1e-9,
        ..config(2, 16)
    };
    let whole = ida(
        &grid,
        &HalfManhattan,
        &config(2, 16),
        &SearchOptions::default(),
    )
    .unwrap();
    let run =
        |max_expanded: Option<u64>, config: &IdaConfig| ida_capped(&grid, config, max_expanded);

    // Runs of a tenth of the work each, until one ends with the answer.
    let step = whole.stats.expanded / 10;
    let mut cut_inside = 0;
    for k in 1.. {
        assert!(k < 100, "the chain of runs does not end");
        let outcome = run(Some(k * step), &segmented);
        if outcome.status != Status::LimitReached(Limit::Expansions) {
            assert_eq!(outcome.solution().map(|s| s.cost), Some(expected));
            break;
        }
        let saved = Checkpoint::load(&dir, &start, "")
            .unwrap()
            .expect("a checkpoint");
        if let Some(partial) = &saved.partial {
            assert!(partial.done > 0);
            assert!(partial.next.is_none_or(|next| next > saved.bound));
            cut_inside += 1;
        }
    }
    assert!(
        cut_inside >= 3,
        "runs cut inside an iteration: {cut_inside}"
    );

    // The roots done are skipped: less new work than from the iteration's
    // first root.
    std::fs::remove_dir_all(&dir).unwrap();
    let cut = run(Some(whole.stats.expanded * 3 / 4), &segmented);
    assert_eq!(cut.status, Status::LimitReached(Limit::Expansions));
    let saved = Checkpoint::load(&dir, &start, "")
        .unwrap()
        .expect("a checkpoint");
    let Some(Partial { done, .. }) = saved.partial else {
        panic!("no progress inside the cut iteration: {saved:?}")
    };
    assert!(done > 0);
    let new_work = |checkpoint: &Checkpoint, config: &IdaConfig| {
        checkpoint.store(&dir).unwrap();
        let resumed = run(None, config);
        assert_eq!(resumed.solution().map(|s| s.cost), Some(expected));
        resumed.stats.expanded - checkpoint.expanded
    };
    let skipping = new_work(&saved, &segmented);
    let whole_iteration = new_work(
        &Checkpoint {
            partial: None,
            ..saved.clone()
        },
        &segmented,
    );
    assert!(
        skipping < whole_iteration,
        "{skipping} vs {whole_iteration}"
    );
    // Another split: its roots differ, so the progress is not used (and
    // the answer is still the optimum).
    let other_split = IdaConfig {
        roots_per_thread: 5,
        ..segmented.clone()
    };
    new_work(&saved, &other_split);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A segment closes at its target time whatever its roots weigh: resumed
/// at its last bound with thousands of roots, a search whose first segment
/// by count (a sixty-fourth of the roots, the heaviest first) outweighs the
/// run's limit still checkpoints the roots it finished before the limit.
#[test]
fn a_resumed_bound_checkpoints_its_first_roots_before_a_limit() {
    let (dir, grid, expected) = checkpoint_case_on("frontier-ida-close", open_maze_of_side(12));
    let start = Checkpoint::key(&grid);
    let at_last_bound = Checkpoint {
        format: frontier_core::search::ida::CHECKPOINT_FORMAT,
        start: start.clone(),
        context: String::new(),
        bound: expected,
        iterations: 1,
        expanded: 0,
        generated: 0,
        seconds: 0.0,
        partial: None,
        checksum: String::new(),
    };
    let many_roots = IdaConfig {
        checkpoint: Some(dir.clone()),
        segment_seconds: 1e-9,
        ..config(2, 2048)
    };
    let resume = |max_expanded: Option<u64>| {
        at_last_bound.store(&dir).unwrap();
        ida_capped(&grid, &many_roots, max_expanded)
    };
    let last_iteration = resume(None);
    assert_eq!(last_iteration.solution().map(|s| s.cost), Some(expected));
    // A sixteenth of the work: the roots that a segment sized by count
    // takes first (the heaviest, 32 of 2 × 2048) need more than that here.
    let work = last_iteration.stats.expanded;
    let cut = resume(Some(work / 16));
    assert_eq!(cut.status, Status::LimitReached(Limit::Expansions));
    let saved = Checkpoint::load(&dir, &start, "")
        .unwrap()
        .expect("a checkpoint");
    assert_eq!(saved.bound, expected);
    let done = saved.partial.as_ref().map_or(0, |p| p.done);
    assert!(done > 0, "no root checkpointed before the limit: {saved:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A search cut by a limit reports the bound of the iteration it was in:
/// never above the optimum, never below the start's h, and rising with
/// the work allowed.
#[test]
fn a_cut_search_reports_a_lower_bound_at_most_the_optimum() {
    let mut rng = SplitMix64::new(41);
    let mut above_h0 = 0;
    let mut cases = 0;
    while cases < 20 {
        let side = 5 + rng.below(4) as usize;
        let Some((grid, expected)) = solvable_maze(&mut rng, side) else {
            continue;
        };
        cases += 1;
        let h0 = HalfManhattan.h(&grid, &grid.start());
        let work = ida_capped(&grid, &config(1, 1), None).stats.expanded;
        for threads in [1, 2] {
            let mut last = h0;
            for part in [8, 4, 2] {
                let cut = ida_capped(&grid, &config(threads, 4), Some(work / part));
                if !matches!(cut.status, Status::LimitReached(Limit::Expansions)) {
                    continue;
                }
                let lower = cut
                    .stats
                    .lower_bound
                    .expect("a cut search states its bound");
                assert!(
                    (h0..=expected).contains(&lower),
                    "{threads} threads, a {part}th of the work: bound {lower}, h0 {h0}, optimum {expected}\n{grid:?}"
                );
                if threads == 1 {
                    assert!(
                        lower >= last,
                        "the bound fell from {last} to {lower} with more work"
                    );
                    last = lower;
                }
                above_h0 += usize::from(lower > h0);
            }
        }
        let solved = ida_capped(&grid, &config(2, 4), None);
        assert_eq!(
            solved.stats.lower_bound, None,
            "a proven optimum needs no bound"
        );
    }
    assert!(above_h0 > 10, "the bounds never rose above h0: {above_h0}");
}

#[test]
fn time_limits_stop_a_search_that_cannot_end() {
    // No goal is reachable; IDA* would raise its bound for ever.
    let grid = Grid::parse("S.#\n..#\n##G").unwrap();
    let limits = Limits {
        max_seconds: Some(0.3),
        ..Limits::default()
    };
    let outcome = ida(
        &grid,
        &Manhattan,
        &config(2, 2),
        &SearchOptions::with_limits(limits),
    )
    .unwrap();
    assert_eq!(outcome.status, Status::LimitReached(Limit::Time));
    assert!(outcome.stats.expanded > 0);
}

/// A checkpoint reads back as written whatever its seconds: the checksum is
/// taken over the text, since a float parsed back from JSON can differ
/// from the one written in its last bit (a search's own checkpoint once
/// failed its checksum that way).
#[test]
fn checkpoints_with_any_seconds_pass_their_own_checksum() {
    let dir = std::env::temp_dir().join(format!("frontier-ida-floats-{}", std::process::id()));
    let mut rng = SplitMix64::new(31);
    for i in 0..2000u64 {
        let seconds = f64::from_bits(rng.next_u64() >> 2) % 1e6 + (i as f64) * 1e-9;
        let checkpoint = Checkpoint {
            format: 0,
            start: format!("start {i} with \"quotes\" and \"checksum\":\"x\""),
            context: "goal=Korf\nheuristic=7-8".into(),
            bound: 50 + i as Cost,
            iterations: 3,
            expanded: rng.next_u64() >> 20,
            generated: rng.next_u64() >> 18,
            seconds,
            partial: None,
            checksum: String::new(),
        };
        checkpoint.store(&dir).unwrap();
        let read = Checkpoint::load(&dir, &checkpoint.start, &checkpoint.context)
            .unwrap()
            .expect("stored");
        assert_eq!(read.bound, checkpoint.bound, "seconds {seconds}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The in-place path searches the same tree as the `expand` path: the same
/// optimal cost, and on one thread the same nodes expanded and generated,
/// on random weighted mazes; its path replays.
#[test]
fn in_place_ida_equals_ida_node_for_node() {
    let mut rng = SplitMix64::new(17);
    let mut compared = 0;
    for _ in 0..60 {
        let side = 3 + rng.below(4) as usize;
        let Some((grid, expected)) = solvable_maze(&mut rng, side) else {
            continue;
        };
        let options = SearchOptions::default();
        for (threads, roots) in [(1, 1), (1, 8), (2, 4)] {
            let plain = ida(&grid, &Manhattan, &config(threads, roots), &options).unwrap();
            let fast = ida_in_place(&grid, &Manhattan, &config(threads, roots), &options).unwrap();
            let solution = fast.solution().expect("solvable");
            assert_eq!(solution.cost, expected);
            assert_eq!(replay(&grid, &solution.states, &solution.moves), expected);
            if threads == 1 {
                assert_eq!(fast.stats.expanded, plain.stats.expanded, "{grid:?}");
                assert_eq!(fast.stats.generated, plain.stats.generated, "{grid:?}");
            }
            compared += 1;
        }
    }
    assert!(compared > 90, "{compared}");
}

/// Move pruning keeps IDA*'s optimum on random weighted mazes, where the
/// sequences kept must be the cheapest (not only the shortest) to each
/// cell, for every depth and thread count; it never expands more, and
/// prunes some. (With an inconsistent heuristic:
/// `ida_stays_optimal_with_an_inconsistent_heuristic`.)
#[test]
fn move_pruning_keeps_the_optimum_on_weighted_mazes() {
    let mut rng = SplitMix64::new(23);
    let (mut plain_total, mut pruned_total, mut compared) = (0u64, 0u64, 0);
    for _ in 0..60 {
        let side = 3 + rng.below(5) as usize;
        let Some((grid, expected)) = solvable_maze(&mut rng, side) else {
            continue;
        };
        let options = SearchOptions::default();
        let plain = ida_in_place(&grid, &Manhattan, &config(1, 1), &options).unwrap();
        for depth in [2, 3, 4, 6, 9] {
            for (threads, roots) in [(1, 1), (2, 4)] {
                let pruning = IdaConfig {
                    move_pruning: depth,
                    ..config(threads, roots)
                };
                let outcome = ida_in_place(&grid, &Manhattan, &pruning, &options).unwrap();
                let solution = outcome.solution().expect("solvable");
                assert_eq!(solution.cost, expected, "depth {depth} on {grid:?}");
                assert_eq!(replay(&grid, &solution.states, &solution.moves), expected);
                if threads == 1 {
                    assert!(outcome.stats.expanded <= plain.stats.expanded, "{grid:?}");
                    if depth == 9 {
                        plain_total += plain.stats.expanded;
                        pruned_total += outcome.stats.expanded;
                    }
                }
                compared += 1;
            }
        }
    }
    assert!(compared > 400, "{compared}");
    assert!(
        pruned_total * 10 < plain_total * 9,
        "depth 9 expanded {pruned_total} of {plain_total}"
    );
}

/// Move pruning is refused, with a reason, where it cannot run.
#[test]
fn move_pruning_is_refused_off_the_in_place_path_and_at_bad_depths() {
    let grid = open_maze();
    let options = SearchOptions::default();
    let with = |depth| IdaConfig {
        move_pruning: depth,
        ..config(1, 1)
    };
    let refused = |result: Result<_, Error>| match result {
        Err(e) => e.to_string(),
        Ok(_) => panic!("accepted"),
    };
    assert!(refused(ida(&grid, &Manhattan, &with(4), &options)).contains("in-place path"));
    for depth in [1, 99] {
        let message = refused(ida_in_place(&grid, &Manhattan, &with(depth), &options));
        assert!(
            message.contains(&format!("depth {depth} is outside 2..=")),
            "{message}"
        );
    }
}

/// A context the domain did not count starts the automaton in a state that
/// prunes nothing and stays there: a search forgets its path, never loses
/// a move.
#[test]
fn an_uncounted_context_prunes_nothing() {
    use frontier_core::search::move_pruning::MovePruning;
    let grid = open_maze();
    let pruning = MovePruning::build(&grid, 6).unwrap();
    let blind = pruning.start(usize::MAX);
    for op in 0..pruning.ops() {
        assert_eq!(pruning.step(blind, op), Some(blind));
    }
    // Counted contexts do prune: some op from some start is left out
    // after a few steps.
    assert!(pruning
        .table()
        .contains(&frontier_core::search::move_pruning::PRUNED));
}

// In place too, for donation on both paths.
in_place_from_h!(HalfManhattan);

/// Threads whose roots run out take pieces of busy threads' subtrees: the
/// iterations search the same nodes as one thread does (counts per
/// completed iteration equal), pieces are handed over, and a goal found
/// inside a piece carries the whole path from its root (replayed).
#[test]
fn donated_subtrees_search_the_same_nodes_and_keep_their_paths() {
    let mut rng = SplitMix64::new(41);
    let mut donations = 0;
    for _ in 0..6 {
        // Unit costs, so that the trees are wide.
        let text = Grid::random_text(&mut rng, 12, 12, 2, (0, 0), (11, 11));
        let text: String = text
            .chars()
            .map(|c| if c.is_ascii_digit() { '.' } else { c })
            .collect();
        let grid = Grid::parse(&text).unwrap();
        let best = astar(&grid, &Manhattan, &SearchOptions::default()).unwrap();
        let Some(expected) = best.solution().map(|s| s.cost) else {
            continue;
        };
        let options = SearchOptions::default();
        // The same number of roots in every run, so the same split.
        let one = ida_in_place(&grid, &HalfManhattan, &config(1, 4), &options).unwrap();
        assert_eq!(
            one.stats.donations, None,
            "one thread has no one to give to"
        );
        for threads in [2, 4] {
            let roots = 4 / threads;
            for outcome in [
                ida(&grid, &HalfManhattan, &config(threads, roots), &options).unwrap(),
                ida_in_place(&grid, &HalfManhattan, &config(threads, roots), &options).unwrap(),
            ] {
                let solution = outcome.solution().expect("solvable");
                assert_eq!(solution.cost, expected, "{threads} threads on\n{grid:?}");
                assert_eq!(replay(&grid, &solution.states, &solution.moves), expected);
                assert_eq!(outcome.stats.iterations, one.stats.iterations, "{grid:?}");
                donations += outcome.stats.donations.expect("threads count donations");
            }
        }
    }
    assert!(donations > 0, "no thread donated");
}

/// IDA* under a ceiling (the cost of a solution known beforehand) stops
/// once its bound reaches it: at the optimum it ends with nothing cheaper
/// (`NoSolution`), mostly after fewer expansions than the plain search,
/// whose last iteration it skips; one above it, it finds the optimum; at
/// the start's h it ends before any iteration. Through `incumbent_beam` a
/// beam's solution (narrow beams' often longer) becomes the answer where
/// IDA* finds nothing cheaper: always A*'s cost, its path replayed, no
/// bound left. Cut one expansion short, the search keeps the beam's
/// solution with IDA*'s bound, which the optimum lies between.
#[test]
fn ida_below_an_incumbent_keeps_the_optimum_and_skips_the_last_iteration() {
    use frontier_core::domain::StdHasher;
    use frontier_core::ExecutorConfig;
    let mut rng = SplitMix64::new(77);
    let (mut cases, mut fewer, mut kept_at_limit) = (0, 0, 0);
    while cases < 20 {
        let side = 5 + rng.below(5) as usize;
        let Some((grid, expected)) = solvable_maze(&mut rng, side) else {
            continue;
        };
        cases += 1;
        let h0 = HalfManhattan.h(&grid, &grid.start());
        let plain = ida_capped(&grid, &config(2, 4), None);
        for threads in [1, 2] {
            let under = |ceiling| {
                let config = IdaConfig {
                    ceiling: Some(ceiling),
                    ..config(threads, 4)
                };
                ida_capped(&grid, &config, None)
            };
            let proof = under(expected);
            assert!(
                matches!(proof.status, Status::NoSolution),
                "{threads} threads, ceiling at the optimum {expected}: {:?}\n{grid:?}",
                proof.status
            );
            fewer += usize::from(proof.stats.expanded < plain.stats.expanded);
            let above = under(expected + 1);
            assert_eq!(
                above.solution().map(|s| s.cost),
                Some(expected),
                "{threads} threads, ceiling above the optimum\n{grid:?}"
            );
            assert!(matches!(under(h0).status, Status::NoSolution));
        }
        for width in [1, 3, 50] {
            let executor = ExecutorConfig::Ida(IdaConfig {
                incumbent_beam: width,
                ..config(2, 4)
            });
            let outcome = executor
                .run(&grid, &HalfManhattan, &StdHasher, &SearchOptions::default())
                .unwrap();
            let solution = outcome.solution().expect("a solvable maze");
            assert_eq!(solution.cost, expected, "beam {width}\n{grid:?}");
            assert_eq!(replay(&grid, &solution.states, &solution.moves), expected);
            assert_eq!(outcome.stats.lower_bound, None, "beam {width}");
            // One expansion short of the whole: IDA* is cut after the beam,
            // and the beam's solution comes back bounded by IDA*'s bound.
            let limited = SearchOptions {
                limits: Limits {
                    max_expanded: Some(outcome.stats.expanded.saturating_sub(1)),
                    ..Limits::default()
                },
                ..SearchOptions::default()
            };
            let cut = executor
                .run(&grid, &HalfManhattan, &StdHasher, &limited)
                .unwrap();
            let Some(bounded) = cut.solution() else {
                continue; // The beam itself was cut: nothing to keep.
            };
            let lower = cut.stats.lower_bound;
            assert_eq!(replay(&grid, &bounded.states, &bounded.moves), bounded.cost);
            match cut.stats.stopped_by {
                Some(limit) => {
                    assert_eq!(limit, Limit::Expansions);
                    let lower = lower.expect("a bounded solution has its bound");
                    assert!(
                        lower <= expected && expected <= bounded.cost,
                        "beam {width}: {lower} ≤ {expected} ≤ {}\n{grid:?}",
                        bounded.cost
                    );
                    assert_eq!(
                        cut.stats.improvements.last().map(|i| i.cost),
                        Some(bounded.cost)
                    );
                    kept_at_limit += 1;
                }
                None => assert_eq!((bounded.cost, lower), (expected, None)),
            }
        }
    }
    assert!(
        fewer > 20,
        "the last iteration was skipped in {fewer} of 40 searches"
    );
    assert!(
        kept_at_limit >= 10,
        "{kept_at_limit} of 60 cut after the beam"
    );
}
