//! `frontier solve tiles "..." --goal korf --heuristic 7-8 --reflect`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::{
    cache, partition, AdditivePdb, Dual, Goal, Manhattan, TileState, Tiles, TilesHeuristic,
};
use frontier_core::search::gpu::{GpuPartitioner, MultiGpuConfig, MultiGpuSession, PackedHasher};
use frontier_core::{Domain, DomainOutcome, ExecutorConfig, SearchOptions, StdHasher};
use serde::Deserialize;

use frontier_app::config::GridValue;
use frontier_app::plugin::{read_file, report, search_with_dual, Instance, Plugin};
use frontier_app::progress::task_bar;
use frontier_app::report::InstanceReport;
use frontier_app::CliError;

/// Sliding-tile parameters. An instance is the tile on each cell, row by
/// row, 0 for the blank (`1 2 3 4 5 6 0 7 8`); non-square boards take a
/// shape prefix (`2x3: 1 2 3 4 0 5`). Instance files: one per line, or TSV
/// with a header naming `id`, `tiles_korf_goal`/`tiles_standard_goal` (the
/// column matching --goal is used) and `optimal_length` (checked).
#[derive(Clone, Debug, Deserialize, clap::Args)]
#[serde(deny_unknown_fields)]
pub struct TilesCli {
    /// Goal convention: korf (blank first, 0 1 2 … N) or standard (1 2 … N
    /// 0), or a goal board of your own written as an instance is ("1 2 3 8 0
    /// 4 7 6 5"; presets then refused: give tile lists).
    #[arg(long, default_value = "standard")]
    #[serde(default = "standard_goal")]
    pub goal: Goal,
    /// manhattan, a pattern-database preset (4-4, 5-5-5, 6-6-3, 7-8, 6-6-6-6,
    /// 5-5-5-5-5-5-5, …), or a partition of tile numbers like 1,2,3,4/5,6,7,8;
    /// several joined by `|` take the largest of their sums.
    #[arg(long, default_value = "manhattan")]
    #[serde(default = "manhattan")]
    pub heuristic: String,
    /// Also look up the state reflected about the main diagonal and take the max.
    #[arg(long)]
    #[serde(default)]
    pub reflect: bool,
    /// Rank a beam's layers by h plus the linear conflicts between tiles of
    /// different pattern databases (between every two tiles with
    /// manhattan), which h does not count; the proven bound still comes
    /// from h alone. Needs --beam, or --incumbent-beam (the beam before
    /// IDA*, which itself searches by h); not with --rank-weights or
    /// --rank-network, which weigh the conflicts themselves.
    #[arg(long)]
    #[serde(default)]
    pub rank_conflicts: bool,
    /// Rank a beam's layers by a learned linear function instead
    /// (`frontier_tiles::linear_rank`): weights for each database's value,
    /// with --reflect each on the reflected board, the larger sum, with
    /// --reflect the smaller sum, and the conflicts across databases, in
    /// that order (comma-separated; RON: a list). Fitted for one partition
    /// of one shape (`results/learned-rank/` has 6×6 5-5-5-5-5-5-5's).
    /// Needs pattern databases of one partition and --beam or
    /// --incumbent-beam; the proven bound still comes from h alone. Not
    /// with --rank-conflicts (the conflicts are its last feature).
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
    #[serde(default)]
    pub rank_weights: Vec<f64>,
    /// Rank a beam's layers by a small learned network instead
    /// (`frontier_tiles::network_rank`), read from this file: the
    /// features of --rank-weights and the tiles' cells, one hidden layer.
    /// Trained for one partition of one shape
    /// (`scripts/train-rank-network.py`; `results/learned-rank/gpu-train/`
    /// has 6×6 5-5-5-5-5-5-5's). Needs pattern databases of one partition
    /// and --beam or --incumbent-beam; not with --rank-weights or
    /// --rank-conflicts.
    #[arg(long)]
    #[serde(default)]
    pub rank_network: Option<PathBuf>,
    /// Also search the dual instance (the same puzzle from the goal's end,
    /// relabelled as an ordinary instance: `frontier_tiles::dual`) with the
    /// same executor after the board itself, and keep the shorter solution
    /// and the larger lower bound. The two searches share the instance's
    /// limits. For beams and weighted searches, whose routes it varies.
    #[arg(long)]
    #[serde(default)]
    pub dual: bool,
    /// With --dual: a dual whose goal keeps the blank where the board has
    /// it (a goal board of its own, the usual goal with one tile swapped
    /// with the blank) instead of one reached by walking the blank to its
    /// nearest corner first. Its optimum is the board's, but its databases
    /// are its own: one more for each tile swapped (the reflection only
    /// where the blank stays on the diagonal).
    #[arg(long)]
    #[serde(default)]
    pub dual_without_walk: bool,
    /// Where pattern databases are cached [default: ~/.cache/frontier/pdb].
    #[arg(long)]
    #[serde(default)]
    pub pdb_dir: Option<PathBuf>,
    /// Threads that build pattern databases [default: all cores].
    #[arg(long)]
    #[serde(default)]
    pub pdb_threads: Option<usize>,
    /// Random instances (`Random(size: 36, …)`, size = cells of a square
    /// board) as random walks of this many moves from the goal (see
    /// [`Self::walk`]); without it, a uniformly random solvable board.
    /// Experiment-only (RON and grid keys): `solve` takes boards, so the
    /// scramble keys are no flags there rather than flags it would ignore.
    #[arg(skip)]
    #[serde(default)]
    pub scramble: Option<u64>,
    /// With `scramble`: each walk's length drawn uniformly from
    /// scramble..=scramble_to instead of fixed.
    #[arg(skip)]
    #[serde(default)]
    pub scramble_to: Option<u64>,
    /// How a scramble walks: no-undo (each move a uniform choice among the
    /// blank's moves but the one undoing the last) or uniform (each step one
    /// of the four directions uniformly, a step off the board a no-op, undoing
    /// allowed: DeepCubeA's generator, whose walks mix far more slowly).
    #[arg(skip)]
    #[serde(default)]
    pub walk: Walk,
}

