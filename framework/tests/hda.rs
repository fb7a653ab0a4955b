//! HDA* returns A*'s optimal cost for every thread count, terminates on
//! unsolvable instances, and honours limits.

use std::time::{Duration, Instant};

use frontier_core::grid::{Grid, Manhattan};
use frontier_core::rng::SplitMix64;
use frontier_core::zobrist::{AbstractZobrist, Features};
use frontier_core::{
    astar, hda, Blind, Domain, DomainOutcome, HdaConfig, Heuristic, Limit, Limits, Partitioner,
    SearchOptions, Status, StdHasher,
};

/// A random maze of `side`², start top left, goal bottom right.
fn random_maze(rng: &mut SplitMix64, side: usize) -> Grid {
    let corner = side - 1;
    Grid::parse(&Grid::random_text(
        rng,
        side,
        side,
        3,
        (0, 0),
        (corner, corner),
    ))
    .unwrap()
}

fn config(threads: usize) -> HdaConfig {
    HdaConfig {
        threads,
        batch: 4,
        ..HdaConfig::default()
    }
}

#[test]
fn hda_returns_the_astar_cost_for_1_2_3_and_7_threads_on_random_mazes() {
    let mut rng = SplitMix64::new(42);
    let mut solved = 0;
    for _ in 0..60 {
        let side = 5 + rng.below(25) as usize;
        let maze = random_maze(&mut rng, side);
        let expected = astar(&maze, &Manhattan, &SearchOptions::default())
            .expect("valid limits")
            .solution()
            .map(|s| s.cost);
        for threads in [1, 2, 3, 7] {
            let started = Instant::now();
            let outcome = hda(
                &maze,
                &Manhattan,
                &StdHasher,
                &config(threads),
                &SearchOptions::default(),
            )
            .expect("a valid HDA* config");
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "termination took too long"
            );
            let got = outcome.solution().map(|s| s.cost);
            assert_eq!(got, expected, "{threads} threads, side {side}");
            if let Some(solution) = outcome.solution() {
                // The path is stitched across workers: replay it.
                let mut at = maze.start();
                let mut cost = 0;
                for &step in &solution.moves {
                    at = maze.step(at, step).expect("legal move");
                    cost += maze.enter_cost(at).unwrap();
                }
                assert_eq!((at, cost), (maze.goal(), solution.cost));
            }
        }
        solved += usize::from(expected.is_some());
    }
    assert!(
        solved > 20 && solved < 60,
        "a mix of solvable and unsolvable mazes: {solved}"
    );
}

/// Features of a maze cell: one feature (the walker) whose value is the cell.
struct Walker(Grid);
impl frontier_core::Domain for Walker {
    type State = (u16, u16);
    type Move = frontier_core::grid::Step;
    fn start(&self) -> (u16, u16) {
        self.0.start()
    }
    fn expand(&self, s: &(u16, u16), out: &mut Vec<frontier_core::Edge<(u16, u16), Self::Move>>) {
        self.0.expand(s, out)
    }
    fn is_goal(&self, s: &(u16, u16)) -> bool {
        self.0.is_goal(s)
    }
}
impl frontier_core::Heuristic<Walker> for Manhattan {
    fn h(&self, d: &Walker, s: &(u16, u16)) -> u32 {
        frontier_core::Heuristic::<Grid>::h(self, &d.0, s)
    }
    fn consistent(&self) -> bool {
        true
    }
}
impl Features for Walker {
    fn feature_space(&self) -> (usize, usize) {
        let (r, c) = self.0.size();
        (1, usize::from(r) * usize::from(c))
    }
    fn for_each_feature(&self, s: &(u16, u16), mut visit: impl FnMut(usize, usize)) {
        visit(
            0,
            usize::from(s.0) * usize::from(self.0.size().1) + usize::from(s.1),
        );
    }
}

