//! `sudolab solve`: one engine over every puzzle of some files; solutions or CSV rows.

use super::common::{parse_seconds, CnfArgs, InputArgs, OutputArg};
use crate::engines::{self, EngineOptions, Limits, Outcome};
use crate::puzzle::{write_grid, OutputFormat, Puzzle};
use anyhow::{bail, Context};
use clap::Args;
use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;

/// Columns of `solve --csv`, in order. A contract: experiment tooling reads them by name.
pub const CSV_COLUMNS: &[&str] = &[
    "source",
    "index",
    "name",
    "size",
    "box",
    "variant",
    "clues",
    "engine",
    "engine_options",
    "status",
    "solutions",
    "nodes",
    "guesses",
    "backtracks",
    "max_live",
    "updates",
    "decisions",
    "conflicts",
    "propagations",
    "vars",
    "clauses",
    "literals",
    "items",
    "options",
    "ones",
    "counters",
    "build_s",
    "solve_s",
    "wall_s",
    "solution",
    "note",
];

#[derive(Args, Debug)]
#[command(after_long_help = super::engines_cmd::describe_engines())]
pub struct SolveArgs {
    /// Puzzle files (`-` for standard input; none = standard input).
    pub files: Vec<String>,

    /// Engine to use (see `sudolab engines`).
    #[arg(long, short, default_value = "human")]
    pub engine: String,

    /// Stop after K solutions: 1 = first solution, 2 = prove uniqueness, 0 = all.
    #[arg(long, default_value_t = 2, value_name = "K")]
    pub max_solutions: u64,

    /// Stop a puzzle's search after N nodes (status node-limit); what a node is depends on the
    /// engine, see below.
    #[arg(long, value_name = "N")]
    pub node_limit: Option<u64>,

    /// Stop a puzzle's search after SECS seconds of wall time (status time-limit).
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    pub time_limit: Option<Duration>,

    /// For engines with a queue of live nodes (bnb): stop with status memory-limit when the
    /// queue would hold more than N nodes.
    #[arg(long, value_name = "N")]
    pub max_live: Option<u64>,

    /// Print one CSV row per puzzle (with a header) instead of solutions.
    #[arg(long)]
    pub csv: bool,

    /// Output form of solutions (default: the input's form).
    #[arg(long, value_enum)]
    pub output: Option<OutputArg>,

    /// Node order of bnb: fifo (breadth-first, the source's), lifo (depth-first), best
    /// (fewest candidates first).
    #[arg(long, value_name = "ORDER")]
    pub order: Option<String>,

    /// sat engine: SAT backend: varisat (default, embedded), batsat (embedded, reports
    /// decisions/conflicts/propagations), cadical or cadical:plain|sat|unsat (embedded
    /// CaDiCaL 1.9.5) or ext:PATH (any DIMACS solver answering s/v lines).
    #[arg(long, value_name = "B")]
    pub backend: Option<String>,

    #[command(flatten)]
    pub cnf: CnfArgs,

    /// Engine option KEY=VALUE (repeatable); engines reject keys they do not know.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,

    #[command(flatten)]
    pub input: InputArgs,
}

impl SolveArgs {
    fn engine_options(&self) -> anyhow::Result<EngineOptions> {
        let mut opts = EngineOptions::new();
        if let Some(order) = &self.order {
            opts = opts.with("order", order);
        }
        let cnf = &self.cnf;
        for (key, value) in [
            ("encoding", &cnf.encoding),
            ("amo", &cnf.amo),
            ("givens", &cnf.givens),
            ("backend", &self.backend),
        ] {
            if let Some(v) = value {
                opts = opts.with(key, v);
            }
        }
        if cnf.dedup {
            opts = opts.with("dedup", "true");
        }
        for kv in &self.options {
            let Some((k, v)) = kv.split_once('=') else {
                bail!("--option {kv:?}: expected KEY=VALUE");
            };
            opts = opts.with(k.trim(), v.trim());
        }
        Ok(opts)
    }

    fn limits(&self) -> Limits {
        let mut limits = Limits {
            max_solutions: self.max_solutions,
            node_limit: self.node_limit,
            time_limit: self.time_limit,
            ..Limits::default()
        };
        if self.max_live.is_some() {
            limits.max_live = self.max_live;
        }
        limits
    }
}