/// `frontier tiles …`: the domain's own commands.
#[derive(Clone, Debug, clap::Subcommand)]
pub enum TilesCommand {
    /// Fit --rank-weights (a learned beam rank) on boards of your own: CPU
    /// beams solve them, and each path state's remaining length is fitted
    /// on its databases' values, sums and conflicts; prints the weights.
    FitRank(crate::fit_rank::FitRank),
}

/// The random walk a scramble takes from the goal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
pub enum Walk {
    /// A uniform choice among the blank's legal moves but the one undoing
    /// the move before: every step moves a tile.
    #[default]
    NoUndo,
    /// One of the four directions uniformly per step; a step off the board
    /// leaves the board as it is and undoing is allowed. This is how
    /// DeepCubeA's test sets are generated (its `generate_states`), so a
    /// walk of the same length gives instances of the same kind.
    Uniform,
}

impl std::str::FromStr for Walk {
    type Err = CliError;
    fn from_str(s: &str) -> Result<Walk, CliError> {
        match s {
            "no-undo" | "NoUndo" => Ok(Walk::NoUndo),
            "uniform" | "Uniform" => Ok(Walk::Uniform),
            other => Err(CliError::Input(format!(
                "tiles: walk '{other}': give no-undo or uniform"
            ))),
        }
    }
}

/// The most moves a scramble makes: beyond it a typo, not an experiment
/// (random walks of a few thousand moves already mix a 7×7 board).
const MOST_SCRAMBLE: u64 = 100_000_000;

