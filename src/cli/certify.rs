//! `sudolab certify`: decide puzzles and write a bundle of certificates (verdicts, solutions,
//! DRAT proofs against the canonical formula), or check a bundle without trusting it.
//!
//! Making: `certify FILES... -o DIR`. Every entry is written to `DIR/certificates.jsonl` (and
//! its proof to `DIR/proofs/`) as soon as it is made and checked, so a killed run keeps every
//! entry finished before it. Exit 0 when every entry was made and its check accepted it, 1
//! when the tool's own check rejected one (a defect: the entry says `checked: false` with the
//! reason), 2 on bad input.
//!
//! Checking: `certify --check DIR`. One line per rejected entry; exit 0 when every entry is
//! accepted, 1 when one is rejected (or its check hit the time limit), 2 when the bundle is
//! malformed (a missing file, an unknown field value, a truncated proof), with file, line and
//! column.
//!
//! [`Certifier`] makes and checks one puzzle's certificate for `certify -o`, `generate
//! --certify` and `verify --certify`, and [`create_bundle`] opens their bundles.

use super::common::{parse_seconds, InputArgs};
use crate::certify::bundle::{
    field_column, grid_text, BundleWriter, Entry, EntryStats, ENTRIES_FILE,
};
use crate::certify::{Certificate, Claim, ClaimChecker, ProveError, Prover, Verdict};
use crate::cnf::{Amo, CnfEncoding, CnfOptions, Deadline};
use crate::puzzle::{Grid, Puzzle};
use anyhow::{anyhow, bail, Context};
use clap::Args;
use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(Args, Debug)]
pub struct CertifyArgs {
    /// Puzzle files (`-` for standard input; none = standard input).
    pub files: Vec<String>,

    #[command(flatten)]
    pub input: InputArgs,

    /// Folder of the bundle to write: certificates.jsonl and proofs/ (created; refused if it
    /// already holds a certificates.jsonl).
    #[arg(
        short = 'o',
        long = "out",
        value_name = "DIR",
        required_unless_present = "check"
    )]
    pub out: Option<PathBuf>,

    /// Check the bundle in DIR instead of making one.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["out", "files"])]
    pub check: Option<PathBuf>,

    /// Time limit per puzzle, for deciding and proving and again for checking (seconds).
    #[arg(long, value_name = "SECS", value_parser = parse_seconds, allow_negative_numbers = true)]
    pub time_limit: Option<Duration>,

    /// CNF encoding the proof is made on: minimal, efficient, extended, optimized or reduced
    /// (default: reduced, the sat engine's default).
    #[arg(long, value_name = "E")]
    pub encoding: Option<String>,

    /// At-most-one encoding of that formula (default auto; see `sudolab engines`).
    #[arg(long, value_name = "A")]
    pub amo: Option<String>,

    /// Locked candidates before encoding (reduced): auto (up to 9x9), true or false.
    #[arg(long, value_name = "auto|true|false", default_value = "auto")]
    pub locked: String,

    /// Failed-literal probing before encoding (reduced): auto (up to 9x9), true or false.
    #[arg(long, value_name = "auto|true|false", default_value = "auto")]
    pub probe: String,

    /// Write the proofs without checking them (the entries then say `checked: false`).
    #[arg(long)]
    pub no_check: bool,

    /// Print only the summary, not one line per puzzle.
    #[arg(long, short)]
    pub quiet: bool,

    /// Threads that make or check certificates, one puzzle each at a time (default: the
    /// machine's cores). Entries keep the input order.
    #[arg(long, value_name = "T", allow_negative_numbers = true,
          value_parser = super::common::whole::<usize, 1>)]
    pub threads: Option<usize>,
}

/// Puzzles per thread in one chunk of `certify -o`: a killed run loses at most the entries
/// of one chunk (`MAKE_CHUNK` x threads puzzles).
const MAKE_CHUNK: usize = 16;

