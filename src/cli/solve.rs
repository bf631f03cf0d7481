//! `sudolab solve`: one engine over every puzzle of some files; solutions or CSV rows.

use super::common::{parse_seconds, whole, CnfArgs, InputArgs, OutputArg};
use crate::engines::{self, EngineSpec, Limits, Outcome};
use crate::puzzle::{
    write_grid, write_grid_with_layout, write_killer_grid, write_puzzlekit, OutputFormat, Puzzle,
    PuzzlekitEntry,
};
use crate::records::record::{count_cells, COUNTS, COUNT_COLUMNS};
use crate::records::writer::{push_field_bytes, secs, write_counts};
use anyhow::{anyhow, bail, Context};
use clap::Args;
use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;

/// Columns of `solve --csv` before the counts: its own (`source`, `index`, `name`), then
/// columns of `run`'s records, of the same name and meaning.
const CSV_BEFORE_COUNTS: [&str; 11] = [
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
];

/// Columns of `solve --csv` after the counts: `run`'s, then its own `solution`, then `note`.
const CSV_AFTER_COUNTS: [&str; 6] = [
    "counters", "build_s", "solve_s", "wall_s", "solution", "note",
];

/// Columns of `solve --csv`, in order: the count columns of `run`'s records
/// ([`COUNT_COLUMNS`]) between the others. A contract: experiment tooling reads them by name.
pub const CSV_COLUMNS: [&str; CSV_BEFORE_COUNTS.len() + COUNTS + CSV_AFTER_COUNTS.len()] = {
    let mut out = [""; CSV_BEFORE_COUNTS.len() + COUNTS + CSV_AFTER_COUNTS.len()];
    let mut i = 0;
    while i < out.len() {
        let (before, counts) = (CSV_BEFORE_COUNTS.len(), COUNTS);
        out[i] = if i < before {
            CSV_BEFORE_COUNTS[i]
        } else if i < before + counts {
            COUNT_COLUMNS[i - before]
        } else {
            CSV_AFTER_COUNTS[i - before - counts]
        };
        i += 1;
    }
    out
};

#[derive(Args, Debug)]
#[command(after_long_help = super::engines_cmd::describe_engines())]
pub struct SolveArgs {
    /// Puzzle files (`-` for standard input; none = standard input).
    pub files: Vec<String>,

    /// Engine configuration NAME[:KEY=VALUE,...] (see `sudolab engines`), e.g.
    /// `sat:encoding=optimized,backend=batsat`; the option flags below add to it (a flag that
    /// gives a key another value than the spec is an error).
    #[arg(long, short, default_value = "human", value_name = "SPEC")]
    pub engine: String,

