//! The varisat backend (J. Fischer, varisat 0.2.2, MIT/Apache-2.0): CDCL in Rust, embedded.
//!
//! varisat exposes neither search statistics nor an interrupt call: its counters are reported
//! as `None`. What it does call during search is its proof output: every learned clause (one
//! per conflict), deletion and model is written, through an 8 KiB buffer, to a writer, and a
//! failed write ends `solve` with an error. [`SatBackend::expect_limits`] (called before the
//! first clause; varisat refuses a proof target later) installs such a writer, a [`Gate`]: it
//! discards the bytes, reads the clock and the cancel flag on every flush (every few dozen
//! conflicts on large formulas) and fails once the budget is spent. With a conflict limit it
//! also parses the step codes of the stream and counts the learned clauses; varisat flushes at
//! the end of every `solve`, so the limit is checked with exact counts at each flush.
//!
//! Costs: the proof makes varisat compute clause hashes for every learned clause, so it is
//! installed only when a limit may come (`scripts/bench/sat-limits.sh` measures it). After an
//! interrupt varisat's state is invalid (its proof error is not recoverable). So that the
//! conflict limit is per call, as [`SatBackend::set_conflict_limit`] promises, a backend whose
//! limit was set before its first clause keeps a copy of its clauses and rebuilds the solver
//! at the next call (losing the learned clauses). Without a conflict limit (a deadline or a
//! cancel flag only) no copy is kept: the backend answers `Interrupted` to any later call,
//! and the caller builds a new one.

use super::{BackendError, BackendStats, Deadline, Interrupt, SatAnswer, SatBackend};
use crate::cnf::formula::Cnf;
use crate::cnf::model::Model;
use std::cell::{Cell, RefCell};
use std::io;
use std::rc::Rc;
use varisat::{ExtendFormula, Lit, ProofFormat, Solver};

pub struct Varisat {
    solver: Solver<'static>,
    num_vars: u32,
    scratch: Vec<Lit>,
    /// The proof writer's shared state, once `expect_limits` installed it.
    gate: Option<Rc<Gate>>,
    clauses_added: bool,
    conflict_limit: Option<u64>,
    /// Set when a call was interrupted: this varisat solver cannot be used after that.
    dead: Option<Interrupt>,
    /// Every clause added (literals, each clause ended by 0), kept when a conflict limit was
    /// set before the first clause, so that a call stopped by the limit can be followed by
    /// another: the next `solve` rebuilds the solver from them (learned clauses are lost).
    replay: Option<Vec<i32>>,
}

/// The state the proof writer checks on every flush.
#[derive(Default)]
pub struct Gate {
    budget: RefCell<Deadline>,
    conflict_limit: Cell<Option<u64>>,
    /// Learned clauses (= conflicts) in the stream since the start of this call.
    conflicts: Cell<u64>,
    why: Cell<Option<Interrupt>>,
    stream: RefCell<StepCounter>,
}

/// The writer varisat's proof goes into.
struct GateWriter(Rc<Gate>);

