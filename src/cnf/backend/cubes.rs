//! `cubes:DEPTH:BACKEND`: cube-and-conquer. A lookahead splits the formula into at most
//! `2^DEPTH` cubes (conjunctions of literals); worker threads, one per available core, each
//! with its own BACKEND holding the whole formula, take the cubes one after the other and
//! solve each as assumptions.
//!
//! Source: M. J. H. Heule, O. Kullmann, S. Wieringa and A. Biere, "Cube and conquer: guiding
//! CDCL SAT solvers by lookaheads", HVC 2011 (lookahead cubes, then CDCL per cube); the
//! lookahead follows march (M. Heule, M. Dufour, J. van Zwieten and H. van Maaren,
//! "March_eq", SAT 2004) in its core only: a preselection of variables, unit propagation of
//! both literals of each, failed literals asserted, the variable with the largest product of
//! the two sides' implied literals chosen.
//!
//! **The lookahead** (on the caller's thread) works on its own copy of the clauses given
//! before the first `solve` call, with two watched literals per clause. At a node of the cube
//! tree (the call's assumptions and the cube's literals assigned and propagated):
//! - *preselection*: at the root of the tree every free variable gets
//!   `w(x) w(-x) + w(x) + w(-x)`, where `w(l)` sums `2^-(k-2)` over the clauses not yet
//!   satisfied that contain `l` with `k` free literals (short clauses weigh most: setting `-l`
//!   shortens them towards a unit); at each node the first [`LOOKAHEAD_VARS`] variables of
//!   that ranking still free are looked at (a ranking per node would cost a pass over every
//!   clause at each node);
//! - *lookahead*: each of those is set true, propagated and undone, then set false; `n+` and
//!   `n-` are the literals each side implies. A side that ends in a conflict is a failed
//!   literal: its complement holds at this node, is assigned, and joins the cube (it is
//!   implied by the cube, so the cube's solutions are unchanged). Both sides failing refutes
//!   the node: it yields no cube.
//! - the variable with the largest `(n+ + 1)(n- + 1)` splits the node, its true side first.
//!
//! The cubes are the leaves at depth `DEPTH` (or nodes where no free variable is left), in
//! depth-first order; the cubes of a node are disjoint, so each solution of the formula lies
//! in exactly one cube, and the formula is unsatisfiable iff every cube is.
//!
//! **The conquer.** The workers load the clauses on their threads while the lookahead runs,
//! then take the cubes from a queue as the lookahead yields them. The first model found
//! stops the others (a shared stop flag read as their cancel flag); an `Unsat` marks the cube
//! refuted; a limit or an error of a worker stops all. Every worker thread is joined before
//! `solve` returns, so no thread outlives the call. Each worker keeps its solver, with what it
//! learned, across cubes and across calls.
//!
//! **Later calls.** The cubes of a call are kept with the assumptions they were made under.
//! A later call under the same assumptions (the sat engine's second solve, after a blocking
//! clause) reuses them and skips the refuted ones: clauses added since only remove solutions,
//! so a refuted cube stays refuted. New clauses go to every worker, not to the lookahead's
//! copy, which is only used to split; a split made on fewer clauses is still a partition.
//!
//! Limits: the caller's deadline and cancel flag reach the lookahead (read at every looked-at
//! variable) and every worker. The conflict limit is given to every cube's call (it caps each
//! cube, not the whole); no decision limit is applied (the sat engine then reads its node
//! limit between solve calls where the workers count decisions, or says it did not apply it).
//!
//! Measured (results/README.md, "The hard public instances"): on sudoku-64-1 and on random
//! cuts just above the hardness peak from 36x36 to 100x100 it is slower than the sat
//! engine's default race, so it is an option, not a default.
//!
//! Counters: the workers' counters summed; `thread_cpu_us` the CPU time of the worker threads
//! (the lookahead runs on the caller's thread, in its CPU time), `thread_load_cpu_us` the part
//! that loaded clauses; `cubes` the cubes the lookahead made (a call that reuses the last
//! split adds none).

use super::portfolio::{add_stats, load, Pending};
use super::{BackendError, BackendStats, Deadline, Interrupt, SatAnswer, SatBackend};
use crate::cnf::Model;
use crate::timing::thread_cpu_time;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