#[test]
fn abstract_zobrist_partitioning_keeps_costs_and_cuts_communication() {
    let mut rng = SplitMix64::new(7);
    let maze = loop {
        let m = random_maze(&mut rng, 40);
        if astar(&m, &Manhattan, &SearchOptions::default())
            .expect("valid limits")
            .solution()
            .is_some()
        {
            break Walker(m);
        }
    };
    let expected = astar(&maze, &Manhattan, &SearchOptions::default())
        .expect("valid limits")
        .solution()
        .unwrap()
        .cost;
    let cells = maze.feature_space().1;
    let cols = 40;
    let plain = AbstractZobrist::plain(1, cells, 1);
    // 8×8 blocks of cells share an owner.
    let blocks = AbstractZobrist::new(1, cells, 1, |_, v| {
        Some((v / cols) / 8 * 8 + (v % cols) / 8)
    });
    let run = |p: &AbstractZobrist| {
        hda(&maze, &Manhattan, p, &config(4), &SearchOptions::default())
            .expect("a valid HDA* config")
    };
    let (a, b) = (run(&plain), run(&blocks));
    assert_eq!(a.solution().unwrap().cost, expected);
    assert_eq!(b.solution().unwrap().cost, expected);
    let (co_plain, co_blocks) = (
        a.stats.communication_overhead.unwrap(),
        b.stats.communication_overhead.unwrap(),
    );
    assert!(
        co_blocks < co_plain / 2.0,
        "blocks {co_blocks} vs plain {co_plain}"
    );
}

#[test]
fn hda_stops_at_limits_and_reports_them() {
    let mut text = "S".to_string() + &".".repeat(299) + "\n";
    for _ in 0..298 {
        text += &(".".repeat(300) + "\n");
    }
    text += &(".".repeat(299) + "G");
    let field = Grid::parse(&text).unwrap();
    let limited = |limits| {
        hda(
            &field,
            &Blind,
            &StdHasher,
            &config(3),
            &SearchOptions::with_limits(limits),
        )
        .expect("a valid HDA* config")
    };
    let outcome = limited(Limits {
        max_expanded: Some(5000),
        ..Limits::default()
    });
    assert_eq!(outcome.status, Status::LimitReached(Limit::Expansions));
    assert!(outcome.stats.expanded >= 5000);
    let outcome = limited(Limits {
        max_seconds: Some(0.0),
        ..Limits::default()
    });
    assert_eq!(outcome.status, Status::LimitReached(Limit::Time));
}

/// HDA* stopped by a limit before its goal reports the least f left
/// unexpanded (open, in flight or not yet sent): at most A*'s optimum and
/// at least the start's h, for any number of threads.
#[test]
fn a_cut_search_reports_a_lower_bound_at_most_the_optimum() {
    let mut rng = SplitMix64::new(47);
    let (mut cut, mut above_h0) = (0, 0);
    for case in 0..24 {
        let grid = random_maze(&mut rng, 60);
        let Some(full) = astar(&grid, &Manhattan, &SearchOptions::default())
            .expect("valid limits")
            .solution()
            .map(|s| s.cost)
        else {
            continue;
        };
        let h0 = Manhattan.h(&grid, &grid.start());
        // Large batches leave many states unsent when the limit strikes.
        for (threads, batch) in [(2, 4), (3, 4), (4, 4), (2, 4096), (4, 4096)] {
            let limits = Limits {
                max_expanded: Some(1024 * (1 + case % 3)),
                ..Limits::default()
            };
            let outcome = hda(
                &grid,
                &Manhattan,
                &StdHasher,
                &HdaConfig {
                    batch,
                    ..config(threads)
                },
                &SearchOptions::with_limits(limits),
            )
            .expect("a valid HDA* config");
            let Status::LimitReached(_) = outcome.status else {
                continue;
            };
            cut += 1;
            let lower = outcome
                .stats
                .lower_bound
                .expect("a cut search states its bound");
            assert!(
                (h0..=full).contains(&lower),
                "{threads} threads, batches of {batch}: bound {lower}, h0 {h0}, optimum {full}\n{grid:?}"
            );
            above_h0 += usize::from(lower > h0);
        }
    }
    assert!(
        cut >= 30 && above_h0 >= 15,
        "{cut} cut, {above_h0} above h0"
    );
}

