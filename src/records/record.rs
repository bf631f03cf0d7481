//! One CSV row per run: the schema every experiment output, merge, chart and report shares.
//!
//! The columns are a contract (scripts outside the project read them by name); add columns
//! at the end, never rename one. A cell that an engine cannot fill is empty, never 0: the
//! SAT engine has no search tree (`nodes`, `guesses`, `backtracks` empty), only DLX has
//! `updates`, only batsat exposes `decisions`/`conflicts`/`propagations`, and so on.
//! A row with no search behind it (`unsupported`; an `error` whose engine failed) has no
//! counts at all ([`Outcome::has_counts`]).
//!
//! | column | meaning |
//! |---|---|
//! | `experiment` | the experiment's `name` |
//! | `dataset` | the dataset's `name` (default: the file stem) |
//! | `puzzle_index` | 1-based position of the puzzle in its dataset file |
//! | `puzzle` | the puzzle in line form (jigsaw: givens, a space, the regions), or `fnv:` and a 64-bit FNV-1a hash of its text when that form is longer than [`PUZZLE_TEXT_MAX`] |
//! | `size`, `box`, `variant`, `clues` | side N, box shape `RxC` (empty for jigsaw), `classic`/`jigsaw`/`x`/`jigsaw-x`, number of givens |
//! | `config` | the engine configuration's label (default: `engine_options` form, e.g. `sat:encoding=minimal`) |
//! | `engine`, `engine_options` | engine name; its options `k=v;k=v` as configured |
//! | `encoding`, `amo`, `backend`, `givens` | the SAT engine's effective choices (defaults filled in); empty for other engines |
//! | `repetition` | 0-based repetition number |
//! | `status`, `solutions` | how the search ended (`solved`, `unique`, `multiple`, `unsat`, `node-limit`, `time-limit`, `memory-limit`, `unsupported`, `error`) and solutions found (capped) |
//! | `nodes` ... `ones` | the engine's counters, see `sudolab engines` and docs/engines.md |
//! | `counters` | engine-specific named counts, `name=value;...` |
//! | `build_s`, `solve_s`, `cpu_s` | thread CPU seconds of building, of solving, and their sum |
//! | `wall_s` | wall-clock seconds of the run |
//! | `time_limit_s`, `node_limit`, `max_solutions` | the limits the run had (empty = none) |
//! | `shard` | `i/N` when run with `--shard`, else empty |
//! | `job` | stable job number within the experiment (order of the full job list) |
//! | `note` | the engine's remark, e.g. why it is unsupported or what stopped it |
//! | `proof_lemmas`, `proof_bytes`, `check_s` | `sat` with `certify=true`: lemmas of the DRAT proof (the final empty clause included), its size in bytes, and the CPU seconds its check took (not in `cpu_s`); empty otherwise, and empty proof cells for a verdict without a proof |

use crate::engines::{self, EngineSpec, Limits, Outcome, Status};
use crate::puzzle::{write_puzzle, Geometry, OutputFormat, Puzzle};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Puzzles whose line form is longer than this are identified by a hash in the `puzzle`
/// column (a 25x25 line is 625 characters; a 36x36 grid is written in numbers).
pub const PUZZLE_TEXT_MAX: usize = 1024;

/// One run: (puzzle, engine configuration, repetition) and what came of it. Field order is
/// column order.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Record {
    pub experiment: String,
    pub dataset: String,
    pub puzzle_index: u64,
    pub puzzle: String,
    pub size: u64,
    #[serde(rename = "box")]
    pub box_shape: String,
    pub variant: String,
    pub clues: u64,
    pub config: String,
    pub engine: String,
    pub engine_options: String,
    pub encoding: String,
    pub amo: String,
    pub backend: String,
    pub givens: String,
    pub repetition: u64,
    pub status: String,
    pub solutions: u64,
    pub nodes: Option<u64>,
    pub guesses: Option<u64>,
    pub backtracks: Option<u64>,
    pub max_live: Option<u64>,
    pub updates: Option<u64>,
    pub decisions: Option<u64>,
    pub conflicts: Option<u64>,
    pub propagations: Option<u64>,
    pub vars: Option<u64>,
    pub clauses: Option<u64>,
    pub literals: Option<u64>,
    pub items: Option<u64>,
    pub options: Option<u64>,
    pub ones: Option<u64>,
    pub counters: String,
    pub build_s: f64,
    pub solve_s: f64,
    pub cpu_s: f64,
    pub wall_s: f64,
    pub time_limit_s: Option<f64>,
    pub node_limit: Option<u64>,
    pub max_solutions: u64,
    pub shard: String,
    pub job: u64,
    pub note: String,
    #[serde(default)]
    pub proof_lemmas: Option<u64>,
    #[serde(default)]
    pub proof_bytes: Option<u64>,
    #[serde(default)]
    pub check_s: Option<f64>,
}

/// The header, in order (the field names of [`Record`]).
pub const COLUMNS: &[&str] = &[
    "experiment",
    "dataset",
    "puzzle_index",
    "puzzle",
    "size",
    "box",
    "variant",
    "clues",
    "config",
    "engine",
    "engine_options",
    "encoding",
    "amo",
    "backend",
    "givens",
    "repetition",
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
    "cpu_s",
    "wall_s",
    "time_limit_s",
    "node_limit",
    "max_solutions",
    "shard",
    "job",
    "note",
    "proof_lemmas",
    "proof_bytes",
    "check_s",
];

/// Where a run sits in its experiment: everything of a record that is known before the run.
#[derive(Clone, Debug, Default)]
pub struct RunKey<'a> {
    pub experiment: &'a str,
    pub dataset: &'a str,
    pub puzzle_index: u64,
    pub config: &'a str,
    pub spec: Option<&'a EngineSpec>,
    pub repetition: u64,
    pub shard: &'a str,
    pub job: u64,
}

