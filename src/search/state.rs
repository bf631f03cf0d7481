//! The bookkeeping every search shares: counting nodes against the node limit, checking the
//! clock and the cancel flag cheaply, collecting solutions up to the cap, and timing the build
//! and solve stages. Engines own their algorithm; this owns the limits, so that every engine
//! honours them the same way.

use super::{Deadline, Expiry, Limits, Outcome, Stats, Status, Stop};
use crate::timing::Stopwatch;
use std::time::{Duration, Instant};

/// The clock and cancel flag are read once per this many nodes (a power of two).
const CLOCK_EVERY: u64 = 256;

/// Per-search state: limits, counters, solutions, timing.
pub struct Search<'a> {
    limits: &'a Limits,
    pub stats: Stats,
    solutions: Vec<Vec<u16>>,
    count: u64,
    stop: Option<Stop>,
    deadline: Deadline,
    watch: Stopwatch,
    built: Option<Duration>,
    /// CPU time of other threads working for this search (a SAT portfolio's members),
    /// counted in `build` and in `solve`.
    helpers_build: Duration,
    helpers_solve: Duration,
}

impl<'a> Search<'a> {
    /// Starts the clocks. Call it before building anything so that `build` is measured.
    pub fn new(limits: &'a Limits) -> Self {
        let watch = Stopwatch::start();
        Search {
            limits,
            stats: Stats::default(),
            solutions: Vec::new(),
            count: 0,
            stop: None,
            deadline: limits.deadline_from(Instant::now()),
            watch,
            built: None,
            helpers_build: Duration::ZERO,
            helpers_solve: Duration::ZERO,
        }
    }

    pub fn limits(&self) -> &Limits {
        self.limits
    }

    /// Marks the end of the build stage: CPU time until now is `build`, after it `solve`.
    pub fn built(&mut self) {
        self.built = Some(self.watch.cpu());
    }

    /// Counts one node. Returns `false` when a limit says stop (the reason is recorded and
    /// [`Search::stopped`] is true from then on).
    #[inline]
    pub fn node(&mut self) -> bool {
        self.stats.nodes += 1;
        if let Some(limit) = self.limits.node_limit {
            if self.stats.nodes > limit {
                self.stats.nodes = limit;
                self.stop = Some(Stop::Nodes);
                return false;
            }
        }
        if self.stats.nodes & (CLOCK_EVERY - 1) == 0 {
            return self.check_clock();
        }
        self.stop.is_none()
    }

    /// Checks the deadline and the cancel flag now. Engines call it from loops that do much
    /// work between nodes. Returns `false` when the search must stop.
    pub fn check_clock(&mut self) -> bool {
        if self.stop.is_some() {
            return false;
        }
        match self.deadline.expired() {
            None => true,
            Some(why) => {
                self.stop = Some(match why {
                    Expiry::Cancelled => Stop::Cancelled,
                    Expiry::Time => Stop::Time,
                });
                false
            }
        }
    }

    /// Adds the CPU time that other threads spent on this search (a SAT portfolio's members)
    /// to `build` and `solve`: the thread clock of the search's own thread does not see it.
    pub fn add_helper_cpu(&mut self, build: Duration, solve: Duration) {
        self.helpers_build += build;
        self.helpers_solve += solve;
    }

    /// Records a solution. Returns `false` when the solution cap is reached and the search
    /// must stop.
    pub fn solution(&mut self, grid: &[u16]) -> bool {
        self.count += 1;
        if self.solutions.len() < self.limits.keep_solutions {
            self.solutions.push(grid.to_vec());
        }
        if self.limits.max_solutions != 0 && self.count >= self.limits.max_solutions {
            self.stop = Some(Stop::SolutionCap);
            return false;
        }
        true
    }

    /// Stops the search with `memory-limit` (a live-node queue would pass `max_live`).
    pub fn out_of_memory(&mut self) {
        if self.stop.is_none() {
            self.stop = Some(Stop::Memory);
        }
    }

    /// Whether the search must stop (a limit or the solution cap).
    #[inline]
    pub fn stopped(&self) -> bool {
        self.stop.is_some()
    }

    pub fn stop_reason(&self) -> Option<Stop> {
        self.stop
    }

    /// Solutions found so far.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Ends the search: status from how it stopped, times from the clocks.
    pub fn finish(self) -> Outcome {
        let cpu = self.watch.cpu();
        let build = self.built.unwrap_or(Duration::ZERO);
        Outcome {
            status: Outcome::status_for(self.count, self.stop, self.limits),
            count: self.count,
            solutions: self.solutions,
            stats: self.stats,
            build: build + self.helpers_build,
            solve: cpu.saturating_sub(build) + self.helpers_solve,
            wall: self.watch.wall(),
            note: None,
        }
    }

    /// Ends a search that never started because the givens clash: `unsat`, no nodes.
    pub fn finish_unsat(mut self) -> Outcome {
        self.stop = None;
        self.count = 0;
        self.solutions.clear();
        let mut o = self.finish();
        o.status = Status::Unsat;
        o
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_limit_stops_and_reports() {
        let limits = Limits {
            node_limit: Some(10),
            ..Limits::default()
        };
        let mut s = Search::new(&limits);
        let mut ran = 0;
        while s.node() {
            ran += 1;
        }
        assert_eq!(ran, 10);
        let o = s.finish();
        assert_eq!(o.status, Status::NodeLimit);
        assert_eq!(o.stats.nodes, 10);
    }

    #[test]
    fn solution_cap_and_keep() {
        let limits = Limits {
            max_solutions: 3,
            keep_solutions: 2,
            ..Limits::default()
        };
        let mut s = Search::new(&limits);
        assert!(s.solution(&[1]));
        assert!(s.solution(&[2]));
        assert!(!s.solution(&[3]));
        let o = s.finish();
        assert_eq!(o.status, Status::Multiple);
        assert_eq!(o.count, 3);
        assert_eq!(o.solutions.len(), 2);
    }

    #[test]
    fn time_limit_stops() {
        let limits = Limits {
            time_limit: Some(Duration::from_millis(5)),
            ..Limits::default()
        };
        let mut s = Search::new(&limits);
        let t = Instant::now();
        while s.node() {}
        assert!(t.elapsed() < Duration::from_secs(2));
        assert_eq!(s.finish().status, Status::TimeLimit);
    }
}
