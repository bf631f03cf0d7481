//! `portfolio[:A+B+...]`: embedded backends racing on one formula, one thread each.
//!
//! Source: C. P. Gomes and B. Selman, "Algorithm portfolios", Artificial Intelligence 126
//! (2001): where a solver's run time is heavy-tailed, running different solvers side by side
//! and keeping the first answer cuts the tail; Y. Hamadi, S. Jabbour and L. Sais, "ManySAT: a
//! parallel SAT solver", JSAT 6 (2009), for racing CDCL solvers on the cores of one machine
//! (without ManySAT's clause sharing here). The large published grids show such a tail:
//! rk-64x64 takes batsat 6,329 conflicts and 0.4-0.6 s, CaDiCaL 0.2-0.3 s, while rk-81x81 is the
//! other way round (docs/engines.md, "Defaults of the sat engine").
//!
//! The race is run once. Clauses added before the first `solve` call are kept in one flat
//! buffer; that call starts each member on a thread of its own, where it loads the buffer
//! (in parallel: CaDiCaL loads a clause several times slower than batsat) and searches with
//! the caller's deadline and a race flag as cancel flag. The first member to end with an
//! answer (sat or unsat) or with a limit of its own (time, conflict or decision limit) claims
//! the win and raises the race flag, which stops the others; each loser is freed on its own
//! thread beside the winner's later calls, and [`SatBackend::settle`] (or dropping the
//! portfolio) joins every thread, so none outlives the puzzle. The winner alone takes the
//! later clauses (blocking clauses) and calls: its learned clauses are the ones that found
//! the answer, and a loser would be made to start again for nothing. The caller's cancel flag
//! is read every [`CANCEL_POLL`] during the race and passed on through the race flag; a member
//! stopped by the race flag ends with `Interrupted(Cancelled)`, which wins nothing. A race that
//! no member decides (the caller cancelled, or every member failed) frees them all: later
//! calls answer an error, and [`SatBackend::survives_interrupts`] says so.
//!
//! Counters: decisions, conflicts and propagations are the sums over the members that expose
//! them, losers included (with batsat and CaDiCaL: batsat's, won or lost), so the sat engine's
//! `--node-limit` counts batsat's decisions. `thread_cpu_us` is the CPU time of every member's
//! thread in the race (loading, search, a loser's freeing) and `thread_load_cpu_us` the part of
//! it that loaded clauses, which the sat engine adds to `build_s` (the rest to `solve_s`): a
//! portfolio's CPU time is the sum over its members, not the wall time of the race. `winner` is
//! the winning member's position in the spec (from 1). The conflict limit goes to every member,
//! the decision limit to the members that count decisions (every member if none does); every
//! member is told to expect limits when it is made (varisat's interrupt costs it about 1.24x,
//! docs/engines.md).
//!
//! Measured (docs/engines.md, "backend=auto"): on 2 cores the race takes a little more than
//! the faster member alone (the members share memory bandwidth, and a loser's teardown is
//! waited for), and cuts the slow tail of the large grids; the sat engine's `backend=auto`
//! races batsat and CaDiCaL on grids of side 64 or more.

use super::{BackendError, BackendStats, Deadline, Interrupt, SatAnswer, SatBackend};
use crate::timing::thread_cpu_time;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::thread::JoinHandle;
use std::time::Duration;

/// Members of a bare `portfolio`: the two fastest embedded solvers on the large grids, each
/// the faster on some of them.
pub const DEFAULT_MEMBERS: &str = "batsat+cadical";

/// How often the caller's cancel flag is read during the race.
pub const CANCEL_POLL: Duration = Duration::from_millis(2);

/// Clauses a member loads between two readings of the race flag and the deadline.
const LOAD_CLAUSES_PER_POLL: usize = 1 << 14;

pub struct Portfolio {
    /// The members racing (all of them before the race), or after the race the winner alone;
    /// none after a race that no member decided.
    members: Vec<Box<dyn SatBackend>>,
    /// Names of the members as made, and which one won (an index into `names`).
    names: Vec<String>,
    winner: Option<usize>,
    /// Whether the race was run (with or without a winner).
    raced: bool,
    /// Before the race: the clauses, loaded by every member on its own thread.
    pending: Pending,
    /// After the race, until [`SatBackend::settle`]: the losers still stopping.
    stragglers: Option<Stragglers>,
    /// Counters of the members freed after the race (the losers), and the CPU time of every
    /// member's thread in the race (loading, searching and, for a loser, being freed), with
    /// the part of it spent loading.
    retired: BackendStats,
    race_cpu: Duration,
    load_cpu: Duration,
}

