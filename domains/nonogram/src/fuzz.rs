//! The nonograms' fuzz properties on frontier's harness
//! (`frontier_core::fuzz`): `cargo test` checks them on edits of the seeds
//! (`tests/fuzz.rs` of the workspace), cargo-fuzz for as long as one likes
//! (`fuzz/fuzz_targets/nonogram_*.rs`, one line each).

use frontier_core::fuzz::Target;

use crate::{solve_cdcl, Puzzle, SolveOptions};

/// Puzzle text in either format parses or is refused; what parses prints
/// as `.non` and parses back to itself; a small puzzle is solved and every
/// solution reported satisfies the clues.
pub fn nonogram_parse(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(puzzle) = Puzzle::parse(text) else {
        return;
    };
    assert_eq!(
        Puzzle::parse_non(&puzzle.to_non()).ok(),
        Some(puzzle.clone()),
        "{text:?}"
    );
    if puzzle.width * puzzle.height <= 64 {
        let options = SolveOptions {
            max_seconds: Some(1.0),
            ..SolveOptions::default()
        };
        let outcome = solve_cdcl(&puzzle, &options);
        assert!(
            outcome.solutions.iter().all(|s| puzzle.accepts(s)),
            "{text:?}"
        );
    }
}

fn nonogram_seeds() -> Vec<Vec<u8>> {
    vec![
        b"width 3\nheight 3\n\nrows\n1\n3\n1\n\ncolumns\n1\n3\n1\n".to_vec(),
        b"width 4\nheight 2\n\nrows\n2,1\n4\n\ncolumns\n2\n2\n1\n2\n".to_vec(),
        b"3 3\n1\n3\n1\n1\n3\n1\n".to_vec(),
    ]
}

/// A line as `clue;cells` (`1 3;#.???.`: runs, then `#` filled, `.` empty,
/// `?` unknown) parses or is ignored; when its known cells leave it no
/// placement, the automaton cut (`crate::explain`) is a part
/// of them that the line solver still finds infeasible, and otherwise
/// there is no cut; each cell the line solver deduces is explained by a
/// part of the known cells that, with the cell's other value imposed, is
/// infeasible. A wrong cut would let `cdcl` learn a false clause.
pub fn nonogram_explain(data: &[u8]) {
    use crate::explain::LineCut;
    use crate::line::{LineSolver, EMPTY, FILLED, UNKNOWN};
    let Some((text, clue, cells)) = parse_line(data) else {
        return;
    };
    let n = cells.len();
    let mut cut = LineCut::default();
    let mut kept = Vec::new();
    let runs: Vec<u32> = clue.into_iter().filter(|&b| b > 0).collect();
    let least = runs.iter().map(|&b| u64::from(b) + 1).sum::<u64>();
    if n > 400 || least > n as u64 + 1 {
        // Runs that cannot fit are explained by no cell; the line solver
        // is not asked about such clues.
        if least > n as u64 + 1 {
            assert!(cut.explain(&runs, &cells, None, &mut kept), "{text:?}");
            assert!(kept.is_empty(), "{text:?}");
        }
        return;
    }
    let mut solver = LineSolver::default();
    let only = |kept: &[usize], imposed: Option<(usize, u8)>| {
        let mut part = vec![UNKNOWN; n];
        for &i in kept {
            assert_ne!(cells[i], UNKNOWN, "an unknown cell in the cut of {text:?}");
            part[i] = cells[i];
        }
        if let Some((i, v)) = imposed {
            assert!(
                !kept.contains(&i),
                "the imposed cell in its own cut: {text:?}"
            );
            part[i] = v;
        }
        part
    };
    let mut solved = cells.clone();
    let feasible = solver.solve(&runs, &mut solved).is_ok();
    let found = cut.explain(&runs, &cells, None, &mut kept);
    assert_eq!(found, !feasible, "{text:?}");
    if found {
        assert!(!solver.feasible(&runs, &mut only(&kept, None)), "{text:?}");
        return;
    }
    for i in (0..n).filter(|&i| cells[i] == UNKNOWN && solved[i] != UNKNOWN) {
        let other = if solved[i] == FILLED { EMPTY } else { FILLED };
        kept.clear();
        assert!(
            cut.explain(&runs, &cells, Some((i, other)), &mut kept),
            "{text:?} cell {i}"
        );
        let mut part = only(&kept, Some((i, other)));
        assert!(!solver.feasible(&runs, &mut part), "{text:?} cell {i}");
    }
}

