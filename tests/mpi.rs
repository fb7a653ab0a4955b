//! `mpi-hda` under `mpirun`: the same optimal costs as A* on random
//! 15-puzzles and mazes with 2 and 3 ranks (3 oversubscribes a 2-core
//! machine), and a failing rank ending the job instead of hanging it.
//! Built with the `mpi` feature only (`cargo test --features mpi --test
//! mpi`, which .ci/run does); needs OpenMPI's `mpirun` on the PATH.
#![cfg(feature = "mpi")]

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use frontier_core::rng::SplitMix64;
use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_frontier");

fn scratch(name: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("frontier-mpi-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `mpirun` with `args`, killing it after two minutes: a hung job
/// fails the test instead of the whole CI run.
fn mpirun(args: &[&str]) -> Output {
    let mut child = Command::new("mpirun")
        // CI runs as root, which OpenMPI refuses unless told twice.
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .env("XDG_CACHE_HOME", scratch("cache"))
        .arg("--oversubscribe")
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| {
            panic!("mpirun could not start ({e}): install OpenMPI (Debian: openmpi-bin)")
        });
    let started = Instant::now();
    loop {
        if child.try_wait().expect("mpirun can be waited on").is_some() {
            return child.wait_with_output().expect("mpirun's output");
        }
        if started.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            let out = child.wait_with_output().expect("mpirun's output");
            panic!(
                "mpirun {args:?} hung for two minutes; stderr:\n{}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn frontier(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .env("XDG_CACHE_HOME", scratch("cache"))
        .output()
        .expect("the binary runs")
}

fn write_config(name: &str, text: &str) -> String {
    let path = scratch("configs").join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

/// (instance, status, cost) of every JSON line.
fn results(out: &Output) -> Vec<(String, String, Option<u64>)> {
    assert!(
        out.status.success(),
        "failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|line| {
            let v: Value = serde_json::from_str(line).expect("a JSON line");
            (
                v["instance"].as_str().unwrap().to_string(),
                v["status"].as_str().unwrap().to_string(),
                v["cost"].as_u64(),
            )
        })
        .collect()
}

/// A 15-puzzle `moves` random moves away from the standard goal (no move
/// undoing the one before), as the tiles domain writes it.
fn scrambled_15_puzzle(rng: &mut SplitMix64, moves: usize) -> String {
    let mut cells: Vec<u8> = (1..16).chain([0]).collect();
    let mut blank = 15usize;
    let mut previous = usize::MAX;
    for _ in 0..moves {
        let (row, col) = (blank / 4, blank % 4);
        let mut options = Vec::new();
        if row > 0 {
            options.push(blank - 4);
        }
        if row < 3 {
            options.push(blank + 4);
        }
        if col > 0 {
            options.push(blank - 1);
        }
        if col < 3 {
            options.push(blank + 1);
        }
        options.retain(|&cell| cell != previous);
        let next = options[rng.below(options.len() as u64) as usize];
        cells.swap(blank, next);
        previous = blank;
        blank = next;
    }
    cells
        .iter()
        .map(u8::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

fn config(domain: &str, instances: &str, executor: &str) -> String {
    format!("Experiment(domain: {domain}, instances: {instances}, executors: [{executor}])")
}

#[test]
fn two_and_three_ranks_find_astars_costs_on_random_15_puzzles() {
    let mut rng = SplitMix64::new(0x15);
    let puzzles: Vec<String> = (0..4)
        .map(|_| format!("{:?}", scrambled_15_puzzle(&mut rng, 60)))
        .collect();
    let instances = format!("Inline([{}])", puzzles.join(", "));
    let domain = "Tiles(goal: Standard)";
    let astar = write_config("tiles-astar.ron", &config(domain, &instances, "Astar"));
    let expected = results(&frontier(&["run", "--json", &astar]));
    assert_eq!(expected.len(), 4);
    assert!(expected.iter().all(|(_, status, _)| status == "optimal"));
    for (ranks, partition) in [("2", "hash"), ("3", "split"), ("3", "hash")] {
        let executor = format!("MpiHda(partition: {partition:?}, batch: 16)");
        let mpi = write_config(
            &format!("tiles-mpi-{partition}.ron"),
            &config(domain, &instances, &executor),
        );
        let got = results(&mpirun(&["-np", ranks, BIN, "run", "--json", &mpi]));
        assert_eq!(got, expected, "{ranks} ranks, partition {partition}");
    }
}

#[test]
fn two_and_three_ranks_find_astars_costs_on_random_mazes() {
    // Some of these mazes have no path: every rank must agree on that too.
    let instances = "Random(size: 40, count: 6, seed: 3)";
    let astar = write_config("grid-astar.ron", &config("Grid()", instances, "Astar"));
    let expected = results(&frontier(&["run", "--json", &astar]));
    assert_eq!(expected.len(), 6);
    let mpi = write_config("grid-mpi.ron", &config("Grid()", instances, "MpiHda()"));
    for ranks in ["2", "3"] {
        let got = results(&mpirun(&["-np", ranks, BIN, "run", "--json", &mpi]));
        assert_eq!(got, expected, "{ranks} ranks");
    }
}

#[test]
fn only_the_first_rank_prints_and_names_the_rank_count() {
    let out = mpirun(&[
        "-np",
        "3",
        BIN,
        "solve",
        "--json",
        "--executor",
        "mpi-hda",
        "grid",
        "S..#/..#G/....",
    ]);
    let lines = results(&out);
    assert_eq!(lines, [("1".into(), "optimal".into(), Some(6))]);
    let v: Value = serde_json::from_str(String::from_utf8_lossy(&out.stdout).trim()).unwrap();
    assert_eq!(v["executor"], "mpi-hda-3-hash");
    assert_eq!(v["path"].as_array().map(Vec::len), Some(6));
}

/// A job of two programs: rank 0 solves maze `first`, rank 1 maze `second`.
fn two_mazes(first: &str, second: &str) -> Output {
    let solve = |maze| [BIN, "solve", "--executor", "mpi-hda", "grid", maze];
    let mut args = vec!["-np", "1"];
    args.extend(solve(first));
    args.extend([":", "-np", "1"]);
    args.extend(solve(second));
    mpirun(&args)
}

#[test]
fn a_rank_with_bad_input_ends_the_job_with_its_error() {
    // Rank 1 is given a maze with no start.
    let started = Instant::now();
    let out = two_mazes("S..#/..#G/....", "...#/..#G/....");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("rank 1 of 2"), "{err}");
    assert!(err.contains("start"), "{err}");
    assert!(started.elapsed() < Duration::from_secs(60));
}

#[test]
fn ranks_given_different_instances_refuse_to_search() {
    let out = two_mazes("S..#/..#G/....", "S...#/...#G/.....");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("different instances"), "{err}");
}

#[test]
fn without_mpirun_the_executor_is_a_job_of_one_rank() {
    let out = frontier(&[
        "solve",
        "--json",
        "--executor",
        "mpi-hda",
        "tiles",
        "8 6 7 2 5 4 3 0 1",
    ]);
    let lines = results(&out);
    assert_eq!(lines, [("1".into(), "optimal".into(), Some(31))]);
}

#[test]
fn resume_is_refused_under_mpirun() {
    let path = write_config(
        "resume.ron",
        &config("Grid()", "Inline([\"S.G\"])", "MpiHda()"),
    );
    let output = scratch("out").join("rows.csv").display().to_string();
    let out = mpirun(&[
        "-np", "2", BIN, "run", &path, "--output", &output, "--resume",
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--resume is not supported under mpirun"));
}

#[test]
fn a_limit_ends_every_rank_with_the_same_status() {
    // Korf-Felner-hard for Manhattan: far more than 100,000 expansions.
    let out = mpirun(&[
        "-np",
        "3",
        BIN,
        "solve",
        "--json",
        "--executor",
        "mpi-hda",
        "--partition",
        "split",
        "--max-expanded",
        "100000",
        "tiles",
        "4 3 10 1 12 7 11 0 9 14 6 5 2 8 15 13",
    ]);
    assert_eq!(
        results(&out),
        [("1".into(), "expansion limit".into(), None)]
    );
    let v: Value = serde_json::from_str(String::from_utf8_lossy(&out.stdout).trim()).unwrap();
    let expanded = v["stats"]["expanded"].as_u64().unwrap();
    assert!(
        (100_000..2_000_000).contains(&expanded),
        "stopped after {expanded} expansions"
    );
}

#[test]
fn mpi_gpu_without_a_gpu_ends_every_rank_with_one_error() {
    if frontier_core::gpu::device_count().is_ok_and(|n| n > 0) {
        eprintln!("SKIPPED mpi_gpu_without_a_gpu…: this machine has a GPU");
        return;
    }
    let out = mpirun(&[
        "-np",
        "2",
        BIN,
        "solve",
        "--executor",
        "mpi-gpu",
        "tiles",
        "1 2 3 4 5 6 0 7 8",
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no GPU"), "{err}");
}

#[test]
fn nonogram_search_runs_on_ranks_with_checked_solutions() {
    for id in ["dom-06", "icga2016-0204"] {
        let Some(path) = frontier_core::data::for_test(&format!("nonogram/{id}.nin")) else {
            continue;
        };
        let path = path.display().to_string();
        let out = mpirun(&[
            "-np", "2", BIN, "--json", "nonogram", "solve", "--method", "mpi-hda", &path,
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8_lossy(&out.stdout);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 1, "only rank 0 prints: {text}");
        let v: Value = serde_json::from_str(lines[0]).unwrap();
        assert_eq!(v["checked"], true, "{id}");
        assert_eq!(v["solutions"].as_array().map(Vec::len), Some(1), "{id}");
    }
}

#[test]
fn a_boggle_proof_shared_over_ranks_equals_the_whole() {
    let args = [
        "--json", "boggle", "prove", "--shape", "2x3", "--target", "110",
    ];
    let whole = frontier(&args);
    assert!(
        whole.status.success(),
        "{}",
        String::from_utf8_lossy(&whole.stderr)
    );
    let mut command = vec!["-np", "3", BIN];
    command.extend(args);
    let shared = mpirun(&command);
    assert!(
        shared.status.success(),
        "{}",
        String::from_utf8_lossy(&shared.stderr)
    );
    let parse = |out: &Output| -> Value {
        serde_json::from_str(String::from_utf8_lossy(&out.stdout).trim()).expect("one JSON object")
    };
    let (whole, shared) = (parse(&whole), parse(&shared));
    for key in [
        "boards",
        "classes",
        "classes_total",
        "subclasses",
        "boards_scored",
        "complete",
    ] {
        assert_eq!(whole[key], shared[key], "{key}");
    }
    assert!(whole["boards"].as_array().is_some_and(|b| !b.is_empty()));
    let certificate = scratch("cert").join("c.txt").display().to_string();
    command.extend(["--certificate", &certificate]);
    let refused = mpirun(&command);
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("single process"));
}

#[test]
fn a_rank_that_dies_mid_search_ends_the_job() {
    // Rank 1 is killed two seconds into a search far longer than that (a
    // crash, an out-of-memory kill): mpirun must end rank 0 too.
    let hard = "4 3 10 1 12 7 11 0 9 14 6 5 2 8 15 13";
    let solve = [
        BIN,
        "solve",
        "--executor",
        "mpi-hda",
        "tiles",
        hard,
        "--max-seconds",
        "100",
    ];
    let mut args = vec!["-np", "1"];
    args.extend(solve);
    args.extend([":", "-np", "1", "timeout", "-s", "KILL", "2"]);
    args.extend(solve);
    let started = Instant::now();
    let out = mpirun(&args);
    assert!(!out.status.success());
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "the job outlived its dead rank"
    );
}

/// The JSON rows of a run that succeeded.
fn json_rows(out: &Output) -> Vec<Value> {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Weighted, greedy and anytime orders on 2 and 3 ranks: every solution
/// within w of A*'s optimum (any cost for greedy), its path as long as its
/// cost, the reported lower bound at most the optimum; anytime ends at
/// the optimum, or at a limit with its best solution.
#[test]
fn weighted_orders_on_ranks_stay_within_their_bound() {
    let mut rng = SplitMix64::new(0x3e);
    let puzzles: Vec<String> = (0..4)
        .map(|_| format!("{:?}", scrambled_15_puzzle(&mut rng, 70)))
        .collect();
    let instances = format!("Inline([{}])", puzzles.join(", "));
    let domain = "Tiles(goal: Standard, heuristic: \"manhattan\")";
    let astar = write_config("order-astar.ron", &config(domain, &instances, "Astar"));
    let optima: Vec<u64> = results(&frontier(&["run", "--json", &astar]))
        .into_iter()
        .map(|(_, _, cost)| cost.expect("solved"))
        .collect();
    let mut above = 0;
    for (weight, w) in [("1.5", 1.5), ("3", 3.0), ("\"greedy\"", f64::INFINITY)] {
        let text = format!(
            "Experiment(domain: {domain}, instances: {instances}, executors: [MpiHda(batch: 16)], weight: {weight})"
        );
        let path = write_config("order-mpi.ron", &text);
        for ranks in ["2", "3"] {
            let rows = json_rows(&mpirun(&["-np", ranks, BIN, "run", "--json", &path]));
            assert_eq!(rows.len(), optima.len(), "w {weight}, {ranks} ranks");
            for (row, &optimum) in rows.iter().zip(&optima) {
                let what = format!("w {weight}, {ranks} ranks: {row}");
                let cost = row["cost"].as_u64().expect("solved");
                let lower = row["lower_bound"].as_u64().expect("a bound");
                assert!(
                    cost >= optimum && cost as f64 <= w * optimum as f64,
                    "{what}"
                );
                assert!(lower <= optimum, "{what}");
                assert_eq!(row["path"].as_array().map(Vec::len), Some(cost as usize));
                let status = if lower == cost { "optimal" } else { "bounded" };
                assert_eq!(row["status"], status, "{what}");
                above += usize::from(cost > optimum);
            }
        }
    }
    assert!(above > 0, "every weighted row was optimal: nothing tested");
    // Anytime from greedy: run to the end it proves every optimum, its
    // trace falling; stopped by a limit it keeps its best solution.
    for (limit, ranks) in [("", "2"), (", limits: (max_expanded: Some(20000))", "3")] {
        let text = format!(
            "Experiment(domain: {domain}, instances: {instances}, executors: [MpiHda()], weight: \"greedy\", anytime: true{limit})"
        );
        let path = write_config("order-anytime.ron", &text);
        let rows = json_rows(&mpirun(&["-np", ranks, BIN, "run", "--json", &path]));
        assert_eq!(rows.len(), optima.len());
        for (row, &optimum) in rows.iter().zip(&optima) {
            let what = format!("anytime{limit}: {row}");
            let Some(cost) = row["cost"].as_u64() else {
                assert!(!limit.is_empty(), "{what}");
                continue;
            };
            let lower = row["lower_bound"].as_u64().expect("a bound");
            assert!(lower <= optimum && optimum <= cost, "{what}");
            let trace = row["stats"]["improvements"].as_array().expect("a trace");
            let costs: Vec<u64> = trace.iter().map(|i| i["cost"].as_u64().unwrap()).collect();
            assert!(costs.windows(2).all(|w| w[1] < w[0]), "{what}");
            assert_eq!(costs.last(), Some(&cost), "{what}");
            if limit.is_empty() {
                assert_eq!((cost, lower), (optimum, optimum), "{what}");
                assert_eq!(row["status"], "optimal", "{what}");
            } else if lower < cost {
                // Kept at the limit: `--retry-cut` runs such a row again.
                assert_eq!(row["status"], "bounded (expansion limit)", "{what}");
                assert_eq!(row["stats"]["stopped_by"], "expansions", "{what}");
            }
        }
    }
}

/// A* on 2 and 3 ranks stopped by a limit before its goal reports the
/// least f left unexpanded, counting the states still in outboxes and on
/// their way (small batches leave many there): never above A*'s optimum.
/// Each search is cut at A*'s own count of expansions: ranks expand more
/// than one A* does, so most are cut inside their last f layer, where the
/// bound is the optimum itself, and a bound that claims a little too much
/// fails there.
#[test]
fn a_cut_search_on_ranks_reports_a_lower_bound_at_most_the_optimum() {
    let mut rng = SplitMix64::new(0x4c);
    let puzzles: Vec<String> = (0..4).map(|_| scrambled_15_puzzle(&mut rng, 80)).collect();
    let instances = format!(
        "Inline([{}])",
        puzzles
            .iter()
            .map(|p| format!("{p:?}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let domain = "Tiles(goal: Standard, heuristic: \"manhattan\")";
    let astar = write_config("cut-astar.ron", &config(domain, &instances, "Astar"));
    let astar = json_rows(&frontier(&["run", "--json", &astar]));
    let (mut cut, mut at_the_optimum) = (0, 0);
    for (puzzle, row) in puzzles.iter().zip(&astar) {
        let optimum = row["cost"].as_u64().expect("solved");
        let limit = row["stats"]["expanded"].as_u64().expect("counted");
        let text = format!(
            "Experiment(domain: {domain}, instances: Inline([{puzzle:?}]), executors: [MpiHda(batch: 4)], limits: (max_expanded: Some({limit})))"
        );
        let path = write_config("cut-mpi.ron", &text);
        for ranks in ["2", "3"] {
            let rows = json_rows(&mpirun(&["-np", ranks, BIN, "run", "--json", &path]));
            let what = format!("{ranks} ranks, {puzzle}: {rows:?}");
            let [row] = &rows[..] else {
                panic!("{what}: not one row")
            };
            if row["status"] == "optimal" {
                assert_eq!(row["cost"].as_u64(), Some(optimum), "{what}");
                continue;
            }
            assert_eq!(row["status"], "expansion limit", "{what}");
            let lower = row["lower_bound"].as_u64().expect("a cut row's bound");
            assert!(
                lower <= optimum,
                "{what}: bound above the optimum {optimum}"
            );
            assert!(
                lower >= manhattan(puzzle),
                "{what}: bound below the start's h"
            );
            at_the_optimum += usize::from(lower == optimum);
            cut += 1;
        }
    }
    assert!(cut > 0, "no search was cut: nothing tested");
    assert!(at_the_optimum > 0, "no cut search proved its last layer");
}

/// The Manhattan distance of a 15-puzzle (as `scrambled_15_puzzle` writes
/// it) to the standard goal: the start's own h.
fn manhattan(puzzle: &str) -> u64 {
    puzzle
        .split(' ')
        .enumerate()
        .map(|(cell, tile)| {
            let tile: usize = tile.parse().expect("a tile");
            if tile == 0 {
                return 0;
            }
            let goal = tile - 1;
            ((cell / 4).abs_diff(goal / 4) + (cell % 4).abs_diff(goal % 4)) as u64
        })
        .sum()
}