    /// Stop after K solutions: 1 = first solution, 2 = prove uniqueness, 0 = all.
    #[arg(long, default_value_t = 2, value_name = "K", allow_negative_numbers = true,
          value_parser = whole::<u64, 0>)]
    pub max_solutions: u64,

    /// Print at most K solutions of each puzzle (0 = all of them); the `#` line says when
    /// more were counted than printed. All of them are kept in memory until printed.
    #[arg(long, default_value_t = 1000, value_name = "K", allow_negative_numbers = true,
          value_parser = whole::<usize, 0>)]
    pub print_solutions: usize,

    /// Stop a puzzle's search after N nodes (status node-limit); what a node is depends on the
    /// engine, see below.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole::<u64, 0>)]
    pub node_limit: Option<u64>,

    /// Stop a puzzle's search after SECS seconds of wall time (status time-limit).
    #[arg(long, value_name = "SECS", value_parser = parse_seconds, allow_negative_numbers = true)]
    pub time_limit: Option<Duration>,

    /// For engines that keep boards (bnb's queue of live nodes; human's and binary's saved
    /// boards): stop with status memory-limit when they would hold more than N. The other
    /// engines keep no such store and ignore it.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole::<u64, 0>)]
    pub max_live: Option<u64>,

    /// Print one CSV row per puzzle (with a header) instead of solutions.
    #[arg(long)]
    pub csv: bool,

    /// Output form of solutions (default: the input's form). killer writes each solution as a
    /// solved puzzle with the cages; puzzlekit writes one JSON document of the killers with
    /// their first solution, and no header lines.
    #[arg(long, value_enum)]
    pub output: Option<OutputArg>,

    /// Node order of bnb: fifo (breadth-first, the source's), lifo (depth-first), best
    /// (fewest candidates first).
    #[arg(long, value_name = "ORDER")]
    pub order: Option<String>,

    /// sat engine: SAT backend: auto (default: batsat, or batsat and CaDiCaL racing on grids
    /// of side 64 or more with 5,000 to 100,000 variables, when a second core is free), batsat (embedded,
    /// reports decisions/conflicts/propagations), varisat (embedded), cadical or
    /// cadical:plain|sat|unsat (embedded CaDiCaL 1.9.5), kissat (embedded Kissat 3.1.1, a
    /// fresh solver per call: not incremental), portfolio[:A+B+...] (embedded
    /// backends racing, one thread each), renamed:SEED:B (backend B with its variables renamed
    /// by a seeded permutation, to diversify a portfolio, e.g.
    /// portfolio:cadical:sat+renamed:1:cadical:sat), cubes:DEPTH:B (cube-and-conquer: a
    /// lookahead splits the formula into at most 2^DEPTH cubes, solved as assumptions by one
    /// backend B per core) or ext:PATH (any DIMACS solver answering s/v lines).
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
    /// The engine configuration: `--engine`'s spec plus the option flags. One key given two
    /// different values (in the spec and a flag, or twice by flags) is an error that names
    /// both, never a silent choice.
    fn engine_spec(&self) -> anyhow::Result<EngineSpec> {
        let mut spec: EngineSpec = self.engine.parse().map_err(|e| anyhow!("--engine: {e}"))?;
        let mut given: Vec<(String, String)> = Vec::new();
        let mut set = |key: &str, value: &str, by: String| -> anyhow::Result<()> {
            match spec.options.get(key) {
                Some(old) if old != value => {
                    let first = given
                        .iter()
                        .find(|(k, _)| k == key)
                        .map(|(_, by)| by.clone())
                        .unwrap_or_else(|| format!("--engine {}", self.engine));
                    bail!(
                        "{by} conflicts with {first}: expected one value for the engine \
                         option {key}, found {old:?} and {value:?}"
                    )
                }
                _ => {
                    spec.options = std::mem::take(&mut spec.options).with(key, value);
                    given.push((key.to_string(), by));
                    Ok(())
                }
            }
        };
        let cnf = &self.cnf;
        for (key, flag, value) in [
            ("order", "--order", &self.order),
            ("encoding", "--encoding", &cnf.encoding),
            ("amo", "--amo", &cnf.amo),
            ("givens", "--givens", &cnf.givens),
            ("sum", "--sum", &cnf.sum),
            ("backend", "--backend", &self.backend),
        ] {
            if let Some(v) = value {
                set(key, v.trim(), format!("{flag} {v}"))?;
            }
        }
        if cnf.dedup {
            set("dedup", "true", "--dedup".into())?;
        }
        if cnf.probe {
            set("probe", "true", "--probe".into())?;
        }
        if cnf.locked {
            set("locked", "true", "--locked".into())?;
        }
        for kv in &self.options {
            let Some((k, v)) = kv.split_once('=') else {
                bail!("--option: expected KEY=VALUE, found {kv:?}");
            };
            set(k.trim(), v.trim(), format!("--option {kv}"))?;
        }
        Ok(spec)
    }

    fn limits(&self) -> Limits {
        let mut limits = Limits {
            max_solutions: self.max_solutions,
            node_limit: self.node_limit,
            time_limit: self.time_limit,
            keep_solutions: match self.print_solutions {
                0 => usize::MAX,
                k => k,
            },
            ..Limits::default()
        };
        if self.max_live.is_some() {
            limits.max_live = self.max_live;
        }
        limits
    }
}

