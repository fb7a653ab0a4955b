//! RON experiments with the bundled domains: every shipped config parses
//! and plans, edits of them never panic, and a domain block is read by the
//! plugin its name registers.

use std::path::{Path, PathBuf};

use frontier::config::Experiment;
use frontier::{App, Builtin, CliError};

/// Every shipped config parses, and random edits of each (bytes
/// deleted, duplicated or replaced) parse or are refused with a
/// located error — never a panic. The property a RON fuzz target would
/// check, on seeded inputs so that every `cargo test` runs it.
#[test]
fn shipped_configs_parse_and_mutations_never_panic() {
    let app = App::new().with_builtin();
    let mut rng = frontier_core::rng::SplitMix64::new(23);
    let mut checked = 0;
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("configs/ exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    files.sort();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        if let Err(e) = Experiment::parse(&text, file, &app) {
            panic!("{}: {e}", file.display());
        }
        let bytes = text.as_bytes();
        for _ in 0..300 {
            let mut edited = bytes.to_vec();
            for _ in 0..1 + rng.below(3) {
                if edited.is_empty() {
                    break;
                }
                let at = rng.below(edited.len() as u64) as usize;
                match rng.below(3) {
                    0 => {
                        edited.remove(at);
                    }
                    1 => edited.insert(at, edited[at]),
                    _ => edited[at] = b"(),:[]\"0a-{}"[rng.below(12) as usize],
                }
            }
            let edited = String::from_utf8_lossy(&edited);
            match Experiment::parse(&edited, file, &app) {
                Err(CliError::Config { line, column, .. }) => {
                    assert!(line >= 1 && column >= 1)
                }
                // What parses is planned too, as `frontier run` would
                // before its first search: errors, never panics.
                Ok(_) => drop(frontier::check_config(&edited)),
                Err(_) => {}
            }
            checked += 1;
        }
    }
    assert!(files.len() >= 20, "the shipped configs: {}", files.len());
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        if let Err(e) = frontier::check_config(&text) {
            panic!("{}: {e}", file.display());
        }
    }
    assert!(checked > 5000);
}

/// A grid whose combinations would run for ever is refused up front;
/// the same grid, smaller, is accepted.
#[test]
fn a_grid_too_large_to_run_is_refused() {
    let config = |partitions: usize| {
        let threads: Vec<String> = (1..=40).map(|n| n.to_string()).collect();
        let partitions = vec!["\"hash\""; partitions];
        format!(
            "Experiment(domain: Pancake(), instances: Random(size: 8, count: 1, seed: 1), \
             executors: [Hda()], grid: {{\"threads\": [{}], \"partition\": [{}]}})",
            threads.join(", "),
            partitions.join(", ")
        )
    };
    let error = frontier::check_config(&config(3000)).unwrap_err();
    assert!(error.contains("over 100000 combinations"), "{error}");
    frontier::check_config(&config(2)).unwrap();
}

/// A domain block is read by the plugin its name registers, in any case;
/// an unknown name lists the registered ones; a typo inside a block names
/// its line, column and field.
#[test]
fn domain_blocks_are_dispatched_by_name() {
    let app = App::new().with_builtin();
    let parse = |text: &str| Experiment::parse(text, Path::new("x.ron"), &app);
    let ok = "Experiment(domain: PANCAKE(), instances: Inline([\"3 1 2\"]))";
    assert!(parse(ok).is_ok());
    let unknown = parse("Experiment(domain: Tyles(), instances: Inline([\"1\"]))").unwrap_err();
    let message = unknown.to_string();
    for name in ["Grid", "Tiles", "Boggle", "Wordle", "Nonogram", "Pancake"] {
        assert!(message.contains(name), "{message}");
    }
    assert!(message.contains("unknown domain `Tyles`"), "{message}");
    let typo = "Experiment(\n  domain: Tiles(goal: Standard,\n    heuristc: Manhattan),\n  instances: Inline([\"1\"]))";
    match parse(typo) {
        Err(CliError::Config {
            line,
            column,
            message,
            ..
        }) => {
            assert_eq!((line, column), (3, 5), "{message}");
            assert!(message.contains("heuristc"), "{message}");
        }
        other => panic!("{other:?}"),
    }
    // Only the registered domains exist.
    let bare = App::new();
    assert!(Experiment::parse(ok, Path::new("x.ron"), &bare).is_err());
}

/// Two plugins of one name would make `solve` and RON blocks ambiguous:
/// the program refuses to start.
#[test]
fn two_domains_of_one_name_are_refused() {
    let twice = App::new()
        .with_builtin()
        .add::<frontier_pancake::cli::PancakeCli>();
    let code = twice.run_from(["frontier", "--quiet", "solve", "pancake", "3 1 2"]);
    assert_eq!(code, std::process::ExitCode::FAILURE);
    let once = App::new().with_builtin();
    let code = once.run_from(["frontier", "--quiet", "solve", "pancake", "3 1 2"]);
    assert_eq!(code, std::process::ExitCode::SUCCESS);
}

/// Where a name takes parentheses and has none (`Hda`, `Pancake`), or has
/// them and takes none (`Astar()`), the error says which and what to
/// write: RON alone said "Expected opening `(`" and "Expected comma".
#[test]
fn names_with_parentheses_wrong_say_what_to_write() {
    let app = App::new().with_builtin();
    for (body, column, hint) in [
        (
            "domain: Pancake(), instances: Inline([\"3 1 2\"]), executors: [Astar()]",
            78,
            "Expected comma: `Astar` takes no parentheses: write `Astar` alone",
        ),
        (
            "domain: Pancake(), instances: Inline([\"3 1 2\"]), executors: [Astar, Hda]",
            83,
            "`Hda` takes parentheses, with its fields inside or none: `Hda()`",
        ),
        (
            "domain: Pancake, instances: Inline([\"3 1 2\"])",
            27,
            "`Pancake` takes parentheses, with its fields inside or none: `Pancake()`",
        ),
    ] {
        let text = format!("Experiment({body})");
        match Experiment::parse(&text, Path::new("x.ron"), &app) {
            Err(CliError::Config {
                line: 1,
                column: at,
                message,
                ..
            }) => {
                assert_eq!(at, column, "{text}: {message}");
                assert!(message.contains(hint), "{text}: {message}");
            }
            other => panic!("{text}: {other:?}"),
        }
    }
    // Elsewhere RON's message stands alone.
    let text = "Experiment(domain: Pancake(), instances: Inline([\"3 1 2\"]) repeat: 2)";
    match Experiment::parse(text, Path::new("x.ron"), &app) {
        Err(CliError::Config { message, .. }) => assert_eq!(message, "Expected comma"),
        other => panic!("{other:?}"),
    }
}