/// Clauses kept to be loaded later (before a race, by every member; by cube-and-conquer's
/// workers): their literals one after the other, where each ends, and the variables declared.
#[derive(Default)]
pub(super) struct Pending {
    pub(super) lits: Vec<i32>,
    pub(super) ends: Vec<usize>,
    pub(super) vars: u32,
}

/// What a member's thread hands back when it ends.
struct Ended {
    member: usize,
    result: Result<SatAnswer, BackendError>,
    /// The member itself, unless it lost (a loser is freed on its own thread).
    backend: Option<Box<dyn SatBackend>>,
    stats: BackendStats,
    /// CPU time of the thread, and the part of it spent loading the clauses.
    cpu: Duration,
    load_cpu: Duration,
}

/// The member threads of a race after its answer: the losers stop (they saw the race flag)
/// and free their solvers while the winner goes on; [`Stragglers::join`] waits for them.
struct Stragglers {
    rx: mpsc::Receiver<Ended>,
    /// Threads whose `Ended` is not received yet.
    left: usize,
    handles: Vec<JoinHandle<()>>,
}

impl Stragglers {
    /// Receives what the remaining threads hand back and joins every thread.
    fn join(self) -> Vec<Ended> {
        let ended: Vec<Ended> = self.rx.iter().take(self.left).collect();
        for h in self.handles {
            // a member that panicked has no result to give; its panic was reported already
            let _ = h.join();
        }
        ended
    }
}

/// No member has won yet (the value of the shared winner slot).
const NO_WINNER: usize = usize::MAX;

impl Portfolio {
    /// `spec` is `A+B+...`, each a backend name of [`super::make_backend`] other than
    /// `ext:` (an external solver runs as its own process already) and `portfolio`, also when
    /// renamed (`renamed:SEED:BACKEND`).
    pub fn from_spec(spec: &str) -> Result<Self, BackendError> {
        let mut members = Vec::new();
        for name in spec.split('+') {
            let name = name.trim();
            // What a member renames (`renamed:SEED:BACKEND`) must be a member too.
            let base = super::renamed_base(name);
            if base.is_empty() || base.starts_with("ext:") || base.starts_with("portfolio") {
                return Err(BackendError::PortfolioMember {
                    name: name.to_string(),
                });
            }
            let mut m = super::make_backend(name)?;
            // A member is always stopped by the race flag when it loses, so one that must be
            // told of limits before its first clause (varisat) is told now.
            m.expect_limits();
            members.push(m);
        }
        if members.len() < 2 {
            return Err(BackendError::PortfolioTooSmall {
                spec: spec.to_string(),
            });
        }
        Ok(Portfolio {
            names: members.iter().map(|m| m.name()).collect(),
            members,
            winner: None,
            raced: false,
            pending: Pending::default(),
            stragglers: None,
            retired: BackendStats::default(),
            race_cpu: Duration::ZERO,
            load_cpu: Duration::ZERO,
        })
    }