impl TilesCli {
    /// A random instance of a square board of `cells` cells under this
    /// config's goal: a scramble of [`Self::scramble`] moves, else a
    /// uniformly random solvable board.
    pub fn random_board(
        &self,
        cells: usize,
        rng: &mut frontier_core::rng::SplitMix64,
    ) -> Result<String, CliError> {
        let side = (2..=7u8)
            .find(|&s| usize::from(s) * usize::from(s) == cells)
            .ok_or_else(|| {
                CliError::Input(format!(
                    "tiles: Random size {cells}: give the cells of a square board (4, 9, 16, 25, 36 or 49)"
                ))
            })?;
        let board = crate::Board::new(side, side).map_err(tiles_error)?;
        self.goal.fits(&board).map_err(tiles_error)?;
        let goal = TileState::goal(&board, self.goal);
        if self.scramble.is_none() && (self.scramble_to.is_some() || self.walk != Walk::NoUndo) {
            return Err(CliError::Input(
                "tiles: scramble_to and walk shape a scramble: give scramble (moves) too".into(),
            ));
        }
        let state = match self.scramble {
            Some(least) => {
                let most = self.scramble_to.unwrap_or(least);
                if most > MOST_SCRAMBLE {
                    return Err(CliError::Input(format!(
                        "tiles: scramble {most}: at most {MOST_SCRAMBLE} moves"
                    )));
                }
                if most < least {
                    return Err(CliError::Input(format!(
                        "tiles: scramble_to {most} is below scramble {least}"
                    )));
                }
                let moves = least + rng.below(most - least + 1);
                walk(&board, goal, moves, self.walk, rng)
            }
            None => {
                let mut tiles: Vec<u8> = (0..cells as u8).collect();
                for i in (1..cells).rev() {
                    tiles.swap(i, rng.below(i as u64 + 1) as usize);
                }
                let mut state = TileState::from_tiles(&board, &tiles).map_err(tiles_error)?;
                if !crate::solvable(&board, &state, &goal) {
                    // Swapping two tiles (not the blank) flips the parity.
                    let (a, b) = match (state.blank as usize, cells) {
                        (0, _) => (1, 2),
                        (1, _) => (0, 2),
                        _ => (0, 1),
                    };
                    state.cells.swap(a, b);
                }
                state
            }
        };
        Ok(state.cells[..cells]
            .iter()
            .map(|t| t.to_string())
            .collect::<Vec<_>>()
            .join(" "))
    }
}

/// `moves` steps of a random walk of the given kind from `start`.
fn walk(
    board: &crate::Board,
    start: TileState,
    moves: u64,
    kind: Walk,
    rng: &mut frontier_core::rng::SplitMix64,
) -> TileState {
    let mut state = start;
    let mut last: Option<crate::Dir> = None;
    for _ in 0..moves {
        let dir = match kind {
            Walk::Uniform => crate::Dir::ALL[rng.below(4) as usize],
            Walk::NoUndo => {
                let legal: Vec<crate::Dir> = crate::Dir::ALL
                    .into_iter()
                    .filter(|d| Some(d.opposite()) != last)
                    .filter(|&d| board.neighbour(state.blank, d).is_some())
                    .collect();
                // Every cell of a board of 4 or more cells has two
                // neighbours, so one besides the way back is left.
                legal[rng.below(legal.len() as u64) as usize]
            }
        };
        // A uniform step off the board is a no-op, as in DeepCubeA.
        state = state.slide(board, dir).unwrap_or(state);
        last = Some(dir);
    }
    state
}

fn standard_goal() -> Goal {
    Goal::Standard
}

fn manhattan() -> String {
    "manhattan".into()
}

/// Heuristics are built per board shape and goal, on first use, then
/// shared, as are their databases (a dual's goal shares all but one with
/// the usual goal's); so is the GPU session (compiled kernels, device
/// buffers, uploaded PDBs) of either GPU executor: `gpu` is the one-device
/// case of `multi-gpu`.
#[derive(Default)]
pub struct Heuristics(
    Mutex<HashMap<(u8, u8, Goal), Arc<TilesHeuristic>>>,
    Mutex<Option<MultiGpuSession>>,
    Mutex<Option<std::thread::JoinHandle<Result<frontier_core::gpu::Gpu, frontier_core::Error>>>>,
    Mutex<LoadedDbs>,
);

/// Databases loaded, by pattern (tiles, their goal cells, the blank's goal
/// cell), so that the heuristics of several goals share them.
type LoadedDbs = HashMap<(Vec<u8>, Vec<u8>, u8), Arc<crate::PatternDb>>;

impl Heuristics {
    /// Drops the heuristics built so far but keeps their databases, for
    /// flags that rank by other weights over the same tables (a heuristic
    /// is found by shape and goal alone).
    pub(crate) fn forget_heuristics(&self) {
        // A poisoned lock only means another instance's build panicked.
        self.0.lock().unwrap_or_else(|e| e.into_inner()).clear();
    }
}

