//! The command line: clap definitions and one module per subcommand. Each subcommand parses
//! its arguments and calls the library; nothing here knows how an engine works.
//!
//! Exit status (a contract for scripts): 0 when every puzzle was processed, whatever its
//! status; 1 when `verify` found a disagreement; 2 on bad input or bad usage (a message
//! names the file, line and column).

mod certify;
mod common;
mod engines_cmd;
mod generate;
mod plot_cmd;
mod progress;
mod reduce;
mod run;
mod solve;
mod tile;
mod verify;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Exit status for bad input or usage.
pub const EXIT_BAD_INPUT: u8 = 2;

pub use common::InputArgs;

#[derive(Parser, Debug)]
#[command(
    name = "sudolab",
    version,
    about = "Reductions of Sudoku-family puzzles: classic engines, CNF, exact cover, experiments",
    after_help = "Exit status: 0 when every puzzle was processed (whatever its status), \
                  1 when a check failed (verify found a disagreement, a certificate or a \
                  model was rejected), 2 on bad input or usage, 3 when --time-limit stopped \
                  generate or decode's proof check (docs/usage.md, \"Exit status\")."
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

// Built once per process: the size difference between variants does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand, Debug)]
enum Command {
    /// Solve puzzles with one engine and print their solutions or status.
    Solve(solve::SolveArgs),
    /// List the engines, their sources, capabilities and what their counts mean.
    Engines,
    /// Write a puzzle's reduction: DIMACS CNF (for any SAT solver) or Knuth's dlx1 format.
    Encode(reduce::EncodeArgs),
    /// Sizes of the CNF encodings (vars, clauses, literals) for an empty grid or for puzzles.
    Stats(reduce::StatsArgs),
    /// Read a SAT solver's model for a CNF written by `encode` and print the grid (exit 1 if
    /// the model does not satisfy the formula or does not decode to a solution).
    Decode(reduce::DecodeArgs),
    /// Solve any exact-cover problem written in Knuth's dlx1 format with the DLX engine.
    Dlx(reduce::DlxArgs),
    /// Run every engine and reduction variant on each puzzle and check they all agree
    /// (exit 1 on any disagreement).
    Verify(verify::VerifyArgs),
    /// Draw one chart (SVG or PNG) from run records (CSV).
    Plot(plot_cmd::PlotArgs),
    /// Write a self-contained HTML report: metadata, summary tables and charts.
    Report(plot_cmd::ReportArgs),
    /// Fit jigsaw pieces together on the board (DLX or the seed's backtracking), then solve
    /// each tiling as a jigsaw sudoku.
    Tile(tile::TileArgs),
    /// Run an experiment file: puzzle files x engine configurations x repetitions, one CSV row
    /// per run, a JSON sidecar of metadata, a summary table, charts and a report.
    Run(run::RunArgs),
    /// Merge the CSV outputs of the shards of one experiment (checks every job is there once).
    Merge(run::MergeArgs),
    /// Summary tables of run records (CSV): per configuration, runs, solved, unsolved by
    /// status, median and mean CPU time, PAR-2, median nodes and guesses.
    Summary(run::SummaryArgs),
    /// Generate puzzles with a unique solution (proven by a solver) from random full grids.
    Generate(generate::GenerateArgs),
    /// Decide puzzles and write certificates (verdict, solutions, a DRAT proof against the
    /// canonical formula) to a bundle, or check a bundle (--check DIR) without trusting it.
    Certify(certify::CertifyArgs),
    /// The bare engine loop that scripts/bench/runner.sh compares `run` with (hidden: a
    /// benchmark's baseline, not a tool).
    #[command(hide = true)]
    BenchLoop(run::BenchLoopArgs),
}

/// `sudolab solve ... | head` should stop quietly when `head` exits, as Unix tools do, rather
/// than report a broken pipe as an error: restore the default SIGPIPE action that Rust's
/// runtime replaces.
fn restore_sigpipe() {
    // SAFETY: setting a signal disposition to SIG_DFL at start-up, before any thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// Runs the command line and returns the process exit status.
pub fn main() -> ExitCode {
    restore_sigpipe();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            // clap uses 0 for --help/--version and 2 for usage errors, as we do.
            return ExitCode::from(e.exit_code() as u8);
        }
    };
    let result = match cli.command {
        Command::Solve(args) => solve::run(args),
        Command::Engines => engines_cmd::run(),
        Command::Verify(args) => verify::run(args),
        Command::Encode(args) => reduce::encode(args),
        Command::Stats(args) => reduce::stats(args),
        Command::Decode(args) => reduce::decode(args),
        Command::Dlx(args) => reduce::dlx(args),
        Command::Plot(args) => plot_cmd::plot(args),
        Command::Report(args) => plot_cmd::report(args),
        Command::Tile(args) => tile::run(args),
        Command::Run(args) => run::run(args),
        Command::Merge(args) => run::merge(args),
        Command::Summary(args) => run::summary(args),
        Command::Generate(args) => generate::run(args),
        Command::Certify(args) => certify::run(args),
        Command::BenchLoop(args) => run::bench_loop(args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("sudolab: {e:#}");
            ExitCode::from(EXIT_BAD_INPUT)
        }
    }
}