impl Record {
    /// The record of a finished run. `puzzle_text` is [`puzzle_text`] of the puzzle (computed
    /// once per puzzle by the caller, not once per run).
    pub fn new(
        key: &RunKey<'_>,
        puzzle: &Puzzle,
        puzzle_text: &str,
        limits: &Limits,
        outcome: &Outcome,
    ) -> Record {
        let g = puzzle.geometry();
        let s = &outcome.stats;
        let (engine, engine_options) = match key.spec {
            Some(spec) => (
                spec.name.clone(),
                spec.options
                    .0
                    .iter()
                    .map(|(k, v)| format!("{k}={v}"))
                    .collect::<Vec<_>>()
                    .join(";"),
            ),
            None => (String::new(), String::new()),
        };
        let tree = engines::find(&engine).map_or(true, |info| info.search_tree);
        let [nodes, guesses, backtracks, max_live, updates, decisions, conflicts, propagations, vars, clauses, literals, items, options, ones] =
            count_cells(outcome, tree);
        let (encoding, amo, backend, givens) = sat_columns(key.spec);
        let build_s = outcome.build.as_secs_f64();
        let solve_s = outcome.solve.as_secs_f64();
        // Summed as durations (exact nanoseconds), so the cell reads 0.000023364, not the
        // float noise of adding two f64s.
        let cpu_s = (outcome.build + outcome.solve).as_secs_f64();
        Record {
            experiment: key.experiment.to_string(),
            dataset: key.dataset.to_string(),
            puzzle_index: key.puzzle_index,
            puzzle: puzzle_text.to_string(),
            size: g.n() as u64,
            box_shape: g
                .box_shape()
                .map(|(r, c)| format!("{r}x{c}"))
                .unwrap_or_default(),
            variant: puzzle.variant().to_string(),
            clues: puzzle.clues() as u64,
            config: key.config.to_string(),
            engine,
            engine_options,
            encoding,
            amo,
            backend,
            givens,
            repetition: key.repetition,
            status: outcome.status.to_string(),
            solutions: outcome.count,
            nodes,
            guesses,
            backtracks,
            max_live,
            updates,
            decisions,
            conflicts,
            propagations,
            vars,
            clauses,
            literals,
            items,
            options,
            ones,
            counters: s
                .counters
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join(";"),
            build_s,
            solve_s,
            cpu_s,
            wall_s: outcome.wall.as_secs_f64(),
            time_limit_s: limits.time_limit.map(|t| t.as_secs_f64()),
            node_limit: limits.node_limit,
            max_solutions: limits.max_solutions,
            shard: key.shard.to_string(),
            job: key.job,
            note: outcome.note.clone().unwrap_or_default(),
            proof_lemmas: s.proof_lemmas,
            proof_bytes: s.proof_bytes,
            check_s: s.check_s,
        }
    }

    /// The parsed status, if the cell holds a known one.
    pub fn status(&self) -> Option<Status> {
        Status::parse(&self.status)
    }

    /// Whether the run answered its question (solved, unique, multiple or unsat).
    pub fn answered(&self) -> bool {
        self.status().is_some_and(Status::is_answer)
    }
}

/// The fast path of the runner: a row written straight into bytes, equal (read back) to the
/// serde serialisation of [`Record::new`], without building a `Record`. What is known before
/// the run is prepared once: per dataset ([`DatasetFields`]) and per configuration
/// ([`config_prefix`], [`config_suffix`]); per row the puzzle's line and the outcome's
/// numbers are formatted.
/// Durations are written exactly, as seconds with nine decimals.
pub struct RowParts<'a> {
    pub dataset: &'a DatasetFields,
    /// 1-based position of the puzzle in its dataset file.
    pub puzzle_index: u64,
    pub puzzle: &'a Puzzle,
    pub config_prefix: &'a str,
    pub repetition: u64,
    /// [`config_suffix`] of the run's limits and shard.
    pub config_suffix: &'a [u8],
    pub search_tree: bool,
    pub job: u64,
}

/// What the fields `experiment` to `clues` of a dataset's rows share: the escaped
/// `experiment,dataset,` and the `size,box,variant,` fields of the geometry its puzzles share
/// (a file's puzzles share one geometry object, jigsaws aside). The runner writes these
/// fields per row from it ([`DatasetFields::write`]) rather than keeping them per puzzle:
/// formatting a 9x9 puzzle's fields costs about as much as copying them, and 50,000 kept
/// prefixes were 7 MB of memory, whose page faults cost more than the formatting.
pub struct DatasetFields {
    run: Vec<u8>,
    geometry: Option<(Arc<Geometry>, Vec<u8>)>,
}

impl DatasetFields {
    /// The fields of `dataset` of `experiment`; `first` is a puzzle of the dataset (its
    /// geometry's fields are kept, as the one the others most likely share).
    pub fn new(experiment: &str, dataset: &str, first: Option<&Puzzle>) -> DatasetFields {
        let mut run = Vec::new();
        push_field_bytes(&mut run, experiment);
        run.push(b',');
        push_field_bytes(&mut run, dataset);
        run.push(b',');
        let geometry = first.map(|p| {
            let mut fields = Vec::new();
            push_geometry_fields(&mut fields, p.geometry(), &p.variant());
            (p.shared_geometry().clone(), fields)
        });
        DatasetFields { run, geometry }
    }