impl TilesCli {
    /// The flag of the learned rank given, if any, for the messages that
    /// refuse it (`--rank-network` where both were given: that pair is
    /// refused first).
    fn learned_rank_flag(&self) -> Option<&'static str> {
        if self.rank_network.is_some() {
            Some("--rank-network")
        } else if !self.rank_weights.is_empty() {
            Some("--rank-weights")
        } else {
            None
        }
    }

    /// The flags `frontier tiles fit-rank` solves its boards with: ranked
    /// by h plus the conflicts without `weights`, else by them.
    pub(crate) fn for_fit(fit: &crate::fit_rank::FitRank, weights: &[f64]) -> TilesCli {
        TilesCli {
            goal: fit.goal,
            heuristic: fit.heuristic.clone(),
            reflect: fit.reflect,
            rank_conflicts: weights.is_empty(),
            rank_weights: weights.to_vec(),
            rank_network: None,
            dual: false,
            dual_without_walk: false,
            pdb_dir: fit.pdb_dir.clone(),
            pdb_threads: None,
            scramble: None,
            scramble_to: None,
            walk: Walk::default(),
        }
    }

    pub(crate) fn heuristic_for(
        &self,
        prepared: &Heuristics,
        puzzle: &Tiles,
    ) -> Result<Arc<TilesHeuristic>, CliError> {
        let board = puzzle.board();
        let goal = puzzle.goal_kind();
        let key = (board.rows(), board.cols(), goal);
        // A poisoned lock only means another instance's build panicked.
        let mut built = prepared.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(h) = built.get(&key) {
            return Ok(h.clone());
        }
        if !self.rank_weights.is_empty() && self.rank_network.is_some() {
            return Err(CliError::Input(
                "tiles: give one learned rank, --rank-weights or --rank-network, not both".into(),
            ));
        }
        if let (true, Some(flag)) = (self.rank_conflicts, self.learned_rank_flag()) {
            // A learned rank reads the conflicts as its last feature, with
            // its own weight: --rank-conflicts would change nothing.
            return Err(CliError::Input(format!(
                "tiles: --rank-conflicts is a rank of its own, and {flag} weighs the conflicts \
                 already: give one of them"
            )));
        }
        let heuristic = if self.heuristic == "manhattan" {
            if let Some(flag) = self.learned_rank_flag() {
                let verb = if self.rank_network.is_some() {
                    "weighs"
                } else {
                    "weigh"
                };
                return Err(CliError::Input(format!(
                    "tiles: {flag} {verb} pattern databases, not manhattan"
                )));
            }
            if self.reflect {
                return Err(CliError::Input(
                    "--reflect applies to pattern databases, not manhattan".into(),
                ));
            }
            let manhattan = Manhattan::new(board, goal);
            TilesHeuristic::Manhattan(if self.rank_conflicts {
                manhattan.ranked_by_conflicts(board, goal)
            } else {
                manhattan
            })
        } else {
            // Every partition is checked before any database is built. The
            // tiles are grouped under the configured goal; an instance of
            // another goal (a dual's) moves their goal cells, sharing a
            // database wherever that leaves its table the same.
            let partitions = self
                .heuristic
                .split('|')
                .map(|spec| {
                    let patterns = partition(spec.trim(), board, self.goal).map_err(tiles_error)?;
                    Ok(patterns
                        .into_iter()
                        .map(|usual| {
                            let n = board.cells();
                            let moved = crate::Pattern {
                                goal_cells: usual
                                    .tiles
                                    .iter()
                                    .map(|&t| goal.cell_of(t, n))
                                    .collect(),
                                tiles: usual.tiles.clone(),
                                blank_goal: goal.cell_of(0, n),
                            };
                            if crate::pdb::same_table(board, &usual, &moved) {
                                usual
                            } else {
                                crate::pdb::with_first_blank(board, moved)
                            }
                        })
                        .collect::<Vec<_>>())
                })
                .collect::<Result<Vec<_>, CliError>>()?;
            let dir = self.pdb_dir.clone().unwrap_or_else(cache::default_dir);
            let threads = self
                .pdb_threads
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from));
            let mut each = Vec::new();
            for patterns in &partitions {
                let mut dbs = Vec::new();
                for pattern in patterns {
                    let total = crate::pdb::placements(board.cells(), pattern.tiles.len());
                    let bar = task_bar(format!("pattern {:?}", pattern.tiles), total);
                    let progress = move |p: crate::BuildProgress| {
                        bar(
                            p.placements_done,
                            format!("depth {} frontier {}", p.level, p.frontier),
                        );
                    };
                    let db_key = (
                        pattern.tiles.clone(),
                        pattern.goal_cells.clone(),
                        pattern.blank_goal,
                    );
                    let mut loaded = prepared.3.lock().unwrap_or_else(|e| e.into_inner());
                    let db = match loaded.get(&db_key) {
                        Some(db) => db.clone(),
                        None => {
                            let db = Arc::new(
                                cache::load_or_build(board, pattern, &dir, threads, &progress)
                                    .map_err(tiles_error)?,
                            );
                            loaded.insert(db_key, db.clone());
                            db
                        }
                    };
                    dbs.push(db);
                }
                // A dual's goal keeps the reflection only where its blank
                // stays on the diagonal (the reflection must map it onto
                // itself); elsewhere it searches by the direct sum.
                let pdb = match AdditivePdb::new(board, goal, dbs.clone(), self.reflect) {
                    Err(crate::TilesError::ReflectNeedsDiagonalBlank(_)) if goal != self.goal => {
                        AdditivePdb::new(board, goal, dbs, false)
                    }
                    built => built,
                }
                .map_err(tiles_error)?;
                each.push(if !self.rank_weights.is_empty() {
                    self.fitted_rank_fits("--rank-weights", partitions.len(), &pdb)?;
                    let reflect = pdb.reflection_maps().is_some();
                    let linear =
                        crate::LinearRank::new(&self.rank_weights, pdb.dbs().len(), reflect)
                            .map_err(tiles_error)?;
                    pdb.ranked_linearly(board, goal, linear)
                        .map_err(tiles_error)?
                } else if let Some(path) = &self.rank_network {
                    self.fitted_rank_fits("--rank-network", partitions.len(), &pdb)?;
                    let text = read_file(path)?;
                    let network =
                        crate::NetworkRank::parse(&text, board.cells(), &pdb.most_rank_features())
                            .map_err(|e| CliError::Input(format!("{}: {e}", path.display())))?;
                    pdb.ranked_by_network(board, goal, network)
                        .map_err(|e| CliError::Input(format!("{}: {e}", path.display())))?
                } else if self.rank_conflicts {
                    pdb.ranked_by_conflicts(board, goal)
                } else {
                    pdb
                });
            }
            if each.len() == 1 {
                TilesHeuristic::Pdb(each.remove(0))
            } else {
                TilesHeuristic::Max(each)
            }
        };
        let heuristic = Arc::new(heuristic);
        built.insert(key, heuristic.clone());
        Ok(heuristic)
    }

    /// Refuses a fitted rank (`flag`: `--rank-weights` or `--rank-network`) where
    /// its features would not mean what they meant when it was fitted: over
    /// several partitions (the features are one partition's databases), or on a
    /// walk-free dual whose goal lost the reflection it was fitted with.
    fn fitted_rank_fits(
        &self,
        flag: &str,
        partitions: usize,
        pdb: &AdditivePdb,
    ) -> Result<(), CliError> {
        if partitions > 1 {
            return Err(CliError::Input(format!(
                "tiles: {flag}: a rank fitted for one partition, not several joined by '|'"
            )));
        }
        if self.reflect && pdb.reflection_maps().is_none() {
            return Err(CliError::Input(format!(
                "tiles: {flag}: a rank fitted with the reflection, which this board's walk-free dual loses (its blank off the diagonal): use --dual without --dual-without-walk"
            )));
        }
        Ok(())
    }
}