    /// The race: every member loads the pending clauses and solves on its own thread; the
    /// first to decide claims the winner slot and raises the race flag, which stops the others.
    /// Returns as soon as the winner's answer is in; the losers are left to stop and free
    /// their solvers beside the winner's later calls, and are joined by `settle`.
    fn race(&mut self, assumptions: &[i32], budget: &Deadline) -> Result<SatAnswer, BackendError> {
        self.raced = true;
        let race = Arc::new(AtomicBool::new(false));
        let member_budget = Deadline {
            at: budget.at,
            cancel: Some(race.clone()),
        };
        let won = Arc::new(AtomicUsize::new(NO_WINNER));
        let pending = Arc::new(std::mem::take(&mut self.pending));
        let (tx, rx) = mpsc::channel();
        let mut handles = Vec::new();
        for (i, mut m) in std::mem::take(&mut self.members).into_iter().enumerate() {
            let (tx, b, race, won) = (tx.clone(), member_budget.clone(), race.clone(), won.clone());
            let (pending, assumptions) = (pending.clone(), assumptions.to_vec());
            handles.push(std::thread::spawn(move || {
                let cpu = thread_cpu_time();
                let loaded = load(&mut *m, &pending, &b);
                drop(pending);
                let load_cpu = thread_cpu_time().saturating_sub(cpu);
                let result = match loaded {
                    Some(why) => Ok(SatAnswer::Interrupted(why)),
                    None => m.solve(&assumptions, &b),
                };
                let first = decides(&result)
                    && won
                        .compare_exchange(NO_WINNER, i, Ordering::AcqRel, Ordering::Acquire)
                        .is_ok();
                if first {
                    race.store(true, Ordering::Release);
                }
                let stats = m.stats();
                // A loser is freed here, beside the winner; a member of a race that nobody
                // won is freed by the portfolio (it holds a partial formula).
                let lost = !first && won.load(Ordering::Acquire) != NO_WINNER;
                let backend = if lost {
                    drop(m);
                    None
                } else {
                    Some(m)
                };
                let cpu = thread_cpu_time().saturating_sub(cpu);
                let _ = tx.send(Ended {
                    member: i,
                    result,
                    backend,
                    stats,
                    cpu,
                    load_cpu,
                });
            }));
        }
        drop(tx);
        let k = handles.len();
        let mut ended = Vec::new();
        // Until the winner's answer (or every member's end): the caller's cancel flag reaches
        // the members through the race flag.
        let mut answer = None;
        while answer.is_none() && ended.len() < k {
            let got = match &budget.cancel {
                Some(c) => match rx.recv_timeout(CANCEL_POLL) {
                    Ok(e) => Some(e),
                    Err(mpsc::RecvTimeoutError::Timeout) => {
                        if c.load(Ordering::Relaxed) {
                            race.store(true, Ordering::Release);
                        }
                        continue;
                    }
                    Err(mpsc::RecvTimeoutError::Disconnected) => None,
                },
                None => rx.recv().ok(),
            };
            let Some(mut e) = got else {
                break; // every thread ended (a panic among them)
            };
            if e.member == won.load(Ordering::Acquire) && e.backend.is_some() {
                self.members
                    .push(e.backend.take().expect("the winner is kept"));
                self.winner = Some(e.member);
                answer = Some(std::mem::replace(&mut e.result, Ok(SatAnswer::Unsat)));
            }
            ended.push(e);
        }
        let left = k - ended.len();
        self.stragglers = Some(Stragglers { rx, left, handles });
        let error = self.retire(ended);
        if let Some(a) = answer {
            return a;
        }
        // No member decided: all were stopped (the caller's flag or deadline), or failed.
        self.settle();
        match error {
            Some(e) => Err(e),
            None => Ok(SatAnswer::Interrupted(
                budget
                    .expired()
                    .map(Interrupt::from)
                    .unwrap_or(Interrupt::Cancelled),
            )),
        }
    }

    /// Books the threads that ended: their CPU time, and the counters of every member but the
    /// winner (whose counters it keeps); a member not freed on its thread is freed here.
    /// Returns the first error a member answered.
    fn retire(&mut self, ended: Vec<Ended>) -> Option<BackendError> {
        let mut error = None;
        for e in ended {
            self.race_cpu += e.cpu;
            self.load_cpu += e.load_cpu;
            if Some(e.member) != self.winner {
                self.retired = add_stats(self.retired, e.stats);
                if let Err(why) = e.result {
                    error.get_or_insert(why);
                }
            }
        }
        error
    }
}

/// Loads the clauses `pending` into `m`, reading `budget` every [`LOAD_CLAUSES_PER_POLL`]
/// clauses; `Some(why)` if it was spent first.
pub(super) fn load(
    m: &mut dyn SatBackend,
    pending: &Pending,
    budget: &Deadline,
) -> Option<Interrupt> {
    m.reserve_vars(pending.vars);
    let (lits, ends) = (&pending.lits, &pending.ends);
    let mut start = 0;
    for (i, &end) in ends.iter().enumerate() {
        if i % LOAD_CLAUSES_PER_POLL == LOAD_CLAUSES_PER_POLL - 1 {
            if let Some(why) = budget.expired().map(Interrupt::from) {
                return Some(why);
            }
        }
        m.add_clause(&lits[start..end]);
        start = end;
    }
    None
}

