//! [`DratChecker`]: the formula, the forward pass over the proof, and the backward pass.

use std::io::BufRead;

use super::super::formula::Clauses;
use super::super::sink::ClauseSink;
use super::super::{Deadline, Interrupt};
use super::clauses::{ClauseDb, ALIVE, CORE};
use super::error::{DratError, ProofFormat, ProofPosition};
use super::index::DeletionIndex;
use super::justify::Justify;
use super::lit::{from_dimacs, to_dimacs, Lit, NONE};
use super::parse::ProofReader;
use super::propagate::Engine;
use super::resize::resize_polled;
use super::{CheckMode, ProofCheck};

/// Variables a proof may use beyond the formula's (each costs about 40 bytes).
pub const MAX_NEW_VARS: usize = 1 << 24;

/// Flag on a backward-pass step: a deletion (else an addition).
const DELETE: u32 = 1 << 31;

/// The budget is read every this many proof steps, besides every few thousand units of
/// propagation work.
const POLL_STEPS: u64 = 256;

/// A DRAT checker that keeps its memory from one check to the next (see the module doc).
#[derive(Debug, Default)]
pub struct DratChecker {
    mode: CheckMode,
    engine: Engine,
    index: DeletionIndex,
    justify: Justify,
    /// Variables of the formula: the largest of `reset`'s and of its clauses.
    vars: usize,
    /// Formula clauses of one literal; the first empty one; how many formula clauses there
    /// were when one did not fit.
    units: Vec<u32>,
    empty: Option<u32>,
    full: Option<usize>,
    /// By literal: marks for removing repeated literals and matching deletions.
    lit_marks: Vec<u8>,
    /// By literal: how many formula clauses of two or more literals started with it when
    /// they were added (checks reorder the literals of clauses): the size its watch list
    /// will likely need.
    starts: Vec<u32>,
    /// The backward pass's record of the forward pass: clause ids of the steps (additions
    /// and the deletions that removed a clause), and per lemma its first literal and place.
    steps: Vec<u32>,
    pivots: Vec<Lit>,
    places: Vec<(u64, u32)>,
    read: Vec<i32>,
    clause: Vec<Lit>,
    buffer: Vec<u8>,
}

fn interrupted(lemmas: u64) -> impl Fn(Interrupt) -> DratError {
    move |interrupt| DratError::Interrupted { lemmas, interrupt }
}

fn spent(budget: &Deadline) -> Result<(), Interrupt> {
    budget.expired().map(Interrupt::from).map_or(Ok(()), Err)
}

impl DratChecker {
    /// A checker in the default mode ([`CheckMode::Forward`]).
    pub fn new() -> Self {
        Self::default()
    }

    pub fn with_mode(mode: CheckMode) -> Self {
        Self {
            mode,
            ..Self::default()
        }
    }

    pub fn mode(&self) -> CheckMode {
        self.mode
    }

    pub fn set_mode(&mut self, mode: CheckMode) {
        self.mode = mode;
    }

    /// Starts a new formula over variables `1..=num_vars` (clauses may name more). The
    /// memory of earlier formulas is kept for reuse.
    pub fn reset(&mut self, num_vars: u32) {
        self.engine.db.clear();
        self.units.clear();
        self.empty = None;
        self.full = None;
        self.vars = num_vars as usize;
        self.starts.clear();
    }

    /// Number of formula clauses added since [`reset`](Self::reset).
    pub fn num_clauses(&self) -> usize {
        self.engine.db.originals
    }

    /// Room for variables `1..=vars` in the per-variable arrays of a check.
    fn grow(&mut self, vars: usize, budget: &Deadline) -> Result<(), Interrupt> {
        let mut poll = || spent(budget);
        self.engine.grow(vars, &mut poll)?;
        resize_polled(&mut self.lit_marks, 2 * (vars + 1), 0, &mut poll)
    }