    /// Appends fields `experiment` to `clues` of the puzzle at 1-based `puzzle_index`, each
    /// followed by a comma: the bytes of [`puzzle_prefix`] (tested). The usual line form is
    /// written without an allocation or a quoting scan (the default alphabet's symbols never
    /// need quotes); any other form goes through [`puzzle_text`].
    pub fn write(&self, out: &mut Vec<u8>, puzzle_index: u64, puzzle: &Puzzle) {
        out.extend_from_slice(&self.run);
        int(out, puzzle_index);
        out.push(b',');
        let g = puzzle.geometry();
        let fits = g.n() * g.n() <= PUZZLE_TEXT_MAX;
        // The line's writer counts the clues as it goes (one pass over the grid).
        let line_clues = if fits {
            crate::puzzle::push_default_line(out, puzzle.givens(), g)
        } else {
            None
        };
        let clues = line_clues.unwrap_or_else(|| {
            push_field_bytes(out, &puzzle_text(puzzle));
            puzzle.clues()
        });
        out.push(b',');
        match &self.geometry {
            Some((shared, fields))
                if Arc::ptr_eq(shared, puzzle.shared_geometry()) && !puzzle.has_cages() =>
            {
                out.extend_from_slice(fields)
            }
            _ => push_geometry_fields(out, g, &puzzle.variant()),
        }
        int(out, clues as u64);
        out.push(b',');
    }
}

/// Fields `experiment` to `clues`, CSV-escaped, each followed by a comma.
pub fn puzzle_prefix(
    experiment: &str,
    dataset: &str,
    puzzle_index: u64,
    puzzle: &Puzzle,
    puzzle_text: &str,
) -> String {
    // The general path, as `Record::new` fills the fields: the reference that
    // [`DatasetFields::write`] is tested against.
    let g = puzzle.geometry();
    let box_shape = g
        .box_shape()
        .map(|(r, c)| format!("{r}x{c}"))
        .unwrap_or_default();
    let mut s = String::new();
    for field in [
        experiment,
        dataset,
        &puzzle_index.to_string(),
        puzzle_text,
        &g.n().to_string(),
        &box_shape,
        &puzzle.variant(),
        &puzzle.clues().to_string(),
    ] {
        push_field(&mut s, field);
        s.push(',');
    }
    s
}

/// Fields `size`, `box` and `variant`, each followed by a comma.
fn push_geometry_fields(out: &mut Vec<u8>, g: &Geometry, variant: &str) {
    int(out, g.n() as u64);
    out.push(b',');
    if let Some((r, c)) = g.box_shape() {
        int(out, r as u64);
        out.push(b'x');
        int(out, c as u64);
    }
    out.push(b',');
    push_field_bytes(out, variant);
    out.push(b',');
}

/// Fields `config` to `givens`, CSV-escaped, each followed by a comma.
pub fn config_prefix(config: &str, spec: &EngineSpec) -> String {
    let options = spec
        .options
        .0
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(";");
    let (encoding, amo, backend, givens) = sat_columns(Some(spec));
    let mut s = String::new();
    for f in [
        config, &spec.name, &options, &encoding, &amo, &backend, &givens,
    ] {
        push_field(&mut s, f);
        s.push(',');
    }
    s
}

/// Fields `time_limit_s` to `shard`, each followed by a comma: what follows the timings in
/// every row of a configuration (and shard), formatted once rather than per row.
pub fn config_suffix(limits: &Limits, shard: &str) -> Vec<u8> {
    let mut out = Vec::new();
    match limits.time_limit {
        Some(t) => secs(&mut out, t),
        None => out.push(b','),
    }
    opt_int(&mut out, limits.node_limit);
    int(&mut out, limits.max_solutions);
    out.push(b',');
    push_field_bytes(&mut out, shard);
    out.push(b',');
    out
}

/// Appends one CSV field, quoted (with doubled quotes) when it holds a comma, a quote or a
/// line break, as the `csv` crate writes it.
fn push_field(s: &mut String, field: &str) {
    if needs_quotes(field) {
        s.push('"');
        s.push_str(&field.replace('"', "\"\""));
        s.push('"');
    } else {
        s.push_str(field);
    }
}

/// Whether a field holds a comma, a quote or a line break (ASCII bytes, which never occur
/// inside a multi-byte UTF-8 character; a byte scan is several times faster than a search
/// for any of four `char`s).
fn needs_quotes(field: &str) -> bool {
    field
        .bytes()
        .any(|b| matches!(b, b',' | b'"' | b'\n' | b'\r'))
}

/// Appends the row of a finished run (with its final newline) to `out`. Numbers are written
/// by hand (`itoa`, and nine zero-padded decimals for the nanoseconds) rather than through
/// `core::fmt`: this runs once per job, and on a fast engine its cost is part of the runner's
/// overhead.
pub fn write_row(out: &mut Vec<u8>, parts: &RowParts<'_>, outcome: &Outcome) {
    parts.dataset.write(out, parts.puzzle_index, parts.puzzle);
    out.extend_from_slice(parts.config_prefix.as_bytes());
    int(out, parts.repetition);
    out.push(b',');
    out.extend_from_slice(outcome.status.as_str().as_bytes());
    out.push(b',');
    int(out, outcome.count);
    out.push(b',');
    write_counts(out, outcome, parts.search_tree);
    secs(out, outcome.build);
    secs(out, outcome.solve);
    secs(out, outcome.build + outcome.solve);
    secs(out, outcome.wall);
    out.extend_from_slice(parts.config_suffix);
    int(out, parts.job);
    out.push(b',');
    if let Some(note) = &outcome.note {
        push_field_bytes(out, note);
    }
    let s = &outcome.stats;
    out.push(b',');
    opt_int(out, s.proof_lemmas);
    opt_int(out, s.proof_bytes);
    if let Some(t) = s.check_s {
        secs(out, std::time::Duration::from_secs_f64(t.max(0.0)));
        out.pop(); // `secs` ends its cell with a comma
    }
    out.push(b'\n');
}