/// The threads to use: as asked, or the machine's cores.
fn threads(asked: Option<usize>) -> usize {
    asked.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// `auto`, `true` or `false`.
fn auto_flag(name: &str, value: &str) -> anyhow::Result<Option<bool>> {
    match value {
        "auto" => Ok(None),
        "true" => Ok(Some(true)),
        "false" => Ok(Some(false)),
        v => bail!("--{name}: expected auto, true or false, found {v:?}"),
    }
}

/// The proof's encoding options for a puzzle of side `n`.
#[derive(Clone)]
struct EncodingChoice {
    base: CnfOptions,
    locked: Option<bool>,
    probe: Option<bool>,
}

impl Default for EncodingChoice {
    /// `certify`'s default: the reduced encoding (the sat engine's default) with the default
    /// at-most-one, locked candidates and probing on grids up to 9x9.
    fn default() -> Self {
        EncodingChoice {
            base: CnfOptions {
                encoding: CnfEncoding::Reduced,
                ..CnfOptions::default()
            },
            locked: None,
            probe: None,
        }
    }
}

impl EncodingChoice {
    fn from_args(args: &CertifyArgs) -> anyhow::Result<Self> {
        let mut choice = EncodingChoice::default();
        if let Some(e) = &args.encoding {
            choice.base.encoding = e
                .parse::<CnfEncoding>()
                .map_err(|e| anyhow!("--encoding: {e}"))?;
        }
        if let Some(a) = &args.amo {
            choice.base.amo = a.parse::<Amo>().map_err(|e| anyhow!("--amo: {e}"))?;
        }
        choice.locked = auto_flag("locked", &args.locked)?;
        choice.probe = auto_flag("probe", &args.probe)?;
        if choice.base.encoding != CnfEncoding::Reduced
            && (choice.locked == Some(true) || choice.probe == Some(true))
        {
            bail!(
                "--locked and --probe apply to --encoding reduced, not {}",
                choice.base.encoding
            );
        }
        Ok(choice)
    }

    fn for_side(&self, n: usize) -> CnfOptions {
        let mut o = self.base;
        if o.encoding == CnfEncoding::Reduced {
            o.locked = self.locked.unwrap_or(n <= 9);
            o.probe = self.probe.unwrap_or(n <= 9);
        }
        o
    }

    fn describe(o: &CnfOptions) -> String {
        let mut s = format!("encoding={},amo={}", o.encoding, o.amo.as_str());
        if o.encoding == CnfEncoding::Reduced {
            s.push_str(&format!(",locked={},probe={}", o.locked, o.probe));
        }
        s
    }
}

pub fn run(args: CertifyArgs) -> anyhow::Result<ExitCode> {
    match &args.check {
        Some(dir) => check_bundle(dir, args.time_limit, args.quiet, threads(args.threads)),
        None => make_bundle(&args),
    }
}

fn budget(limit: Option<Duration>) -> Deadline {
    Deadline::after(Instant::now(), limit, None)
}

/// Makes and checks certificates one puzzle at a time, for `certify -o`, `generate
/// --certify` and `verify --certify`.
pub(super) struct Certifier {
    prover: Prover,
    choice: EncodingChoice,
    /// For deciding and proving, and again for checking, per puzzle.
    time_limit: Option<Duration>,
    /// An end no budget goes past (`generate --time-limit`).
    deadline: Option<Instant>,
    /// Whether the tool checks each certificate it makes.
    check: bool,
    checker: ClaimChecker,
}

/// What the tool's own check said of a certificate it made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum OwnCheck {
    Accepted,
    /// The check rejected the certificate (a defect of the tool), with the reason.
    Rejected(String),
    /// A limit stopped the check (`time-limit`, `cancelled`), or the encoding was over the
    /// literal bound before any proving (`memory-limit`).
    Stopped(&'static str),
    /// Not checked (`certify --no-check`).
    Skipped,
}

/// One puzzle's certificate, made and checked.
pub(super) struct Made {
    /// Its bundle entry, but for `source`, `index` and the proof file, which the caller and
    /// the [`BundleWriter`] set.
    pub entry: Entry,
    pub certificate: Certificate,
    pub check: OwnCheck,
    /// What `certify` prints for it: the verdict, the check, the proof size and the times.
    pub line: String,
}

impl Made {
    /// The verdict, if a check accepted it and it is not `unknown`: what the certificate
    /// proves.
    pub fn certified(&self) -> Option<Verdict> {
        (self.check == OwnCheck::Accepted && self.certificate.verdict != Verdict::Unknown)
            .then_some(self.certificate.verdict)
    }

    /// Why [`Made::certified`] is `None`.
    pub fn why_uncertified(&self) -> String {
        match (&self.check, self.certificate.stop) {
            (_, Some(why)) => format!("the prover stopped: {}", interrupt_name(why)),
            (OwnCheck::Rejected(r), _) => format!("the tool's check rejected it: {r}"),
            (OwnCheck::Stopped("memory-limit"), _) => {
                "the encoding is over the literal bound (memory-limit)".into()
            }
            (OwnCheck::Stopped(why), _) => format!("the check stopped: {why}"),
            (OwnCheck::Skipped, _) => "not checked".into(),
            (OwnCheck::Accepted, None) => "accepted".into(),
        }
    }

    /// Whether a limit stopped the prover or the check.
    pub fn stopped(&self) -> bool {
        self.certificate.stop.is_some() || matches!(self.check, OwnCheck::Stopped(_))
    }
}

impl Certifier {
    /// `certify`'s default encoding, each certificate checked.
    pub fn new(time_limit: Option<Duration>) -> Self {
        Certifier {
            prover: Prover::new()
                .with_max_literals(Some(crate::engines::sat::DEFAULT_MAX_LITERALS)),
            choice: EncodingChoice::default(),
            time_limit,
            deadline: None,
            check: true,
            checker: ClaimChecker::new(),
        }
    }

    /// Ends every budget at `deadline` at the latest.
    pub fn with_deadline(mut self, deadline: Option<Instant>) -> Self {
        self.deadline = deadline;
        self
    }

    fn budget(&self) -> Deadline {
        Deadline {
            at: self.deadline,
            cancel: None,
        }
        .child(self.time_limit)
    }

    /// An `unknown` entry for `puzzle` with `note`, as made with this certifier's encoding.
    pub fn unknown_entry(&self, puzzle: &Puzzle, note: String) -> Entry {
        let options = self.choice.for_side(puzzle.n());
        let (size, box_shape, variant, regions) = Entry::geometry_fields(puzzle.geometry());
        Entry {
            source: String::new(),
            index: 0,
            size,
            box_shape,
            variant,
            regions,
            puzzle: grid_text(puzzle.givens(), puzzle.geometry()),
            verdict: Verdict::Unknown.as_str().into(),
            solutions: Vec::new(),
            proof: None,
            formula: crate::certify::CanonicalForm::for_side(puzzle.n())
                .as_str()
                .into(),
            minimality: None,
            checked: false,
            note: Some(note),
            stats: Some(EntryStats {
                encoding: EncodingChoice::describe(&options),
                ..EntryStats::default()
            }),
        }
    }

    /// Makes and checks the certificate of `puzzle`. `minimality`, for each given in
    /// row-major order, a solution of the puzzle without it: it goes into the entry and the
    /// check with any verdict but `unknown` (the check rejects it unless the verdict is
    /// `unique` and every grid is right).
    pub fn certify(
        &mut self,
        puzzle: &Puzzle,
        minimality: Option<&[Grid]>,
    ) -> Result<Made, ProveError> {
        let options = self.choice.for_side(puzzle.n());
        let t0 = Instant::now();
        let cert: Certificate = match self.prover.certify(puzzle, &options, &self.budget()) {
            Ok(c) => c,
            Err(ProveError::TooLarge { literals, bound }) => {
                let note = format!(
                    "memory-limit: the {} encoding has {literals} literals, over the bound of {bound}",
                    options.encoding
                );
                return Ok(Made {
                    entry: self.unknown_entry(puzzle, note),
                    certificate: Certificate {
                        verdict: Verdict::Unknown,
                        solutions: Vec::new(),
                        proof: None,
                        form: crate::certify::CanonicalForm::for_side(puzzle.n()),
                        stop: None,
                        stats: Default::default(),
                    },
                    check: OwnCheck::Stopped("memory-limit"),
                    line: "unknown (memory-limit)".into(),
                });
            }
            Err(e) => return Err(e),
        };
        let prove_s = t0.elapsed().as_secs_f64();
        let minimality = minimality.filter(|_| cert.verdict != Verdict::Unknown);
        let g = puzzle.geometry();
        let mut entry = self.unknown_entry(puzzle, String::new());
        entry.note = None;
        entry.verdict = cert.verdict.as_str().into();
        entry.formula = cert.form.as_str().into();
        entry.solutions = cert.solutions.iter().map(|s| grid_text(s, g)).collect();
        entry.minimality = minimality.map(|list| list.iter().map(|s| grid_text(s, g)).collect());
        let proof_bytes = cert.proof.as_ref().map_or(0, |p| p.len() as u64);
        let mut check_s = 0.0;
        let mut line = cert.verdict.as_str().to_string();
        if let Some(why) = cert.stop {
            entry.note = Some(format!("stopped: {}", interrupt_name(why)));
            line.push_str(&format!(" ({})", interrupt_name(why)));
        }
        let check = if self.check {
            let t1 = Instant::now();
            let claim = Claim {
                geometry: g,
                givens: puzzle.givens(),
                verdict: cert.verdict,
                solutions: &cert.solutions,
                form: cert.form,
                minimality,
            };
            let mut reader = cert.proof.as_deref();
            let budget = self.budget();
            let result = self.checker.check(
                &claim,
                reader.as_mut().map(|r| r as &mut dyn BufRead),
                &budget,
            );
            check_s = t1.elapsed().as_secs_f64();
            match result {
                Ok(_) => {
                    entry.checked = true;
                    if cert.verdict != Verdict::Unknown {
                        line.push_str(", certified");
                    }
                    OwnCheck::Accepted
                }
                Err(r) => {
                    let (why, check) = match r.interrupted() {
                        Some(i) => (
                            format!("check stopped: {}", interrupt_name(i)),
                            OwnCheck::Stopped(interrupt_name(i)),
                        ),
                        None => (format!("rejected: {r}"), OwnCheck::Rejected(r.to_string())),
                    };
                    line.push_str(&format!(", unchecked ({why})"));
                    entry.note = Some(why);
                    check
                }
            }
        } else {
            line.push_str(", unchecked");
            OwnCheck::Skipped
        };
        let stats = &cert.stats;
        if cert.proof.is_some() {
            line.push_str(&format!(
                ", proof {} lemmas {} bytes",
                stats.lemmas(),
                proof_bytes
            ));
        }
        line.push_str(&format!(
            ", {:.3} ms + check {:.3} ms",
            prove_s * 1e3,
            check_s * 1e3
        ));
        entry.stats = Some(EntryStats {
            encoding: EncodingChoice::describe(&options),
            lemmas: if cert.proof.is_some() {
                stats.lemmas()
            } else {
                0
            },
            deletions: stats.deletions,
            proof_bytes,
            prove_s,
            check_s,
        });
        Ok(Made {
            entry,
            certificate: cert,
            check,
            line,
        })
    }
}

/// Creates the bundle folder `dir` for `total` entries (see [`BundleWriter::create`]).
pub(super) fn create_bundle(dir: &Path, total: u64) -> anyhow::Result<BundleWriter> {
    BundleWriter::create(dir, total)
        .with_context(|| format!("{}: cannot make the bundle", dir.display()))
}

/// Tallies of a making run.
#[derive(Default)]
struct Tally {
    unique: u64,
    multiple: u64,
    unsat: u64,
    unknown: u64,
    checked: u64,
    rejected: u64,
    errors: u64,
}

fn make_bundle(args: &CertifyArgs) -> anyhow::Result<ExitCode> {
    let out_dir = args
        .out
        .as_ref()
        .expect("clap requires --out without --check");
    let choice = EncodingChoice::from_args(args)?;
    let threads = threads(args.threads);
    let certifiers: Vec<std::sync::Mutex<Certifier>> = (0..threads)
        .map(|_| {
            std::sync::Mutex::new(Certifier {
                choice: choice.clone(),
                check: !args.no_check,
                ..Certifier::new(args.time_limit)
            })
        })
        .collect();
    let sets = args.input.load(&args.files)?;
    let total: usize = sets.iter().map(|s| s.puzzles.len()).sum();
    let mut bundle = create_bundle(out_dir, total as u64)?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut tally = Tally::default();
    let started = Instant::now();
    // Puzzles are certified a chunk at a time, in parallel; each chunk's entries are written
    // (and flushed) in input order before the next chunk starts.
    let items: Vec<(&super::common::PuzzleSet, usize)> = sets
        .iter()
        .flat_map(|set| (0..set.puzzles.len()).map(move |i| (set, i)))
        .collect();
    for batch in items.chunks(MAKE_CHUNK * threads) {
        let made = in_parallel(batch, threads, |worker, &(set, i)| {
            let mut certifier = certifiers[worker]
                .lock()
                .expect("a certify thread panicked");
            certifier.certify(&set.puzzles[i].puzzle, None)
        });
        for (&(set, i), made) in batch.iter().zip(made) {
            let sp = &set.puzzles[i];
            let puzzle = &sp.puzzle;
            let (mut entry, proof, line) = match made {
                Ok(made) => {
                    if made.check == OwnCheck::Accepted {
                        tally.checked += 1;
                    } else if let OwnCheck::Rejected(why) = &made.check {
                        tally.rejected += 1;
                        eprintln!(
                            "sudolab: {}:{}: the tool's own check rejected its certificate: \
                             rejected: {why}",
                            set.source, sp.line,
                        );
                    }
                    (made.entry, made.certificate.proof, made.line)
                }
                Err(e) => {
                    tally.errors += 1;
                    eprintln!("sudolab: {}:{}: no certificate: {e}", set.source, sp.line);
                    let entry = certifiers[0]
                        .lock()
                        .expect("a certify thread panicked")
                        .unknown_entry(puzzle, format!("error: {e}"));
                    (entry, None, "error".to_string())
                }
            };
            entry.source = set.source.clone();
            entry.index = (i + 1) as u64;
            match Verdict::parse(&entry.verdict) {
                Some(Verdict::Unique) => tally.unique += 1,
                Some(Verdict::Multiple) => tally.multiple += 1,
                Some(Verdict::Unsat) => tally.unsat += 1,
                _ => tally.unknown += 1,
            }
            bundle.write(&mut entry, proof.as_deref())?;
            if !args.quiet {
                writeln!(
                    out,
                    "# {}:{} {}x{} {}: {line}",
                    set.source,
                    i + 1,
                    puzzle.n(),
                    puzzle.n(),
                    puzzle.geometry().variant()
                )?;
            }
        }
    }
    let number = bundle.written();
    let secs = started.elapsed().as_secs_f64();
    writeln!(
        out,
        "certify: {number} puzzles in {secs:.2} s ({:.0}/s): {} unique, {} multiple, {} unsat, \
         {} unknown; {} checked, {} rejected by the check, {} errors; bundle {}",
        number as f64 / secs.max(1e-9),
        tally.unique,
        tally.multiple,
        tally.unsat,
        tally.unknown,
        tally.checked,
        tally.rejected,
        tally.errors,
        out_dir.display()
    )?;
    Ok(if tally.rejected + tally.errors > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

pub(super) fn interrupt_name(i: crate::cnf::Interrupt) -> &'static str {
    match i {
        crate::cnf::Interrupt::Time => "time-limit",
        crate::cnf::Interrupt::Cancelled => "cancelled",
        crate::cnf::Interrupt::ConflictLimit | crate::cnf::Interrupt::DecisionLimit => "node-limit",
    }
}

/// Outcome of checking one entry.
enum Checked {
    Accepted,
    Rejected(String),
    Malformed(String),
}

fn check_bundle(
    dir: &Path,
    time_limit: Option<Duration>,
    quiet: bool,
    threads: usize,
) -> anyhow::Result<ExitCode> {
    let path = dir.join(ENTRIES_FILE);
    let file = File::open(&path).map_err(|e| anyhow!("{}: {e}", path.display()))?;
    let mut reader = BufReader::new(file).lines();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let (mut accepted, mut rejected, mut malformed) = (0u64, 0u64, 0u64);
    let started = Instant::now();
    let mut entries = 0u64;
    let mut lineno = 0usize;
    // Entries are checked a chunk at a time, in parallel, and reported in order.
    let chunk = 256 * threads;
    let checkers: Vec<std::sync::Mutex<ClaimChecker>> =
        (0..threads.max(1)).map(|_| Default::default()).collect();
    loop {
        let mut batch: Vec<(usize, String)> = Vec::with_capacity(chunk);
        for line in reader.by_ref() {
            lineno += 1;
            let line = line.map_err(|e| anyhow!("{}:{lineno}: {e}", path.display()))?;
            if !line.trim().is_empty() {
                batch.push((lineno, line));
                if batch.len() == chunk {
                    break;
                }
            }
        }
        if batch.is_empty() {
            break;
        }
        entries += batch.len() as u64;
        let results = in_parallel(&batch, threads, |worker, (k, line)| {
            let mut checker = checkers[worker].lock().expect("a check thread panicked");
            check_line(&mut checker, dir, &path, *k, line, time_limit)
        });
        for result in results {
            match result {
                Checked::Accepted => accepted += 1,
                Checked::Rejected(msg) => {
                    rejected += 1;
                    writeln!(out, "{msg}")?;
                }
                Checked::Malformed(msg) => {
                    malformed += 1;
                    writeln!(out, "{msg}")?;
                }
            }
        }
    }
    let secs = started.elapsed().as_secs_f64();
    if entries == 0 {
        writeln!(out, "{}: no entry", path.display())?;
        return Ok(ExitCode::from(super::EXIT_BAD_INPUT));
    }
    if !quiet || rejected + malformed > 0 {
        writeln!(
            out,
            "certify --check: {entries} entries in {secs:.2} s ({:.0}/s, {threads} thread{}): \
             {accepted} accepted, {rejected} rejected, {malformed} malformed",
            entries as f64 / secs.max(1e-9),
            if threads == 1 { "" } else { "s" }
        )?;
    }
    Ok(if malformed > 0 {
        ExitCode::from(super::EXIT_BAD_INPUT)
    } else if rejected > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// `f(worker, item)` of every item, on up to `threads` scoped threads (each takes the next
/// item; `worker` < `threads` numbers the thread, for per-thread state), in the items'
/// order. Every thread has ended when it returns.
fn in_parallel<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    f: impl Fn(usize, &T) -> R + Sync,
) -> Vec<R> {
    if threads <= 1 || items.len() <= 1 {
        return items.iter().map(|item| f(0, item)).collect();
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut done: Vec<(usize, R)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads.min(items.len()))
            .map(|worker| {
                let (next, f) = (&next, &f);
                scope.spawn(move || {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(item) = items.get(i) else {
                            return mine;
                        };
                        mine.push((i, f(worker, item)));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a certify thread panicked"))
            .collect()
    });
    done.sort_unstable_by_key(|&(i, _)| i);
    done.into_iter().map(|(_, r)| r).collect()
}

fn check_line(
    checker: &mut ClaimChecker,
    dir: &Path,
    path: &Path,
    lineno: usize,
    line: &str,
    time_limit: Option<Duration>,
) -> Checked {
    let at = |col: usize| format!("{}:{lineno}:{col}", path.display());
    let entry: Entry = match serde_json::from_str(line) {
        Ok(e) => e,
        Err(e) => {
            // serde_json ends its message with "at line 1 column C", the position in this
            // entry's text: the file's line and column are `at`'s.
            let text = e.to_string();
            let own = format!(" at line {} column {}", e.line(), e.column());
            let text = text.strip_suffix(&own).unwrap_or(&text);
            return Checked::Malformed(format!("{}: {text}", at(e.column().max(1))));
        }
    };
    let decoded = match entry.decode() {
        Ok(d) => d,
        Err(e) => return Checked::Malformed(format!("{}: {e}", at(field_column(line, e.field)))),
    };
    let name = format!("entry {} ({}:{})", lineno, entry.source, entry.index);
    let mut proof_file = None;
    if let Some(p) = entry.proof_path(dir) {
        match File::open(&p) {
            Ok(f) => proof_file = Some((p, BufReader::with_capacity(1 << 16, f))),
            Err(e) => {
                return Checked::Malformed(format!(
                    "{}: field `proof`: {}: {e}",
                    at(field_column(line, "proof")),
                    p.display()
                ))
            }
        }
    }
    let claim = Claim {
        geometry: &decoded.geometry,
        givens: &decoded.givens,
        verdict: decoded.verdict,
        solutions: &decoded.solutions,
        form: decoded.form,
        minimality: decoded.minimality.as_deref(),
    };
    let result = checker.check(
        &claim,
        proof_file.as_mut().map(|(_, r)| r as &mut dyn BufRead),
        &budget(time_limit),
    );
    match result {
        Ok(_) => Checked::Accepted,
        Err(r) => {
            let proof_name = proof_file
                .as_ref()
                .map(|(p, _)| p.display().to_string())
                .unwrap_or_default();
            if r.malformed() {
                return Checked::Malformed(format!("{}: {name}: {proof_name}: {r}", at(1)));
            }
            let mut msg = format!("{}: {name}: rejected: {r}", at(1));
            if let Some(i) = r.interrupted() {
                msg = format!(
                    "{}: {name}: not checked: the check stopped at the {}",
                    at(1),
                    match i {
                        crate::cnf::Interrupt::Time => "time limit",
                        _ => "limit",
                    }
                );
            }
            if let Some((lemma, pos)) = r.lemma() {
                msg.push_str(&format!(" (lemma {lemma} at {proof_name}, {pos})"));
            }
            Checked::Rejected(msg)
        }
    }
}
