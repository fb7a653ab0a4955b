//! `frontier`: the command line with every bundled domain registered.
//!
//! The runner is [`frontier_app`] (re-exported here); each domain's plugin
//! lives in its own crate (`frontier_tiles::cli`, …). A program with a
//! domain of its own adds it beside the bundled ones:
//!
//! ```no_run
//! use frontier::{App, Builtin};
//! # type TopSpin = frontier_pancake::cli::PancakeCli;
//! fn main() -> std::process::ExitCode {
//!     App::new().with_builtin().add::<TopSpin>().run()
//! }
//! ```

pub mod fuzzing;
mod grid;

pub use frontier_app::*;

/// Registers the domains bundled with frontier.
pub trait Builtin {
    /// This command line with grid, tiles, boggle, wordle, nonogram and
    /// pancake added.
    fn with_builtin(self) -> Self;
}

impl Builtin for App {
    fn with_builtin(self) -> App {
        self.add::<grid::GridCli>()
            .add::<frontier_tiles::cli::TilesCli>()
            .add::<frontier_boggle::cli::BoggleCli>()
            .add::<frontier_wordle::cli::WordleCli>()
            .add::<frontier_nonogram::cli::NonogramCli>()
            .add::<frontier_pancake::cli::PancakeCli>()
    }
}

/// `frontier --help`'s text above the command list.
const ABOUT: &str = "Parallel best-first search: one domain, every executor.

Examples:
  frontier run configs/demo.ron
  frontier plot results.csv
  frontier solve tiles \"1 2 3 4 5 6 0 7 8\" --goal standard
  frontier solve --json grid \"S..#/..#G/....\"
  frontier boggle score perslatgsineters
  frontier nonogram solve puzzle.non --png solution.png";

/// The `frontier` command: every bundled domain, the process's arguments.
pub fn main() -> std::process::ExitCode {
    App::new().about(ABOUT).with_builtin().run()
}

/// [`App::check_config`] with the bundled domains: `Ok` when `frontier run`
/// would start on `text`, else the error it would print; never panics.
pub fn check_config(text: &str) -> Result<(), String> {
    App::new().with_builtin().check_config(text)
}
