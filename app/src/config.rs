//! RON experiment files: what to solve, with which executors and limits.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use frontier_core::{ExecutorConfig, Limits};
use serde::Deserialize;

use crate::registry::DomainBlock;
use crate::{App, CliError};

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
///
/// A `grid` runs every combination of its values: a key is a parameter of
/// the domain (tiles: `heuristic`, `reflect`) or of the executors that take
/// it (`threads`, `gpus`, `partition`, `heaps`, `partial_expansion`); an
/// executor without the key runs once. `repeat: 3` runs each row three
/// times and reports the run with the median time.
///
/// ```ron
/// Experiment(
///     domain: Tiles(heuristic: "5-5-5"),
///     instances: File(path: "@data/tiles/korf100.tsv", first: Some(10)),
///     executors: [Astar, Hda()],
///     grid: {"threads": [1, 2, 4, 8, 16], "partition": ["hash", "split"]},
///     repeat: 3,
///     output: Some("scaling.csv"),
/// )
/// ```
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Experiment {
    /// The domain and its parameters (heuristic, goal, …), read by the
    /// plugin registered under its name.
    pub domain: DomainBlock,
    /// The instances to solve.
    pub instances: Instances,
    /// Executors to run on every instance, in order. Default: `[Astar]`.
    #[serde(default = "default_executors", deserialize_with = "some_executors")]
    pub executors: Vec<ExecutorConfig>,
    /// Limits applied to every search.
    #[serde(default)]
    pub limits: Limits,
    /// Where to write the results as well: `.csv`, or `.json` or `.jsonl` (JSON lines),
    /// a row as soon as it exists; `frontier run --resume` skips the rows
    /// already there.
    #[serde(default)]
    pub output: Option<PathBuf>,
    /// Parameter values to sweep, every combination (see above).
    #[serde(default)]
    pub grid: BTreeMap<String, Vec<GridValue>>,
    /// Runs of each row (1 to [`MAX_REPEAT`]); the one with the median
    /// time is reported.
    #[serde(default = "one", deserialize_with = "repeat_count")]
    pub repeat: usize,
    /// The weight on h for every executor (`weight: 1.5`, `weight:
    /// "greedy"`): f = g + w·h, solutions within w of the optimum. Only
    /// the best-first executors (astar, hda, gpu) take it.
    #[serde(default)]
    pub weight: Option<frontier_core::search::Weight>,
    /// Anytime search: improving solutions until the optimum is proven.
    #[serde(default)]
    pub anytime: bool,
    /// Beam search of this width.
    #[serde(default)]
    pub beam: Option<u64>,
    /// Shorten each solution afterwards by shortcuts within this cost
    /// between states of its path (`frontier_core::search::shortcut`).
    #[serde(default)]
    pub shortcut: Option<u32>,
    /// Re-solve each solution's path afterwards in windows of up to this
    /// cost, each optimally (`frontier_core::search::windows`).
    #[serde(default)]
    pub window: Option<u32>,
}

/// The most runs `repeat` asks of each row: more is a typo, not an
/// experiment.
pub const MAX_REPEAT: usize = 1000;

fn one() -> usize {
    1
}

/// `repeat`, refused outside 1 to [`MAX_REPEAT`] rather than run once or
/// a billion times.
fn repeat_count<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<usize, D::Error> {
    let repeat = usize::deserialize(deserializer)?;
    if (1..=MAX_REPEAT).contains(&repeat) {
        Ok(repeat)
    } else {
        Err(serde::de::Error::custom(format!(
            "repeat: {repeat}: give 1 to {MAX_REPEAT} runs of each row"
        )))
    }
}

/// `executors`, refused when empty: an experiment that runs nothing is a
/// mistake (leave the field out for `[Astar]`).
fn some_executors<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Vec<ExecutorConfig>, D::Error> {
    let executors = Vec::<ExecutorConfig>::deserialize(deserializer)?;
    if executors.is_empty() {
        return Err(serde::de::Error::custom(
            "executors: the list is empty; leave it out for the domain's default",
        ));
    }
    Ok(executors)
}

/// One value of a grid parameter.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(untagged)]
pub enum GridValue {
    /// `true` or `false`.
    Flag(bool),
    /// A count (threads, GPUs, heaps).
    Count(u64),
    /// A number with a fraction (weight).
    Number(f64),
    /// A name (partition, heuristic).
    Text(String),
}

impl fmt::Display for GridValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GridValue::Flag(b) => write!(f, "{b}"),
            GridValue::Count(n) => write!(f, "{n}"),
            GridValue::Number(x) => write!(f, "{x}"),
            GridValue::Text(t) => f.write_str(t),
        }
    }
}

