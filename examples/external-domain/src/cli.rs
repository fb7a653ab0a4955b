//! TopSpin on the `frontier` command line: `frontier-topspin solve topspin
//! "3 0 1 2 4" --k 3`, or `domain: Topspin(k: 4)` in a RON experiment.

use frontier::config::GridValue;
use frontier::plugin::{report, Instance, Plugin};
use frontier::report::InstanceReport;
use frontier::CliError;
use frontier_core::{ExecutorConfig, SearchOptions, StdHasher};

use crate::{Breakpoints, TopSpin};

/// TopSpin's parameters, declared once: clap reads them from `solve`'s
/// flags, serde from the RON block.
#[derive(Clone, Debug, serde::Deserialize, clap::Args)]
#[serde(deny_unknown_fields)]
pub struct TopSpinCli {
    /// Tokens the turnstile reverses at once.
    #[arg(long, default_value_t = 4)]
    #[serde(default = "four")]
    pub k: usize,
}

fn four() -> usize {
    4
}

impl Plugin for TopSpinCli {
    const NAME: &'static str = "topspin";
    const BEST_FIRST: bool = true;
    const ABOUT: &'static str = "TopSpin: reverse k consecutive tokens on a ring until sorted";
    type Prepared = ();

    fn prepare(&self, _: &[ExecutorConfig]) -> Result<(), CliError> {
        Ok(())
    }

    /// `k` can be swept by an experiment's grid.
    fn set_param(&mut self, key: &str, value: &GridValue) -> Result<bool, CliError> {
        if key != "k" {
            return Ok(false);
        }
        self.k = value.count(key)? as usize;
        Ok(true)
    }

    /// A ring of `size` tokens scrambled by 3·size random turns.
    fn random_instance(
        &self,
        size: usize,
        rng: &mut frontier_core::rng::SplitMix64,
    ) -> Result<String, CliError> {
        TopSpin::scrambled(size, self.k, 3 * size, rng)
            .map(|p| p.text())
            .map_err(|e| CliError::Input(e.to_string()))
    }

    fn solve(
        &self,
        _: &(),
        instance: &Instance,
        executor: &ExecutorConfig,
        options: &SearchOptions,
    ) -> Result<InstanceReport, CliError> {
        let puzzle = TopSpin::parse(&instance.text, self.k).map_err(|e| CliError::Instance {
            id: instance.id.clone(),
            message: e.to_string(),
        })?;
        // The runner has refused any partition but `hash` (PARTITIONS).
        let outcome = executor.run_packed(&puzzle, &Breakpoints, &StdHasher, options)?;
        // Checked by replaying, which shares nothing with the search.
        if let Some(solution) = outcome.solution() {
            let end = puzzle.replay(&solution.moves);
            if !frontier_core::Domain::is_goal(&puzzle, &end)
                || solution.moves.len() as u64 != u64::from(solution.cost)
            {
                return Err(CliError::Instance {
                    id: instance.id.clone(),
                    message: "the solution's turns do not sort the ring (bug)".into(),
                });
            }
        }
        report::<TopSpin>(
            Self::NAME,
            &puzzle,
            instance,
            executor,
            options,
            outcome,
            |at| at.to_string(),
        )
    }
}