/// Variables looked ahead at each node of the cube tree (the best by preselection).
pub const LOOKAHEAD_VARS: usize = 64;

/// Deepest cube tree accepted (`2^DEPTH` cubes at most).
pub const MAX_DEPTH: u32 = 16;

/// Most worker threads: one per available core, up to this.
const MAX_WORKERS: usize = 8;

/// How often the caller's cancel flag is read while the workers run.
const CANCEL_POLL: Duration = Duration::from_millis(2);

/// Cube-and-conquer over copies of one backend.
pub struct Cubes {
    depth: u32,
    member: String,
    workers: Vec<Box<dyn SatBackend>>,
    /// Clauses given before the first call, for the workers to load on their threads.
    pending: Option<Arc<Pending>>,
    /// The lookahead's copy of the clauses (built at the first call).
    lookahead: Option<Lookahead>,
    /// The cubes of the last complete split, with the assumptions they were made under.
    cached: Option<CubeSet>,
    conflict_limit: Option<u64>,
    /// CPU time of the worker threads, and the part of it spent loading clauses.
    thread_cpu: Duration,
    load_cpu: Duration,
    /// Cubes made by the lookahead, over every split.
    made: u64,
    /// A worker's loading was stopped by the deadline: the workers do not all hold the formula.
    broken: bool,
}

struct CubeSet {
    assumptions: Vec<i32>,
    cubes: Vec<Vec<i32>>,
    refuted: Vec<bool>,
}

/// What a worker reports.
enum Event {
    Model(Model),
    Refuted(usize),
    Stopped(Interrupt),
    Failed(BackendError),
    /// The worker's thread ends; `loaded`: whether it holds every clause.
    Done {
        cpu: Duration,
        load_cpu: Duration,
        loaded: bool,
    },
}

impl Cubes {
    /// `spec` is `DEPTH:BACKEND`: a depth from 0 to `MAX_DEPTH` (16) and a backend name of
    /// [`super::make_backend`] other than `ext:`, `portfolio`, `cubes` and `varisat` (which
    /// cannot go on after being stopped).
    pub fn from_spec(spec: &str) -> Result<Self, BackendError> {
        let bad = || BackendError::CubesSpec {
            spec: spec.to_string(),
        };
        let (depth, name) = spec.split_once(':').ok_or_else(bad)?;
        let depth: u32 = depth.parse().map_err(|_| bad())?;
        let base = super::renamed_base(name);
        if depth > MAX_DEPTH
            || base.is_empty()
            || base.starts_with("ext:")
            || base.starts_with("portfolio")
            || base.starts_with("cubes")
        {
            return Err(bad());
        }
        let n = std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .clamp(1, MAX_WORKERS);
        let mut workers = Vec::new();
        for _ in 0..n {
            let mut w = super::make_backend(name)?;
            // A worker is stopped by the others' model, so it must take a cancel flag and go on
            // after it (varisat cannot: its state is invalid after an interrupt).
            w.expect_limits();
            if !w.survives_interrupts() {
                return Err(bad());
            }
            workers.push(w);
        }
        Ok(Cubes {
            depth,
            member: workers[0].name(),
            workers,
            pending: Some(Arc::new(Pending::default())),
            lookahead: None,
            cached: None,
            conflict_limit: None,
            thread_cpu: Duration::ZERO,
            load_cpu: Duration::ZERO,
            made: 0,
            broken: false,
        })
    }

    /// The cubes for `assumptions`: the kept ones, or a new split sent to `tx` as it is made.
    /// Returns whether the split is complete (not stopped by `budget` or `stop`).
    fn split(
        &mut self,
        assumptions: &[i32],
        tx: &mpsc::Sender<(usize, Vec<i32>)>,
        budget: &Deadline,
        stop: &AtomicBool,
    ) -> bool {
        if let Some(c) = &self.cached {
            if c.assumptions == assumptions {
                for (i, cube) in c.cubes.iter().enumerate() {
                    if !c.refuted[i] {
                        let _ = tx.send((i, cube.clone()));
                    }
                }
                return true;
            }
        }
        self.cached = None;
        let look = self.lookahead.get_or_insert_with(|| {
            let p = self
                .pending
                .as_deref()
                .expect("the clauses are kept until the first split");
            Lookahead::new(p)
        });
        let mut cubes = Vec::new();
        let complete = look.cubes(assumptions, self.depth, budget, stop, &mut |cube| {
            let _ = tx.send((cubes.len(), cube.clone()));
            cubes.push(cube);
        });
        self.made += cubes.len() as u64;
        if complete {
            self.cached = Some(CubeSet {
                assumptions: assumptions.to_vec(),
                refuted: vec![false; cubes.len()],
                cubes,
            });
        }
        complete
    }
}

