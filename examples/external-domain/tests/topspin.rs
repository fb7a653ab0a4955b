//! TopSpin from outside frontier: every executor's cost equals breadth-first
//! search's, the fuzz properties hold, and the command line (one line of
//! registration) solves, runs an experiment with a grid into CSV, and plots.

use std::collections::{HashMap, VecDeque};
use std::process::Command;

use frontier_core::rng::SplitMix64;
use frontier_core::{Domain, ExecutorConfig, HdaConfig, IdaConfig, SearchOptions, StdHasher};
use topspin::{Breakpoints, TopSpin};

/// Breadth-first distance from the start to the goal: shares nothing with
/// the heuristic searches.
fn bfs(puzzle: &TopSpin) -> Option<u32> {
    let mut seen = HashMap::from([(puzzle.start(), 0u32)]);
    let mut queue = VecDeque::from([puzzle.start()]);
    let mut edges = Vec::new();
    while let Some(state) = queue.pop_front() {
        let depth = seen[&state];
        if puzzle.is_goal(&state) {
            return Some(depth);
        }
        edges.clear();
        puzzle.expand(&state, &mut edges);
        for edge in edges.drain(..) {
            if !seen.contains_key(&edge.state) {
                seen.insert(edge.state.clone(), depth + 1);
                queue.push_back(edge.state);
            }
        }
    }
    None
}

#[test]
fn astar_hda_and_ida_costs_equal_breadth_first_search() {
    let mut rng = SplitMix64::new(5);
    let executors = [
        ExecutorConfig::Astar,
        ExecutorConfig::Hda(HdaConfig {
            threads: 2,
            ..HdaConfig::default()
        }),
        ExecutorConfig::Ida(IdaConfig {
            threads: 2,
            ..IdaConfig::default()
        }),
    ];
    let mut checked = 0;
    for n in 5..=8 {
        for k in 2..=n.min(5) {
            for _ in 0..3 {
                let puzzle = TopSpin::scrambled(n, k, 2 * n, &mut rng).unwrap();
                let optimum =
                    bfs(&puzzle).unwrap_or_else(|| panic!("a scramble is solvable: {puzzle:?}"));
                for executor in &executors {
                    let outcome = executor
                        .run(&puzzle, &Breakpoints, &StdHasher, &SearchOptions::default())
                        .unwrap();
                    let solution = outcome.solution().expect("solved");
                    assert_eq!(solution.cost, optimum, "{} on {puzzle:?}", executor.name());
                    assert!(puzzle.is_goal(&puzzle.replay(&solution.moves)));
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 100, "{checked}");
}

#[test]
fn the_fuzz_properties_hold() {
    for target in topspin::fuzz::TARGETS {
        let budget = std::time::Duration::from_secs(1);
        match frontier_core::fuzz::exercise(target, budget, 500) {
            Ok(inputs) => eprintln!("{}: {inputs} inputs", target.name),
            Err(finding) => panic!("{finding}"),
        }
    }
}

fn frontier_topspin(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_frontier-topspin"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs")
}

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn the_registered_domain_solves_runs_experiments_and_plots() {
    let solved = frontier_topspin(&["--json", "solve", "topspin", "3 2 1 0 4 5 6 7", "--k", "4"]);
    assert!(solved.status.success(), "{solved:?}");
    assert!(
        stdout(&solved).contains("\"cost\":1"),
        "{}",
        stdout(&solved)
    );

    // The bundled domains are still there beside it.
    let tiles = frontier_topspin(&["--quiet", "solve", "tiles", "1 2 3 4 5 6 0 7 8"]);
    assert!(tiles.status.success(), "{tiles:?}");

    // TopSpin has no estimate between two states: windows are refused.
    let windows = frontier_topspin(&["solve", "topspin", "3 2 1 0 4 5 6 7", "--window", "8"]);
    assert!(!windows.status.success());
    assert!(
        String::from_utf8_lossy(&windows.stderr).contains("no estimate of the cost between"),
        "{windows:?}"
    );

    let bad = frontier_topspin(&["solve", "topspin", "3 0 1 1"]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("not a permutation"));

    let dir = std::env::temp_dir().join(format!("topspin-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("topspin.csv");
    let run = frontier_topspin(&[
        "--quiet",
        "run",
        "configs/topspin.ron",
        "--output",
        csv.to_str().unwrap(),
    ]);
    assert!(run.status.success(), "{run:?}");
    let text = std::fs::read_to_string(&csv).unwrap();
    // 4 instances × 2 values of k × (A*, HDA* and IDA* at 1 and 2 threads).
    let rows: Vec<&str> = text.lines().skip(2).collect();
    assert_eq!(rows.len(), 4 * 2 * 5, "{text}");
    assert!(rows.iter().all(|r| r.contains(",optimal,")), "{text}");
    assert!(text.contains("k=3") && text.contains("k=4 threads=2"));

    let typo = dir.join("typo.ron");
    std::fs::write(
        &typo,
        "Experiment(\n  domain: TopSpin(kk: 3),\n  instances: Inline([\"1 0 2\"]),\n)\n",
    )
    .unwrap();
    let refused = frontier_topspin(&["run", typo.to_str().unwrap()]);
    let error = String::from_utf8_lossy(&refused.stderr);
    assert!(
        error.contains("typo.ron:2:") && error.contains("kk"),
        "{error}"
    );

    let plotted = frontier_topspin(&["plot", csv.to_str().unwrap()]);
    assert!(plotted.status.success(), "{plotted:?}");
    assert!(dir.join("topspin-cactus.png").exists());
    std::fs::remove_dir_all(&dir).ok();
}
