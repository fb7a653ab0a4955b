//! `frontier tiles fit-rank`: fits the weights of a learned beam rank
//! (`--rank-weights`, [`crate::linear_rank`]) on boards of your own.
//!
//! Each round solves every board with a CPU beam, ranked by h plus the
//! conflicts in the first round and by the last round's weights after, and
//! fits, by least squares with an intercept, each path state's remaining
//! length along its path on the state's features
//! ([`crate::AdditivePdb::rank_features`]). The remaining length is an upper
//! bound on the state's distance, and a shorter path teaches a better one, so
//! later rounds learn from the shorter paths their own weights find
//! (docs/RESULTS.md, "A learned linear rank"). The intercept is dropped: it
//! moves every rank of a layer alike.
//!
//! With `--from-paths` the paths come from elsewhere: `BOARDS` then holds
//! solutions as `frontier --json solve tiles` prints them (for example a GPU
//! beam's, wider than any CPU beam here), each replayed from its board to the
//! goal before its states are fitted, in one round.

use std::path::PathBuf;

use frontier_app::plugin::{read_file, Instance};
use frontier_app::CliError;
use frontier_core::search::{beam::beam, Order};
use frontier_core::{Domain, SearchOptions, Status};

use crate::cli::{Heuristics, TilesCli};
use crate::network_data::NetworkData;
use crate::{Dir, Goal, Tiles, TilesHeuristic};

/// `frontier tiles fit-rank BOARDS`.
#[derive(Clone, Debug, clap::Args)]
pub struct FitRank {
    /// The boards to learn from: one per line, or a TSV as `frontier run`
    /// reads (make them as the boards you will solve are made, e.g. random
    /// walks of DeepCubeA's kind; never the boards you measure on).
    pub boards: PathBuf,
    /// Goal convention or goal board, as `frontier solve tiles --goal`.
    #[arg(long, default_value = "standard")]
    pub goal: Goal,
    /// Pattern databases of one partition, as `--heuristic` (the weights
    /// fit only it).
    #[arg(long)]
    pub heuristic: String,
    /// Also weigh the databases on the reflected board (as `--reflect`).
    #[arg(long)]
    pub reflect: bool,
    /// The CPU beam's width: the paths learned from.
    #[arg(long, default_value_t = 10_000)]
    pub beam: u64,
    /// Rounds: each solves the boards with the last round's weights and
    /// fits new ones on their paths.
    #[arg(long, default_value_t = 2)]
    pub rounds: u32,
    /// A beam that holds more than this many GiB is stopped and its board
    /// left out of the round (a poor rank can lead a beam astray).
    #[arg(long, default_value_t = 4)]
    pub max_memory_gib: u64,
    /// Fit only the sums and the conflicts, each database's own weight 0:
    /// a model of two or three weights, for partitions whose per-database
    /// weights do not generalise (the 48-puzzle's).
    #[arg(long)]
    pub sums_only: bool,
    /// Threads each beam runs on [default: all cores].
    #[arg(long)]
    pub threads: Option<usize>,
    /// Where pattern databases are cached [default: ~/.cache/frontier/pdb].
    #[arg(long)]
    pub pdb_dir: Option<PathBuf>,
    /// BOARDS holds solutions instead of boards: the lines `frontier --json
    /// solve tiles` or `frontier --json run` print, or a results file of
    /// `frontier run --output F.json` (their `instance_text` and `path`), each replayed
    /// to the goal and fitted on in one round, no beam run here (so
    /// `--beam`, `--rounds`, `--max-memory-gib` and `--threads` are
    /// refused with it). Unsolved lines are left out.
    #[arg(long, conflicts_with_all = ["beam", "rounds", "max_memory_gib", "threads"])]
    pub from_paths: bool,
    /// Also write the paths of the last round (with --from-paths, of the
    /// solutions given) as rows a network rank is trained on
    /// (`frontier_tiles::network_data`): each path state and its siblings,
    /// their cells and features, for `scripts/train-rank-network.py`.
    #[arg(long)]
    pub network_data: Option<PathBuf>,
    /// With --network-data: also write each path state's cousins (its
    /// parent's siblings' children, `frontier_tiles::network_data`), so
    /// that the network learns to rank the path state ahead of them too.
    #[arg(long, requires = "network_data")]
    pub network_cousins: bool,
}

