//! One CSV row per run: the schema every experiment output, merge, chart and report shares.
//!
//! The columns are a contract (scripts outside the project read them by name); add columns
//! at the end, never rename one. A cell that an engine cannot fill is empty, never 0: the
//! SAT engine has no search tree (`nodes`, `guesses`, `backtracks` empty), only DLX has
//! `updates`, only batsat exposes `decisions`/`conflicts`/`propagations`, and so on.
//! A row with no search behind it (`unsupported`; an `error` whose engine failed) has no
//! counts at all ([`Outcome::has_counts`]).
//!
//! In code the columns are [`COLUMN_TABLE`] (name, kind and cell, in CSV order): the header
//! ([`COLUMNS`]), the count columns ([`COUNT_COLUMNS`], [`count_cells`]), what the reader
//! accepts in a cell ([`super::reader`]), `solve --csv`'s counts and the metrics a chart can
//! draw derive from it. Rows are written by [`super::writer`] and read by [`super::reader`].
//!
//! | column | meaning |
//! |---|---|
//! | `experiment` | the experiment's `name` |
//! | `dataset` | the dataset's `name` (default: the file stem) |
//! | `puzzle_index` | 1-based position of the puzzle in its dataset file |
//! | `puzzle` | the puzzle in line form (jigsaw: givens, a space, the regions), or `fnv:` and a 64-bit FNV-1a hash of its text when that form is longer than [`PUZZLE_TEXT_MAX`]; a puzzle with cages always by the hash of its killer text form |
//! | `size`, `box`, `variant`, `clues` | side N, box shape `RxC` (empty for jigsaw), `classic`/`jigsaw`/`x`/`jigsaw-x`, number of givens |
//! | `config` | the engine configuration's label (default: `engine_options` form, e.g. `sat:encoding=minimal`) |
//! | `engine`, `engine_options` | engine name; its options `k=v;k=v` as configured |
//! | `encoding`, `amo`, `backend`, `givens` | the SAT engine's effective choices (defaults filled in); `amo` as the formula was encoded: `auto` becomes `auto:K`, K the pairwise threshold the formula's size chose (32, or 16 over the memory bound), and stays `auto` when no formula was encoded; empty for other engines |
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
use crate::puzzle::{write_puzzle, OutputFormat, Puzzle};
use crate::search::Stats;
use serde::{Deserialize, Serialize};

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

/// What a column holds, and so what a cell of it may be.
#[derive(Clone, Copy, Debug)]
pub enum ColumnKind {
    /// Text: any UTF-8.
    Text,
    /// A status name ([`Status::ALL`]).
    Status,
    /// A whole number.
    Whole,
    /// A whole number or an empty cell (a limit not set, a certificate not made).
    OptionalWhole,
    /// One of the engine's counts, `nodes` to `ones` ([`count_cells`]): a whole number, or an
    /// empty cell for a count the engine does not have.
    Count(Counter),
    /// Seconds: a finite non-negative number below 2^64 (what a `Duration` holds).
    Seconds,
    /// Seconds or an empty cell.
    OptionalSeconds,
}

/// Where a count column's value comes from in the engine's [`Stats`].
#[derive(Clone, Copy, Debug)]
pub enum Counter {
    /// A count of the search tree, which an engine without one (SAT) does not have.
    Tree(fn(&Stats) -> u64),
    /// A count the engine may have.
    Engine(fn(&Stats) -> Option<u64>),
}

impl Counter {
    /// The count in `stats`, or `None` if the engine does not have it (`search_tree`: the
    /// engine's [`engines::EngineInfo::search_tree`]).
    #[inline]
    pub fn of(self, stats: &Stats, search_tree: bool) -> Option<u64> {
        match self {
            Counter::Tree(f) => search_tree.then(|| f(stats)),
            Counter::Engine(f) => f(stats),
        }
    }
}

/// The value of one cell of a [`Record`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Cell<'a> {
    Text(&'a str),
    Whole(Option<u64>),
    Seconds(Option<f64>),
}

impl Cell<'_> {
    /// The cell as a number: `None` for text and for an empty cell.
    pub fn number(self) -> Option<f64> {
        match self {
            Cell::Text(_) => None,
            Cell::Whole(v) => v.map(|v| v as f64),
            Cell::Seconds(v) => v,
        }
    }
}