impl GridValue {
    /// The value as a count, or an error naming the parameter.
    pub fn count(&self, key: &str) -> Result<u64, CliError> {
        match self {
            GridValue::Count(n) => Ok(*n),
            other => Err(CliError::Input(format!(
                "grid: {key} takes numbers, not '{other}'"
            ))),
        }
    }

    /// The value as a name, or an error naming the parameter.
    pub fn text(&self, key: &str) -> Result<String, CliError> {
        match self {
            GridValue::Text(t) => Ok(t.clone()),
            other => Err(CliError::Input(format!(
                "grid: {key} takes names in quotes, not {other}"
            ))),
        }
    }

    /// The value as a flag, or an error naming the parameter.
    pub fn flag(&self, key: &str) -> Result<bool, CliError> {
        match self {
            GridValue::Flag(b) => Ok(*b),
            other => Err(CliError::Input(format!(
                "grid: {key} takes true or false, not {other}"
            ))),
        }
    }
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
    /// against the repository's `data/`, else `$FRONTIER_DATA`, else
    /// `../shared/data`.
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
    /// Instances the domain generates (pancake: random stacks of `size`),
    /// the same for the same seed.
    Random {
        /// Instance size (pancakes in a stack).
        size: usize,
        /// How many.
        count: usize,
        /// Seed of the generator.
        #[serde(default)]
        seed: u64,
    },
}

/// Resolves the `@data/` prefix of data paths: the repository's `data/`
/// first, then `$FRONTIER_DATA`, then `../shared/data`
/// ([`frontier_core::data`]); a file in none of them is one line that
/// names it and where it is looked for.
pub fn resolve_data_path(path: &Path) -> Result<PathBuf, CliError> {
    match path.strip_prefix("@data") {
        Ok(rest) => frontier_core::data::find(rest)
            .ok_or_else(|| CliError::Input(frontier_core::data::missing(path))),
        Err(_) => Ok(path.to_path_buf()),
    }
}

impl Experiment {
    /// Everything to run, less the rows of `done` (already in the output).
    pub fn plan<'a>(
        &'a self,
        done: &'a std::collections::HashMap<crate::report::RowKey, crate::results::KeptRow>,
    ) -> crate::run::Plan<'a> {
        crate::run::Plan {
            instances: &self.instances,
            executors: &self.executors,
            order: frontier_core::search::Order {
                weight: self.weight.unwrap_or_default(),
                anytime: self.anytime,
                beam: self.beam,
                shortcut: self.shortcut,
                window: self.window,
            },
            grid: &self.grid,
            repeat: self.repeat,
            done,
        }
    }

    /// Reads and parses a config file; errors name file, line, column and
    /// the offending field.
    /// A `domain:` block may name any plugin of `app`.
    pub fn load(path: &Path, app: &App) -> Result<Experiment, CliError> {
        let text = std::fs::read_to_string(path).map_err(|source| CliError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Self::parse(&text, path, app)
    }

    /// Parses config text; `path` is only used in errors.
    pub fn parse(text: &str, path: &Path, app: &App) -> Result<Experiment, CliError> {
        let options = ron::Options::default().with_default_extension(
            ron::extensions::Extensions::UNWRAP_VARIANT_NEWTYPES
                | ron::extensions::Extensions::IMPLICIT_SOME,
        );
        crate::registry::with_plugins(&app.plugins, || options.from_str(text)).map_err(
            |e: ron::error::SpannedError| {
                let (line, column) = (e.span.start.line, e.span.start.col);
                let mut message = e.code.to_string();
                if let Some(hint) = parentheses_hint(text, line, column, &message) {
                    message = format!("{message}: {hint}");
                }
                CliError::Config {
                    path: path.to_path_buf(),
                    line,
                    column,
                    message,
                }
            },
        )
    }
}

/// What to write instead where RON stopped right after a name that takes
/// parentheses (`Hda`, `Pancake`) or takes none (`Astar`): its own
/// messages, "Expected opening `(`" and "Expected comma", name neither the
/// name nor the fix.
fn parentheses_hint(text: &str, line: usize, column: usize, message: &str) -> Option<String> {
    let chars: Vec<char> = text.lines().nth(line.checked_sub(1)?)?.chars().collect();
    let before = &chars[..column.checked_sub(1)?.min(chars.len())];
    let start = before
        .iter()
        .rposition(|c| !(c.is_ascii_alphanumeric() || *c == '_'))
        .map_or(0, |at| at + 1);
    let name: String = before[start..].iter().collect();
    if !name.starts_with(|c: char| c.is_ascii_uppercase()) {
        return None;
    }
    if message.contains("Expected opening `(`") {
        Some(format!(
            "`{name}` takes parentheses, with its fields inside or none: `{name}()`"
        ))
    } else if message.contains("Expected comma") && chars.get(before.len()) == Some(&'(') {
        Some(format!(
            "`{name}` takes no parentheses: write `{name}` alone"
        ))
    } else {
        None
    }
}
