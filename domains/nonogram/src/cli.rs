//! `frontier nonogram`: solve puzzles (first solution, or up to k for a
//! uniqueness verdict) on any method, print grids, JSON or PNG; convert
//! between formats.

use std::io::Write;
use std::path::PathBuf;

use crate::{
    cdcl::solve_cdcl_until, png, solve, solve_portfolio, NonogramSearch, Puzzle, SolveOptions,
    SolveOutcome, SolveStats, Verdict,
};
use frontier_core::{astar, hda, Blind, HdaConfig, Limits, SearchOptions, StdHasher};

use frontier_app::CliError;

/// Nonogram commands.
#[derive(Debug, clap::Subcommand)]
pub enum NonogramCommand {
    /// Solve puzzles (`.nin` or `.non`, detected by content).
    Solve {
        /// Puzzle files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Look for up to this many solutions (2, the default, gives a
        /// uniqueness verdict; 1 the first solution only). astar, hda and
        /// mpi-hda find the first only and refuse any other count.
        #[arg(long)]
        solutions: Option<usize>,
        /// cdcl (learning from conflicts), dfs (probing + depth-first
        /// guessing), portfolio (cdcl, dfs and differently seeded cdcl racing
        /// on all threads), walk (the framework's depth-first walk), astar,
        /// hda or mpi-hda (the framework's best-first executors; first
        /// solution only; mpi-hda under mpirun).
        #[arg(long, default_value = "cdcl")]
        method: Method,
        /// Threads for hda and portfolio [default: all cores].
        #[arg(long)]
        threads: Option<usize>,
        /// cdcl only: a seed other than 0 starts from random guess
        /// activities and phases (and skips the opening depth-first
        /// search), as the portfolio's seeded racers do: runs over several
        /// seeds show how much a puzzle's time owes to luck.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Give up on a puzzle after this many seconds (verdict unknown).
        #[arg(long, value_parser = frontier_core::search::parse_seconds)]
        max_seconds: Option<f64>,
        /// Write the first solution as a PNG (one puzzle only).
        #[arg(long)]
        png: Option<PathBuf>,
        /// Pixels per cell in the PNG.
        #[arg(long, default_value_t = 8)]
        scale: usize,
        /// Do not print grids, only the verdict line.
        #[arg(long)]
        no_grid: bool,
    },
    /// Line-solve many random puzzles at once, on the CPU and (with --gpu)
    /// on the GPU, check both agree, and report puzzles per second.
    Bench {
        /// Puzzles (random images turned into clues).
        #[arg(long, default_value_t = 100_000)]
        count: usize,
        /// Puzzle size (sides up to 63 on the GPU).
        #[arg(long, default_value = "30x30")]
        size: String,
        /// Share of filled cells in the random images, in percent.
        #[arg(long, default_value_t = 60)]
        density: u64,
        /// Seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// CPU threads (0 = all cores).
        #[arg(long, default_value_t = 0)]
        threads: usize,
        /// Also run on the GPU.
        #[arg(long)]
        gpu: bool,
    },
    /// Rewrite a puzzle in another format.
    Convert {
        /// The puzzle.
        file: PathBuf,
        /// nin or non.
        #[arg(long, default_value = "non")]
        to: String,
    },
}

/// How to search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Method {
    /// Conflict-driven search with learned clauses.
    Cdcl,
    /// Probing at every node, depth-first guesses.
    Dfs,
    /// cdcl, dfs and differently seeded cdcl racing, one per thread; the
    /// first verdict wins.
    Portfolio,
    /// The framework's depth-first walk over `NonogramSearch`.
    Walk,
    /// The framework's A* over `NonogramSearch` (fewest guesses).
    Astar,
    /// The framework's HDA* over `NonogramSearch`.
    Hda,
    /// HDA* over the ranks of an MPI job (`mpirun -np N frontier nonogram
    /// solve --method mpi-hda`; a build with `--features mpi`).
    MpiHda,
}

fn load(path: &std::path::Path) -> Result<Puzzle, CliError> {
    let text = frontier_app::plugin::read_file(path)?;
    Puzzle::parse(&text).map_err(|e| CliError::Input(format!("{}: {e}", path.display())))
}

fn grid_text(puzzle: &Puzzle, filled: &[bool]) -> String {
    filled
        .chunks(puzzle.width)
        .map(|row| {
            row.iter()
                .map(|&f| if f { '#' } else { '.' })
                .collect::<String>()
                + "\n"
        })
        .collect()
}

