//! `sudolab generate`: unique puzzles from random full grids (see [`crate::generate`] for the
//! method and its sources). Output is deterministic for a given command line: byte-identical
//! on any machine.

use super::certify::{create_bundle, Certifier, OwnCheck};
use super::common::{parse_seconds, whole};
use crate::certify::bundle::BundleWriter;
use crate::certify::Verdict;
use crate::engines::EngineSpec;
use crate::generate::killer::{KillerGenerator, KillerOptions, DEFAULT_KILLER_NODE_LIMIT};
use crate::generate::{
    auto_order, default_node_limit, GenerateError, GenerateOptions, Generator, Order, Target,
    DEFAULT_ATTEMPTS,
};
use crate::puzzle::parse_box;
use crate::puzzle::{
    default_box, write_killer, write_puzzle, write_puzzlekit, OutputFormat, Puzzle, PuzzlekitEntry,
};
use anyhow::Context;
use clap::{ArgGroup, Args, ValueEnum};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Exit status when `--time-limit` stopped the command before every puzzle was made.
pub const EXIT_TIME_LIMIT: u8 = 3;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GenFormat {
    /// One puzzle per line (jigsaw: givens, a space, the region layout). Grids whose digits
    /// have no symbol in the default alphabet (sides above 35) are written as grids.
    Line,
    /// Rows of cells, puzzles separated by a blank line.
    Grid,
    /// The killer text format (header, givens, cages, sums; docs/formats.md): the default
    /// with --killer.
    Killer,
    /// puzzlekit KillerSudoku JSON, like data/variants/killer-janko.json (--killer only, no
    /// givens).
    Puzzlekit,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OrderArg {
    Random,
    SinglesFirst,
    Nested,
}

impl From<OrderArg> for Order {
    fn from(o: OrderArg) -> Order {
        match o {
            OrderArg::Random => Order::Random,
            OrderArg::SinglesFirst => Order::SinglesFirst,
            OrderArg::Nested => Order::Nested,
        }
    }
}

#[derive(Args, Debug)]
#[command(group(ArgGroup::new("target").required(true).args(["clues", "minimal", "killer", "samurai"]).multiple(false)))]
pub struct GenerateArgs {
    /// Side N of the grid: 4 to 1024 for boxed grids, up to 128 for X and jigsaw (9 with
    /// --samurai, its default there).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole::<usize, 1>,
          required_unless_present = "samurai")]
    pub size: Option<usize>,

    /// Box shape RxC (rows x columns, R*C = N) instead of the most square one.
    #[arg(long = "box", value_name = "RxC", value_parser = parse_box, conflicts_with = "jigsaw")]
    pub box_shape: Option<(usize, usize)>,

    /// Random connected regions instead of boxes (a new layout per puzzle).
    #[arg(long)]
    pub jigsaw: bool,

    /// X-sudoku: the two diagonals are houses too (read the output with --diagonals).
    #[arg(long)]
    pub diagonals: bool,

    /// Leave exactly K givens.
    #[arg(long, value_name = "K", allow_negative_numbers = true, value_parser = whole::<usize, 0>)]
    pub clues: Option<usize>,

    /// Remove givens until none can be removed (a minimal puzzle).
    #[arg(long)]
    pub minimal: bool,

    /// Killer sudoku (boxed, sides 4 to 16): cages drawn around a random full grid, split
    /// until the puzzle is unique; no givens unless --killer-givens.
    #[arg(long, conflicts_with_all = ["jigsaw", "diagonals", "spread", "order", "unchecked",
          "certify"])]
    pub killer: bool,

    /// Samurai: five 9x9 grids in a 21x21 frame, givens removed while `human` proves the
    /// puzzle unique, down to a minimal puzzle or to --samurai-clues K. Written as puzzlekit
    /// SamuraiSudoku JSON, like data/variants/samurai-janko.json.
    #[arg(long, conflicts_with_all = ["jigsaw", "diagonals", "spread", "order", "unchecked",
          "certify", "box_shape", "killer_givens"])]
    pub samurai: bool,

    /// With --samurai: leave exactly K givens (default: a minimal puzzle).
    #[arg(long, value_name = "K", requires = "samurai", allow_negative_numbers = true,
          value_parser = whole::<usize, 0>)]
    pub samurai_clues: Option<usize>,

    /// With --killer: keep K givens, drawn at random, besides the cages.
    #[arg(long, value_name = "K", requires = "killer", allow_negative_numbers = true,
          value_parser = whole::<usize, 0>)]
    pub killer_givens: Option<usize>,

    /// Spread the holes evenly over rows, columns and boxes/regions (balanced holes,
    /// Ansótegui et al. 2011).
    #[arg(long)]
    pub spread: bool,

    /// Number of puzzles.
    #[arg(long, default_value_t = 1, value_name = "M", allow_negative_numbers = true,
          value_parser = whole::<u64, 1>)]
    pub count: u64,

    /// Seed of the random generator: the same command and seed give the same output.
    #[arg(long, default_value_t = 0, value_name = "S", allow_negative_numbers = true,
          value_parser = whole::<u64, 0>)]
    pub seed: u64,

    /// With --clues: full grids tried per puzzle before giving up.
    #[arg(long, default_value_t = DEFAULT_ATTEMPTS, value_name = "A",
          allow_negative_numbers = true, value_parser = whole::<u32, 1>)]
    pub attempts: u32,

    /// Engine of the uniqueness checks: any solving engine, or sat-incremental[:backend=NAME,
    /// block=K] (singles, then one incremental SAT solver per block of K removals; default
    /// K = 2N). Default: dlx up to 12x12, sat-incremental above.
    #[arg(long, value_name = "SPEC")]
    pub engine: Option<EngineSpec>,

    /// Node limit of each uniqueness check (a check stopped by it keeps the given); for
    /// sat-incremental it counts solver conflicts. Default: 1000000, or 2000 conflicts (5000 with --minimal).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole::<u64, 1>)]
    pub node_limit: Option<u64>,

    /// Removal order: random (one pass in a random order; the balanced order with --spread)
    /// or singles-first (first the removals naked and hidden singles undo, with no check,
    /// then the other cells, each checked; biased towards puzzles singles solve) or nested
    /// (singles-first over nested squares of random rows by random columns: singles stall
    /// at fewer givens, for large sides).
    /// Default: random up to 16x16 and with --spread, singles-first above.
    #[arg(long, value_enum, value_name = "ORDER")]
    pub order: Option<OrderArg>,

    /// No uniqueness checks: remove the first cells of a random order down to --clues, so the
    /// puzzle may have several solutions (for hardness studies without uniqueness).
    #[arg(long, requires = "clues", conflicts_with_all = ["spread", "order", "engine", "node_limit"])]
    pub unchecked: bool,

    /// Stop after SECS seconds of wall time for the whole command (as solve --time-limit):
    /// the puzzles finished are written, the unfinished one is not, and the exit status is 3.
    #[arg(long, value_name = "SECS", value_parser = parse_seconds, allow_negative_numbers = true)]
    pub time_limit: Option<std::time::Duration>,

    /// Output file (default: standard output).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<String>,

    /// Output form (default: line, or killer with --killer).
    #[arg(long, value_enum)]
    pub format: Option<GenFormat>,

    /// Also write a certificate of every puzzle to the bundle DIR, as `certify -o DIR` does
    /// (verdict, solution and DRAT proof, checked before it is written; refused if DIR already
    /// holds a bundle). With --minimal each entry also carries the minimality certificate:
    /// for each given, the second solution that refused its removal.
    #[arg(long, value_name = "DIR")]
    pub certify: Option<PathBuf>,
}

