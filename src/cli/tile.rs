//! `sudolab tile`: fit jigsaw pieces together on the board, then solve each tiling as a
//! jigsaw sudoku (project issue 5). The work is in [`crate::tiling`]; this prints it.
//!
//! Source: D. de la Osa Fernández, "Sudoku de nominoes" (pieces to board by backtracking,
//! then the sudoku); see [`crate::tiling`] for the format and the methods.

use super::common::{parse_seconds, whole};
use crate::engines::EngineSpec;
use crate::puzzle::{write_grid, write_puzzle, OutputFormat};
use crate::tiling::{
    read_pieces_file, tile_and_solve, Agreement, Method, SearchReport, TileOptions, TileReport,
};
use anyhow::Context;
use clap::{Args, ValueEnum};
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum MethodArg {
    /// Exact cover with dancing links.
    Dlx,
    /// The seed paper's backtracking, pieces in file order.
    Backtrack,
    /// Both, checking that they find the same tilings (exit 1 if not).
    Both,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum TileOutput {
    Line,
    Grid,
}

#[derive(Args, Debug)]
pub struct TileArgs {
    /// Pieces file (`-` for standard input); format in docs/tiling.md.
    pub pieces: String,

    /// Also place pieces rotated and reflected (default: translations only, as drawn).
    #[arg(long)]
    pub rotations: bool,

    /// Stop each tiling search after K tilings (0 = all).
    #[arg(long, default_value_t = 0, value_name = "K", allow_negative_numbers = true,
          value_parser = whole::<u64, 0>)]
    pub max_tilings: u64,

    /// Tiling method.
    #[arg(long, value_enum, default_value = "dlx")]
    pub method: MethodArg,

    /// Engine that solves each tiling's sudoku (see `sudolab engines`).
    #[arg(long, short, default_value = "dlx")]
    pub engine: String,

    /// Solutions asked of each sudoku: 1 = first, 2 = prove uniqueness, 0 = all.
    #[arg(long, default_value_t = 2, value_name = "K", allow_negative_numbers = true,
          value_parser = whole::<u64, 0>)]
    pub max_solutions: u64,

    /// Node limit of each tiling search and of each sudoku search (each counts its own
    /// nodes).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole::<u64, 0>)]
    pub node_limit: Option<u64>,

    /// Wall-time limit of the whole command: every method's tiling search and the sudoku
    /// solving included (with --method both, backtrack gets the time dlx left).
    #[arg(long, value_name = "SECS", value_parser = parse_seconds, default_value = "60",
          allow_negative_numbers = true)]
    pub time_limit: Duration,

    /// Print at most K puzzles with their solutions (0 = only the summary).
    #[arg(long, default_value_t = 10, value_name = "K", allow_negative_numbers = true,
          value_parser = whole::<usize, 0>)]
    pub show: usize,

    /// Form of the printed puzzles and solutions.
    #[arg(long, value_enum, default_value = "grid")]
    pub output: TileOutput,
}

