//! The `frontier` command line as a library: a domain is a [`Plugin`],
//! registered with [`App::add`] from any crate, and every registered domain
//! gets `frontier solve`, `frontier run` (RON experiments with grids,
//! repeats, resume, CSV and JSON output), `frontier plot`, progress bars,
//! limits and every executor flag, plus its own subcommands.
//!
//! ```no_run
//! # use frontier_app::App;
//! # #[derive(Clone, Debug, serde::Deserialize, clap::Args)]
//! # struct TopSpin {}
//! # impl frontier_app::Plugin for TopSpin {
//! #     const NAME: &'static str = "topspin";
//! #     const ABOUT: &'static str = "";
//! #     type Prepared = ();
//! #     fn prepare(&self, _: &[frontier_core::ExecutorConfig]) -> Result<(), frontier_app::CliError> { Ok(()) }
//! #     fn solve(&self, _: &(), i: &frontier_app::plugin::Instance, e: &frontier_core::ExecutorConfig,
//! #         _: &frontier_core::SearchOptions) -> Result<frontier_app::report::InstanceReport, frontier_app::CliError> {
//! #         Ok(frontier_app::report::InstanceReport::new(Self::NAME, i, e)) }
//! # }
//! fn main() -> std::process::ExitCode {
//!     App::new().add::<TopSpin>().run()
//! }
//! ```

pub mod config;
pub mod plot;
pub mod plugin;
pub mod progress;
mod registry;
pub mod report;
pub mod results;
pub mod run;

use std::ffi::OsString;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::{Args, FromArgMatches, Subcommand};
use frontier_core::executors::{Param, ParamValue, EXECUTORS};
use frontier_core::search::{mpi, Order, Weight};
use frontier_core::{ExecutorConfig, Limits};
use tracing_indicatif::filter::IndicatifFilter;
use tracing_indicatif::IndicatifLayer;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::{EnvFilter, Layer};

use crate::config::Experiment;
pub use crate::plugin::{Context, Plugin};
pub use crate::registry::{Configured, DomainBlock, Sink};
use crate::registry::{Entry, Registered};
use crate::report::InstanceReport;
use crate::results::{Existing, Output};
use crate::run::RunOptions;

/// The first line of the help, unless [`App::about`] gives another.
const ABOUT: &str = "Parallel best-first search: one domain, every executor.";

/// The flags every command takes.
#[derive(Debug, Args)]
struct Globals {
    /// More log output (-v info, -vv debug); RUST_LOG overrides.
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    verbose: u8,
    /// Print one JSON object per solved instance on stdout instead of a table.
    #[arg(long, global = true)]
    json: bool,
    /// No progress bars.
    #[arg(long, global = true)]
    quiet: bool,
}

/// The commands that belong to no domain.
#[derive(Debug, Subcommand)]
enum Command {
    /// Run an experiment described by a RON config (see configs/).
    Run {
        /// The config file.
        config: PathBuf,
        /// Write results here too (.csv, or .json or .jsonl for JSON lines), a row as
        /// soon as it exists; overrides the config's `output`.
        #[arg(long)]
        output: Option<PathBuf>,
        /// Keep the rows already in the output file and run only the others
        /// (an interrupted experiment goes on where it stopped); refused if
        /// the file holds another experiment.
        #[arg(long, conflicts_with = "overwrite")]
        resume: bool,
        /// With --resume: the rows a limit cut (`time limit`, `memory limit`,
        /// `expansion limit`) are run again, under the limits as they are now
        /// (the config's, or --max-seconds and the like), each replaced in the
        /// file by its new row; an IDA* executor with a checkpoint goes on
        /// from it, so a hard instance can be finished over several runs.
        #[arg(long, requires = "resume")]
        retry_cut: bool,
        /// Replace an output file that already holds results (without it,
        /// or --resume, such a file is refused).
        #[arg(long)]
        overwrite: bool,
        /// Stop each search after this many seconds, in place of the config's
        /// `max_seconds` (the results file records the limits it ran under:
        /// with other limits, resume with --retry-cut).
        #[arg(long, value_parser = frontier_core::search::parse_seconds)]
        max_seconds: Option<f64>,
        /// Stop each search after this many expansions, in place of the
        /// config's `max_expanded`.
        #[arg(long)]
        max_expanded: Option<u64>,
        /// Stop each search when it holds more than this many bytes (4000000000,
        /// 4G = 4 GiB, 4GB = 4·10^9), in place of the config's `max_memory_bytes`.
        #[arg(long, value_parser = frontier_core::search::parse_bytes)]
        max_memory: Option<u64>,
    },
    /// Draw charts of a results file (the CSV or JSON lines `run` writes) as
    /// PNGs: instances solved against time, expansions/s by executor, and
    /// speedup by thread or GPU count.
    Plot {
        /// The results file.
        results: PathBuf,
        /// Directory for the PNGs [default: beside the results file].
        #[arg(long)]
        out: Option<PathBuf>,
    },
}