/// Runs the rounds, printing each round's mean path length on stderr and
/// the last weights on stdout as `--rank-weights` takes them (with `json`,
/// one object holding both); with `--from-paths`, one fit on the solutions
/// given instead.
pub fn run(fit: &FitRank, quiet: bool, json: bool) -> Result<(), CliError> {
    check_heuristic(fit)?;
    if fit.from_paths {
        return run_on_paths(fit, quiet, json);
    }
    if fit.rounds == 0 || fit.beam == 0 || fit.max_memory_gib == 0 {
        return Err(CliError::Input(
            "tiles fit-rank: --rounds, --beam and --max-memory-gib must be at least 1".into(),
        ));
    }
    let boards = crate::cli::parse_instance_file(&read_file(&fit.boards)?, fit.goal)
        .map_err(|message| CliError::Input(format!("{}: {message}", fit.boards.display())))?;
    if boards.is_empty() {
        // Else round 1 reports that its beams solved no board.
        return Err(CliError::Input(format!(
            "{}: no boards (one a line, as `frontier solve tiles` takes them)",
            fit.boards.display()
        )));
    }
    let threads = fit
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from));
    let mut weights: Vec<f64> = Vec::new();
    let mut means = Vec::new();
    // Loaded once: each round ranks by other weights, over the same tables.
    let prepared = Heuristics::default();
    let mut data = None;
    for round in 1..=fit.rounds {
        if round == fit.rounds {
            data = fit
                .network_data
                .as_deref()
                .map(|path| NetworkData::create(path, fit.network_cousins))
                .transpose()?;
        }
        let cli = TilesCli::for_fit(fit, &weights);
        prepared.forget_heuristics();
        let mut normal = Normal::default();
        let mut total = 0u64;
        let (mut solved, mut left_out) = (0u64, 0u64);
        let mut feature_count = 0;
        for instance in &boards {
            let (puzzle, heuristic) = board_and_heuristic(&cli, &prepared, instance)?;
            let pdb = one_partition(&heuristic)?;
            // A poor rank can lead a beam astray, layer after layer: the
            // memory limit ends such a board (it is then left out).
            let options = SearchOptions {
                order: Order {
                    beam: Some(fit.beam),
                    ..Order::default()
                },
                limits: frontier_core::Limits {
                    max_memory_bytes: Some(fit.max_memory_gib.saturating_mul(1 << 30)),
                    ..frontier_core::Limits::default()
                },
                ..SearchOptions::default()
            };
            let outcome = beam(&puzzle, heuristic.as_ref(), threads, &options)
                .map_err(|e| CliError::Input(e.to_string()))?;
            let solution = match outcome.status {
                Status::Solved(solution) => solution,
                Status::LimitReached(_) => {
                    left_out += 1;
                    continue;
                }
                _ => {
                    return Err(CliError::Input(format!(
                        "tiles fit-rank: board {} found no path with a beam of {} (widen --beam)",
                        instance.id, fit.beam
                    )))
                }
            };
            solved += 1;
            total += u64::from(solution.cost);
            feature_count = add_path(&mut normal, pdb, &solution.states, fit);
            if let Some(data) = data.as_mut() {
                data.add_path(&puzzle, pdb, &solution.states)?;
            }
        }
        if solved == 0 {
            return Err(CliError::Input(format!(
                "tiles fit-rank: round {round} solved no board within {} GiB a beam",
                fit.max_memory_gib
            )));
        }
        weights = all_weights(normal.solve()?, feature_count);
        let mean = total as f64 / solved as f64;
        means.push(mean);
        if !quiet {
            eprintln!(
                "round {round}: mean path {mean:.2} over {solved} boards, {left_out} left out at the memory limit ({} rank)",
                if round == 1 {
                    "h + conflicts"
                } else {
                    "the last round's"
                }
            );
        }
    }
    finish_data(data, fit, quiet)?;
    print_weights(
        &weights,
        json.then(|| {
            serde_json::json!({
                "boards": boards.len(),
                "beam": fit.beam,
                "mean_path_by_round": means,
            })
        }),
    );
    Ok(())
}