/// Names of the count columns, `nodes` to `ones`, in order (then comes `counters`).
pub const COUNT_COLUMNS: [&str; 14] = [
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
];

/// The count cells of an outcome, in [`COUNT_COLUMNS`] order: `None` for a count the engine
/// does not have. `search_tree` is the engine's [`engines::EngineInfo::search_tree`]: without
/// a search tree (SAT), `nodes`, `guesses` and `backtracks` are not counts of anything. An
/// outcome with no search behind it ([`Outcome::has_counts`]: unsupported, or the engine
/// failed) has no counts at all.
pub fn count_cells(o: &Outcome, search_tree: bool) -> [Option<u64>; 14] {
    if !o.has_counts() {
        return [None; 14];
    }
    let s = &o.stats;
    let tree = |v: u64| search_tree.then_some(v);
    [
        tree(s.nodes),
        tree(s.guesses),
        tree(s.backtracks),
        s.max_live,
        s.updates,
        s.decisions,
        s.conflicts,
        s.propagations,
        s.vars,
        s.clauses,
        s.literals,
        s.items,
        s.options,
        s.ones,
    ]
}

/// Appends the cells `nodes` to `ones` and `counters` (`name=value;...`), each followed by a
/// comma. The one writer of counts, for `run` and `solve --csv`: a count the engine does not
/// have is an empty cell, never 0.
pub fn write_counts(out: &mut Vec<u8>, o: &Outcome, search_tree: bool) {
    for v in count_cells(o, search_tree) {
        opt_int(out, v);
    }
    let s = &o.stats;
    for (i, (k, v)) in s.counters.iter().enumerate() {
        if i > 0 {
            out.push(b';');
        }
        out.extend_from_slice(k.as_bytes());
        out.push(b'=');
        int(out, *v);
    }
    out.push(b',');
}

#[inline]
fn int(out: &mut Vec<u8>, v: u64) {
    // Most numbers of a row are one digit (repetition, solutions, limits, small counts).
    if v < 10 {
        out.push(b'0' + v as u8);
    } else if v < 100 {
        // Clues and most named counters: two bytes from the table, no call.
        let pair = v as usize * 2;
        out.extend_from_slice(&DIGIT_PAIRS[pair..pair + 2]);
    } else {
        out.extend_from_slice(itoa::Buffer::new().format(v).as_bytes());
    }
}

/// `v` and a comma, or only the comma (an empty cell).
#[inline]
fn opt_int(out: &mut Vec<u8>, v: Option<u64>) {
    if let Some(v) = v {
        int(out, v);
    }
    out.push(b',');
}

/// A duration as exact seconds with nine decimals (`0.000012345`), then a comma.
pub fn secs(out: &mut Vec<u8>, d: std::time::Duration) {
    // The cell is built in a fixed array and copied at once (a copy of known length is a few
    // moves, not a call), two decimals per step from a table as itoa does: the runner writes
    // four durations per row, and a division per digit was a tenth of its work per row.
    let mut cell = *b"0.000000000,";
    let mut n = d.subsec_nanos();
    for pos in [9, 7, 5, 3] {
        let pair = (n % 100) as usize * 2;
        n /= 100;
        cell[pos..pos + 2].copy_from_slice(&DIGIT_PAIRS[pair..pair + 2]);
    }
    cell[2] = b'0' + n as u8;
    match d.as_secs() {
        s @ 0..=9 => {
            cell[0] = b'0' + s as u8;
            out.extend_from_slice(&cell);
        }
        s => {
            int(out, s);
            out.extend_from_slice(&cell[1..]);
        }
    }
}

/// `00` to `99`, two bytes each.
const DIGIT_PAIRS: &[u8; 200] = b"\
      0001020304050607080910111213141516171819202122232425262728293031323334353637383940414243444546474849\
      5051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899";

/// [`push_field`] into bytes: one CSV field, quoted when it needs to be (no comma after it).
pub fn push_field_bytes(out: &mut Vec<u8>, field: &str) {
    if needs_quotes(field) {
        out.push(b'"');
        for &b in field.as_bytes() {
            if b == b'"' {
                out.push(b'"');
            }
            out.push(b);
        }
        out.push(b'"');
    } else {
        out.extend_from_slice(field.as_bytes());
    }
}

/// The SAT engine's effective encoding, AMO, backend and givens mode (defaults filled in);
/// empty strings for every other engine. `backend=auto` is batsat in these rows: `run`, the
/// only writer of them, never lets it race ([`engines::sat::set_auto_may_race`]).
fn sat_columns(spec: Option<&EngineSpec>) -> (String, String, String, String) {
    let Some(spec) = spec.filter(|s| s.name == "sat") else {
        return Default::default();
    };
    match engines::sat::Sat::from_options(&spec.options) {
        Ok(sat) => (
            sat.cnf.encoding.to_string(),
            sat.cnf.amo.to_string(),
            engines::sat::without_race(&sat.backend).to_string(),
            sat.cnf.givens_str().to_string(),
        ),
        Err(_) => Default::default(),
    }
}

/// The `puzzle` column of a puzzle: its line form, or `fnv:` plus the 16 hex digits of the
/// 64-bit FNV-1a hash of that text when it is longer than [`PUZZLE_TEXT_MAX`] (or is not a
/// single line). The hash is stable across runs, machines and versions of sudolab as long as
/// the line/grid writer is.
pub fn puzzle_text(puzzle: &Puzzle) -> String {
    let text = write_puzzle(puzzle, OutputFormat::Line, None);
    if text.len() <= PUZZLE_TEXT_MAX && !text.contains('\n') {
        text
    } else {
        format!("fnv:{:016x}", fnv1a(text.as_bytes()))
    }
}