/// The command line of a program that runs search domains: `frontier`
/// itself (`frontier::App::new().with_builtin()`), or any program that
/// registers its own domains with [`App::add`].
#[derive(Clone, Default)]
pub struct App {
    plugins: Vec<Arc<dyn Registered>>,
    name: Option<&'static str>,
    about: Option<&'static str>,
}

impl std::fmt::Debug for App {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("App")
            .field("domains", &self.names())
            .finish()
    }
}

impl App {
    /// A command line with no domain yet.
    pub fn new() -> App {
        App::default()
    }

    /// The program's name in its help and usage lines [default: `frontier`].
    pub fn named(mut self, name: &'static str) -> App {
        self.name = Some(name);
        self
    }

    /// The help above the command list: its first line, then anything
    /// else (examples) [default: one line on what frontier is].
    pub fn about(mut self, about: &'static str) -> App {
        self.about = Some(about);
        self
    }

    /// Registers domain `P`: `solve <P::NAME>`, RON `domain: <Name>(...)`,
    /// and `P`'s own commands. Two domains of one name are refused when the
    /// program runs.
    pub fn add<P: Plugin>(mut self) -> App {
        self.plugins.push(Arc::new(Entry::<P>::new()));
        self
    }

    /// The registered domains' names, in registration order.
    pub fn names(&self) -> Vec<&'static str> {
        self.plugins.iter().map(|p| p.name()).collect()
    }

    /// Parses the process's arguments, runs the command, prints any error as
    /// one line and says failure in the exit code.
    pub fn run(self) -> ExitCode {
        self.run_from(std::env::args_os())
    }

    /// [`App::run`] with these arguments (the first is the program's name).
    pub fn run_from<I, T>(self, args: I) -> ExitCode
    where
        I: IntoIterator<Item = T>,
        T: Into<OsString> + Clone,
    {
        if let Err(e) = self.check_names() {
            print_error_line(&format!("error: {e}"));
            return ExitCode::FAILURE;
        }
        let matches = match self.command().try_get_matches_from(args) {
            Ok(m) => m,
            Err(e) => e.exit(),
        };
        let globals = match Globals::from_arg_matches(&matches) {
            Ok(g) => g,
            Err(e) => e.exit(),
        };
        init_logging(globals.verbose);
        // Under mpirun every rank starts MPI first, so that it knows its rank
        // before it prints or writes anything.
        #[cfg(feature = "mpi")]
        if mpi::launched_by_mpirun() {
            if let Err(e) = mpi::init() {
                print_error_line(&format!("error: {e}"));
                return ExitCode::FAILURE;
            }
        }
        let result = self.execute(&globals, &matches);
        match (result, mpi::rank_and_size()) {
            (Ok(()), _) => {
                mpi::finalize();
                ExitCode::SUCCESS
            }
            // One rank failing alone would leave the others waiting for it:
            // end the whole job.
            #[cfg(feature = "mpi")]
            (Err(e), Some((rank, ranks))) if ranks > 1 => {
                print_error_line(&format!("error: rank {rank} of {ranks}: {e}"));
                // Open MPI forwards a rank's stderr through its launcher, and the
                // abort tears the job down at once: leave the line a moment to
                // get through first.
                std::thread::sleep(std::time::Duration::from_millis(200));
                mpi::abort(1)
            }
            (Err(e), _) => {
                print_error_line(&format!("error: {e}"));
                mpi::finalize();
                ExitCode::FAILURE
            }
        }
    }

    /// Parses `text` as an experiment config and plans its runs without
    /// running any: `Ok` when `run` would start, else the error it would
    /// print. Never panics, whatever the text (the `config_parse` fuzz
    /// target holds it to that).
    pub fn check_config(&self, text: &str) -> Result<(), String> {
        let path = std::path::Path::new("<fuzz>.ron");
        let experiment = Experiment::parse(text, path, self).map_err(|e| e.to_string())?;
        let done = Default::default();
        let plan = experiment.plan(&done);
        experiment.domain.0.check(&plan).map_err(|e| e.to_string())
    }

    /// Refuses two domains of one name, or a domain whose commands would
    /// hide a command of the runner.
    fn check_names(&self) -> Result<(), CliError> {
        let mut seen = std::collections::HashSet::new();
        for plugin in &self.plugins {
            let name = plugin.name();
            if !seen.insert(name) {
                return Err(CliError::Input(format!(
                    "two domains are registered as '{name}'"
                )));
            }
            if plugin.commands().is_some() && ["run", "plot", "solve", "help"].contains(&name) {
                return Err(CliError::Input(format!(
                    "domain '{name}' has commands of its own, but `{name}` is a command of the runner"
                )));
            }
        }
        Ok(())
    }

    /// The whole command line: the runner's commands, `solve` with one
    /// subcommand per domain, and each domain's own commands.
    fn command(&self) -> clap::Command {
        // `about` is set after `augment_*`, which would put the flag
        // types' own doc comments there.
        let mut solve = SearchFlags::augment_args(clap::Command::new("solve"))
            .about("Solve one instance given on the command line")
            .subcommand_required(true)
            .arg_required_else_help(true);
        let own: Vec<String> = self
            .plugins
            .iter()
            .filter(|p| p.partitions().len() > 1)
            .map(|p| format!("{}: {}", p.name(), p.partitions().join(", ")))
            .collect();
        solve = solve.mut_arg("partition", |arg| {
            arg.help(format!(
                "How hda and multi-gpu distribute states: hash, or a domain's own ({}) [default: hash]",
                own.join("; ")
            ))
        });
        for plugin in &self.plugins {
            solve = solve.subcommand(plugin.solve_command());
        }
        let top = clap::Command::new(self.name.unwrap_or("frontier"));
        let mut top = Command::augment_subcommands(Globals::augment_args(top))
            .version(env!("CARGO_PKG_VERSION"))
            .about(self.about.unwrap_or(ABOUT).lines().next())
            .long_about(self.about.unwrap_or(ABOUT))
            .subcommand_required(true)
            .arg_required_else_help(true)
            .subcommand(solve);
        for plugin in &self.plugins {
            if let Some(commands) = plugin.commands() {
                top = top.subcommand(commands);
            }
        }
        top
    }

    fn plugin(&self, name: &str) -> Option<&Arc<dyn Registered>> {
        self.plugins.iter().find(|p| p.name() == name)
    }

    fn execute(&self, globals: &Globals, matches: &clap::ArgMatches) -> Result<(), CliError> {
        let progress = !globals.quiet && std::io::stderr().is_terminal();
        let json = globals.json;
        let context = Context {
            json,
            progress,
            quiet: globals.quiet,
        };
        match matches.subcommand() {
            Some(("solve", solve)) => {
                let search = SearchFlags::from_arg_matches(solve)
                    .map_err(|e| CliError::Input(e.to_string()))?;
                let options = RunOptions {
                    limits: Limits {
                        max_expanded: search.max_expanded,
                        max_memory_bytes: search.max_memory,
                        max_seconds: search.max_seconds,
                    },
                    progress,
                };
                let (executor, order) = search.executor()?;
                let (name, instance) = solve
                    .subcommand()
                    .ok_or_else(|| CliError::Input("solve: name a domain".into()))?;
                let plugin = self.plugin(name).ok_or_else(|| self.unknown(name))?;
                report_all(
                    json,
                    |sink| plugin.solve(instance, &executor, order, &options, sink),
                    |_| Ok(()),
                )
            }
            Some((name, own)) if !matches!(name, "run" | "plot") => {
                let plugin = self.plugin(name).ok_or_else(|| self.unknown(name))?;
                plugin.run_command(own, &context)
            }
            _ => {
                let command = Command::from_arg_matches(matches)
                    .map_err(|e| CliError::Input(e.to_string()))?;
                self.execute_runner(command, json, progress)
            }
        }
    }

    /// The error for a domain name no plugin has.
    fn unknown(&self, name: &str) -> CliError {
        CliError::Input(format!(
            "unknown domain '{name}'; registered: {}",
            self.names().join(", ")
        ))
    }
}