pub fn run(args: SolveArgs) -> anyhow::Result<ExitCode> {
    let options = args.engine_options()?;
    let mut engine = engines::make(&args.engine, &options).map_err(anyhow::Error::msg)?;
    let limits = args.limits();
    let sets = args.input.load(&args.files)?;

    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut csv = args
        .csv
        .then(|| csv::Writer::from_writer(std::io::stdout()));
    if let Some(w) = csv.as_mut() {
        w.write_record(CSV_COLUMNS)?;
        w.flush()?;
    }
    let alphabet = args.input.alphabet()?;
    for set in &sets {
        for (i, sp) in set.puzzles.iter().enumerate() {
            let output = args.output.map_or(sp.form, OutputArg::format);
            let outcome = engines::run(engine.as_mut(), &sp.puzzle, &limits);
            if outcome.status == engines::Status::Error {
                eprintln!(
                    "sudolab: {}:{}: engine {} failed: {}",
                    set.source,
                    sp.line,
                    args.engine,
                    outcome.note.as_deref().unwrap_or("")
                );
            }
            let row = Row {
                source: &set.source,
                index: i + 1,
                name: sp.name.as_deref().unwrap_or(""),
                puzzle: &sp.puzzle,
                engine: &args.engine,
                options: &options,
                outcome: &outcome,
            };
            if let Some(w) = csv.as_mut() {
                w.write_record(row.csv_fields())?;
                w.flush()?;
            } else {
                writeln!(out, "{}", row.header())?;
                for s in &outcome.solutions {
                    let text = write_grid(s, sp.puzzle.geometry(), output, alphabet.as_ref());
                    write!(out, "{text}")?;
                    if !text.ends_with('\n') {
                        writeln!(out)?;
                    }
                    if output == OutputFormat::Grid {
                        writeln!(out)?;
                    }
                }
                out.flush().context("writing to standard output")?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

struct Row<'a> {
    source: &'a str,
    index: usize,
    name: &'a str,
    puzzle: &'a Puzzle,
    engine: &'a str,
    options: &'a EngineOptions,
    outcome: &'a Outcome,
}

/// An optional count: empty when the engine does not have it (never 0 for "not applicable").
fn opt(v: Option<u64>) -> String {
    v.map(|v| v.to_string()).unwrap_or_default()
}

fn secs(d: Duration) -> String {
    format!("{:.9}", d.as_secs_f64())
}

impl Row<'_> {
    fn header(&self) -> String {
        let o = self.outcome;
        let g = self.puzzle.geometry();
        let mut s = format!(
            "# {}:{}{}{} {}x{} {}: {}, {} solution{}, nodes {}, guesses {}, backtracks {}, {:.3} ms",
            self.source,
            self.index,
            if self.name.is_empty() { "" } else { " " },
            self.name,
            g.n(),
            g.n(),
            g.variant(),
            o.status,
            o.count,
            if o.count == 1 { "" } else { "s" },
            o.stats.nodes,
            o.stats.guesses,
            o.stats.backtracks,
            (o.build + o.solve).as_secs_f64() * 1e3,
        );
        if let Some(note) = &o.note {
            s.push_str(&format!(" ({note})"));
        }
        s
    }

    fn csv_fields(&self) -> Vec<String> {
        let o = self.outcome;
        let g = self.puzzle.geometry();
        let options: Vec<String> = self
            .options
            .0
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        let counters: Vec<String> = o
            .stats
            .counters
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        let solution = o
            .solutions
            .first()
            .map(|s| {
                write_grid(s, g, OutputFormat::Line, None)
                    .trim_end()
                    .to_string()
            })
            .unwrap_or_default();
        vec![
            self.source.to_string(),
            self.index.to_string(),
            self.name.to_string(),
            g.n().to_string(),
            g.box_shape()
                .map(|(r, c)| format!("{r}x{c}"))
                .unwrap_or_default(),
            g.variant().to_string(),
            self.puzzle.clues().to_string(),
            self.engine.to_string(),
            options.join(";"),
            o.status.to_string(),
            o.count.to_string(),
            o.stats.nodes.to_string(),
            o.stats.guesses.to_string(),
            o.stats.backtracks.to_string(),
            opt(o.stats.max_live),
            opt(o.stats.updates),
            opt(o.stats.decisions),
            opt(o.stats.conflicts),
            opt(o.stats.propagations),
            opt(o.stats.vars),
            opt(o.stats.clauses),
            opt(o.stats.literals),
            opt(o.stats.items),
            opt(o.stats.options),
            opt(o.stats.ones),
            counters.join(";"),
            secs(o.build),
            secs(o.solve),
            secs(o.wall),
            solution,
            o.note.clone().unwrap_or_default(),
        ]
    }
}
