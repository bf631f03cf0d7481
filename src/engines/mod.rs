//! Engines: every way sudolab solves a puzzle, behind one trait.
//!
//! An engine takes a [`Puzzle`] and [`Limits`] and returns an [`Outcome`]: a [`Status`], the
//! solutions found (each checked against the houses before it is reported, see [`run`]) and
//! [`Stats`]. What `nodes` counts is defined per engine, in its module doc and in
//! [`EngineInfo::nodes`]; `guesses` and `backtracks` mean the same thing everywhere:
//!
//! - `guesses`: branch points with two or more alternatives (tdoku's metric);
//! - `backtracks`: dead ends, i.e. nodes at which the search finds no alternative at all (a
//!   cell with no digit allowed, a contradiction after propagation, an item with no option)
//!   and must go back. Failures of whole subtrees are not counted here; engines that track
//!   them report them as a named counter.
//!
//! Adding an engine = one module and one line in [`ENGINES`].

pub mod backtrack;
pub mod binary;
pub mod bitmask;
pub mod bits;
pub mod bnb;
mod candidates;
pub mod dlx;
pub mod fast;
pub mod human;
pub mod sat;
mod search;

pub use search::Search;

use crate::puzzle::{Grid, GridError, Puzzle};
use std::collections::BTreeMap;
use std::fmt;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// What a search may spend. Every engine honours every limit that applies to it.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Stop after this many solutions: 1 = first solution, 2 = prove uniqueness, 0 = all.
    pub max_solutions: u64,
    /// Stop after this many nodes (engine-specific node, see the engine's doc).
    pub node_limit: Option<u64>,
    /// Stop after this much wall time since the search started (checked every few hundred
    /// nodes, so the overshoot is small and the check is cheap).
    pub time_limit: Option<Duration>,
    /// For engines that keep a queue of live nodes (`bnb`): stop with `memory-limit` when the
    /// queue would grow past this many nodes.
    pub max_live: Option<u64>,
    /// Keep at most this many solutions in the outcome; more are counted but not stored.
    pub keep_solutions: usize,
    /// Set from another thread (a watchdog) to stop the search; reported as `time-limit`.
    pub cancel: Option<Arc<AtomicBool>>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_solutions: 2,
            node_limit: None,
            time_limit: None,
            max_live: Some(DEFAULT_MAX_LIVE),
            keep_solutions: 1000,
            cancel: None,
        }
    }
}

/// Default cap on the live-node queue of breadth-first search: with a 9x9 board per node
/// this bounds the queue near 1 GiB of boards at most for the largest grids we accept.
pub const DEFAULT_MAX_LIVE: u64 = 4_000_000;

impl Limits {
    /// Limits that ask for `k` solutions and nothing else.
    pub fn solutions(k: u64) -> Self {
        Limits {
            max_solutions: k,
            ..Limits::default()
        }
    }
}

/// How a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Status {
    /// A solution was found and the search stopped there (max solutions = 1).
    Solved,
    /// The search space was exhausted with exactly one solution.
    Unique,
    /// Two or more solutions (the count is capped by `max_solutions`).
    Multiple,
    /// The search space was exhausted with no solution.
    Unsat,
    NodeLimit,
    TimeLimit,
    MemoryLimit,
    /// The engine cannot handle this geometry or size; the reason is in `Outcome::note`.
    Unsupported,
    /// The engine failed (for instance returned a grid that fails the check); see the note.
    Error,
}

impl Status {
    pub const ALL: [Status; 9] = [
        Status::Solved,
        Status::Unique,
        Status::Multiple,
        Status::Unsat,
        Status::NodeLimit,
        Status::TimeLimit,
        Status::MemoryLimit,
        Status::Unsupported,
        Status::Error,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::Unique => "unique",
            Status::Multiple => "multiple",
            Status::Unsat => "unsat",
            Status::NodeLimit => "node-limit",
            Status::TimeLimit => "time-limit",
            Status::MemoryLimit => "memory-limit",
            Status::Unsupported => "unsupported",
            Status::Error => "error",
        }
    }

    pub fn parse(s: &str) -> Option<Status> {
        Status::ALL.into_iter().find(|st| st.as_str() == s)
    }

    /// Whether the search answered the question it was asked (as opposed to hitting a limit,
    /// being unsupported or failing).
    pub fn is_answer(self) -> bool {
        matches!(
            self,
            Status::Solved | Status::Unique | Status::Multiple | Status::Unsat
        )
    }

    /// Whether a limit stopped the search.
    pub fn is_limit(self) -> bool {
        matches!(
            self,
            Status::NodeLimit | Status::TimeLimit | Status::MemoryLimit
        )
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a search stopped before exhausting its space.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// `max_solutions` solutions were found.
    SolutionCap,
    Nodes,
    Time,
    Memory,
    Cancelled,
}