/// Executor and limits for `solve`.
#[derive(Debug, clap::Args)]
struct SearchFlags {
    /// Which executor searches.
    #[arg(long, default_value = "astar", value_parser = executor_kinds(), global = true)]
    executor: String,
    /// Worker threads for hda and ida [default: all cores].
    #[arg(long, global = true)]
    threads: Option<usize>,
    /// GPUs for multi-gpu and gpu-ida (the first N devices) [default: every GPU].
    #[arg(long, global = true)]
    gpus: Option<usize>,
    /// How hda and multi-gpu distribute states: hash, or a domain's own
    /// (the help lists each registered domain's) [default: hash].
    #[arg(long, global = true)]
    partition: Option<String>,
    /// Directory for ida's and gpu-ida's checkpoints: each completed iteration's bound is
    /// kept there, and the same instance started again resumes from it.
    #[arg(long, global = true)]
    checkpoint: Option<PathBuf>,
    /// ida: leave out op sequences of up to this many ops that reach a state
    /// some smaller sequence reaches (found at start-up; 0: only the move
    /// that undoes the last one). Optima are unchanged. [default: 0]
    #[arg(long, global = true)]
    move_pruning: Option<usize>,
    /// ida and gpu-ida: first a beam of this width (on the GPU for gpu-ida);
    /// IDA* then proves its solution optimal by the iterations below its
    /// cost alone, or finds a cheaper one. Optima are unchanged. [default: 0,
    /// none]
    #[arg(long, global = true)]
    incumbent_beam: Option<u64>,
    /// gpu-ida: subtree roots the start is split into on the CPU [default:
    /// 1048576]. A checkpoint inside an iteration keeps whole roots only, so
    /// an iteration whose first roots each take minutes needs more, lighter
    /// ones to be checkpointed every `segment_seconds`.
    #[arg(long, global = true)]
    roots: Option<u64>,
    /// astar, hda and gpu: rank open states by g + W·h (W from 1 to 1000, at
    /// most three decimals, or `greedy` for h alone); the solution costs at
    /// most W times the optimum, and the row gives the proven bound.
    #[arg(long, global = true, value_parser = parse_weight)]
    weight: Option<Weight>,
    /// astar and hda: after each solution go on, lowering the weight, until
    /// the optimum is proven or a limit stops the search (which then
    /// returns its best solution and bound).
    #[arg(long, global = true)]
    anytime: bool,
    /// astar, hda and gpu: beam search keeping the best N states of each layer
    /// by g + W·h (incomplete; the row gives the proven bound).
    #[arg(long, global = true)]
    beam: Option<u64>,
    /// astar, hda and gpu: after the search, shorten the solution: from each
    /// state of its path every state within cost R is searched (Dijkstra),
    /// and a later state of the path reached for less replaces the stretch
    /// between (the row's time includes it).
    #[arg(long, global = true, value_name = "R")]
    shortcut: Option<u32>,
    /// astar, hda, gpu and mpi-hda: after the search (and --shortcut), re-solve the
    /// solution's path in windows of up to cost L (each starting half a
    /// window after the last), each by IDA* between its two ends guided by
    /// the domain's estimate between states (tiles, pancake); a window
    /// gives up after 4 M expansions (the row's time includes it).
    #[arg(long, global = true, value_name = "L")]
    window: Option<u32>,
    /// Stop after this many expansions.
    #[arg(long, global = true)]
    max_expanded: Option<u64>,
    /// Stop when open and closed hold more than this many bytes (4000000000,
    /// 4G = 4 GiB, 4GB = 4·10^9).
    #[arg(long, global = true, value_parser = frontier_core::search::parse_bytes)]
    max_memory: Option<u64>,
    /// Stop after this many seconds.
    #[arg(long, global = true, value_parser = frontier_core::search::parse_seconds)]
    max_seconds: Option<f64>,
}

