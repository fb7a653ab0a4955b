//! A* against independent answers: Dijkstra on random weighted mazes, a
//! hand-built graph that needs reopening, and the limits.

use std::collections::BinaryHeap;

use frontier_core::grid::{Cell, Grid, Manhattan};
use frontier_core::rng::SplitMix64;
use frontier_core::{
    astar, Cost, Domain, Edge, Heuristic, Limit, Limits, SearchOptions, Solution, Status,
};

/// A random maze with its start and goal anywhere (seeded, so failures
/// reproduce).
fn random_maze(rng: &mut SplitMix64, rows: usize, cols: usize) -> Grid {
    let mut cell = || {
        (
            rng.below(rows as u64) as usize,
            rng.below(cols as u64) as usize,
        )
    };
    let (start, goal) = (cell(), cell());
    Grid::parse(&Grid::random_text(rng, rows, cols, 2, start, goal))
        .expect("generated mazes are well formed")
}

/// Dijkstra from `from` over the reversed edges is the same as forward on
/// this grid only for the enter-cost model when we measure distances *to*
/// `from`; here we run it forward from the start and read the goal.
fn dijkstra_costs(grid: &Grid, from: Cell, reverse: bool) -> std::collections::HashMap<Cell, Cost> {
    let mut dist = std::collections::HashMap::new();
    let mut heap = BinaryHeap::new();
    dist.insert(from, 0);
    heap.push(std::cmp::Reverse((0, from)));
    let mut edges = Vec::new();
    while let Some(std::cmp::Reverse((d, cell))) = heap.pop() {
        if dist.get(&cell).is_some_and(|&best| best < d) {
            continue;
        }
        edges.clear();
        grid.expand(&cell, &mut edges);
        for e in &edges {
            // Reversed, the edge e.state -> cell costs the entry into `cell`.
            let cost = if reverse {
                grid.enter_cost(cell).unwrap_or(1)
            } else {
                e.cost
            };
            let nd = d + cost;
            if dist.get(&e.state).is_none_or(|&best| nd < best) {
                dist.insert(e.state, nd);
                heap.push(std::cmp::Reverse((nd, e.state)));
            }
        }
    }
    dist
}

/// Replays a solution's moves and returns the cost the domain charges.
fn replay(grid: &Grid, solution: &Solution<Cell, frontier_core::grid::Step>) -> Cost {
    let mut at = grid.start();
    let mut cost = 0;
    assert_eq!(solution.states.first(), Some(&at));
    for (mv, expected) in solution.moves.iter().zip(&solution.states[1..]) {
        at = grid
            .step(at, *mv)
            .expect("every move of a solution is legal");
        assert_eq!(&at, expected);
        cost += grid.enter_cost(at).expect("free cell");
    }
    assert!(grid.is_goal(&at));
    cost
}

#[test]
fn astar_matches_dijkstra_on_random_weighted_mazes() {
    let mut rng = SplitMix64::new(7);
    let mut solved = 0;
    for _ in 0..300 {
        let (rows, cols) = (3 + rng.below(14) as usize, 3 + rng.below(14) as usize);
        let maze = random_maze(&mut rng, rows, cols);
        let expected = dijkstra_costs(&maze, maze.start(), false)
            .get(&maze.goal())
            .copied();
        let outcome = astar(&maze, &Manhattan, &SearchOptions::default()).expect("valid limits");
        match (&outcome.status, expected) {
            (Status::Solved(solution), Some(cost)) => {
                assert_eq!(solution.cost, cost);
                assert_eq!(replay(&maze, solution), cost);
                solved += 1;
            }
            (Status::NoSolution, None) => {}
            (status, expected) => panic!("A* said {status:?}, Dijkstra {expected:?}"),
        }
    }
    assert!(
        solved > 150,
        "the generator should make mostly solvable mazes"
    );
}

/// Admissible but inconsistent: a random fraction of the true cost-to-go,
/// independently per cell, so neighbouring values jump around.
struct Jittery(std::collections::HashMap<Cell, Cost>);
impl Heuristic<Grid> for Jittery {
    fn h(&self, _: &Grid, cell: &Cell) -> Cost {
        self.0.get(cell).copied().unwrap_or(0)
    }
    fn consistent(&self) -> bool {
        false
    }
}

#[test]
fn astar_stays_optimal_with_inconsistent_heuristics_on_random_mazes() {
    let mut rng = SplitMix64::new(11);
    let mut reopened = 0;
    for _ in 0..300 {
        let (rows, cols) = (4 + rng.below(12) as usize, 4 + rng.below(12) as usize);
        let maze = random_maze(&mut rng, rows, cols);
        let to_goal = dijkstra_costs(&maze, maze.goal(), true);
        let jitter = Jittery(
            to_goal
                .iter()
                .map(|(&cell, &d)| (cell, if rng.below(2) == 0 { d } else { d / 3 }))
                .collect(),
        );
        let expected = dijkstra_costs(&maze, maze.start(), false)
            .get(&maze.goal())
            .copied();
        let outcome = astar(&maze, &jitter, &SearchOptions::default()).expect("valid limits");
        assert_eq!(outcome.solution().map(|s| s.cost), expected);
        reopened += outcome.stats.reopened;
    }
    assert!(
        reopened > 0,
        "these heuristics should force reopening somewhere"
    );
}

/// A weighted graph given by adjacency lists, with a heuristic per node.
struct Graph {
    edges: Vec<Vec<(usize, Cost)>>,
    goal: usize,
}
impl Domain for Graph {
    type State = usize;
    type Move = usize;
    fn start(&self) -> usize {
        0
    }
    fn expand(&self, s: &usize, out: &mut Vec<Edge<usize, usize>>) {
        out.extend(self.edges[*s].iter().map(|&(t, cost)| Edge {
            state: t,
            mv: t,
            cost,
        }));
    }
    fn is_goal(&self, s: &usize) -> bool {
        *s == self.goal
    }
}
struct Table(Vec<Cost>);
impl Heuristic<Graph> for Table {
    fn h(&self, _: &Graph, s: &usize) -> Cost {
        self.0[*s]
    }
    fn consistent(&self) -> bool {
        false
    }
}

