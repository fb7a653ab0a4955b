//! What a domain implements to run from the command line and from RON
//! experiments: the [`Plugin`] trait, and the helpers its methods use.
//!
//! A domain's plugin is one struct that is both its `frontier solve <name>`
//! flags (clap) and its RON `domain: Name(...)` block (serde): its
//! parameters, declared once. It is registered with
//! [`App::add`](crate::App::add), from this repository or any other crate;
//! the runner knows no domain by name.

use std::path::Path;

use frontier_core::{Cost, Domain, DomainOutcome, ExecutorConfig, SearchOptions, Status};
use serde::de::DeserializeOwned;

use crate::config::GridValue;
use crate::report::InstanceReport;
use crate::CliError;

/// One instance to solve: its text in the domain's format, an id for
/// output, and the optimal cost if the input file states one.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Instance {
    /// Shown in tables and JSON.
    pub id: String,
    /// The instance in the domain's own notation.
    pub text: String,
    /// Known optimal cost (from a benchmark file), checked after solving.
    pub known_cost: Option<Cost>,
    /// Known value (a reference score), checked after solving.
    pub known_value: Option<f64>,
    /// Known verdict (`unique`, `multiple`, …), checked after solving.
    pub known_verdict: Option<String>,
    /// Why the instance cannot be read here (a data file that is not
    /// shipped): listed with the others, it fails with this line only if
    /// a run asks for it.
    pub missing: Option<String>,
}

impl Instance {
    /// The instance as a seed, for jobs whose instances are seeds (random
    /// boards, random puzzles).
    pub fn seed(&self) -> Result<u64, CliError> {
        self.text
            .trim()
            .parse::<u64>()
            .map_err(|_| CliError::Instance {
                id: self.id.clone(),
                message: format!("'{}' is not a seed (a whole number)", self.text.trim()),
            })
    }
}

/// `threads` as a command's thread count (0: one per core), refused above
/// [`frontier_core::MAX_THREADS`] rather than spawned.
pub fn thread_count(threads: usize) -> Result<usize, CliError> {
    const MOST: usize = frontier_core::MAX_THREADS;
    if threads > MOST {
        return Err(CliError::Input(format!(
            "--threads {threads}: at most {MOST} (0 for one per core)"
        )));
    }
    Ok(threads)
}

/// Refuses a benchmark of no `what` (boards, puzzles) or of more than
/// 2^32 cells in all (`cells_each` per item): every item is made before
/// the clock starts, so a typo would fill the memory first.
pub fn check_bench_count(count: usize, cells_each: usize, what: &str) -> Result<(), CliError> {
    const MOST_CELLS: usize = 1 << 32;
    if count == 0 || count.saturating_mul(cells_each) > MOST_CELLS {
        return Err(CliError::Input(format!(
            "count {count}: give 1 or more {what}, of {MOST_CELLS} cells in all at most"
        )));
    }
    Ok(())
}

/// A pool of `threads` CPU threads (0: one per core) for a command's
/// rayon work, its count checked by [`thread_count`].
pub fn thread_pool(threads: usize) -> Result<rayon::ThreadPool, CliError> {
    let threads = thread_count(threads)?;
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| CliError::Input(format!("cannot start {threads} threads: {e}")))
}

/// A random seed as an instance's text, for `Random(…)` sources of jobs
/// whose instances are seeds.
pub fn random_seed(rng: &mut frontier_core::rng::SplitMix64) -> String {
    (rng.next_u64() >> 1).to_string()
}