    /// Room in `starts` (and, for a long clause, in `lit_marks`) for the literals of a formula
    /// clause whose largest variable is `max`. The arrays grow with the variables the clauses
    /// use, by doubling, so that `reset` allocates nothing and a caller that loads a big
    /// formula clause by clause can read its budget between them.
    fn formula_room(&mut self, max: usize, long: bool) {
        self.vars = self.vars.max(max);
        let need = 2 * (max + 1);
        if self.starts.len() < need {
            let len = need.max(2 * self.starts.len()).min(2 * (self.vars + 1));
            self.starts.resize(len, 0);
        }
        if long && self.lit_marks.len() < need {
            self.lit_marks.resize(need, 0);
        }
    }

    /// `self.clause` = the literals of `lits` without repetitions, in their order.
    fn load(&mut self, lits: &[i32]) {
        self.clause.clear();
        for &l in lits {
            let l = from_dimacs(l);
            if self.lit_marks[l as usize] == 0 {
                self.lit_marks[l as usize] = 1;
                self.clause.push(l);
            }
        }
        for &l in &self.clause {
            self.lit_marks[l as usize] = 0;
        }
    }

    /// Adds a clause of the formula (DIMACS literals; repetitions are dropped). After a
    /// check, this adds to the same formula: the proof's lemmas are forgotten.
    pub fn add_clause(&mut self, lits: &[i32]) {
        if let &[a, b] = lits {
            if self.add_binary(a, b) {
                return;
            }
        }
        let db = &mut self.engine.db;
        if db.len() > db.originals {
            db.truncate(db.originals);
        }
        let max = lits.iter().fold(0, |m, l| m.max(l.unsigned_abs())) as usize;
        self.formula_room(max, lits.len() > 16);
        let db = &mut self.engine.db;
        match db.push_dimacs(lits, &mut self.lit_marks) {
            Ok(id) => match db.range(id) {
                (s, e) if s == e => {
                    self.empty.get_or_insert(id);
                }
                (s, e) if s + 1 == e => self.units.push(id),
                (s, _) => {
                    self.starts[db.lits[s] as usize] += 1;
                    self.starts[db.lits[s + 1] as usize] += 1;
                }
            },
            Err(_) => {
                self.full.get_or_insert(db.len());
            }
        }
        db.originals = db.len();
    }

    /// The common case of [`add_clause`](Self::add_clause), fast: two distinct literals of
    /// known variables, no lemmas to forget, room left. False when it does not apply.
    #[inline]
    fn add_binary(&mut self, a: i32, b: i32) -> bool {
        let db = &mut self.engine.db;
        let (x, y) = (from_dimacs(a), from_dimacs(b));
        let known = (x.max(y) as usize) < self.starts.len();
        if x == y || !known || db.len() != db.originals || !db.has_room(2) {
            return false;
        }
        db.lits.extend_from_slice(&[x, y]);
        db.start.push(db.lits.len() as u32);
        db.flags.push(ALIVE);
        db.originals += 1;
        self.starts[x as usize] += 1;
        self.starts[y as usize] += 1;
        true
    }

    /// Keeps the first `n` formula clauses and forgets the others (and the last proof's
    /// lemmas): a formula that begins like the last one is then loaded by adding only the
    /// clauses after the part they share. Formulas that differ in a few clauses (a puzzle's
    /// givens, say) are cheapest to check one after the other with those clauses last.
    pub fn truncate(&mut self, n: usize) {
        let db = &mut self.engine.db;
        let n = n.min(db.originals);
        for id in n as u32..db.originals as u32 {
            if let [a, b, ..] = *db.clause(id) {
                self.starts[a as usize] = self.starts[a as usize].saturating_sub(1);
                self.starts[b as usize] = self.starts[b as usize].saturating_sub(1);
            }
        }
        db.truncate(n);
        db.originals = n;
        self.units.retain(|&id| (id as usize) < n);
        self.empty = self.empty.filter(|&id| (id as usize) < n);
        self.full = self.full.filter(|&at| at < n);
    }

    /// Adds every clause of `clauses` to the formula.
    pub fn add_clauses(&mut self, clauses: &Clauses) {
        ClauseSink::reserve(self, clauses.len(), clauses.literals());
        for c in clauses.iter() {
            self.add_clause(c);
        }
    }