/// `--weight`'s value: a number or `greedy`.
fn parse_weight(text: &str) -> Result<Weight, String> {
    Weight::parse(text)
}

/// `--executor`'s values and their help, from the executor table.
fn executor_kinds() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(
        EXECUTORS
            .iter()
            .map(|e| clap::builder::PossibleValue::new(e.kind).help(e.about.trim_end_matches('.'))),
    )
}

impl SearchFlags {
    /// The executor the flags ask for, and its order; a flag that the
    /// chosen executor would not use is refused rather than ignored.
    fn executor(&self) -> Result<(ExecutorConfig, Order), CliError> {
        let mut config = ExecutorConfig::by_kind(&self.executor)?;
        let checkpoint = match &self.checkpoint {
            Some(path) => Some(path.to_str().map(str::to_string).ok_or_else(|| {
                CliError::Input(format!(
                    "--checkpoint {}: give a path in UTF-8",
                    path.display()
                ))
            })?),
            None => None,
        };
        let given = [
            (
                Param::Threads,
                self.threads.map(|n| ParamValue::Count(n as u64)),
            ),
            (Param::Gpus, self.gpus.map(|n| ParamValue::Count(n as u64))),
            (
                Param::Partition,
                self.partition.clone().map(ParamValue::Text),
            ),
            (Param::Checkpoint, checkpoint.map(ParamValue::Text)),
            (Param::Roots, self.roots.map(ParamValue::Count)),
            (
                Param::MovePruning,
                self.move_pruning.map(|n| ParamValue::Count(n as u64)),
            ),
            (
                Param::IncumbentBeam,
                self.incumbent_beam.map(ParamValue::Count),
            ),
            (
                Param::Weight,
                self.weight.map(|w| ParamValue::Text(w.to_string())),
            ),
            (
                Param::Anytime,
                self.anytime.then_some(ParamValue::Flag(true)),
            ),
            (Param::Beam, self.beam.map(ParamValue::Count)),
            (
                Param::Shortcut,
                self.shortcut.map(|r| ParamValue::Count(u64::from(r))),
            ),
            (
                Param::Window,
                self.window.map(|l| ParamValue::Count(u64::from(l))),
            ),
        ];
        let mut order = Order::default();
        for (param, value) in given {
            let Some(value) = value else { continue };
            let flag = format!("--{}", param.key().replace('_', "-"));
            // The table's errors start with the key ("gpus must be at
            // least 1"): say the flag instead.
            let set = if param.is_order() {
                if config.takes(param) {
                    param.set_order(&mut order, &value)
                } else {
                    Ok(false)
                }
            } else {
                config.set(param.key(), &value)
            };
            let taken = set.map_err(|e| {
                let message = e.to_string();
                CliError::Input(match message.strip_prefix(param.key()) {
                    Some(rest) => format!("{flag}{rest}"),
                    None => format!("{flag}: {message}"),
                })
            })?;
            if !taken {
                return Err(CliError::Input(format!(
                    "{flag} applies to --executor {} only",
                    frontier_core::executors::taking(param)
                )));
            }
        }
        Ok((config, order))
    }
}

