//! Every executor in one place: its name, what it is, and the parameters
//! it takes. The command line's `--executor` values and their help, which
//! flags apply to which executor, an experiment's grid keys and the plot's
//! thread and GPU counts are all read from [`EXECUTORS`]; the RON names are
//! the variants of [`ExecutorConfig`]. Adding an executor is its module,
//! a variant, and one entry here.

use std::path::PathBuf;

use crate::search::{Order, Weight};
use crate::{Error, ExecutorConfig};

/// A parameter an executor takes, from a command-line flag (`--threads 4`)
/// or an experiment's grid (`"threads": [1, 2, 4]`), by the same key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Param {
    /// Worker threads.
    Threads,
    /// GPUs: the first N devices.
    Gpus,
    /// How states are distributed (`hash`, or a domain's own partition).
    Partition,
    /// Directory for checkpoints.
    Checkpoint,
    /// Heaps per GPU.
    Heaps,
    /// Partial expansion on the GPU.
    PartialExpansion,
    /// Subtrees dealt to the GPUs.
    Roots,
    /// Longest redundant op sequences pruned (0: only the undoing move).
    MovePruning,
    /// IDA\* below a beam's solution: the beam's width (0: none; see
    /// [`crate::search::incumbent`]).
    IncumbentBeam,
    /// The weight on h, or `greedy` (a [`crate::search::Order`] option).
    Weight,
    /// Anytime search (a [`crate::search::Order`] option).
    Anytime,
    /// Beam search of this width (a [`crate::search::Order`] option).
    Beam,
    /// Shortcuts within this cost on the solution's path, after the
    /// search (a [`crate::search::Order`] option; see
    /// [`crate::search::shortcut`]).
    Shortcut,
    /// Windows of this cost re-solved on the solution's path, after the
    /// search (a [`crate::search::Order`] option; see
    /// [`crate::search::windows`]).
    Window,
}

/// Every parameter, in the order `--help` lists their flags.
pub const PARAMS: [Param; 14] = [
    Param::Threads,
    Param::Gpus,
    Param::Partition,
    Param::Checkpoint,
    Param::Heaps,
    Param::PartialExpansion,
    Param::Roots,
    Param::MovePruning,
    Param::IncumbentBeam,
    Param::Weight,
    Param::Anytime,
    Param::Beam,
    Param::Shortcut,
    Param::Window,
];

impl Param {
    /// The key in grids and, with `--` and `-` for `_`, the flag.
    pub fn key(self) -> &'static str {
        match self {
            Param::Threads => "threads",
            Param::Gpus => "gpus",
            Param::Partition => "partition",
            Param::Checkpoint => "checkpoint",
            Param::Heaps => "heaps",
            Param::PartialExpansion => "partial_expansion",
            Param::Roots => "roots",
            Param::MovePruning => "move_pruning",
            Param::IncumbentBeam => "incumbent_beam",
            Param::Weight => "weight",
            Param::Anytime => "anytime",
            Param::Beam => "beam",
            Param::Shortcut => "shortcut",
            Param::Window => "window",
        }
    }

    /// Whether this is an option of the search's [`Order`] (held in
    /// [`crate::SearchOptions`]) rather than a field of the executor's
    /// config.
    pub fn is_order(self) -> bool {
        matches!(
            self,
            Param::Weight | Param::Anytime | Param::Beam | Param::Shortcut | Param::Window
        )
    }

    /// Sets this [`Order`] option in `order` (`Ok(false)` for a parameter
    /// that is not one); errors for a value of the wrong kind.
    pub fn set_order(self, order: &mut Order, value: &ParamValue) -> Result<bool, Error> {
        let key = self.key();
        match self {
            Param::Weight => {
                order.weight = match value {
                    ParamValue::Count(n) => u32::try_from(*n)
                        .map_err(|_| format!("weight {n}: too large"))
                        .and_then(|n| Weight::ratio(n, 1)),
                    ParamValue::Number(w) => Weight::from_f64(*w),
                    ParamValue::Text(t) => Weight::parse(t),
                    other => return Err(wrong(key, "a number or 'greedy'", other)),
                }
                .map_err(Error::BadConfig)?
            }
            Param::Anytime => order.anytime = flag(key, value)?,
            Param::Beam => {
                order.beam = match count(key, value)? {
                    0 => return Err(Error::BadConfig("beam must be at least 1".into())),
                    n => Some(n),
                }
            }
            Param::Shortcut => {
                order.shortcut = Some(crate::search::order::shortcut_radius(count(key, value)?)?)
            }
            Param::Window => {
                order.window = Some(crate::search::order::window_length(count(key, value)?)?)
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The parameter of this key, if any.
    pub fn from_key(key: &str) -> Option<Param> {
        PARAMS.into_iter().find(|p| p.key() == key)
    }
}

/// A value given to a parameter.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamValue {
    /// A count (threads, GPUs, heaps, roots).
    Count(u64),
    /// A name (partition) or a path (checkpoint).
    Text(String),
    /// `true` or `false`.
    Flag(bool),
    /// A number with a fraction (weight).
    Number(f64),
}

impl std::fmt::Display for ParamValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ParamValue::Count(n) => write!(f, "{n}"),
            ParamValue::Text(t) => write!(f, "'{t}'"),
            ParamValue::Flag(b) => write!(f, "{b}"),
            ParamValue::Number(x) => write!(f, "{x}"),
        }
    }
}