impl GenerateArgs {
    fn options(&self) -> GenerateOptions {
        let engine = self
            .engine
            .clone()
            .unwrap_or_else(|| crate::generate::auto_engine(self.side()));
        GenerateOptions {
            size: self.side(),
            box_shape: self.box_shape,
            jigsaw: self.jigsaw,
            diagonals: self.diagonals,
            target: self.target(),
            spread: self.spread,
            seed: self.seed,
            attempts: self.attempts,
            node_limit: self
                .node_limit
                .unwrap_or_else(|| default_node_limit(&engine, self.target())),
            engine: Some(engine),
            // Only where someone watches, and only for passes long enough to need it.
            progress: std::io::stderr().is_terminal() || self.side() >= 64,
            order: self.order(),
            unique: !self.unchecked,
            time_limit: self.time_limit,
            second_solutions: self.certify.is_some(),
        }
    }

    fn target(&self) -> Target {
        match self.clues {
            Some(k) => Target::Clues(k),
            None => Target::Minimal,
        }
    }

    /// The removal order asked for, or the default for the side (random with --spread).
    fn order(&self) -> Order {
        match self.order {
            Some(o) => o.into(),
            None if self.spread || self.unchecked => Order::Random,
            None => auto_order(self.side()),
        }
    }

    /// The `#` comment line opening the output: every parameter that shapes it, and the
    /// reader options needed to load it back.
    fn header(&self, engine: &str, node_limit: u64) -> String {
        let mut s = format!("# sudolab generate --size {}", self.side());
        if let Some((r, c)) = self.box_shape {
            s += &format!(" --box {r}x{c}");
        }
        if self.jigsaw {
            s += " --jigsaw";
        }
        if self.diagonals {
            s += " --diagonals";
        }
        match self.clues {
            Some(k) => s += &format!(" --clues {k}"),
            None => s += " --minimal",
        }
        if self.spread {
            s += " --spread";
        }
        s += &format!(
            " --count {} --seed {} --attempts {}",
            self.count, self.seed, self.attempts
        );
        if self.unchecked {
            s += " --unchecked";
        } else {
            s += &format!(
                " --order {} --engine {engine} --node-limit {node_limit}",
                self.order().name()
            );
        }
        let mut read = Vec::new();
        if self.diagonals {
            read.push("--diagonals".to_string());
        }
        if let Some((r, c)) = self.box_shape {
            if (r, c) != default_box(self.side()) {
                read.push(format!("--box {r}x{c}"));
            }
        }
        if !read.is_empty() {
            s += &format!(" (read with {})", read.join(" "));
        }
        s
    }
}

