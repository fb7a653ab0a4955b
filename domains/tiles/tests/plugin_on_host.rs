//! The tiles GPU plugin's device code, compiled as C++ for this machine and
//! run against the CPU's heuristic and rank: a check of the plugin's
//! arithmetic (h, the rank by conflicts, the rank made from the parent's)
//! where no GPU is. The kernels themselves, and their CUDA-only parts
//! (warps, atomics), are checked on a GPU by `gpu_ranks_equal_cpu_ranks`.
//! Skipped loudly where no C++ compiler (`$CXX`, else `c++`) runs.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use frontier_core::search::gpu::GpuPlugin;
use frontier_core::{Domain, Heuristic, PackedState};
use frontier_tiles::{
    cache, partition, AdditivePdb, Board, Goal, LinearRank, Manhattan, NetworkRank, TileState,
    Tiles, TilesHeuristic,
};

/// What CUDA gives the plugin, for a host compiler: the qualifiers vanish,
/// the bit intrinsics become the compiler's builtins.
const HOST_SHIM: &str = r#"
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#define __device__
#define __forceinline__ inline
using std::min;
using std::max;
static inline int __ffs(unsigned x) { return x ? __builtin_ctz(x) + 1 : 0; }
static inline int __clz(unsigned x) { return x ? __builtin_clz(x) : 32; }
static inline int __popc(unsigned x) { return __builtin_popcount(x); }
static inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
typedef unsigned int u32;
typedef unsigned long long u64;
"#;

/// Reads the tables (argv[1]) and cases from stdin: parent and child packed,
/// then the CPU's parent h and rank and child h; prints the plugin's child
/// h, its rank afresh and its rank from the parent's.
const HOST_MAIN: &str = r#"
int main(int argc, char** argv) {
    FILE* f = fopen(argv[1], "rb");
    if (!f) return 2;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char* tables = (unsigned char*)malloc(size > 0 ? size : 1);
    if (size > 0 && fread(tables, 1, size, f) != (size_t)size) return 3;
    fclose(f);
    int n;
    if (scanf("%d", &n) != 1) return 4;
    for (int k = 0; k < n; k++) {
        u32 p[STATE_WORDS], c[STATE_WORDS], ph, pr, h;
        for (int w = 0; w < STATE_WORDS; w++) if (scanf("%u", &p[w]) != 1) return 5;
        for (int w = 0; w < STATE_WORDS; w++) if (scanf("%u", &c[w]) != 1) return 5;
        if (scanf("%u %u %u", &ph, &pr, &h) != 3) return 5;
#ifdef PLUGIN_H_AND_RANK
        // The beam's fused hook: its h must be heuristic()'s, its rank rank()'s.
        u32 fused_h;
        u32 fused_rank = h_and_rank(c, &fused_h, tables);
        if (fused_h != heuristic(c, tables) || fused_rank != rank(c, h, tables)) return 6;
#endif
        printf("%u %u %u\n", heuristic(c, tables), rank(c, h, tables),
               rank_child(p, ph, pr, c, h, tables));
    }
    return 0;
}
"#;

