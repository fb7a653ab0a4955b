//! Config types shared by the CLI and the domains: which executor runs an
//! instance, and with what parameters.

use serde::{Deserialize, Serialize};

use crate::domain::{Domain, Heuristic};
use crate::search::{astar, DomainOutcome, SearchOptions};
use crate::Error;

/// An executor and its parameters, as written in RON configs
/// (`executor: Astar`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum ExecutorConfig {
    /// Sequential A* on one core.
    #[default]
    Astar,
}

impl ExecutorConfig {
    /// The short name used in output tables and JSON.
    pub fn name(&self) -> &'static str {
        match self {
            ExecutorConfig::Astar => "astar",
        }
    }

    /// Runs the configured executor on a CPU domain.
    pub fn run<D: Domain, H: Heuristic<D>>(
        &self,
        domain: &D,
        heuristic: &H,
        options: &SearchOptions,
    ) -> Result<DomainOutcome<D>, Error> {
        match self {
            ExecutorConfig::Astar => Ok(astar(domain, heuristic, options)),
        }
    }
}