impl SatBackend for Cubes {
    fn name(&self) -> String {
        format!("cubes:{}:{}", self.depth, self.member)
    }

    fn reserve_vars(&mut self, n: u32) {
        match &mut self.pending {
            Some(p) => {
                let p = Arc::get_mut(p).expect("pending clauses are not shared between calls");
                p.vars = p.vars.max(n);
            }
            None => self.workers.iter_mut().for_each(|w| w.reserve_vars(n)),
        }
    }

    fn add_clause(&mut self, lits: &[i32]) {
        match &mut self.pending {
            Some(p) => {
                let p = Arc::get_mut(p).expect("pending clauses are not shared between calls");
                p.lits.extend_from_slice(lits);
                p.ends.push(p.lits.len());
            }
            None => self.workers.iter_mut().for_each(|w| w.add_clause(lits)),
        }
    }

    fn solve(&mut self, assumptions: &[i32], budget: &Deadline) -> Result<SatAnswer, BackendError> {
        if let Some(why) = budget.expired().map(Interrupt::from) {
            return Ok(SatAnswer::Interrupted(why));
        }
        if self.broken {
            return Err(BackendError::CubesGone);
        }
        let stop = Arc::new(AtomicBool::new(false));
        let worker_budget = Deadline {
            at: budget.at,
            cancel: Some(stop.clone()),
        };
        let pending = self.pending.clone();
        let (cube_tx, cube_rx) = mpsc::channel::<(usize, Vec<i32>)>();
        let cube_rx = Mutex::new(cube_rx);
        let (tx, rx) = mpsc::channel::<Event>();
        let mut workers = std::mem::take(&mut self.workers);
        let threads = workers.len();
        let conflict_limit = self.conflict_limit;
        let mut events = Vec::new();
        let mut complete = false;
        std::thread::scope(|s| {
            for w in workers.iter_mut() {
                let (tx, wb, stop) = (tx.clone(), &worker_budget, &stop);
                let caller = budget;
                let (cube_rx, pending) = (&cube_rx, pending.as_deref());
                s.spawn(move || {
                    let cpu = thread_cpu_time();
                    let mut load_cpu = Duration::ZERO;
                    // Only the caller's deadline stops loading: a worker stopped halfway would
                    // hold part of the formula.
                    let mut stopped = pending.and_then(|p| load(&mut **w, p, caller));
                    let loaded = stopped.is_none();
                    if pending.is_some() {
                        load_cpu = thread_cpu_time().saturating_sub(cpu);
                    }
                    w.set_conflict_limit(conflict_limit);
                    let mut a = Vec::new();
                    while stopped.is_none() {
                        // The queue's lock is held while waiting for the next cube, so the
                        // workers take the cubes one at a time, in order.
                        let next = cube_rx.lock().map(|r| r.recv());
                        let Ok(Ok((i, cube))) = next else { break };
                        if stop.load(Ordering::Acquire) {
                            break;
                        }
                        a.clear();
                        a.extend_from_slice(assumptions);
                        a.extend_from_slice(&cube);
                        match w.solve(&a, wb) {
                            Ok(SatAnswer::Sat(m)) => {
                                stop.store(true, Ordering::Release);
                                let _ = tx.send(Event::Model(m));
                                break;
                            }
                            Ok(SatAnswer::Unsat) => {
                                let _ = tx.send(Event::Refuted(i));
                            }
                            Ok(SatAnswer::Interrupted(why)) => stopped = Some(why),
                            Err(e) => {
                                stop.store(true, Ordering::Release);
                                let _ = tx.send(Event::Failed(e));
                                break;
                            }
                        }
                    }
                    if let Some(why) = stopped {
                        stop.store(true, Ordering::Release);
                        let _ = tx.send(Event::Stopped(why));
                    }
                    let cpu = thread_cpu_time().saturating_sub(cpu);
                    let _ = tx.send(Event::Done {
                        cpu,
                        load_cpu,
                        loaded,
                    });
                });
            }
            drop(tx);
            // The lookahead, on this thread; the caller's cancel flag reaches the workers
            // through the stop flag, which the lookahead reads too.

            complete = self.split(assumptions, &cube_tx, budget, &stop);
            drop(cube_tx);
            let mut done = 0;
            while done < threads {
                let got = rx.recv_timeout(CANCEL_POLL);
                if budget.expired().is_some() {
                    stop.store(true, Ordering::Release);
                }
                match got {
                    Ok(e) => {
                        if matches!(e, Event::Done { .. }) {
                            done += 1;
                        }
                        events.push(e);
                    }
                    Err(mpsc::RecvTimeoutError::Timeout) => {}
                    Err(mpsc::RecvTimeoutError::Disconnected) => break,
                }
            }
        });
        self.workers = workers;
        // every worker has loaded the clauses (or the backend is broken)
        self.pending = None;
        let mut model = None;
        let mut failed = None;
        let mut stopped = None;
        let mut refuted = Vec::new();
        for e in events {
            match e {
                Event::Model(m) => model = model.or(Some(m)),
                Event::Refuted(i) => refuted.push(i),
                Event::Stopped(why) => {
                    // A worker stopped by the stop flag reports `Cancelled`; the reason that
                    // raised it (a deadline, a limit) wins.
                    if stopped.is_none() || stopped == Some(Interrupt::Cancelled) {
                        stopped = Some(why);
                    }
                }
                Event::Failed(e) => failed = failed.or(Some(e)),
                Event::Done {
                    cpu,
                    load_cpu,
                    loaded,
                } => {
                    self.thread_cpu += cpu;
                    self.load_cpu += load_cpu;
                    self.broken |= !loaded;
                }
            }
        }
        if let Some(c) = &mut self.cached {
            for i in refuted {
                c.refuted[i] = true;
            }
        }
        if let Some(m) = model {
            return Ok(SatAnswer::Sat(m));
        }
        if let Some(e) = failed {
            return Err(e);
        }
        let all_refuted = self
            .cached
            .as_ref()
            .is_some_and(|c| c.refuted.iter().all(|&r| r));
        if complete && stopped.is_none() && all_refuted {
            return Ok(SatAnswer::Unsat);
        }
        let why = match budget.expired() {
            Some(why) => Interrupt::from(why),
            None => stopped.unwrap_or(Interrupt::Cancelled),
        };
        Ok(SatAnswer::Interrupted(why))
    }