#[test]
fn astar_reopens_a_closed_node_when_a_cheaper_path_appears() {
    // S=0, A=1, B=2, C=3, G=4. h(A)=4 delays A, so C is first closed via B
    // at g=4; A later reaches C at g=2. Without reopening the answer is 8.
    let graph = Graph {
        edges: vec![
            vec![(1, 1), (2, 1)],
            vec![(3, 1)],
            vec![(3, 3)],
            vec![(4, 4)],
            vec![],
        ],
        goal: 4,
    };
    let outcome = astar(
        &graph,
        &Table(vec![0, 4, 0, 0, 0]),
        &SearchOptions::default(),
    )
    .expect("valid limits");
    let solution = outcome.solution().expect("G is reachable");
    assert_eq!(solution.cost, 6);
    assert_eq!(solution.moves, vec![1, 3, 4]);
    assert_eq!(outcome.stats.reopened, 1);
}

#[test]
fn ties_on_f_go_to_the_deeper_node_so_open_grids_expand_one_path() {
    let mut text = String::from("S");
    text.push_str(&".".repeat(29));
    text.push('\n');
    for _ in 0..28 {
        text.push_str(&".".repeat(30));
        text.push('\n');
    }
    text.push_str(&".".repeat(29));
    text.push('G');
    let maze = Grid::parse(&text).unwrap();
    let outcome = astar(&maze, &Manhattan, &SearchOptions::default()).expect("valid limits");
    let cost = outcome.solution().unwrap().cost;
    assert_eq!(cost, 58);
    // Every cell of the 30×30 square has f = 58; breaking ties toward small
    // g would expand most of them instead of one path.
    assert_eq!(outcome.stats.expanded, u64::from(cost));
}

fn open_field() -> Grid {
    let mut text = "S".to_string() + &".".repeat(199) + "\n";
    for _ in 0..198 {
        text += &(".".repeat(200) + "\n");
    }
    text += &(".".repeat(199) + "G");
    Grid::parse(&text).unwrap()
}

/// Blind search on an open field expands nearly every cell before the goal.
fn limited(limits: Limits) -> Status<Cell, frontier_core::grid::Step> {
    astar(
        &open_field(),
        &frontier_core::Blind,
        &SearchOptions::with_limits(limits),
    )
    .expect("valid limits")
    .status
}

#[test]
fn limits_stop_the_search_with_the_limit_that_was_hit() {
    let outcome = astar(
        &open_field(),
        &frontier_core::Blind,
        &SearchOptions::with_limits(Limits {
            max_expanded: Some(1000),
            ..Limits::default()
        }),
    )
    .expect("valid limits");
    assert_eq!(outcome.status, Status::LimitReached(Limit::Expansions));
    assert_eq!(outcome.stats.expanded, 1000);
    assert_eq!(
        limited(Limits {
            max_memory_bytes: Some(10_000),
            ..Limits::default()
        }),
        Status::LimitReached(Limit::Memory)
    );
    assert_eq!(
        limited(Limits {
            max_seconds: Some(0.0),
            ..Limits::default()
        }),
        Status::LimitReached(Limit::Time)
    );
    assert!(matches!(limited(Limits::default()), Status::Solved(s) if s.cost == 398));
}

#[test]
fn an_unreachable_goal_is_reported_after_exhausting_the_reachable_cells() {
    let maze = Grid::parse("S.#G\n..#.").unwrap();
    let outcome = astar(&maze, &Manhattan, &SearchOptions::default()).expect("valid limits");
    assert_eq!(outcome.status, Status::NoSolution);
    assert_eq!(outcome.stats.expanded, 4);
}

/// A* stopped by a limit before its goal reports the least f on its open
/// list: at most Dijkstra's optimum, at least the start's h, and never
/// falling as the work allowed grows (Manhattan is consistent here).
#[test]
fn a_cut_search_reports_a_lower_bound_at_most_the_optimum() {
    let mut rng = SplitMix64::new(43);
    let mut above_h0 = 0;
    let mut cases = 0;
    while cases < 40 {
        let grid = random_maze(&mut rng, 12, 12);
        let Some(&optimum) = dijkstra_costs(&grid, grid.start(), false).get(&grid.goal()) else {
            continue;
        };
        let full = astar(&grid, &Manhattan, &SearchOptions::default()).expect("valid limits");
        if full.stats.expanded < 16 {
            continue;
        }
        cases += 1;
        let h0 = Manhattan.h(&grid, &grid.start());
        let mut last = h0;
        for part in [8, 4, 2] {
            let limits = Limits {
                max_expanded: Some(full.stats.expanded / part),
                ..Limits::default()
            };
            let cut = astar(&grid, &Manhattan, &SearchOptions::with_limits(limits))
                .expect("valid limits");
            assert_eq!(cut.status, Status::LimitReached(Limit::Expansions));
            let lower = cut
                .stats
                .lower_bound
                .expect("a cut search states its bound");
            assert!(
                (last..=optimum).contains(&lower),
                "a {part}th of the work: bound {lower}, before {last}, optimum {optimum}\n{grid:?}"
            );
            above_h0 += usize::from(lower > h0);
            last = lower;
        }
        assert_eq!(
            full.stats.lower_bound, None,
            "a proven optimum needs no bound"
        );
    }
    assert!(above_h0 > 10, "the bounds never rose above h0: {above_h0}");
}