/// Refuses heuristics the rank cannot weigh.
fn check_heuristic(fit: &FitRank) -> Result<(), CliError> {
    if fit.heuristic == "manhattan" || fit.heuristic.contains('|') {
        return Err(CliError::Input(
            "tiles fit-rank: give pattern databases of one partition (--heuristic 5-5-5-5-5-5-5 or tile lists)".into(),
        ));
    }
    Ok(())
}

/// The databases of `heuristic`, which fit-rank weighs (one partition).
fn one_partition(heuristic: &TilesHeuristic) -> Result<&crate::AdditivePdb, CliError> {
    match heuristic {
        TilesHeuristic::Pdb(pdb) => Ok(pdb),
        _ => Err(CliError::Input(
            "tiles fit-rank: the heuristic is not one partition of databases".into(),
        )),
    }
}

/// Adds each state of a path (its board first, the goal last) to the fit,
/// its remaining length as the target; returns the features' count.
fn add_path(
    normal: &mut Normal,
    pdb: &crate::AdditivePdb,
    states: &[crate::TileState],
    fit: &FitRank,
) -> usize {
    let length = states.len().saturating_sub(1);
    let mut count = 0;
    for (depth, state) in states.iter().enumerate() {
        let features = pdb.rank_features(state);
        let kept = if fit.sums_only {
            &features[per_database(&features, fit.reflect)..]
        } else {
            &features[..]
        };
        normal.add(kept, (length - depth) as f64);
        count = features.len();
    }
    count
}

/// The fitted weights, with `--sums-only` the databases' own (0) ahead of
/// them, `feature_count` in all.
fn all_weights(fitted: Vec<f64>, feature_count: usize) -> Vec<f64> {
    if fitted.len() >= feature_count {
        return fitted;
    }
    let mut all = vec![0.0; feature_count - fitted.len()];
    all.extend(&fitted);
    all
}

/// Prints the weights as `--rank-weights` takes them, or with `report`
/// (JSON) one object holding them too.
fn print_weights(weights: &[f64], report: Option<serde_json::Value>) {
    // Three decimals: a rank is in 64ths of a move, so finer weights
    // would not change it.
    let rounded: Vec<f64> = weights
        .iter()
        .map(|w| (w * 1000.0).round() / 1000.0)
        .collect();
    match report {
        Some(mut report) => {
            report["rank_weights"] = serde_json::json!(rounded);
            println!("{report}");
        }
        None => {
            let text: Vec<String> = rounded.iter().map(f64::to_string).collect();
            println!("{}", text.join(","));
        }
    }
}