/// One column of the run records: its name in the header, what it holds, and its cell of a
/// [`Record`].
#[derive(Clone, Copy, Debug)]
pub struct Column {
    pub name: &'static str,
    pub kind: ColumnKind,
    pub get: for<'a> fn(&'a Record) -> Cell<'a>,
}

/// A [`Column`] of the [`Record`] field of the same name.
macro_rules! column {
    (Text $field:ident) => {
        column!(stringify!($field), ColumnKind::Text, |r| Cell::Text(
            &r.$field
        ))
    };
    (Status $field:ident) => {
        column!(stringify!($field), ColumnKind::Status, |r| Cell::Text(
            &r.$field
        ))
    };
    (Whole $field:ident) => {
        column!(stringify!($field), ColumnKind::Whole, |r| Cell::Whole(
            Some(r.$field)
        ))
    };
    (OptionalWhole $field:ident) => {
        column!(stringify!($field), ColumnKind::OptionalWhole, |r| {
            Cell::Whole(r.$field)
        })
    };
    (Count $counter:ident $field:ident) => {
        column!(
            stringify!($field),
            ColumnKind::Count(Counter::$counter(|s| s.$field)),
            |r| Cell::Whole(r.$field)
        )
    };
    (Seconds $field:ident) => {
        column!(stringify!($field), ColumnKind::Seconds, |r| Cell::Seconds(
            Some(r.$field)
        ))
    };
    (OptionalSeconds $field:ident) => {
        column!(stringify!($field), ColumnKind::OptionalSeconds, |r| {
            Cell::Seconds(r.$field)
        })
    };
    ($name:expr, $kind:expr, $get:expr) => {
        Column {
            name: $name,
            kind: $kind,
            get: $get,
        }
    };
}

/// Every column, in CSV order (the field order of [`Record`]). The header ([`COLUMNS`]), the
/// count columns ([`COUNT_COLUMNS`], [`count_cells`]), what the reader accepts in a cell, and
/// the metrics a chart can draw (`crate::plot`) are all read from here; a new count is a row
/// here, its [`Record`] field and its [`Stats`] field.
pub const COLUMN_TABLE: &[Column] = &[
    column!(Text experiment),
    column!(Text dataset),
    column!(Whole puzzle_index),
    column!(Text puzzle),
    column!(Whole size),
    column!("box", ColumnKind::Text, |r| Cell::Text(&r.box_shape)),
    column!(Text variant),
    column!(Whole clues),
    column!(Text config),
    column!(Text engine),
    column!(Text engine_options),
    column!(Text encoding),
    column!(Text amo),
    column!(Text backend),
    column!(Text givens),
    column!(Whole repetition),
    column!(Status status),
    column!(Whole solutions),
    column!(Count Tree nodes),
    column!(Count Tree guesses),
    column!(Count Tree backtracks),
    column!(Count Engine max_live),
    column!(Count Engine updates),
    column!(Count Engine decisions),
    column!(Count Engine conflicts),
    column!(Count Engine propagations),
    column!(Count Engine vars),
    column!(Count Engine clauses),
    column!(Count Engine literals),
    column!(Count Engine items),
    column!(Count Engine options),
    column!(Count Engine ones),
    column!(Text counters),
    column!(Seconds build_s),
    column!(Seconds solve_s),
    column!(Seconds cpu_s),
    column!(Seconds wall_s),
    column!(OptionalSeconds time_limit_s),
    column!(OptionalWhole node_limit),
    column!(Whole max_solutions),
    column!(Text shard),
    column!(Whole job),
    column!(Text note),
    column!(OptionalWhole proof_lemmas),
    column!(OptionalWhole proof_bytes),
    column!(OptionalSeconds check_s),
];

/// The header, in order (the field names of [`Record`]).
pub const COLUMNS: &[&str] = &COLUMN_NAMES;

const COLUMN_NAMES: [&str; COLUMN_TABLE.len()] = {
    let mut names = [""; COLUMN_TABLE.len()];
    let mut i = 0;
    while i < names.len() {
        names[i] = COLUMN_TABLE[i].name;
        i += 1;
    }
    names
};

/// The column called `name`.
pub const fn column(name: &str) -> Option<&'static Column> {
    let mut i = 0;
    while i < COLUMN_TABLE.len() {
        let c = &COLUMN_TABLE[i];
        let (a, b) = (c.name.as_bytes(), name.as_bytes());
        if a.len() == b.len() {
            let mut k = 0;
            while k < a.len() && a[k] == b[k] {
                k += 1;
            }
            if k == a.len() {
                return Some(c);
            }
        }
        i += 1;
    }
    None
}