    /// The workers' counters summed, their threads' CPU time, and the cubes made.
    fn stats(&self) -> BackendStats {
        let mut s = self
            .workers
            .iter()
            .fold(BackendStats::default(), |acc, w| add_stats(acc, w.stats()));
        s.thread_cpu_us = Some(self.thread_cpu.as_micros() as u64);
        s.thread_load_cpu_us = Some(self.load_cpu.as_micros() as u64);
        s.cubes = Some(self.made);
        s
    }

    fn set_conflict_limit(&mut self, limit: Option<u64>) {
        self.conflict_limit = limit;
    }

    fn prefer(&mut self, lits: &[i32]) {
        for w in &mut self.workers {
            w.prefer(lits);
        }
    }

    /// Every worker holds the whole formula.
    fn teardown_ns_per_clause(&self) -> f64 {
        self.workers
            .iter()
            .map(|w| w.teardown_ns_per_clause())
            .sum()
    }

    /// Not once a worker's loading was stopped (it holds part of the formula).
    fn survives_interrupts(&self) -> bool {
        !self.broken && self.workers.iter().all(|w| w.survives_interrupts())
    }
}

/// Internal literal of DIMACS literal `l`: `2 (|l| - 1)`, plus 1 when negative.
fn lit_of(l: i32) -> u32 {
    2 * (l.unsigned_abs() - 1) + u32::from(l < 0)
}

/// DIMACS literal of internal literal `x`.
fn dimacs_of(x: u32) -> i32 {
    let v = (x / 2 + 1) as i32;
    if x & 1 == 1 {
        -v
    } else {
        v
    }
}