/// Everything that can go wrong, each as one line naming the input.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// A file could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// A config file did not parse.
    #[error("{}:{line}:{column}: {message}", path.display())]
    Config {
        /// The config file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What is wrong, with the field.
        message: String,
    },
    /// An instance is malformed.
    #[error("instance {id}: {message}")]
    Instance {
        /// The instance id.
        id: String,
        /// What is wrong.
        message: String,
    },
    /// Any other bad input.
    #[error("{0}")]
    Input(String),
    /// An error from the framework.
    #[error(transparent)]
    Core(#[from] frontier_core::Error),
    /// A cost, value or verdict differs from the one the input states.
    #[error("{0} instance(s) with an answer different from the one the input states (cost, value or verdict)")]
    Disagrees(usize),
}

/// Writes `line` and a newline to stderr in one write. Standard error is
/// unbuffered, so `eprintln!` with arguments writes piece by piece, and
/// under mpirun the job's abort notice can land between the pieces.
fn print_error_line(line: &str) {
    use std::io::Write;
    let whole = format!("{line}\n");
    // Nothing is left to tell the user if stderr itself fails.
    let _ = std::io::stderr().lock().write_all(whole.as_bytes());
}

/// Whether this process prints results and writes output files: always,
/// except on the ranks after the first of an MPI job, which compute the
/// same results.
pub fn prints_results() -> bool {
    mpi::rank_and_size().is_none_or(|(rank, _)| rank == 0)
}