pub fn run(args: TileArgs) -> anyhow::Result<ExitCode> {
    let engine: EngineSpec = args.engine.parse().map_err(anyhow::Error::msg)?;
    // Check the engine before reading: a usage error, whatever the pieces.
    engine.make().map_err(anyhow::Error::msg)?;
    let set = read_pieces_file(Path::new(&args.pieces))?;
    let methods = match args.method {
        MethodArg::Dlx => vec![Method::Dlx],
        MethodArg::Backtrack => vec![Method::Backtrack],
        MethodArg::Both => vec![Method::Dlx, Method::Backtrack],
    };
    let options = TileOptions {
        rotations: args.rotations,
        methods,
        engine,
        max_tilings: args.max_tilings,
        max_solutions: args.max_solutions,
        node_limit: args.node_limit,
        time_limit: Some(args.time_limit),
        keep: args.show,
    };
    let report = tile_and_solve(&set, &options).map_err(anyhow::Error::msg)?;
    let source = if args.pieces == "-" {
        "<stdin>"
    } else {
        &args.pieces
    };
    let output = match args.output {
        TileOutput::Line => OutputFormat::Line,
        TileOutput::Grid => OutputFormat::Grid,
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    write!(out, "{}", summary(source, &report, &options))?;
    for found in &report.shown {
        writeln!(
            out,
            "\n# tiling {}: {}, {} solution{}",
            found.tiling,
            found.outcome.status,
            found.outcome.count,
            if found.outcome.count == 1 { "" } else { "s" }
        )?;
        writeln!(out, "{}", write_puzzle(&found.puzzle, output, None))?;
        for s in &found.outcome.solutions {
            if output == OutputFormat::Grid {
                writeln!(out)?;
            }
            writeln!(
                out,
                "{}",
                write_grid(s, found.puzzle.geometry(), output, None)
            )?;
        }
    }
    out.flush().context("writing to standard output")?;
    for e in &report.engine_errors {
        eprintln!("sudolab: {source}: {e}");
    }
    if let Agreement::Differ(why) = &report.agreement {
        eprintln!("sudolab: {source}: the tiling methods disagree: {why}");
        return Ok(ExitCode::from(1));
    }
    if !report.engine_errors.is_empty() {
        return Ok(ExitCode::from(1));
    }
    if let Some(why) = &report.unsupported {
        // The boards are jigsaw puzzles of side N: an engine that cannot take them was the
        // wrong choice (a usage error), not an open question about the puzzles.
        eprintln!(
            "sudolab: {source}: expected an engine that solves {n}x{n} jigsaw sudoku \
             (e.g. dlx, human, sat), found --engine {} which answered unsupported on {}: {why}",
            options.engine,
            plural(report.sudoku.puzzles_unsupported, "distinct puzzle"),
            n = report.n,
        );
        return Ok(ExitCode::from(2));
    }
    Ok(ExitCode::SUCCESS)
}

fn plural(k: u64, word: &str) -> String {
    format!("{k} {word}{}", if k == 1 { "" } else { "s" })
}

fn run_line(r: &SearchReport) -> String {
    let mut s = format!(
        "tiling {}: {} ({}); nodes {}",
        r.method,
        plural(r.tilings, "tiling"),
        r.end,
        r.stats.nodes
    );
    if let Some(u) = r.stats.updates {
        s.push_str(&format!(", updates {u}"));
    }
    if let Some(p) = r.stats.counter("positions") {
        s.push_str(&format!(", positions {p}"));
    }
    s.push_str(&format!("; {:.6} s", r.search_time.as_secs_f64()));
    if r.wall > r.search_time {
        // The sudoku solves of its tilings ran inside the search, on the same clock.
        s.push_str(&format!(
            " ({:.6} s with the sudoku solves of its tilings)",
            r.wall.as_secs_f64()
        ));
    }
    s.push('\n');
    s
}

/// The summary block: pieces, each method's search, agreement, layouts, sudoku answers.
pub fn summary(source: &str, r: &TileReport, o: &TileOptions) -> String {
    let mut s = format!(
        "pieces {source}: {n} pieces of {n} cells, board {n}x{n}, {} givens; {}: {}\n",
        r.givens,
        if r.rotations {
            "rotations and reflections"
        } else {
            "translations only"
        },
        plural(r.placements as u64, "placement"),
        n = r.n,
    );
    for run in &r.runs {
        s.push_str(&run_line(run));
    }
    match &r.agreement {
        Agreement::Single => {}
        Agreement::Same => s.push_str("methods agree: same tilings\n"),
        Agreement::SameCount => {
            s.push_str("methods agree: same count (both stopped at --max-tilings)\n")
        }
        Agreement::NotCompared(why) => s.push_str(&format!("methods not compared: {why}\n")),
        Agreement::Differ(why) => s.push_str(&format!("methods DISAGREE: {why}\n")),
    }
    let first = &r.runs[0];
    let c = &r.sudoku;
    s.push_str(&format!(
        "layouts: {}, {} (tilings count pieces as labelled: identical pieces swapped give \
         the same puzzle)\n",
        plural(r.layouts, "distinct region layout"),
        plural(r.puzzles, "distinct puzzle"),
    ));
    s.push_str(&format!(
        "sudoku (engine {}, max-solutions {}): {} of {} with a solution, {} with a unique \
         one, {} with none\n",
        o.engine,
        o.max_solutions,
        c.tilings_solved,
        plural(first.tilings, "tiling"),
        c.tilings_unique,
        c.tilings_unsat,
    ));
    s.push_str(&format!(
        "distinct puzzles: {} unique, {} multiple, {} solved, {} no solution, {} undecided{}; \
         nodes {}; {:.6} s\n",
        c.puzzles_unique,
        c.puzzles_multiple,
        c.puzzles_solved,
        c.puzzles_unsat,
        c.puzzles_undecided,
        if c.puzzles_unsupported > 0 {
            format!(", {} unsupported by the engine", c.puzzles_unsupported)
        } else {
            String::new()
        },
        c.nodes,
        r.sudoku_time.as_secs_f64()
    ));
    s
}
