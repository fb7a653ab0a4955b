//! The pancake GPU plugin: `domains/pancake/kernels/pancake.cuh` plus the stack height.
//! The gap heuristic needs no tables.

use frontier_core::search::gpu::GpuPlugin;
use frontier_core::PackedState;

use crate::{Gap, Pancake};

const PLUGIN: &str = include_str!("../kernels/pancake.cuh");

impl GpuPlugin<Pancake> for Gap {
    fn source(&self, stack: &Pancake) -> String {
        let n = stack.len();
        format!(
            "#define N_PANCAKES {n}\n#define STATE_WORDS {}\n#define MAX_SUCC {}\n{PLUGIN}",
            stack.packed_words(),
            n.saturating_sub(1).max(1)
        )
    }

    fn tables<'a>(&'a self, _: &Pancake) -> Vec<&'a [u8]> {
        Vec::new()
    }
}
