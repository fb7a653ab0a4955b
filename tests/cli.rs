//! End-to-end runs of the `frontier` binary: configs, one-line errors, JSON.

use std::path::PathBuf;
use std::process::{Command, Output};

/// The path of reference data `name` (the repository's data/ first), or
/// a return from the test after `SKIPPED (needs …)` on a user's machine;
/// under CI a missing file fails the test (`frontier_core::data::for_test`).
macro_rules! need {
    ($name:expr) => {
        match frontier_core::data::for_test($name) {
            Some(path) => path.to_string_lossy().into_owned(),
            None => return,
        }
    };
}

fn frontier(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_frontier"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("XDG_CACHE_HOME", scratch("cache"))
        .output()
        .expect("the binary runs")
}

/// A new, empty directory for one call: named by the process and a count,
/// so that tests never share one, and emptied first, because a directory
/// left by an earlier run whose process id came back would hold its files.
fn scratch(name: &str) -> PathBuf {
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("frontier-cli-{name}-{}-{call}", std::process::id()));
    // Absent on a first run: nothing to remove is not an error.
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn write_config(name: &str, text: &str) -> PathBuf {
    let path = scratch("configs").join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn json_prints_one_object_per_instance_with_the_documented_fields() {
    let out = frontier(&[
        "solve",
        "--json",
        "tiles",
        "8 6 7 2 5 4 3 0 1",
        "--goal",
        "standard",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 1);
    let v: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
    assert_eq!(v["domain"], "tiles");
    assert_eq!(v["executor"], "astar");
    assert_eq!(v["solved"], true);
    assert_eq!(v["cost"], 31);
    assert_eq!(v["path"].as_array().unwrap().len(), 31);
    assert!(v["instance"].is_string());
    for field in ["expanded", "generated", "seconds"] {
        assert!(v["stats"][field].is_number(), "stats.{field}");
    }
}

#[test]
fn the_demo_config_solves_every_instance_optimally() {
    let out = frontier(&["run", "--json", "configs/demo.ron"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let rows: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let ids: Vec<&str> = rows
        .iter()
        .map(|r| r["instance"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["1", "6", "16", "55"]);
    // Each against Korf's published optimum, read from the instance file.
    for row in &rows {
        assert_eq!(row["status"], "optimal", "{row}");
        assert!(row["known_cost"].is_u64(), "{row}");
        assert_eq!(row["cost"], row["known_cost"], "{row}");
    }
}

#[test]
fn a_config_typo_names_file_line_column_and_field() {
    let path = write_config(
        "typo.ron",
        "Experiment(\n    domain: Tiles(goal: Korf, heuristc: \"7-8\"),\n    instances: Inline([\"1 2 3 4 5 6 7 8 0\"]),\n)\n",
    );
    let out = frontier(&["run", path.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("typo.ron:2:31"), "{err}");
    assert!(err.contains("heuristc"), "{err}");
    assert!(!err.contains("panicked"));
}

#[test]
fn config_values_of_the_wrong_type_are_reported_in_place() {
    let path = write_config(
        "type.ron",
        "Experiment(\n    domain: Grid(),\n    instances: Inline([\"S.G\"]),\n    limits: (max_seconds: \"ten\"),\n)\n",
    );
    let err = stderr(&frontier(&["run", path.to_str().unwrap()]));
    assert!(
        err.starts_with(&format!("error: {}:4:", path.display())),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1);
}

#[test]
fn bad_instances_give_one_line_errors_and_a_failing_exit() {
    // The 8-puzzle board two moves from the goal, with these flags.
    let eight =
        |flags: &[&'static str]| [&["solve", "tiles", "1 2 3 4 5 6 0 7 8"][..], flags].concat();
    for (args, needle) in [
        (
            vec!["solve", "tiles", "1 2 3 4 5 6 7 8 8"],
            "tile 8 appears twice",
        ),
        (vec!["solve", "tiles", "2 1 3 4 5 6 7 8 0"], "unsolvable"),
        (
            vec![
                "solve",
                "tiles",
                "1 2 3 4 5 6 7 8 0",
                "--heuristic",
                "5-5-5",
            ],
            "preset 5-5-5 is for 4x4 boards",
        ),
        (
            vec![
                "solve",
                "tiles",
                "1 2 3 4 5 6 7 8 0",
                "--heuristic",
                "1,2/2,3",
            ],
            "bad partition '1,2/2,3': tile 2 is in two lists",
        ),
        (
            vec![
                "solve",
                "tiles",
                "1 2 3 4 5 6 7 8 0",
                "--heuristic",
                "4-4|1,2/2,3",
            ],
            "bad partition '1,2/2,3': tile 2 is in two lists",
        ),
        (
            vec![
                "solve",
                "tiles",
                "1 2 3 4 5 6 7 8 0",
                "--heuristic",
                "1,2/3,9",
            ],
            "tile 9 is not on a 3x3 board (tiles 1 to 8)",
        ),
        (vec!["solve", "grid", "S..x/..G"], "column 4"),
        (vec!["run", "no/such/config.ron"], "no/such/config.ron"),
        // A rank only orders a beam's layers: without a beam it would do
        // nothing, so it is refused.
        (
            vec!["solve", "tiles", "1 2 3 4 5 6 0 7 8", "--rank-conflicts"],
            "--rank-conflicts ranks a beam's layers: give --beam W or --incumbent-beam W too",
        ),
        (
            eight(&["--heuristic", "4-4", "--rank-weights", "1,1,1,1"]),
            "--rank-weights ranks a beam's layers: give --beam W or --incumbent-beam W too",
        ),
        (
            eight(&[
                "--heuristic",
                "4-4",
                "--reflect",
                "--beam",
                "9",
                "--rank-weights",
                "1,1,1,1",
            ]),
            "4 weights for 2 databases with the reflection: give 7",
        ),
        (
            eight(&["--beam", "9", "--rank-weights", "1,1"]),
            "--rank-weights weigh pattern databases, not manhattan",
        ),
        (
            eight(&[
                "--heuristic",
                "4-4|1,2,3/4,5,6/7,8",
                "--beam",
                "9",
                "--rank-weights",
                "1,1,1,1",
            ]),
            "fitted for one partition",
        ),
    ] {
        let out = frontier(&args);
        assert!(!out.status.success(), "{args:?}");
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

/// The tiles flags for Korf's goal, 5-5-5 and the reflection, databases in `pdb`.
fn korf_555(pdb: &str) -> [&str; 7] {
    [
        "--goal",
        "korf",
        "--heuristic",
        "5-5-5",
        "--reflect",
        "--pdb-dir",
        pdb,
    ]
}

/// `solve`'s arguments for `beam_555`'s beam, without `--json`.
fn beam_555_args<'a>(pdb: &'a str, width: &'a str, board: &'a str) -> Vec<&'a str> {
    let mut args = vec!["--executor", "astar", "--beam", width, "tiles", board];
    args.extend(korf_555(pdb));
    args
}

/// The JSON row of a CPU beam of `width` on Korf-goal 15-puzzle `board`
/// with 5-5-5 and the reflection (databases in `pdb`), `rank` its flags.
fn beam_555(pdb: &str, width: &str, board: &str, rank: &[&str]) -> serde_json::Value {
    let base = [&["solve", "--json"][..], &beam_555_args(pdb, width, board)].concat();
    let out = frontier(&[&base[..], rank].concat());
    assert!(out.status.success(), "{rank:?}: {}", stderr(&out));
    serde_json::from_str(stdout(&out).trim()).expect("one JSON row")
}

/// A learned rank whose weights read h plus the conflicts orders a beam's
/// layers as `--rank-conflicts` does: the same path, expansion for
/// expansion, on the CPU (the GPU's ranks are the CPU's:
/// `gpu_ranks_equal_cpu_ranks`); and fitted-looking weights keep the bound
/// sound.
#[test]
fn rank_weights_reading_h_plus_conflicts_rank_as_rank_conflicts() {
    let dir = scratch("rank-weights");
    let pdb = dir.to_str().unwrap();
    let solve = |rank: &[&str]| beam_555(pdb, "50", "14 7 8 2 13 11 10 4 9 12 5 0 3 6 1 15", rank);
    let conflicts = solve(&["--rank-conflicts"]);
    // Databases 0, reflected 0, the larger sum 1, the smaller 0, conflicts 1.
    let linear = solve(&["--rank-weights", "0,0,0,0,0,0,1,0,1"]);
    assert_eq!(conflicts["cost"], linear["cost"]);
    assert_eq!(conflicts["path"], linear["path"]);
    for key in ["generated", "lower_bound"] {
        assert_eq!(conflicts["stats"][key], linear["stats"][key], "{key}");
    }
    let plain = solve(&[]);
    assert_ne!(
        plain["path"], conflicts["path"],
        "the rank changes the beam"
    );
    let fitted = solve(&["--rank-weights", "0.2,-0.1,0.15,0.1,0,0.1,0.9,0.3,1.5"]);
    // Korf's board #3 has optimum 59.
    assert!(fitted["cost"].as_u64().unwrap() >= 59);
    assert!(fitted["stats"]["lower_bound"].as_u64().unwrap() <= 59);
}

/// The JSON lines of beams of 60 (`beam_555`) on `boards`, and their
/// paths' moves in all.
fn solved_lines(pdb: &str, boards: &[&str]) -> (String, usize) {
    let mut lines = String::new();
    let mut moves = 0;
    for board in boards {
        let v = beam_555(pdb, "60", board, &[]);
        moves += v["path"].as_array().unwrap().len();
        lines += &format!("{v}\n");
    }
    (lines, moves)
}

/// A network file (`frontier_tiles::network_rank`) for 16 cells, 9
/// features (5-5-5 with the reflection) and `hidden` units: the table and
/// the hidden layer from `hidden_weight(i)`, then the output weights, the
/// linear weights `linear` and the constant 0.
fn network_555(hidden: usize, hidden_weight: impl Fn(usize) -> f64, linear: &[f64; 9]) -> String {
    let inner = 16 * 16 * hidden + 9 * hidden + hidden;
    let mut weights: Vec<String> = (0..inner).map(|i| hidden_weight(i).to_string()).collect();
    weights.extend((0..hidden).map(|j| hidden_weight(j * 31 + 7).to_string()));
    weights.extend(linear.iter().map(f64::to_string));
    weights.push("0".into());
    format!("# a test network\n{hidden} 9\n{}\n", weights.join(" "))
}

/// A network rank whose only weights read h plus the conflicts orders a
/// beam's layers as `--rank-conflicts` does (the same path, expansion for
/// expansion); one with a hidden layer keeps the bound sound; files and
/// flags that cannot rank are refused with their reason.
#[test]
fn rank_network_ranks_a_beam_and_refuses_what_cannot_rank() {
    let dir = scratch("rank-network");
    let pdb = dir.to_str().unwrap();
    let board = "14 7 8 2 13 11 10 4 9 12 5 0 3 6 1 15";
    let solve = |rank: &[&str]| beam_555(pdb, "50", board, rank);
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_string()
    };
    // Databases 0, reflected 0, the larger sum 1, the smaller 0, conflicts 1.
    let h_and_conflicts = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0];
    let linear_only = write("linear.nn", &network_555(4, |_| 0.0, &h_and_conflicts));
    let conflicts = solve(&["--rank-conflicts"]);
    let network = solve(&["--rank-network", &linear_only]);
    assert_eq!(conflicts["path"], network["path"]);
    for key in ["generated", "lower_bound"] {
        assert_eq!(conflicts["stats"][key], network["stats"][key], "{key}");
    }
    let varied = |i: usize| ((i * 7919 % 2003) as f64 - 1001.0) / 5000.0;
    let hidden = write("hidden.nn", &network_555(16, varied, &h_and_conflicts));
    let ranked = solve(&["--rank-network", &hidden]);
    assert_ne!(ranked["path"], conflicts["path"], "the hidden layer ranks");
    // Korf's board #3 has optimum 59.
    assert!(ranked["cost"].as_u64().unwrap() >= 59);
    assert!(ranked["stats"]["lower_bound"].as_u64().unwrap() <= 59);

    let nine_cells = write("nine.nn", &{
        let n = 81 * 2 + 9 * 2 + 2 * 2 + 9 + 1;
        format!("2 9\n{}", vec!["0.1"; n].join(" "))
    });
    let missing = dir.join("missing.nn");
    let missing = missing.to_str().unwrap();
    let board_args = |flags: &[&str]| -> Vec<String> {
        let mut args = vec!["solve".to_string()];
        args.extend(
            beam_555_args(pdb, "50", board)
                .iter()
                .map(|s| s.to_string()),
        );
        args.extend(flags.iter().map(|s| s.to_string()));
        args
    };
    let mut no_beam = board_args(&["--rank-network", &hidden]);
    no_beam.drain(3..5);
    let mut manhattan = board_args(&["--rank-network", &hidden]);
    manhattan[10] = "manhattan".into();
    manhattan.remove(11);
    for (args, needle) in [
        (
            board_args(&["--rank-network", &nine_cells]),
            "rank network: made for a board of 9 cells, this board has 16".to_string(),
        ),
        (
            board_args(&["--rank-network", missing]),
            format!("{missing}: "),
        ),
        (
            board_args(&[
                "--rank-network",
                &hidden,
                "--rank-weights",
                "1,1,1,1,1,1,1,1,1",
            ]),
            "--rank-weights or --rank-network, not both".to_string(),
        ),
        (
            board_args(&["--rank-network", &hidden, "--rank-conflicts"]),
            "--rank-conflicts is a rank of its own, and --rank-network weighs the conflicts"
                .to_string(),
        ),
        (no_beam, "--rank-network ranks a beam's layers".to_string()),
        (
            manhattan,
            "--rank-network weighs pattern databases, not manhattan".to_string(),
        ),
    ] {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = frontier(&args);
        assert!(!out.status.success(), "{args:?}");
        let err = stderr(&out);
        assert!(err.contains(&needle), "{args:?}: {err}");
    }
}

/// `tiles fit-rank --network-data` writes each fitted path's states and
/// their siblings, with cells and features, as the trainer reads them.
#[test]
fn fit_rank_writes_network_data() {
    let dir = scratch("network-data");
    let pdb = dir.to_str().unwrap();
    let boards = [
        "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3",
        "13 5 4 10 9 12 8 14 2 3 7 1 0 15 11 6",
    ];
    let (lines, moves) = solved_lines(pdb, &boards);
    let states = moves + boards.len();
    let paths = dir.join("paths.jsonl");
    std::fs::write(&paths, &lines).unwrap();
    // `fit-rank --from-paths` on those paths, writing its rows to `data`.
    let write_rows = |data: &std::path::Path, more: &[&str]| {
        let mut args = vec!["tiles", "fit-rank", paths.to_str().unwrap(), "--from-paths"];
        args.extend(korf_555(pdb));
        args.extend(["--network-data", data.to_str().unwrap()]);
        args.extend_from_slice(more);
        frontier(&args)
    };
    let data = dir.join("data.csv");
    let out = write_rows(&data, &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("wrote 2 paths' states and siblings"),
        "{}",
        stderr(&out)
    );
    let text = std::fs::read_to_string(&data).unwrap();
    let mut rows = text.lines();
    let header: Vec<&str> = rows.next().unwrap().split(',').collect();
    assert_eq!(header.len(), 4 + 16 + 9, "{header:?}");
    assert_eq!(&header[..5], ["kind", "path", "depth", "remaining", "c0"]);
    let rows: Vec<Vec<&str>> = rows.map(|r| r.split(',').collect()).collect();
    assert!(rows.iter().all(|r| r.len() == header.len()));
    let path_rows: Vec<_> = rows.iter().filter(|r| r[0] == "path").collect();
    assert_eq!(path_rows.len(), states);
    // The goal ends each path with 0 moves left; its features are h = 0.
    let goal = path_rows.iter().find(|r| r[3] == "0").unwrap();
    assert_eq!(
        goal[4..20].join(" "),
        "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15"
    );
    assert_eq!(goal[20 + 6], "0");
    // Each sibling stands beside a path state of its path and depth: at
    // most three beside a start's child, two elsewhere (no move back).
    let siblings: Vec<_> = rows.iter().filter(|r| r[0] == "sibling").collect();
    assert!(!siblings.is_empty() && siblings.len() <= 3 * (states - 2));
    for sibling in &siblings {
        assert!(path_rows
            .iter()
            .any(|r| r[1] == sibling[1] && r[2] == sibling[2]));
    }

    // With cousins: the same rows, and beside each path state past the
    // second its parent's siblings' children, each a board other than the
    // path state's, said to be at most 4 moves longer.
    let with_cousins = dir.join("cousins.csv");
    let out = write_rows(&with_cousins, &["--network-cousins"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let cousin_text = std::fs::read_to_string(&with_cousins).unwrap();
    let (cousins, others): (Vec<&str>, Vec<&str>) =
        cousin_text.lines().partition(|r| r.starts_with("cousin,"));
    assert_eq!(others, text.lines().collect::<Vec<_>>());
    // A path state has at most two uncles (three beside a start's
    // grandchild), each with at most three children.
    assert!(!cousins.is_empty() && cousins.len() <= 9 * (states - 3));
    for cousin in cousins {
        let cousin: Vec<&str> = cousin.split(',').collect();
        let beside = path_rows
            .iter()
            .find(|r| r[1] == cousin[1] && r[2] == cousin[2])
            .unwrap_or_else(|| panic!("a cousin beside no path state: {cousin:?}"));
        assert!(cousin[2].parse::<usize>().unwrap() >= 2, "{cousin:?}");
        let remaining: usize = beside[3].parse().unwrap();
        assert_eq!(cousin[3], (remaining + 4).to_string());
        assert_ne!(cousin[4..20], beside[4..20]);
    }
    let without_data = [
        "tiles",
        "fit-rank",
        paths.to_str().unwrap(),
        "--from-paths",
        "--network-cousins",
    ];
    fails_with(&frontier(&without_data), "--network-data");
}

/// `tiles fit-rank --from-paths` fits on solutions that `solve --json`
/// printed, replayed to the goal; paths that do not replay, and flags of
/// the beam it does not run, are refused with their reason.
#[test]
fn fit_rank_fits_on_paths_that_solve_printed() {
    let dir = scratch("fit-rank-paths");
    let pdb = dir.to_str().unwrap();
    let boards = [
        "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3",
        "13 5 4 10 9 12 8 14 2 3 7 1 0 15 11 6",
        "14 7 8 2 13 11 10 4 9 12 5 0 3 6 1 15",
        "5 12 10 7 15 11 14 0 8 2 1 13 3 4 9 6",
    ];
    let (lines, lengths) = solved_lines(pdb, &boards);
    let paths = dir.join("paths.jsonl");
    std::fs::write(&paths, &lines).unwrap();
    let fit = |file: &std::path::Path, flags: &[&str]| {
        let base = [
            "--json",
            "tiles",
            "fit-rank",
            file.to_str().unwrap(),
            "--from-paths",
            "--goal",
            "korf",
            "--heuristic",
            "5-5-5",
            "--pdb-dir",
            pdb,
        ];
        frontier(&[&base[..], flags].concat())
    };
    let out = fit(&paths, &["--reflect"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(v["paths"], 4, "{v}");
    assert_eq!(
        v["mean_path"].as_f64().unwrap(),
        lengths as f64 / 4.0,
        "{v}"
    );
    let weights: Vec<String> = v["rank_weights"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.to_string())
        .collect();
    assert_eq!(weights.len(), 9, "{v}");
    // Korf's board #1 has optimum 57.
    let ranked = beam_555(
        pdb,
        "60",
        boards[0],
        &["--rank-weights", &weights.join(",")],
    );
    assert!(ranked["cost"].as_u64().unwrap() >= 57);
    // Broken files: each refused with the line and the reason.
    let first = lines.lines().next().unwrap();
    let row: serde_json::Value = serde_json::from_str(first).unwrap();
    let mut short = row.clone();
    short["path"] = serde_json::json!([]);
    let mut off_board = row.clone();
    off_board["path"] = serde_json::json!(["R", "R", "R", "R"]);
    let mut unknown = row.clone();
    unknown["path"] = serde_json::json!(["N"]);
    for (text, needle) in [
        (
            short.to_string(),
            "line 1: its path of 0 moves does not end at the goal",
        ),
        (off_board.to_string(), "leaves the board"),
        (
            unknown.to_string(),
            "line 1: move 1 is \"N\", not U, D, L or R",
        ),
        (
            "{\"solved\":true}".to_string(),
            "no `instance_text` and `path`",
        ),
        ("not json".to_string(), "not a JSON line"),
        ("{\"solved\":false}".to_string(), "no solved path to fit on"),
    ] {
        let file = dir.join("broken.jsonl");
        std::fs::write(&file, text).unwrap();
        let out = fit(&file, &[]);
        assert!(!out.status.success(), "{needle}");
        assert!(stderr(&out).contains(needle), "{needle}: {}", stderr(&out));
    }
    // A results file's header line is skipped.
    let with_header = dir.join("results.json");
    std::fs::write(
        &with_header,
        format!("{{\"domain\":\"tiles\",\"frontier_results\":2}}\n{lines}"),
    )
    .unwrap();
    let out = fit(&with_header, &["--reflect"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let again: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(again["rank_weights"], v["rank_weights"]);
    let out = fit(&paths, &["--beam", "10"]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("cannot be used with"),
        "{}",
        stderr(&out)
    );
}

/// `tiles fit-rank` fits one weight per feature on Korf's 100, round by
/// round, and `solve --rank-weights` takes what it prints; bad requests are
/// refused with their reason.
#[test]
fn fit_rank_fits_weights_that_solve_takes() {
    let dir = scratch("fit-rank");
    let pdb = dir.to_str().unwrap();
    // `global`: flags of `frontier` itself (`--json`).
    let fit = |global: &[&str], flags: &[&str]| {
        let base = [
            "tiles",
            "fit-rank",
            "data/tiles/korf100.tsv",
            "--goal",
            "korf",
            "--pdb-dir",
            pdb,
        ];
        frontier(&[global, &base[..], flags].concat())
    };
    let out = fit(
        &[],
        &[
            "--heuristic",
            "5-5-5",
            "--reflect",
            "--beam",
            "60",
            "--rounds",
            "2",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let weights = stdout(&out).trim().to_string();
    // Three databases, each on the reflected board, two sums, the conflicts.
    assert_eq!(weights.split(',').count(), 9, "{weights}");
    let lines = stderr(&out);
    assert!(
        lines.contains("round 1: mean path") && lines.contains("round 2: mean path"),
        "{lines}"
    );
    let v = beam_555(
        pdb,
        "60",
        "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3",
        &["--rank-weights", &weights],
    );
    // Korf's board #1 has optimum 57.
    assert!(v["cost"].as_u64().unwrap() >= 57);
    let out = fit(
        &["--json"],
        &["--heuristic", "5-5-5", "--beam", "60", "--rounds", "1"],
    );
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(v["rank_weights"].as_array().unwrap().len(), 5, "{v}");
    assert_eq!(v["mean_path_by_round"].as_array().unwrap().len(), 1, "{v}");
    // --sums-only: the databases' own weights are 0, the sums' and the
    // conflicts' fitted.
    let out = fit(
        &["--json"],
        &[
            "--heuristic",
            "5-5-5",
            "--reflect",
            "--beam",
            "60",
            "--rounds",
            "1",
            "--sums-only",
        ],
    );
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    let w: Vec<f64> = v["rank_weights"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    assert_eq!(w.len(), 9, "{v}");
    assert!(
        w[..6].iter().all(|&x| x == 0.0) && w[6..].iter().any(|&x| x != 0.0),
        "{v}"
    );
    for (flags, needle) in [
        (
            vec!["--heuristic", "manhattan"],
            "give pattern databases of one partition",
        ),
        (
            vec!["--heuristic", "5-5-5", "--rounds", "0"],
            "--rounds, --beam and --max-memory-gib must be at least 1",
        ),
        (
            vec!["--heuristic", "5-5-5", "--max-memory-gib", "0"],
            "--rounds, --beam and --max-memory-gib must be at least 1",
        ),
        (
            vec!["--heuristic", "5-5-5", "--beam", "1"],
            "found no path with a beam of 1",
        ),
    ] {
        let out = fit(&[], &flags);
        assert!(!out.status.success(), "{flags:?}");
        assert!(stderr(&out).contains(needle), "{flags:?}: {}", stderr(&out));
    }
    // A file of no boards said that round 1's beams solved none.
    let empty = dir.join("no-boards.txt");
    std::fs::write(&empty, "# nothing yet\n\n").unwrap();
    fails_with(
        &frontier(&[
            "tiles",
            "fit-rank",
            empty.to_str().unwrap(),
            "--heuristic",
            "4-4",
        ]),
        "no-boards.txt: no boards",
    );
}

/// Several partitions joined by `|` take the largest of their sums: the
/// 8-puzzle's hardest board keeps its optimum of 31 on A* and IDA*.
#[test]
fn several_partitions_solve_the_hardest_8_puzzle_optimally() {
    let dir = scratch("max-partitions");
    for executor in ["astar", "ida"] {
        let out = frontier(&[
            "solve",
            "--json",
            "--executor",
            executor,
            "tiles",
            "8 6 7 2 5 4 3 0 1",
            "--heuristic",
            "4-4|1,2,3/4,5,6/7,8",
            "--reflect",
            "--pdb-dir",
            dir.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{executor}: {}", stderr(&out));
        let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
        assert_eq!(v["cost"], 31, "{executor}");
    }
}

/// A proof's shares run from one config as grid rows (`share`), as a
/// sample too long for one sitting does: the rows' boards are the whole
/// proof's, each once.
#[test]
fn a_configs_share_rows_add_up_to_the_whole_proof() {
    let dir = scratch("boggle-shares");
    let config = dir.join("shares.ron");
    std::fs::write(
        &config,
        "Experiment(\n    domain: Boggle(job: Prove(shape: \"2x2\", target: 15, buckets: \"ae rst\")),\n    instances: Inline([\"1\"]),\n    grid: {\"share\": [\"1/2\", \"2/2\"], \"switchover\": [0]},\n)\n",
    )
    .unwrap();
    let rows = json_lines(
        &frontier(&["--json", "run", config.to_str().unwrap()]),
        "run with share rows",
    );
    let statuses: Vec<&str> = rows.iter().map(|r| r["status"].as_str().unwrap()).collect();
    // "ae rst" leaves letters out: each row names those it covers.
    assert_eq!(
        statuses,
        [
            "share 1/2 proven over the letters aerst",
            "share 2/2 proven over the letters aerst"
        ]
    );
    assert_eq!(rows[0]["params"], "share=1/2 switchover=0");
    let mut boards: Vec<String> = rows
        .iter()
        .flat_map(|r| r["path"].as_array().unwrap().clone())
        .map(|b| b.as_str().unwrap().to_string())
        .collect();
    boards.sort();
    let whole = json_lines(
        &frontier(&[&["--json", "boggle"][..], &BOGGLE_2X2_PROOF].concat()),
        "the whole proof",
    );
    let mut expected: Vec<String> = whole[0]["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| format!("{} {}", b[1], b[0].as_str().unwrap()))
        .collect();
    expected.sort();
    assert_eq!(boards, expected);
}

#[test]
fn usage_errors_exit_non_zero_and_help_lists_the_domains() {
    let out = frontier(&["solve", "tiles"]);
    assert!(!out.status.success());
    let help = stdout(&frontier(&["solve", "--help"]));
    assert!(help.contains("tiles") && help.contains("grid"), "{help}");
    let tiles_help = stdout(&frontier(&["solve", "tiles", "--help"]));
    assert!(
        tiles_help.contains("--goal") && tiles_help.contains("--reflect"),
        "{tiles_help}"
    );
}

#[test]
fn a_limit_is_reported_as_an_outcome_not_an_error() {
    let out = frontier(&[
        "solve",
        "--json",
        "--max-expanded",
        "10",
        "tiles",
        "13 6 8 12 15 14 0 10 11 7 4 5 9 1 3 2",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(v["solved"], false);
    assert_eq!(v["status"], "expansion limit");
    assert_eq!(v["stats"]["expanded"], 10);
}

#[test]
fn a_cost_that_contradicts_the_stated_optimum_fails_the_run() {
    let file = scratch("instances").join("wrong.tsv");
    std::fs::write(
        &file,
        "id\ttiles_standard_goal\toptimal_length\nx\t1 2 3 4 5 6 0 7 8\t3\n",
    )
    .unwrap();
    let config = write_config(
        "wrong.ron",
        &format!(
            "Experiment(domain: Tiles(), instances: File(path: {:?}))",
            file.display().to_string()
        ),
    );
    let out = frontier(&["run", config.to_str().unwrap()]);
    fails_with(&out, "different from the one the input states");
}

#[test]
fn results_are_written_to_the_output_file_as_csv() {
    let csv = scratch("out").join("r.csv");
    let config = write_config(
        "out.ron",
        &format!(
            "Experiment(domain: Grid(), instances: Inline([\"S.#/..G\"]), output: Some({:?}))",
            csv.display().to_string()
        ),
    );
    let out = frontier(&["run", config.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&csv).unwrap();
    // The first line names the experiment, the second the columns.
    assert!(text.starts_with("# {\"domain\":\"grid\""), "{text}");
    assert!(
        text.lines()
            .nth(1)
            .unwrap()
            .starts_with("instance,executor,params,status,cost"),
        "{text}"
    );
    assert!(
        text.lines().nth(2).unwrap().contains(",optimal,3,"),
        "{text}"
    );
}

#[test]
fn a_grid_runs_every_combination_and_resume_skips_finished_rows() {
    let csv = scratch("grid").join("grid.csv");
    let config = write_config(
        "grid.ron",
        &format!(
            r#"Experiment(
                domain: Tiles(goal: Korf),
                instances: File(path: "@data/tiles/korf100.tsv", ids: Some(["79", "97"])),
                executors: [Astar, Hda()],
                grid: {{"threads": [1, 2], "heuristic": ["manhattan", "5-5-5"]}},
                repeat: 3,
                output: Some({:?}),
            )"#,
            csv.display().to_string()
        ),
    );
    // The runs read @data/: fail loudly here when it is missing.
    need!("tiles/korf100.tsv");
    let run = |extra: &[&str]| {
        let mut args = vec!["run", "--json", config.to_str().unwrap()];
        args.extend(extra);
        let out = frontier(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        stdout(&out)
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .collect::<Vec<_>>()
    };
    let rows = run(&[]);
    // 2 instances x 2 heuristics x (A* once + HDA* at 1 and 2 threads).
    assert_eq!(rows.len(), 12);
    let keys: std::collections::HashSet<String> = rows
        .iter()
        .map(|r| format!("{} {} {}", r["instance"], r["executor"], r["params"]))
        .collect();
    assert_eq!(keys.len(), 12, "every row once");
    assert!(keys.contains("\"97\" \"hda-2-hash\" \"heuristic=5-5-5 threads=2\""));
    for r in &rows {
        assert_eq!(r["runs"], 3);
        assert_eq!(r["cost"], r["known_cost"]);
    }
    let text = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(text.lines().count(), 14, "{text}");
    // An interruption in the middle of the fifth row: four rows are kept,
    // the cut one and the seven after it run again.
    let cut: usize = text.lines().take(6).map(|l| l.len() + 1).sum::<usize>() + 10;
    std::fs::write(&csv, &text[..cut]).unwrap();
    let again = run(&["--resume"]);
    assert_eq!(again.len(), 8);
    let text = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(text.lines().count(), 14, "{text}");
}

#[test]
fn grid_keys_that_nothing_takes_and_resume_without_output_are_refused() {
    let config = write_config(
        "badgrid.ron",
        r#"Experiment(domain: Grid(), instances: Inline(["S.#/..G"]), grid: {"threads": [2]})"#,
    );
    let out = frontier(&["run", config.to_str().unwrap()]);
    fails_with(
        &out,
        "grid: threads is not a parameter of grid or of any executor listed",
    );
    let config = write_config(
        "badvalue.ron",
        r#"Experiment(domain: Grid(), instances: Inline(["S.#/..G"]), executors: [Hda()], grid: {"threads": ["many"]})"#,
    );
    let out = frontier(&["run", config.to_str().unwrap()]);
    fails_with(&out, "grid: threads takes numbers, not 'many'");
    let config = write_config(
        "noout.ron",
        r#"Experiment(domain: Grid(), instances: Inline(["S.#/..G"]))"#,
    );
    let out = frontier(&["run", "--resume", config.to_str().unwrap()]);
    fails_with(&out, "--resume needs an output file");
}

#[test]
fn the_gpu_executor_says_in_one_line_when_there_is_no_gpu() {
    let out = frontier(&["solve", "--executor", "gpu", "tiles", "1 2 3 4 5 6 0 7 8"]);
    if frontier_core::gpu::driver_present() {
        eprintln!("a CUDA driver is present: checking the GPU result instead");
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(stdout(&out).contains("optimal"));
    } else {
        assert!(!out.status.success());
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("error: no GPU:"), "{err}");
    }
}

#[test]
fn multi_gpu_without_enough_gpus_exits_non_zero_with_one_line() {
    let out = frontier(&[
        "solve",
        "--executor",
        "multi-gpu",
        "--gpus",
        "64",
        "tiles",
        "1 2 3 4 5 6 0 7 8",
    ]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("error: no GPU:"), "{err}");
    if frontier_core::gpu::driver_present() {
        assert!(err.contains("GPU 63 asked for"), "{err}");
    }
}

#[test]
fn flags_of_another_executor_are_refused_not_ignored() {
    let run = |args: &[&str]| {
        let mut all = vec!["solve"];
        all.extend_from_slice(args);
        all.extend_from_slice(&["tiles", "1 2 3 4 5 6 0 7 8"]);
        frontier(&all)
    };
    fails_with(
        &run(&["--gpus", "2"]),
        "--gpus applies to --executor multi-gpu or gpu-ida only",
    );
    fails_with(
        &run(&["--executor", "hda", "--gpus", "2"]),
        "--gpus applies",
    );
    fails_with(
        &run(&["--executor", "gpu", "--threads", "4"]),
        "--threads applies to --executor hda or ida only",
    );
    fails_with(
        &run(&["--executor", "hda", "--checkpoint", "/tmp/x"]),
        "--checkpoint applies to --executor ida or gpu-ida only",
    );
    fails_with(
        &run(&["--executor", "ida", "--roots", "4096"]),
        "--roots applies to --executor gpu-ida only",
    );
    fails_with(
        &run(&["--partition", "split"]),
        "--partition applies to --executor hda, multi-gpu, mpi-hda or mpi-gpu only",
    );
    fails_with(
        &run(&["--executor", "multi-gpu", "--gpus", "0"]),
        "--gpus must be at least 1",
    );
}

/// `--executor ida` solves optimally and leaves a checkpoint only when a
/// search is interrupted (the iterations it completed are kept).
#[test]
fn ida_solves_from_the_command_line_and_checkpoints_interrupted_searches() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("frontier-cli-ida-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let korf_1 = "13 6 8 12 15 14 0 10 11 7 4 5 9 1 3 2";
    let dir_arg = dir.to_str().unwrap();
    let base = ["solve", "--json", "--executor", "ida", "--threads", "2"];
    let mut args = base.to_vec();
    args.extend_from_slice(&["--checkpoint", dir_arg, "--max-expanded", "20000000"]);
    args.extend_from_slice(&["tiles", "--heuristic", "manhattan", korf_1]);
    let stopped = frontier(&args);
    let row: serde_json::Value = serde_json::from_str(stdout(&stopped).trim()).unwrap();
    assert_eq!(row["status"], "expansion limit", "{row}");
    let saved: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "json")
        })
        .collect();
    assert_eq!(saved.len(), 1, "one checkpoint file");
    let text = std::fs::read_to_string(saved[0].as_ref().unwrap().path()).unwrap();
    let checkpoint: serde_json::Value = serde_json::from_str(&text).unwrap();
    // Manhattan says 41 for Korf #1; 20 M expansions finish several bounds.
    assert!(checkpoint["bound"].as_u64().unwrap() > 45, "{checkpoint}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn multi_gpu_configs_parse_and_typos_are_named() {
    let good = write_config(
        "multi.ron",
        r#"Experiment(
            domain: Tiles(goal: Standard),
            instances: Inline(["1 2 3 4 5 6 0 7 8"]),
            executors: [MultiGpu(devices: [0, 1], partition: "split")],
        )"#,
    );
    let out = frontier(&["run", good.to_str().unwrap()]);
    if !frontier_core::gpu::driver_present() {
        // Parsed, then refused for the missing GPUs — not for the config.
        fails_with(&out, "no GPU");
    }
    let typo = write_config(
        "multi-typo.ron",
        r#"Experiment(
            domain: Tiles(goal: Standard),
            instances: Inline(["1 2 3 4 5 6 0 7 8"]),
            executors: [MultiGpu(gpus: 2)],
        )"#,
    );
    fails_with(&frontier(&["run", typo.to_str().unwrap()]), "gpus");
}

/// The run failed and its error names `text`.
fn fails_with(out: &Output, text: &str) {
    assert!(
        !out.status.success(),
        "expected a failure mentioning {text:?}"
    );
    assert!(stderr(out).contains(text), "{}", stderr(out));
}

/// ENABLE2K's five-letter words (shipped), one per line: small Wordle
/// games that run on any clone, where the game's own lists are not
/// shipped.
fn five_letter_words() -> String {
    let path = frontier_core::data::find("boggle/enable2k.txt").expect("data/ ships ENABLE2K");
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .map(str::trim)
        .filter(|w| w.len() == 5 && w.bytes().all(|b| b.is_ascii_lowercase()))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn boggle_score_lists_words_with_paths_and_checks_reference_files() {
    let dict = need!("boggle/enable2k.txt");
    let out = frontier(&["--json", "boggle", "score", "perlatdes", "--dict", &dict]);
    assert!(out.status.success(), "{}", stderr(&out));
    let value: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(value["score"], 545);
    let words = value["words"].as_array().unwrap();
    let sum: u64 = words.iter().map(|w| w["points"].as_u64().unwrap()).sum();
    assert_eq!(sum, 545);
    assert!(words
        .iter()
        .all(|w| w["path"].as_array().unwrap().len() >= 2));
    // A TSV with a score column is checked; a wrong score fails the run.
    let file = scratch("boggle").join("ref.tsv");
    std::fs::write(
        &file,
        "board\trows\tcols\tscore\nperlatdes\t3\t3\t545\nabcd\t2\t2\t3\n",
    )
    .unwrap();
    let out = frontier(&[
        "boggle",
        "score",
        "--scores-only",
        "--file",
        file.to_str().unwrap(),
        "--dict",
        &dict,
    ]);
    fails_with(&out, "abcd scores 4, the file says 3");
}

#[test]
fn boggle_bad_input_is_one_clear_line() {
    let dict = need!("boggle/enable2k.txt");
    let out = frontier(&["boggle", "score", "perla", "--dict", &dict]);
    fails_with(&out, "5 letters is not a square board");
    let out = frontier(&[
        "boggle",
        "score",
        "abcd",
        "--dict",
        "/nonexistent/words.txt",
    ]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains("/nonexistent/words.txt") && err.contains("--dict"),
        "{err}"
    );
    let out = frontier(&["boggle", "bench", "--shape", "4by4"]);
    fails_with(&out, "should look like 4x4");
    // A board no proof takes is named before the target is judged: the
    // target check asked for a higher target, which the shape then refused.
    let out = frontier(&[
        "boggle",
        "prove",
        "--shape",
        "5x5",
        "--target",
        "500",
        "--buckets",
        "aeiou lnrsy",
        "--dict",
        &dict,
    ]);
    fails_with(&out, "proofs take boards of 1 to 16 cells, not 5x5");
}

#[test]
fn nonogram_solve_prints_grid_verdict_json_and_png() {
    let puzzle = need!("nonogram/webpbn-00023.nin");
    let out = frontier(&["nonogram", "solve", &puzzle]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let known = std::fs::read_to_string(need!("nonogram/solutions/webpbn-00023.sol")).unwrap();
    assert!(text.starts_with(&known), "{text}");
    assert!(text.contains("unique"), "{text}");
    let png = scratch("nonogram").join("sol.png");
    let out = frontier(&[
        "--json",
        "nonogram",
        "solve",
        &need!("nonogram/rand-30x30-d50-s1.nin"),
        "--png",
        png.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let value: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(value["verdict"], "multiple");
    assert_eq!(value["solutions"].as_array().unwrap().len(), 2);
    assert_eq!(value["checked"], true);
    assert!(std::fs::read(&png).unwrap().starts_with(b"\x89PNG"));
    for method in ["dfs", "walk", "astar", "hda"] {
        let out = frontier(&[
            "nonogram",
            "solve",
            "--no-grid",
            "--method",
            method,
            &puzzle,
        ]);
        assert!(out.status.success(), "{method}: {}", stderr(&out));
    }
    // A best-first method finds one solution: a count above it is refused.
    fails_with(
        &frontier(&[
            "nonogram",
            "solve",
            "--method",
            "hda",
            "--solutions",
            "2",
            &puzzle,
        ]),
        "--solutions 2: --method hda finds the first solution only",
    );
    fails_with(
        &frontier(&[
            "solve",
            "nonogram",
            "--method",
            "astar",
            "--solutions",
            "3",
            &puzzle,
        ]),
        "nonogram: solutions 3: method astar finds the first solution only",
    );
    // The portfolio, and a seeded cdcl (which searches from elsewhere),
    // reach the same checked verdict.
    let random = need!("nonogram/rand-30x30-d50-s1.nin");
    for flags in [
        ["--method", "portfolio", "--threads", "3"],
        ["--seed", "5", "--quiet", "--no-grid"],
    ] {
        let mut args = vec!["--json", "nonogram", "solve"];
        args.extend(flags);
        args.push(random.as_str());
        let out = frontier(&args);
        assert!(out.status.success(), "{flags:?}: {}", stderr(&out));
        let value: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
        assert_eq!(value["verdict"], "multiple", "{flags:?}");
        assert_eq!(value["checked"], true, "{flags:?}");
    }
    fails_with(
        &frontier(&["nonogram", "solve", "--threads", "2", &puzzle]),
        "--threads applies to --method hda and portfolio only",
    );
    fails_with(
        &frontier(&[
            "nonogram", "solve", "--method", "dfs", "--seed", "5", &puzzle,
        ]),
        "a seed applies to method cdcl only",
    );
}

/// The framework's methods probe every state, and one probe of a 33×33
/// grid took 7 s: a time limit must cut the probes too, not only the
/// executor between expansions.
#[test]
fn nonogram_framework_methods_stop_at_their_time_limit() {
    let puzzle = need!("nonogram/dom-16.nin");
    for method in ["walk", "astar", "hda"] {
        let started = std::time::Instant::now();
        let out = frontier(&[
            "nonogram",
            "solve",
            "--no-grid",
            "--method",
            method,
            "--max-seconds",
            "0.3",
            &puzzle,
        ]);
        let seconds = started.elapsed().as_secs_f64();
        assert!(out.status.success(), "{method}: {}", stderr(&out));
        let text = stdout(&out);
        assert!(text.contains("unknown"), "{method}: {text}");
        assert!(
            seconds < 4.0,
            "{method} ran {seconds:.1} s past a 0.3 s limit"
        );
        // The walk counts the states it expanded (it said 0 before).
        assert!(!text.contains(" 0 nodes"), "{method}: {text}");
    }
}

#[test]
fn nonogram_bad_files_name_the_line() {
    let file = scratch("nonogram-bad").join("bad.nin");
    std::fs::write(&file, "3 2\n1\n1 1 1\n1\n1\n1\n").unwrap();
    let out = frontier(&["nonogram", "solve", file.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains("bad.nin: line 3: row 2: clue 1,1,1 needs 5 cells"),
        "{err}"
    );
    // `solve nonogram` takes a path or a puzzle's text: a path that is not
    // there was parsed as text ("the first line must be 'width height'").
    let missing = file.with_file_name("missing.nin");
    fails_with(
        &frontier(&["solve", "nonogram", missing.to_str().unwrap()]),
        "missing.nin: No such file",
    );
}

#[test]
fn wordle_next_ranks_guesses_and_rejects_bad_feedback() {
    let answers = need!("wordle/orig_answers_2315.txt");
    let guesses = need!("wordle/orig_allowed_12972.txt");
    let next = |extra: &[&str]| {
        let mut args = vec![
            "--json",
            "wordle",
            "next",
            "--answers",
            &answers,
            "--guesses",
            &guesses,
        ];
        args.extend_from_slice(extra);
        frontier(&args)
    };
    let out = next(&["--top", "3"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let value: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(value["candidates"], 2315);
    assert_eq!(value["best"][0]["guess"], "soare");
    fails_with(&next(&["--feedback", "crane:gggg"]), "should be five of");
    fails_with(
        &next(&["--feedback", "crane:ggggg", "--feedback", "slate:ggggg"]),
        "no answer fits",
    );
}

#[test]
fn wordle_sweep_resumes_from_its_checkpoint_and_agrees_with_prove() {
    let answers = need!("wordle/orig_answers_2315.txt");
    let guesses = need!("wordle/orig_allowed_12972.txt");
    let checkpoint = scratch("wordle-sweep").join("sweep.tsv");
    let _ = std::fs::remove_file(&checkpoint);
    let lists = ["--answers", &answers, "--guesses", &guesses];
    let sweep = |extra: &[&str]| {
        let mut args = vec!["--json", "wordle", "sweep"];
        args.extend_from_slice(&lists);
        args.extend_from_slice(extra);
        frontier(&args)
    };
    let sample = [
        "--every",
        "500",
        "--threads",
        "2",
        "--checkpoint",
        checkpoint.to_str().unwrap(),
    ];
    let out = sweep(&sample);
    assert!(out.status.success(), "{}", stderr(&out));
    let first: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    let considered = first["considered"].as_u64().unwrap();
    assert_eq!(considered, 12972u64.div_ceil(500));
    assert_eq!(first["complete"], true);
    assert_eq!(first["judged_now"], considered);
    let recorded = std::fs::read_to_string(&checkpoint).unwrap();
    // A first line naming the lists, mode and limit, then a line a guess.
    assert!(
        recorded.starts_with("# frontier wordle sweep "),
        "{recorded}"
    );
    assert_eq!(recorded.lines().count() as u64, considered + 1);

    // Resumed: nothing left to judge, the same answer.
    let out = sweep(&sample);
    assert!(out.status.success(), "{}", stderr(&out));
    let again: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(again["judged_now"], 0);
    assert_eq!(again["leaders"], first["leaders"]);

    // The sample's best total is what `prove` finds for that guess alone.
    let leader = first["leaders"][0]["guess"].as_str().unwrap().to_string();
    let total = first["best"].as_u64().unwrap();
    let mut args = vec!["wordle", "prove", "--first", &leader];
    args.extend_from_slice(&lists);
    let out = frontier(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains(&format!("at best {total} guesses")),
        "{}",
        stdout(&out)
    );

    // A bad line after the key line is named; a file with no key line (an
    // older version's, or not a checkpoint) is refused whole.
    let key = recorded.lines().next().unwrap();
    std::fs::write(
        &checkpoint,
        format!("{key}\nsalet\texact\t7920\nzzzz\tmaybe\t1\n"),
    )
    .unwrap();
    fails_with(&sweep(&sample), "sweep.tsv:3: not a five-letter word");
    std::fs::write(&checkpoint, "salet\texact\t7920\n").unwrap();
    fails_with(&sweep(&sample), "its first line names no lists");
    fails_with(&sweep(&["--every", "0"]), "--every must be at least 1");
}

/// Every JSON line of a successful run, parsed.
fn json_lines(out: &Output, what: &str) -> Vec<serde_json::Value> {
    assert!(out.status.success(), "{what}: {}", stderr(out));
    let lines: Vec<serde_json::Value> = stdout(out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{what}: not JSON ({e}): {l}")))
        .collect();
    assert!(!lines.is_empty(), "{what}: no output");
    lines
}

#[test]
fn every_subcommand_prints_json_lines_with_json() {
    // Small Wordle lists: the first 40 answers, guessable too.
    let answers = five_letter_words();
    let small: Vec<&str> = answers.lines().take(40).collect();
    let list = scratch("json-wordle").join("small.txt");
    std::fs::write(&list, small.join("\n")).unwrap();
    let lists = [
        "--answers",
        list.to_str().unwrap(),
        "--guesses",
        list.to_str().unwrap(),
    ];
    let wordle = |args: &[&str]| {
        let mut all = vec!["--json", "wordle"];
        all.extend_from_slice(&args[..1]);
        all.extend_from_slice(&lists);
        all.extend_from_slice(&args[1..]);
        frontier(&all)
    };
    let next = json_lines(&wordle(&["next", "--top", "3"]), "wordle next");
    assert_eq!(next[0]["candidates"], 40);
    let bench = json_lines(&wordle(&["bench", "--repeat", "1"]), "wordle bench");
    assert_eq!(bench[0]["answers"], 40);
    let prove = json_lines(&wordle(&["prove", "--first", small[0]]), "wordle prove");
    assert_eq!(prove[0]["hard"], false);
    assert_eq!(prove[0]["first"], small[0]);
    assert!(prove[0]["total"].as_u64().unwrap() >= 2 * 40 - 1);
    let sweep = json_lines(&wordle(&["sweep", "--threads", "1"]), "wordle sweep");
    assert!(sweep[0]["best"].as_u64().unwrap() <= prove[0]["total"].as_u64().unwrap());
    let simulate = json_lines(&wordle(&["simulate"]), "wordle simulate");
    assert!(simulate[0]["total"].as_u64().unwrap() >= sweep[0]["best"].as_u64().unwrap());
    // Its text names the policy and the rules: a greedy total, not an optimum.
    let text = frontier(&[&["wordle", "simulate"][..], &lists, &["--hard"]].concat());
    assert!(
        stdout(&text)
            .starts_with("greedy policy (most expected information, hard mode), first guess "),
        "{}",
        stdout(&text)
    );
    // play: the first suggestion is the answer.
    let mut play = Command::new(env!("CARGO_BIN_EXE_frontier"))
        .args(["--json", "wordle", "play"])
        .args(lists)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    play.stdin.take().unwrap().write_all(b"ggggg\n").unwrap();
    let played = json_lines(&play.wait_with_output().unwrap(), "wordle play");
    assert_eq!(played[0]["candidates"], 40);
    assert_eq!(played[1]["solved_in"], 1);

    let nin = need!("nonogram/webpbn-00023.nin");
    let solved = json_lines(
        &frontier(&["--json", "nonogram", "solve", &nin]),
        "nonogram solve",
    );
    assert_eq!(solved[0]["verdict"], "unique");
    let converted = json_lines(
        &frontier(&["--json", "nonogram", "convert", &nin, "--to", "non"]),
        "nonogram convert",
    );
    assert_eq!(converted[0]["format"], "non");
    let bench = json_lines(
        &frontier(&[
            "--json", "nonogram", "bench", "--count", "50", "--size", "8x8",
        ]),
        "nonogram bench",
    );
    assert_eq!(bench[0]["puzzles"], 50);

    let dict = ["--dict", &need!("boggle/enable2k.txt")];
    let boggle = |args: &[&str]| {
        let mut all = vec!["--json", "boggle"];
        all.extend_from_slice(args);
        all.extend_from_slice(&dict);
        frontier(&all)
    };
    let score = json_lines(&boggle(&["score", "perslatgsineters"]), "boggle score");
    assert!(score[0]["score"].as_u64().unwrap() > 0);
    let bench = json_lines(&boggle(&["bench", "--count", "1000"]), "boggle bench");
    assert_eq!(bench[0]["boards"], 1000);
    let anneal = json_lines(
        &boggle(&["anneal", "--chains", "2", "--steps", "200", "--keep", "2"]),
        "boggle anneal",
    );
    assert!(!anneal.is_empty());
    let proof = json_lines(
        &boggle(&[
            "prove",
            "--shape",
            "2x2",
            "--target",
            "15",
            "--letters",
            "aerst",
        ]),
        "boggle prove",
    );
    assert_eq!(proof[0]["complete"], true);
    let boards: Vec<&str> = proof[0]["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b[0].as_str().unwrap())
        .collect();
    // Up to symmetry: one of the eight images of each board.
    assert!(
        boards.contains(&"aest") && !boards.contains(&"eats"),
        "{boards:?}"
    );
    fails_with(
        &boggle(&[
            "prove",
            "--shape",
            "3x3",
            "--target",
            "400",
            "--max-seconds",
            "0.2",
        ]),
        "the proof did not finish",
    );
    fails_with(
        &boggle(&["prove", "--target", "1", "--letters", "a1"]),
        "is not a letter a-z",
    );
    // An empty sample has nothing to project from: refused, not reported
    // as cut short by a time limit.
    fails_with(
        &boggle(&["prove", "--target", "400", "--sample", "0"]),
        "a sample of 0 classes",
    );
    // A target most boards reach is refused at once, saying what it
    // implies, instead of listing tens of millions of boards in memory.
    fails_with(
        &boggle(&["prove", "--shape", "2x3", "--target", "10"]),
        "the proof would list about",
    );
    // GPU proofs: a split depth that leaves nothing to the GPU, a depth
    // without the GPU, host copies or a deeper split unknown or without
    // the GPU, and a
    // certificate (the GPU keeps no pieces) are refused before any device
    // is opened.
    let gpu_refusals: [(&[&str], &str); 7] = [
        (
            &["--gpu", "--gpu-depth", "9"],
            "the split depth must be from 1 to 8 for 9 cells, not 9",
        ),
        (&["--gpu-depth", "3"], "--gpu"),
        (
            &["--gpu", "--gpu-host-copies", "sometimes"],
            "host copies \"sometimes\": `never`, `queue-full`, `always` or `auto`",
        ),
        (&["--gpu-host-copies", "always"], "--gpu"),
        (
            &["--gpu", "--gpu-deeper", "sometimes"],
            "deeper split \"sometimes\": `when-behind`, `never` or `every-other`",
        ),
        (&["--gpu-deeper", "never"], "--gpu"),
        (&["--gpu", "--certificate", "c.txt"], "--certificate"),
    ];
    for (extra, message) in gpu_refusals {
        let args = [&["prove", "--target", "400"][..], extra].concat();
        fails_with(&boggle(&args), message);
    }
    // Shares of a proof add up to it: classes and boards.
    let args = BOGGLE_2X2_PROOF;
    let whole = json_lines(&boggle(&args), "boggle prove");
    let (mut classes, mut boards) = (0, Vec::new());
    for share in ["1/2", "2/2"] {
        let part = json_lines(
            &boggle(&[&args[..], &["--share", share]].concat()),
            "boggle prove --share",
        );
        assert_eq!(part[0]["complete"], true);
        classes += part[0]["classes"].as_u64().unwrap();
        boards.extend(part[0]["boards"].as_array().unwrap().clone());
    }
    assert_eq!(classes, whole[0]["classes"].as_u64().unwrap());
    boards.sort_by_key(|b| b.to_string());
    let mut expected = whole[0]["boards"].as_array().unwrap().clone();
    expected.sort_by_key(|b| b.to_string());
    assert_eq!(boards, expected);
    fails_with(
        &boggle(&[&args[..], &["--share", "3/2"]].concat()),
        "expected K/N with 1 <= K <= N",
    );
    // Forcing: by default above 2.6 times the target; 0 turns it off;
    // forcing every cell it may finds the same boards, with fewer
    // subclasses bounded.
    assert_eq!(whole[0]["switchover"], 39);
    let args3 = BOGGLE_3X3_PROOF;
    let unforced = json_lines(
        &boggle(&[&args3[..], &["--switchover", "0"]].concat()),
        "boggle prove --switchover 0",
    );
    assert!(unforced[0]["switchover"].is_null());
    assert!(!unforced[0]["boards"].as_array().unwrap().is_empty());
    let forced = json_lines(
        &boggle(&[&args3[..], &["--switchover", "1"]].concat()),
        "boggle prove --switchover 1",
    );
    assert_eq!(forced[0]["boards"], unforced[0]["boards"]);
    assert!(
        forced[0]["subclasses"].as_u64() < unforced[0]["subclasses"].as_u64(),
        "{} against {}",
        forced[0]["subclasses"],
        unforced[0]["subclasses"]
    );
    // A sample projects from its own classes' times: their mean times
    // every class.
    let sample = json_lines(
        &boggle(&[&args[..], &["--sample", "2"]].concat()),
        "boggle prove --sample",
    );
    let times: Vec<f64> = sample[0]["class_seconds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_f64().unwrap())
        .collect();
    assert_eq!(times.len(), 2);
    let total = whole[0]["classes_total"].as_f64().unwrap();
    let projected = sample[0]["projected_core_hours"].as_f64().unwrap();
    let expected = (times[0] + times[1]) / 2.0 * total / 3600.0;
    assert!((projected - expected).abs() <= 1e-9 * expected.max(1e-9));
    assert!(sample[0]["projected_core_hours_stderr"].as_f64().unwrap() >= 0.0);
    // Each sampled class is named by its letters, a bucket per cell, so
    // another prover can be timed on the same classes.
    let letters = sample[0]["class_letters"].as_array().unwrap();
    assert_eq!(letters.len(), 2);
    for class in letters {
        let sets: Vec<&str> = class.as_str().unwrap().split(' ').collect();
        assert_eq!(sets.len(), 4, "{class}");
        assert!(sets.iter().all(|s| ["ae", "rst"].contains(s)), "{class}");
    }
    // A certificate written, verified, and refused once tampered with.
    let cert = scratch("boggle").join("proof.cert");
    let cert_arg = cert.to_str().unwrap();
    let written = boggle(&[&args[..], &["--certificate", cert_arg]].concat());
    assert!(written.status.success(), "{}", stderr(&written));
    let verified = json_lines(&boggle(&["verify", cert_arg]), "boggle verify");
    assert_eq!(verified[0]["verified"], true);
    assert_eq!(verified[0]["boards"], proof[0]["boards"]);
    let text = std::fs::read_to_string(&cert).unwrap();
    std::fs::write(&cert, text.replace("target 15", "target 10")).unwrap();
    fails_with(
        &boggle(&["verify", cert_arg]),
        "proof.cert: certificate refused",
    );
    fails_with(
        &boggle(&[&args[..], &["--sample", "1", "--certificate", cert_arg]].concat()),
        "cannot be used with",
    );
    // An empty file has no line 0: it said "line 0: the header ends early".
    std::fs::write(&cert, "").unwrap();
    fails_with(
        &boggle(&["verify", cert_arg]),
        "proof.cert: certificate line 1: the file is empty",
    );
    fails_with(
        &frontier(&["boggle", "merge", cert_arg]),
        "proof.cert line 1: the file is empty",
    );
}

#[test]
fn flags_a_wordle_command_cannot_honour_are_refused() {
    let out = frontier(&["wordle", "bench", "--hard", "--repeat", "1"]);
    fails_with(&out, "--hard does not apply");
    let out = frontier(&["wordle", "prove", "--max-guesses", "6"]);
    fails_with(&out, "--max-guesses applies with --hard");
    // The default first guess, absent from a list of one's own, is named
    // as the flag's default.
    let list = scratch("wordle-first").join("two.txt");
    std::fs::write(&list, "crane\nslate\n").unwrap();
    let list = list.to_str().unwrap();
    let out = frontier(&["wordle", "prove", "--answers", list, "--guesses", list]);
    fails_with(
        &out,
        "--first salet (salet unless given) is not in the guess list",
    );
}

#[test]
fn wordle_hard_mode_proves_more_than_normal_and_checkpoints_keep_modes_apart() {
    let answers = five_letter_words();
    let small: Vec<&str> = answers.lines().skip(100).take(60).collect();
    let dir = scratch("wordle-hard");
    let list = dir.join("small.txt");
    std::fs::write(&list, small.join("\n")).unwrap();
    let checkpoint = dir.join("sweep.tsv");
    let _ = std::fs::remove_file(&checkpoint);
    let run = |args: &[&str]| {
        let mut all = vec!["--json", "wordle"];
        all.extend_from_slice(&args[..1]);
        all.extend_from_slice(&["--answers", list.to_str().unwrap()]);
        all.extend_from_slice(&["--guesses", list.to_str().unwrap()]);
        all.extend_from_slice(&args[1..]);
        frontier(&all)
    };
    let normal = json_lines(&run(&["prove", "--first", small[0]]), "prove");
    let hard = json_lines(
        &run(&["prove", "--first", small[0], "--hard"]),
        "prove --hard",
    );
    assert_eq!(hard[0]["hard"], true);
    assert!(hard[0]["total"].as_u64() >= normal[0]["total"].as_u64());
    let sweep = |extra: &[&str]| {
        let mut args = vec!["sweep", "--threads", "1", "--checkpoint"];
        args.push(checkpoint.to_str().unwrap());
        args.extend_from_slice(extra);
        run(&args)
    };
    // The text says what a total is over: the answers, the mode, a sample.
    let text = |extra: &[&str]| {
        let mut all = vec!["wordle", "sweep", "--threads", "1"];
        all.extend_from_slice(&["--answers", list.to_str().unwrap()]);
        all.extend_from_slice(&["--guesses", list.to_str().unwrap()]);
        all.extend_from_slice(extra);
        let out = frontier(&all);
        assert!(out.status.success(), "{}", stderr(&out));
        stdout(&out)
    };
    let whole = text(&["--hard"]);
    assert!(
        whole.starts_with("60 first guesses on 60 answers, hard mode (at most 6 guesses);"),
        "{whole}"
    );
    assert!(
        whole.contains(", proven optimal over every guess\n"),
        "{whole}"
    );
    let sample = text(&["--every", "3"]);
    assert!(
        sample
            .starts_with("20 first guesses (a sample: 1 in 3 of the sweep's order) on 60 answers;"),
        "{sample}"
    );
    assert!(sample.contains("not a proof over every guess"), "{sample}");
    let hard_sweep = json_lines(&sweep(&["--hard"]), "sweep --hard");
    assert_eq!(hard_sweep[0]["hard"], true);
    assert!(hard_sweep[0]["best"].as_u64() <= hard[0]["total"].as_u64());
    fails_with(&sweep(&[]), "mode: written hard, now normal");
    // Another limit, or other lists, are another sweep too.
    fails_with(
        &sweep(&["--hard", "--max-guesses", "5"]),
        "max_guesses: written 6, now 5",
    );
    let fewer = dir.join("fewer.txt");
    std::fs::write(&fewer, small[..50].join("\n")).unwrap();
    let mut other = vec!["--json", "wordle", "sweep", "--threads", "1", "--hard"];
    other.extend_from_slice(&["--answers", fewer.to_str().unwrap()]);
    other.extend_from_slice(&["--guesses", list.to_str().unwrap()]);
    other.extend_from_slice(&["--checkpoint", checkpoint.to_str().unwrap()]);
    fails_with(&frontier(&other), "answers: written 60 words");
    // Two sweeps on one checkpoint: the second fails at once.
    let held = std::fs::OpenOptions::new()
        .read(true)
        .open(&checkpoint)
        .unwrap();
    frontier_core::files::lock_file(&held).unwrap();
    fails_with(
        &sweep(&["--hard"]),
        "another sweep is using this checkpoint",
    );
    drop(held);
    // A limit no tree meets is said as such, by prove and by sweep.
    let out = run(&["prove", "--first", small[0], "--hard", "--max-guesses", "1"]);
    fails_with(&out, "finds every answer within 1 guesses");
    let _ = std::fs::remove_file(&checkpoint);
    let tight = json_lines(&sweep(&["--hard", "--max-guesses", "2"]), "tight sweep");
    assert_eq!(tight[0]["best"], serde_json::Value::Null);
    assert_eq!(tight[0]["max_guesses"], 2);
    assert_eq!(tight[0]["complete"], true);
}

#[test]
fn plot_draws_pngs_from_csv_and_json_results_and_names_bad_files() {
    let dir = scratch("plot");
    // The runs read @data/: fail loudly here when it is missing.
    need!("tiles/korf100.tsv");
    for output in ["r.csv", "r.json"] {
        let path = dir.join(output);
        let config = write_config(
            &format!("plot-{output}.ron"),
            &format!(
                r#"Experiment(
                    domain: Tiles(goal: Korf),
                    instances: File(path: "@data/tiles/korf100.tsv", ids: Some(["79", "97"])),
                    executors: [Astar, Hda()],
                    grid: {{"threads": [1, 2]}},
                    output: Some({:?}),
                )"#,
                path.display().to_string()
            ),
        );
        let out = frontier(&["run", "--quiet", config.to_str().unwrap()]);
        assert!(out.status.success(), "{}", stderr(&out));
        let charts = dir.join(format!("charts-{output}"));
        let out = frontier(&[
            "--json",
            "plot",
            path.to_str().unwrap(),
            "--out",
            charts.to_str().unwrap(),
        ]);
        let written = json_lines(&out, "plot")[0]["written"].clone();
        let files: Vec<&str> = written
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f.as_str().unwrap())
            .collect();
        assert_eq!(files.len(), 3, "cactus, rate and speedup: {files:?}");
        for file in files {
            let bytes = std::fs::read(file).unwrap();
            assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "{file}");
            assert!(bytes.len() > 5000, "{file}: {} bytes", bytes.len());
        }
    }
    let junk = dir.join("junk.csv");
    std::fs::write(&junk, "a,b\n1,2\n").unwrap();
    fails_with(
        &frontier(&["plot", junk.to_str().unwrap()]),
        "no `instance` column",
    );
    // `--out` names a directory; a file there said "File exists (os error 17)".
    let results = dir.join("r.csv");
    fails_with(
        &frontier(&[
            "plot",
            results.to_str().unwrap(),
            "--out",
            junk.to_str().unwrap(),
        ]),
        "junk.csv: a file, not a directory",
    );
    // NaN axis ranges made the chart library loop for ever.
    let nan = dir.join("nan.csv");
    std::fs::write(
        &nan,
        "instance,executor,params,status,seconds,exp/s\n1,astar,,optimal,NaN,inf\n",
    )
    .unwrap();
    fails_with(
        &frontier(&["plot", nan.to_str().unwrap()]),
        "nan.csv:2: NaN is not a time or a rate",
    );
}

#[test]
fn every_domain_runs_from_ron_with_its_answers_checked() {
    // The runs read @data/: fail loudly here when it is missing.
    need!("boggle/enable2k.txt");
    let run = |name: &str, config: &str| {
        let path = write_config(name, config);
        frontier(&["run", "--json", path.to_str().unwrap()])
    };
    let boggle = json_lines(
        &run(
            "boggle.ron",
            r#"Experiment(domain: Boggle(), instances: File(path: "@data/boggle/reference-scores.tsv"))"#,
        ),
        "boggle",
    );
    assert_eq!(boggle.len(), 7);
    for row in &boggle {
        assert_eq!(row["value"], row["known_value"], "{row}");
        assert!(row["known_value"].is_number());
    }
    let nonogram = json_lines(
        &run(
            "nonogram.ron",
            r#"Experiment(domain: Nonogram(), instances: File(path: "@data/nonogram/INDEX.tsv", ids: Some(["dom-05", "rand-30x30-d50-s1"])))"#,
        ),
        "nonogram",
    );
    let verdicts: Vec<&str> = nonogram
        .iter()
        .map(|r| r["verdict"].as_str().unwrap())
        .collect();
    assert_eq!(verdicts, ["unique", "multiple"]);
    assert_eq!(nonogram[1]["known_verdict"], "multiple");
    // Small Wordle lists; the first word's total is stated wrong on purpose.
    let answers = five_letter_words();
    let small: Vec<&str> = answers.lines().take(30).collect();
    let dir = scratch("ron-wordle");
    let list = dir.join("small.txt");
    std::fs::write(&list, small.join("\n")).unwrap();
    let firsts = dir.join("firsts.tsv");
    std::fs::write(
        &firsts,
        format!("guess\ttotal\n{}\t1\n{}\n", small[0], small[1]),
    )
    .unwrap();
    let config = format!(
        r#"Experiment(domain: Wordle(answers: {list:?}, guesses: {list:?}), instances: File(path: {firsts:?}), grid: {{"hard": [false, true]}})"#,
        list = list.display().to_string(),
        firsts = firsts.display().to_string()
    );
    let out = run("wordle.ron", &config);
    fails_with(&out, "1 instance(s) with an answer different");
    let rows: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 4, "two guesses in two modes");
    for row in &rows {
        assert!(row["cost"].as_u64().unwrap() >= 2 * 30 - 1);
    }
    let executors = run(
        "boggle-hda.ron",
        r#"Experiment(domain: Boggle(), instances: Inline(["perslatgsineters"]), executors: [Hda()])"#,
    );
    fails_with(&executors, "boggle runs no search executor");
}

/// The jobs of `boggle bench`/`anneal`, `nonogram bench` and `wordle
/// simulate`/`sweep`/`bench` run from RON too, and agree with the subcommands on the same input.
#[test]
fn subcommand_jobs_run_from_ron_and_agree_with_the_subcommands() {
    need!("boggle/enable2k.txt");
    let run = |name: &str, config: &str| {
        let path = write_config(name, config);
        frontier(&["run", "--json", path.to_str().unwrap()])
    };
    let bench = json_lines(
        &run(
            "boggle-bench.ron",
            r#"Experiment(domain: Boggle(job: Bench(count: 3000, threads: 1)), instances: Random(size: 0, count: 2, seed: 4), grid: {"letters": ["uniform", "dice"]})"#,
        ),
        "boggle bench",
    );
    assert_eq!(bench.len(), 4, "two seeds, two letter sets");
    for row in &bench {
        assert_eq!(row["status"], "measured");
        assert_eq!(row["stats"]["expanded"], 3000);
        assert!(row["value"].as_f64().unwrap() > 0.0, "{row}");
    }
    fails_with(
        &run(
            "boggle-seed.ron",
            r#"Experiment(domain: Boggle(job: Bench()), instances: Inline(["perslatgsineters"]))"#,
        ),
        "is not a seed",
    );
    fails_with(
        &run(
            "boggle-random.ron",
            r#"Experiment(domain: Boggle(), instances: Random(size: 4, count: 1, seed: 1))"#,
        ),
        "random instances are seeds",
    );

    let anneal = json_lines(
        &run(
            "boggle-anneal.ron",
            r#"Experiment(domain: Boggle(job: Anneal(chains: Some(8), steps: Some(3000))), instances: Inline(["5"]))"#,
        ),
        "boggle anneal",
    );
    let by_flags = json_lines(
        &frontier(&[
            "--json", "boggle", "anneal", "--chains", "8", "--steps", "3000", "--seed", "5",
        ]),
        "boggle anneal flags",
    );
    assert_eq!(
        anneal[0]["value"].as_f64(),
        by_flags[0]["best"][0][1].as_f64(),
        "{}",
        anneal[0]
    );
    assert_eq!(anneal[0]["path"][0], by_flags[0]["best"][0][0]);

    let proof = json_lines(
        &run(
            "boggle-prove.ron",
            r#"Experiment(domain: Boggle(job: Prove(shape: "2x3", target: 40, buckets: "ae rst")), instances: Inline(["1"]))"#,
        ),
        "boggle prove job",
    );
    let by_flags = json_lines(
        &frontier(&[
            "--json",
            "boggle",
            "prove",
            "--shape",
            "2x3",
            "--target",
            "40",
            "--buckets",
            "ae rst",
        ]),
        "boggle prove flags",
    );
    let boards = by_flags[0]["boards"].as_array().unwrap();
    assert!(!boards.is_empty(), "{}", by_flags[0]);
    assert_eq!(proof[0]["value"].as_f64(), boards[0][1].as_f64());
    assert_eq!(proof[0]["path"].as_array().unwrap().len(), boards.len());
    // Its buckets ("ae rst") leave letters out: the row says which it covers.
    assert_eq!(proof[0]["status"], "proven over the letters aerst");

    let lines = json_lines(
        &run(
            "nonogram-bench.ron",
            r#"Experiment(domain: Nonogram(job: Bench(count: 500, size: "12x10")), instances: Inline(["9"]), grid: {"threads": [1, 2]})"#,
        ),
        "nonogram bench",
    );
    let by_flags = json_lines(
        &frontier(&[
            "--json", "nonogram", "bench", "--count", "500", "--size", "12x10", "--seed", "9",
        ]),
        "nonogram bench flags",
    );
    let solved = by_flags[0]["line_solved"].as_u64().unwrap();
    assert!(solved > 0 && solved < 500, "{}", by_flags[0]);
    for row in &lines {
        assert_eq!(
            row["path"][0],
            format!("{solved} of 500 line-solved"),
            "{row}"
        );
    }
    assert_eq!(lines[0]["executor"], "line-1");

    let answers = five_letter_words();
    let small: Vec<&str> = answers.lines().take(40).collect();
    let list = scratch("ron-wordle-jobs").join("small.txt");
    std::fs::write(&list, small.join("\n")).unwrap();
    let list = list.to_str().unwrap();
    let lists = ["--answers", list, "--guesses", list];
    let simulated = json_lines(
        &run(
            "wordle-simulate.ron",
            &format!(
                r#"Experiment(domain: Wordle(answers: {list:?}, guesses: {list:?}, job: Simulate()), instances: Inline(["greedy", {:?}]))"#,
                small[3]
            ),
        ),
        "wordle simulate",
    );
    for (row, first) in simulated.iter().zip([None, Some(small[3])]) {
        let mut args = vec!["--json", "wordle", "simulate"];
        args.extend_from_slice(&lists);
        if let Some(first) = first {
            args.extend_from_slice(&["--first", first]);
        }
        let by_flags = json_lines(&frontier(&args), "wordle simulate flags");
        assert_eq!(row["cost"], by_flags[0]["total"], "{row}");
        assert_eq!(row["path"][0], by_flags[0]["first"]);
    }
    let swept = json_lines(
        &run(
            "wordle-sweep.ron",
            &format!(
                r#"Experiment(domain: Wordle(answers: {list:?}, guesses: {list:?}, job: Sweep(threads: 2, margin: 2)), instances: Inline(["all", "every:3"]))"#
            ),
        ),
        "wordle sweep",
    );
    let mut args = vec![
        "--json",
        "wordle",
        "sweep",
        "--threads",
        "2",
        "--margin",
        "2",
    ];
    args.extend_from_slice(&lists);
    let by_flags = json_lines(&frontier(&args), "wordle sweep flags");
    assert_eq!(swept[0]["cost"], by_flags[0]["best"]);
    assert_eq!(swept[0]["status"], "optimal");
    let leaders: Vec<String> = by_flags[0]["leaders"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| format!("{} {}", l["guess"].as_str().unwrap(), l["total"]))
        .collect();
    assert_eq!(swept[0]["path"], serde_json::json!(leaders));
    let ranked = json_lines(
        &run(
            "wordle-bench.ron",
            &format!(
                r#"Experiment(domain: Wordle(answers: {list:?}, guesses: {list:?}, job: Bench(threads: 1, repeat: 1)), instances: Inline(["all"]))"#
            ),
        ),
        "wordle bench",
    );
    let mut args = vec!["--json", "wordle", "bench", "--repeat", "1"];
    args.extend_from_slice(&lists);
    let by_flags = json_lines(&frontier(&args), "wordle bench flags");
    assert_eq!(ranked[0]["path"][0], by_flags[0]["best"]);
    assert!(ranked[0]["value"].as_f64().unwrap() > 0.0);
    // A sample's best is no better than the whole sweep's.
    assert!(swept[1]["cost"].as_u64() >= swept[0]["cost"].as_u64());
    fails_with(
        &run(
            "wordle-sweep-bad.ron",
            &format!(
                r#"Experiment(domain: Wordle(answers: {list:?}, guesses: {list:?}, job: Sweep()), instances: Inline(["most"]))"#
            ),
        ),
        "a sweep's instance is `all` or `every:N`",
    );
}

/// Random mazes from RON: every executor finds the same cost on each, and
/// a size that is not a maze side is refused.
#[test]
fn random_mazes_run_from_ron_with_equal_costs_on_every_executor() {
    let path = write_config(
        "grid-random.ron",
        r#"Experiment(domain: Grid(), instances: Random(size: 14, count: 6, seed: 5), executors: [Astar, Hda(threads: 2), Ida(threads: 2)], limits: (max_seconds: Some(20.0)))"#,
    );
    let rows = json_lines(
        &frontier(&["run", "--json", path.to_str().unwrap()]),
        "random mazes",
    );
    assert_eq!(rows.len(), 18);
    for maze in rows.chunks(3) {
        assert_eq!(maze[0]["cost"], maze[1]["cost"], "{}", maze[0]);
        assert_eq!(maze[0]["cost"], maze[2]["cost"], "{}", maze[0]);
    }
    assert!(
        rows.iter().any(|r| r["cost"].is_number()),
        "no maze had a path"
    );
    let path = write_config(
        "grid-random-bad.ron",
        r#"Experiment(domain: Grid(), instances: Random(size: 1, count: 1, seed: 5))"#,
    );
    fails_with(
        &frontier(&["run", path.to_str().unwrap()]),
        "a random maze's size is its side",
    );
}

#[cfg(not(feature = "mpi"))]
#[test]
fn mpi_hda_without_the_mpi_feature_says_how_to_build_it() {
    let out = frontier(&["solve", "--executor", "mpi-hda", "grid", "S.G"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("--features mpi"), "{}", stderr(&out));
    let config = write_config(
        "mpi-without-feature.ron",
        "Experiment(domain: Grid(), instances: Inline([\"S.G\"]), executors: [MpiHda(batch: 8)])",
    );
    let out = frontier(&["run", config.to_str().unwrap()]);
    assert!(stderr(&out).contains("--features mpi"), "{}", stderr(&out));
    if frontier_core::gpu::device_count().is_ok_and(|n| n > 0) {
        let out = frontier(&[
            "solve",
            "--executor",
            "mpi-gpu",
            "tiles",
            "1 2 3 4 5 6 0 7 8",
        ]);
        assert!(stderr(&out).contains("--features mpi"), "{}", stderr(&out));
    }
}

#[test]
fn mpi_hda_refuses_threads() {
    let out = frontier(&[
        "solve",
        "--executor",
        "mpi-hda",
        "--threads",
        "2",
        "grid",
        "S.G",
    ]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("--threads applies to"),
        "{}",
        stderr(&out)
    );
}

/// Resume matches rows by the planned executor, so it skips finished rows
/// in domains whose rows name the method they chose (`cdcl`, `line-2`,
/// `simulate`, `score`), in CSV and JSON files alike; files without the
/// planned executor are refused.
#[test]
fn resume_skips_finished_rows_in_domains_that_name_their_own_method() {
    let index = need!("nonogram/INDEX.tsv");
    need!("boggle/enable2k.txt");
    let answers = five_letter_words();
    let dir = scratch("resume-domains");
    let list = dir.join("small.txt");
    let small: Vec<&str> = answers.lines().take(30).collect();
    std::fs::write(&list, small.join("\n")).unwrap();
    let experiments = [
        (
            "nonogram",
            format!(
                r#"domain: Nonogram(method: "cdcl", solutions: 2), instances: File(path: {index:?}, ids: Some(["dom-05", "rand-30x30-d50-s1"]))"#
            ),
        ),
        (
            "nonogram-bench",
            r#"domain: Nonogram(job: Bench(count: 200, size: "12x10")), instances: Inline(["9"]), grid: {"threads": [1, 2]}"#.to_string(),
        ),
        (
            "wordle-simulate",
            format!(
                r#"domain: Wordle(answers: {list:?}, guesses: {list:?}, job: Simulate()), instances: Inline(["greedy", {:?}])"#,
                small[3],
                list = list.display().to_string()
            ),
        ),
        (
            "boggle",
            r#"domain: Boggle(), instances: Inline(["perslatgsineters", "abcdefghijklmnop"])"#
                .to_string(),
        ),
    ];
    for (name, body) in &experiments {
        for ext in ["csv", "json"] {
            let file = dir.join(format!("{name}.{ext}"));
            let config = write_config(
                &format!("resume-{name}-{ext}.ron"),
                &format!(
                    "Experiment({body}, output: Some({:?}))",
                    file.display().to_string()
                ),
            );
            let run = |extra: &[&str]| {
                let mut args = vec!["run", "--json", config.to_str().unwrap()];
                args.extend(extra);
                let out = frontier(&args);
                assert!(out.status.success(), "{name}.{ext}: {}", stderr(&out));
                stdout(&out).lines().count()
            };
            let rows = run(&[]);
            assert_eq!(rows, 2, "{name}.{ext}");
            let written = std::fs::read_to_string(&file).unwrap();
            assert_eq!(run(&["--resume"]), 0, "{name}.{ext}: every row was done");
            assert_eq!(std::fs::read_to_string(&file).unwrap(), written);
            // The last row cut off mid-write runs again, and only it.
            std::fs::write(&file, &written[..written.len() - 5]).unwrap();
            assert_eq!(run(&["--resume"]), 1, "{name}.{ext}: the cut row");
            assert_eq!(
                std::fs::read_to_string(&file).unwrap().lines().count(),
                written.lines().count(),
                "{name}.{ext}"
            );
        }
    }
    // Files of an older version.
    let old_json = dir.join("old.json");
    std::fs::write(
        &old_json,
        "{\"instance\":\"1\",\"executor\":\"astar\",\"params\":\"\"}\n",
    )
    .unwrap();
    let old_csv = dir.join("old.csv");
    std::fs::write(&old_csv, "instance,executor,params,status\n").unwrap();
    // Both name no experiment on their first line: refused, never mixed.
    for (old, message) in [
        (&old_json, "its first line names no experiment"),
        (&old_csv, "its first line names no experiment"),
    ] {
        let config = write_config(
            "resume-old.ron",
            &format!(
                r#"Experiment(domain: Grid(), instances: Inline(["S.#/..G"]), output: Some({:?}))"#,
                old.display().to_string()
            ),
        );
        fails_with(
            &frontier(&["run", "--resume", config.to_str().unwrap()]),
            message,
        );
    }
}

#[test]
fn retry_cut_reruns_only_the_rows_a_limit_cut_under_the_new_limits() {
    let dir = scratch("retry-cut");
    let executors = format!(
        "Astar, Ida(threads: 1, checkpoint: Some({:?}))",
        dir.join("checkpoints").display().to_string()
    );
    let experiment_of = |executors: &str, max_expanded: u64, file: &std::path::Path| {
        format!(
            r#"Experiment(
                domain: Tiles(heuristic: "manhattan"),
                instances: Inline(["8 6 7 2 5 4 3 0 1", "5 10 14 4 6 12 11 1 9 0 15 7 13 2 8 3", "0 9 12 4 5 3 2 8 10 1 7 6 11 14 13 15"]),
                executors: [{executors}],
                limits: (max_expanded: Some({max_expanded})),
                output: Some({:?}),
            )"#,
            file.display().to_string()
        )
    };
    let experiment =
        |max_expanded: u64, file: &std::path::Path| experiment_of(&executors, max_expanded, file);
    for ext in ["csv", "json"] {
        let file = dir.join(format!("rows.{ext}"));
        let tight = write_config(&format!("tight-{ext}.ron"), &experiment(20_000, &file));
        let run = |config: &PathBuf, extra: &[&str]| {
            let mut args = vec!["run", "--json", config.to_str().unwrap()];
            args.extend(extra);
            frontier(&args)
        };
        // The higher limit from an edited config (CSV) or from the flag that
        // overrides the config's (JSON).
        let loose_config =
            write_config(&format!("loose-{ext}.ron"), &experiment(100_000_000, &file));
        let loose = |extra: &[&str]| {
            if ext == "csv" {
                run(&loose_config, extra)
            } else {
                let mut extra = extra.to_vec();
                extra.extend(["--max-expanded", "100000000"]);
                run(&tight, &extra)
            }
        };
        let statuses = |text: &str| -> Vec<String> {
            text.lines()
                .filter(|line| !line.starts_with('#') && !line.starts_with("instance,"))
                .skip(usize::from(ext == "json"))
                .map(|line| {
                    ["optimal", "expansion limit"]
                        .into_iter()
                        .find(|s| line.contains(s))
                        .unwrap_or("other")
                        .to_string()
                })
                .collect()
        };
        assert!(run(&tight, &[]).status.success());
        let first = std::fs::read_to_string(&file).unwrap();
        // The 8-puzzle is solved by both; the 15-puzzles need more.
        assert_eq!(
            statuses(&first),
            [
                "optimal",
                "optimal",
                "expansion limit",
                "expansion limit",
                "expansion limit",
                "expansion limit"
            ],
            "{ext}"
        );
        // Other limits are another experiment for --resume alone.
        let refused = loose(&["--resume"]);
        fails_with(&refused, "--resume --retry-cut");
        assert_eq!(std::fs::read_to_string(&file).unwrap(), first);
        fails_with(&loose(&["--retry-cut"]), "--resume");
        // A retry of A*'s rows alone (as a retry killed before IDA*'s would
        // be): IDA*'s cut rows stay in the file, unchanged, until their own
        // rows replace them.
        let astar_only = write_config(
            &format!("astar-{ext}.ron"),
            &experiment_of("Astar", 100_000_000, &file),
        );
        let partial = run(&astar_only, &["--resume", "--retry-cut"]);
        assert!(partial.status.success(), "{}", stderr(&partial));
        let astar_rows: Vec<serde_json::Value> = stdout(&partial)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(astar_rows.len(), 2, "{ext}");
        let midway = std::fs::read_to_string(&file).unwrap();
        let ida_cut: Vec<&str> = first
            .lines()
            .filter(|l| l.contains("expansion limit") && l.contains("ida"))
            .collect();
        assert_eq!(ida_cut.len(), 2, "{ext}");
        for row in &ida_cut {
            assert!(midway.contains(row), "{ext}: {row} lost by a partial retry");
        }
        assert_eq!(
            statuses(&midway),
            [
                "optimal",
                "optimal",
                "expansion limit",
                "expansion limit",
                "optimal",
                "optimal"
            ],
            "{ext}"
        );
        // A plain resume now reads the file as it is (no row twice) and
        // runs nothing: the file's limits are the loose ones.
        let resumed = loose(&["--resume"]);
        assert!(resumed.status.success(), "{}", stderr(&resumed));
        assert_eq!(stdout(&resumed).lines().count(), 0, "{ext}");
        // The two cut rows left run again, and only they.
        let retried = loose(&["--resume", "--retry-cut"]);
        assert!(retried.status.success(), "{}", stderr(&retried));
        let rows: Vec<serde_json::Value> = astar_rows
            .into_iter()
            .chain(
                stdout(&retried)
                    .lines()
                    .map(|l| serde_json::from_str(l).unwrap()),
            )
            .collect();
        assert_eq!(rows.len(), 4, "{ext}");
        // Two executors that share no search code agree on each board (A*'s
        // rows first, then IDA*'s, board by board).
        let costs: Vec<u64> = rows.iter().map(|r| r["cost"].as_u64().unwrap()).collect();
        assert!(
            costs[0] == costs[2] && costs[1] == costs[3],
            "{ext}: {costs:?}"
        );
        let after = std::fs::read_to_string(&file).unwrap();
        assert_eq!(statuses(&after), ["optimal"; 6], "{ext}");
        // The finished rows stay as they were; the first line records the
        // limits the file's rows now answer to.
        let finished: Vec<&str> = first
            .lines()
            .filter(|l| l.contains("\"optimal\"") || l.contains(",optimal,"))
            .collect();
        assert_eq!(finished.len(), 2, "{ext}");
        for row in finished {
            assert!(after.contains(row), "{ext}: {row}");
        }
        assert!(
            after.lines().next().unwrap().contains("Some(100000000)"),
            "{ext}"
        );
        // Nothing is cut any more: a second retry runs nothing.
        let again = loose(&["--resume", "--retry-cut"]);
        assert!(again.status.success(), "{}", stderr(&again));
        assert_eq!(stdout(&again).lines().count(), 0);
        assert_eq!(std::fs::read_to_string(&file).unwrap(), after);
    }
}

/// An anytime row that a limit stopped with its best solution so far is
/// `bounded (expansion limit)`, not `bounded`: `--retry-cut` runs it
/// again, and with room to finish it proves the optimum.
#[test]
fn retry_cut_reruns_a_solution_a_limit_stopped() {
    let dir = scratch("retry-bounded");
    let file = dir.join("rows.csv");
    let config = write_config(
        "retry-bounded.ron",
        &format!(
            r#"Experiment(
                domain: Tiles(heuristic: "manhattan"),
                instances: Inline(["5 10 14 4 6 12 11 1 9 0 15 7 13 2 8 3"]),
                executors: [Astar],
                weight: "greedy",
                anytime: true,
                limits: (max_expanded: Some(3000)),
                output: Some({:?}),
            )"#,
            file.display().to_string()
        ),
    );
    let path = config.to_str().unwrap();
    let first = frontier(&["run", "--json", path]);
    assert!(first.status.success(), "{}", stderr(&first));
    let row: serde_json::Value = serde_json::from_str(stdout(&first).trim()).unwrap();
    assert_eq!(row["status"], "bounded (expansion limit)", "{row}");
    let (cost, lower) = (
        row["cost"].as_u64().unwrap(),
        row["lower_bound"].as_u64().unwrap(),
    );
    assert!(lower < cost, "{row}");
    // A plain resume keeps it; a retry with room proves the optimum.
    let resumed = frontier(&["run", "--json", path, "--resume"]);
    assert_eq!(stdout(&resumed).lines().count(), 0, "{}", stderr(&resumed));
    let retried = frontier(&[
        "run",
        "--json",
        path,
        "--resume",
        "--retry-cut",
        "--max-expanded",
        "100000000",
    ]);
    assert!(retried.status.success(), "{}", stderr(&retried));
    let row: serde_json::Value = serde_json::from_str(stdout(&retried).trim()).unwrap();
    assert_eq!(row["status"], "optimal", "{row}");
    let optimum = row["cost"].as_u64().unwrap();
    assert!(
        lower <= optimum && optimum <= cost,
        "{lower} ≤ {optimum} ≤ {cost}"
    );
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(!text.contains("bounded"), "{text}");
}

/// A 2×1 nonogram with one solution (`#.`) that line solving finds, written
/// to a scratch folder of its own; its path.
fn two_cell_nonogram(folder: &str) -> String {
    let path = scratch(folder).join("two.non");
    std::fs::write(&path, "width 2\nheight 1\nrows\n1\ncolumns\n1\n0\n").unwrap();
    path.to_string_lossy().into_owned()
}

/// Time limits are finite and not negative wherever they are given: a
/// flag, a RON limit, a job's own limit. NaN stopped a search at once
/// (a solvable nonogram came out `unknown`) and `inf` panicked.
#[test]
fn seconds_that_are_not_a_finite_count_are_refused_everywhere() {
    let puzzle = two_cell_nonogram("seconds");
    let puzzle = puzzle.as_str();
    for flag in ["nan", "inf", "-1"] {
        let seconds = format!("--max-seconds={flag}");
        fails_with(
            &frontier(&["nonogram", "solve", puzzle, &seconds]),
            "is not a number of seconds",
        );
        fails_with(
            &frontier(&["solve", &seconds, "grid", "S.G"]),
            "is not a number of seconds",
        );
    }
    fails_with(
        &frontier(&["wordle", "sweep", "--seconds", "NaN"]),
        "is not a number of seconds",
    );
    // Beyond what a clock holds is no limit, not a panic.
    let far = frontier(&["nonogram", "solve", puzzle, "--max-seconds", "1e300"]);
    assert!(far.status.success(), "{}", stderr(&far));
    assert!(stdout(&far).contains("unique"), "{}", stdout(&far));
    for (name, config) in [
        (
            "limit",
            r#"Experiment(domain: Grid(), instances: Inline(["S.G"]), limits: (max_seconds: Some(-3.0)))"#,
        ),
        (
            "anneal",
            r#"Experiment(domain: Boggle(job: Anneal(max_seconds: Some(inf))), instances: Inline(["1"]))"#,
        ),
    ] {
        let path = write_config(&format!("seconds-{name}.ron"), config);
        fails_with(
            &frontier(&["run", path.to_str().unwrap()]),
            "is not a number of seconds (finite, 0 or more)",
        );
    }
}

/// Memory limits take units (`4G` = 4 GiB, `4GB` = 4·10^9) and refuse
/// what is not a size (`--max-memory 1G` was refused with "invalid digit
/// found in string"); the limit a run went under is recorded in its file.
/// A results file must be named for the format it is written in:
/// `results.tsv` was written as CSV.
#[test]
fn memory_limits_take_units_and_results_files_their_format_s_name() {
    let dir = scratch("memory-units");
    let config = write_config(
        "memory-units.ron",
        r#"Experiment(domain: Grid(), instances: Inline(["S.G"]))"#,
    );
    let config = config.to_str().unwrap();
    let csv = dir.join("rows.csv");
    let _ = std::fs::remove_file(&csv);
    for (flag, bytes) in [("3G", 3u64 << 30), ("3GB", 3_000_000_000)] {
        let out = frontier(&[
            "run",
            config,
            "--max-memory",
            flag,
            "--output",
            csv.to_str().unwrap(),
            "--overwrite",
        ]);
        assert!(out.status.success(), "{flag}: {}", stderr(&out));
        let text = std::fs::read_to_string(&csv).unwrap();
        assert!(
            text.contains(&format!("max_memory_bytes: Some({bytes})")),
            "{flag}: {text}"
        );
    }
    for args in [
        &["run", config, "--max-memory", "1X"][..],
        &["solve", "--max-memory", "-", "grid", "S.G"],
    ] {
        fails_with(
            &frontier(args),
            "is not a number of bytes (e.g. 4000000000, 512M",
        );
    }
    for name in ["rows.tsv", "rows.txt", "rows"] {
        let path = dir.join(name);
        fails_with(
            &frontier(&["run", config, "--output", path.to_str().unwrap()]),
            "name a results file .csv, or .json or .jsonl",
        );
        assert!(!path.exists(), "{name} was written");
    }
}

/// Thread counts are refused before any thread starts: `--threads 100000`
/// spent minutes spawning HDA*'s workers and their outboxes, and made the
/// nonogram portfolio abort. HDA* and IDA* need at least one worker.
#[test]
fn thread_counts_out_of_range_are_refused_before_any_thread_starts() {
    let puzzle = two_cell_nonogram("threads");
    let puzzle = puzzle.as_str();
    let started = std::time::Instant::now();
    for executor in ["hda", "ida"] {
        for threads in ["0", "100000"] {
            fails_with(
                &frontier(&[
                    "solve",
                    "--executor",
                    executor,
                    "--threads",
                    threads,
                    "grid",
                    "S.G",
                ]),
                &format!("{executor}: threads {threads}: give 1 to 4096"),
            );
        }
    }
    for method in ["hda", "portfolio"] {
        let out = frontier(&[
            "nonogram",
            "solve",
            puzzle,
            "--method",
            method,
            "--threads",
            "100000",
        ]);
        fails_with(&out, "threads 100000");
        fails_with(&out, "4096");
    }
    fails_with(
        &frontier(&["wordle", "sweep", "--threads", "100000"]),
        "--threads 100000: at most 4096",
    );
    // A batch is room kept for every other worker: 10^12 aborted on
    // allocation.
    for (name, executor, message) in [
        (
            "threads",
            "Hda(threads: 5000)",
            "hda: threads 5000: give 1 to 4096",
        ),
        (
            "batch",
            "Hda(threads: 2, batch: 1000000000000)",
            "hda: batch 1000000000000: give 1 to 1048576 states",
        ),
    ] {
        let config = write_config(
            &format!("{name}.ron"),
            &format!(
                r#"Experiment(domain: Grid(), instances: Inline(["S.G"]), executors: [{executor}])"#
            ),
        );
        fails_with(&frontier(&["run", config.to_str().unwrap()]), message);
    }
    assert!(started.elapsed() < std::time::Duration::from_secs(30));
}

/// Experiment fields that would run nothing, run once where more was
/// asked, or exhaust the memory before the first search are refused with
/// the place in the file: `repeat: 0` ran once, `executors: []` printed an
/// empty table, `repeat: 1000000000` panicked.
#[test]
fn experiments_that_would_run_nothing_or_too_much_are_refused() {
    for (name, body, message) in [
        (
            "repeat-0",
            r#"instances: Inline(["S.G"]), repeat: 0"#,
            ".ron:1:64: repeat: 0: give 1 to 1000 runs of each row",
        ),
        (
            "repeat-huge",
            r#"instances: Inline(["S.G"]), repeat: 1000000000"#,
            "repeat: 1000000000: give 1 to 1000",
        ),
        (
            "no-executors",
            r#"instances: Inline(["S.G"]), executors: []"#,
            "executors: the list is empty",
        ),
        (
            "random-huge",
            r#"instances: Random(size: 10, count: 1000000000000)"#,
            "Random: count 1000000000000: at most 1000000 instances",
        ),
    ] {
        let config = write_config(
            &format!("{name}.ron"),
            &format!("Experiment(domain: Grid(), {body})"),
        );
        fails_with(&frontier(&["run", config.to_str().unwrap()]), message);
    }
}

/// Commands asked to list or repeat nothing are refused, not run:
/// `wordle next --top 0` printed a header alone, `boggle anneal --keep 0`
/// printed one board, and `wordle bench --repeat 0` timed one run.
#[test]
fn lists_of_nothing_are_refused() {
    for (args, message) in [
        (
            &["wordle", "next", "--top", "0"][..],
            "--top 0: list at least one guess",
        ),
        (
            &["boggle", "anneal", "--keep", "0", "--steps", "10"],
            "keep 0: report at least one board",
        ),
        (
            &["wordle", "bench", "--repeat", "0"],
            "repeat 0: give 1 or more repetitions",
        ),
    ] {
        fails_with(&frontier(args), message);
    }
}

/// Benchmarks refuse what they cannot measure: no boards or puzzles, more
/// than the memory holds, a density over 100% (which ran, reporting "150%
/// filled").
#[test]
fn benchmarks_refuse_empty_huge_and_impossible_runs() {
    for (args, message) in [
        (
            &["boggle", "bench", "--count", "0"][..],
            "count 0: give 1 or more boards",
        ),
        (
            &["boggle", "bench", "--count", "100000000000"],
            "cells in all at most",
        ),
        (
            &["nonogram", "bench", "--count", "0"],
            "count 0: give 1 or more puzzles",
        ),
        (
            &["nonogram", "bench", "--density", "150"],
            "density 150: a share of cells, 0 to 100",
        ),
    ] {
        fails_with(&frontier(args), message);
    }
}

/// `wordle verify` on a three-answer game written both ways, and on trees
/// with one fault each: a guess outside the list, a missing branch, a
/// guess hard mode forbids, a limit, a wrong total, a text tree that is
/// not a tree. Every fault is named.
#[test]
fn wordle_verify_checks_trees_in_both_formats_and_names_each_fault() {
    use frontier_wordle::{feedback, pattern, Word};
    let dir = scratch("wordle-verify");
    let words = dir.join("words.txt");
    std::fs::write(&words, "crate\ncrane\ngrate\n").unwrap();
    let guesses = dir.join("guesses.txt");
    std::fs::write(&guesses, "tough\n").unwrap();
    let w = |t: &str| -> Word { t.parse().unwrap() };
    let fb = |g: &str, a: &str| pattern(feedback(w(g), w(a)));
    // crate first; crane next after its feedback; tough, then grate.
    let tree = |second: &str| {
        format!(
            r#"{{"guess": "crate", "next": {{"{}": {{"guess": "crane"}}, "{}": {{"guess": "{second}", "next": {{"{}": {{"guess": "grate"}}}}}}}}}}"#,
            fb("crate", "crane"),
            fb("crate", "grate"),
            fb(second, "grate"),
        )
    };
    let json = dir.join("tree.json");
    std::fs::write(&json, tree("tough")).unwrap();
    let verify = |path: &std::path::Path, extra: &[&str]| {
        let mut args = vec!["wordle", "verify", path.to_str().unwrap()];
        args.extend_from_slice(&["--answers", words.to_str().unwrap()]);
        args.extend_from_slice(&["--guesses", guesses.to_str().unwrap()]);
        args.extend_from_slice(extra);
        frontier(&args)
    };
    let ok = verify(&json, &["--total", "6"]);
    assert!(ok.status.success(), "{}", stderr(&ok));
    assert!(
        stdout(&ok).contains("3 answers in 6 guesses"),
        "{}",
        stdout(&ok)
    );
    fails_with(
        &verify(&json, &["--total", "5"]),
        "6 guesses in total, not 5",
    );
    fails_with(&verify(&json, &["--hard"]), "grate: guess 2, tough");
    fails_with(
        &verify(&json, &["--max-guesses", "2"]),
        "not found within 2 guesses",
    );
    std::fs::write(&json, tree("zzzzz")).unwrap();
    fails_with(&verify(&json, &[]), "zzzzz");
    std::fs::write(&json, tree("tough").replace(&fb("crate", "crane"), "yyyyy")).unwrap();
    fails_with(
        &verify(&json, &[]),
        "crane: after crate ggg.g the tree has no next guess",
    );
    std::fs::write(&json, "{\"guess\": \"crate\", \"nxt\": {}}").unwrap();
    fails_with(&verify(&json, &[]), "unknown field \"nxt\"");

    // The same tree as text: one line per answer, feedback in B/Y/G with
    // the guess's number, a line's leading spaces standing for the line
    // above. Hard mode's tree guesses grate second.
    let marks = |g: &str, a: &str| {
        fb(g, a)
            .chars()
            .map(|c| match c {
                'g' => 'G',
                'y' => 'Y',
                _ => 'B',
            })
            .collect::<String>()
    };
    let text = format!(
        "crate GGGGG1\ncrate {}1 crane GGGGG2\n      {}1 grate GGGGG2\n",
        marks("crate", "crane"),
        marks("crate", "grate"),
    );
    let plain = dir.join("tree.txt");
    std::fs::write(&plain, &text).unwrap();
    let ok = verify(&plain, &["--hard", "--total", "5"]);
    assert!(ok.status.success(), "{}", stderr(&ok));
    // Two lines that guess differently after the same feedback.
    let same = text.replacen(&marks("crate", "grate"), &marks("crate", "crane"), 1);
    std::fs::write(&plain, same).unwrap();
    fails_with(&verify(&plain, &[]), "not a tree");
    std::fs::write(&plain, text.replace("GGGGG2", "GGGGG3")).unwrap();
    fails_with(&verify(&plain, &[]), "numbered 3");
    fails_with(&verify(&dir.join("absent.json"), &[]), "absent.json");
}

/// Weighted, anytime and beam rows from a config and its grid: each row
/// names its order, carries its weight and proven bound, and agrees with
/// the stated optimum (between bound and cost); options an executor or a
/// domain does not run are refused in one line.
#[test]
fn weights_anytime_and_beams_run_from_configs_grids_and_flags() {
    let path = write_config(
        "order.ron",
        "Experiment(\n    domain: Tiles(heuristic: \"manhattan\"),\n    instances: Inline([\"8 6 7 2 5 4 3 0 1\", \"6 4 7 8 5 0 3 2 1\"]),\n    executors: [Astar, Hda(threads: 2)],\n    anytime: true,\n    grid: {\"weight\": [1.5, 3, \"greedy\"]},\n)\n",
    );
    let out = frontier(&["run", "--json", path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let rows: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 12);
    for row in &rows {
        let executor = row["executor"].as_str().unwrap();
        assert!(executor.ends_with("-anytime"), "{executor}");
        // 31 moves is the 8-puzzle's diameter, which both instances reach.
        assert_eq!(row["cost"], 31, "{row}");
        assert_eq!(row["lower_bound"], 31, "{row}");
        assert_eq!(row["status"], "optimal", "{row}");
        assert!(row["stats"]["improvements"]
            .as_array()
            .is_some_and(|i| !i.is_empty()));
    }
    let out = frontier(&[
        "solve",
        "tiles",
        "8 6 7 2 5 4 3 0 1",
        "--weight",
        "2",
        "--beam",
        "10",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let table = stdout(&out);
    assert!(
        table.contains("astar-beam10-w2") && table.contains("bound"),
        "{table}"
    );
    for (args, says) in [
        (
            vec!["--executor", "ida", "--weight", "2"],
            "--weight applies to --executor astar, hda",
        ),
        (vec!["--weight", "0.9"], "give a number from 1 to 1000"),
        (vec!["--beam", "4", "--anytime"], "not both"),
    ] {
        let mut all = vec!["solve", "tiles", "8 6 7 2 5 4 3 0 1"];
        all.extend(args);
        fails_with(&frontier(&all), says);
    }
    let path = write_config(
        "order-boggle.ron",
        "Experiment(\n    domain: Boggle(dict: \"@data/boggle/nonexistent.txt\"),\n    instances: Inline([\"abcdefghi\"]),\n    weight: 2.0,\n)\n",
    );
    let out = frontier(&["run", path.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("boggle solves with its own method"),
        "{}",
        stderr(&out)
    );
}

/// Korf's #1-#4 with Manhattan distance: greedy paths take detours.
const GREEDY_DETOURS: [&str; 4] = [
    "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3",
    "13 5 4 10 9 12 8 14 2 3 7 1 0 15 11 6",
    "14 7 8 2 13 11 10 4 9 12 5 0 3 6 1 15",
    "5 12 10 7 15 11 14 0 8 2 1 13 3 4 9 6",
];

/// Runs greedy A* on [`GREEDY_DETOURS`] with the post-search option `key`
/// (`shortcut`, `window`) at a narrow and a wide value, as a grid of a RON
/// config, and checks every row: named `astar-greedy-<suffix>…`, never
/// dearer than plain greedy, its path as long as its cost, its bound below
/// it, a shortening last in its anytime trace, the wide value never dearer
/// than the narrow one; then that bad values and executors are refused,
/// by flag and by config. Returns on how many boards the wide value
/// shortened the path.
fn post_search_option_rows(key: &str, suffix: &str, narrow: u32, wide: u32) -> usize {
    let path = write_config(
        &format!("{key}.ron"),
        &format!(
            "Experiment(\n    domain: Tiles(goal: Korf, heuristic: \"manhattan\"),\n    instances: Inline({GREEDY_DETOURS:?}),\n    weight: \"greedy\",\n    grid: {{\"{key}\": [{narrow}, {wide}]}},\n)\n"
        ),
    );
    let rows = json_lines(&frontier(&["run", "--json", path.to_str().unwrap()]), key);
    assert_eq!(rows.len(), 2 * GREEDY_DETOURS.len());
    let mut shorter = 0;
    for (board, pair) in GREEDY_DETOURS.iter().zip(rows.chunks(2)) {
        let out = frontier(&[
            "solve", "tiles", board, "--goal", "korf", "--json", "--weight", "greedy",
        ]);
        let plain = json_lines(&out, board)[0]["cost"].as_u64().unwrap();
        for row in pair {
            let executor = row["executor"].as_str().unwrap();
            assert!(
                executor.starts_with(&format!("astar-greedy-{suffix}")),
                "{executor}"
            );
            let cost = row["cost"].as_u64().unwrap();
            assert!(cost <= plain, "{row}");
            assert_eq!(row["path"].as_array().map(Vec::len), Some(cost as usize));
            assert!(row["lower_bound"].as_u64().unwrap() <= cost);
            if cost < plain {
                let trace = row["stats"]["improvements"].as_array().unwrap();
                assert_eq!(trace.last().unwrap()["cost"].as_u64(), Some(cost), "{row}");
            }
        }
        let wide = pair[1]["cost"].as_u64().unwrap();
        assert!(wide <= pair[0]["cost"].as_u64().unwrap());
        shorter += usize::from(wide < plain);
    }
    let flag = format!("--{key}");
    let says = format!("{key} must be a cost from 1");
    for (args, says) in [
        (vec![flag.as_str(), "0"], says.clone()),
        (
            vec!["--executor", "ida", flag.as_str(), "4"],
            format!("{flag} applies to --executor astar, hda"),
        ),
    ] {
        let mut all = vec!["solve", "tiles", GREEDY_DETOURS[0], "--goal", "korf"];
        all.extend(args);
        fails_with(&frontier(&all), &says);
    }
    let zero = write_config(
        &format!("{key}-zero.ron"),
        &format!("Experiment(domain: Pancake(), instances: Inline([\"3 1 2 5 4\"]), weight: \"greedy\", {key}: Some(0))\n"),
    );
    fails_with(&frontier(&["run", zero.to_str().unwrap()]), &says);
    shorter
}

/// Greedy solutions shortened by shortcuts (`--shortcut R`, RON
/// `shortcut`, a grid key): see [`post_search_option_rows`]; shortcuts of
/// 8 shorten at least two of the four.
#[test]
fn shortcuts_shorten_greedy_solutions_from_flags_and_configs() {
    let shorter = post_search_option_rows("shortcut", "sc", 2, 8);
    assert!(
        shorter >= 2,
        "shortcuts of 8 shortened {shorter} of 4 paths"
    );
}

/// Greedy solutions re-solved in windows (`--window L`, RON `window`, a
/// grid key): see [`post_search_option_rows`]; windows of 20 shorten at
/// least two of the four; a window as long as a pancake path finds A*'s
/// optimum.
#[test]
fn windows_re_solve_greedy_solutions_from_flags_and_configs() {
    let shorter = post_search_option_rows("window", "win", 8, 20);
    assert!(shorter >= 2, "windows of 20 shortened {shorter} of 4 paths");
    let stack = "7 3 9 1 12 5 10 2 11 4 8 6";
    let cost_of = |args: &[&str]| {
        let mut all = vec!["solve", "pancake", stack, "--json"];
        all.extend_from_slice(args);
        json_lines(&frontier(&all), stack)[0]["cost"]
            .as_u64()
            .unwrap()
    };
    let optimum = cost_of(&[]);
    let greedy = cost_of(&["--weight", "greedy"]);
    assert!(greedy > optimum, "greedy {greedy}, optimum {optimum}");
    let whole = greedy.to_string();
    assert_eq!(
        cost_of(&["--weight", "greedy", "--window", &whole]),
        optimum
    );
}

/// `frontier plot` draws cost and bound against time from the JSON lines of
/// an anytime run, and no such chart from rows without improvements.
#[test]
fn plot_draws_the_anytime_trace_of_json_results() {
    let dir = scratch("anytime-plot");
    // Runs a one-instance experiment with `extra` lines into `<name>.<ext>`,
    // plots it, and says whether the anytime chart was drawn.
    let run_and_plot = |name: &str, ext: &str, extra: &str| {
        let config = write_config(
            &format!("{name}.ron"),
            &format!("Experiment(\n    domain: Tiles(heuristic: \"manhattan\"),\n    instances: Inline([\"8 6 7 2 5 4 3 0 1\"]),\n{extra})\n"),
        );
        let results = dir.join(format!("{name}.{ext}"));
        let out = frontier(&[
            "run",
            config.to_str().unwrap(),
            "--output",
            results.to_str().unwrap(),
            "--overwrite",
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        let written = std::fs::read_to_string(&results).unwrap();
        assert!(written.starts_with('{'), "{ext}: not JSON lines: {written}");
        let out = frontier(&["plot", results.to_str().unwrap()]);
        assert!(out.status.success(), "{}", stderr(&out));
        dir.join(format!("{name}-anytime.png")).exists()
    };
    let anytime = "    weight: \"greedy\",\n    anytime: true,\n";
    assert!(run_and_plot("anytime", "json", anytime));
    // JSON lines under their other usual name, written and plotted as such.
    assert!(run_and_plot("anytime-lines", "jsonl", anytime));
    assert!(!run_and_plot("plain", "json", ""));
}

/// A 2x2 proof of two buckets: six classes, boards to find.
const BOGGLE_2X2_PROOF: [&str; 7] = [
    "prove",
    "--shape",
    "2x2",
    "--target",
    "15",
    "--buckets",
    "ae rst",
];

/// A 3x3 proof over few letters: under a second, tens of boards.
const BOGGLE_3X3_PROOF: [&str; 7] = [
    "prove",
    "--shape",
    "3x3",
    "--target",
    "300",
    "--buckets",
    "ae rst",
];

/// Buckets that leave letters out prove over the boards spelled with the
/// rest only: every report says so, since "no board scores N" would
/// otherwise read as a claim about every board.
#[test]
fn boggle_reports_name_the_letters_when_buckets_leave_some_out() {
    let dict = need!("boggle/enable2k.txt");
    let dir = scratch("boggle-partial-letters");
    let run = |args: &[&str]| {
        let mut all = vec!["boggle"];
        all.extend_from_slice(args);
        // `merge` reads results files only, no word list.
        if args[0] != "merge" {
            all.extend_from_slice(&["--dict", &dict]);
        }
        frontier(&all)
    };
    let summary = |out: &Output| {
        assert!(out.status.success(), "{}", stderr(out));
        stdout(out).lines().last().unwrap_or_default().to_string()
    };
    let json = |args: &[&str]| {
        json_lines(
            &frontier(&[&["--json", "boggle"][..], args, &["--dict", &dict]].concat()),
            "boggle --json",
        )
    };
    // BOGGLE_2X2_PROOF's buckets leave letters out; without them, every board.
    let partial = BOGGLE_2X2_PROOF;
    let whole = &BOGGLE_2X2_PROOF[..5];
    let certificate = dir.join("c.txt").to_str().unwrap().to_string();
    let results = dir.join("r.txt").to_str().unwrap().to_string();
    let line = summary(&run(
        &[&partial[..], &["--certificate", &certificate]].concat()
    ));
    assert!(
        line.contains("of 2x2 over the letters aerst scoring at least 15"),
        "{line}"
    );
    summary(&run(&[&partial[..], &["--results", &results]].concat()));
    let line = summary(&run(&["verify", &certificate]));
    assert!(
        line.contains("of 2x2 over the letters aerst scoring"),
        "{line}"
    );
    let line = summary(&run(&["merge", &results]));
    assert!(
        line.contains("of 2x2 over the letters aerst once"),
        "{line}"
    );
    let line = summary(&run(&[whole, &["--letters", "aerst"]].concat()));
    assert!(
        line.contains("of 2x2 over the letters aerst scoring"),
        "{line}"
    );
    // A sample's or a share's line says whose boards it lists.
    for (extra, scope) in [
        (
            ["--sample", "2"],
            "scoring at least 15 in the 2 sampled top-level classes (of 6)",
        ),
        (
            ["--share", "1/2"],
            "scoring at least 15 in share 1/2 (up to symmetry)",
        ),
    ] {
        let out = run(&[&partial[..], &extra].concat());
        let text = stdout(&out);
        let line = text.lines().find(|l| l.contains("board(s)"));
        assert!(line.is_some_and(|l| l.contains(scope)), "{text}");
    }
    let line = summary(&run(whole));
    assert!(
        line.contains("of 2x2 scoring at least 15 (up to symmetry)"),
        "{line}"
    );
    assert!(!line.contains("over the letters"), "{line}");
    // A target too many boards reach is refused, the estimate made over
    // the proof's own letters.
    let refused = run(&[
        "prove",
        "--shape",
        "3x3",
        "--target",
        "20",
        "--buckets",
        "ae rst",
    ]);
    fails_with(&refused, "random boards over the letters aerst reach it");
    let refused = run(&["prove", "--shape", "3x3", "--target", "150"]);
    fails_with(
        &refused,
        " of 20000 random boards reach it, so the proof would list",
    );
    let everything = "abcdefghijklmnopqrstuvwxyz";
    let refused = run(&[
        "prove",
        "--shape",
        "3x3",
        "--target",
        "5",
        "--letters",
        everything,
    ]);
    fails_with(&refused, "raise --target");
    // The label matters: the whole proof finds boards with other letters,
    // and every board over aerst among its own.
    let (some, all) = (json(&partial), json(whole));
    assert_eq!(some[0]["letters"], "aerst");
    assert_eq!(all[0]["letters"], "abcdefghijklmnopqrstuvwxyz");
    let boards = |v: &serde_json::Value| -> Vec<String> {
        v["boards"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b[0].to_string())
            .collect()
    };
    let (some, all) = (boards(&some[0]), boards(&all[0]));
    assert!(
        some.iter().all(|b| all.contains(b)),
        "{some:?} not all in {all:?}"
    );
    assert!(
        all.iter()
            .any(|b| b.trim_matches('"').chars().any(|c| !"aerst".contains(c))),
        "{all:?}"
    );
}

#[test]
fn boggle_proofs_resume_from_results_files_and_shares_merge_into_the_whole() {
    let dict = need!("boggle/enable2k.txt");
    let dir = scratch("boggle-results");
    let boggle = |args: &[&str]| {
        let mut all = vec!["--json", "boggle"];
        all.extend_from_slice(args);
        all.extend_from_slice(&["--dict", &dict]);
        frontier(&all)
    };
    let args = BOGGLE_3X3_PROOF;
    let whole = json_lines(&boggle(&args), "boggle prove");
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let (first, second) = (path("share1.txt"), path("share2.txt"));
    let share = |k: &str, file: &str, extra: &[&str]| {
        let mut all = args.to_vec();
        all.extend_from_slice(&["--share", k, "--results", file]);
        all.extend_from_slice(extra);
        boggle(&all)
    };
    // Share 1 cut short by a time limit, then resumed: the classes of the
    // first run are not searched again, and the two runs add up.
    let cut = share("1/2", &first, &["--max-seconds", "0.02"]);
    assert!(!cut.status.success(), "a proof cut short says so");
    let written = std::fs::read_to_string(&first).unwrap();
    let before = written.matches("\nclass ").count();
    // A class line cut in half by a crash is dropped on resume.
    std::fs::write(&first, format!("{written}class 10")).unwrap();
    let resumed = json_lines(&share("1/2", &first, &["--resume"]), "resume");
    assert_eq!(resumed[0]["complete"], true);
    assert_eq!(resumed[0]["classes_resumed"], before);
    let after = std::fs::read_to_string(&first).unwrap();
    let classes = after.matches("\nclass ").count() as u64;
    assert_eq!(
        classes,
        before as u64 + resumed[0]["classes"].as_u64().unwrap()
    );
    // Starting over an existing file, or resuming another proof's, is refused.
    fails_with(&share("1/2", &first, &[]), "exists: resume it");
    fails_with(&share("2/2", &first, &["--resume"]), "different share");
    fails_with(
        &share("2/2", &path("none.txt"), &["--resume"]),
        "nothing to resume",
    );
    fails_with(&share("2/2", dir.to_str().unwrap(), &[]), "is a directory");
    fails_with(
        &share("2/2", &path("sampled.txt"), &["--sample", "9"]),
        "splits the sample, not the proof",
    );
    fails_with(
        &boggle(&["prove", "--target", "400", "--resume"]),
        "required arguments were not provided",
    );
    // One share alone does not cover the proof; both do, once.
    let merge = |files: &[&str]| {
        let mut all = vec!["--json", "boggle", "merge"];
        all.extend_from_slice(files);
        frontier(&all)
    };
    fails_with(&merge(&[&first]), "missing");
    let done = share("2/2", &second, &[]);
    assert!(done.status.success(), "{}", stderr(&done));
    fails_with(&merge(&[&first, &second, &first]), "twice");
    let merged = json_lines(&merge(&[&first, &second]), "boggle merge");
    assert_eq!(merged[0]["boards"], whole[0]["boards"]);
    assert_eq!(merged[0]["classes"], whole[0]["classes"]);
    assert_eq!(merged[0]["complete"], true);
    // Shares of shares: 2/4 and 4/4 hold every other class, share 2/2's,
    // and `merge --share 2/2` checks that they cover it as share 2/2's
    // own file does, with its boards; other shares' classes are refused.
    let merge_share = |share: &str, files: &[&str]| {
        let mut all = vec!["--json", "boggle", "merge", "--share", share];
        all.extend_from_slice(files);
        frontier(&all)
    };
    let half = json_lines(&merge_share("2/2", &[&second]), "merge --share");
    assert_eq!(half[0]["share"], "2/2");
    assert_eq!(half[0]["complete"], false);
    let (quarter2, quarter4) = (path("quarter2.txt"), path("quarter4.txt"));
    assert!(share("2/4", &quarter2, &[]).status.success());
    fails_with(&merge_share("2/2", &[&quarter2]), "missing");
    assert!(share("4/4", &quarter4, &[]).status.success());
    let quarters = json_lines(
        &merge_share("2/2", &[&quarter2, &quarter4]),
        "merge --share",
    );
    assert_eq!(quarters[0]["classes"], half[0]["classes"]);
    assert_eq!(quarters[0]["boards"], half[0]["boards"]);
    fails_with(&merge_share("1/2", &[&quarter2]), "not in share 1/2");
    fails_with(&merge_share("3/2", &[&quarter2]), "expected K/N");
    // A results file of another proof does not merge with these.
    let other = path("other.txt");
    let mut all = vec![
        "prove",
        "--shape",
        "3x3",
        "--target",
        "350",
        "--buckets",
        "ae rst",
    ];
    all.extend_from_slice(&["--results", &other]);
    assert!(boggle(&all).status.success());
    fails_with(&merge(&[&first, &other]), "different target");
    std::fs::write(&other, "not a results file\n").unwrap();
    fails_with(&merge(&[&other]), "line 1: not a results file");
}

/// A dual search's row (`both`) against the board's own beam (`alone`) and
/// A*'s optimum: no longer than the beam nor shorter than the optimum, its
/// lower bound no smaller than the beam's nor above the optimum.
fn assert_dual_row_sound(
    alone: &serde_json::Value,
    both: &serde_json::Value,
    optimum: u64,
    board: &str,
) {
    let cost = |r: &serde_json::Value| r["cost"].as_u64().unwrap();
    let lower = |r: &serde_json::Value| r["stats"]["lower_bound"].as_u64().unwrap();
    assert!(
        cost(both) <= cost(alone) && cost(both) >= optimum,
        "{board}"
    );
    assert!(
        lower(both) >= lower(alone) && lower(both) <= optimum,
        "{board}"
    );
}

/// `--dual` searches each board (tiles, then a pancake stack), then its
/// dual instance, and keeps the shorter path: never longer than the
/// board's own beam, a lower bound never below the board's own and never
/// above A*'s optimum, the work of both searches counted; on the tiles
/// boards the dual's path is shorter once and its bound larger once, on
/// the stack it is shorter (replayed by the command, as every solution);
/// after A*'s proven optimum the dual is not searched (the same work as
/// without `--dual`); under MPI it is refused.
#[test]
fn a_dual_search_keeps_the_shorter_path_and_the_larger_bound() {
    let row = |board: &str, beam: &[&str], dual: &[&str]| -> serde_json::Value {
        let tiles = [&["tiles", "--goal", "korf"], dual, &[board]].concat();
        let out = frontier(&[&["solve", "--json"], beam, &tiles].concat());
        assert!(out.status.success(), "{board} {dual:?}: {}", stderr(&out));
        serde_json::from_str(stdout(&out).trim()).expect("one JSON row")
    };
    let (mut shorter, mut tighter) = (0, 0);
    for board in [
        "6 4 7 8 5 0 3 2 1",
        "8 6 7 2 5 4 3 0 1",
        "3x4: 4 1 2 3 5 0 6 7 8 9 10 11",
    ] {
        let astar = row(board, &[], &[]);
        let optimum = astar["cost"].as_u64().unwrap();
        let alone = row(board, &["--beam", "2"], &[]);
        let both = row(board, &["--beam", "2"], &["--dual"]);
        let cost = |r: &serde_json::Value| r["cost"].as_u64().unwrap();
        let lower = |r: &serde_json::Value| r["stats"]["lower_bound"].as_u64().unwrap();
        let expanded = |r: &serde_json::Value| r["stats"]["expanded"].as_u64().unwrap();
        let proven = row(board, &[], &["--dual"]);
        assert_eq!(
            (cost(&proven), expanded(&proven)),
            (optimum, expanded(&astar)),
            "{board}"
        );
        assert_dual_row_sound(&alone, &both, optimum, board);
        // A beam whose bound reached its cost has proven it: no dual.
        if lower(&alone) < cost(&alone) {
            assert!(expanded(&both) > expanded(&alone), "{board}");
        } else {
            assert_eq!(expanded(&both), expanded(&alone), "{board}");
        }
        shorter += usize::from(cost(&both) < cost(&alone));
        tighter += usize::from(lower(&both) > lower(&alone));
    }
    assert_eq!((shorter, tighter), (1, 1));
    // Pancakes: the same on a stack whose dual is shorter for a narrow beam.
    let stack = "5 2 9 1 7 3 10 4 8 6";
    let pancake = |extra: &[&str]| -> serde_json::Value {
        let out = frontier(&[&["solve", "--json"], extra, &["pancake", stack]].concat());
        assert!(out.status.success(), "{extra:?}: {}", stderr(&out));
        serde_json::from_str(stdout(&out).trim()).expect("one JSON row")
    };
    let optimum = pancake(&[])["cost"].as_u64().unwrap();
    let alone = pancake(&["--beam", "3"]);
    let out = frontier(&["solve", "--json", "--beam", "3", "pancake", "--dual", stack]);
    assert!(out.status.success(), "{}", stderr(&out));
    let both: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert!(both["cost"].as_u64() < alone["cost"].as_u64());
    assert!(both["cost"].as_u64().unwrap() >= optimum);
    let lower = both["stats"]["lower_bound"].as_u64().unwrap();
    assert!(lower >= alone["stats"]["lower_bound"].as_u64().unwrap() && lower <= optimum);
    // Under MPI each rank would judge the time left for the dual itself.
    let out = frontier(&["solve", "--executor", "mpi-hda", "pancake", "--dual", stack]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("--dual does not run under MPI"),
        "{}",
        stderr(&out)
    );
}

/// `--incumbent-beam` on `ida`, with and without `--rank-conflicts` (which
/// then ranks that beam): the 8-puzzle's optimum, the same as A*'s, and a
/// proven row; on an executor without a beam before it the flag is refused.
#[test]
fn ida_below_a_beam_keeps_astars_optimum_from_the_command_line() {
    let board = "8 6 7 2 5 4 3 0 1";
    let row = |executor: &[&str], tiles: &[&str]| -> serde_json::Value {
        let out = frontier(&[&["solve", "--json"], executor, &["tiles"], tiles, &[board]].concat());
        assert!(
            out.status.success(),
            "{executor:?} {tiles:?}: {}",
            stderr(&out)
        );
        serde_json::from_str(stdout(&out).trim()).expect("one JSON row")
    };
    let astar = row(&["--executor", "astar"], &[]);
    for tiles in [&[][..], &["--rank-conflicts"][..]] {
        let ida = row(&["--executor", "ida", "--incumbent-beam", "8"], tiles);
        assert_eq!(ida["cost"], astar["cost"], "{tiles:?}");
        assert_eq!(ida["status"], "optimal", "{tiles:?}");
    }
    let refused = frontier(&[
        "solve",
        "--executor",
        "hda",
        "--incumbent-beam",
        "8",
        "tiles",
        board,
    ]);
    assert!(!refused.status.success());
    assert!(stderr(&refused).contains("--incumbent-beam applies to --executor ida or gpu-ida"));
}

/// A goal board of one's own (`--goal` with tiles, RON `goal: Layout("…")`):
/// the textbook 8-puzzle with the spiral goal in its five moves, the same
/// from a config, whose results record the goal as the config gave it; a
/// preset and `--dual` are refused with their reasons.
#[test]
fn a_goal_board_of_ones_own_from_flags_and_configs() {
    let spiral = "1 2 3 8 0 4 7 6 5";
    let out = frontier(&[
        "solve",
        "--json",
        "tiles",
        "--goal",
        spiral,
        "--heuristic",
        "1,2,3,4/5,6,7,8",
        "--reflect",
        "2 8 3 1 6 4 7 0 5",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let row: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(
        (row["cost"].as_u64(), row["status"].as_str()),
        (Some(5), Some("optimal"))
    );
    let results = scratch("layout").join("rows.csv");
    let config = write_config(
        "layout.ron",
        &format!(
            "Experiment(\n    domain: Tiles(goal: Layout(\"{spiral}\")),\n    instances: Inline([\"2 8 3 1 6 4 7 0 5\"]),\n    output: Some(\"{}\"),\n)\n",
            results.display()
        ),
    );
    let out = frontier(&["run", "--json", config.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let row: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(row["cost"].as_u64(), Some(5));
    let written = std::fs::read_to_string(&results).unwrap();
    assert!(
        written.contains(r#"goal=Layout(\"1 2 3 8 0 4 7 6 5\")"#),
        "{written}"
    );
    for (flags, reason) in [
        (
            &["--heuristic", "4-4"][..],
            "give the partition as tile lists",
        ),
        (
            &["--beam", "3", "--dual"][..],
            "--dual needs the goal's blank on a corner",
        ),
    ] {
        let args = [
            &["solve", "tiles", "--goal", spiral],
            flags,
            &["2 8 3 1 6 4 7 0 5"],
        ]
        .concat();
        let out = frontier(&args);
        assert!(!out.status.success(), "{flags:?}");
        assert!(stderr(&out).contains(reason), "{flags:?}: {}", stderr(&out));
    }
}

/// `--dual --dual-without-walk`: the dual whose goal keeps the board's
/// blank (a goal board of its own, with databases of its own): never longer
/// than the board's own beam nor below A*'s optimum, a lower bound between
/// the two, with Manhattan and with databases and their reflection;
/// without `--dual` it is refused.
#[test]
fn a_dual_without_the_walk_keeps_sound_paths_and_bounds() {
    let row = |board: &str, flags: &[&str]| -> serde_json::Value {
        let args = [
            &["solve", "--json", "tiles", "--goal", "korf"],
            flags,
            &[board],
        ]
        .concat();
        let out = frontier(&args);
        assert!(out.status.success(), "{board} {flags:?}: {}", stderr(&out));
        serde_json::from_str(stdout(&out).trim()).expect("one JSON row")
    };
    let cost = |r: &serde_json::Value| r["cost"].as_u64().unwrap();
    for board in [
        "6 4 7 8 5 0 3 2 1",
        "8 6 7 2 5 4 3 0 1",
        "3x4: 4 1 2 3 5 0 6 7 8 9 10 11",
    ] {
        for heuristic in [
            &["--heuristic", "manhattan"][..],
            &["--heuristic", "1,2,3,4/5,6,7,8", "--reflect"][..],
        ] {
            if board.starts_with("3x4") && heuristic.len() > 2 {
                continue; // the reflection needs a square board
            }
            let optimum = cost(&row(board, heuristic));
            let beam = [heuristic, &["--beam", "2"]].concat();
            let alone = row(board, &beam);
            let both = row(
                board,
                &[&beam[..], &["--dual", "--dual-without-walk"]].concat(),
            );
            assert_dual_row_sound(&alone, &both, optimum, board);
        }
    }
    let out = frontier(&["solve", "tiles", "--dual-without-walk", "1 2 3 4 5 6 7 0 8"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("give --dual too"), "{}", stderr(&out));
}