/// A C++ compiler that runs, or None (said on stderr).
fn compiler() -> Option<String> {
    let cxx = std::env::var("CXX").unwrap_or_else(|_| "c++".into());
    match Command::new(&cxx).arg("--version").output() {
        Ok(out) if out.status.success() => Some(cxx),
        _ => {
            eprintln!("SKIPPED: no C++ compiler ({cxx}) to run the GPU plugin's code on the host");
            None
        }
    }
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "frontier-tiles-plugin-on-host-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Parent and child pairs: a random walk from the goal (whose tiles start
/// on their goal lines, where conflicts change) and a random child of
/// uniformly random boards.
fn pairs(puzzle: &Tiles, board: &Board, goal: Goal) -> Vec<(TileState, TileState)> {
    let mut rng = frontier_core::rng::SplitMix64::new(5);
    let mut edges = Vec::new();
    let mut child_of = |state: &TileState, rng: &mut frontier_core::rng::SplitMix64| {
        edges.clear();
        puzzle.expand(state, &mut edges);
        edges[rng.below(edges.len() as u64) as usize].state
    };
    let mut out = Vec::new();
    let mut state = TileState::goal(board, goal);
    for _ in 0..4000 {
        let child = child_of(&state, &mut rng);
        out.push((state, child));
        state = child;
    }
    let cells = board.cells();
    for _ in 0..1000 {
        let mut tiles: Vec<u8> = (0..cells as u8).collect();
        for i in (1..cells).rev() {
            tiles.swap(i, rng.below(i as u64 + 1) as usize);
        }
        let state = TileState::from_tiles(board, &tiles).unwrap();
        let child = child_of(&state, &mut rng);
        out.push((state, child));
    }
    out
}

/// Compiles the plugin for `heuristic` on the host and asserts that its h,
/// rank and rank from the parent's equal the CPU's on every pair.
fn agrees_with_the_cpu(
    cxx: &str,
    dir: &Path,
    name: &str,
    board: &Board,
    goal: Goal,
    heuristic: &TilesHeuristic,
) {
    let puzzle = Tiles::new(board.clone(), TileState::goal(board, goal), goal).unwrap();
    let source = format!("{HOST_SHIM}{}\n{HOST_MAIN}", heuristic.source(&puzzle));
    let (cpp, exe, tables, input) = (
        dir.join(format!("{name}.cpp")),
        dir.join(name),
        dir.join(format!("{name}.tables")),
        dir.join(format!("{name}.in")),
    );
    std::fs::write(&cpp, source).unwrap();
    let built = Command::new(cxx)
        .args(["-O1", "-w", "-o"])
        .arg(&exe)
        .arg(&cpp)
        .output()
        .unwrap();
    assert!(
        built.status.success(),
        "{name}: {}",
        String::from_utf8_lossy(&built.stderr)
    );
    std::fs::write(&tables, heuristic.tables(&puzzle).concat()).unwrap();
    let cases = pairs(&puzzle, board, goal);
    let words = puzzle.packed_words();
    let mut text = format!("{}\n", cases.len());
    let mut packed = vec![0u32; words];
    for (parent, child) in &cases {
        for state in [parent, child] {
            puzzle.pack(state, &mut packed);
            for w in &packed {
                text += &format!("{w} ");
            }
        }
        let ph = heuristic.h(&puzzle, parent);
        let pr = heuristic.rank(&puzzle, parent, ph);
        text += &format!("{ph} {pr} {}\n", heuristic.h(&puzzle, child));
    }
    std::fs::File::create(&input)
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    let ran = Command::new(&exe)
        .arg(&tables)
        .stdin(std::fs::File::open(&input).unwrap())
        .output()
        .unwrap();
    assert!(ran.status.success(), "{name}: exit {:?}", ran.status);
    let lines = String::from_utf8(ran.stdout).unwrap();
    assert_eq!(lines.lines().count(), cases.len(), "{name}");
    for (line, (parent, child)) in lines.lines().zip(&cases) {
        let h = heuristic.h(&puzzle, child);
        let rank = heuristic.rank(&puzzle, child, h);
        let got: Vec<u32> = line.split(' ').map(|x| x.parse().unwrap()).collect();
        assert_eq!(
            got,
            [h, rank, rank],
            "{name}: h, rank, rank from the parent of {:?} from {:?}",
            &child.cells[..board.cells()],
            &parent.cells[..board.cells()]
        );
    }
}

/// Manhattan distance ranked by every pair's conflicts on six shapes and
/// both goals; additive databases ranked by conflicts across them on 4×4
/// (5-5-5) and a partial partition of 6×6 whose other tiles are in none;
/// both on goal boards of one's own.
#[test]
fn the_plugins_h_and_ranks_equal_the_cpus_on_the_host() {
    let Some(cxx) = compiler() else {
        return;
    };
    let dir = scratch("ranks");
    for (rows, cols) in [(3, 3), (4, 4), (6, 6), (7, 7), (3, 5), (2, 24)] {
        let board = Board::new(rows, cols).unwrap();
        for goal in [Goal::Korf, Goal::Standard] {
            let manhattan = Manhattan::new(&board, goal).ranked_by_conflicts(&board, goal);
            let name = format!("manhattan-{rows}x{cols}-{goal:?}");
            agrees_with_the_cpu(
                &cxx,
                &dir,
                &name,
                &board,
                goal,
                &TilesHeuristic::Manhattan(manhattan),
            );
        }
    }
    for (rows, cols, spec, goal) in [
        (4, 4, "5-5-5", Goal::Korf),
        (6, 6, "1,2,3/8,9/20,26,32,33", Goal::Standard),
    ] {
        let board = Board::new(rows, cols).unwrap();
        let dbs = partition(spec, &board, goal)
            .unwrap()
            .iter()
            .map(|p| Arc::new(cache::load_or_build(&board, p, &dir, 2, &|_| {}).unwrap()))
            .collect();
        let pdb = AdditivePdb::new(&board, goal, dbs, true)
            .unwrap()
            .ranked_by_conflicts(&board, goal);
        let name = format!("pdb-{rows}x{cols}-{}", spec.len());
        agrees_with_the_cpu(&cxx, &dir, &name, &board, goal, &TilesHeuristic::Pdb(pdb));
    }
    // Goal boards of one's own, which the plugin reads from its goal table:
    // Manhattan on a 4×4 spiral (its blank off the diagonal) and databases
    // with the reflection on the 8-puzzle's spiral (its blank in the middle).
    let spiral: Goal = "1 2 3 4 12 13 14 5 11 0 15 6 10 9 8 7".parse().unwrap();
    let board = Board::new(4, 4).unwrap();
    let manhattan = Manhattan::new(&board, spiral).ranked_by_conflicts(&board, spiral);
    let heuristic = TilesHeuristic::Manhattan(manhattan);
    agrees_with_the_cpu(
        &cxx,
        &dir,
        "manhattan-4x4-spiral",
        &board,
        spiral,
        &heuristic,
    );
    let spiral: Goal = "1 2 3 8 0 4 7 6 5".parse().unwrap();
    let board = Board::new(3, 3).unwrap();
    let dbs = partition("1,2,3,4/5,6,7,8", &board, spiral)
        .unwrap()
        .iter()
        .map(|p| Arc::new(cache::load_or_build(&board, p, &dir, 2, &|_| {}).unwrap()))
        .collect();
    let pdb = AdditivePdb::new(&board, spiral, dbs, true)
        .unwrap()
        .ranked_by_conflicts(&board, spiral);
    let heuristic = TilesHeuristic::Pdb(pdb);
    agrees_with_the_cpu(&cxx, &dir, "pdb-3x3-spiral", &board, spiral, &heuristic);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The boards the learned ranks are checked on, with their databases: 4×4
/// (5-5-5), a partial partition of 6×6 and the 8-puzzle's spiral goal.
fn learned_rank_boards(dir: &Path) -> Vec<(Board, Goal, Vec<Arc<frontier_tiles::PatternDb>>)> {
    let spiral: Goal = "1 2 3 8 0 4 7 6 5".parse().unwrap();
    [
        (4, 4, "5-5-5", Goal::Korf),
        (6, 6, "1,2,3/8,9/20,26,32,33", Goal::Standard),
        (3, 3, "1,2,3,4/5,6,7,8", spiral),
    ]
    .into_iter()
    .map(|(rows, cols, spec, goal)| {
        let board = Board::new(rows, cols).unwrap();
        let dbs = partition(spec, &board, goal)
            .unwrap()
            .iter()
            .map(|p| Arc::new(cache::load_or_build(&board, p, dir, 2, &|_| {}).unwrap()))
            .collect();
        (board, goal, dbs)
    })
    .collect()
}

/// The learned linear rank (`LinearRank`), afresh and updated from the
/// parent's, equals the CPU's (which looks every database up afresh), with
/// and without the reflection, negative weights included, on 4×4 (5-5-5),
/// a partial partition of 6×6 and the 8-puzzle's spiral goal.
#[test]
fn the_plugins_learned_rank_equals_the_cpus_on_the_host() {
    let Some(cxx) = compiler() else {
        return;
    };
    let dir = scratch("linear");
    for (board, goal, dbs) in learned_rank_boards(&dir) {
        let (rows, cols) = (board.rows(), board.cols());
        let k = dbs.len();
        for reflect in [true, false] {
            // Fitted-looking weights with a few negative ones.
            let count = if reflect { 2 * k + 3 } else { k + 2 };
            let weights: Vec<f64> = (0..count)
                .map(|i| [0.17, -0.09, 0.13, 0.87, 0.29, -0.02, 1.47][i % 7])
                .collect();
            let linear = LinearRank::new(&weights, k, reflect).unwrap();
            let pdb = AdditivePdb::new(&board, goal, dbs.clone(), reflect)
                .unwrap()
                .ranked_linearly(&board, goal, linear)
                .unwrap();
            let name = format!("linear-{rows}x{cols}-{reflect}");
            agrees_with_the_cpu(&cxx, &dir, &name, &board, goal, &TilesHeuristic::Pdb(pdb));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A network file of `hidden` units for `cells` cells and `features`
/// features whose weights vary in sign and size (the table's small, as
/// trained ones are).
fn network_file(cells: usize, features: usize, hidden: usize) -> String {
    let table = cells * cells * hidden;
    let n = table + features * hidden + 2 * hidden + features + 1;
    let weights: Vec<String> = (0..n)
        .map(|i| {
            let w = ((i * 7919 % 2003) as f64 - 1001.0) / 1001.0;
            format!("{:.5}", if i < table { w * 0.4 } else { w })
        })
        .collect();
    format!("{hidden} {features}\n{}\n", weights.join(" "))
}

/// The learned network's rank (`NetworkRank`), which the plugin makes
/// afresh for a child as for a parent, equals the CPU's, with and without
/// the reflection, on 4×4 (5-5-5), a partial partition of 6×6 and the
/// 8-puzzle's spiral goal.
#[test]
fn the_plugins_network_rank_equals_the_cpus_on_the_host() {
    let Some(cxx) = compiler() else {
        return;
    };
    let dir = scratch("network");
    for (board, goal, dbs) in learned_rank_boards(&dir) {
        let (rows, cols) = (board.rows(), board.cols());
        for (reflect, hidden) in [(true, 16), (false, 5)] {
            let pdb = AdditivePdb::new(&board, goal, dbs.clone(), reflect).unwrap();
            let most = pdb.most_rank_features();
            let text = network_file(board.cells(), most.len(), hidden);
            let network = NetworkRank::parse(&text, board.cells(), &most).unwrap();
            let pdb = pdb.ranked_by_network(&board, goal, network).unwrap();
            let name = format!("network-{rows}x{cols}-{reflect}");
            agrees_with_the_cpu(&cxx, &dir, &name, &board, goal, &TilesHeuristic::Pdb(pdb));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