/// Whether a member's result decides the race: anything but being stopped by the race flag
/// (or by the caller's cancel flag, which goes through it) or failing.
fn decides(r: &Result<SatAnswer, BackendError>) -> bool {
    !matches!(r, Ok(SatAnswer::Interrupted(Interrupt::Cancelled)) | Err(_))
}

/// Counters summed where either side has them.
pub(super) fn add_stats(a: BackendStats, b: BackendStats) -> BackendStats {
    let add = |x: Option<u64>, y: Option<u64>| match (x, y) {
        (None, None) => None,
        (x, y) => Some(x.unwrap_or(0) + y.unwrap_or(0)),
    };
    BackendStats {
        decisions: add(a.decisions, b.decisions),
        conflicts: add(a.conflicts, b.conflicts),
        propagations: add(a.propagations, b.propagations),
        learned: add(a.learned, b.learned),
        child_cpu_us: add(a.child_cpu_us, b.child_cpu_us),
        thread_cpu_us: add(a.thread_cpu_us, b.thread_cpu_us),
        thread_load_cpu_us: add(a.thread_load_cpu_us, b.thread_load_cpu_us),
        winner: None,
        cubes: add(a.cubes, b.cubes),
    }
}

impl SatBackend for Portfolio {
    fn name(&self) -> String {
        format!("portfolio:{}", self.names.join("+"))
    }

    fn reserve_vars(&mut self, n: u32) {
        match self.members.first_mut() {
            Some(m) if self.raced => m.reserve_vars(n),
            _ => self.pending.vars = self.pending.vars.max(n),
        }
    }

    fn add_clause(&mut self, lits: &[i32]) {
        if !self.raced {
            self.pending.lits.extend_from_slice(lits);
            self.pending.ends.push(self.pending.lits.len());
        } else if let Some(m) = self.members.first_mut() {
            m.add_clause(lits);
        }
    }

    fn solve(&mut self, assumptions: &[i32], budget: &Deadline) -> Result<SatAnswer, BackendError> {
        if let Some(why) = budget.expired().map(Interrupt::from) {
            return Ok(SatAnswer::Interrupted(why));
        }
        if !self.raced {
            return self.race(assumptions, budget);
        }
        match self.members.first_mut() {
            Some(m) => m.solve(assumptions, budget),
            None => Err(BackendError::PortfolioGone),
        }
    }

    /// The members' counters summed (losers included once [`SatBackend::settle`] has joined
    /// them), the race's thread CPU (and the part of it that loaded clauses), the winner.
    fn stats(&self) -> BackendStats {
        let mut s = self
            .members
            .iter()
            .fold(self.retired, |acc, m| add_stats(acc, m.stats()));
        s.thread_cpu_us = Some(self.race_cpu.as_micros() as u64);
        s.thread_load_cpu_us = Some(self.load_cpu.as_micros() as u64);
        s.winner = Some(self.winner.map_or(0, |w| w as u64 + 1));
        s
    }

    fn set_conflict_limit(&mut self, limit: Option<u64>) {
        for m in &mut self.members {
            m.set_conflict_limit(limit);
        }
    }

    /// The cap goes to the members that count decisions (batsat), whose decisions are the
    /// portfolio's: a member that stops at a cap it does not count (CaDiCaL) would end the race
    /// at a node limit that the row's node count does not show. With no counting member it
    /// goes to every member.
    fn set_decision_limit(&mut self, limit: Option<u64>) -> bool {
        let counts: Vec<bool> = self
            .members
            .iter()
            .map(|m| m.stats().decisions.is_some())
            .collect();
        let counting = counts.contains(&true);
        let mut applied = false;
        for (m, counts) in self.members.iter_mut().zip(counts) {
            if counts || !counting {
                applied |= m.set_decision_limit(limit);
            }
        }
        applied
    }

    fn prefer(&mut self, lits: &[i32]) {
        for m in &mut self.members {
            m.prefer(lits);
        }
    }

    /// The losers are freed at the end of the race (on their threads, side by side) and the
    /// winner after the search: reserve the sum, as if one after the other.
    fn teardown_ns_per_clause(&self) -> f64 {
        self.members
            .iter()
            .map(|m| m.teardown_ns_per_clause())
            .sum()
    }