/// One executor as the command line and experiments know it.
#[derive(Debug)]
pub struct ExecutorInfo {
    /// Its name on the command line and the start of its row names
    /// (`multi-gpu` in `multi-gpu-2-hash`).
    pub kind: &'static str,
    /// One line on what it is.
    pub about: &'static str,
    /// The parameters it takes.
    pub params: &'static [Param],
    /// Whether its row names carry a worker count right after the kind
    /// (`hda-4-split`, `gpu-ida-2`): the plot's speedup charts use it.
    pub counted: bool,
    /// The executor with its defaults.
    pub default: fn() -> ExecutorConfig,
}

/// The [`Order`] options, which the best-first executors take.
const ORDER: &[Param] = &[
    Param::Weight,
    Param::Anytime,
    Param::Beam,
    Param::Shortcut,
    Param::Window,
];

/// Every executor this build has, in the order `--help` lists them.
pub const EXECUTORS: &[ExecutorInfo] = &[
    ExecutorInfo {
        kind: "astar",
        about: "Sequential A* on one core (--weight, --anytime, --beam, --shortcut, --window).",
        params: ORDER,
        counted: false,
        default: || ExecutorConfig::Astar,
    },
    ExecutorInfo {
        kind: "hda",
        about: "Hash-distributed A* on threads (--threads, --partition, --weight, --anytime, \
                --beam, --shortcut, --window).",
        params: &[
            Param::Threads,
            Param::Partition,
            Param::Weight,
            Param::Anytime,
            Param::Beam,
            Param::Shortcut,
            Param::Window,
        ],
        counted: true,
        default: || ExecutorConfig::Hda(Default::default()),
    },
    ExecutorInfo {
        kind: "ida",
        about: "Parallel IDA* on threads (--threads, --checkpoint, --move-pruning, \
                --incumbent-beam W): memory-bounded.",
        params: &[
            Param::Threads,
            Param::Checkpoint,
            Param::MovePruning,
            Param::IncumbentBeam,
        ],
        counted: true,
        default: || ExecutorConfig::Ida(Default::default()),
    },
    #[cfg(feature = "gpu")]
    ExecutorInfo {
        kind: "gpu",
        about: "GA* on the GPU (domains with a GPU plugin; --weight W or greedy, --anytime, \
                --beam B, --shortcut R, --window L).",
        params: &[
            Param::Heaps,
            Param::PartialExpansion,
            Param::Beam,
            Param::Weight,
            Param::Anytime,
            Param::Shortcut,
            Param::Window,
        ],
        counted: false,
        default: || ExecutorConfig::Gpu(Default::default()),
    },
    #[cfg(feature = "gpu")]
    ExecutorInfo {
        kind: "multi-gpu",
        about: "HDA* over several GPUs of this host (--gpus, --partition; --weight W or \
                greedy, --anytime, --shortcut R, --window L).",
        params: &[
            Param::Gpus,
            Param::Partition,
            Param::Heaps,
            Param::PartialExpansion,
            Param::Weight,
            Param::Anytime,
            Param::Shortcut,
            Param::Window,
        ],
        counted: true,
        default: || ExecutorConfig::MultiGpu(Default::default()),
    },
    #[cfg(feature = "gpu")]
    ExecutorInfo {
        kind: "gpu-ida",
        about: "IDA* on the GPUs of this host (--gpus, --checkpoint, --roots, --move-pruning, \
                --incumbent-beam W): memory-bounded.",
        params: &[
            Param::Gpus,
            Param::Checkpoint,
            Param::Roots,
            Param::MovePruning,
            Param::IncumbentBeam,
        ],
        counted: true,
        default: || ExecutorConfig::GpuIda(Default::default()),
    },
    ExecutorInfo {
        kind: "mpi-hda",
        about: "HDA* over the processes of an MPI job, one worker per rank \
                (`mpirun -np N frontier solve ... --executor mpi-hda`; --partition, \
                --weight, --anytime, --shortcut, --window; a build with `--features mpi`).",
        params: &[
            Param::Partition,
            Param::Weight,
            Param::Anytime,
            Param::Shortcut,
            Param::Window,
        ],
        counted: true,
        default: || ExecutorConfig::MpiHda(Default::default()),
    },
    #[cfg(feature = "gpu")]
    ExecutorInfo {
        kind: "mpi-gpu",
        about: "multi-gpu with one MPI rank per GPU of a host \
                (`mpirun -np N frontier solve ... --executor mpi-gpu`; --partition; \
                a build with `--features mpi`).",
        params: &[Param::Partition],
        counted: true,
        default: || ExecutorConfig::MpiGpu(Default::default()),
    },
];

