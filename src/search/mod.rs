//! What every search shares, engines and exact cover alike: the [`Limits`] it may spend, how
//! it ended ([`Status`], [`Stop`]), its counters ([`Stats`]), its result ([`Outcome`]), and the
//! per-search bookkeeping that enforces the limits ([`Search`]). It sits below both
//! [`crate::engines`] and [`crate::exact_cover`], so neither has to import the other for it.
//!
//! The time limit and the cancel flag of [`Limits`] become a [`Deadline`] when the search
//! starts ([`Limits::deadline_from`]); the same type stops the SAT backends, the encoders,
//! the proof checkers and the generator (see [`deadline`]).

pub mod deadline;
mod state;

pub use deadline::{Deadline, Expiry};
pub use state::Search;

use crate::puzzle::Grid;
use std::fmt;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

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
    /// For engines that keep boards (`bnb`'s queue of live nodes, the saved boards of `human`
    /// and `binary`): stop with `memory-limit` when they would grow past this many.
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
    /// The deadline of a search started at `start`: its time limit from then, its cancel flag.
    pub fn deadline_from(&self, start: Instant) -> Deadline {
        Deadline::after(start, self.time_limit, self.cancel.clone())
    }

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
    /// A certified answer (`sat` with `certify=true`): lemmas of its DRAT proof (the final
    /// empty clause included) and its bytes; `None` for a verdict without a proof.
    pub proof_lemmas: Option<u64>,
    pub proof_bytes: Option<u64>,
    /// CPU seconds of the certificate's check (not part of the search's time).
    pub check_s: Option<f64>,
    /// Options an engine settles per puzzle, as (option, value): the sat engine's `amo`,
    /// whose `auto` takes its pairwise threshold from the formula's size (`auto:32`, or
    /// `auto:16` for a formula over the memory bound). A run's record shows these in place
    /// of the configured value.
    pub resolved: Vec<(&'static str, String)>,
}

impl Stats {
    /// Adds `by` to the named counter, creating it at the end of the list if needed.
    pub fn bump(&mut self, name: &'static str, by: u64) {
        match self.counters.iter_mut().find(|(k, _)| *k == name) {
            Some((_, v)) => *v += by,
            None => self.counters.push((name, by)),
        }
    }

    /// The value an engine settled for option `name` on this puzzle ([`Stats::resolved`]).
    pub fn resolved(&self, name: &str) -> Option<&str> {
        self.resolved
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.as_str())
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
    /// Whether the counters in [`Outcome::stats`] count a search. False for an unsupported
    /// puzzle (no search ran) and for an `error` with no build or solve time, the outcome the
    /// runner writes when the engine could not be made or panicked (its counts went with it).
    /// Rows write such counts as empty cells, never 0, and summaries leave them out.
    pub fn has_counts(&self) -> bool {
        match self.status {
            Status::Unsupported => false,
            Status::Error => !(self.build.is_zero() && self.solve.is_zero()),
            _ => true,
        }
    }

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
}