/// Counters of one search. `nodes`, `guesses` and `backtracks` are filled by every engine
/// (see the module doc); the rest only where the engine has them (`None` = not applicable,
/// which the CSV writes as an empty cell, never as 0).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stats {
    pub nodes: u64,
    pub guesses: u64,
    pub backtracks: u64,
    /// Largest number of live nodes held at once (breadth-first search).
    pub max_live: Option<u64>,
    /// Dancing links: Knuth's `updates` (+1 per item unlinked from the header list, +1 per
    /// option node removed from another item's list).
    pub updates: Option<u64>,
    /// SAT backends that expose them: decisions, conflicts, propagations.
    pub decisions: Option<u64>,
    pub conflicts: Option<u64>,
    pub propagations: Option<u64>,
    /// Size of the CNF actually solved.
    pub vars: Option<u64>,
    pub clauses: Option<u64>,
    pub literals: Option<u64>,
    /// Size of the exact-cover matrix actually solved (items, options, ones = option entries).
    pub items: Option<u64>,
    pub options: Option<u64>,
    pub ones: Option<u64>,
    /// Engine-specific named counts, e.g. `naked_singles`, in a fixed order per engine.
    pub counters: Vec<(&'static str, u64)>,
}

impl Stats {
    /// Adds `by` to the named counter, creating it at the end of the list if needed.
    pub fn bump(&mut self, name: &'static str, by: u64) {
        match self.counters.iter_mut().find(|(k, _)| *k == name) {
            Some((_, v)) => *v += by,
            None => self.counters.push((name, by)),
        }
    }

    pub fn counter(&self, name: &str) -> Option<u64> {
        self.counters
            .iter()
            .find(|(k, _)| *k == name)
            .map(|&(_, v)| v)
    }
}

/// Result of one search.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub status: Status,
    /// Number of solutions found (capped by `max_solutions` unless that is 0).
    pub count: u64,
    /// The first `keep_solutions` solutions, in the order the engine found them.
    pub solutions: Vec<Grid>,
    pub stats: Stats,
    /// Thread CPU time of building the engine's structures for this puzzle.
    pub build: Duration,
    /// Thread CPU time of the search proper.
    pub solve: Duration,
    /// Wall time of build and search together.
    pub wall: Duration,
    /// Why the engine is unsupported or failed, or other remarks.
    pub note: Option<String>,
}

impl Outcome {
    /// An outcome with no search: the engine does not handle this puzzle.
    pub fn unsupported(reason: impl Into<String>) -> Self {
        Outcome {
            status: Status::Unsupported,
            count: 0,
            solutions: Vec::new(),
            stats: Stats::default(),
            build: Duration::ZERO,
            solve: Duration::ZERO,
            wall: Duration::ZERO,
            note: Some(reason.into()),
        }
    }

    /// Status of a search that found `count` solutions and ended for `stop` (`None` = the
    /// space was exhausted).
    pub fn status_for(count: u64, stop: Option<Stop>, limits: &Limits) -> Status {
        match stop {
            None => match count {
                0 => Status::Unsat,
                1 => Status::Unique,
                _ => Status::Multiple,
            },
            Some(Stop::SolutionCap) => {
                if limits.max_solutions == 1 {
                    Status::Solved
                } else {
                    Status::Multiple
                }
            }
            Some(Stop::Nodes) => Status::NodeLimit,
            Some(Stop::Time) | Some(Stop::Cancelled) => Status::TimeLimit,
            Some(Stop::Memory) => Status::MemoryLimit,
        }
    }
}

/// A solver of puzzles. `&mut self` lets an engine keep work across puzzles of one geometry
/// (for example a matrix built once); an engine must give the same answers whatever it has
/// solved before.
pub trait Engine: Send {
    fn solve(&mut self, puzzle: &Puzzle, limits: &Limits) -> Outcome;
}

