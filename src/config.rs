//! RON experiment files: what to solve, with which executors and limits.

use std::path::{Path, PathBuf};

use frontier_core::{ExecutorConfig, Limits};
use serde::Deserialize;

use crate::registry::DomainConfig;
use crate::CliError;

/// One experiment, as written in `configs/*.ron`.
///
/// ```ron
/// Experiment(
///     domain: Tiles(goal: Standard, heuristic: Manhattan),
///     instances: Inline(["1 2 3 4 5 6 0 7 8"]),
///     executors: [Astar],
///     limits: (max_seconds: Some(10.0)),
///     output: Some("results.csv"),
/// )
/// ```
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Experiment {
    /// The domain and its parameters (heuristic, goal, …).
    pub domain: DomainConfig,
    /// The instances to solve.
    pub instances: Instances,
    /// Executors to run on every instance, in order. Default: `[Astar]`.
    #[serde(default = "default_executors")]
    pub executors: Vec<ExecutorConfig>,
    /// Limits applied to every search.
    #[serde(default)]
    pub limits: Limits,
    /// Where to write the results as well: `.csv` or `.json` (JSON lines).
    #[serde(default)]
    pub output: Option<PathBuf>,
}

fn default_executors() -> Vec<ExecutorConfig> {
    vec![ExecutorConfig::Astar]
}

/// Where instances come from.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Instances {
    /// Instances written in the config, in the domain's notation.
    Inline(Vec<String>),
    /// A file of instances. A path starting with `@data/` is resolved
    /// against `$FRONTIER_DATA`, else `../shared/data`.
    File {
        /// The file.
        path: PathBuf,
        /// Only the first N instances.
        #[serde(default)]
        first: Option<usize>,
        /// Only the instances with these ids, in file order.
        #[serde(default)]
        ids: Option<Vec<String>>,
    },
}

/// Resolves the `@data/` prefix of data paths.
pub fn resolve_data_path(path: &Path) -> PathBuf {
    match path.strip_prefix("@data") {
        Ok(rest) => data_dir().join(rest),
        Err(_) => path.to_path_buf(),
    }
}

/// `$FRONTIER_DATA`, or `../shared/data` beside the checkout.
pub fn data_dir() -> PathBuf {
    std::env::var_os("FRONTIER_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("../shared/data"))
}

impl Experiment {
    /// Reads and parses a config file; errors name file, line, column and
    /// the offending field.
    pub fn load(path: &Path) -> Result<Experiment, CliError> {
        let text = std::fs::read_to_string(path).map_err(|source| CliError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Self::parse(&text, path)
    }

    /// Parses config text; `path` is only used in errors.
    pub fn parse(text: &str, path: &Path) -> Result<Experiment, CliError> {
        let options = ron::Options::default().with_default_extension(
            ron::extensions::Extensions::UNWRAP_VARIANT_NEWTYPES
                | ron::extensions::Extensions::IMPLICIT_SOME,
        );
        options
            .from_str(text)
            .map_err(|e: ron::error::SpannedError| CliError::Config {
                path: path.to_path_buf(),
                line: e.span.start.line,
                column: e.span.start.col,
                message: e.code.to_string(),
            })
    }
}