/// The solutions to look for: `requested`, else 2 (a uniqueness verdict).
/// The best-first methods find the first solution only, so a count of 2 or
/// more given with them is refused rather than left undone; `prefix` is
/// how the caller names the setting ("--" for a flag, "" in RON).
fn solutions_to_find(
    method: Method,
    requested: Option<usize>,
    prefix: &str,
) -> Result<usize, CliError> {
    let name = |m: Method| {
        clap::ValueEnum::to_possible_value(&m)
            .map_or_else(String::new, |v| v.get_name().to_string())
    };
    match requested {
        Some(0) => Err(CliError::Input(format!(
            "{prefix}solutions must be at least 1"
        ))),
        Some(k @ 2..) if matches!(method, Method::Astar | Method::Hda | Method::MpiHda) => {
            Err(CliError::Input(format!(
                "{prefix}solutions {k}: {prefix}method {} finds the first solution only; \
                 cdcl, dfs, portfolio and walk look for more",
                name(method)
            )))
        }
        Some(k) => Ok(k),
        None => Ok(2),
    }
}

/// Runs one method on one puzzle.
fn run_method(
    puzzle: &Puzzle,
    method: Method,
    k: usize,
    threads: Option<usize>,
    seed: u64,
    max_seconds: Option<f64>,
) -> Result<SolveOutcome, CliError> {
    if seed != 0 && method != Method::Cdcl {
        return Err(CliError::Input("a seed applies to method cdcl only".into()));
    }
    let options = SolveOptions {
        max_solutions: k,
        probing: true,
        max_seconds,
    };
    let started = std::time::Instant::now();
    let deadline = max_seconds.and_then(|s| frontier_core::search::deadline_after(started, s));
    // The framework's methods: the start state's probe (cut at the deadline)
    // comes first, then the executor gets the time left.
    let framework_search = || {
        let search = NonogramSearch::until(puzzle, true, deadline);
        let limits = SearchOptions::with_limits(Limits {
            max_seconds: max_seconds.map(|s| (s - started.elapsed().as_secs_f64()).max(0.0)),
            ..Limits::default()
        });
        (search, limits)
    };
    let framework = |solutions: Vec<Vec<bool>>, verdict: Verdict, nodes: u64| SolveOutcome {
        solutions,
        verdict,
        line_solved: false,
        stats: SolveStats {
            nodes,
            seconds: started.elapsed().as_secs_f64(),
            ..SolveStats::default()
        },
    };
    let first_only = |outcome: frontier_core::DomainOutcome<NonogramSearch>| {
        let nodes = outcome.stats.expanded;
        match outcome.status {
            frontier_core::Status::Solved(s) => {
                let goal = s.states.last().cloned().unwrap_or_default();
                framework(
                    vec![goal.iter().map(|&c| c == 1).collect()],
                    Verdict::Unknown,
                    nodes,
                )
            }
            frontier_core::Status::NoSolution => framework(Vec::new(), Verdict::None, nodes),
            frontier_core::Status::LimitReached(_) => {
                framework(Vec::new(), Verdict::Unknown, nodes)
            }
        }
    };
    Ok(match method {
        Method::Cdcl => solve_cdcl_until(puzzle, &options, seed, crate::solver::Cutoff::at),
        Method::Dfs => solve(puzzle, &options),
        Method::Portfolio => solve_portfolio(
            puzzle,
            &options,
            frontier_app::plugin::thread_count(threads.unwrap_or(0))?,
        ),
        Method::Walk => {
            let (search, limits) = framework_search();
            let (solutions, verdict, expanded) = search.solutions(k.max(1), &limits);
            framework(solutions, verdict, expanded)
        }
        Method::Astar => {
            let (search, limits) = framework_search();
            first_only(astar(&search, &Blind, &limits)?)
        }
        Method::Hda => {
            let defaults = HdaConfig::default();
            let config = HdaConfig {
                threads: frontier_core::check_threads("hda", threads.unwrap_or(defaults.threads))?,
                ..defaults
            };
            let (search, limits) = framework_search();
            first_only(hda(&search, &Blind, &StdHasher, &config, &limits)?)
        }
        Method::MpiHda => {
            let (search, limits) = framework_search();
            first_only(frontier_core::search::mpi_hda(
                &search,
                &Blind,
                &StdHasher,
                &frontier_core::search::MpiHdaConfig::default(),
                &limits,
            )?)
        }
    })
}

