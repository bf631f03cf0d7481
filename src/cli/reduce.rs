//! `sudolab encode`, `sudolab stats` and `sudolab decode`: the reductions as files other tools
//! can check, their sizes, and models from other solvers read back.

use super::common::{parse_seconds, whole, CnfArgs, InputArgs, OutputArg};
use crate::cnf::{
    self, decode_checked, read_dimacs, read_model, size_stats, Amo, CnfEncoding, CnfOptions,
    GivensMode, SolverAnswer, SumEncoding,
};
use crate::exact_cover::sudoku::cover_size;
use crate::exact_cover::{
    decode_named, read_dlx1_until, side_from_names, solve_exact_cover, solve_exact_cover_pre,
    write_dlx1, ExactCover, SudokuCover,
};
use crate::puzzle::{
    default_box, write_grid, write_grid_with_layout, Geometry, OutputFormat, Puzzle,
};
use anyhow::{anyhow, bail, Context};
use clap::{Args, ValueEnum};
use std::fs::File;
use std::io::{BufReader, Write};
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Target {
    /// DIMACS CNF, for any SAT solver.
    Cnf,
    /// Knuth's dlx1 exact-cover format.
    Dlx,
}

#[derive(Args, Debug)]
pub struct EncodeArgs {
    /// Puzzle file (`-` or none = standard input).
    pub file: Option<String>,

    /// What to write.
    #[arg(long, value_enum, default_value = "cnf")]
    pub to: Target,

    #[command(flatten)]
    pub cnf: CnfArgs,

    /// Which puzzle of the file (1-based); needed when the file holds several and `-o` has
    /// no `{index}`.
    #[arg(long, value_name = "K", allow_negative_numbers = true, value_parser = whole::<usize, 1>)]
    pub index: Option<usize>,

    /// Output file (default: standard output). With several puzzles, `{index}` in the name
    /// is replaced by each puzzle's 1-based index, e.g. `-o out/p{index}.cnf`.
    #[arg(short, long, value_name = "PATH")]
    pub output: Option<String>,

    /// Largest output to build: a formula of more than L literals (`--to cnf`; counted
    /// exactly, before duplicate removal) or a matrix of more than L ones (`--to dlx`) is
    /// refused before anything is built or written. The default is the sat engine's
    /// `max_literals`; DIMACS text takes about 5-8 bytes per literal.
    #[arg(long, value_name = "L", default_value_t = crate::engines::sat::DEFAULT_MAX_LITERALS,
          value_parser = whole::<u64, 1>)]
    pub max_size: u64,

    #[command(flatten)]
    pub input: InputArgs,

    /// Write the canonical formula (docs/certify.md: the statement that certificates prove,
    /// independent of every encoding option) instead of an encoding.
    #[arg(long, conflicts_with_all = ["encoding", "amo", "givens", "dedup", "probe", "locked", "sum"])]
    pub canonical: bool,

    /// With --canonical: its form, pairwise or sequential (default: the form certify uses
    /// for the side, pairwise up to 48x48).
    #[arg(long, value_name = "FORM", requires = "canonical")]
    pub form: Option<String>,

    /// With --canonical: add the blocking clause of this solution (a grid as `solve` writes
    /// it, e.g. a bundle's solution), as certificates of uniqueness do.
    #[arg(long, value_name = "GRID", requires = "canonical")]
    pub block: Option<String>,
}

/// Refuses puzzles whose rules `what` does not state: cages, windoku windows and combined
/// layouts (the dlx1 file of the Sudoku exact cover and the canonical formula of
/// certificates, docs/certify.md, state the houses of one grid and its diagonals).
fn refuse_cages<'a>(
    puzzles: impl Iterator<Item = (String, &'a Puzzle)>,
    what: &str,
) -> anyhow::Result<()> {
    for (name, p) in puzzles {
        if p.has_cages() {
            bail!(
                "{name}: a killer puzzle (cages); {what} states houses only (--to cnf encodes cages)"
            );
        }
        if p.geometry().has_extra_houses() {
            bail!(
                "{name}: a {} puzzle; {what} states the houses of one grid and its diagonals \
                 only (--to cnf encodes it, the dlx engine solves it)",
                p.variant()
            );
        }
    }
    Ok(())
}