/// A line as `clue;cells` (see [`nonogram_explain`]): the text, the clue
/// and the cells, or `None` where the bytes are not such a line.
fn parse_line(data: &[u8]) -> Option<(&str, Vec<u32>, Vec<u8>)> {
    use crate::line::{EMPTY, FILLED, UNKNOWN};
    let text = std::str::from_utf8(data).ok()?;
    let (clue_text, cells_text) = text.split_once(';')?;
    let clue = clue_text
        .split_whitespace()
        .map(str::parse::<u32>)
        .collect::<Result<Vec<u32>, _>>()
        .ok()?;
    let cells = cells_text
        .chars()
        .map(|c| match c {
            '#' => Some(FILLED),
            '.' => Some(EMPTY),
            '?' => Some(UNKNOWN),
            _ => None,
        })
        .collect::<Option<Vec<u8>>>()?;
    Some((text, clue, cells))
}

/// A line as in [`nonogram_explain`]: the quick solver
/// (`crate::overlap`), which propagation trusts on long lines
/// before the exact solver sees them, fixes only cells the exact line
/// solver fixes to the same value, finds a contradiction only where the
/// exact solver does, leaves the cells as they were where it gives up, and
/// on a line with no known cell fixes what the exact solver fixes. A wrong
/// quick deduction would let a search prune solutions and answer `unique`
/// or `none` wrongly.
pub fn nonogram_overlap(data: &[u8]) {
    use crate::line::{LineSolver, UNKNOWN};
    use crate::overlap::OverlapSolver;
    let Some((text, clue, cells)) = parse_line(data) else {
        return;
    };
    let runs: Vec<u32> = clue.into_iter().filter(|&b| b > 0).collect();
    let least = runs.iter().map(|&b| u64::from(b) + 1).sum::<u64>();
    if cells.len() > 400 || least > cells.len() as u64 + 1 {
        // The line solver is not asked about clues that cannot fit.
        return;
    }
    let mut exact = cells.clone();
    let exact_outcome = LineSolver::default().solve(&runs, &mut exact);
    let mut quick = cells.clone();
    match OverlapSolver::default().solve(&runs, &mut quick) {
        Err(_) => assert!(exact_outcome.is_err(), "a false contradiction: {text:?}"),
        Ok(None) => assert_eq!(quick, cells, "gave up but changed cells: {text:?}"),
        Ok(Some(changed)) => {
            assert_eq!(changed, quick != cells, "{text:?}");
            if exact_outcome.is_ok() {
                for (i, (&was, &now)) in cells.iter().zip(&quick).enumerate() {
                    if was != now {
                        assert_eq!(now, exact[i], "cell {i} of {text:?}");
                    }
                }
                if cells.iter().all(|&c| c == UNKNOWN) {
                    assert_eq!(quick, exact, "an empty line: {text:?}");
                }
            }
        }
    }
}

fn nonogram_explain_seeds() -> Vec<Vec<u8>> {
    vec![
        b"1 3;#.????.".to_vec(),
        b"2 1 3;??#???????.#?".to_vec(),
        b"3 3;??????".to_vec(),
        b"1 1 1;#.#.#.#".to_vec(),
    ]
}

/// The nonograms' targets.
pub const TARGETS: &[Target] = &[
    Target {
        name: "nonogram_parse",
        property: nonogram_parse,
        seeds: nonogram_seeds,
        alphabet: b"0123 ,\nwidthegrowsclumn",
    },
    Target {
        name: "nonogram_explain",
        property: nonogram_explain,
        seeds: nonogram_explain_seeds,
        alphabet: b"0123 ;#.?",
    },
    Target {
        name: "nonogram_overlap",
        property: nonogram_overlap,
        seeds: nonogram_explain_seeds,
        alphabet: b"0123 ;#.?",
    },
];