/// Options of an engine configuration (`order=lifo`, later `encoding=extended`, ...). Each
/// engine reads the keys it knows and rejects the others, so a typo is an error, not a
/// silently ignored knob.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EngineOptions(pub BTreeMap<String, String>);

impl EngineOptions {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn with(mut self, key: &str, value: &str) -> Self {
        self.0.insert(key.to_string(), value.to_string());
        self
    }

    pub fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key).map(String::as_str)
    }

    /// Error naming the first key that is not in `known`.
    pub fn allow_only(&self, engine: &str, known: &[&str]) -> Result<(), String> {
        match self.0.keys().find(|k| !known.contains(&k.as_str())) {
            None => Ok(()),
            Some(k) if known.is_empty() => Err(format!("engine {engine} takes no option ({k})")),
            Some(k) => Err(format!(
                "engine {engine} has no option {k} (it takes: {})",
                known.join(", ")
            )),
        }
    }
}

/// An engine configuration: a registered name plus options, written `name` or
/// `name:key=value,key=value` (e.g. `sat:encoding=minimal,amo=sequential`). Used by
/// `verify`, experiment files and CSV rows, so one string names one configuration everywhere.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EngineSpec {
    pub name: String,
    pub options: EngineOptions,
}

impl EngineSpec {
    pub fn new(name: &str) -> Self {
        EngineSpec {
            name: name.to_string(),
            options: EngineOptions::new(),
        }
    }

    pub fn with(mut self, key: &str, value: &str) -> Self {
        self.options = self.options.with(key, value);
        self
    }

    /// Makes the engine this spec names.
    pub fn make(&self) -> Result<Box<dyn Engine>, String> {
        make(&self.name, &self.options)
    }
}

impl fmt::Display for EngineSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)?;
        for (i, (k, v)) in self.options.0.iter().enumerate() {
            write!(f, "{}{k}={v}", if i == 0 { ':' } else { ',' })?;
        }
        Ok(())
    }
}

impl std::str::FromStr for EngineSpec {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let (name, rest) = s.split_once(':').unwrap_or((s, ""));
        let name = name.trim();
        if name.is_empty() {
            return Err(format!(
                "{s:?}: expected NAME[:KEY=VALUE,...], found no engine name"
            ));
        }
        let mut spec = EngineSpec::new(name);
        for kv in rest.split(',').map(str::trim).filter(|kv| !kv.is_empty()) {
            let (k, v) = kv.split_once('=').ok_or_else(|| {
                format!("{s:?}: expected options KEY=VALUE after `NAME:`, found {kv:?}")
            })?;
            let (k, v) = (k.trim(), v.trim());
            if let Some(old) = spec.options.get(k).filter(|&old| old != v) {
                return Err(format!(
                    "{s:?}: expected one value for option {k}, found {old:?} and {v:?}"
                ));
            }
            spec = spec.with(k, v);
        }
        Ok(spec)
    }
}

/// A registry entry: what the engine is, where it comes from, what it counts, how to make it.
pub struct EngineInfo {
    pub name: &'static str,
    /// One-line description.
    pub summary: &'static str,
    /// The source text the engine follows.
    pub source: &'static str,
    /// What `nodes` counts for this engine.
    pub nodes: &'static str,
    /// What the other counters (guesses, backtracks, engine-specific ones) count.
    pub counters: &'static str,
    /// Largest side the engine accepts (`None` = any side the model accepts).
    pub max_side: Option<usize>,
    /// Whether `nodes`, `guesses` and `backtracks` describe a search tree of this engine. A SAT
    /// solver has none (its work is `decisions`, `conflicts` and `propagations`), so records
    /// leave those three cells empty rather than writing a meaningless 0.
    pub search_tree: bool,
    /// Variants and options, for `sudolab engines`.
    pub capabilities: &'static str,
    pub make: fn(&EngineOptions) -> Result<Box<dyn Engine>, String>,
    /// Option sets besides the default that `verify --engines all` also runs (every encoding,
    /// order, backend ... that must agree with the rest).
    pub variants: fn() -> Vec<EngineOptions>,
}

/// For [`EngineInfo::variants`]: the engine has no variant besides its default.
pub fn no_variants() -> Vec<EngineOptions> {
    Vec::new()
}

