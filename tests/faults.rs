//! Faults a user meets with kills, edited files and two runs at once: each
//! gives the right answer or a clear refusal, and nothing is lost. Every
//! instance here is inline or written by the test, so these run on a
//! fresh clone with no data beside it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn frontier(args: &[&str], cache: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_frontier"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("XDG_CACHE_HOME", cache)
        .output()
        .expect("the binary runs")
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("frontier-faults-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The run failed with one error line that names `text`.
fn refused(out: &Output, text: &str) {
    assert!(!out.status.success(), "expected a refusal naming {text:?}");
    let err = stderr(out);
    let errors: Vec<&str> = err.lines().filter(|l| l.starts_with("error")).collect();
    assert_eq!(errors.len(), 1, "{err}");
    assert!(errors[0].contains(text), "{err}");
}

/// A 24-puzzle that both goals can reach: 42 moves to the standard goal,
/// 64 to Korf's.
const BOTH_GOALS: &str = "0 1 2 8 4 7 3 9 15 5 6 11 12 13 14 21 23 22 19 10 16 17 18 24 20";

#[test]
fn an_ida_checkpoint_of_another_goal_or_edited_bound_is_refused_never_resumed() {
    let dir = scratch("ida");
    let cache = dir.join("cache");
    let ck = dir.join("ck");
    let solve = |goal: &str, extra: &[&str]| {
        let mut args = vec!["solve", "--json", "--executor", "ida", "--threads", "2"];
        args.extend_from_slice(&["--checkpoint", ck.to_str().unwrap()]);
        args.extend_from_slice(extra);
        args.extend_from_slice(&[
            "tiles",
            "--heuristic",
            "manhattan",
            "--goal",
            goal,
            BOTH_GOALS,
        ]);
        frontier(&args, &cache)
    };
    let stopped = solve("standard", &["--max-expanded", "100000"]);
    assert!(stopped.status.success(), "{}", stderr(&stopped));
    // The same start with the Korf goal has another optimum (64, where a
    // reused bound answered 64 for the standard goal before): refused.
    refused(&solve("korf", &[]), "goal: written Standard, now Korf");
    // Another heuristic: refused, naming it.
    let mut args = vec!["solve", "--executor", "ida", "--threads", "2"];
    args.extend_from_slice(&["--checkpoint", ck.to_str().unwrap()]);
    args.extend_from_slice(&["tiles", "--heuristic", "1,2/3,4", BOTH_GOALS]);
    refused(
        &frontier(&args, &cache),
        "heuristic: written manhattan, now 1,2/3,4",
    );
    // An edited bound fails the checksum.
    let file = std::fs::read_dir(&ck)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "json"))
        .unwrap();
    let text = std::fs::read_to_string(&file).unwrap();
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    let bound = value["bound"].as_u64().unwrap();
    let edited = text.replace(
        &format!("\"bound\":{bound}"),
        &format!("\"bound\":{}", bound + 2),
    );
    assert_ne!(edited, text);
    std::fs::write(&file, &edited).unwrap();
    refused(&solve("standard", &[]), "checksum does not match");
    std::fs::write(&file, &text).unwrap();
    // A second search on a directory in use fails at once.
    let held = frontier_core::files::try_lock(&ck.join(".lock")).unwrap();
    refused(
        &solve("standard", &[]),
        "another search is using this checkpoint directory",
    );
    drop(held);
    // The untouched checkpoint resumes to the true optimum.
    let done = solve("standard", &[]);
    assert!(done.status.success(), "{}", stderr(&done));
    let row: serde_json::Value =
        serde_json::from_str(String::from_utf8_lossy(&done.stdout).trim()).unwrap();
    assert_eq!(row["cost"], 42, "{row}");
    // No temporary file is left in the directory.
    let names: Vec<String> = std::fs::read_dir(&ck)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.ends_with(".tmp")), "{names:?}");
}