/// What a domain implements to be run from the command line and configs.
///
/// The implementing type is the domain's parameters: clap reads it from
/// `frontier solve <NAME> <instance> [flags]`, serde from the RON block
/// `domain: <Name>(field: value, …)` (`Name` is [`Plugin::NAME`] in any
/// case: `Tiles`, `TopSpin`). Only [`Plugin::prepare`]
/// and [`Plugin::solve`] have no default.
///
/// ```
/// use frontier_app::plugin::{Instance, Plugin};
/// use frontier_app::{report::InstanceReport, CliError};
/// use frontier_core::{ExecutorConfig, SearchOptions};
///
/// /// Counts the letters of a word (a job that runs no search executor).
/// #[derive(Clone, Debug, Default, serde::Deserialize, clap::Args)]
/// #[serde(deny_unknown_fields)]
/// struct Letters {
///     /// Count only vowels.
///     #[arg(long)]
///     #[serde(default)]
///     vowels: bool,
/// }
///
/// impl Plugin for Letters {
///     const NAME: &'static str = "letters";
///     const ABOUT: &'static str = "Counts the letters of a word";
///     type Prepared = ();
///
///     fn prepare(&self, _: &[ExecutorConfig]) -> Result<(), CliError> {
///         Ok(())
///     }
///
///     fn solve(
///         &self,
///         _: &(),
///         instance: &Instance,
///         executor: &ExecutorConfig,
///         _: &SearchOptions,
///     ) -> Result<InstanceReport, CliError> {
///         frontier_app::plugin::no_executor(Self::NAME, executor)?;
///         let counted = instance.text.chars().filter(|c| !self.vowels || "aeiou".contains(*c));
///         let mut row = InstanceReport::new(Self::NAME, instance, executor);
///         row.value = Some(counted.count() as f64);
///         Ok(row)
///     }
/// }
///
/// let code = frontier_app::App::new()
///     .add::<Letters>()
///     .run_from(["frontier", "--quiet", "solve", "letters", "banana", "--vowels"]);
/// assert_eq!(code, std::process::ExitCode::SUCCESS);
/// ```
pub trait Plugin:
    clap::Args + DeserializeOwned + Clone + Send + Sync + std::fmt::Debug + 'static
{
    /// Name in output and on the command line (`frontier solve NAME`).
    const NAME: &'static str;
    /// One line for `frontier solve --help` and `frontier --help`.
    const ABOUT: &'static str;
    /// The partitions (`--partition`, `partition:` of HDA* and multi-GPU)
    /// [`Plugin::solve`] knows; the runner refuses any other name before
    /// the first search. Default: `hash` only.
    const PARTITIONS: &'static [&'static str] = &["hash"];

    /// The domain's own subcommands (`frontier boggle score …`), if any:
    /// a clap command named [`Plugin::NAME`], usually made by
    /// [`subcommands`] from a `clap::Subcommand` enum.
    fn commands() -> Option<clap::Command> {
        None
    }

    /// Runs one of [`Plugin::commands`]; `matches` are that command's.
    fn run_command(_matches: &clap::ArgMatches, _context: &Context) -> Result<(), CliError> {
        Err(CliError::Input(format!(
            "{} has no commands of its own",
            Self::NAME
        )))
    }

    /// What in this config decides an instance's answer, as `key=value`
    /// lines: checkpoints and results files are keyed by it, and one
    /// written under other lines is refused, naming the line. Default:
    /// the whole config (a domain whose config also holds settings that
    /// change no answer, such as cache paths, names only the others).
    fn answer_params(&self) -> String {
        format!("config={self:?}")
    }
    /// Whether `solve` runs the executor it is given with the
    /// [`SearchOptions`] it is given (`ExecutorConfig::run` and its kin), so
    /// that the order options (`--weight`, `--anytime`, `--beam`) take
    /// effect; a domain that solves with a method of its own leaves this
    /// false, and the runner refuses those options for it.
    const BEST_FIRST: bool = false;

    /// Whatever is shared by all instances of a run (pattern databases,
    /// dictionaries), built once by [`Plugin::prepare`].
    type Prepared: Sync;

    /// Builds or loads shared tables; `executors` are the ones that will
    /// run, so a domain can start slow set-up (a GPU) early.
    fn prepare(&self, executors: &[ExecutorConfig]) -> Result<Self::Prepared, CliError>;

    /// Sets a parameter that an experiment's `grid` sweeps (tiles:
    /// `heuristic`); false when the domain has no parameter of that name.
    fn set_param(&mut self, _key: &str, _value: &GridValue) -> Result<bool, CliError> {
        Ok(false)
    }

    /// A random instance of the given size, for `Random(…)` instance
    /// sources; domains without random instances say so.
    fn random_instance(
        &self,
        _size: usize,
        _rng: &mut frontier_core::rng::SplitMix64,
    ) -> Result<String, CliError> {
        Err(CliError::Input(format!(
            "{} has no random instances: list them inline or in a file",
            Self::NAME
        )))
    }

    /// Reads instances from a file. Default: one per non-empty line, `#`
    /// comments skipped, ids counting from 1.
    fn read_instances(&self, path: &Path) -> Result<Vec<Instance>, CliError> {
        read_lines(path)
    }

    /// Parses and solves one instance.
    fn solve(
        &self,
        prepared: &Self::Prepared,
        instance: &Instance,
        executor: &ExecutorConfig,
        options: &SearchOptions,
    ) -> Result<InstanceReport, CliError>;
}