/// `generate --certify`: the bundle, and what its entries came to.
struct Certified {
    certifier: Certifier,
    bundle: BundleWriter,
    /// `source` of the entries: the output file, or `generate`.
    source: String,
    /// Whether the generator claims uniqueness (not `--unchecked`).
    unique: bool,
    /// Certificates the tool's check rejected, that could not be made, or that refute the
    /// generator's claim.
    failed: u64,
}

impl Certified {
    /// Certifies the `index`-th puzzle (1-based) and writes its entry, or returns
    /// `Ok(false)` without writing anything when the time limit stopped the certificate.
    fn add(
        &mut self,
        puzzle: &Puzzle,
        second_solutions: Option<&[Vec<u16>]>,
        index: u64,
    ) -> anyhow::Result<bool> {
        let (mut entry, proof) = match self.certifier.certify(puzzle, second_solutions) {
            Ok(made) if made.stopped() => return Ok(false),
            Ok(made) => {
                let problem = match (&made.check, made.certified()) {
                    (OwnCheck::Rejected(why), _) => Some(format!(
                        "the tool's own check rejected its certificate: {why}"
                    )),
                    (_, Some(v)) if self.unique && v != Verdict::Unique => Some(format!(
                        "the certified verdict is {}, not unique: the generator is wrong",
                        v.as_str()
                    )),
                    _ => None,
                };
                if let Some(problem) = problem {
                    self.failed += 1;
                    eprintln!("sudolab: puzzle {index}: {problem}");
                }
                (made.entry, made.certificate.proof)
            }
            Err(e) => {
                self.failed += 1;
                eprintln!("sudolab: puzzle {index}: no certificate: {e}");
                (
                    self.certifier.unknown_entry(puzzle, format!("error: {e}")),
                    None,
                )
            }
        };
        entry.source = self.source.clone();
        entry.index = index;
        self.bundle.write(&mut entry, proof.as_deref())?;
        Ok(true)
    }
}

