//! The `sudolab` binary: everything is in the library's `cli` module.

fn main() -> std::process::ExitCode {
    sudolab::cli::main()
}