fn init_logging(verbose: u8) {
    let default = match verbose {
        0 => "warn",
        1 => "info",
        _ => "debug",
    };
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default));
    let bars = IndicatifLayer::new();
    let writer = bars.get_stderr_writer();
    // Logging set-up happens once, first thing, so `try_init` cannot clash.
    let _ = tracing_subscriber::registry()
        .with(filter)
        .with(
            tracing_subscriber::fmt::layer()
                .with_writer(writer)
                .with_target(false),
        )
        .with(bars.with_filter(IndicatifFilter::new(false)))
        .try_init();
}

impl App {
    /// `run` and `plot`.
    fn execute_runner(&self, command: Command, json: bool, progress: bool) -> Result<(), CliError> {
        match command {
            Command::Run {
                config,
                output,
                resume,
                retry_cut,
                overwrite,
                max_seconds,
                max_expanded,
                max_memory,
            } => {
                let mut experiment = Experiment::load(&config, self)?;
                let limits = &mut experiment.limits;
                limits.max_seconds = max_seconds.or(limits.max_seconds);
                limits.max_expanded = max_expanded.or(limits.max_expanded);
                limits.max_memory_bytes = max_memory.or(limits.max_memory_bytes);
                let options = RunOptions {
                    limits: experiment.limits,
                    progress,
                };
                let mut output = output.or(experiment.output.clone());
                if mpi::rank_and_size().is_some_and(|(_, ranks)| ranks > 1) {
                    if resume {
                        // Every rank must plan the same runs, and only the first
                        // writes the file it would read them from.
                        return Err(CliError::Input(
                            "--resume is not supported under mpirun: resume with one process"
                                .into(),
                        ));
                    }
                    if !prints_results() {
                        output = None;
                    }
                }
                let (mut file, done) = match &output {
                    Some(path) => {
                        let existing = match (resume, overwrite) {
                            (true, _) if retry_cut => Existing::RetryCut,
                            (true, _) => Existing::Resume,
                            (false, true) => Existing::Overwrite,
                            (false, false) => Existing::Refuse,
                        };
                        let mut fingerprint = experiment.domain.0.fingerprint();
                        fingerprint.push((
                            results::LIMITS_KEY.into(),
                            format!("{:?}", experiment.limits),
                        ));
                        let (file, done) = Output::open(path, existing, &fingerprint)?;
                        (Some(file), done)
                    }
                    None if resume || overwrite => {
                        return Err(CliError::Input(format!(
                            "--{} needs an output file (the config's `output` or --output)",
                            if resume { "resume" } else { "overwrite" }
                        )))
                    }
                    None => (None, Default::default()),
                };
                if !done.is_empty() {
                    tracing::warn!(
                        rows = done.len(),
                        "rows already in the output file are not run again"
                    );
                }
                let plan = experiment.plan(&done);
                report_all(
                    json,
                    |sink| experiment.domain.0.run(&plan, &options, sink),
                    |report| file.as_mut().map_or(Ok(()), |f| f.write(report)),
                )
            }
            Command::Plot { results, out } => {
                let rows = plot::read_rows(&results)?;
                let dir = out
                    .or_else(|| results.parent().map(PathBuf::from))
                    .filter(|d| !d.as_os_str().is_empty())
                    .unwrap_or_else(|| PathBuf::from("."));
                if dir.exists() && !dir.is_dir() {
                    return Err(CliError::Input(format!(
                        "--out {}: a file, not a directory (the charts go into a directory, \
                         made if missing)",
                        dir.display()
                    )));
                }
                std::fs::create_dir_all(&dir).map_err(|source| CliError::Io {
                    path: dir.clone(),
                    source,
                })?;
                let stem = results
                    .file_stem()
                    .map_or_else(|| "results".into(), |s| s.to_string_lossy().into_owned());
                let written = plot::plot(&rows, &dir, &stem)?;
                let mut out = std::io::stdout().lock();
                if json {
                    let files: Vec<String> =
                        written.iter().map(|p| p.display().to_string()).collect();
                    writeln!(out, "{}", serde_json::json!({ "written": files }))
                        .map_err(stdout_error)
                } else {
                    for path in &written {
                        writeln!(out, "{}", path.display()).map_err(stdout_error)?;
                    }
                    Ok(())
                }
            }
        }
    }
}