/// 64-bit FNV-1a (Fowler, Noll, Vo): a fixed, documented hash, unlike std's `DefaultHasher`,
/// whose output may change between Rust releases.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// Reads records from CSV files written by the runner (or merged), plain or gzip
/// ([`super::rowfile::open`]), each row checked by [`RowReader`]. Errors name the file and
/// the line (and the field, for a bad cell).
pub fn read_records(paths: &[std::path::PathBuf]) -> anyhow::Result<Vec<Record>> {
    let mut out = Vec::new();
    for path in paths {
        out.extend(read_rows(path)?.into_iter().map(|(record, _)| record));
    }
    Ok(out)
}

/// The records of one file as [`read_records`] reads them, each with the line its row
/// starts on.
pub fn read_rows(path: &std::path::Path) -> anyhow::Result<Vec<(Record, u64)>> {
    let mut out = Vec::new();
    let mut rows = RowReader::new(path, super::rowfile::open(path)?)?;
    while let Some((record, _)) = rows.next_row()? {
        out.push((record, rows.line()));
    }
    Ok(out)
}

/// The columns holding seconds: durations the runner measured, or the time limit it had.
const SECONDS_COLUMNS: [&str; 6] = [
    "build_s",
    "solve_s",
    "cpu_s",
    "wall_s",
    "time_limit_s",
    "check_s",
];

/// Whether `secs` is a number of seconds the runner can have written: every time cell comes
/// from a `Duration`, so anything a `Duration` cannot hold (NaN, infinities, negatives,
/// 2^64 s and more) is a damaged or hand-edited cell. Letting such a value through makes
/// medians and means meaningless and sends chart axes over endless ranges.
fn is_seconds(secs: f64) -> bool {
    secs >= 0.0 && std::time::Duration::try_from_secs_f64(secs).is_ok()
}

/// What a cell of `column` must hold, in words, for messages.
fn expected_cell(column: &str) -> String {
    match column {
        "time_limit_s" | "check_s" => {
            "a finite non-negative number of seconds below 2^64 (or an empty cell)".into()
        }
        c if SECONDS_COLUMNS.contains(&c) => {
            "a finite non-negative number of seconds below 2^64".into()
        }
        "status" => format!("one of {}", Status::ALL.map(Status::as_str).join(", ")),
        "nodes" | "guesses" | "backtracks" | "max_live" | "updates" | "decisions" | "conflicts"
        | "propagations" | "vars" | "clauses" | "literals" | "items" | "options" | "ones"
        | "node_limit" | "proof_lemmas" | "proof_bytes" => {
            "a whole number (or an empty cell)".into()
        }
        "puzzle_index" | "size" | "clues" | "repetition" | "solutions" | "max_solutions"
        | "job" => "a whole number".into(),
        // Text columns fail only on bytes that are not UTF-8.
        _ => "UTF-8 text".into(),
    }
}

impl Record {
    /// The first column (in file order) whose cell parsed but holds a value the runner never
    /// writes: a status not in [`Status::ALL`] (it would be counted as unsolved under a name
    /// no one documented), or a time that is not [`is_seconds`].
    fn invalid_column(&self) -> Option<&'static str> {
        if self.status().is_none() {
            return Some("status");
        }
        let times = [
            Some(self.build_s),
            Some(self.solve_s),
            Some(self.cpu_s),
            Some(self.wall_s),
            self.time_limit_s,
            self.check_s,
        ];
        SECONDS_COLUMNS
            .into_iter()
            .zip(times)
            .find(|(_, t)| t.is_some_and(|t| !is_seconds(t)))
            .map(|(column, _)| column)
    }
}

/// The rows of one run CSV, one at a time, each parsed and checked (`Record::invalid_column`).
/// The one reader of run rows: `summary`, `plot`, `report` ([`read_records`]), `merge` and
/// `run --resume` all go through it, so they accept the same rows and name a bad one the same
/// way: `FILE:LINE:FIELD: column NAME: expected ..., found "..."`, LINE being the line the
/// row starts on and FIELD the 1-based field number.
pub struct RowReader<'p, R> {
    path: &'p std::path::Path,
    reader: csv::Reader<R>,
    headers: csv::ByteRecord,
    row: csv::ByteRecord,
    /// The header ends in `\r\n`. The csv crate ends a record at its `\r` and counts the
    /// line at the `\n`, which it reads with the next record: each row's position (line
    /// and first byte) is then one early, and is corrected by one.
    crlf: bool,
    /// The line the last row read starts on.
    line: u64,
}

impl<'p, R: std::io::Read> RowReader<'p, R> {
    /// Reads the header line of `input`, the text of the file `path` (named in errors).
    pub fn new(path: &'p std::path::Path, input: R) -> anyhow::Result<Self> {
        let mut reader = csv::Reader::from_reader(input);
        let headers = match reader.byte_headers() {
            Ok(h) => h.clone(),
            Err(e) => anyhow::bail!(
                "{}:{}: expected CSV text, found {e}",
                path.display(),
                e.position().map_or(1, |p| p.line())
            ),
        };
        // After the header the reader is on line 2, unless the `\n` of a `\r\n` is unread.
        let at = reader.position();
        let crlf = at.line() == 1 && at.byte() > 0;
        Ok(RowReader {
            path,
            reader,
            headers,
            row: csv::ByteRecord::new(),
            crlf,
            line: 1,
        })
    }