/// The entry of `kind`, if this build has that executor.
pub fn info(kind: &str) -> Option<&'static ExecutorInfo> {
    EXECUTORS.iter().find(|e| e.kind == kind)
}

/// The kinds that take `param`, for errors (`hda or ida`).
pub fn taking(param: Param) -> String {
    let kinds: Vec<&str> = EXECUTORS
        .iter()
        .filter(|e| e.params.contains(&param))
        .map(|e| e.kind)
        .collect();
    match kinds.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => "none".into(),
    }
}

/// `row_name` (`hda-4-split`) as (`hda-N-split`, 4) when its executor's
/// names carry a count; `None` otherwise.
pub fn counted_name(row_name: &str) -> Option<(String, u32)> {
    let mut by_length: Vec<&ExecutorInfo> = EXECUTORS.iter().filter(|e| e.counted).collect();
    by_length.sort_by_key(|e| std::cmp::Reverse(e.kind.len()));
    by_length.into_iter().find_map(|e| {
        let tail = row_name.strip_prefix(e.kind)?.strip_prefix('-')?;
        let (count, rest) = tail.split_once('-').unwrap_or((tail, ""));
        let count = count.parse::<u32>().ok()?;
        let label = if rest.is_empty() {
            format!("{}-N", e.kind)
        } else {
            format!("{}-N-{rest}", e.kind)
        };
        Some((label, count))
    })
}

fn wrong(key: &str, wants: &str, value: &ParamValue) -> Error {
    Error::BadConfig(format!("{key} takes {wants}, not {value}"))
}

fn count(key: &str, value: &ParamValue) -> Result<u64, Error> {
    match value {
        ParamValue::Count(n) => Ok(*n),
        other => Err(wrong(key, "numbers", other)),
    }
}

// Only GPU executors take a device count.
#[cfg_attr(not(feature = "gpu"), allow(dead_code))]
fn at_least_one(key: &str, value: &ParamValue) -> Result<usize, Error> {
    match count(key, value)? {
        0 => Err(Error::BadConfig(format!("{key} must be at least 1"))),
        n => usize::try_from(n).map_err(|_| Error::BadConfig(format!("{key}: {n} is too many"))),
    }
}

fn text(key: &str, value: &ParamValue) -> Result<String, Error> {
    match value {
        ParamValue::Text(t) => Ok(t.clone()),
        other => Err(wrong(key, "names in quotes", other)),
    }
}