pub fn encode(args: EncodeArgs) -> anyhow::Result<ExitCode> {
    let files: Vec<String> = args.file.iter().cloned().collect();
    let sets = args.input.load(&files)?;
    let set = &sets[0];
    if args.to == Target::Dlx || args.canonical {
        refuse_cages(
            set.puzzles
                .iter()
                .map(|sp| (format!("{}:{}", set.source, sp.line), &sp.puzzle)),
            if args.canonical {
                "the canonical formula"
            } else {
                "the dlx1 exact cover"
            },
        )?;
    }
    let chosen: Vec<(usize, &Puzzle)> = match args.index {
        Some(k) => {
            let sp = set.puzzles.get(k.wrapping_sub(1)).ok_or_else(|| {
                anyhow!(
                    "--index {k}: {} holds {} puzzle(s)",
                    set.source,
                    set.puzzles.len()
                )
            })?;
            vec![(k, &sp.puzzle)]
        }
        None => set
            .puzzles
            .iter()
            .enumerate()
            .map(|(i, sp)| (i + 1, &sp.puzzle))
            .collect(),
    };
    let templated = args
        .output
        .as_deref()
        .is_some_and(|o| o.contains("{index}"));
    if chosen.len() > 1 && !templated {
        bail!(
            "{} holds {} puzzles: pick one with --index K, or give -o a name with {{index}}",
            set.source,
            chosen.len()
        );
    }
    if args.canonical && args.to == Target::Dlx {
        bail!("--canonical is a CNF: it does not go with --to dlx");
    }
    if let (Target::Dlx, Some(flag)) = (args.to, args.cnf.given().first()) {
        bail!("{flag} sets the CNF encoding: it does not go with --to dlx (an exact cover)");
    }
    let opts = args.cnf.options()?;
    for (index, puzzle) in chosen {
        // Counted in bounded memory before building, so that a formula or matrix too large
        // for this machine ends with an error, not an allocation failure.
        let (size, output, what) = match args.to {
            Target::Cnf if args.canonical => {
                let c = canonical_of(puzzle, args.form.as_deref())?;
                let n = puzzle.n() as u64;
                (c.num_clauses() * 2 + c.groups() * n, "formula", "literals")
            }
            Target::Cnf => {
                let count = CnfOptions {
                    dedup: false,
                    ..opts
                };
                (size_stats(puzzle, &count).literals, "formula", "literals")
            }
            Target::Dlx => (cover_size(puzzle).2, "exact-cover matrix", "ones"),
        };
        if size > args.max_size {
            bail!(
                "{}: puzzle {index}: the {output} has {size} {what}, over the bound {} \
                 (raise it with --max-size)",
                set.source,
                args.max_size
            );
        }
        let mut out: Box<dyn Write> = match &args.output {
            None => Box::new(std::io::stdout().lock()),
            Some(o) => {
                let path = o.replace("{index}", &index.to_string());
                Box::new(std::io::BufWriter::new(
                    File::create(&path).with_context(|| format!("creating {path}"))?,
                ))
            }
        };
        match args.to {
            Target::Cnf if args.canonical => {
                let c = canonical_of(puzzle, args.form.as_deref())?;
                let mut extra = Vec::new();
                if let Some(grid) = &args.block {
                    let s = crate::certify::bundle::parse_grid(grid, puzzle.n(), false)
                        .map_err(|e| anyhow!("--block: {e}"))?;
                    crate::certify::check_solution(puzzle.geometry(), puzzle.givens(), &s)
                        .map_err(|e| anyhow!("--block: not a solution of the puzzle: {e}"))?;
                    extra.push(c.blocking_clause(&s));
                }
                c.write_dimacs(&extra, &mut out)?
            }
            Target::Cnf => {
                // A combined layout is encoded with a 1 given in each void cell; decode
                // takes them back out.
                let view = puzzle.void_as_given();
                let puzzle = view.as_ref().unwrap_or(puzzle);
                cnf::write_dimacs(&cnf::encode(puzzle, &opts), &mut out)?
            }
            Target::Dlx => write_exact_cover(puzzle, &mut out)?,
        }
        out.flush()?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The canonical formula of `puzzle` in `form` (default: the form for its side).
fn canonical_of(puzzle: &Puzzle, form: Option<&str>) -> anyhow::Result<crate::certify::Canonical> {
    let form = match form {
        Some(f) => f
            .parse::<crate::certify::CanonicalForm>()
            .map_err(|e| anyhow!("--form: {e}"))?,
        None => crate::certify::CanonicalForm::for_side(puzzle.n()),
    };
    Ok(crate::certify::Canonical::new(
        puzzle.geometry(),
        puzzle.givens(),
        form,
    ))
}

/// Knuth's dlx1 format of the puzzle's exact-cover matrix (the givens' options removed and
/// their items covered), with the puzzle and the item naming in `|` comments.
fn write_exact_cover(puzzle: &Puzzle, out: &mut dyn Write) -> anyhow::Result<()> {
    let m = SudokuCover::for_puzzle(puzzle);
    let line = crate::puzzle::write_puzzle(puzzle, OutputFormat::Line, None);
    let g = puzzle.geometry();
    let comments = [
        "sudolab exact cover (Knuth's dlx1 format)".to_string(),
        format!("puzzle {line}"),
        format!(
            "geometry {} {} diagonals {}",
            g.n(),
            g.box_shape()
                .map(|(r, c)| format!("box {r}x{c}"))
                .unwrap_or_else(|| "jigsaw".into()),
            if g.has_diagonals() { "yes" } else { "no" }
        ),
        "items: p<row>,<col> = cell filled; r<row>#<d>, c<col>#<d>, b<box>#<d>, j<region>#<d>, \
         d1#<d>, d2#<d> = digit d placed in that house (1-based); the givens' items are covered"
            .to_string(),
        "option <cell> <houses...> = place a digit in a cell".to_string(),
    ];
    let mut refs: Vec<&str> = comments.iter().map(String::as_str).collect();
    if m.cover().items() > 0 {
        write_dlx1(m.cover(), &refs, out)?;
    } else {
        // Every cell given without a clash: no item is left, and the dlx1 format needs one.
        // The full matrix restricted to the givens' options has the same single solution.
        refs.push("every cell is given: the options are the givens, its one solution");
        write_dlx1(&givens_only(puzzle), &refs, out)?;
    }
    Ok(())
}

/// The full exact-cover matrix of `puzzle`'s geometry with only the givens' options.
fn givens_only(puzzle: &Puzzle) -> ExactCover {
    let full = SudokuCover::full(puzzle.geometry());
    let x = full.cover();
    let n = full.n();
    let (primary, secondary) = x.names().split_at(x.primary_items());
    let mut cover = ExactCover::new(primary, secondary).expect("the full matrix's names");
    for (cell, &d) in puzzle.givens().iter().enumerate() {
        if d != 0 {
            cover
                .add_option(x.option(cell * n + d as usize - 1).iter().copied())
                .expect("an option of the full matrix");
        }
    }
    cover
}

#[derive(Args, Debug)]
pub struct DlxArgs {
    /// An exact-cover problem in Knuth's dlx1 format (`-` = standard input).
    pub file: String,

    /// Stop after K solutions (0 = all).
    #[arg(long, default_value_t = 0, value_name = "K", allow_negative_numbers = true,
          value_parser = whole::<u64, 0>)]
    pub max_solutions: u64,

    /// Stop after N search nodes (status node-limit).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole::<u64, 0>)]
    pub node_limit: Option<u64>,

    /// Stop after SECS seconds (status time-limit), counted from the start: reading and parsing
    /// the file count, and a limit passed while reading ends before the search.
    #[arg(long, value_name = "SECS", value_parser = parse_seconds, allow_negative_numbers = true)]
    pub time_limit: Option<std::time::Duration>,

    /// Print at most this many solutions, as lists of options (0 = none).
    #[arg(long, default_value_t = 10, value_name = "K", allow_negative_numbers = true,
          value_parser = whole::<usize, 0>)]
    pub print: usize,

    /// First remove the options no solution can use, by Knuth's DLX-PRE rule (an option goes
    /// when every option of some primary item outside it clashes with it); then search what
    /// is left. Same solutions, printed as options of the input; the time printed includes
    /// the preprocessing.
    #[arg(long)]
    pub pre: bool,
}