pub fn run(args: SolveArgs) -> anyhow::Result<ExitCode> {
    let spec = args.engine_spec()?;
    let mut engine = spec.make().map_err(|e| anyhow!("--engine {spec}: {e}"))?;
    let search_tree = engines::find(&spec.name).map_or(true, |info| info.search_tree);
    let options = format_options(&spec);
    let limits = args.limits();
    let sets = args.input.load(&args.files)?;

    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if args.csv {
        writeln!(out, "{}", CSV_COLUMNS.join(","))?;
        out.flush()?;
    }
    let alphabet = args.input.alphabet()?;
    let mut line = Vec::new();
    let json = !args.csv && args.output == Some(OutputArg::Puzzlekit);
    // puzzlekit output: (id, puzzle, first solution, status), written at the end.
    let mut solved: Vec<(String, &Puzzle, Option<Vec<u16>>, String)> = Vec::new();
    for set in &sets {
        for (i, sp) in set.puzzles.iter().enumerate() {
            let output = args.output.map_or(sp.form, OutputArg::format);
            let outcome = engines::run(engine.as_mut(), &sp.puzzle, &limits);
            if outcome.status == engines::Status::Error {
                eprintln!(
                    "sudolab: {}:{}: engine {spec} failed: {}",
                    set.source,
                    sp.line,
                    outcome.note.as_deref().unwrap_or("")
                );
            }
            let row = Row {
                source: &set.source,
                index: i + 1,
                name: sp.name.as_deref().unwrap_or(""),
                puzzle: &sp.puzzle,
                engine: &spec.name,
                options: &options,
                search_tree,
                outcome: &outcome,
            };
            if args.csv {
                line.clear();
                row.write_csv(&mut line);
                out.write_all(&line)?;
            } else if json {
                let id = sp
                    .name
                    .clone()
                    .unwrap_or_else(|| format!("{}", solved.len() + 1));
                let first = outcome.solutions.first().cloned();
                solved.push((id, &sp.puzzle, first, outcome.status.to_string()));
            } else {
                writeln!(out, "{}", row.header())?;
                for s in &outcome.solutions {
                    let text = if output == OutputFormat::Killer {
                        write_killer_grid(&sp.puzzle, s, alphabet.as_ref())
                    } else {
                        write_grid_with_layout(s, sp.puzzle.geometry(), output, alphabet.as_ref())
                    };
                    write!(out, "{text}")?;
                    if !text.ends_with('\n') {
                        writeln!(out)?;
                    }
                    if matches!(output, OutputFormat::Grid | OutputFormat::Killer) {
                        writeln!(out)?;
                    }
                }
            }
            out.flush().context("writing to standard output")?;
        }
    }
    if json {
        let entries: Vec<PuzzlekitEntry> = solved
            .iter()
            .map(|(id, p, s, status)| PuzzlekitEntry {
                id: id.clone(),
                puzzle: p,
                solution: s.as_deref(),
                source: String::new(),
                info: format!("sudolab solve --engine {spec}: {status}"),
            })
            .collect();
        out.write_all(write_puzzlekit(&entries)?.as_bytes())?;
        out.flush().context("writing to standard output")?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The `engine_options` cell: `key=value;key=value`, as `run` writes it.
fn format_options(spec: &EngineSpec) -> String {
    spec.options
        .0
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(";")
}

struct Row<'a> {
    source: &'a str,
    index: usize,
    name: &'a str,
    puzzle: &'a Puzzle,
    engine: &'a str,
    options: &'a str,
    search_tree: bool,
    outcome: &'a Outcome,
}

impl Row<'_> {
    /// `# file:index name HxW variant: status, K solutions, <counts>, T ms (note)`. The counts
    /// are those the engine has, named as their CSV columns (no `nodes 0` for SAT, which has
    /// no search tree).
    fn header(&self) -> String {
        let o = self.outcome;
        let g = self.puzzle.geometry();
        let mut s = format!(
            "# {}:{}{}{} {}x{} {}: {}, {} solution{}",
            self.source,
            self.index,
            if self.name.is_empty() { "" } else { " " },
            self.name,
            g.height(),
            g.width(),
            &self.puzzle.variant(),
            o.status,
            o.count,
            if o.count == 1 { "" } else { "s" },
        );
        let printed = o.solutions.len() as u64;
        if printed < o.count {
            s.push_str(&format!(
                " (the first {printed} printed; --print-solutions 0 prints all)"
            ));
        }
        let cells = count_cells(o, self.search_tree);
        for (name, v) in COUNT_COLUMNS.iter().zip(cells) {
            // Sizes of the formula or matrix are not search counts: `solve --csv` has them.
            if matches!(
                *name,
                "vars" | "clauses" | "literals" | "items" | "options" | "ones"
            ) {
                continue;
            }
            if let Some(v) = v {
                s.push_str(&format!(", {name} {v}"));
            }
        }
        s.push_str(&format!(
            ", {:.3} ms",
            (o.build + o.solve).as_secs_f64() * 1e3
        ));
        if let Some(note) = &o.note {
            s.push_str(&format!(" ({note})"));
        }
        s
    }

    /// One CSV row (with its newline), in [`CSV_COLUMNS`] order. The counts are written by
    /// `run`'s own writer ([`write_counts`]), so the two commands agree cell for cell.
    fn write_csv(&self, out: &mut Vec<u8>) {
        let o = self.outcome;
        let g = self.puzzle.geometry();
        let solution = o
            .solutions
            .first()
            .map(|s| {
                write_grid(s, g, OutputFormat::Line, None)
                    .trim_end()
                    .to_string()
            })
            .unwrap_or_default();
        let shape = g
            .box_shape()
            .map(|(r, c)| format!("{r}x{c}"))
            .unwrap_or_default();
        for field in [
            self.source,
            &self.index.to_string(),
            self.name,
            &g.n().to_string(),
            &shape,
            &self.puzzle.variant(),
            &self.puzzle.clues().to_string(),
            self.engine,
            self.options,
            o.status.as_str(),
            &o.count.to_string(),
        ] {
            push_field_bytes(out, field);
            out.push(b',');
        }
        write_counts(out, o, self.search_tree);
        secs(out, o.build);
        secs(out, o.solve);
        secs(out, o.wall);
        push_field_bytes(out, &solution);
        out.push(b',');
        push_field_bytes(out, o.note.as_deref().unwrap_or(""));
        out.push(b'\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The header is a contract: byte for byte what it was when `solve --csv` gained the
    /// columns it has.
    #[test]
    fn solve_csv_header_is_unchanged() {
        assert_eq!(
            CSV_COLUMNS.join(","),
            "source,index,name,size,box,variant,clues,engine,engine_options,status,solutions,\
             nodes,guesses,backtracks,max_live,updates,decisions,conflicts,propagations,vars,\
             clauses,literals,items,options,ones,counters,build_s,solve_s,wall_s,solution,note"
        );
    }

    /// Every column but `solve`'s own is a column of `run`'s records, so the two commands
    /// name one thing alike.
    #[test]
    fn solve_csv_columns_are_run_columns() {
        let own = ["source", "index", "name", "solution"];
        for c in CSV_COLUMNS {
            assert!(
                own.contains(&c) || crate::records::COLUMNS.contains(&c),
                "{c}"
            );
        }
        let at = CSV_COLUMNS.iter().position(|&c| c == "nodes").unwrap();
        assert_eq!(CSV_COLUMNS[at..at + COUNTS], COUNT_COLUMNS);
        assert_eq!(CSV_COLUMNS[at + COUNTS], "counters");
    }
}