    /// Checks a DRAT proof of unsatisfiability of `clauses` over `num_vars` variables: the
    /// same as [`reset`](Self::reset), [`add_clause`](Self::add_clause) for each clause (the
    /// budget read every 2^16 of them), then [`check_proof`](Self::check_proof).
    pub fn check(
        &mut self,
        num_vars: u32,
        clauses: &Clauses,
        proof: impl BufRead,
        budget: &Deadline,
    ) -> Result<ProofCheck, DratError> {
        self.reset(num_vars);
        ClauseSink::reserve(self, clauses.len(), clauses.literals());
        for (i, c) in clauses.iter().enumerate() {
            if i & 0xffff == 0xffff {
                spent(budget).map_err(interrupted(0))?;
            }
            self.add_clause(c);
        }
        self.check_proof(proof, budget)
    }

    /// Checks a DRAT proof of unsatisfiability of the formula added since the last
    /// [`reset`](Self::reset). Ok when unit propagation conflicts on the formula, or after
    /// some lemma of the proof (the rest of the proof is not read). The formula is kept, so
    /// the same formula can be checked against another proof.
    pub fn check_proof(
        &mut self,
        proof: impl BufRead,
        budget: &Deadline,
    ) -> Result<ProofCheck, DratError> {
        if self.full.is_some() {
            return Err(DratError::TooLarge {
                message: "the formula has more clauses or literals than the DRAT checker \
                          holds (2^30 clauses, 2^32 literals)"
                    .into(),
            });
        }
        let mut buffer = std::mem::take(&mut self.buffer);
        let result = self.run(proof, &mut buffer, budget);
        self.buffer = buffer;
        result
    }

    fn run(
        &mut self,
        proof: impl BufRead,
        buffer: &mut Vec<u8>,
        budget: &Deadline,
    ) -> Result<ProofCheck, DratError> {
        let backward = self.mode == CheckMode::Backward;
        let mut counts = ProofCheck {
            mode: self.mode,
            ..ProofCheck::default()
        };
        self.prepare(budget).map_err(interrupted(0))?;
        let mut reader = ProofReader::new(proof, buffer).map_err(DratError::Io)?;
        let format = reader.format();
        counts.format = Some(format);
        if self.engine.conflict.is_some() {
            return Ok(counts);
        }
        self.justify.analyze = false;
        self.justify.core_first = false;
        let mut read = std::mem::take(&mut self.read);
        let mut deletions_read = 0u64;
        let conflict = loop {
            let Some(step) = reader.next_step(&mut read)? else {
                self.read = read;
                return Err(DratError::NoConflict {
                    lemmas: counts.lemmas,
                });
            };
            self.room(&read, budget, counts.lemmas)?;
            self.load(&read);
            let stop = interrupted(counts.lemmas);
            if step.delete {
                deletions_read += 1;
                if deletions_read % POLL_STEPS == 0 {
                    spent(budget).map_err(&stop)?;
                }
                if !self.delete(budget, backward).map_err(&stop)? {
                    counts.ignored_deletions += 1;
                    continue;
                }
                counts.deletions += 1;
                if let Some(c) = self.settle(budget).map_err(&stop)? {
                    counts.refuted_at = counts.lemmas;
                    break c;
                }
                continue;
            }
            counts.lemmas += 1;
            let stop = interrupted(counts.lemmas);
            if counts.lemmas % POLL_STEPS == 0 {
                spent(budget).map_err(&stop)?;
            }
            let pivot = self.clause.first().copied().unwrap_or(NONE);
            if !backward {
                counts.checked += 1;
                if !self.implied(pivot, budget, &mut counts).map_err(&stop)? {
                    let clause = self.clause.iter().map(|&l| to_dimacs(l)).collect();
                    self.read = read;
                    return Err(DratError::NotImplied {
                        lemma: counts.lemmas,
                        position: step.position,
                        clause,
                    });
                }
            }
            let id = self
                .engine
                .db
                .push(&self.clause)
                .map_err(|_| DratError::TooLarge {
                    message: format!(
                        "{}: the proof has more clauses or literals than the DRAT checker holds \
                     (2^30 clauses, 2^32 literals)",
                        step.position
                    ),
                })?;
            self.index.insert(&self.engine.db, id);
            if backward {
                self.steps.push(id);
                self.pivots.push(pivot);
                self.places.push(match step.position {
                    ProofPosition::Text { line, column } => {
                        (line, u32::try_from(column).unwrap_or(u32::MAX))
                    }
                    ProofPosition::Binary { byte } => (byte, 0),
                });
            }
            self.engine.attach(id);
            if let Some(c) = self.settle(budget).map_err(&stop)? {
                counts.refuted_at = counts.lemmas;
                break c;
            }
        };
        self.read = read;
        if backward {
            self.backward(conflict, format, budget, &mut counts)
                .map_err(interrupted(counts.lemmas))??;
        }
        Ok(counts)
    }