/// Runs a nonogram command; `json` prints one object per puzzle.
pub fn run(command: &NonogramCommand, json: bool) -> Result<(), CliError> {
    // The ranks of an MPI job compute the same results; the first prints.
    let printing = frontier_app::prints_results();
    let mut out: Box<dyn Write> = if printing {
        Box::new(std::io::stdout().lock())
    } else {
        Box::new(std::io::sink())
    };
    let io = frontier_app::stdout_error;
    match command {
        NonogramCommand::Bench {
            count,
            size,
            density,
            seed,
            threads,
            gpu,
        } => {
            let bench = LineBench {
                count: *count,
                size: size.clone(),
                density: *density,
                threads: *threads,
                gpu: *gpu,
            };
            let result = bench.run(*seed)?;
            let (count, (w, h)) = (result.count, result.size);
            let mut summary = serde_json::json!({
                "puzzles": count, "width": w, "height": h, "density": density, "seed": seed,
                "line_solved": result.solved, "threads": result.threads,
                "cpu_seconds": result.cpu_seconds, "cpu_puzzles_per_second": count as f64 / result.cpu_seconds,
            });
            if !json {
                writeln!(
                    out,
                    "{count} random {w}x{h} puzzles ({density}% filled): line solving alone finishes {}; \
                     CPU ({} threads) {:.3} s = {:.0} puzzles/s",
                    result.solved,
                    result.threads,
                    result.cpu_seconds,
                    count as f64 / result.cpu_seconds
                )
                .map_err(io)?;
            }
            if let Some(gpu) = &result.gpu {
                summary["gpu"] = serde_json::json!({
                    "device": gpu.device, "kernel_seconds": gpu.kernel_seconds,
                    "wall_seconds": gpu.wall_seconds, "differ": 0,
                });
                if !json {
                    writeln!(
                        out,
                        "GPU {}: kernel {:.3} s = {:.0} puzzles/s; with transfers {:.3} s = {:.0} puzzles/s; \
                         0 of {count} differ from the CPU",
                        gpu.device,
                        gpu.kernel_seconds,
                        count as f64 / gpu.kernel_seconds.max(1e-12),
                        gpu.wall_seconds,
                        count as f64 / gpu.wall_seconds
                    )
                    .map_err(io)?;
                }
            }
            if json {
                writeln!(out, "{summary}").map_err(io)?;
            }
            Ok(())
        }
        NonogramCommand::Convert { file, to } => {
            let puzzle = load(file)?;
            let text = match to.as_str() {
                "nin" => puzzle.to_nin(),
                "non" => puzzle.to_non(),
                other => {
                    return Err(CliError::Input(format!(
                        "--to {other}: expected nin or non"
                    )))
                }
            };
            if json {
                let value = serde_json::json!({ "format": to, "text": text });
                writeln!(out, "{value}").map_err(io)?;
            } else {
                write!(out, "{text}").map_err(io)?;
            }
            Ok(())
        }
        NonogramCommand::Solve {
            files,
            solutions,
            method,
            threads,
            seed,
            max_seconds,
            png: png_path,
            scale,
            no_grid,
        } => {
            if png_path.is_some() && files.len() > 1 {
                return Err(CliError::Input("--png takes one puzzle".into()));
            }
            let solutions = solutions_to_find(*method, *solutions, "--")?;
            if threads.is_some() && !matches!(method, Method::Hda | Method::Portfolio) {
                return Err(CliError::Input(
                    "--threads applies to --method hda and portfolio only".into(),
                ));
            }
            let mut wrong = Vec::new();
            for file in files {
                let puzzle = load(file)?;
                let outcome =
                    run_method(&puzzle, *method, solutions, *threads, *seed, *max_seconds)?;
                // Every solution is checked against the clues before it is shown.
                let checked = outcome.solutions.iter().all(|s| puzzle.accepts(s));
                if !checked {
                    wrong.push(file.display().to_string());
                }
                let name = file.display().to_string();
                if json {
                    let grids: Vec<String> = outcome
                        .solutions
                        .iter()
                        .map(|s| grid_text(&puzzle, s))
                        .collect();
                    let value = serde_json::json!({
                        "puzzle": name, "width": puzzle.width, "height": puzzle.height,
                        "method": format!("{method:?}").to_lowercase(),
                        "verdict": outcome.verdict, "solutions": grids,
                        "checked": checked, "line_solved": outcome.line_solved,
                        "stats": outcome.stats,
                    });
                    writeln!(out, "{value}").map_err(io)?;
                } else {
                    if !no_grid {
                        if let Some(first) = outcome.solutions.first() {
                            write!(out, "{}", grid_text(&puzzle, first)).map_err(io)?;
                        }
                    }
                    writeln!(
                        out,
                        "{name}: {}x{} {} ({} solution(s) found{}), {:.3} s, {} nodes",
                        puzzle.width,
                        puzzle.height,
                        outcome.verdict,
                        outcome.solutions.len(),
                        if outcome.line_solved {
                            ", line solving alone"
                        } else {
                            ""
                        },
                        outcome.stats.seconds,
                        outcome.stats.nodes
                    )
                    .map_err(io)?;
                }
                if let Some(path) = png_path.as_ref().filter(|_| printing) {
                    let first = outcome
                        .solutions
                        .first()
                        .ok_or_else(|| CliError::Input(format!("{name}: no solution to draw")))?;
                    let image = png::encode(puzzle.width, puzzle.height, first, *scale);
                    frontier_core::files::write_atomic(path, &image).map_err(|source| {
                        CliError::Io {
                            path: path.clone(),
                            source,
                        }
                    })?;
                }
            }
            if !wrong.is_empty() {
                return Err(CliError::Input(format!(
                    "solutions that break their clues (a bug): {}",
                    wrong.join(", ")
                )));
            }
            Ok(())
        }
    }
}