/// The number of count columns.
pub const COUNTS: usize = {
    let mut n = 0;
    let mut i = 0;
    while i < COLUMN_TABLE.len() {
        if matches!(COLUMN_TABLE[i].kind, ColumnKind::Count(_)) {
            n += 1;
        }
        i += 1;
    }
    n
};

/// The count columns of [`COLUMN_TABLE`] in order, and where their values come from.
const COUNTERS: [(&str, Counter); COUNTS] = {
    let mut out = [("", Counter::Engine(|_| None)); COUNTS];
    let (mut i, mut n) = (0, 0);
    while i < COLUMN_TABLE.len() {
        if let ColumnKind::Count(counter) = COLUMN_TABLE[i].kind {
            out[n] = (COLUMN_TABLE[i].name, counter);
            n += 1;
        }
        i += 1;
    }
    out
};

/// Names of the count columns, `nodes` to `ones`, in order (then comes `counters`).
pub const COUNT_COLUMNS: [&str; COUNTS] = {
    let mut names = [""; COUNTS];
    let mut i = 0;
    while i < COUNTS {
        names[i] = COUNTERS[i].0;
        i += 1;
    }
    names
};

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
        let (encoding, mut amo, backend, givens) = sat_columns(key.spec);
        if let Some(settled) = s.resolved("amo").filter(|_| !amo.is_empty()) {
            amo = settled.to_string();
        }
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

/// The count cells of an outcome, in [`COUNT_COLUMNS`] order: `None` for a count the engine
/// does not have. `search_tree` is the engine's [`engines::EngineInfo::search_tree`]: without
/// a search tree (SAT), `nodes`, `guesses` and `backtracks` are not counts of anything. An
/// outcome with no search behind it ([`Outcome::has_counts`]: unsupported, or the engine
/// failed) has no counts at all.
pub fn count_cells(o: &Outcome, search_tree: bool) -> [Option<u64>; COUNTS] {
    let mut cells = [None; COUNTS];
    if o.has_counts() {
        for (cell, (_, counter)) in cells.iter_mut().zip(COUNTERS) {
            *cell = counter.of(&o.stats, search_tree);
        }
    }
    cells
}

