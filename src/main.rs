//! The `frontier` binary: everything is in the library, so that the config
//! fuzz target parses exactly what the command line does.

fn main() -> std::process::ExitCode {
    frontier::main()
}