/// `--from-paths`: one fit on the solutions in `fit.boards`.
fn run_on_paths(fit: &FitRank, quiet: bool, json: bool) -> Result<(), CliError> {
    let text = read_file(&fit.boards)?;
    let name = fit.boards.display();
    let cli = TilesCli::for_fit(fit, &[]);
    let prepared = Heuristics::default();
    let mut normal = Normal::default();
    let mut data = fit
        .network_data
        .as_deref()
        .map(|path| NetworkData::create(path, fit.network_cousins))
        .transpose()?;
    let (mut paths, mut unsolved, mut total, mut feature_count) = (0u64, 0u64, 0u64, 0);
    for (index, line) in text.lines().enumerate() {
        let line_no = index + 1;
        if line.trim().is_empty() {
            continue;
        }
        let bad = |why: &str| CliError::Input(format!("{name}: line {line_no}: {why}"));
        let row: serde_json::Value = serde_json::from_str(line).map_err(|e| {
            bad(&format!(
                "not a JSON line of `frontier --json solve tiles` ({e})"
            ))
        })?;
        // A results file's header (`frontier run --output F.json`).
        if row.get("frontier_results").is_some() {
            continue;
        }
        if row["solved"] == serde_json::Value::Bool(false) {
            unsolved += 1;
            continue;
        }
        let (Some(board), Some(moves)) = (row["instance_text"].as_str(), row["path"].as_array())
        else {
            return Err(bad(
                "no `instance_text` and `path`: give the lines `frontier --json solve tiles` prints",
            ));
        };
        let instance = Instance {
            id: format!("line {line_no} of {name}"),
            text: board.to_string(),
            ..Instance::default()
        };
        let (puzzle, heuristic) = board_and_heuristic(&cli, &prepared, &instance)?;
        let pdb = one_partition(&heuristic)?;
        let mut states = vec![puzzle.start()];
        for (k, step) in moves.iter().enumerate() {
            // A move as solutions print it: its one letter (`Dir::letter`).
            let dir = Dir::ALL
                .into_iter()
                .find(|d| step.as_str().is_some_and(|s| s.chars().eq([d.letter()])))
                .ok_or_else(|| bad(&format!("move {} is {step}, not U, D, L or R", k + 1)))?;
            let last = states[states.len() - 1];
            let next = last
                .slide(puzzle.board(), dir)
                .ok_or_else(|| bad(&format!("move {} ({step}) leaves the board", k + 1)))?;
            states.push(next);
        }
        if states.last() != Some(puzzle.goal_state()) {
            return Err(bad(&format!(
                "its path of {} moves does not end at the goal",
                moves.len()
            )));
        }
        paths += 1;
        total += moves.len() as u64;
        feature_count = add_path(&mut normal, pdb, &states, fit);
        if let Some(data) = data.as_mut() {
            data.add_path(&puzzle, pdb, &states)?;
        }
    }
    if paths == 0 {
        return Err(CliError::Input(format!("{name}: no solved path to fit on")));
    }
    let weights = all_weights(normal.solve()?, feature_count);
    finish_data(data, fit, quiet)?;
    let mean = total as f64 / paths as f64;
    if !quiet {
        eprintln!("fitted on {paths} paths of mean length {mean:.2}, {unsolved} unsolved left out");
    }
    print_weights(
        &weights,
        json.then(|| {
            serde_json::json!({
                "paths": paths,
                "unsolved": unsolved,
                "mean_path": mean,
            })
        }),
    );
    Ok(())
}

/// Closes `--network-data`'s file, saying what it holds.
fn finish_data(data: Option<NetworkData>, fit: &FitRank, quiet: bool) -> Result<(), CliError> {
    if let (Some(data), Some(path)) = (data, &fit.network_data) {
        let paths = data.finish()?;
        if !quiet {
            let cousins = if fit.network_cousins {
                " and cousins"
            } else {
                ""
            };
            eprintln!(
                "wrote {paths} paths' states and siblings{cousins} to {}",
                path.display()
            );
        }
    }
    Ok(())
}

/// How many of `features` are the databases' own values (all but the
/// sums and the conflicts: three with the reflection, two without).
fn per_database(features: &[f64], reflect: bool) -> usize {
    features.len() - if reflect { 3 } else { 2 }
}

/// One board and its heuristic (built once per shape and goal).
fn board_and_heuristic(
    cli: &TilesCli,
    prepared: &Heuristics,
    instance: &Instance,
) -> Result<(Tiles, std::sync::Arc<TilesHeuristic>), CliError> {
    let puzzle = Tiles::parse(&instance.text, cli.goal).map_err(|e| CliError::Instance {
        id: instance.id.clone(),
        message: e.to_string(),
    })?;
    let heuristic = cli.heuristic_for(prepared, &puzzle)?;
    Ok((puzzle, heuristic))
}