/// Runs `jobs`, printing each row as JSON (with `json`) or all of them as
/// a table at the end, handing each to `keep` (an output file); fails when
/// any cost contradicts the optimum its input states.
fn report_all(
    json: bool,
    jobs: impl FnOnce(&mut Sink<'_>) -> Result<(), CliError>,
    mut keep: impl FnMut(&InstanceReport) -> Result<(), CliError>,
) -> Result<(), CliError> {
    let mut reports: Vec<InstanceReport> = Vec::new();
    let printing = prints_results();
    let mut sink = |report: InstanceReport| -> Result<(), CliError> {
        if json && printing {
            let mut out = std::io::stdout().lock();
            writeln!(out, "{}", report::json_line(&report)).map_err(stdout_error)?;
            out.flush().map_err(stdout_error)?;
        }
        if !report.agrees_with_known() {
            tracing::error!(
                instance = %report.instance,
                "the answer (cost {:?}, proven lower bound {:?}, value {:?}, verdict {:?}) differs from the input's (cost {:?}, value {:?}, verdict {:?})",
                report.cost,
                report.lower_bound,
                report.value,
                report.verdict,
                report.known_cost,
                report.known_value,
                report.known_verdict
            );
        }
        keep(&report)?;
        reports.push(report);
        Ok(())
    };
    jobs(&mut sink)?;
    if !json && printing {
        report::print_table(&reports, &mut std::io::stdout().lock()).map_err(stdout_error)?;
    }
    let disagreeing = reports.iter().filter(|r| !r.agrees_with_known()).count();
    if disagreeing > 0 {
        return Err(CliError::Disagrees(disagreeing));
    }
    Ok(())
}

/// A failed write to standard output, for every command's `map_err`.
pub fn stdout_error(source: std::io::Error) -> CliError {
    CliError::Io {
        path: PathBuf::from("<stdout>"),
        source,
    }
}
