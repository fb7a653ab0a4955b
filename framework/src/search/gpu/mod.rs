//! GPU executors. A domain that runs on the GPU ships a CUDA plugin (see
//! `kernels/gastar.cu` for the contract) through [`GpuPlugin`].

pub mod gastar;

pub use gastar::{gastar, GastarConfig, GastarSession};

use crate::domain::{Cost, PackedState};

/// A domain's (and heuristic's) GPU side: CUDA source, lookup tables, and
/// how to read its move codes back.
pub trait GpuPlugin<D: PackedState>: Send + Sync {
    /// CUDA source defining `STATE_WORDS`, `MAX_SUCC`, `is_goal`, `expand`,
    /// `heuristic` and `state_hash` for this instance (see kernels/gastar.cu).
    fn source(&self, domain: &D) -> String;
    /// Bytes uploaded once and handed to every plugin call (pattern
    /// databases, goal tables), as segments laid end to end on the device:
    /// handing out existing buffers avoids copying hundreds of megabytes.
    fn tables<'a>(&'a self, domain: &D) -> Vec<&'a [u8]>;
    /// The move a plugin move code stands for.
    fn decode_move(&self, domain: &D, code: u32) -> Option<D::Move>;
}

/// Checks a path of states against the domain: each step must be an edge.
/// Returns the path's cost, or the first step that is not an edge.
pub fn replay_cost<D: crate::Domain>(domain: &D, states: &[D::State]) -> Result<Cost, usize> {
    let mut cost: Cost = 0;
    let mut edges = Vec::new();
    for (i, pair) in states.windows(2).enumerate() {
        edges.clear();
        domain.expand(&pair[0], &mut edges);
        let edge = edges.iter().find(|e| e.state == pair[1]).ok_or(i)?;
        cost += edge.cost;
    }
    Ok(cost)
}