    /// The next record and the byte range of its row in the text (from its first byte to
    /// the next row's), or `None` after the last row.
    pub fn next_row(&mut self) -> anyhow::Result<Option<(Record, std::ops::Range<usize>)>> {
        match self.reader.read_byte_record(&mut self.row) {
            Ok(true) => {}
            Ok(false) => return Ok(None),
            Err(e) => return Err(self.csv_error(&e)),
        }
        // The row's own position, not the reader's: after the read the reader is already on
        // the next line (its position would name a bad row one line late).
        let (line, start) = self.row.position().map_or((1, 0), |p| {
            let late = self.crlf as u64;
            (p.line() + late, (p.byte() + late) as usize)
        });
        self.line = line;
        let end = self.end();
        let start = start.min(end);
        let record = self.parse(line)?;
        Ok(Some((record, start..end)))
    }

    /// Whether a row follows: after an error, whether the bad row was the last one (which
    /// `run --resume` forgives as a torn write).
    pub fn more(&mut self) -> bool {
        matches!(self.reader.read_byte_record(&mut self.row), Ok(true))
    }

    /// The byte offset just past the last row read (with `\r\n` line ends, before its
    /// `\n`).
    pub fn end(&self) -> usize {
        self.reader.position().byte() as usize
    }

    /// The line the last row read starts on (1 before the first row).
    pub fn line(&self) -> u64 {
        self.line
    }

    /// A row the CSV layer refused (a field count unlike the header's, a broken quote).
    fn csv_error(&self, e: &csv::Error) -> anyhow::Error {
        let path = self.path.display();
        let line = e.position().map_or(1, |p| p.line() + self.crlf as u64);
        match e.kind() {
            csv::ErrorKind::UnequalLengths { len, .. } => anyhow::anyhow!(
                "{path}:{line}: expected {} fields like the header, found {len}",
                self.headers.len()
            ),
            _ => anyhow::anyhow!("{path}:{line}: expected CSV text: {e}"),
        }
    }