fn flag(key: &str, value: &ParamValue) -> Result<bool, Error> {
    match value {
        ParamValue::Flag(b) => Ok(*b),
        other => Err(wrong(key, "true or false", other)),
    }
}

impl ExecutorConfig {
    /// The executor called `kind` with its defaults; an error listing the
    /// kinds this build has otherwise.
    pub fn by_kind(kind: &str) -> Result<ExecutorConfig, Error> {
        match info(kind) {
            Some(e) => Ok((e.default)()),
            None => {
                let kinds: Vec<&str> = EXECUTORS.iter().map(|e| e.kind).collect();
                Err(Error::BadConfig(format!(
                    "no executor '{kind}' in this build (it has {})",
                    kinds.join(", ")
                )))
            }
        }
    }

    /// This executor's entry in [`EXECUTORS`].
    pub fn info(&self) -> Option<&'static ExecutorInfo> {
        info(self.kind())
    }

    /// Whether this executor takes `param` (its entry in [`EXECUTORS`]
    /// lists it).
    pub fn takes(&self, param: Param) -> bool {
        self.info().is_some_and(|e| e.params.contains(&param))
    }

    /// Sets parameter `key`: `Ok(false)` when this executor does not take
    /// it (it then runs as it is), an error for a value of the wrong kind
    /// (`threads: 'four'`) or out of range (0 GPUs).
    /// [`Order`] options are not held here: see [`Param::set_order`].
    pub fn set(&mut self, key: &str, value: &ParamValue) -> Result<bool, Error> {
        let Some(param) = Param::from_key(key).filter(|p| !p.is_order()) else {
            return Ok(false);
        };
        if !self.takes(param) {
            return Ok(false);
        }
        match (self, param) {
            (ExecutorConfig::Hda(c), Param::Threads) => c.threads = count(key, value)? as usize,
            (ExecutorConfig::Hda(c), Param::Partition) => c.partition = text(key, value)?,
            (ExecutorConfig::Ida(c), Param::Threads) => c.threads = count(key, value)? as usize,
            (ExecutorConfig::Ida(c), Param::Checkpoint) => {
                c.checkpoint = Some(PathBuf::from(text(key, value)?))
            }
            (ExecutorConfig::Ida(c), Param::MovePruning) => {
                c.move_pruning = count(key, value)? as usize
            }
            (ExecutorConfig::Ida(c), Param::IncumbentBeam) => c.incumbent_beam = count(key, value)?,
            (ExecutorConfig::MpiHda(c), Param::Partition) => c.partition = text(key, value)?,
            #[cfg(feature = "gpu")]
            (ExecutorConfig::Gpu(c), Param::Heaps) => c.heaps = count(key, value)? as u32,
            #[cfg(feature = "gpu")]
            (ExecutorConfig::Gpu(c), Param::PartialExpansion) => {
                c.partial_expansion = flag(key, value)?
            }
            #[cfg(feature = "gpu")]
            (ExecutorConfig::MultiGpu(c), Param::Gpus) => {
                c.devices = (0..at_least_one(key, value)?).collect()
            }
            #[cfg(feature = "gpu")]
            (ExecutorConfig::MultiGpu(c) | ExecutorConfig::MpiGpu(c), Param::Partition) => {
                c.partition = text(key, value)?
            }
            #[cfg(feature = "gpu")]
            (ExecutorConfig::MultiGpu(c), Param::Heaps) => c.heaps = count(key, value)? as u32,
            #[cfg(feature = "gpu")]
            (ExecutorConfig::MultiGpu(c), Param::PartialExpansion) => {
                c.partial_expansion = flag(key, value)?
            }
            #[cfg(feature = "gpu")]
            (ExecutorConfig::GpuIda(c), Param::Gpus) => {
                c.devices = (0..at_least_one(key, value)?).collect()
            }
            #[cfg(feature = "gpu")]
            (ExecutorConfig::GpuIda(c), Param::Checkpoint) => {
                c.checkpoint = Some(PathBuf::from(text(key, value)?))
            }
            #[cfg(feature = "gpu")]
            (ExecutorConfig::GpuIda(c), Param::Roots) => c.roots = count(key, value)? as usize,
            #[cfg(feature = "gpu")]
            (ExecutorConfig::GpuIda(c), Param::MovePruning) => {
                c.move_pruning = count(key, value)? as usize
            }
            #[cfg(feature = "gpu")]
            (ExecutorConfig::GpuIda(c), Param::IncumbentBeam) => {
                c.incumbent_beam = count(key, value)?
            }
            // EXECUTORS lists a parameter this match does not set: a bug
            // in this file, caught by `every_listed_parameter_is_set`.
            (config, _) => {
                return Err(Error::BadConfig(format!(
                    "{} lists {key} but does not set it",
                    config.kind()
                )))
            }
        }
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two different values of `param`.
    fn samples(param: Param) -> [ParamValue; 2] {
        match param {
            Param::Threads
            | Param::Gpus
            | Param::Heaps
            | Param::Roots
            | Param::MovePruning
            | Param::IncumbentBeam => [ParamValue::Count(3), ParamValue::Count(7)],
            Param::Partition | Param::Checkpoint => {
                [ParamValue::Text("x".into()), ParamValue::Text("y".into())]
            }
            Param::PartialExpansion | Param::Anytime => {
                [ParamValue::Flag(false), ParamValue::Flag(true)]
            }
            Param::Weight => [ParamValue::Number(1.5), ParamValue::Text("greedy".into())],
            Param::Beam | Param::Shortcut | Param::Window => {
                [ParamValue::Count(3), ParamValue::Count(7)]
            }
        }
    }

    /// Every parameter an entry lists is set (two values give two
    /// configs); those it does not list are declined.
    #[test]
    fn every_listed_parameter_is_set() {
        for entry in EXECUTORS {
            let default = (entry.default)();
            assert_eq!(default.kind(), entry.kind);
            for param in PARAMS {
                let [a, b] = samples(param);
                if param.is_order() {
                    let (mut with_a, mut with_b) = (Order::default(), Order::default());
                    assert!(param.set_order(&mut with_a, &a).unwrap());
                    assert!(param.set_order(&mut with_b, &b).unwrap());
                    assert_ne!(with_a, with_b, "{param:?}");
                    assert!(!default.clone().set(param.key(), &a).unwrap());
                    continue;
                }
                let (mut with_a, mut with_b) = (default.clone(), default.clone());
                let taken = with_a.set(param.key(), &a).unwrap();
                with_b.set(param.key(), &b).unwrap();
                assert_eq!(
                    taken,
                    entry.params.contains(&param),
                    "{} {param:?}",
                    entry.kind
                );
                assert_eq!(taken, with_a != with_b, "{} {param:?}", entry.kind);
            }
        }
    }

    #[test]
    fn values_of_the_wrong_kind_or_range_are_refused() {
        let mut hda = ExecutorConfig::by_kind("hda").unwrap();
        let e = hda
            .set("threads", &ParamValue::Text("four".into()))
            .unwrap_err();
        assert!(e.to_string().contains("threads takes numbers"), "{e}");
        assert!(ExecutorConfig::by_kind("hdb")
            .unwrap_err()
            .to_string()
            .contains("hda"));
        #[cfg(feature = "gpu")]
        {
            let mut multi = ExecutorConfig::by_kind("multi-gpu").unwrap();
            assert!(multi.set("gpus", &ParamValue::Count(0)).is_err());
            assert!(multi.set("gpus", &ParamValue::Count(2)).unwrap());
            assert_eq!(multi.name(), "multi-gpu-2-hash");
        }
    }

    #[test]
    fn row_names_give_their_counts() {
        assert_eq!(counted_name("hda-4-split"), Some(("hda-N-split".into(), 4)));
        assert_eq!(counted_name("ida-2"), Some(("ida-N".into(), 2)));
        assert_eq!(
            counted_name("mpi-hda-3-hash"),
            Some(("mpi-hda-N-hash".into(), 3))
        );
        assert_eq!(counted_name("astar"), None);
        assert_eq!(counted_name("mpi-hda-hash"), None);
        #[cfg(feature = "gpu")]
        assert_eq!(counted_name("gpu-ida-2"), Some(("gpu-ida-N".into(), 2)));
    }
}
