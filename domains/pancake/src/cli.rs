//! Pancake sorting on every executor: `frontier solve pancake "3 1 4 2"`
//! or `domain: Pancake()` in RON (instances one stack per line, or
//! `Random(size: 60, count: 10, seed: 1)`).

use crate::{Gap, Pancake};
use frontier_core::{ExecutorConfig, SearchOptions, StdHasher};
use serde::Deserialize;

use frontier_app::config::GridValue;
use frontier_app::plugin::{report, search_with_dual, Instance, Plugin};
use frontier_app::report::InstanceReport;
use frontier_app::CliError;

/// Pancake parameters; the gap heuristic is the heuristic.
#[derive(Clone, Debug, Default, Deserialize, clap::Args)]
#[serde(deny_unknown_fields)]
pub struct PancakeCli {
    /// Also search the stack's dual (its inverse permutation, whose flips
    /// reversed sort the stack: `frontier_pancake::PancakeDual`) with the
    /// same executor after the stack itself, and keep the shorter solution
    /// and the larger lower bound. The two searches share the instance's
    /// limits. For beams and weighted searches, whose routes it varies.
    #[arg(long)]
    #[serde(default)]
    pub dual: bool,
}

impl Plugin for PancakeCli {
    const NAME: &'static str = "pancake";
    const BEST_FIRST: bool = true;
    const PARTITIONS: &'static [&'static str] = &["hash", "zobrist", "bottom"];
    const ABOUT: &'static str = "Pancake sorting (flip the top k) with the gap heuristic";
    type Prepared = ();

    /// As before `dual` existed (the whole config, then empty) unless it is
    /// set, so that earlier results files still match.
    fn answer_params(&self) -> String {
        let dual = if self.dual { "\ndual=true" } else { "" };
        format!("config=PancakeCli{dual}")
    }

    fn set_param(&mut self, key: &str, value: &GridValue) -> Result<bool, CliError> {
        match key {
            "dual" => self.dual = value.flag(key)?,
            _ => return Ok(false),
        }
        Ok(true)
    }

    fn prepare(&self, _: &[ExecutorConfig]) -> Result<(), CliError> {
        Ok(())
    }

    fn random_instance(
        &self,
        size: usize,
        rng: &mut frontier_core::rng::SplitMix64,
    ) -> Result<String, CliError> {
        Pancake::random(size, rng)
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
        let stack = Pancake::parse(&instance.text).map_err(|e| CliError::Instance {
            id: instance.id.clone(),
            message: e.to_string(),
        })?;
        let azh = match executor.partition() {
            None | Some("hash") => None,
            Some(name) => {
                // PARTITIONS lists exactly the names `projection` knows.
                let azh = crate::projection(name, stack.len(), 0x5EED)
                    .ok_or_else(|| CliError::Input(format!("pancake has no partition '{name}'")))?;
                Some(azh)
            }
        };
        // IDA* flips one stack in place; the others take the usual route.
        let run = |stack: &Pancake, options: &SearchOptions| {
            Ok(
                executor.run_in_place_gpu_or(stack, &Gap, options, || match &azh {
                    None => executor.run_gpu(stack, &Gap, &StdHasher, options),
                    Some(azh) => executor.run_gpu_partitioned(stack, &Gap, azh, options),
                })?,
            )
        };
        let outcome = if self.dual {
            search_with_dual(&stack, &stack.dual(), executor, options, run)?
        } else {
            run(&stack, options)?
        };
        if let Some(solution) = outcome.solution() {
            let sorted = stack.replay(&solution.moves).is_some_and(|end| {
                frontier_core::Domain::is_goal(&stack, &end)
                    && solution.moves.len() as u32 == solution.cost
            });
            if !sorted {
                return Err(CliError::Instance {
                    id: instance.id.clone(),
                    message: "the solution's flips do not sort the stack (bug)".into(),
                });
            }
        }
        report::<Pancake>(
            Self::NAME,
            &stack,
            instance,
            executor,
            options,
            outcome,
            |k| k.to_string(),
        )
    }
}
