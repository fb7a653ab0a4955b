//! Beyond optimal search on random mazes, checked against A*'s optimum:
//! weighted solutions cost at most w·C*, every reported lower bound is at
//! most C*, anytime searches end at C*, and beams do not depend on the
//! thread count.

use frontier_core::grid::{Grid, Manhattan};
use frontier_core::rng::SplitMix64;
use frontier_core::search::beam::beam;
use frontier_core::search::{Order, Weight};
use frontier_core::{
    astar, hda, DomainOutcome, HdaConfig, Limit, Limits, SearchOptions, StdHasher,
};

/// A random maze of `side`², start top left, goal bottom right, with
/// walls on about a third of the cells.
fn random_maze(rng: &mut SplitMix64, side: usize) -> Grid {
    Grid::parse(&random_text(rng, side)).unwrap()
}

fn random_text(rng: &mut SplitMix64, side: usize) -> String {
    let corner = side - 1;
    Grid::random_text(rng, side, side, 3, (0, 0), (corner, corner))
}

/// The maze of `text` with every cell's cost 1.
fn unit_costs(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_ascii_digit() { '.' } else { c })
        .collect()
}

fn with(order: Order) -> SearchOptions {
    SearchOptions {
        order,
        ..SearchOptions::default()
    }
}

fn weighted(weight: &str, anytime: bool) -> Order {
    Order {
        weight: Weight::parse(weight).unwrap(),
        anytime,
        beam: None,
        shortcut: None,
        window: None,
    }
}

/// The solution's cost and lower bound, checked: the bound is at most the
/// optimum, the optimum at most the cost, and the trace's bounds too.
fn bounded(outcome: &DomainOutcome<Grid>, optimum: u32, what: &str) -> (u32, u32) {
    let cost = outcome
        .solution()
        .unwrap_or_else(|| panic!("{what}: unsolved"))
        .cost;
    let lower = outcome
        .stats
        .lower_bound
        .unwrap_or_else(|| panic!("{what}: no bound"));
    assert!(
        lower <= optimum && optimum <= cost,
        "{what}: {lower} <= {optimum} <= {cost}"
    );
    for step in &outcome.stats.improvements {
        assert!(step.lower_bound <= optimum, "{what}: {step:?}");
        assert!(step.cost >= optimum, "{what}: {step:?}");
    }
    (cost, lower)
}

fn optimum(maze: &Grid) -> Option<u32> {
    let outcome = astar(maze, &Manhattan, &SearchOptions::default()).unwrap();
    outcome.solution().map(|s| s.cost)
}

#[test]
fn weighted_solutions_cost_at_most_w_times_the_optimum_on_astar_and_hda() {
    let mut rng = SplitMix64::new(7);
    let mut solved = 0;
    for _ in 0..60 {
        let maze = random_maze(&mut rng, 24);
        let Some(best) = optimum(&maze) else { continue };
        solved += 1;
        for w in ["1.25", "1.5", "2", "3"] {
            let limit = (Weight::parse(w).unwrap().value() * f64::from(best)).floor() as u32;
            let order = weighted(w, false);
            let outcome = astar(&maze, &Manhattan, &with(order)).unwrap();
            let (cost, _) = bounded(&outcome, best, &format!("astar w={w}"));
            assert!(cost <= limit, "astar w={w}: {cost} > {w}·{best}");
            for threads in [1, 3] {
                let config = HdaConfig {
                    threads,
                    batch: 4,
                    ..HdaConfig::default()
                };
                let outcome = hda(&maze, &Manhattan, &StdHasher, &config, &with(order)).unwrap();
                let (cost, _) = bounded(&outcome, best, &format!("hda-{threads} w={w}"));
                assert!(cost <= limit, "hda-{threads} w={w}: {cost} > {w}·{best}");
                let path = outcome.solution().unwrap();
                assert_eq!(
                    frontier_core::search::replay(&maze, path.states.clone())
                        .unwrap()
                        .cost,
                    cost
                );
            }
        }
        let greedy = astar(&maze, &Manhattan, &with(weighted("greedy", false))).unwrap();
        bounded(&greedy, best, "greedy");
    }
    assert!(solved >= 20, "only {solved} mazes were solvable");
}