/// Refuses an executor other than the default for a job that runs no
/// search executor (scoring, proving with the domain's own method), so a
/// config that lists one learns it does nothing.
pub fn no_executor(domain: &str, executor: &ExecutorConfig) -> Result<(), CliError> {
    match executor {
        ExecutorConfig::Astar => Ok(()),
        other => Err(CliError::Input(format!(
            "{domain} runs no search executor: leave --executor (RON `executors`) out (not {})",
            other.name()
        ))),
    }
}

/// Instances one per non-empty line of `path`, `#` comments skipped, ids
/// counting from 1.
pub fn read_lines(path: &Path) -> Result<Vec<Instance>, CliError> {
    let text = read_file(path)?;
    Ok(text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .enumerate()
        .map(|(i, l)| Instance {
            id: (i + 1).to_string(),
            text: l.to_string(),
            ..Instance::default()
        })
        .collect())
}

/// Reads a whole file, naming it in the error.
pub fn read_file(path: &Path) -> Result<String, CliError> {
    std::fs::read_to_string(path).map_err(|source| CliError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// Runs `search` on `domain`, then on its dual instance within what the
/// first search left of the limits, and merges the two outcomes: a
/// domain's `--dual` ([`frontier_core::search::dual`]). The dual is not
/// searched once the first search has proven its solution optimal
/// ([`frontier_core::search::dual::dual_can_improve`]). Refused under MPI
/// (`mpi-hda`, `mpi-gpu`): each rank measures what the first search left
/// of a time limit itself, and ranks that disagreed on searching the dual
/// would wait on each other for ever.
pub fn search_with_dual<D: Domain>(
    domain: &D,
    dual: &impl frontier_core::search::dual::DualOf<D>,
    executor: &ExecutorConfig,
    options: &SearchOptions,
    search: impl Fn(&D, &SearchOptions) -> Result<DomainOutcome<D>, CliError>,
) -> Result<DomainOutcome<D>, CliError> {
    use frontier_core::search::dual::{dual_can_improve, limits_left, merge};
    if matches!(
        executor,
        ExecutorConfig::MpiHda(_) | ExecutorConfig::MpiGpu(_)
    ) {
        return Err(CliError::Input(format!(
            "--dual does not run under MPI ({}): run it on one process (astar, hda, gpu, multi-gpu, ida, gpu-ida)",
            executor.name()
        )));
    }
    let forward = search(domain, options)?;
    if !dual_can_improve(&forward) {
        return Ok(forward);
    }
    let Some(limits) = limits_left(&options.limits, &forward.stats) else {
        return Ok(forward);
    };
    let rest = SearchOptions {
        limits,
        ..options.clone()
    };
    let backward = search(dual.instance(), &rest)?;
    Ok(merge(domain, dual, forward, backward)?)
}

/// Turns an executor outcome on `searched` into a report row; moves are
/// printed with `describe`. With `options.order.shortcut` and
/// `options.order.window`, the solution is shortened first, shortcuts
/// before windows ([`frontier_core::search::shortcut`],
/// [`frontier_core::search::windows`]: the new path is replayed step by
/// step, and its time counts in the row's). The executors refuse a window
/// on a domain with no estimate between states before they search
/// ([`frontier_core::search::Order::check_domain`]); the same check here
/// covers a domain that calls a search function directly.
pub fn report<D: Domain>(
    domain: &'static str,
    searched: &D,
    instance: &Instance,
    executor: &ExecutorConfig,
    options: &SearchOptions,
    mut outcome: DomainOutcome<D>,
    describe: impl Fn(&D::Move) -> String,
) -> Result<InstanceReport, CliError> {
    // The weight the last solution was found at: an improvement made
    // after the search is recorded at it.
    let weight = outcome
        .stats
        .improvements
        .last()
        .map_or(options.order.weight.value(), |i| i.weight);
    if let Some(radius) = options.order.shortcut {
        frontier_core::search::shortcut::shorten_outcome(searched, &mut outcome, radius, weight);
    }
    if let Some(length) = options.order.window {
        options.order.check_domain(searched)?;
        frontier_core::search::shortcut::improve_outcome(
            searched,
            &mut outcome,
            weight,
            |states| {
                frontier_core::search::windows::resolve(
                    searched,
                    states,
                    length,
                    frontier_core::search::windows::WINDOW_EXPANSIONS,
                )
            },
        );
    }
    let (status, cost, path) = match &outcome.status {
        Status::Solved(s) => (
            match outcome.stats.stopped_by {
                _ if outcome.proven_optimal() => "optimal".to_string(),
                // A limit stopped it with its best solution so far:
                // `--retry-cut` runs it again.
                Some(limit) => crate::results::bounded_at(limit),
                None => "bounded".to_string(),
            },
            Some(s.cost),
            s.moves.iter().map(describe).collect(),
        ),
        Status::NoSolution => ("no solution".to_string(), None, Vec::new()),
        Status::LimitReached(limit) => (limit.to_string(), None, Vec::new()),
    };
    Ok(InstanceReport {
        domain,
        instance: instance.id.clone(),
        executor: executor.name(),
        solved: cost.is_some(),
        status,
        cost,
        known_cost: instance.known_cost,
        path,
        lower_bound: outcome.stats.lower_bound,
        stats: outcome.stats,
        ..InstanceReport::new(domain, instance, executor)
    })
}

/// What a domain's own command may need to know of the global flags.
#[derive(Clone, Copy, Debug, Default)]
pub struct Context {
    /// `--json`: one JSON object per result on stdout.
    pub json: bool,
    /// Progress bars may be drawn (no `--quiet`, stderr a terminal).
    pub progress: bool,
    /// `--quiet` was given.
    pub quiet: bool,
}

/// A domain's command `name` whose subcommands are the variants of `S`
/// (a `clap::Subcommand` enum), for [`Plugin::commands`].
pub fn subcommands<S: clap::Subcommand>(name: &'static str, about: &'static str) -> clap::Command {
    // `about` after `augment_subcommands`, which would set the enum's doc
    // comment.
    S::augment_subcommands(clap::Command::new(name))
        .about(about)
        .subcommand_required(true)
        .arg_required_else_help(true)
}

/// The `S` that `matches` (from [`subcommands`]) hold, for
/// [`Plugin::run_command`].
pub fn parse_subcommand<S: clap::Subcommand>(matches: &clap::ArgMatches) -> Result<S, CliError> {
    S::from_arg_matches(matches).map_err(|e| CliError::Input(e.to_string()))
}
