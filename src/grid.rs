//! `frontier solve grid "S..#/..#G/...."`: the framework's demo maze.

use frontier_core::grid::{Grid, Manhattan};
use frontier_core::{ExecutorConfig, SearchOptions, StdHasher};
use serde::Deserialize;

use frontier_app::plugin::{report, Instance, Plugin};
use frontier_app::report::InstanceReport;
use frontier_app::CliError;

/// Maze parameters. Instances are mazes with rows separated by `/` or
/// newlines: `S` start, `G` goal, `#` wall, `.` cost 1, `1`–`9` that cost.
#[derive(Clone, Debug, Default, Deserialize, clap::Args)]
#[serde(deny_unknown_fields)]
pub struct GridCli {}

impl Plugin for GridCli {
    const NAME: &'static str = "grid";
    const ABOUT: &'static str =
        "A 4-connected maze with weighted cells (the framework's demo domain)";
    type Prepared = ();

    fn prepare(&self, _: &[ExecutorConfig]) -> Result<(), CliError> {
        Ok(())
    }

    /// A random `size`² maze, start top left, goal bottom right, a fifth
    /// of the other cells walls (some such mazes have no path).
    fn random_instance(
        &self,
        size: usize,
        rng: &mut frontier_core::rng::SplitMix64,
    ) -> Result<String, CliError> {
        if !(2..=1000).contains(&size) {
            return Err(CliError::Input(format!(
                "grid: a random maze's size is its side, 2 to 1000 (not {size})"
            )));
        }
        let text = Grid::random_text(rng, size, size, 2, (0, 0), (size - 1, size - 1));
        Ok(text.trim_end().replace('\n', "/"))
    }

    fn solve(
        &self,
        _: &(),
        instance: &Instance,
        executor: &ExecutorConfig,
        options: &SearchOptions,
    ) -> Result<InstanceReport, CliError> {
        let grid =
            Grid::parse(&instance.text.replace('/', "\n")).map_err(|e| CliError::Instance {
                id: instance.id.clone(),
                message: e.to_string(),
            })?;
        // The runner has refused any partition but `hash` (PARTITIONS).
        let outcome = executor.run_gpu(&grid, &Manhattan, &StdHasher, options)?;
        report::<Grid>(
            Self::NAME,
            &grid,
            instance,
            executor,
            options,
            outcome,
            |m| format!("{m:?}"),
        )
    }
}