#[test]
fn the_hash_partitioner_gives_a_state_the_same_owner_every_time() {
    use frontier_core::Partitioner;
    let maze = Grid::parse("S...\n....\n...G").unwrap();
    for r in 0..3u16 {
        for c in 0..4u16 {
            let first = StdHasher.owner(&maze, &(r, c), 16);
            assert!((0..16).all(|_| StdHasher.owner(&maze, &(r, c), 16) == first));
        }
    }
}

/// Puts every state in one of the first 64 of the executor's buckets, by
/// row. The executor starts with contiguous bucket ranges per worker, so
/// with a fixed owner map worker 0 owns everything: the worst case.
struct ByRow;

impl Partitioner<Grid> for ByRow {
    fn owner(&self, _: &Grid, cell: &frontier_core::grid::Cell, parts: u32) -> u32 {
        u32::from(cell.0) % parts.min(64)
    }
}

#[test]
fn rebalancing_spreads_a_lopsided_partition_and_keeps_the_cost() {
    let side = 200;
    let mut text = "S".to_string() + &".".repeat(side - 1) + "\n";
    for _ in 0..side - 2 {
        text += &(".".repeat(side) + "\n");
    }
    text += &(".".repeat(side - 1) + "G");
    let field = Grid::parse(&text).unwrap();
    let run = |rebalance| {
        let config = HdaConfig {
            threads: 4,
            rebalance,
            ..HdaConfig::default()
        };
        hda(&field, &Blind, &ByRow, &config, &SearchOptions::default())
            .expect("a valid HDA* config")
    };
    let busiest_share = |outcome: &DomainOutcome<Grid>| {
        let rates: &[f64] = &outcome.stats.worker_rates;
        rates.iter().cloned().fold(0.0, f64::max) / rates.iter().sum::<f64>()
    };
    let (fixed, balanced) = (run(false), run(true));
    for outcome in [&fixed, &balanced] {
        assert_eq!(
            outcome.solution().map(|s| s.cost),
            Some(2 * (side as u32 - 1))
        );
    }
    assert_eq!(fixed.stats.handoff_share, Some(0.0));
    assert!(
        busiest_share(&fixed) > 0.99,
        "{:?}",
        fixed.stats.worker_rates
    );
    assert!(balanced.stats.handoff_share.unwrap_or(0.0) > 0.0);
    assert!(
        busiest_share(&balanced) < 0.5,
        "{:?}",
        balanced.stats.worker_rates
    );
}

/// Random weighted mazes, some without a path, searched with the lopsided
/// partition so that buckets change hands many times: HDA* must return
/// A*'s cost (or none) every time, and finish.
#[test]
fn handoffs_keep_astars_cost_on_random_mazes() {
    let mut rng = SplitMix64::new(11);
    let mut handed = 0.0;
    for case in 0..12 {
        let side = 60 + rng.below(60) as usize;
        let maze = random_maze(&mut rng, side);
        let truth = astar(&maze, &Blind, &SearchOptions::default()).expect("valid limits");
        let threads = [2, 3, 7][case % 3];
        let outcome = hda(
            &maze,
            &Blind,
            &ByRow,
            &config(threads),
            &SearchOptions::default(),
        )
        .expect("a valid HDA* config");
        assert_eq!(
            outcome.solution().map(|s| s.cost),
            truth.solution().map(|s| s.cost),
            "case {case}, {threads} threads"
        );
        handed += outcome.stats.handoff_share.unwrap_or(0.0);
    }
    assert!(handed > 0.0, "no bucket changed hands");
}