/// Nonograms as an experiment (`domain: Nonogram(…)` in RON, `frontier
/// solve nonogram FILE`): each instance is a puzzle, its row the verdict
/// (`unique`, `multiple`, `none`, `unknown` at a limit) with every solution
/// found checked against the clues. Instance files: a puzzle (`.nin` or
/// `.non`), a folder of them, or an `INDEX.tsv` whose `id` names
/// `<id>.nin`/`<id>.non` beside it and whose `unique` column (yes / no) is
/// the known verdict, checked.
/// Line solving of random puzzles for a rate, as `nonogram bench` and the
/// RON `Bench(…)` job take it.
#[derive(Clone, Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LineBench {
    /// Puzzles (random images turned into clues).
    #[serde(default = "default_bench_count")]
    pub count: usize,
    /// Puzzle size, `WxH` (sides up to 63 on the GPU).
    #[serde(default = "default_bench_size")]
    pub size: String,
    /// Share of filled cells in the random images, in percent.
    #[serde(default = "default_density")]
    pub density: u64,
    /// CPU threads (0: all cores).
    #[serde(default)]
    pub threads: usize,
    /// Also line-solve on the GPU, every grid compared with the CPU's.
    #[serde(default)]
    pub gpu: bool,
}

fn default_bench_count() -> usize {
    100_000
}

fn default_bench_size() -> String {
    "30x30".into()
}

fn default_density() -> u64 {
    60
}

/// What a [`LineBench`] measured.
struct LineBenchResult {
    count: usize,
    size: (usize, usize),
    /// Puzzles that line solving alone finishes.
    solved: usize,
    threads: usize,
    cpu_seconds: f64,
    gpu: Option<GpuLineBench>,
}

struct GpuLineBench {
    device: String,
    kernel_seconds: f64,
    wall_seconds: f64,
}