/// `sudolab dlx`: any exact-cover problem written in dlx1 format, solved by the DLX engine.
pub fn dlx(args: DlxArgs) -> anyhow::Result<ExitCode> {
    // The clock starts before the file is read: the time limit covers reading and parsing
    // (a second for the 62 MB matrix of an empty 128x128 grid) as well as the search.
    let started = std::time::Instant::now();
    let (name, bytes) = if args.file == "-" {
        let mut b = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin(), &mut b)
            .context("<stdin>:0:0: cannot read")?;
        ("<stdin>".to_string(), b)
    } else {
        let b =
            std::fs::read(&args.file).with_context(|| format!("{}:0:0: cannot read", args.file))?;
        (args.file.clone(), b)
    };
    let text = utf8_text(&name, bytes)?;
    let deadline = args.time_limit.map(|t| started + t);
    let read = read_dlx1_until(&text, deadline)
        .map_err(|e| anyhow!("{name}:{}:{}: {}", e.line, e.column, e.kind))?;
    let Some(x) = read else {
        writeln!(
            std::io::stdout().lock(),
            "{name}: time-limit, 0 solutions; stopped while reading the file; {:.6} s",
            started.elapsed().as_secs_f64()
        )?;
        return Ok(ExitCode::SUCCESS);
    };
    let limits = crate::engines::Limits {
        max_solutions: args.max_solutions,
        node_limit: args.node_limit,
        time_limit: args.time_limit.map(|t| t.saturating_sub(started.elapsed())),
        keep_solutions: args.print,
        ..crate::engines::Limits::default()
    };
    let o = if args.pre {
        solve_exact_cover_pre(&x, &limits)
    } else {
        solve_exact_cover(&x, &limits)
    };
    let mut out = std::io::stdout().lock();
    if let Some((pre, t)) = &o.pre {
        writeln!(
            out,
            "{name}: preprocessing (DLX-PRE's rule) removed {} of {} options in {} rounds, {:.6} s",
            pre.removed,
            x.options(),
            pre.rounds,
            t.as_secs_f64()
        )?;
    }
    let side = side_from_names(&x);
    for (i, sol) in o.solutions.iter().enumerate() {
        writeln!(out, "solution {}:", i + 1)?;
        for &opt in sol {
            writeln!(out, "  {}", x.option_text(opt))?;
        }
        if let Some(n) = side {
            if let Ok(cells) = decode_named(&x, n, sol) {
                let mut grid = vec![0u16; n * n];
                for (c, d) in cells {
                    grid[c] = d;
                }
                writeln!(
                    out,
                    "  grid (givens of the puzzle not shown): {}",
                    write_grid(&grid, &Geometry::square(n)?, OutputFormat::Line, None)
                )?;
            }
        }
    }
    writeln!(
        out,
        "{name}: {}, {} solution{}; items {} (primary {}), options {}, ones {}; nodes {}, updates {}; {:.6} s",
        o.status,
        o.count,
        if o.count == 1 { "" } else { "s" },
        x.items(),
        x.primary_items(),
        x.options(),
        x.ones(),
        o.stats.nodes,
        o.stats.updates.unwrap_or(0),
        o.solve.as_secs_f64()
    )?;
    Ok(ExitCode::SUCCESS)
}