    /// Makes room for the variables of a proof step.
    fn room(&mut self, lits: &[i32], budget: &Deadline, lemmas: u64) -> Result<(), DratError> {
        let Some(max) = lits.iter().map(|l| l.unsigned_abs() as usize).max() else {
            return Ok(());
        };
        if max > self.engine.trail.vars() {
            if max > self.vars + MAX_NEW_VARS {
                return Err(DratError::TooLarge {
                    message: format!(
                        "the proof names variable {max}, more than 2^24 beyond the formula's \
                         {} (the DRAT checker's limit)",
                        self.vars
                    ),
                });
            }
            self.grow(max, budget).map_err(interrupted(lemmas))?;
        }
        Ok(())
    }

    /// The formula as loaded, watched and propagated.
    fn prepare(&mut self, budget: &Deadline) -> Result<(), Interrupt> {
        let e = &mut self.engine;
        e.db.truncate(e.db.originals);
        for f in &mut e.db.flags {
            *f = ALIVE;
        }
        self.index.clear();
        self.steps.clear();
        self.pivots.clear();
        self.places.clear();
        e.clear_state();
        self.grow(self.vars, budget)?;
        let e = &mut self.engine;
        // Room for every variable an earlier proof brought in too (the trail keeps it).
        let lits = 2 * (e.trail.vars() + 1);
        e.watches
            .build(&e.db, lits, &self.starts, || spent(budget))?;
        for &id in &self.units {
            let l = e.db.clause(id)[0];
            match e.trail.value(l) {
                0 => e.trail.assign(l, id),
                -1 => e.conflict = Some(id),
                _ => {}
            }
        }
        if self.empty.is_some() {
            e.conflict = self.empty;
        }
        if e.conflict.is_none() {
            e.conflict = e.propagate(budget)?;
        }
        Ok(())
    }

    /// Propagates the top level after a step; the conflict, if the clauses now have one.
    fn settle(&mut self, budget: &Deadline) -> Result<Option<u32>, Interrupt> {
        self.engine.watches.collect();
        if self.engine.conflict.is_some() {
            return Ok(self.engine.conflict);
        }
        self.engine.propagate(budget)
    }

    /// Applies the deletion of `self.clause`; false when it is ignored (a unit, or absent).
    fn delete(&mut self, budget: &Deadline, backward: bool) -> Result<bool, Interrupt> {
        if self.clause.len() == 1 {
            return Ok(false);
        }
        if !self.index.is_built() {
            self.index.build(&self.engine.db, || spent(budget))?;
        }
        for &l in &self.clause {
            self.lit_marks[l as usize] = 1;
        }
        let found = self
            .index
            .take(&self.engine.db, &self.clause, &self.lit_marks);
        for &l in &self.clause {
            self.lit_marks[l as usize] = 0;
        }
        let Some(id) = found else {
            return Ok(false);
        };
        let e = &mut self.engine;
        e.detach(id);
        e.db.unset(id, ALIVE);
        if let Some(at) = e.implied_by(id) {
            e.retract(at);
        }
        if backward {
            self.steps.push(id | DELETE);
        }
        Ok(true)
    }

    /// Forward checking of the lemma in `self.clause`: RUP, else RAT on `pivot`.
    fn implied(
        &mut self,
        pivot: Lit,
        budget: &Deadline,
        counts: &mut ProofCheck,
    ) -> Result<bool, Interrupt> {
        if self.justify.rup(&mut self.engine, &self.clause, budget)? {
            return Ok(true);
        }
        if pivot == NONE
            || !self
                .justify
                .rat(&mut self.engine, &self.clause, pivot, budget)?
        {
            return Ok(false);
        }
        counts.rat_lemmas += 1;
        Ok(true)
    }