impl LineBench {
    /// Line-solves `count` random puzzles from `seed` on the CPU (and the
    /// GPU); an error if a GPU grid differs from the CPU's.
    fn run(&self, seed: u64) -> Result<LineBenchResult, CliError> {
        let (count, size, density) = (self.count, &self.size, self.density);
        let (w, h) = size
            .split_once('x')
            .and_then(|(w, h)| Some((w.parse::<usize>().ok()?, h.parse::<usize>().ok()?)))
            .filter(|&(w, h)| w > 0 && h > 0 && w <= 1000 && h <= 1000)
            .ok_or_else(|| CliError::Input(format!("size {size}: expected WxH, e.g. 30x30")))?;
        if density > 100 {
            return Err(CliError::Input(format!(
                "density {density}: a share of cells, 0 to 100 percent"
            )));
        }
        frontier_app::plugin::check_bench_count(count, w * h, "puzzles")?;
        let mut rng = frontier_core::rng::SplitMix64::new(seed);
        let puzzles: Vec<Puzzle> = (0..count)
            .map(|_| {
                let image: Vec<bool> = (0..w * h).map(|_| rng.below(100) < density).collect();
                Puzzle::from_grid(w, h, &image)
            })
            .collect::<Result<_, _>>()
            .map_err(|e| CliError::Input(e.to_string()))?;
        let puzzle_of: Vec<u32> = (0..count as u32).collect();
        let blank = vec![0u8; count * w * h];
        let pool = frontier_app::plugin::thread_pool(self.threads)?;
        let mut cpu_grids = blank.clone();
        let started = std::time::Instant::now();
        let cpu = pool.install(|| crate::gpu::propagate_cpu(&puzzles, &puzzle_of, &mut cpu_grids));
        let cpu_seconds = started.elapsed().as_secs_f64();
        let solved = cpu
            .iter()
            .filter(|&&p| p == crate::gpu::Propagated::Solved)
            .count();
        let mut result = LineBenchResult {
            count,
            size: (w, h),
            solved,
            threads: pool.current_num_threads(),
            cpu_seconds,
            gpu: None,
        };
        if !self.gpu {
            return Ok(result);
        }
        let propagator =
            crate::gpu::GpuPropagator::new(0).map_err(|e| CliError::Input(e.to_string()))?;
        // A first small batch compiles and warms up.
        let mut warm = blank[..(w * h).min(blank.len())].to_vec();
        propagator
            .propagate(
                &puzzles[..1.min(count)],
                &puzzle_of[..1.min(count)],
                &mut warm,
            )
            .map_err(|e| CliError::Input(e.to_string()))?;
        let mut gpu_grids = blank;
        let started = std::time::Instant::now();
        let (status, kernel) = propagator
            .propagate(&puzzles, &puzzle_of, &mut gpu_grids)
            .map_err(|e| CliError::Input(e.to_string()))?;
        let wall = started.elapsed().as_secs_f64();
        let differ = (0..count)
            .filter(|&i| {
                let same_grid =
                    cpu_grids[i * w * h..(i + 1) * w * h] == gpu_grids[i * w * h..(i + 1) * w * h];
                status[i] != cpu[i]
                    || (cpu[i] != crate::gpu::Propagated::Contradiction && !same_grid)
            })
            .count();
        if differ > 0 {
            return Err(CliError::Input(format!(
                "{differ} of {count} grids differ between CPU and GPU"
            )));
        }
        result.gpu = Some(GpuLineBench {
            device: propagator.device_name().to_string(),
            kernel_seconds: kernel,
            wall_seconds: wall,
        });
        Ok(result)
    }
}

/// What each instance of a nonogram experiment is.
#[derive(Clone, Debug, Default, serde::Deserialize)]
pub enum NonogramJob {
    /// Instances are puzzles; the row's verdict is checked against INDEX.tsv.
    #[default]
    Solve,
    /// Instances are seeds of random puzzles, line-solved for a rate; the
    /// row's value is puzzles per second (the GPU kernel's with `gpu`).
    Bench(LineBench),
}

/// The nonogram plugin: `frontier solve nonogram` flags and the RON
/// `Nonogram(...)` block.
#[derive(Clone, Debug, serde::Deserialize, clap::Args)]
#[serde(deny_unknown_fields)]
pub struct NonogramCli {
    /// cdcl, dfs, portfolio, walk, astar, hda or mpi-hda (see `nonogram
    /// solve --method`; portfolio and hda use every core here).
    #[arg(long, default_value = "cdcl")]
    #[serde(default = "default_method")]
    pub method: String,
    /// Solutions to look for: 2 (the default) gives a uniqueness verdict, 1
    /// the first only; astar, hda and mpi-hda find the first only and refuse
    /// another count.
    #[arg(long)]
    #[serde(default)]
    pub solutions: Option<usize>,
    /// cdcl only: a seed other than 0 starts from random guess activities
    /// and phases (see `nonogram solve --seed`); a grid over seeds shows
    /// how much a puzzle's time owes to luck.
    #[arg(long, default_value_t = 0)]
    #[serde(default)]
    pub seed: u64,
    /// What each instance is (RON only; `nonogram bench` does the same
    /// from flags).
    #[arg(skip)]
    #[serde(default)]
    pub job: NonogramJob,
}

fn default_method() -> String {
    "cdcl".into()
}