fn tiles_error(e: crate::TilesError) -> CliError {
    CliError::Input(e.to_string())
}

impl Plugin for TilesCli {
    const NAME: &'static str = "tiles";
    const BEST_FIRST: bool = true;
    const PARTITIONS: &'static [&'static str] = &[
        "hash", "zobrist", "split", "split-xy", "block", "rows", "cols",
    ];
    const ABOUT: &'static str =
        "Sliding-tile puzzles of up to 49 cells (8- to 48-puzzle) with pattern databases";
    type Prepared = Heuristics;

    fn commands() -> Option<clap::Command> {
        Some(frontier_app::plugin::subcommands::<TilesCommand>(
            Self::NAME,
            "Sliding tiles: fit a learned beam rank",
        ))
    }

    fn run_command(
        matches: &clap::ArgMatches,
        context: &frontier_app::Context,
    ) -> Result<(), CliError> {
        match frontier_app::plugin::parse_subcommand::<TilesCommand>(matches)? {
            TilesCommand::FitRank(fit) => crate::fit_rank::run(&fit, context.quiet, context.json),
        }
    }

    /// Goal and heuristic decide the answer; where pattern databases are
    /// cached and how many threads build them do not.
    fn answer_params(&self) -> String {
        // Named only when set, so that earlier results files still match.
        let mut rank = if self.rank_conflicts {
            "\nrank_conflicts=true".to_string()
        } else {
            String::new()
        };
        if !self.rank_weights.is_empty() {
            let weights: Vec<String> = self.rank_weights.iter().map(f64::to_string).collect();
            rank += &format!("\nrank_weights={}", weights.join(","));
        }
        // The network's contents rank, not its name: a file trained again
        // in place makes other answers.
        if let Some(path) = &self.rank_network {
            let contents = std::fs::read(path).map_or_else(
                |e| format!("unreadable ({e})"),
                |bytes| format!("{:016x}", frontier_core::search::ida::fnv1a(&bytes)),
            );
            rank += &format!("\nrank_network={} {contents}", path.display());
        }
        let dual = match (self.dual, self.dual_without_walk) {
            (true, true) => "\ndual=true\ndual_without_walk=true",
            (true, false) => "\ndual=true",
            _ => "",
        };
        format!(
            "goal={:?}\nheuristic={}\nreflect={}{rank}{dual}",
            self.goal, self.heuristic, self.reflect
        )
    }

    fn set_param(&mut self, key: &str, value: &GridValue) -> Result<bool, CliError> {
        match key {
            "heuristic" => self.heuristic = value.text(key)?,
            "reflect" => self.reflect = value.flag(key)?,
            "rank_conflicts" => self.rank_conflicts = value.flag(key)?,
            "rank_network" => self.rank_network = Some(PathBuf::from(value.text(key)?)),
            "dual" => self.dual = value.flag(key)?,
            "dual_without_walk" => self.dual_without_walk = value.flag(key)?,
            "scramble" => self.scramble = Some(value.count(key)?),
            "scramble_to" => self.scramble_to = Some(value.count(key)?),
            "walk" => self.walk = value.text(key)?.parse()?,
            _ => return Ok(false),
        }
        Ok(true)
    }

    fn prepare(&self, executors: &[ExecutorConfig]) -> Result<Heuristics, CliError> {
        let prepared = Heuristics::default();
        // Creating a CUDA context takes a few tenths of a second: do it while
        // the pattern databases load.
        if let Some(ExecutorConfig::Gpu(config)) = executors
            .iter()
            .find(|e| matches!(e, ExecutorConfig::Gpu(_)))
        {
            let device = config.device;
            *prepared.2.lock().unwrap_or_else(|e| e.into_inner()) =
                Some(std::thread::spawn(move || {
                    frontier_core::gpu::Gpu::open(device)
                }));
        }
        Ok(prepared)
    }

    fn random_instance(
        &self,
        size: usize,
        rng: &mut frontier_core::rng::SplitMix64,
    ) -> Result<String, CliError> {
        self.random_board(size, rng)
    }

    fn read_instances(&self, path: &Path) -> Result<Vec<Instance>, CliError> {
        parse_instance_file(&read_file(path)?, self.goal)
            .map_err(|message| CliError::Input(format!("{}: {message}", path.display())))
    }

    fn solve(
        &self,
        prepared: &Heuristics,
        instance: &Instance,
        executor: &ExecutorConfig,
        options: &SearchOptions,
    ) -> Result<InstanceReport, CliError> {
        let puzzle = Tiles::parse(&instance.text, self.goal).map_err(|e| CliError::Instance {
            id: instance.id.clone(),
            message: e.to_string(),
        })?;
        if self.dual_without_walk && !self.dual {
            return Err(CliError::Input(
                "tiles: --dual-without-walk chooses which dual --dual searches: give --dual too"
                    .into(),
            ));
        }
        let rank_flag = self
            .learned_rank_flag()
            .or(self.rank_conflicts.then_some("--rank-conflicts"));
        if let (Some(flag), None, None) = (rank_flag, options.order.beam, executor.incumbent_beam())
        {
            return Err(CliError::Input(format!(
                "tiles: {flag} ranks a beam's layers: give --beam W or --incumbent-beam W too"
            )));
        }
        // Built before the search, so that a bad heuristic is refused first.
        self.heuristic_for(prepared, &puzzle)?;
        let run = |board: &Tiles, options: &SearchOptions| {
            let heuristic = self.heuristic_for(prepared, board)?;
            search(prepared, board, &heuristic, executor, options)
        };
        let outcome = if self.dual {
            let dual = if self.dual_without_walk {
                Dual::without_walk(&puzzle)
            } else {
                Dual::of(&puzzle)
            }
            .map_err(tiles_error)?;
            search_with_dual(&puzzle, &dual, executor, options, run)?
        } else {
            run(&puzzle, options)?
        };
        finish(&puzzle, instance, executor, options, outcome)
    }
}