/// The text of a file (a dlx1 problem, a solver's model); not UTF-8 is an error at the first
/// bad byte's line and column, as for puzzle files.
fn utf8_text(name: &str, bytes: Vec<u8>) -> anyhow::Result<String> {
    String::from_utf8(bytes).map_err(|e| {
        let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let valid = std::str::from_utf8(valid).unwrap_or("");
        let line = valid.matches('\n').count() + 1;
        let column = valid.rsplit('\n').next().unwrap_or("").chars().count() + 1;
        anyhow!("{name}:{line}:{column}: expected UTF-8 text, found a byte that is not UTF-8")
    })
}

#[derive(Args, Debug)]
pub struct StatsArgs {
    /// Puzzle files: print the sizes for each puzzle (givens as encoded). Without files, the
    /// sizes for the empty grid of --size.
    pub files: Vec<String>,

    /// Side N of the empty grid (without files).
    #[arg(long, default_value_t = 9, value_name = "N", allow_negative_numbers = true,
          value_parser = whole::<usize, 1>)]
    pub size: usize,

    /// Encodings to list (comma-separated, or all).
    #[arg(long, default_value = "all", value_name = "LIST|all")]
    pub encodings: String,

    /// At-most-one encodings to list (comma-separated, or all).
    #[arg(long, default_value = "all", value_name = "LIST|all")]
    pub amos: String,

    /// Drop duplicate clauses.
    #[arg(long)]
    pub dedup: bool,

    /// Sum encoding of killer cages in the CNF rows: combinations, totalizer or bdd (no
    /// effect on puzzles without cages).
    #[arg(long, value_name = "S", default_value_t = SumEncoding::default(),
          value_parser = |s: &str| s.parse::<SumEncoding>())]
    pub sum: SumEncoding,

    #[command(flatten)]
    pub input: InputArgs,
}