impl NonogramCli {
    fn method(&self) -> Result<Method, CliError> {
        <Method as clap::ValueEnum>::from_str(&self.method, true).map_err(|_| {
            CliError::Input(format!(
                "nonogram method '{}': expected cdcl, dfs, portfolio, walk, astar, hda or mpi-hda",
                self.method
            ))
        })
    }
}

/// Reads one puzzle file as an instance named after the file.
fn puzzle_instance(
    path: &std::path::Path,
    known_verdict: Option<String>,
) -> Result<frontier_app::plugin::Instance, CliError> {
    Ok(frontier_app::plugin::Instance {
        id: path.file_stem().map_or_else(
            || path.display().to_string(),
            |s| s.to_string_lossy().into_owned(),
        ),
        text: frontier_app::plugin::read_file(path)?,
        known_verdict,
        ..Default::default()
    })
}

impl frontier_app::plugin::Plugin for NonogramCli {
    const NAME: &'static str = "nonogram";
    const ABOUT: &'static str = "Nonogram puzzles, each with a checked verdict";

    fn commands() -> Option<clap::Command> {
        Some(frontier_app::plugin::subcommands::<NonogramCommand>(
            Self::NAME,
            "Nonograms: solve (with a uniqueness verdict), draw, convert, benchmark the line solver (CPU and GPU)",
        ))
    }

    fn run_command(
        matches: &clap::ArgMatches,
        context: &frontier_app::Context,
    ) -> Result<(), CliError> {
        use frontier_app::plugin::parse_subcommand;
        run(&parse_subcommand::<NonogramCommand>(matches)?, context.json)
    }
    type Prepared = ();

    fn prepare(&self, _: &[frontier_core::ExecutorConfig]) -> Result<(), CliError> {
        let method = self.method()?;
        solutions_to_find(method, self.solutions, "")
            .map_err(|e| CliError::Input(format!("nonogram: {e}")))?;
        if self.seed != 0 && method != Method::Cdcl {
            return Err(CliError::Input(
                "nonogram: a seed applies to method cdcl only".into(),
            ));
        }
        Ok(())
    }

    fn set_param(
        &mut self,
        key: &str,
        value: &frontier_app::config::GridValue,
    ) -> Result<bool, CliError> {
        match (&mut self.job, key) {
            (NonogramJob::Solve, "method") => self.method = value.text(key)?,
            (NonogramJob::Solve, "seed") => self.seed = value.count(key)?,
            (NonogramJob::Bench(b), "threads") => b.threads = value.count(key)? as usize,
            (NonogramJob::Bench(b), "gpu") => b.gpu = value.flag(key)?,
            (NonogramJob::Bench(b), "size") => b.size = value.text(key)?,
            (NonogramJob::Bench(b), "density") => b.density = value.count(key)?,
            _ => return Ok(false),
        }
        Ok(true)
    }

    fn random_instance(
        &self,
        _size: usize,
        rng: &mut frontier_core::rng::SplitMix64,
    ) -> Result<String, CliError> {
        match self.job {
            NonogramJob::Solve => Err(CliError::Input(
                "nonogram solves the puzzles it is given: list them in a file \
                 (random instances are seeds, for Bench(…) jobs)"
                    .into(),
            )),
            NonogramJob::Bench(_) => Ok(frontier_app::plugin::random_seed(rng)),
        }
    }