/// Runs `executor` on one board.
fn search(
    prepared: &Heuristics,
    puzzle: &Tiles,
    heuristic: &Arc<TilesHeuristic>,
    executor: &ExecutorConfig,
    options: &SearchOptions,
) -> Result<DomainOutcome<Tiles>, CliError> {
    let on_gpus = match executor {
        // A beam runs through `run_gpu` below (no GA* session).
        ExecutorConfig::Gpu(_) if options.order.beam.is_some() => None,
        ExecutorConfig::Gpu(config) => Some(config.as_multi()),
        ExecutorConfig::MultiGpu(config) | ExecutorConfig::MpiGpu(config) => Some(config.clone()),
        _ => None,
    };
    let over_mpi = matches!(executor, ExecutorConfig::MpiGpu(_));
    if let Some(config) = on_gpus {
        let outcome = match config.partition.as_str() {
            "hash" => solve_on_gpus(
                prepared,
                puzzle,
                heuristic,
                &PackedHasher,
                &config,
                over_mpi,
                options,
            )?,
            name => {
                let azh =
                    crate::azh::projection(name, puzzle.board(), 0x5EED).map_err(tiles_error)?;
                solve_on_gpus(
                    prepared, puzzle, heuristic, &azh, &config, over_mpi, options,
                )?
            }
        };
        return Ok(outcome);
    }
    let azh = match executor.partition() {
        None | Some("hash") => None,
        Some(name) => {
            Some(crate::azh::projection(name, puzzle.board(), 0x5EED).map_err(tiles_error)?)
        }
    };
    // IDA* moves one board in place; the others take the usual route.
    let heuristic = heuristic.as_ref();
    Ok(
        executor.run_in_place_gpu_or(puzzle, heuristic, options, || match &azh {
            None => executor.run_gpu(puzzle, heuristic, &StdHasher, options),
            Some(azh) => executor.run_gpu(puzzle, heuristic, azh, options),
        })?,
    )
}