/// `stats` leaves the exact-cover columns of a killer empty when its cover would have more
/// options than this (the dlx engine's bound).
const KILLER_COVER_MAX_OPTIONS: u64 = 4_000_000;

fn list<T: std::str::FromStr<Err: std::fmt::Display> + Clone>(
    s: &str,
    all: &[T],
    what: &str,
) -> anyhow::Result<Vec<T>> {
    if s.trim() == "all" {
        return Ok(all.to_vec());
    }
    s.split(',')
        .map(|x| x.trim().parse::<T>().map_err(|e| anyhow!("{what}: {e}")))
        .collect()
}

/// Largest side for `stats --dedup`.
const MAX_DEDUP_SIDE: usize = 64;

pub fn stats(args: StatsArgs) -> anyhow::Result<ExitCode> {
    let encodings = list(&args.encodings, &CnfEncoding::ALL, "--encodings")?;
    let amos = list(&args.amos, &Amo::ALL, "--amos")?;
    let puzzles: Vec<(String, Puzzle)> = if args.files.is_empty() {
        let n = args.size;
        let (r, c) = args.input.box_shape.unwrap_or_else(|| default_box(n));
        let g = Geometry::boxed(n, r, c)
            .map_err(|e| anyhow!("--size {n}: {e}"))?
            .with_diagonals(args.input.diagonals);
        let name = format!(
            "empty {n}x{n} ({r}x{c} boxes{})",
            if args.input.diagonals { ", X" } else { "" }
        );
        vec![(name, Puzzle::empty(Arc::new(g)))]
    } else {
        let sets = args.input.load(&args.files)?;
        sets.iter()
            .flat_map(|s| {
                s.puzzles
                    .iter()
                    .enumerate()
                    .map(move |(i, sp)| (format!("{}:{}", s.source, i + 1), sp.puzzle.clone()))
            })
            .collect()
    };
    // Without --dedup every count is closed form or linear in the candidates; the duplicate
    // filter has to see every clause, so it is kept to sides where that fits in memory.
    if args.dedup {
        if let Some((name, p)) = puzzles.iter().find(|(_, p)| p.n() > MAX_DEDUP_SIDE) {
            bail!(
                "--dedup keeps every clause in memory: sides up to {MAX_DEDUP_SIDE} only ({name} is {n}x{n})",
                n = p.n()
            );
        }
    }
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "puzzle,reduction,encoding,amo,dedup,vars,clauses,literals,items,options,ones"
    )?;
    for (name, p) in &puzzles {
        // Counted, not built: bounded memory at any side.
        if p.has_cages() || p.geometry().is_combined() {
            // The killer cover (one option per cage filling, no void cell) is built to be
            // counted.
            match crate::exact_cover::killer::KillerCover::for_puzzle(p, KILLER_COVER_MAX_OPTIONS) {
                Ok(k) => {
                    let x = k.cover();
                    writeln!(
                        out,
                        "{name},exact-cover,,,,,,,{},{},{}",
                        x.items(),
                        x.options(),
                        x.ones()
                    )?;
                }
                Err(_) => writeln!(out, "{name},exact-cover,,,,,,,,,")?,
            }
        } else {
            let (items, options, ones) = cover_size(p);
            writeln!(out, "{name},exact-cover,,,,,,,{items},{options},{ones}")?;
        }
        for &e in &encodings {
            for amo in &amos {
                let opts = CnfOptions {
                    encoding: e,
                    amo: *amo,
                    givens: GivensMode::Units,
                    dedup: args.dedup,
                    probe: false,
                    locked: false,
                    sum: args.sum,
                };
                let view = p.void_as_given();
                let s = size_stats(view.as_ref().unwrap_or(p), &opts);
                writeln!(
                    out,
                    "{name},cnf,{},{},{},{},{},{},,,",
                    e.as_str(),
                    amo.as_str(),
                    args.dedup,
                    s.vars,
                    s.clauses,
                    s.literals
                )?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

#[derive(Args, Debug)]
pub struct DecodeArgs {
    /// A DIMACS file written by `sudolab encode --to cnf`.
    pub cnf: String,

    /// The solver's answer: `s`/`v` lines (SAT competition), or minisat's result file.
    pub model: String,

    /// Output form of the grid.
    #[arg(long, value_enum, default_value = "line")]
    pub output: OutputArg,

    /// A DRAT proof (text or binary, e.g. `cadical CNF PROOF`) that checks an UNSATISFIABLE
    /// claim: every lemma must be RUP or RAT, and unit propagation must end in a conflict
    /// (forward checking as drat-trim defines it). Without it the claim is printed as
    /// unchecked.
    #[arg(long, value_name = "FILE")]
    pub proof: Option<String>,

    /// Stop checking the proof after SECS seconds: the claim is then printed as unchecked
    /// and the exit status is 3.
    #[arg(long, value_name = "SECS", value_parser = parse_seconds, allow_negative_numbers = true)]
    pub time_limit: Option<std::time::Duration>,
}

/// The proof check of an UNSATISFIABLE claim: what to print and the exit status.
fn check_unsat_claim(
    args: &DecodeArgs,
    dimacs: &cnf::Dimacs,
    out: &mut impl Write,
) -> anyhow::Result<ExitCode> {
    use cnf::drat::{check_drat, DratError};
    let Some(proof) = &args.proof else {
        writeln!(
            out,
            "UNSATISFIABLE (unchecked: the model file says so; give the solver's DRAT proof \
             with --proof to check it)"
        )?;
        return Ok(ExitCode::SUCCESS);
    };
    let file = File::open(proof).with_context(|| format!("{proof}:0:0: opening the proof"))?;
    let budget = cnf::Deadline {
        at: args.time_limit.map(|t| std::time::Instant::now() + t),
        cancel: None,
    };
    match check_drat(
        dimacs.num_vars,
        &dimacs.clauses,
        BufReader::new(file),
        &budget,
    ) {
        Ok(c) => {
            let by = if c.refuted_at == 0 {
                "unit propagation on the formula alone conflicts".to_string()
            } else {
                format!(
                    "lemma {} of the proof makes unit propagation conflict; {} lemmas checked, \
                     {} by RAT, {} deletions, {} deletions ignored",
                    c.refuted_at, c.lemmas, c.rat_lemmas, c.deletions, c.ignored_deletions
                )
            };
            writeln!(
                out,
                "UNSATISFIABLE (checked by the DRAT proof {proof}: {by})"
            )?;
            Ok(ExitCode::SUCCESS)
        }
        Err(DratError::Syntax { position, message }) => {
            let at = match position {
                cnf::drat::ProofPosition::Text { line, column } => format!("{line}:{column}"),
                cnf::drat::ProofPosition::Binary { byte } => format!("byte {byte}"),
            };
            bail!("{proof}:{at}: {message}")
        }
        Err(DratError::Io(e)) => bail!("{proof}:0:0: reading the proof: {e}"),
        Err(e @ DratError::Interrupted { .. }) => {
            writeln!(out, "UNSATISFIABLE (unchecked: {e})")?;
            Ok(ExitCode::from(3))
        }
        Err(e) => {
            eprintln!("sudolab: {proof}: {e}: the UNSATISFIABLE claim is not proved");
            Ok(ExitCode::from(1))
        }
    }
}

/// A header error of `cnf` as `file:line:column: message`: the comment line at fault, or the
/// file's start where a comment is missing.
fn header_error(cnf: &str, e: &cnf::HeaderError) -> anyhow::Error {
    anyhow!("{cnf}:{}:1: {}", e.line.unwrap_or(1), e.message)
}

pub fn decode(args: DecodeArgs) -> anyhow::Result<ExitCode> {
    let file = File::open(Path::new(&args.cnf)).with_context(|| format!("opening {}", args.cnf))?;
    let dimacs = read_dimacs(BufReader::new(file))
        .map_err(|e| anyhow!("{}:{}:{}: {}", args.cnf, e.line, e.column, e.message))?;
    let bytes = std::fs::read(&args.model).with_context(|| format!("reading {}", args.model))?;
    let text = utf8_text(&args.model, bytes)?;
    let answer = read_model(&text, dimacs.num_vars)
        .map_err(|e| anyhow!("{}:{}:{}: {}", args.model, e.line, e.column, e.message))?;
    let mut out = std::io::stdout().lock();
    if let (Some(proof), SolverAnswer::Sat(_)) = (&args.proof, &answer) {
        eprintln!(
            "sudolab: {proof}: not read: the model file gives a model, which is checked instead"
        );
    }
    match answer {
        // A model is checked against the formula below; a claim of unsatisfiability is
        // checked only by a proof, else it is printed as the solver's claim, never as a result.
        SolverAnswer::Unsat => check_unsat_claim(&args, &dimacs, &mut out),
        SolverAnswer::Unknown => {
            if let Some(proof) = &args.proof {
                eprintln!("sudolab: {proof}: not read: the model file gives no answer to check");
            }
            writeln!(out, "UNKNOWN (the solver gave no answer)")?;
            Ok(ExitCode::SUCCESS)
        }
        SolverAnswer::Sat(model) => {
            // The header comments give the formula its meaning: a file without them (or with
            // wrong ones) is bad input, named as such, not a model that fails to decode.
            let header =
                cnf::parse_header(&dimacs.comments).map_err(|e| header_error(&args.cnf, &e))?;
            decode_model(&args, &dimacs, &model, &header, &mut out)
        }
    }
}

/// Decodes a model of `dimacs` (whose header is `header`) and prints its grid.
fn decode_model(
    args: &DecodeArgs,
    dimacs: &cnf::Dimacs,
    model: &cnf::Model,
    header: &cnf::Header,
    out: &mut impl Write,
) -> anyhow::Result<ExitCode> {
    match decode_checked(dimacs, model) {
        Ok(grid) => {
            let form = args.output.format();
            let text = write_grid_with_layout(&grid, &header.info.geometry, form, None);
            writeln!(out, "{text}")?;
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            eprintln!(
                "sudolab: {}: the model does not decode to a solution: {e}",
                args.model
            );
            Ok(ExitCode::from(1))
        }
    }
}