/// Unit propagation with two watched literals, for the lookahead.
struct Lookahead {
    /// Clauses of two literals or more, their literals one after the other; the first two of
    /// each are watched.
    lits: Vec<u32>,
    start: Vec<u32>,
    /// `watches[x]`: the clauses watching literal `x`.
    watches: Vec<Vec<u32>>,
    /// Unit clauses, and whether an empty clause was given.
    units: Vec<u32>,
    empty: bool,
    /// `value[x]`: 1 when literal `x` is true, -1 when false, 0 when free.
    value: Vec<i8>,
    trail: Vec<u32>,
    head: usize,
    /// Preselection weights per literal (scratch).
    weight: Vec<f64>,
    /// The free variables at the root of the split, best preselection score first.
    ranking: Vec<u32>,
}

/// Why a split stopped early.
struct Halt;

impl Lookahead {
    fn new(p: &Pending) -> Self {
        let mut vars = p.vars as usize;
        for &l in &p.lits {
            vars = vars.max(l.unsigned_abs() as usize);
        }
        let mut look = Lookahead {
            lits: Vec::with_capacity(p.lits.len()),
            start: Vec::with_capacity(p.ends.len() + 1),
            watches: vec![Vec::new(); 2 * vars],
            units: Vec::new(),
            empty: false,
            value: vec![0; 2 * vars],
            trail: Vec::new(),
            head: 0,
            weight: vec![0.0; 2 * vars],
            ranking: Vec::new(),
        };
        let mut clause: Vec<u32> = Vec::new();
        let mut begin = 0;
        for &end in &p.ends {
            clause.clear();
            clause.extend(p.lits[begin..end].iter().map(|&l| lit_of(l)));
            begin = end;
            clause.sort_unstable();
            clause.dedup();
            // a clause with x and -x holds always
            if clause.windows(2).any(|w| w[0] ^ 1 == w[1]) {
                continue;
            }
            match clause.len() {
                0 => look.empty = true,
                1 => look.units.push(clause[0]),
                _ => {
                    let c = look.start.len() as u32;
                    look.start.push(look.lits.len() as u32);
                    look.watches[clause[0] as usize].push(c);
                    look.watches[clause[1] as usize].push(c);
                    look.lits.extend_from_slice(&clause);
                }
            }
        }
        look.start.push(look.lits.len() as u32);
        look
    }

    fn vars(&self) -> usize {
        self.value.len() / 2
    }

    /// Sets literal `x`; false if it was false already.
    fn assign(&mut self, x: u32) -> bool {
        match self.value[x as usize] {
            1 => true,
            -1 => false,
            _ => {
                self.value[x as usize] = 1;
                self.value[(x ^ 1) as usize] = -1;
                self.trail.push(x);
                true
            }
        }
    }

    /// Propagates the trail from `head`; false on a conflict.
    fn propagate(&mut self) -> bool {
        while self.head < self.trail.len() {
            let falsified = self.trail[self.head] ^ 1;
            self.head += 1;
            let mut ws = std::mem::take(&mut self.watches[falsified as usize]);
            let mut keep = 0;
            let mut conflict = false;
            let mut i = 0;
            while i < ws.len() {
                let c = ws[i];
                i += 1;
                let (s, e) = (
                    self.start[c as usize] as usize,
                    self.start[c as usize + 1] as usize,
                );
                if self.lits[s] == falsified {
                    self.lits.swap(s, s + 1);
                }
                let other = self.lits[s];
                if self.value[other as usize] == 1 {
                    ws[keep] = c;
                    keep += 1;
                    continue;
                }
                let found = (s + 2..e).find(|&k| self.value[self.lits[k] as usize] != -1);
                if let Some(k) = found {
                    self.lits.swap(s + 1, k);
                    self.watches[self.lits[s + 1] as usize].push(c);
                    continue;
                }
                ws[keep] = c;
                keep += 1;
                if !self.assign(other) {
                    conflict = true;
                    break;
                }
            }
            while i < ws.len() {
                ws[keep] = ws[i];
                keep += 1;
                i += 1;
            }
            ws.truncate(keep);
            self.watches[falsified as usize] = ws;
            if conflict {
                return false;
            }
        }
        true
    }

    fn backtrack(&mut self, to: usize) {
        for &x in &self.trail[to..] {
            self.value[x as usize] = 0;
            self.value[(x ^ 1) as usize] = 0;
        }
        self.trail.truncate(to);
        self.head = to;
    }