impl io::Write for GateWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let g = &self.0;
        if let Some(limit) = g.conflict_limit.get() {
            let learned = g.stream.borrow_mut().feed(buf);
            g.conflicts.set(g.conflicts.get() + learned);
            if g.conflicts.get() >= limit {
                g.why.set(Some(Interrupt::ConflictLimit));
            }
        }
        if g.why.get().is_none() {
            g.why.set(g.budget.borrow().expired().map(Interrupt::from));
        }
        match g.why.get() {
            // Not `ErrorKind::Interrupted`: `write_all` retries that one.
            Some(_) => Err(io::Error::other("sudolab: budget spent")),
            None => Ok(buf.len()),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Counts the learned-clause steps (`AT_CLAUSE_RED`, `AT_CLAUSE_IRRED`) in varisat's binary
/// proof stream, which arrives in arbitrary chunks. The format (crate varisat-internal-proof
/// 0.2.2, `binary_format`) is a sequence of variable-length numbers: a step code, then fixed
/// fields or length-prefixed lists. The state machine below knows each step's layout.
#[derive(Default)]
pub struct StepCounter {
    /// The bytes of a number cut by a chunk boundary.
    partial: Vec<u8>,
    /// Numbers still to skip in the current step, by kind of field.
    fields: Vec<Field>,
    /// Numbers left in the list being skipped.
    left: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Field {
    /// One number.
    Plain,
    /// A length, then that many numbers.
    List,
    /// A length, then that many pairs of numbers.
    PairList,
}

// Step codes of varisat-internal-proof 0.2.2 (`step_codes!` numbers them from 0).
const AT_CLAUSE_RED: u64 = 7;
const AT_CLAUSE_IRRED: u64 = 8;
const CODE_END: u64 = 0x9ac3391f4294c211;

impl StepCounter {
    /// The layout of the fields after `code`, in reverse order (popped from the end).
    fn layout(code: u64) -> &'static [Field] {
        use Field::*;
        match code {
            0 | 2 => &[Plain, Plain],     // var name update: global, solver/user
            1 | 3..=6 | 13 => &[Plain],   // name remove, delete var, sampling mode, hash bits
            7 | 8 | 17 => &[List, List],  // at clause / failed assumptions: literals, hashes
            9 => &[PairList],             // unit clauses: (literal, hash) pairs
            10..=12 | 14..=16 => &[List], // delete clause, model, add clause, assumptions
            _ => &[],                     // END (and nothing else exists)
        }
    }

    /// Feeds a chunk; answers the learned clauses whose step code it contained.
    pub fn feed(&mut self, mut buf: &[u8]) -> u64 {
        let mut learned = 0;
        loop {
            let Some((value, used)) = self.next_number(buf) else {
                return learned;
            };
            buf = &buf[used..];
            if self.left > 0 {
                self.left -= 1;
                continue;
            }
            match self.fields.pop() {
                None => {
                    if value == AT_CLAUSE_RED || value == AT_CLAUSE_IRRED {
                        learned += 1;
                    }
                    if value != CODE_END {
                        self.fields.extend(Self::layout(value).iter().rev());
                    }
                }
                Some(Field::Plain) => {}
                Some(Field::List) => self.left = value,
                Some(Field::PairList) => self.left = 2 * value,
            }
        }
    }

    /// The next number of the stream (after any bytes kept from the last chunk), and how many
    /// bytes of `buf` it used; `None` when `buf` ends inside it (its bytes are kept). The
    /// encoding (varisat-internal-proof's `vli_enc`): the length is one more than the trailing
    /// zeros of the first byte, or of the first two bytes when the first is 0 (9 or 10 bytes);
    /// the value follows the length marker, least significant bits first.
    fn next_number(&mut self, buf: &[u8]) -> Option<(u64, usize)> {
        let mut used = 0;
        loop {
            let p = &self.partial;
            let len = match p.first() {
                None => None,
                Some(0) => p
                    .get(1)
                    .map(|&b| (((b as u32) << 8) | (1 << 9)).trailing_zeros() as usize + 1),
                Some(&b) => Some(b.trailing_zeros() as usize + 1),
            };
            if let Some(len) = len.filter(|&l| l == p.len()) {
                let v = p
                    .iter()
                    .enumerate()
                    .fold(0u128, |v, (i, &b)| v | (b as u128) << (8 * i));
                self.partial.clear();
                return Some(((v >> len) as u64, used));
            }
            let &b = buf.get(used)?;
            self.partial.push(b);
            used += 1;
        }
    }
}

impl Varisat {
    pub fn new() -> Self {
        Varisat {
            solver: Solver::new(),
            num_vars: 0,
            scratch: Vec::new(),
            gate: None,
            clauses_added: false,
            conflict_limit: None,
            dead: None,
            replay: None,
        }
    }

    /// A new varisat solver with the clauses of the old one (after an interrupt), and a new
    /// gate.
    fn rebuild(&mut self, clauses: &[i32]) {
        self.solver = Solver::new();
        self.gate = None;
        self.clauses_added = false;
        self.expect_limits();
        self.dead = None;
        // Each clause ends at its 0, so an empty clause (a 0 alone) is added as one.
        let mut start = 0;
        for (end, &l) in clauses.iter().enumerate() {
            if l == 0 {
                self.add_to_solver(&clauses[start..end]);
                start = end + 1;
            }
        }
    }

    /// Keeps `lits` in the copy of the clauses, when there is one.
    fn keep_for_replay(&mut self, lits: &[i32]) {
        if let Some(r) = &mut self.replay {
            r.extend_from_slice(lits);
            r.push(0);
        }
    }

    fn add_to_solver(&mut self, lits: &[i32]) {
        self.clauses_added = true;
        self.scratch.clear();
        for &l in lits {
            self.num_vars = self.num_vars.max(l.unsigned_abs());
            self.scratch.push(Lit::from_dimacs(l as isize));
        }
        self.solver.add_clause(&self.scratch);
    }
}

// SAFETY: varisat's solver is not `Send` only because its proof target is a `Box<dyn Write>`
// (and a proof processor, which this backend never installs). The target is a `GateWriter`
// whose `Rc<Gate>` has exactly one other clone, in `self.gate`: both are owned by this struct
// and move together, so no `Rc` is ever shared between threads. varisat keeps no thread-local
// state.
unsafe impl Send for Varisat {}

impl Default for Varisat {
    fn default() -> Self {
        Self::new()
    }
}

impl SatBackend for Varisat {
    fn name(&self) -> String {
        "varisat".into()
    }

    fn reserve_vars(&mut self, n: u32) {
        self.num_vars = self.num_vars.max(n);
    }

    fn add_clause(&mut self, lits: &[i32]) {
        self.keep_for_replay(lits);
        self.add_to_solver(lits);
    }

    /// Every clause of `cnf`, converted straight into the scratch buffer (no per-clause
    /// dispatch; every variable is within `cnf.num_vars`).
    fn add_cnf(&mut self, cnf: &Cnf) {
        self.reserve_vars(cnf.num_vars);
        debug_assert!(cnf.clauses.max_var() <= cnf.num_vars);
        for c in cnf.clauses.iter() {
            self.keep_for_replay(c);
            self.clauses_added = true;
            self.scratch.clear();
            self.scratch
                .extend(c.iter().map(|&l| Lit::from_dimacs(l as isize)));
            self.solver.add_clause(&self.scratch);
        }
    }

    fn expect_limits(&mut self) {
        if self.gate.is_some() || self.clauses_added {
            return;
        }
        let gate = Rc::new(Gate::default());
        self.solver
            .write_proof(GateWriter(gate.clone()), ProofFormat::Varisat);
        self.gate = Some(gate);
    }

    fn set_conflict_limit(&mut self, limit: Option<u64>) {
        if limit.is_some() {
            self.expect_limits();
            if !self.clauses_added && self.replay.is_none() {
                self.replay = Some(Vec::new());
            }
        }
        self.conflict_limit = limit;
    }

    fn solve(&mut self, assumptions: &[i32], budget: &Deadline) -> Result<SatAnswer, BackendError> {
        if let Some(why) = self.dead {
            match self.replay.take() {
                Some(clauses) => {
                    self.rebuild(&clauses);
                    self.replay = Some(clauses);
                }
                None => return Ok(SatAnswer::Interrupted(why)),
            }
        }
        if let Some(why) = budget.expired().map(Interrupt::from) {
            return Ok(SatAnswer::Interrupted(why));
        }
        match &self.gate {
            Some(g) => {
                *g.budget.borrow_mut() = budget.clone();
                g.conflict_limit.set(self.conflict_limit);
                g.conflicts.set(0);
                g.why.set(None);
            }
            None if self.conflict_limit.is_some() => return Err(BackendError::VarisatLimitTooLate),
            None => {}
        }
        let a: Vec<Lit> = assumptions
            .iter()
            .map(|&l| Lit::from_dimacs(l as isize))
            .collect();
        self.solver.assume(&a);
        match self.solver.solve() {
            Ok(true) => {
                let lits = self.solver.model().ok_or(BackendError::VarisatNoModel)?;
                let mut values = vec![None; self.num_vars as usize + 1];
                for l in lits {
                    let v = l.index() + 1;
                    if v >= values.len() {
                        values.resize(v + 1, None);
                    }
                    values[v] = Some(l.is_positive());
                }
                Ok(SatAnswer::Sat(Model::from_values(values)))
            }
            Ok(false) => Ok(SatAnswer::Unsat),
            Err(e) => match self.gate.as_ref().and_then(|g| g.why.get()) {
                Some(why) => {
                    self.dead = Some(why);
                    Ok(SatAnswer::Interrupted(why))
                }
                None => Err(BackendError::Varisat(e)),
            },
        }
    }

    /// Measured: see [`SatBackend::teardown_ns_per_clause`] (clauses in one arena; watch and occurrence lists per literal).
    fn teardown_ns_per_clause(&self) -> f64 {
        20.0
    }

    /// With the copy of the clauses a conflict limit keeps, yes (through a rebuild).
    fn survives_interrupts(&self) -> bool {
        self.replay.is_some()
    }

    fn stats(&self) -> BackendStats {
        BackendStats::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// The counter agrees with varisat's own parser on a real proof, whatever the chunking.
    #[test]
    fn step_counter_counts_the_learned_clauses_of_a_real_proof() {
        // A pigeonhole formula (5 pigeons, 4 holes): unsatisfiable after many conflicts.
        let (p, h) = (5, 4);
        let var = |i: i32, j: i32| i * h + j + 1;
        let mut clauses: Vec<Vec<i32>> = (0..p)
            .map(|i| (0..h).map(|j| var(i, j)).collect())
            .collect();
        for j in 0..h {
            for a in 0..p {
                for b in a + 1..p {
                    clauses.push(vec![-var(a, j), -var(b, j)]);
                }
            }
        }
        let bytes = Rc::new(RefCell::new(Vec::new()));
        struct Keep(Rc<RefCell<Vec<u8>>>);
        impl Write for Keep {
            fn write(&mut self, b: &[u8]) -> io::Result<usize> {
                self.0.borrow_mut().extend_from_slice(b);
                Ok(b.len())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let mut s = Solver::new();
        s.write_proof(Keep(bytes.clone()), ProofFormat::Varisat);
        for c in &clauses {
            let l: Vec<Lit> = c.iter().map(|&x| Lit::from_dimacs(x as isize)).collect();
            s.add_clause(&l);
        }
        assert!(!s.solve().unwrap());
        s.close_proof().unwrap();
        let bytes = bytes.borrow().clone();
        let mut whole = StepCounter::default();
        let n = whole.feed(&bytes);
        assert!(n > 10, "pigeonhole 5/4 needs conflicts, counted {n}");
        for chunk in [1, 2, 3, 7, 64] {
            let mut c = StepCounter::default();
            let m: u64 = bytes.chunks(chunk).map(|b| c.feed(b)).sum();
            assert_eq!(m, n, "chunks of {chunk}");
            assert!(c.partial.is_empty() && c.fields.is_empty() && c.left == 0);
        }
    }

    /// Pigeonhole `p` into `h` holes, every clause guarded by the selector variable `sel`
    /// (`-sel` in each), so that assuming `sel` is hard and assuming `-sel` is trivial.
    fn guarded_pigeonhole(b: &mut Varisat, p: i32, h: i32, sel: i32) {
        let var = |i: i32, j: i32| i * h + j + 1;
        for i in 0..p {
            let mut c: Vec<i32> = (0..h).map(|j| var(i, j)).collect();
            c.push(-sel);
            b.add_clause(&c);
        }
        for j in 0..h {
            for x in 0..p {
                for y in x + 1..p {
                    b.add_clause(&[-var(x, j), -var(y, j), -sel]);
                }
            }
        }
    }

    /// A solver with a limit of 200 conflicts per call, holding 9 pigeons in 8 holes guarded
    /// by `sel`, after a call under `sel` that the limit stopped.
    fn stopped_on_guarded_pigeonhole(sel: i32) -> Varisat {
        let mut b = Varisat::new();
        b.set_conflict_limit(Some(200));
        guarded_pigeonhole(&mut b, 9, 8, sel);
        let hard = b.solve(&[sel], &Deadline::default()).unwrap();
        assert_eq!(hard, SatAnswer::Interrupted(Interrupt::ConflictLimit));
        b
    }

    /// The limit is per call: after a call stopped by it, the next call searches again (an
    /// easy query is answered, a hard one is stopped again after as many conflicts, counted
    /// from its own start), and clauses added in between still count.
    #[test]
    fn a_conflict_limit_is_per_call() {
        let sel = 1000;
        let mut b = stopped_on_guarded_pigeonhole(sel);
        let easy = b.solve(&[-sel], &Deadline::default()).unwrap();
        assert!(matches!(easy, SatAnswer::Sat(_)), "{easy:?}");
        let again = b.solve(&[sel], &Deadline::default()).unwrap();
        assert_eq!(again, SatAnswer::Interrupted(Interrupt::ConflictLimit));
        let counted = b.gate.as_ref().unwrap().conflicts.get();
        assert!(
            (200..400).contains(&counted),
            "{counted} conflicts in the call"
        );
        // A unit added after the interrupts is part of the formula of the next call.
        b.add_clause(&[-sel]);
        assert_eq!(
            b.solve(&[sel], &Deadline::default()).unwrap(),
            SatAnswer::Unsat
        );
        assert!(matches!(
            b.solve(&[], &Deadline::default()).unwrap(),
            SatAnswer::Sat(_)
        ));
        assert!(b.survives_interrupts());
    }

    /// An empty clause added after an interrupt survives the rebuild: the formula is unsat.
    #[test]
    fn an_empty_clause_is_kept_across_a_rebuild() {
        let sel = 1000;
        let mut b = stopped_on_guarded_pigeonhole(sel);
        b.add_clause(&[]);
        assert_eq!(
            b.solve(&[-sel], &Deadline::default()).unwrap(),
            SatAnswer::Unsat
        );
    }

    /// Without a conflict limit no copy of the clauses is kept: a call stopped by the
    /// deadline leaves the backend stopped (the caller builds a new one).
    #[test]
    fn without_a_conflict_limit_an_interrupt_is_final() {
        let sel = 1000;
        let mut b = Varisat::new();
        b.expect_limits();
        guarded_pigeonhole(&mut b, 9, 8, sel);
        assert!(!b.survives_interrupts());
        let spent = Deadline {
            at: Some(std::time::Instant::now()),
            cancel: None,
        };
        let r = b.solve(&[sel], &spent).unwrap();
        assert_eq!(r, SatAnswer::Interrupted(Interrupt::Time));
    }
}