    fn read_instances(
        &self,
        path: &std::path::Path,
    ) -> Result<Vec<frontier_app::plugin::Instance>, CliError> {
        if matches!(self.job, NonogramJob::Bench(_)) {
            return frontier_app::plugin::read_lines(path);
        }
        let io = |source| CliError::Io {
            path: path.to_path_buf(),
            source,
        };
        if path.is_dir() {
            let mut files: Vec<PathBuf> = std::fs::read_dir(path)
                .map_err(io)?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "nin" || e == "non"))
                .collect();
            files.sort();
            return files.iter().map(|f| puzzle_instance(f, None)).collect();
        }
        if path.extension().is_some_and(|e| e != "tsv") {
            return Ok(vec![puzzle_instance(path, None)?]);
        }
        let text = frontier_app::plugin::read_file(path)?;
        let mut lines = text.lines().enumerate();
        let header: Vec<&str> = lines
            .next()
            .map(|(_, l)| l.split('\t').collect())
            .unwrap_or_default();
        let column = |name: &str| header.iter().position(|&h| h == name);
        let (Some(id_at), unique_at) = (column("id"), column("unique")) else {
            return Err(CliError::Input(format!(
                "{}: no `id` column",
                path.display()
            )));
        };
        let dir = path.parent().unwrap_or(std::path::Path::new("."));
        lines
            .filter(|(_, l)| !l.trim().is_empty())
            .map(|(n, line)| {
                let fields: Vec<&str> = line.split('\t').collect();
                let id = fields.get(id_at).copied().unwrap_or_default();
                let known = match unique_at.and_then(|k| fields.get(k)).copied() {
                    Some("yes") => Some("unique".to_string()),
                    Some("no") => Some("multiple".to_string()),
                    _ => None,
                };
                // Beside the index first, then in the other data folders:
                // the repository ships the index whole but only the puzzles
                // whose licence allows it (data/NOTICE).
                let beside = ["nin", "non"]
                    .iter()
                    .map(|e| dir.join(format!("{id}.{e}")))
                    .find(|f| f.is_file());
                let elsewhere = || {
                    ["nin", "non"]
                        .iter()
                        .find_map(|e| frontier_core::data::find(format!("nonogram/{id}.{e}")))
                };
                match beside.or_else(elsewhere) {
                    Some(file) => puzzle_instance(&file, known),
                    None if path.starts_with(frontier_core::data::shipped()) => {
                        Ok(frontier_app::plugin::Instance {
                            id: id.to_string(),
                            known_verdict: known,
                            missing: Some(frontier_core::data::missing(format!(
                                "nonogram/{id}.nin"
                            ))),
                            ..Default::default()
                        })
                    }
                    None => Err(CliError::Input(format!(
                        "{}:{}: no {id}.nin or {id}.non beside it",
                        path.display(),
                        n + 1
                    ))),
                }
            })
            .collect()
    }

    fn solve(
        &self,
        _: &(),
        instance: &frontier_app::plugin::Instance,
        executor: &frontier_core::ExecutorConfig,
        options: &frontier_core::SearchOptions,
    ) -> Result<frontier_app::report::InstanceReport, CliError> {
        frontier_app::plugin::no_executor(Self::NAME, executor)?;
        if let NonogramJob::Bench(bench) = &self.job {
            let result = bench.run(instance.seed()?)?;
            let mut report =
                frontier_app::report::InstanceReport::new(Self::NAME, instance, executor);
            report.status = "measured".into();
            report.solved = true;
            report.stats.expanded = result.count as u64;
            report.path = vec![format!("{} of {} line-solved", result.solved, result.count)];
            match &result.gpu {
                Some(gpu) => {
                    report.executor = "line-gpu".into();
                    report.stats.finish(gpu.kernel_seconds);
                    report.path.push(format!(
                        "{}: {:.3} s with transfers",
                        gpu.device, gpu.wall_seconds
                    ));
                }
                None => {
                    report.executor = format!("line-{}", result.threads);
                    report.stats.finish(result.cpu_seconds);
                }
            }
            report.value = Some(report.stats.expansions_per_second);
            return Ok(report);
        }
        // On the command line the instance may be a file's path. A puzzle's
        // text takes several lines, so one line is a path, and one that is
        // not there is named as a missing file, not parsed as a puzzle.
        let text = match std::path::Path::new(&instance.text) {
            p if p.is_file() || !instance.text.trim().contains('\n') => {
                frontier_app::plugin::read_file(p)?
            }
            _ => instance.text.clone(),
        };
        let puzzle = Puzzle::parse(&text).map_err(|e| CliError::Instance {
            id: instance.id.clone(),
            message: e.to_string(),
        })?;
        let method = self.method()?;
        let outcome = run_method(
            &puzzle,
            method,
            solutions_to_find(method, self.solutions, "")?,
            None,
            self.seed,
            options.limits.max_seconds,
        )?;
        let mut report = frontier_app::report::InstanceReport::new(Self::NAME, instance, executor);
        report.executor = format!("{method:?}").to_lowercase();
        let checked = outcome.solutions.iter().all(|s| puzzle.accepts(s));
        report.status = if checked {
            "checked".into()
        } else {
            "WRONG".into()
        };
        report.solved = checked && outcome.verdict != Verdict::Unknown;
        report.verdict = Some(outcome.verdict.to_string());
        report.stats.expanded = outcome.stats.nodes;
        report.stats.seconds = outcome.stats.seconds;
        if !checked {
            return Err(CliError::Instance {
                id: instance.id.clone(),
                message: "a solution does not satisfy the clues".into(),
            });
        }
        Ok(report)
    }
}