/// Solves on the GPU session kept in `prepared`, building it first when
/// it was made for another board, heuristic, partition or set of GPUs;
/// `over_mpi`: on this rank's GPU of an MPI job instead (`mpi-gpu`, which
/// keeps no session).
#[allow(clippy::too_many_arguments)]
fn solve_on_gpus<Q: GpuPartitioner<Tiles>>(
    prepared: &Heuristics,
    puzzle: &Tiles,
    heuristic: &TilesHeuristic,
    partition: &Q,
    config: &MultiGpuConfig,
    over_mpi: bool,
    options: &SearchOptions,
) -> Result<frontier_core::DomainOutcome<Tiles>, CliError> {
    if over_mpi {
        return Ok(frontier_core::search::gpu::mpi_gpu(
            puzzle, heuristic, partition, config, options,
        )?);
    }
    let devices = config.device_list()?;
    // A poisoned lock only means another instance's GPU run panicked.
    let mut session = prepared.1.lock().unwrap_or_else(|e| e.into_inner());
    let reusable = session
        .as_ref()
        .is_some_and(|s| s.fits(puzzle, heuristic, partition) && s.devices() == devices);
    if !reusable {
        *session = None; // free the old buffers before allocating new ones
        let opening = prepared.2.lock().unwrap_or_else(|e| e.into_inner()).take();
        // The device `prepare` opened early, when it is the one asked for.
        let early = opening
            .and_then(|handle| handle.join().ok())
            .and_then(Result::ok)
            .filter(|gpu| devices == [gpu.ctx.ordinal()]);
        let built = match early {
            Some(gpu) => {
                MultiGpuSession::with_gpus(vec![gpu], puzzle, heuristic, partition, config)?
            }
            None => MultiGpuSession::new(puzzle, heuristic, partition, config)?,
        };
        *session = Some(built);
    }
    match session.as_mut() {
        Some(s) => Ok(s.solve(puzzle, heuristic, partition, options)?),
        None => Err(CliError::Input("GPU session could not be created".into())),
    }
}