    /// Assigns `x` and propagates; false (and nothing kept) on a conflict.
    fn try_assign(&mut self, x: u32) -> bool {
        let mark = self.trail.len();
        if self.assign(x) && self.propagate() {
            return true;
        }
        self.backtrack(mark);
        false
    }

    /// The split under `assumptions` to `depth`, each cube given to `emit` as it is made
    /// (assumption literals excluded). Returns whether it is complete.
    fn cubes(
        &mut self,
        assumptions: &[i32],
        depth: u32,
        budget: &Deadline,
        stop: &AtomicBool,
        emit: &mut dyn FnMut(Vec<i32>),
    ) -> bool {
        self.backtrack(0);
        if self.empty {
            return true;
        }
        let mut root = true;
        for i in 0..self.units.len() {
            root &= self.assign(self.units[i]);
        }
        for &a in assumptions {
            if a.unsigned_abs() as usize > self.vars() {
                continue; // a variable no clause names: free either way
            }
            root &= self.assign(lit_of(a));
        }
        let complete = if root && self.propagate() {
            self.ranking = self.preselect();
            let mut cube = Vec::new();
            self.node(depth, &mut cube, budget, stop, emit).is_ok()
        } else {
            true // refuted at the root: no cube
        };
        self.backtrack(0);
        complete
    }

    /// One node of the cube tree (propagated, no conflict): a cube at depth 0, else the
    /// lookahead and the two children.
    fn node(
        &mut self,
        depth: u32,
        cube: &mut Vec<i32>,
        budget: &Deadline,
        stop: &AtomicBool,
        emit: &mut dyn FnMut(Vec<i32>),
    ) -> Result<(), Halt> {
        if stop.load(Ordering::Acquire) || budget.expired().is_some() {
            return Err(Halt);
        }
        let mark = (self.trail.len(), cube.len());
        let chosen = if depth == 0 {
            Some(None)
        } else {
            self.choose(cube, budget, stop)?
        };
        match chosen {
            None => {} // refuted by failed literals
            Some(None) => emit(cube.clone()),
            Some(Some(v)) => {
                for x in [2 * v, 2 * v + 1] {
                    let here = (self.trail.len(), cube.len());
                    if self.try_assign(x) {
                        cube.push(dimacs_of(x));
                        let r = self.node(depth - 1, cube, budget, stop, emit);
                        self.backtrack(here.0);
                        cube.truncate(here.1);
                        r?;
                    }
                }
            }
        }
        self.backtrack(mark.0);
        cube.truncate(mark.1);
        Ok(())
    }

    /// The lookahead at a node: `None` if failed literals refute it, `Some(None)` if no free
    /// variable is left, else the variable to split on. Failed literals' complements are
    /// assigned and pushed to `cube`.
    fn choose(
        &mut self,
        cube: &mut Vec<i32>,
        budget: &Deadline,
        stop: &AtomicBool,
    ) -> Result<Option<Option<u32>>, Halt> {
        let candidates: Vec<u32> = self
            .ranking
            .iter()
            .copied()
            .filter(|&v| self.value[2 * v as usize] == 0)
            .take(LOOKAHEAD_VARS)
            .collect();
        let mut best: Option<(u64, u32)> = None;
        for v in candidates {
            if stop.load(Ordering::Acquire) || budget.expired().is_some() {
                return Err(Halt);
            }
            if self.value[2 * v as usize] != 0 {
                continue; // set by a failed literal found before
            }
            let mut implied = [0u64; 2];
            let mut failed = [false; 2];
            for (side, x) in [2 * v, 2 * v + 1].into_iter().enumerate() {
                let mark = self.trail.len();
                if self.try_assign(x) {
                    implied[side] = (self.trail.len() - mark) as u64;
                    self.backtrack(mark);
                } else {
                    failed[side] = true;
                }
            }
            match failed {
                [true, true] => return Ok(None),
                [false, false] => {
                    let score = (implied[0] + 1) * (implied[1] + 1);
                    if !matches!(best, Some((b, _)) if b >= score) {
                        best = Some((score, v));
                    }
                }
                _ => {
                    let x = if failed[0] { 2 * v + 1 } else { 2 * v };
                    if !self.try_assign(x) {
                        return Ok(None);
                    }
                    cube.push(dimacs_of(x));
                }
            }
        }
        // No variable to split on (none in a clause not yet satisfied, or every looked-at one
        // set by failed literals): the node is a cube.
        Ok(Some(
            best.map(|(_, v)| v)
                .filter(|&v| self.value[2 * v as usize] == 0),
        ))
    }