/// Every configuration `verify --engines all` runs: each engine with its default options,
/// then each of its variants.
pub fn all_configurations() -> Vec<EngineSpec> {
    let mut specs = Vec::new();
    for info in ENGINES {
        specs.push(EngineSpec::new(info.name));
        for options in (info.variants)() {
            specs.push(EngineSpec {
                name: info.name.to_string(),
                options,
            });
        }
    }
    specs
}

/// Every engine, in the order `sudolab engines` lists them.
pub static ENGINES: &[&EngineInfo] = &[
    &backtrack::INFO,
    &bnb::INFO,
    &bitmask::INFO,
    &human::INFO,
    &binary::INFO,
    &sat::INFO,
    &dlx::INFO,
    &fast::INFO,
];

/// Looks an engine up by name.
pub fn find(name: &str) -> Option<&'static EngineInfo> {
    ENGINES.iter().copied().find(|e| e.name == name)
}

/// Makes the engine `name` with `options`.
pub fn make(name: &str, options: &EngineOptions) -> Result<Box<dyn Engine>, String> {
    let info = find(name).ok_or_else(|| {
        let names: Vec<_> = ENGINES.iter().map(|e| e.name).collect();
        format!("unknown engine {name:?} (known: {})", names.join(", "))
    })?;
    (info.make)(options)
}

/// Runs `engine` on `puzzle` and checks every solution it reports against the houses and the
/// givens. A solution that fails the check turns the outcome into [`Status::Error`] with the
/// reason in the note: a failed check is a bug report, not a result.
pub fn run(engine: &mut dyn Engine, puzzle: &Puzzle, limits: &Limits) -> Outcome {
    let mut outcome = engine.solve(puzzle, limits);
    if let Some(err) = first_bad_solution(puzzle, &outcome.solutions) {
        outcome.status = Status::Error;
        outcome.note = Some(format!("engine returned an invalid solution: {err}"));
    }
    outcome
}

fn first_bad_solution(puzzle: &Puzzle, solutions: &[Grid]) -> Option<GridError> {
    solutions
        .iter()
        .find_map(|s| puzzle.check_solution(s).err())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_names_round_trip() {
        for s in Status::ALL {
            assert_eq!(Status::parse(s.as_str()), Some(s));
        }
    }

    #[test]
    fn status_for_cases() {
        let one = Limits::solutions(1);
        let two = Limits::solutions(2);
        assert_eq!(Outcome::status_for(0, None, &two), Status::Unsat);
        assert_eq!(Outcome::status_for(1, None, &two), Status::Unique);
        assert_eq!(Outcome::status_for(5, None, &two), Status::Multiple);
        assert_eq!(
            Outcome::status_for(1, Some(Stop::SolutionCap), &one),
            Status::Solved
        );
        assert_eq!(
            Outcome::status_for(2, Some(Stop::SolutionCap), &two),
            Status::Multiple
        );
        assert_eq!(
            Outcome::status_for(0, Some(Stop::Cancelled), &two),
            Status::TimeLimit
        );
    }

    #[test]
    fn specs_round_trip() {
        let spec: EngineSpec = "sat:encoding=minimal, amo=sequential".parse().unwrap();
        assert_eq!(spec.name, "sat");
        assert_eq!(spec.options.get("amo"), Some("sequential"));
        assert_eq!(spec.to_string(), "sat:amo=sequential,encoding=minimal");
        assert_eq!(spec.to_string().parse::<EngineSpec>().unwrap(), spec);
        assert_eq!("human".parse::<EngineSpec>().unwrap().to_string(), "human");
        assert!("sat:amo".parse::<EngineSpec>().is_err());
        assert!(":x=1".parse::<EngineSpec>().is_err());
        // The same key twice: the same value is harmless, two values are an error.
        assert!("sat:amo=sequential,amo=sequential"
            .parse::<EngineSpec>()
            .is_ok());
        let e = "sat:amo=sequential,amo=pairwise"
            .parse::<EngineSpec>()
            .unwrap_err();
        assert!(e.contains("one value for option amo"), "{e}");
    }

    #[test]
    fn options_reject_unknown_keys() {
        let o = EngineOptions::new().with("order", "fifo");
        assert!(o.allow_only("bnb", &["order"]).is_ok());
        assert!(o.allow_only("backtrack", &[]).is_err());
    }
}