/// A config over three 15-puzzles with their optima stated in a TSV, A*
/// with Manhattan distance.
fn tiles_config(dir: &Path, goal: &str, output: &Path) -> PathBuf {
    let tsv = dir.join("three.tsv");
    std::fs::write(
        &tsv,
        "id\ttiles_standard_goal\toptimal_length\n\
         55\t5 10 14 4 6 12 11 1 9 0 15 7 13 2 8 3\t41\n\
         16\t0 9 12 4 5 3 2 8 10 1 7 6 11 14 13 15\t42\n\
         6\t3 12 0 6 11 14 5 8 1 10 13 4 7 15 9 2\t52\n",
    )
    .unwrap();
    let config = dir.join(format!("three-{goal}.ron"));
    std::fs::write(
        &config,
        format!(
            "Experiment(domain: Tiles(goal: {goal}, heuristic: \"manhattan\"), instances: File(path: {:?}), output: Some({:?}))",
            tsv.to_str().unwrap(),
            output.to_str().unwrap()
        ),
    )
    .unwrap();
    config
}

#[test]
fn results_files_are_never_wiped_mixed_or_shared() {
    let dir = scratch("results");
    let cache = dir.join("cache");
    for name in ["r.csv", "r.json"] {
        let output = dir.join(name);
        let config = tiles_config(&dir, "Standard", &output);
        let run = |config: &Path, extra: &[&str]| {
            let mut args = vec!["run", config.to_str().unwrap()];
            args.extend_from_slice(extra);
            frontier(&args, &cache)
        };
        let first = run(&config, &[]);
        assert!(first.status.success(), "{}", stderr(&first));
        let clean = std::fs::read_to_string(&output).unwrap();
        // --overwrite with nothing to overwrite is refused, not ignored.
        let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/demo.ron");
        refused(
            &run(&demo, &["--overwrite"]),
            "--overwrite needs an output file",
        );
        // A run that stopped before its first row left only the first
        // lines: the next run may write there without a flag.
        let header_only: String = clean
            .lines()
            .take(if name.ends_with("json") { 1 } else { 2 })
            .map(|l| format!("{l}\n"))
            .collect();
        std::fs::write(&output, &header_only).unwrap();
        let rerun = run(&config, &[]);
        assert!(rerun.status.success(), "{}", stderr(&rerun));
        let rewritten = std::fs::read_to_string(&output).unwrap();
        assert_eq!(answers(&rewritten), answers(&clean));
        let clean = rewritten;
        // Without --resume or --overwrite an existing file is refused.
        refused(&run(&config, &[]), "--overwrite");
        assert_eq!(std::fs::read_to_string(&output).unwrap(), clean);
        // A resume of another goal or another domain is refused by field.
        let korf = tiles_config(&dir, "Korf", &output);
        refused(
            &run(&korf, &["--resume"]),
            "goal: written Standard, now Korf",
        );
        let pancake = dir.join("pancake.ron");
        std::fs::write(
            &pancake,
            format!(
                "Experiment(domain: Pancake(), instances: Inline([\"3 1 2\"]), output: Some({:?}))",
                output.to_str().unwrap()
            ),
        )
        .unwrap();
        refused(
            &run(&pancake, &["--resume"]),
            "domain: written tiles, now pancake",
        );
        // A resume of the same experiment runs nothing and keeps every row.
        let again = run(&config, &["--resume"]);
        assert!(again.status.success(), "{}", stderr(&again));
        assert_eq!(std::fs::read_to_string(&output).unwrap(), clean);
        // An edited instance is refused by its row.
        let tsv = dir.join("three.tsv");
        let instances = std::fs::read_to_string(&tsv).unwrap();
        std::fs::write(&tsv, instances.replace("15 9 2\t52", "15 2 9\t52")).unwrap();
        refused(&run(&config, &["--resume"]), "instance 6 was");
        std::fs::write(&tsv, &instances).unwrap();
        // A kept row that contradicts the known optimum is refused.
        let lied = if name.ends_with("json") {
            clean.replacen("\"cost\":41", "\"cost\":43", 1)
        } else {
            clean.replacen("optimal,41,", "optimal,43,", 1)
        };
        assert_ne!(lied, clean);
        std::fs::write(&output, &lied).unwrap();
        refused(
            &run(&config, &["--resume"]),
            "contradicts the known cost 41",
        );
        // A line that is no row is named, not deleted.
        std::fs::write(&output, clean.clone() + "garbage\n").unwrap();
        refused(&run(&config, &["--resume"]), "is not a result row");
        // A row cut off mid-write is run again, the rest kept.
        let cut = &clean[..clean.len() - 10];
        std::fs::write(&output, cut).unwrap();
        let mended = run(&config, &["--resume"]);
        assert!(mended.status.success(), "{}", stderr(&mended));
        assert_eq!(
            answers(&std::fs::read_to_string(&output).unwrap()),
            answers(&clean)
        );
        // A second writer fails at once, and the file is untouched.
        let before = std::fs::read_to_string(&output).unwrap();
        let file = std::fs::OpenOptions::new()
            .read(true)
            .open(&output)
            .unwrap();
        frontier_core::files::lock_file(&file).unwrap();
        refused(
            &run(&config, &["--overwrite"]),
            "another frontier run is writing",
        );
        drop(file);
        assert_eq!(std::fs::read_to_string(&output).unwrap(), before);
        let replaced = run(&config, &["--overwrite"]);
        assert!(replaced.status.success(), "{}", stderr(&replaced));
        // `plot` reads files with their first line.
        let plotted = frontier(
            &[
                "plot",
                output.to_str().unwrap(),
                "--out",
                dir.join("plots").to_str().unwrap(),
            ],
            &cache,
        );
        assert!(plotted.status.success(), "{}", stderr(&plotted));
    }
}

