//! Config types shared by the CLI and the domains: which executor runs an
//! instance, and with what parameters.

use serde::{Deserialize, Serialize};

use crate::domain::{Domain, Heuristic, Partitioner};
use crate::search::{astar, hda, ida, DomainOutcome, HdaConfig, IdaConfig, SearchOptions};
use crate::Error;

/// An executor and its parameters, as written in RON configs
/// (`executors: [Astar, Hda(threads: 4, partition: "split")]`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum ExecutorConfig {
    /// Sequential A* on one core.
    #[default]
    Astar,
    /// Hash-distributed A* on threads.
    Hda(#[serde(default)] HdaConfig),
    /// Parallel IDA* on threads: memory-bounded (checkpoints, resume).
    Ida(#[serde(default)] IdaConfig),
    /// HDA* over the ranks of an MPI job (`mpirun -np N frontier ...`):
    /// domains whose states pack into words; needs the `mpi` feature.
    MpiHda(#[serde(default)] crate::search::MpiHdaConfig),
    /// GA* on one GPU (domains with a GPU plugin).
    #[cfg(feature = "gpu")]
    Gpu(#[serde(default)] crate::search::gpu::GastarConfig),
    /// HDA* over several GPUs of one host (domains with a GPU plugin).
    #[cfg(feature = "gpu")]
    MultiGpu(#[serde(default)] crate::search::gpu::MultiGpuConfig),
    /// IDA* on every GPU of a host: memory-bounded (domains with a GPU plugin).
    #[cfg(feature = "gpu")]
    GpuIda(#[serde(default)] crate::search::gpu::GpuIdaConfig),
    /// `MultiGpu` with one MPI rank per GPU of a host (`mpirun -np N`;
    /// `devices` lists the devices the ranks of a host take in turn);
    /// needs the `mpi` feature.
    #[cfg(feature = "gpu")]
    MpiGpu(#[serde(default)] crate::search::gpu::MultiGpuConfig),
}

impl ExecutorConfig {
    /// The short name used in output tables and JSON (`hda-4-split`).
    pub fn name(&self) -> String {
        match self {
            ExecutorConfig::Astar => "astar".into(),
            ExecutorConfig::Hda(c) => {
                let gate = match c.max_lead {
                    Some(0) => String::new(),
                    Some(lead) => format!("-lead{lead}"),
                    None => "-free".into(),
                };
                let fixed = if c.rebalance || c.max_lead.is_none() {
                    ""
                } else {
                    "-fixed"
                };
                format!("hda-{}-{}{gate}{fixed}", c.threads, c.partition)
            }
            ExecutorConfig::Ida(c) => format!("ida-{}", c.threads),
            ExecutorConfig::MpiHda(c) => {
                let fixed = if c.rebalance { "" } else { "-fixed" };
                match crate::search::mpi::rank_and_size() {
                    Some((_, ranks)) => format!("mpi-hda-{ranks}-{}{fixed}", c.partition),
                    None => format!("mpi-hda-{}{fixed}", c.partition),
                }
            }
            #[cfg(feature = "gpu")]
            ExecutorConfig::Gpu(_) => "gpu".into(),
            #[cfg(feature = "gpu")]
            ExecutorConfig::MultiGpu(c) => {
                let gpus = if c.devices.is_empty() {
                    "all".to_string()
                } else {
                    c.devices.len().to_string()
                };
                format!("multi-gpu-{gpus}-{}", c.partition)
            }
            #[cfg(feature = "gpu")]
            ExecutorConfig::MpiGpu(c) => match crate::search::mpi::rank_and_size() {
                Some((_, ranks)) => format!("mpi-gpu-{ranks}-{}", c.partition),
                None => format!("mpi-gpu-{}", c.partition),
            },
            #[cfg(feature = "gpu")]
            ExecutorConfig::GpuIda(c) => match c.devices.len() {
                0 => "gpu-ida".into(),
                n => format!("gpu-ida-{n}"),
            },
        }
    }

    /// The executor's kind as the command line names it (`multi-gpu`),
    /// without its parameters: for errors.
    pub fn kind(&self) -> &'static str {
        match self {
            ExecutorConfig::Astar => "astar",
            ExecutorConfig::Hda(_) => "hda",
            ExecutorConfig::Ida(_) => "ida",
            ExecutorConfig::MpiHda(_) => "mpi-hda",
            #[cfg(feature = "gpu")]
            ExecutorConfig::Gpu(_) => "gpu",
            #[cfg(feature = "gpu")]
            ExecutorConfig::MultiGpu(_) => "multi-gpu",
            #[cfg(feature = "gpu")]
            ExecutorConfig::GpuIda(_) => "gpu-ida",
            #[cfg(feature = "gpu")]
            ExecutorConfig::MpiGpu(_) => "mpi-gpu",
        }
    }

    /// The width of the beam that runs before IDA\* (`incumbent_beam`), if
    /// this is an IDA\* executor that asks for one: a domain that ranks
    /// beams its own way ranks this one too.
    pub fn incumbent_beam(&self) -> Option<u64> {
        match self {
            ExecutorConfig::Ida(c) => Some(c.incumbent_beam),
            #[cfg(feature = "gpu")]
            ExecutorConfig::GpuIda(c) => Some(c.incumbent_beam),
            _ => None,
        }
        .filter(|&width| width > 0)
    }

    /// The partitioner name this executor needs, if it distributes states.
    pub fn partition(&self) -> Option<&str> {
        match self {
            ExecutorConfig::Hda(c) => Some(&c.partition),
            ExecutorConfig::MpiHda(c) => Some(&c.partition),
            #[cfg(feature = "gpu")]
            ExecutorConfig::MultiGpu(c) | ExecutorConfig::MpiGpu(c) => Some(&c.partition),
            _ => None,
        }
    }

    /// Runs the configured executor on a CPU domain. `partitioner` is used
    /// only by distributed executors; build it from [`Self::partition`].
    /// GPU executors need [`Self::run_gpu`] and a plugin.
    pub fn run<D: Domain, H: Heuristic<D>, P: Partitioner<D>>(
        &self,
        domain: &D,
        heuristic: &H,
        partitioner: &P,
        options: &SearchOptions,
    ) -> Result<DomainOutcome<D>, Error> {
        options.order.check_domain(domain)?;
        match self {
            ExecutorConfig::Astar => astar(domain, heuristic, options),
            ExecutorConfig::Hda(config) => hda(domain, heuristic, partitioner, config, options),
            // `ida` checks its thread count itself, as `hda` does.
            ExecutorConfig::Ida(config) => {
                below_a_cpu_beam(domain, heuristic, config, options, |config, options| {
                    ida(domain, heuristic, config, options)
                })
            }
            ExecutorConfig::MpiHda(_) => Err(Error::ExecutorUnavailable {
                executor: self.kind(),
                reason: "this domain's states have no packed encoding (PackedState)".into(),
            }),
            #[cfg(feature = "gpu")]
            ExecutorConfig::Gpu(_)
            | ExecutorConfig::MultiGpu(_)
            | ExecutorConfig::GpuIda(_)
            | ExecutorConfig::MpiGpu(_) => Err(Error::ExecutorUnavailable {
                executor: self.kind(),
                reason: "this domain has no GPU plugin".into(),
            }),
        }
    }

    /// Like [`Self::run`], for domains with a GPU plugin (which is also the
    /// heuristic on the CPU side). `multi-gpu` runs here with the `hash`
    /// partition only; a domain with partitions of its own (tiles' Abstract
    /// Zobrist projections) resolves them and calls
    /// [`crate::search::gpu::multi_gpu`] itself.
    #[cfg(feature = "gpu")]
    pub fn run_gpu<D, H, P>(
        &self,
        domain: &D,
        heuristic: &H,
        partitioner: &P,
        options: &SearchOptions,
    ) -> Result<DomainOutcome<D>, Error>
    where
        D: crate::PackedState,
        H: Heuristic<D> + crate::search::gpu::GpuPlugin<D>,
        P: Partitioner<D>,
    {
        options.order.check_domain(domain)?;
        match self {
            ExecutorConfig::Gpu(config) if options.order.beam.is_some() => {
                let ga_only = crate::search::gpu::GastarConfig {
                    device: config.device,
                    ..Default::default()
                };
                if *config != ga_only {
                    return Err(Error::BadConfig(
                        "gpu with a beam takes only `device`: heaps, memory_fraction, \
                         table_log2 and partial_expansion are GA*'s"
                            .into(),
                    ));
                }
                crate::search::gpu::gpu_beam(domain, heuristic, config.device, options)
            }
            ExecutorConfig::Gpu(config) => {
                crate::search::gpu::gastar(domain, heuristic, config, options)
            }
            ExecutorConfig::GpuIda(config) => {
                below_a_gpu_beam(domain, heuristic, config, options, |config, options| {
                    crate::search::gpu::gpu_ida(domain, heuristic, config, options)
                })
            }
            ExecutorConfig::MultiGpu(config) if config.partition == "hash" => {
                crate::search::gpu::multi_gpu(
                    domain,
                    heuristic,
                    &crate::search::gpu::PackedHasher,
                    config,
                    options,
                )
            }
            ExecutorConfig::MpiGpu(config) if config.partition == "hash" => {
                crate::search::gpu::mpi_gpu(
                    domain,
                    heuristic,
                    &crate::search::gpu::PackedHasher,
                    config,
                    options,
                )
            }
            ExecutorConfig::MultiGpu(config) | ExecutorConfig::MpiGpu(config) => {
                Err(Error::ExecutorUnavailable {
                    executor: self.kind(),
                    reason: format!(
                        "this domain has no GPU partition named '{}'",
                        config.partition
                    ),
                })
            }
            _ => self.run_packed(domain, heuristic, partitioner, options),
        }
    }

    /// Like [`Self::run_gpu`], with `partition`, the partition
    /// [`Self::partition`] names as the domain resolved it, used by every
    /// executor that distributes states: HDA\* and `mpi-hda` on the CPU,
    /// `multi-gpu` and `mpi-gpu` on GPUs. A domain with partitions of its
    /// own (Abstract Zobrist projections) calls this with the one named.
    #[cfg(feature = "gpu")]
    pub fn run_gpu_partitioned<D, H, Q>(
        &self,
        domain: &D,
        heuristic: &H,
        partition: &Q,
        options: &SearchOptions,
    ) -> Result<DomainOutcome<D>, Error>
    where
        D: crate::PackedState,
        H: Heuristic<D> + crate::search::gpu::GpuPlugin<D>,
        Q: crate::search::gpu::GpuPartitioner<D>,
    {
        options.order.check_domain(domain)?;
        match self {
            ExecutorConfig::MultiGpu(config) => {
                crate::search::gpu::multi_gpu(domain, heuristic, partition, config, options)
            }
            ExecutorConfig::MpiGpu(config) => {
                crate::search::gpu::mpi_gpu(domain, heuristic, partition, config, options)
            }
            _ => self.run_gpu(domain, heuristic, partition, options),
        }
    }

    /// `ida` on the in-place path ([`crate::search::ida::ida_in_place`])
    /// for domains whose moves apply in place; every other executor through
    /// `otherwise`, the domain's usual route ([`Self::run_gpu`], …).
    pub fn run_in_place_or<D, H>(
        &self,
        domain: &D,
        heuristic: &H,
        options: &SearchOptions,
        otherwise: impl FnOnce() -> Result<DomainOutcome<D>, Error>,
    ) -> Result<DomainOutcome<D>, Error>
    where
        D: crate::InPlace,
        H: crate::InPlaceHeuristic<D>,
    {
        options.order.check_domain(domain)?;
        match self {
            ExecutorConfig::Ida(config) => {
                below_a_cpu_beam(domain, heuristic, config, options, |config, options| {
                    crate::search::ida::ida_in_place(domain, heuristic, config, options)
                })
            }
            _ => otherwise(),
        }
    }

    /// [`Self::run_in_place_or`] for domains with a GPU plugin too: `ida`
    /// and `gpu-ida` on the in-place path (where move pruning runs), every
    /// other executor through `otherwise`.
    #[cfg(feature = "gpu")]
    pub fn run_in_place_gpu_or<D, H>(
        &self,
        domain: &D,
        heuristic: &H,
        options: &SearchOptions,
        otherwise: impl FnOnce() -> Result<DomainOutcome<D>, Error>,
    ) -> Result<DomainOutcome<D>, Error>
    where
        D: crate::InPlace + crate::PackedState,
        H: crate::InPlaceHeuristic<D> + crate::search::gpu::GpuPlugin<D>,
    {
        options.order.check_domain(domain)?;
        match self {
            ExecutorConfig::GpuIda(config) => {
                below_a_gpu_beam(domain, heuristic, config, options, |config, options| {
                    crate::search::gpu::gpu_ida_in_place(domain, heuristic, config, options)
                })
            }
            _ => self.run_in_place_or(domain, heuristic, options, otherwise),
        }
    }

    /// Like [`Self::run`], for domains whose states pack into words
    /// ([`crate::PackedState`]), which can also travel between the
    /// processes of `mpi-hda`.
    pub fn run_packed<D, H, P>(
        &self,
        domain: &D,
        heuristic: &H,
        partitioner: &P,
        options: &SearchOptions,
    ) -> Result<DomainOutcome<D>, Error>
    where
        D: crate::PackedState,
        H: Heuristic<D>,
        P: Partitioner<D>,
    {
        options.order.check_domain(domain)?;
        match self {
            ExecutorConfig::MpiHda(config) => {
                crate::search::mpi_hda(domain, heuristic, partitioner, config, options)
            }
            _ => self.run(domain, heuristic, partitioner, options),
        }
    }
}

/// `ida` through `search`, after a CPU beam of its `incumbent_beam`
/// width when it asks for one ([`crate::search::incumbent`]).
fn below_a_cpu_beam<D: Domain, H: Heuristic<D>>(
    domain: &D,
    heuristic: &H,
    config: &IdaConfig,
    options: &SearchOptions,
    search: impl FnOnce(&IdaConfig, &SearchOptions) -> Result<DomainOutcome<D>, Error>,
) -> Result<DomainOutcome<D>, Error> {
    if config.incumbent_beam == 0 {
        return search(config, options);
    }
    crate::search::incumbent::below_a_beam::<D>(
        config.incumbent_beam,
        options,
        |beam| crate::search::beam::beam(domain, heuristic, config.threads, beam),
        |ceiling, rest| {
            let config = IdaConfig {
                ceiling,
                ..config.clone()
            };
            search(&config, rest)
        },
    )
}

/// `gpu-ida` through `search`, after a GPU beam (on its first device) of
/// its `incumbent_beam` width when it asks for one.
#[cfg(feature = "gpu")]
fn below_a_gpu_beam<D, P>(
    domain: &D,
    plugin: &P,
    config: &crate::search::gpu::GpuIdaConfig,
    options: &SearchOptions,
    search: impl FnOnce(
        &crate::search::gpu::GpuIdaConfig,
        &SearchOptions,
    ) -> Result<DomainOutcome<D>, Error>,
) -> Result<DomainOutcome<D>, Error>
where
    D: crate::PackedState,
    P: crate::search::gpu::GpuPlugin<D>,
{
    if config.incumbent_beam == 0 {
        return search(config, options);
    }
    let device = config.devices.first().copied().unwrap_or(0);
    crate::search::incumbent::below_a_beam::<D>(
        config.incumbent_beam,
        options,
        |beam| crate::search::gpu::gpu_beam(domain, plugin, device, beam),
        |ceiling, rest| {
            let config = crate::search::gpu::GpuIdaConfig {
                ceiling,
                ..config.clone()
            };
            search(&config, rest)
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{Blind, Edge};
    use crate::search::Order;

    /// A domain with no estimate between states, whose search must never
    /// start: expanding it fails the test.
    struct Untouchable;

    impl Domain for Untouchable {
        type State = u32;
        type Move = ();
        fn start(&self) -> u32 {
            0
        }
        fn expand(&self, _: &u32, _: &mut Vec<Edge<u32, ()>>) {
            panic!("the search ran before the window was refused");
        }
        fn is_goal(&self, _: &u32) -> bool {
            false
        }
    }

    /// A window on a domain without `estimate_between` is refused before
    /// the search, on every executor `run` dispatches.
    #[test]
    fn a_window_without_an_estimate_is_refused_before_the_search() {
        let options = SearchOptions {
            order: Order {
                window: Some(8),
                ..Order::default()
            },
            ..SearchOptions::default()
        };
        for kind in ["astar", "hda", "ida"] {
            let executor = ExecutorConfig::by_kind(kind).unwrap();
            let partition = crate::domain::StdHasher;
            match executor.run(&Untouchable, &Blind, &partition, &options) {
                Err(Error::BadConfig(message)) => {
                    assert!(
                        message.contains("no estimate of the cost"),
                        "{kind}: {message}"
                    )
                }
                other => panic!("{kind}: {:?}", other.map(|o| o.status)),
            }
        }
    }
}