    /// The free variables in a clause not yet satisfied, best preselection score first.
    fn preselect(&mut self) -> Vec<u32> {
        self.weight.iter_mut().for_each(|w| *w = 0.0);
        for c in 0..self.start.len() - 1 {
            let (s, e) = (self.start[c] as usize, self.start[c + 1] as usize);
            let clause = &self.lits[s..e];
            if clause.iter().any(|&x| self.value[x as usize] == 1) {
                continue;
            }
            let free = clause
                .iter()
                .filter(|&&x| self.value[x as usize] == 0)
                .count();
            if free < 2 {
                continue;
            }
            let w = 0.5f64.powi(free as i32 - 2);
            for &x in clause {
                if self.value[x as usize] == 0 {
                    self.weight[x as usize] += w;
                }
            }
        }
        let mut scored: Vec<(f64, u32)> = (0..self.vars() as u32)
            .filter(|&v| self.value[2 * v as usize] == 0)
            .map(|v| {
                let (p, n) = (self.weight[2 * v as usize], self.weight[2 * v as usize + 1]);
                (p * n + p + n, v)
            })
            .filter(|&(s, _)| s > 0.0)
            .collect();
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        scored.into_iter().map(|(_, v)| v).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cnf::backend::{pigeons, stops_at_a_300ms_deadline};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// A random formula over `vars` variables: `clauses` clauses of `shortest` to 4 literals.
    fn random_formula(
        rng: &mut ChaCha8Rng,
        vars: i32,
        clauses: usize,
        shortest: usize,
    ) -> Vec<Vec<i32>> {
        (0..clauses)
            .map(|_| {
                let k = rng.gen_range(shortest..=4);
                (0..k)
                    .map(|_| {
                        let v = rng.gen_range(1..=vars);
                        if rng.gen_bool(0.5) {
                            v
                        } else {
                            -v
                        }
                    })
                    .collect()
            })
            .collect()
    }

    fn holds(clause: &[i32], model: u32) -> bool {
        clause
            .iter()
            .any(|&l| (model >> (l.unsigned_abs() - 1) & 1 == 1) == (l > 0))
    }

    /// Every assignment of the variables, as bit sets, that satisfies every clause.
    fn models(f: &[Vec<i32>], vars: i32, assumptions: &[i32]) -> Vec<u32> {
        (0..1u32 << vars)
            .filter(|&m| {
                f.iter().all(|c| holds(c, m)) && assumptions.iter().all(|&a| holds(&[a], m))
            })
            .collect()
    }

    fn pending(f: &[Vec<i32>], vars: u32) -> Pending {
        let mut p = Pending {
            vars,
            ..Pending::default()
        };
        for c in f {
            p.lits.extend_from_slice(c);
            p.ends.push(p.lits.len());
        }
        p
    }

    /// The cubes partition the models: each model satisfies exactly one cube, and no cube
    /// contradicts the formula's propagation (the lookahead's failed literals and refuted
    /// nodes drop no model).
    #[test]
    fn cubes_partition_the_models() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut split_some = 0;
        for trial in 0..300 {
            let vars = rng.gen_range(4..=12);
            let clauses = rng.gen_range(5..=40);
            let f = random_formula(&mut rng, vars, clauses, 2);
            let assumptions: Vec<i32> = if trial % 3 == 0 { vec![1] } else { vec![] };
            let want = models(&f, vars, &assumptions);
            let mut look = Lookahead::new(&pending(&f, vars as u32));
            let mut cubes = Vec::new();
            let depth = rng.gen_range(0..=5);
            let complete = look.cubes(
                &assumptions,
                depth,
                &Deadline::default(),
                &AtomicBool::new(false),
                &mut |c| cubes.push(c),
            );
            assert!(complete);
            assert!(cubes.len() <= 1 << depth);
            split_some += usize::from(cubes.len() > 1);
            for &m in &want {
                let hits = cubes
                    .iter()
                    .filter(|c| c.iter().all(|&l| holds(&[l], m)))
                    .count();
                assert_eq!(
                    hits, 1,
                    "trial {trial}: model {m:b} in {hits} cubes {cubes:?} of {f:?}"
                );
            }
            // the lookahead leaves its trail empty for the next split
            assert!(look.trail.is_empty());
        }
        assert!(split_some > 100, "{split_some}");
    }