/// Each row's instance, status, cost and instance text, in file order:
/// what a resumed file must share with a clean one (times differ).
fn answers(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.contains("frontier_results"))
        .map(|l| {
            if l.starts_with('{') {
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                format!(
                    "{} {} {} {}",
                    v["instance"], v["status"], v["cost"], v["instance_text"]
                )
            } else {
                let f: Vec<&str> = l.split(',').collect();
                format!("{} {} {} {}", f[0], f[3], f[4], f[f.len() - 1])
            }
        })
        .collect()
}

#[test]
fn a_run_killed_again_and_again_then_resumed_matches_a_clean_run() {
    let dir = scratch("kills");
    let cache = dir.join("cache");
    let clean_out = dir.join("clean.csv");
    let config = tiles_config(&dir, "Standard", &clean_out);
    let clean = frontier(&["run", config.to_str().unwrap()], &cache);
    assert!(clean.status.success(), "{}", stderr(&clean));
    let clean = std::fs::read_to_string(&clean_out).unwrap();
    let output = dir.join("killed.csv");
    let spawn = |resume: bool| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_frontier"));
        command
            .args([
                "run",
                config.to_str().unwrap(),
                "--output",
                output.to_str().unwrap(),
            ])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .env("XDG_CACHE_HOME", &cache)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null());
        if resume {
            command.arg("--resume");
        }
        command.spawn().unwrap()
    };
    let mut finished = false;
    for attempt in 0..30u64 {
        let mut child = spawn(attempt > 0 && output.exists());
        std::thread::sleep(std::time::Duration::from_millis(5 + attempt * 7));
        if child.try_wait().unwrap().is_some() {
            finished = true;
            break;
        }
        child.kill().unwrap();
        child.wait().unwrap();
    }
    if !finished {
        let last = spawn(true).wait().unwrap();
        assert!(last.success());
    }
    let killed = std::fs::read_to_string(&output).unwrap();
    assert_eq!(answers(&killed), answers(&clean));
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.ends_with(".tmp")), "{names:?}");
}

#[test]
fn a_cache_that_cannot_be_written_warns_once_and_the_search_goes_on() {
    let dir = scratch("cache");
    // A file where the cache directory should be: nothing can be written.
    let blocked = dir.join("blocked");
    std::fs::write(&blocked, "not a directory").unwrap();
    let out = frontier(
        &[
            "solve",
            "--json",
            "tiles",
            "--heuristic",
            "4-4",
            "1 2 3 4 5 6 0 7 8",
        ],
        &blocked,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let row: serde_json::Value =
        serde_json::from_str(String::from_utf8_lossy(&out.stdout).trim()).unwrap();
    assert_eq!(row["cost"], 2);
    let warnings = stderr(&out)
        .lines()
        .filter(|l| l.contains("not cached"))
        .count();
    assert!(warnings >= 1, "{}", stderr(&out));
}