    /// The backward pass: from the conflict, undoes the steps in reverse order and checks
    /// each lemma that was marked core. The outer error is an interruption.
    fn backward(
        &mut self,
        conflict: u32,
        format: ProofFormat,
        budget: &Deadline,
        counts: &mut ProofCheck,
    ) -> Result<Result<(), DratError>, Interrupt> {
        self.justify.analyze = true;
        self.justify.core_first = true;
        let e = &mut self.engine;
        self.justify.analyze_conflict(e, conflict, budget)?;
        e.conflict = None;
        let mut lemma = counts.lemmas;
        let mut steps = std::mem::take(&mut self.steps);
        let mut result = Ok(Ok(()));
        for (i, &step) in steps.iter().enumerate().rev() {
            if i as u64 % POLL_STEPS == 0 {
                if let Err(why) = spent(budget) {
                    result = Err(why);
                    break;
                }
            }
            match self.undo(step, lemma, format, budget, counts) {
                Ok(Ok(())) => {}
                other => {
                    result = other;
                    break;
                }
            }
            if step & DELETE == 0 {
                lemma -= 1;
            }
        }
        steps.clear();
        self.steps = steps;
        result
    }

    /// Undoes one step of the backward pass, checking the lemma it added if it is core.
    fn undo(
        &mut self,
        step: u32,
        lemma: u64,
        format: ProofFormat,
        budget: &Deadline,
        counts: &mut ProofCheck,
    ) -> Result<Result<(), DratError>, Interrupt> {
        let e = &mut self.engine;
        if step & DELETE != 0 {
            let id = step & !DELETE;
            e.db.set(id, ALIVE);
            e.attach(id);
            return Ok(Ok(()));
        }
        let id = step;
        if let Some(at) = e.implied_by(id) {
            // Retraction works from a fixpoint: restored clauses may have set literals.
            if e.conflict.is_none() && !e.trail.settled() {
                e.conflict = e.propagate_core_first(budget)?;
            }
            e.detach(id);
            e.db.unset(id, ALIVE);
            e.retract(at);
        } else {
            e.detach(id);
            e.db.unset(id, ALIVE);
        }
        if !e.db.is(id, CORE) {
            return Ok(Ok(()));
        }
        counts.checked += 1;
        e.watches.collect();
        if e.conflict.is_none() {
            e.conflict = e.propagate_core_first(budget)?;
        }
        self.clause.clear();
        self.clause.extend_from_slice(e.db.clause(id));
        if self.justify.rup(e, &self.clause, budget)? {
            return Ok(Ok(()));
        }
        let pivot = self.pivots[(lemma - 1) as usize];
        if pivot != NONE && self.justify.rat(e, &self.clause, pivot, budget)? {
            counts.rat_lemmas += 1;
            return Ok(Ok(()));
        }
        let (a, b) = self.places[(lemma - 1) as usize];
        let position = match format {
            ProofFormat::Text => ProofPosition::Text {
                line: a,
                column: u64::from(b),
            },
            ProofFormat::Binary => ProofPosition::Binary { byte: a },
        };
        // The lemma's literals, its first literal (the RAT pivot) first.
        let clause = self
            .clause
            .iter()
            .filter(|&&l| l == pivot)
            .chain(self.clause.iter().filter(|&&l| l != pivot))
            .map(|&l| to_dimacs(l))
            .collect();
        Ok(Err(DratError::NotImplied {
            lemma,
            position,
            clause,
        }))
    }
}

impl ClauseSink for DratChecker {
    fn add_clause(&mut self, lits: &[i32]) {
        DratChecker::add_clause(self, lits)
    }

    fn reserve(&mut self, clauses: usize, literals: usize) {
        let db: &mut ClauseDb = &mut self.engine.db;
        db.lits.reserve(literals);
        db.start.reserve(clauses);
        db.flags.reserve(clauses);
    }
}
