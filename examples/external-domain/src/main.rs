//! `frontier-topspin`: frontier's command line with every bundled domain,
//! and TopSpin registered beside them in one line.

use frontier::{App, Builtin};

fn main() -> std::process::ExitCode {
    App::new()
        .named("frontier-topspin")
        .with_builtin()
        .add::<topspin::cli::TopSpinCli>()
        .run()
}