    /// Counts `f`'s models under `assumptions` with blocking clauses (each blocks one model
    /// outright), checking each model.
    fn count(b: &mut Cubes, f: &[Vec<i32>], vars: i32, assumptions: &[i32]) -> Vec<u32> {
        let mut found = Vec::new();
        loop {
            match b.solve(assumptions, &Deadline::default()).unwrap() {
                SatAnswer::Sat(m) => {
                    let bits = (1..=vars)
                        .filter(|&v| m.is_true(v))
                        .fold(0u32, |acc, v| acc | 1 << (v - 1));
                    assert!(f.iter().all(|c| holds(c, bits)), "not a model");
                    assert!(assumptions.iter().all(|&a| holds(&[a], bits)));
                    assert!(!found.contains(&bits), "found twice");
                    found.push(bits);
                    let block: Vec<i32> = (1..=vars)
                        .map(|v| if m.is_true(v) { -v } else { v })
                        .collect();
                    b.add_clause(&block);
                }
                SatAnswer::Unsat => break,
                r => panic!("{} {assumptions:?}: {r:?}", b.name()),
            }
        }
        found.sort_unstable();
        found
    }

    /// Counting with blocking clauses through the backend finds exactly the models, for
    /// every member kind: first those with variable 2 false (assumption -2), then, the split
    /// made again for no assumptions, the others.
    #[test]
    fn counts_equal_the_brute_force_count() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        for trial in 0..60 {
            let vars = rng.gen_range(3..=9);
            let clauses = rng.gen_range(3..=30);
            let f = random_formula(&mut rng, vars, clauses, 1);
            let member = ["batsat", "cadical", "kissat"][trial % 3];
            let depth = trial as u32 % 5;
            let mut b = Cubes::from_spec(&format!("{depth}:{member}")).unwrap();
            for c in &f {
                b.add_clause(c);
            }
            b.reserve_vars(vars as u32);
            let first = count(&mut b, &f, vars, &[-2]);
            assert_eq!(
                first,
                models(&f, vars, &[-2]),
                "trial {trial} {member} depth {depth}"
            );
            let rest = count(&mut b, &f, vars, &[]);
            let mut want = models(&f, vars, &[]);
            want.retain(|m| !first.contains(m));
            assert_eq!(rest, want, "trial {trial} {member} depth {depth}");
            assert!(b.stats().cubes.is_some());
        }
    }

    #[test]
    fn limits_stop_every_worker() {
        let mut b = Cubes::from_spec("3:cadical").unwrap();
        pigeons(&mut b, 12);
        stops_at_a_300ms_deadline(&mut b);
        assert!(b.survives_interrupts());
        b.set_conflict_limit(Some(200));
        assert_eq!(
            b.solve(&[], &Deadline::default()).unwrap(),
            SatAnswer::Interrupted(Interrupt::ConflictLimit)
        );
        // a small pigeonhole formula is refuted cube by cube
        let mut b = Cubes::from_spec("4:batsat").unwrap();
        pigeons(&mut b, 5);
        assert_eq!(
            b.solve(&[], &Deadline::default()).unwrap(),
            SatAnswer::Unsat
        );
        assert!(b.stats().cubes > Some(1), "{:?}", b.stats());
    }

    #[test]
    fn bad_specs_are_refused() {
        for spec in [
            "",
            "4",
            "x:batsat",
            "17:batsat",
            "2:portfolio",
            "2:cubes:1:batsat",
            "2:ext:/bin/true",
            "2:nosuch",
            "2:varisat",
            "2:renamed:1:varisat",
        ] {
            assert!(Cubes::from_spec(spec).is_err(), "{spec}");
        }
        let b = Cubes::from_spec("2:renamed:3:cadical:sat").unwrap();
        assert_eq!(b.name(), "cubes:2:renamed:3:cadical:sat");
    }
}