/// The normal equations of a least-squares fit with an intercept (the last
/// column), summed row by row.
#[derive(Default)]
struct Normal {
    /// XᵀX, row-major, over the features and the intercept.
    xtx: Vec<f64>,
    /// Xᵀy.
    xty: Vec<f64>,
    rows: u64,
}

impl Normal {
    fn add(&mut self, features: &[f64], target: f64) {
        let n = features.len() + 1;
        if self.xty.is_empty() {
            self.xtx = vec![0.0; n * n];
            self.xty = vec![0.0; n];
        }
        let x = |i: usize| if i + 1 == n { 1.0 } else { features[i] };
        for i in 0..n {
            self.xty[i] += x(i) * target;
            for j in 0..n {
                self.xtx[i * n + j] += x(i) * x(j);
            }
        }
        self.rows += 1;
    }

    /// The weights without the intercept. A small ridge keeps collinear
    /// features (without the reflection the sum is the databases' sum)
    /// solvable: it picks the smallest weights among equal fits.
    fn solve(&self) -> Result<Vec<f64>, CliError> {
        let n = self.xty.len();
        if self.rows < n as u64 {
            return Err(CliError::Input(format!(
                "tiles fit-rank: {} path states for {} weights: give more boards",
                self.rows,
                n - 1
            )));
        }
        let trace: f64 = (0..n).map(|i| self.xtx[i * n + i]).sum();
        let ridge = 1e-9 * trace / n as f64;
        let mut a = self.xtx.clone();
        let mut b = self.xty.clone();
        for i in 0..n - 1 {
            a[i * n + i] += ridge;
        }
        // Gaussian elimination with partial pivoting.
        for col in 0..n {
            let pivot = (col..n)
                .max_by(|&r, &s| a[r * n + col].abs().total_cmp(&a[s * n + col].abs()))
                .unwrap_or(col);
            if a[pivot * n + col].abs() < 1e-12 {
                return Err(CliError::Input(
                    "tiles fit-rank: the features do not vary over these paths: give more or other boards".into(),
                ));
            }
            for k in 0..n {
                a.swap(col * n + k, pivot * n + k);
            }
            b.swap(col, pivot);
            for r in col + 1..n {
                let f = a[r * n + col] / a[col * n + col];
                for k in col..n {
                    a[r * n + k] -= f * a[col * n + k];
                }
                b[r] -= f * b[col];
            }
        }
        let mut w = vec![0.0; n];
        for r in (0..n).rev() {
            let s: f64 = (r + 1..n).map(|k| a[r * n + k] * w[k]).sum();
            w[r] = (b[r] - s) / a[r * n + r];
        }
        w.pop();
        Ok(w)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Targets made from known weights come back, up to rounding.
    #[test]
    fn least_squares_recovers_known_weights() {
        let truth = [0.5, -1.25, 2.0];
        let mut normal = Normal::default();
        let mut seed = 7u64;
        for _ in 0..200 {
            let f: Vec<f64> = (0..3)
                .map(|_| {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    (seed >> 40) as f64 / 1e5
                })
                .collect();
            let y = 3.0 + f.iter().zip(truth).map(|(a, b)| a * b).sum::<f64>();
            normal.add(&f, y);
        }
        let w = normal.solve().unwrap();
        for (got, want) in w.iter().zip(truth) {
            assert!((got - want).abs() < 1e-6, "{w:?}");
        }
    }

    #[test]
    fn too_few_states_are_refused() {
        let mut normal = Normal::default();
        normal.add(&[1.0, 2.0], 3.0);
        let e = normal.solve().unwrap_err().to_string();
        assert!(e.contains("1 path states for 2 weights"), "{e}");
    }
}