/// Checks the solution by replaying it, then builds the report.
fn finish(
    puzzle: &Tiles,
    instance: &Instance,
    executor: &ExecutorConfig,
    options: &SearchOptions,
    outcome: frontier_core::DomainOutcome<Tiles>,
) -> Result<InstanceReport, CliError> {
    if let Some(solution) = outcome.solution() {
        check_solution(puzzle, &solution.moves, solution.cost).map_err(|message| {
            CliError::Instance {
                id: instance.id.clone(),
                message,
            }
        })?;
    }
    report::<Tiles>(
        TilesCli::NAME,
        puzzle,
        instance,
        executor,
        options,
        outcome,
        |d| d.letter().to_string(),
    )
}

/// Replays a solution: every move legal, the goal reached, one move per unit of cost.
pub fn check_solution(puzzle: &Tiles, moves: &[crate::Dir], cost: u32) -> Result<(), String> {
    let end: Option<TileState> = puzzle.replay(moves);
    match end {
        Some(state) if puzzle.is_goal(&state) && moves.len() as u32 == cost => Ok(()),
        Some(_) => Err(format!(
            "solution of cost {cost} does not reach the goal (bug)"
        )),
        None => Err("solution leaves the board (bug)".into()),
    }
}

/// Reads plain lines of tiles, or a TSV with a header row.
pub(crate) fn parse_instance_file(text: &str, goal: Goal) -> Result<Vec<Instance>, String> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'));
    let Some((_, first)) = lines.clone().next() else {
        return Ok(Vec::new());
    };
    let header: Vec<&str> = first.split('\t').collect();
    let is_header = header
        .iter()
        .any(|h| h.chars().any(|c| c.is_ascii_alphabetic() && c != 'x'));
    if !is_header {
        return Ok(lines
            .enumerate()
            .map(|(i, (_, l))| Instance {
                id: (i + 1).to_string(),
                text: l.trim().to_string(),
                ..Instance::default()
            })
            .collect());
    }
    lines.next();
    let find = |names: &[&str]| header.iter().position(|h| names.contains(&h.trim()));
    // A goal board of your own reads the plain `tiles` column.
    let goal_column = match goal {
        Goal::Korf => "tiles_korf_goal",
        Goal::Standard => "tiles_standard_goal",
        Goal::Layout(_) => "tiles",
    };
    let tiles = find(&[goal_column, "tiles"])
        .ok_or_else(|| format!("no '{goal_column}' or 'tiles' column in the header"))?;
    let id = find(&["id", "name"]);
    let optimum = find(&["optimal_length", "optimal"]);
    lines
        .map(|(n, line)| {
            let fields: Vec<&str> = line.split('\t').collect();
            let field = |i: usize| {
                fields
                    .get(i)
                    .map(|f| f.trim())
                    .ok_or_else(|| format!("line {}: missing column {}", n + 1, i + 1))
            };
            Ok(Instance {
                id: id.map_or_else(|| Ok(n.to_string()), |i| field(i).map(str::to_string))?,
                text: field(tiles)?.to_string(),
                known_cost: match optimum {
                    Some(i) => {
                        Some(field(i)?.parse().map_err(|_| {
                            format!("line {}: optimal length is not a number", n + 1)
                        })?)
                    }
                    None => None,
                },
                ..Instance::default()
            })
        })
        .collect()
}
