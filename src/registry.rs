//! What a domain implements to run from the command line and from RON
//! configs ([`CliDomain`]), and the `domains!` macro that turns the table in
//! `catalog.rs` into the RON enum, the `solve` subcommands and their
//! dispatch.
//!
//! A domain's CLI adapter is one struct that is both its `frontier solve
//! <name>` flags (clap) and its RON config block (serde), and implements
//! [`CliDomain`]. Adapters depend on this module, never the reverse: only
//! the catalog names them.

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
pub trait CliDomain: clap::Args + DeserializeOwned + Clone + Sync + std::fmt::Debug {
    /// Name in output and on the command line.
    const NAME: &'static str;

    /// What in this config decides an instance's answer, as `key=value`
    /// lines: checkpoints and results files are keyed by it, and one
    /// written under other lines is refused, naming the line. Default:
    /// the whole config (a domain whose config also holds settings that
    /// change no answer, such as cache paths, names only the others).
    fn answer_params(&self) -> String {
        format!("config={self:?}")
    }
    /// Whatever is shared by all instances of a run (pattern databases,
    /// dictionaries), built once by [`CliDomain::prepare`].
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
            "{domain} runs no search executor: leave `executors` out (not {})",
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

/// Turns an executor outcome into a report row; moves are printed with
/// `describe`.
pub fn report<D: Domain>(
    domain: &'static str,
    instance: &Instance,
    executor: &ExecutorConfig,
    outcome: DomainOutcome<D>,
    describe: impl Fn(&D::Move) -> String,
) -> InstanceReport {
    let (status, cost, path) = match &outcome.status {
        Status::Solved(s) => (
            "optimal".to_string(),
            Some(s.cost),
            s.moves.iter().map(describe).collect(),
        ),
        Status::NoSolution => ("no solution".to_string(), None, Vec::new()),
        Status::LimitReached(limit) => (limit.to_string(), None, Vec::new()),
    };
    InstanceReport {
        domain,
        instance: instance.id.clone(),
        executor: executor.name(),
        solved: cost.is_some(),
        status,
        cost,
        known_cost: instance.known_cost,
        path,
        stats: outcome.stats,
        ..InstanceReport::new(domain, instance, executor)
    }
}

/// Generates `DomainConfig` (the RON `domain:` field), `SolveDomain`
/// (the `solve` subcommands) and their dispatch from one table.
#[macro_export]
macro_rules! domains {
    ($( $(#[doc = $doc:literal])* $variant:ident => $config:ty ),* $(,)?) => {
        /// The `domain:` block of a RON experiment.
        #[derive(Debug, serde::Deserialize)]
        pub enum DomainConfig {
            $( $(#[doc = $doc])* $variant($config), )*
        }

        /// `frontier solve <domain> <instance> [flags]`.
        #[derive(Debug, clap::Subcommand)]
        pub enum SolveDomain {
            $(
                $(#[doc = $doc])*
                #[command(name = <$config as $crate::registry::CliDomain>::NAME)]
                $variant {
                    /// The instance, in the domain's notation (see the domain's docs).
                    instance: String,
                    #[command(flatten)]
                    config: $config,
                },
            )*
        }

        impl DomainConfig {
            /// Runs every instance with every executor, handing each report
            /// to `sink`.
            pub fn run(
                &self,
                plan: &$crate::run::Plan<'_>,
                options: &$crate::run::RunOptions,
                sink: &mut dyn FnMut($crate::report::InstanceReport) -> Result<(), $crate::CliError>,
            ) -> Result<(), $crate::CliError> {
                match self {
                    $( DomainConfig::$variant(config) => $crate::run::run_all(config, plan, options, sink), )*
                }
            }
        }

        impl DomainConfig {
            /// What decides the answers of this experiment's domain, for
            /// its results file's first line.
            pub fn fingerprint(&self) -> Vec<(String, String)> {
                match self {
                    $( DomainConfig::$variant(config) => vec![
                        ("domain".to_string(), <$config as $crate::registry::CliDomain>::NAME.to_string()),
                        ("params".to_string(), $crate::registry::CliDomain::answer_params(config)),
                    ], )*
                }
            }

            /// Checks the plan's grid against this domain and the plan's
            /// executors, running nothing and reading no instance.
            pub fn check(&self, plan: &$crate::run::Plan<'_>) -> Result<(), $crate::CliError> {
                match self {
                    $( DomainConfig::$variant(config) => $crate::run::check(config, plan), )*
                }
            }
        }

        impl SolveDomain {
            /// Solves the one instance given on the command line.
            pub fn run(
                &self,
                executor: &frontier_core::ExecutorConfig,
                options: &$crate::run::RunOptions,
                sink: &mut dyn FnMut($crate::report::InstanceReport) -> Result<(), $crate::CliError>,
            ) -> Result<(), $crate::CliError> {
                let grid = std::collections::BTreeMap::new();
                let done = std::collections::HashMap::new();
                match self {
                    $( SolveDomain::$variant { instance, config } => {
                        let instances = $crate::config::Instances::Inline(vec![instance.clone()]);
                        let plan = $crate::run::Plan {
                            instances: &instances,
                            executors: std::slice::from_ref(executor),
                            grid: &grid,
                            repeat: 1,
                            done: &done,
                        };
                        $crate::run::run_all(config, &plan, options, sink)
                    } )*
                }
            }
        }
    };
}