    /// The current row as a checked record; errors name the row's `line` and the cell.
    fn parse(&self, line: u64) -> anyhow::Result<Record> {
        let path = self.path.display();
        let bad_cell = |i: usize, expected: String| {
            let column = String::from_utf8_lossy(self.headers.get(i).unwrap_or(b"?"));
            let found = String::from_utf8_lossy(self.row.get(i).unwrap_or(b""));
            anyhow::anyhow!(
                "{path}:{line}:{}: column `{column}`: expected {expected}, found {found:?}",
                i + 1
            )
        };
        let record = match self.row.deserialize::<Record>(Some(&self.headers)) {
            Ok(record) => record,
            Err(e) => {
                let (field, detail) = match e.kind() {
                    csv::ErrorKind::Deserialize { err, .. } => (err.field(), err.to_string()),
                    other => (None, format!("{other:?}")),
                };
                return Err(match field {
                    Some(i) => {
                        let i = i as usize;
                        let column = String::from_utf8_lossy(self.headers.get(i).unwrap_or(b""));
                        bad_cell(i, expected_cell(&column))
                    }
                    // A column the record needs is not in the header (serde: "missing
                    // field"): the file is not a run output at all.
                    None => anyhow::anyhow!(
                        "{path}:1: expected the header of a CSV written by `sudolab run` \
                         (columns {}, ...), found {:?}: {detail}",
                        COLUMNS[..3].join(", "),
                        self.headers
                            .iter()
                            .take(6)
                            .map(String::from_utf8_lossy)
                            .collect::<Vec<_>>()
                            .join(","),
                    ),
                });
            }
        };
        match record.invalid_column() {
            None => Ok(record),
            Some(column) => {
                let i = self.headers.iter().position(|h| h == column.as_bytes());
                Err(match i {
                    Some(i) => bad_cell(i, expected_cell(column)),
                    // Unreachable for a row that deserialised (every column is in the
                    // header), but a message beats a panic.
                    None => anyhow::anyhow!(
                        "{path}:{line}: column `{column}`: expected {}",
                        expected_cell(column)
                    ),
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::{read_str, ReadOptions};

    fn puzzle(text: &str) -> Puzzle {
        read_str(text, "t", &ReadOptions::default())
            .unwrap()
            .1
            .remove(0)
            .puzzle
    }

    #[test]
    fn columns_are_the_fields_in_order() {
        let mut w = csv::Writer::from_writer(Vec::new());
        w.serialize(Record::default()).unwrap();
        let text = String::from_utf8(w.into_inner().unwrap()).unwrap();
        assert_eq!(text.lines().next().unwrap(), COLUMNS.join(","));
    }

    #[test]
    fn sat_rows_leave_tree_counts_empty_and_name_the_defaults() {
        let p = puzzle(&"1234341221434321".replace('4', "."));
        let spec: EngineSpec = "sat:amo=sequential".parse().unwrap();
        let limits = Limits::solutions(2);
        let outcome = engines::run(spec.make().unwrap().as_mut(), &p, &limits);
        let key = RunKey {
            spec: Some(&spec),
            config: "s",
            ..RunKey::default()
        };
        let r = Record::new(&key, &p, &puzzle_text(&p), &limits, &outcome);
        assert_eq!((r.nodes, r.guesses, r.backtracks), (None, None, None));
        assert_eq!(r.encoding, "reduced");
        assert_eq!(r.amo, "sequential");
        assert_eq!(r.backend, "batsat");
        assert_eq!(r.givens, "propagated");
        assert!(r.vars.is_some());
        assert_eq!(r.status, "unique");

        let spec: EngineSpec = "human".parse().unwrap();
        let outcome = engines::run(spec.make().unwrap().as_mut(), &p, &limits);
        let key = RunKey {
            spec: Some(&spec),
            ..key
        };
        let r = Record::new(&key, &p, &puzzle_text(&p), &limits, &outcome);
        assert!(r.nodes.is_some());
        assert_eq!(r.encoding, "");
        assert_eq!(r.vars, None);
    }

    /// A row with no search behind it has empty count cells, not zeros that a table or chart
    /// would read as a search of no nodes: an unsupported puzzle (`fast` on a 4x4), and a job
    /// whose engine failed (the runner's error rows, no time spent); an engine's own `error`
    /// after a search keeps its counts.
    #[test]
    fn rows_without_a_search_have_no_counts() {
        let p = puzzle(&"1234341221434321".replace('4', "."));
        let limits = Limits::solutions(2);
        let spec: EngineSpec = "fast".parse().unwrap();
        let outcome = engines::run(spec.make().unwrap().as_mut(), &p, &limits);
        assert_eq!(outcome.status, Status::Unsupported);
        let key = RunKey {
            spec: Some(&spec),
            config: "f",
            ..RunKey::default()
        };
        let r = Record::new(&key, &p, &puzzle_text(&p), &limits, &outcome);
        assert_eq!((r.nodes, r.guesses, r.backtracks), (None, None, None));
        assert_eq!(count_cells(&outcome, true), [None; 14]);

        let mut failed = Outcome::unsupported("engine panicked");
        failed.status = Status::Error;
        assert_eq!(count_cells(&failed, true), [None; 14]);
        failed.solve = std::time::Duration::from_millis(3);
        failed.stats.nodes = 5;
        assert_eq!(count_cells(&failed, true)[0], Some(5));
    }

    /// The runner's fields (written per row from [`DatasetFields`]) are byte for byte the
    /// general prefix: for the line form, for every form that falls back to [`puzzle_text`]
    /// (jigsaw, sides whose digits have no symbol, texts over the length bound), for puzzles
    /// that share the kept geometry and for those that do not (an equal geometry in another
    /// object, another geometry, no kept geometry).
    #[test]
    fn dataset_fields_equal_the_general_prefix() {
        use crate::puzzle::{Geometry, Puzzle};
        let four = puzzle("1.3.341.2.4.4.21");
        let mut cases = vec![
            four.clone(),
            Puzzle::new(four.shared_geometry().clone(), four.givens().to_vec()).unwrap(),
            puzzle("11.............."),
            puzzle(include_str!("../../data/examples/jigsaw-9x9.txt")),
            puzzle(include_str!("../../data/examples/6x6.txt")),
            puzzle(include_str!("../../data/examples/x-9x9.txt")),
        ];
        for (n, r, c) in [(16, 4, 4), (25, 5, 5), (36, 6, 6), (49, 7, 7)] {
            let g = Geometry::boxed(n, r, c).unwrap();
            let mut givens = vec![0u16; n * n];
            for (i, v) in givens.iter_mut().enumerate().step_by(7) {
                *v = (i % n) as u16 + 1;
            }
            cases.push(Puzzle::new(std::sync::Arc::new(g), givens).unwrap());
        }
        for first in [Some(&four), Some(&cases[3]), None] {
            let fields = DatasetFields::new("exp, one", "d\"q", first);
            for p in &cases {
                let mut fast = b"x,".to_vec();
                fields.write(&mut fast, 12, p);
                let general = puzzle_prefix("exp, one", "d\"q", 12, p, &puzzle_text(p));
                assert_eq!(
                    String::from_utf8(fast).unwrap(),
                    format!("x,{general}"),
                    "{}",
                    p.geometry().n()
                );
            }
        }
    }

    /// The runner's fast rows read back as the records `Record::new` makes.
    #[test]
    fn fast_rows_equal_serde_records() {
        let p = puzzle("1.3.341.2.4.4.21");
        let clash = puzzle("11..............");
        let jigsaw = puzzle(include_str!("../../data/examples/jigsaw-9x9.txt"));
        let six = puzzle(include_str!("../../data/examples/6x6.txt"));
        assert!(jigsaw.geometry().box_shape().is_none());
        let limits = Limits {
            time_limit: Some(std::time::Duration::from_millis(1500)),
            node_limit: Some(77),
            ..Limits::solutions(2)
        };
        for (spec, puzzle) in [
            ("human", &p),
            ("sat:backend=batsat,encoding=minimal", &p),
            ("dlx", &clash),
            ("bnb:order=lifo", &p),
            ("dlx", &jigsaw),
            ("human", &six),
        ] {
            let spec: EngineSpec = spec.parse().unwrap();
            let mut outcome = engines::run(spec.make().unwrap().as_mut(), puzzle, &limits);
            outcome.note = Some("a note, with \"quotes\"\nand a line break".into());
            outcome.stats.bump("x", 3);
            let text = puzzle_text(puzzle);
            let key = RunKey {
                experiment: "exp, one",
                dataset: "d",
                puzzle_index: 4,
                config: "my \"config\"",
                spec: Some(&spec),
                repetition: 2,
                shard: "1/3",
                job: 99,
            };
            let want = Record::new(&key, puzzle, &text, &limits, &outcome);
            let mut bytes = COLUMNS.join(",").into_bytes();
            bytes.push(b'\n');
            let parts = RowParts {
                dataset: &DatasetFields::new("exp, one", "d", None),
                puzzle_index: 4,
                puzzle,
                config_prefix: &config_prefix("my \"config\"", &spec),
                repetition: 2,
                config_suffix: &config_suffix(&limits, "1/3"),
                search_tree: engines::find(&spec.name).unwrap().search_tree,
                job: 99,
            };
            write_row(&mut bytes, &parts, &outcome);
            let mut reader = csv::Reader::from_reader(bytes.as_slice());
            let got: Vec<Record> = reader.deserialize().map(Result::unwrap).collect();
            assert_eq!(got.len(), 1);
            let mut got = got.into_iter().next().unwrap();
            for (a, b) in [
                (got.build_s, want.build_s),
                (got.solve_s, want.solve_s),
                (got.cpu_s, want.cpu_s),
                (got.wall_s, want.wall_s),
            ] {
                assert!((a - b).abs() <= 1e-12 * b.max(1.0), "{a} vs {b}");
            }
            (got.build_s, got.solve_s, got.cpu_s, got.wall_s) =
                (want.build_s, want.solve_s, want.cpu_s, want.wall_s);
            assert_eq!(got, want);
        }
    }

    #[test]
    fn durations_are_written_exactly() {
        use std::time::Duration;
        for (d, want) in [
            (Duration::ZERO, "0.000000000,"),
            (Duration::new(0, 23_364), "0.000023364,"),
            (Duration::new(12, 345), "12.000000345,"),
            (Duration::new(7, 999_999_999), "7.999999999,"),
            (
                Duration::new(u64::MAX, 100_000_000),
                "18446744073709551615.100000000,",
            ),
        ] {
            let mut out = Vec::new();
            secs(&mut out, d);
            assert_eq!(String::from_utf8(out).unwrap(), want);
            assert_eq!(format!("{}.{:09},", d.as_secs(), d.subsec_nanos()), want);
        }
    }

    #[test]
    fn big_puzzles_are_hashed_stably() {
        assert_eq!(fnv1a(b""), 0xcbf29ce484222325);
        assert_eq!(fnv1a(b"a"), 0xaf63dc4c8601ec8c);
        let g = std::sync::Arc::new(crate::puzzle::Geometry::square(36).unwrap());
        let text = puzzle_text(&Puzzle::empty(g));
        assert!(text.starts_with("fnv:") && text.len() == 20, "{text}");
    }

    /// A CSV of `rows` (cells by column name over a valid row), as `read_records` sees it.
    fn read_rows(rows: &[&[(&str, &str)]]) -> anyhow::Result<Vec<Record>> {
        let valid = Record {
            status: "unique".into(),
            time_limit_s: Some(0.5),
            note: "a note\nof two lines".into(),
            ..Record::default()
        };
        let mut w = csv::Writer::from_writer(Vec::new());
        w.serialize(&valid).unwrap();
        let text = String::from_utf8(w.into_inner().unwrap()).unwrap();
        let mut r = csv::Reader::from_reader(text.as_bytes());
        let valid: Vec<String> = r
            .records()
            .next()
            .unwrap()
            .unwrap()
            .iter()
            .map(String::from)
            .collect();
        let mut out = csv::Writer::from_writer(Vec::new());
        out.write_record(COLUMNS).unwrap();
        for cells in rows {
            let mut row = valid.clone();
            for (column, cell) in *cells {
                let i = COLUMNS.iter().position(|c| c == column).unwrap();
                row[i] = cell.to_string();
            }
            out.write_record(&row).unwrap();
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.csv");
        std::fs::write(&path, out.into_inner().unwrap()).unwrap();
        read_records(&[path])
    }

    /// Cells that parse as their type but that the runner never writes (times a `Duration`
    /// cannot hold, a status not documented) are refused like unparsable ones, naming the
    /// line the row starts on (rows before hold a two-line note), the field and the column.
    #[test]
    fn impossible_cells_are_refused_naming_the_cell() {
        assert_eq!(read_rows(&[&[], &[]]).unwrap().len(), 2);
        let seconds = "expected a finite non-negative number of seconds below 2^64";
        for (column, cell, expected) in [
            ("cpu_s", "inf", seconds),
            ("cpu_s", "NaN", seconds),
            ("cpu_s", "-1", seconds),
            ("build_s", "1e20", seconds),
            ("solve_s", "", seconds),
            ("wall_s", "-0.5", seconds),
            ("wall_s", "x", seconds),
            ("time_limit_s", "-inf", seconds),
            (
                "status",
                "bogus",
                "expected one of solved, unique, multiple, unsat, node-limit",
            ),
            ("status", "", "expected one of solved"),
            ("job", "x", "expected a whole number, found"),
            ("job", "", "expected a whole number, found"),
            ("nodes", "-3", "expected a whole number (or an empty cell)"),
        ] {
            let err = read_rows(&[&[], &[], &[(column, cell)], &[]])
                .unwrap_err()
                .to_string();
            let field = COLUMNS.iter().position(|c| *c == column).unwrap() + 1;
            let want = format!("r.csv:6:{field}: column `{column}`: ");
            assert!(err.contains(&want), "{err}");
            assert!(err.contains(expected), "{err}");
            assert!(err.ends_with(&format!("found {cell:?}")), "{err}");
        }
        // Extreme but possible times are read: a run of 0 s, or of half a millennium.
        let ok = read_rows(&[&[("cpu_s", "0"), ("wall_s", "1.6e10"), ("time_limit_s", "")]]);
        assert_eq!(ok.unwrap()[0].time_limit_s, None);
    }

    /// The words of [`expected_cell`] agree with what the reader takes: a column whose
    /// message allows an empty cell reads one, and no other column does (text aside).
    #[test]
    fn expected_cells_say_whether_a_cell_may_be_empty() {
        for column in COLUMNS {
            let expected = expected_cell(column);
            let may_be_empty = expected.contains("empty cell") || expected == "UTF-8 text";
            let read = read_rows(&[&[(column, "")]]);
            assert_eq!(read.is_ok(), may_be_empty, "{column}: {expected}: {read:?}");
        }
    }

    #[test]
    fn records_round_trip_through_csv() {
        let r = Record {
            experiment: "e".into(),
            status: "time-limit".into(),
            nodes: Some(7),
            time_limit_s: Some(0.5),
            note: "a, \"quoted\" note".into(),
            ..Record::default()
        };
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.csv");
        let mut w = csv::Writer::from_path(&path).unwrap();
        w.serialize(&r).unwrap();
        w.flush().unwrap();
        drop(w);
        let back = read_records(&[path]).unwrap();
        assert_eq!(back, vec![r]);
    }
}