impl GenerateArgs {
    /// The side: `--size`, or 9 for samurai.
    fn side(&self) -> usize {
        self.size.unwrap_or(9)
    }
}

pub fn run(args: GenerateArgs) -> anyhow::Result<ExitCode> {
    if args.killer {
        return run_killer(args);
    }
    if args.samurai {
        return run_samurai(args);
    }
    let started = Instant::now();
    let options = args.options();
    let engine = options
        .engine
        .clone()
        .expect("set by options()")
        .to_string();
    let node_limit = options.node_limit;
    // All option errors surface here, before the output file is created.
    let mut generator = Generator::new(options)?;
    let mut certified = match &args.certify {
        Some(dir) => Some(Certified {
            certifier: Certifier::new(None).with_deadline(args.time_limit.map(|t| started + t)),
            bundle: create_bundle(dir, args.count)?,
            source: args.output.clone().unwrap_or_else(|| "generate".into()),
            unique: !args.unchecked,
            failed: 0,
        }),
        None => None,
    };
    let sink: Box<dyn Write> = match &args.output {
        Some(path) => {
            Box::new(std::fs::File::create(path).with_context(|| format!("creating {path}"))?)
        }
        None => Box::new(std::io::stdout().lock()),
    };
    let mut out = std::io::BufWriter::new(sink);
    let progress = (args.count > 1 && std::io::stderr().is_terminal()).then(|| {
        let bar = indicatif::ProgressBar::new(args.count);
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{elapsed_precise} [{bar:40}] {pos}/{len} puzzles, eta {eta}",
        ) {
            bar.set_style(style);
        }
        bar
    });
    let form = match args.format.unwrap_or(GenFormat::Line) {
        GenFormat::Line => OutputFormat::Line,
        GenFormat::Grid => OutputFormat::Grid,
        GenFormat::Killer => OutputFormat::Killer,
        GenFormat::Puzzlekit => anyhow::bail!(
            "--format puzzlekit writes killer puzzles (KillerSudoku): add --killer, or use \
             line, grid or killer"
        ),
    };
    for i in 0..args.count {
        let made = match (generator.next_puzzle(), &mut certified) {
            (Ok(puzzle), Some(c)) => {
                if c.add(&puzzle, generator.last_second_solutions(), i + 1)? {
                    Ok(puzzle)
                } else {
                    // The certificate stopped at the time limit: the puzzle is unfinished.
                    Err(GenerateError::TimeLimit(
                        args.time_limit.unwrap_or_default(),
                    ))
                }
            }
            (made, _) => made,
        };
        let puzzle = match made {
            Ok(p) => p,
            Err(e) => {
                out.flush()?;
                if let Some(bar) = &progress {
                    bar.abandon();
                }
                let plural = if i == 1 { "" } else { "s" };
                if let GenerateError::TimeLimit(_) = e {
                    // Not a failure of the input: the limit the user set. The header goes
                    // out with the first puzzle, so an empty output has none.
                    eprintln!(
                        "sudolab: puzzle {}: {e}: stopped; {i} puzzle{plural} written, the \
                         unfinished one is not",
                        i + 1
                    );
                    return Ok(ExitCode::from(EXIT_TIME_LIMIT));
                }
                let written = if i == 0 {
                    String::new()
                } else {
                    format!(" ({i} puzzle{plural} written before)")
                };
                anyhow::bail!("puzzle {}: {e}{written}", i + 1);
            }
        };
        // The header goes out with the first puzzle, so a run that fails at once writes
        // nothing.
        if i == 0 {
            writeln!(out, "{}", args.header(&engine, node_limit))?;
        }
        let text = write_puzzle(&puzzle, form, None);
        // Multi-line puzzles (grid form, or line form falling back to it for large sides) are
        // separated by a blank line, which the grid reader requires between puzzles.
        if text.contains('\n') && i > 0 {
            writeln!(out)?;
        }
        writeln!(out, "{text}")?;
        if let Some(bar) = &progress {
            bar.inc(1);
        }
    }
    out.flush().context("writing the puzzles")?;
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }
    if let Some(c) = certified {
        if c.failed > 0 {
            eprintln!(
                "sudolab: {} of {} certificates in {} failed (see above)",
                c.failed,
                c.bundle.written(),
                c.bundle.dir().display()
            );
            return Ok(ExitCode::from(1));
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `generate --killer`: killer puzzles ([`crate::generate::killer`]) in the killer text format
/// (one `#` header line, puzzles separated by a blank line) or as one puzzlekit JSON document.
fn run_killer(args: GenerateArgs) -> anyhow::Result<ExitCode> {
    let format = args.format.unwrap_or(GenFormat::Killer);
    let givens = args.killer_givens.unwrap_or(0);
    match format {
        GenFormat::Line | GenFormat::Grid => anyhow::bail!(
            "--format {}: the line and grid forms have no place for a killer's cages; use \
             --format killer or --format puzzlekit",
            if format == GenFormat::Line {
                "line"
            } else {
                "grid"
            }
        ),
        GenFormat::Puzzlekit if givens > 0 => anyhow::bail!(
            "--format puzzlekit: puzzlekit KillerSudoku has no givens; use --format killer with \
             --killer-givens"
        ),
        _ => {}
    }
    let options = KillerOptions {
        size: args.side(),
        box_shape: args.box_shape,
        givens,
        seed: args.seed,
        engine: args.engine.clone(),
        node_limit: args.node_limit.unwrap_or(DEFAULT_KILLER_NODE_LIMIT),
        time_limit: args.time_limit,
    };
    let engine = options
        .engine
        .clone()
        .map_or_else(|| "dlx".to_string(), |e| e.to_string());
    let mut command = format!("sudolab generate --size {} --killer", args.side());
    if let Some((r, c)) = args.box_shape {
        command += &format!(" --box {r}x{c}");
    }
    if givens > 0 {
        command += &format!(" --killer-givens {givens}");
    }
    command += &format!(
        " --count {} --seed {} --engine {engine} --node-limit {}",
        args.count, args.seed, options.node_limit
    );
    let mut generator = KillerGenerator::new(options)?;
    let mut out = open_output(&args.output)?;
    let mut made: Vec<(Puzzle, Vec<u16>)> = Vec::new();
    let mut stopped = None;
    for i in 0..args.count {
        let Some(puzzle) = next_or_stopped(generator.next_puzzle(), i, &mut out, &mut stopped)?
        else {
            break;
        };
        if format == GenFormat::Killer {
            if i == 0 {
                writeln!(out, "# {command}")?;
            } else {
                writeln!(out)?;
            }
            writeln!(out, "{}", write_killer(&puzzle, None))?;
        } else {
            made.push((puzzle, generator.last_solution().to_vec()));
        }
    }
    if format == GenFormat::Puzzlekit && !made.is_empty() {
        let n = args.side();
        let entries: Vec<PuzzlekitEntry> = made
            .iter()
            .enumerate()
            .map(|(i, (p, s))| PuzzlekitEntry {
                id: format!("{}_{n}x{n}", i + 1),
                puzzle: p,
                solution: Some(s),
                source: command.clone(),
                info: String::new(),
            })
            .collect();
        out.write_all(write_puzzlekit(&entries)?.as_bytes())?;
    }
    out.flush().context("writing the puzzles")?;
    if let Some(why) = stopped {
        eprintln!("sudolab: {why}: stopped; the unfinished puzzle is not written");
        return Ok(ExitCode::from(EXIT_TIME_LIMIT));
    }
    Ok(ExitCode::SUCCESS)
}

/// `generate --samurai`: samurai puzzles ([`crate::generate::samurai`]) as one puzzlekit
/// `SamuraiSudoku` document (ids `1_21x21`, ...; each with its solution, `source` the
/// command), which `solve` reads back.
fn run_samurai(args: GenerateArgs) -> anyhow::Result<ExitCode> {
    use crate::generate::samurai::{SamuraiGenerator, SamuraiOptions, DEFAULT_SAMURAI_NODE_LIMIT};
    if args.side() != 9 {
        anyhow::bail!("--samurai: the grids of a samurai are 9x9 (--size 9 or no --size)");
    }
    if let Some(f) = args.format.filter(|&f| f != GenFormat::Puzzlekit) {
        anyhow::bail!(
            "--format {}: samurai puzzles are written as puzzlekit SamuraiSudoku JSON (the form \
             `solve` reads back); use --format puzzlekit or no --format",
            format!("{f:?}").to_lowercase()
        );
    }
    let options = SamuraiOptions {
        clues: args.samurai_clues,
        seed: args.seed,
        engine: args.engine.clone(),
        node_limit: args.node_limit.unwrap_or(DEFAULT_SAMURAI_NODE_LIMIT),
        attempts: args.attempts,
        time_limit: args.time_limit,
    };
    let engine = options
        .engine
        .clone()
        .map_or_else(|| "human".to_string(), |e| e.to_string());
    let mut command = "sudolab generate --samurai".to_string();
    if let Some(k) = args.samurai_clues {
        command += &format!(" --samurai-clues {k}");
    }
    command += &format!(
        " --count {} --seed {} --engine {engine} --node-limit {}",
        args.count, args.seed, options.node_limit
    );
    let mut generator = SamuraiGenerator::new(options)?;
    let mut out = open_output(&args.output)?;
    let mut made: Vec<(Puzzle, Vec<u16>)> = Vec::new();
    let mut stopped = None;
    for i in 0..args.count {
        let Some(puzzle) = next_or_stopped(generator.next_puzzle(), i, &mut out, &mut stopped)?
        else {
            break;
        };
        made.push((puzzle, generator.last_solution().to_vec()));
    }
    if !made.is_empty() {
        let entries: Vec<PuzzlekitEntry> = made
            .iter()
            .enumerate()
            .map(|(i, (p, s))| PuzzlekitEntry {
                id: format!("{}_21x21", i + 1),
                puzzle: p,
                solution: Some(s),
                source: command.clone(),
                info: String::new(),
            })
            .collect();
        out.write_all(write_puzzlekit(&entries)?.as_bytes())?;
    }
    out.flush()?;
    if let Some(why) = stopped {
        eprintln!("sudolab: {why}");
        return Ok(ExitCode::from(3));
    }
    Ok(ExitCode::SUCCESS)
}

/// The output of `generate`: `-o FILE`, or standard output.
fn open_output(path: &Option<String>) -> anyhow::Result<std::io::BufWriter<Box<dyn Write>>> {
    let sink: Box<dyn Write> = match path {
        Some(path) => {
            Box::new(std::fs::File::create(path).with_context(|| format!("creating {path}"))?)
        }
        None => Box::new(std::io::stdout().lock()),
    };
    Ok(std::io::BufWriter::new(sink))
}

/// Puzzle `i` (0-based) of a stream, or `None` when the time limit stopped the stream (the
/// reason in `stopped`); any other error ends the command after `out` is flushed.
fn next_or_stopped(
    next: Result<Puzzle, GenerateError>,
    i: u64,
    out: &mut impl Write,
    stopped: &mut Option<String>,
) -> anyhow::Result<Option<Puzzle>> {
    match next {
        Ok(p) => Ok(Some(p)),
        Err(e @ GenerateError::TimeLimit(_)) => {
            *stopped = Some(format!("puzzle {}: {e}", i + 1));
            Ok(None)
        }
        Err(e) => {
            out.flush()?;
            anyhow::bail!("puzzle {}: {e}", i + 1)
        }
    }
}