/// The SAT engine's effective encoding, AMO, backend and givens mode (defaults filled in);
/// empty strings for every other engine. `backend=auto` is batsat in these rows: `run`, the
/// only writer of them, never lets it race ([`engines::sat::set_auto_may_race`]).
pub(super) fn sat_columns(spec: Option<&EngineSpec>) -> (String, String, String, String) {
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
/// single line). A puzzle with cages is always hashed, over its killer text form (givens,
/// regions, cages and sums): the line form holds the givens alone, which most killers do
/// not have. The hash is stable across runs, machines and versions of sudolab as long as
/// the writers are.
pub fn puzzle_text(puzzle: &Puzzle) -> String {
    let form = if puzzle.has_cages() {
        OutputFormat::Killer
    } else {
        OutputFormat::Line
    };
    let text = write_puzzle(puzzle, form, None);
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

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::puzzle::{read_str, ReadOptions};

    /// The first puzzle of `text`.
    pub(in crate::records) fn puzzle(text: &str) -> Puzzle {
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

        // `auto` shows the threshold the formula was encoded with.
        let hard = puzzle(&".".repeat(81));
        for (spec, amo) in [
            ("sat:encoding=minimal", "auto:32"),
            ("sat:incremental=true,encoding=minimal", "auto:32"),
            ("sat:encoding=minimal,amo=product", "product"),
        ] {
            let spec: EngineSpec = spec.parse().unwrap();
            let outcome = engines::run(spec.make().unwrap().as_mut(), &hard, &limits);
            let key = RunKey {
                spec: Some(&spec),
                ..key
            };
            let r = Record::new(&key, &hard, &puzzle_text(&hard), &limits, &outcome);
            assert!(r.vars.is_some(), "{spec}");
            assert_eq!(r.amo, amo, "{spec}");
        }

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

    #[test]
    fn big_puzzles_are_hashed_stably() {
        assert_eq!(fnv1a(b""), 0xcbf29ce484222325);
        assert_eq!(fnv1a(b"a"), 0xaf63dc4c8601ec8c);
        let g = std::sync::Arc::new(crate::puzzle::Geometry::square(36).unwrap());
        let text = puzzle_text(&Puzzle::empty(g));
        assert!(text.starts_with("fnv:") && text.len() == 20, "{text}");
    }

    /// Two killers with the same givens (none) and different cages are told apart.
    #[test]
    fn killers_are_identified_by_their_cages() {
        let g = std::sync::Arc::new(crate::puzzle::Geometry::square(4).unwrap());
        let with = |cages: Vec<(Vec<u32>, u32)>| {
            puzzle_text(&Puzzle::empty(g.clone()).with_cages(cages).unwrap())
        };
        let a = with(vec![(vec![0, 1], 3)]);
        let b = with(vec![(vec![0, 1], 4)]);
        let c = with(vec![(vec![0, 4], 3)]);
        assert!(a.starts_with("fnv:"), "{a}");
        assert!(a != b && a != c && b != c);
        assert_ne!(a, puzzle_text(&Puzzle::empty(g.clone())));
    }

    /// The count columns follow one another, then `counters`: the writer writes them as one
    /// block ([`crate::records::writer::write_counts`]).
    #[test]
    fn count_columns_are_one_block_before_counters() {
        let at = COLUMNS.iter().position(|c| *c == COUNT_COLUMNS[0]).unwrap();
        assert_eq!(COLUMNS[at..at + COUNTS], COUNT_COLUMNS);
        assert_eq!(COLUMNS[at + COUNTS], "counters");
        assert_eq!(COUNT_COLUMNS.first(), Some(&"nodes"));
        assert_eq!(COUNT_COLUMNS.last(), Some(&"ones"));
    }

    /// A record's count cells are the outcome's counts of the same name: every count of the
    /// stats distinct, each column's cell (by the table's getter) is its counter's value.
    #[test]
    fn count_cells_land_in_their_columns() {
        let p = puzzle("1.3.341.2.4.4.21");
        let spec: EngineSpec = "human".parse().unwrap();
        let mut outcome = Outcome::unsupported("");
        outcome.status = Status::Unique;
        let s = &mut outcome.stats;
        (s.nodes, s.guesses, s.backtracks) = (1, 2, 3);
        let counts = [
            &mut s.max_live,
            &mut s.updates,
            &mut s.decisions,
            &mut s.conflicts,
            &mut s.propagations,
            &mut s.vars,
            &mut s.clauses,
            &mut s.literals,
            &mut s.items,
            &mut s.options,
            &mut s.ones,
        ];
        for (v, value) in counts.into_iter().zip(4..) {
            *v = Some(value);
        }
        let key = RunKey {
            spec: Some(&spec),
            ..RunKey::default()
        };
        let r = Record::new(&key, &p, "", &Limits::solutions(2), &outcome);
        let cells = count_cells(&outcome, true);
        let mut seen = Vec::new();
        for (name, cell) in COUNT_COLUMNS.iter().zip(cells) {
            let c = column(name).unwrap();
            let ColumnKind::Count(counter) = c.kind else {
                panic!("{name}")
            };
            assert_eq!(cell, counter.of(&outcome.stats, true), "{name}");
            assert_eq!((c.get)(&r), Cell::Whole(cell), "{name}");
            seen.push(cell.unwrap());
        }
        seen.sort_unstable();
        assert_eq!(seen, (1..=COUNTS as u64).collect::<Vec<_>>());
    }

    /// Every committed result file has this version's header, or the header of the runs made
    /// before the certification columns (`proof_lemmas`, `proof_bytes`, `check_s`), which ends
    /// at `note` and is still read.
    #[test]
    fn committed_results_have_the_header() {
        use std::io::{BufRead, BufReader};
        let header = COLUMNS.join(",");
        let note = COLUMNS.iter().position(|c| *c == "note").unwrap();
        let before_proofs = COLUMNS[..=note].join(",");
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("results");
        let mut checked = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if !(name.ends_with(".csv") || name.ends_with(".csv.gz")) {
                continue;
            }
            let mut line = String::new();
            BufReader::new(crate::records::rowfile::open(&path).unwrap())
                .read_line(&mut line)
                .unwrap();
            let line = line.trim_end_matches(['\n', '\r']);
            assert!(
                line == header || line == before_proofs,
                "{name}: the header is not this version's:\n{line}"
            );
            checked += 1;
        }
        assert!(checked > 0, "no result files in {}", dir.display());
    }
}