    /// After a race with a winner, whether the winner survives; before the race, whether every
    /// member does; after a race that nobody won, no (its members held partial formulas).
    /// Waits for the losers of the race to stop and free their solvers, and books their CPU.
    fn settle(&mut self) {
        if let Some(s) = self.stragglers.take() {
            let ended = s.join();
            self.retire(ended);
        }
    }

    fn survives_interrupts(&self) -> bool {
        match self.winner {
            Some(_) => self.members[0].survives_interrupts(),
            None => !self.raced && self.members.iter().all(|m| m.survives_interrupts()),
        }
    }
}

/// No member thread outlives the portfolio.
impl Drop for Portfolio {
    fn drop(&mut self) {
        self.settle();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cnf::backend::{pigeons, stops_at_a_300ms_deadline};

    /// A budget whose cancel flag a thread sets after `wait` (join the thread after use).
    fn cancelled_after(wait: Duration) -> (Deadline, std::thread::JoinHandle<()>) {
        let cancel = Arc::new(AtomicBool::new(false));
        let flag = cancel.clone();
        let setter = std::thread::spawn(move || {
            std::thread::sleep(wait);
            flag.store(true, Ordering::Relaxed);
        });
        let budget = Deadline {
            at: None,
            cancel: Some(cancel),
        };
        (budget, setter)
    }

    #[test]
    fn members_answer_and_are_counted() {
        let mut p = Portfolio::from_spec(DEFAULT_MEMBERS).unwrap();
        p.add_clause(&[1, 2]);
        p.add_clause(&[-1]);
        let r = p.solve(&[], &Deadline::default()).unwrap();
        let SatAnswer::Sat(m) = r else {
            panic!("{r:?}")
        };
        assert!(m.is_true(2) && m.is_true(-1));
        p.add_clause(&[-2]);
        assert_eq!(
            p.solve(&[], &Deadline::default()).unwrap(),
            SatAnswer::Unsat
        );
        assert_eq!(p.name(), "portfolio:batsat+cadical");
        // a loser's counters are in once it has stopped and been joined
        p.settle();
        let s = p.stats();
        assert!(matches!(s.winner, Some(1 | 2)), "{s:?}");
        // batsat's counters are the portfolio's, won or lost; CaDiCaL exposes none
        assert!(s.conflicts.is_some() && s.thread_cpu_us > Some(0), "{s:?}");
    }

    #[test]
    fn the_deadline_and_the_callers_cancel_flag_stop_every_member() {
        let mut p = Portfolio::from_spec(DEFAULT_MEMBERS).unwrap();
        pigeons(&mut p, 12);
        stops_at_a_300ms_deadline(&mut p);
        let (budget, setter) = cancelled_after(Duration::from_millis(200));
        let start = std::time::Instant::now();
        assert_eq!(
            p.solve(&[], &budget).unwrap(),
            SatAnswer::Interrupted(Interrupt::Cancelled)
        );
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "{:?}",
            start.elapsed()
        );
        setter.join().unwrap();
        assert!(p.survives_interrupts());
    }

    /// A race that the caller's cancel flag ends before any member decides leaves no member:
    /// the portfolio says it cannot go on, and a later call is an error, not a wrong answer.
    #[test]
    fn a_race_nobody_wins_frees_every_member() {
        let mut p = Portfolio::from_spec("batsat+batsat").unwrap();
        pigeons(&mut p, 12);
        assert!(p.survives_interrupts());
        let (budget, setter) = cancelled_after(Duration::from_millis(100));
        assert_eq!(
            p.solve(&[], &budget).unwrap(),
            SatAnswer::Interrupted(Interrupt::Cancelled)
        );
        setter.join().unwrap();
        assert!(!p.survives_interrupts());
        assert_eq!(p.stats().winner, Some(0));
        assert!(p.solve(&[], &Deadline::default()).is_err());
    }

    #[test]
    fn bad_members_are_refused() {
        for spec in [
            "batsat",
            "batsat+",
            "batsat+ext:/bin/true",
            "batsat+portfolio",
            "x+y",
        ] {
            assert!(Portfolio::from_spec(spec).is_err(), "{spec}");
        }
        assert!(Portfolio::from_spec("batsat+varisat+cadical:sat").is_ok());
    }
}
