//! Config types shared by the CLI and the domains: which executor runs an
//! instance, and with what parameters.

use serde::{Deserialize, Serialize};

use crate::domain::{Domain, Heuristic, Partitioner};
use crate::search::{astar, hda, DomainOutcome, HdaConfig, SearchOptions};

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
}

impl ExecutorConfig {
    /// The short name used in output tables and JSON (`hda-4-split`).
    pub fn name(&self) -> String {
        match self {
            ExecutorConfig::Astar => "astar".into(),
            ExecutorConfig::Hda(c) => match c.max_lead {
                Some(0) => format!("hda-{}-{}", c.threads, c.partition),
                Some(lead) => format!("hda-{}-{}-lead{lead}", c.threads, c.partition),
                None => format!("hda-{}-{}-free", c.threads, c.partition),
            },
        }
    }

    /// The partitioner name this executor needs, if it distributes states.
    pub fn partition(&self) -> Option<&str> {
        match self {
            ExecutorConfig::Astar => None,
            ExecutorConfig::Hda(c) => Some(&c.partition),
        }
    }

    /// Runs the configured executor on a CPU domain. `partitioner` is used
    /// only by distributed executors; build it from [`Self::partition`].
    pub fn run<D: Domain, H: Heuristic<D>, P: Partitioner<D>>(
        &self,
        domain: &D,
        heuristic: &H,
        partitioner: &P,
        options: &SearchOptions,
    ) -> DomainOutcome<D> {
        match self {
            ExecutorConfig::Astar => astar(domain, heuristic, options),
            ExecutorConfig::Hda(config) => hda(domain, heuristic, partitioner, config, options),
        }
    }
}