#[test]
fn anytime_searches_improve_down_to_the_optimum_and_prove_it() {
    let mut rng = SplitMix64::new(11);
    let mut improved_more_than_once = 0;
    for _ in 0..30 {
        let maze = random_maze(&mut rng, 30);
        let Some(best) = optimum(&maze) else { continue };
        for w in ["greedy", "3", "1.5"] {
            let order = weighted(w, true);
            let outcome = astar(&maze, &Manhattan, &with(order)).unwrap();
            let (cost, lower) = bounded(&outcome, best, &format!("anytime astar w={w}"));
            assert_eq!((cost, lower), (best, best), "anytime astar w={w}");
            let costs: Vec<u32> = outcome.stats.improvements.iter().map(|i| i.cost).collect();
            assert!(costs.windows(2).all(|p| p[1] < p[0]), "{costs:?}");
            assert_eq!(costs.last(), Some(&best));
            improved_more_than_once += usize::from(costs.len() > 1);
            let config = HdaConfig {
                threads: 3,
                batch: 4,
                ..HdaConfig::default()
            };
            let outcome = hda(&maze, &Manhattan, &StdHasher, &config, &with(order)).unwrap();
            let (cost, lower) = bounded(&outcome, best, &format!("anytime hda w={w}"));
            assert_eq!((cost, lower), (best, best), "anytime hda w={w}");
        }
    }
    // The mazes must exercise the schedule, not only find the optimum first.
    assert!(improved_more_than_once >= 5, "{improved_more_than_once}");
}

#[test]
fn an_anytime_search_stopped_by_a_limit_returns_its_best_solution_and_bound() {
    let mut rng = SplitMix64::new(3);
    let (mut checked, mut stopped) = (0, 0);
    for _ in 0..20 {
        let maze = random_maze(&mut rng, 40);
        let Some(best) = optimum(&maze) else { continue };
        let options = SearchOptions {
            limits: Limits {
                max_expanded: Some(200),
                ..Limits::default()
            },
            order: weighted("greedy", true),
            ..SearchOptions::default()
        };
        let outcome = astar(&maze, &Manhattan, &options).unwrap();
        if outcome.solution().is_some() {
            let (cost, lower) = bounded(&outcome, best, "limited anytime");
            // Kept at the limit it says so; ended on its own it proved
            // its solution.
            match outcome.stats.stopped_by {
                Some(limit) => {
                    assert_eq!(limit, Limit::Expansions);
                    stopped += 1;
                }
                None => assert_eq!(cost, lower),
            }
            checked += 1;
        }
    }
    assert!(checked >= 3 && stopped >= 1, "{checked} {stopped}");
}

#[test]
fn beams_bound_the_optimum_and_do_not_depend_on_the_thread_count() {
    let mut rng = SplitMix64::new(5);
    let mut solved = 0;
    for _ in 0..30 {
        let text = random_text(&mut rng, 40);
        let maze = Grid::parse(&text).unwrap();
        let Some(best) = optimum(&maze) else { continue };
        for width in [1, 4, 64] {
            let order = Order {
                beam: Some(width),
                ..Order::default()
            };
            let one = beam(&maze, &Manhattan, 1, &with(order)).unwrap();
            let four = beam(&maze, &Manhattan, 4, &with(order)).unwrap();
            assert_eq!(one.status, four.status, "width {width}");
            if one.solution().is_some() {
                bounded(&one, best, &format!("beam {width}"));
                solved += 1;
            }
        }
        // Wide enough to hold every layer, a beam is breadth-first search,
        // optimal where every move costs 1.
        let unit = Grid::parse(&unit_costs(&text)).unwrap();
        let order = Order {
            beam: Some(1 << 20),
            ..Order::default()
        };
        let wide = astar(&unit, &Manhattan, &with(order)).unwrap();
        assert_eq!(wide.solution().map(|s| s.cost), optimum(&unit));
    }
    assert!(solved >= 20, "{solved}");
}

#[test]
fn executors_that_only_prove_optima_refuse_other_orders() {
    let maze = Grid::parse("S..\n...\n..G").unwrap();
    let config = frontier_core::IdaConfig::default();
    let e =
        frontier_core::ida(&maze, &Manhattan, &config, &with(weighted("2", false))).unwrap_err();
    assert!(e.to_string().contains("optimum only"), "{e}");
    let zero = Order {
        beam: Some(0),
        ..Order::default()
    };
    assert!(astar(&maze, &Manhattan, &with(zero)).is_err());
}
