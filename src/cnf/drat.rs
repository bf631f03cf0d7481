//! Checking a solver's claim of unsatisfiability: forward checking of a DRAT proof.
//!
//! Source: N. Wetzler, M. J. H. Heule and W. A. Hunt Jr., "DRAT-trim: Efficient checking and
//! trimming using expressive clausal proofs" (SAT 2014), which defines the format that CaDiCaL,
//! Kissat, MiniSat-derived solvers and the SAT competition use, in both its text and its binary
//! form. A proof is a sequence of steps, each adding a *lemma* or deleting a clause. A lemma
//! is accepted when it is
//! - **RUP** (reverse unit propagation): unit propagation on the current clauses plus the
//!   negation of the lemma reaches a conflict; or
//! - **RAT** (resolution asymmetric tautology) on its first literal `p`: for every current
//!   clause `D` holding `-p`, the resolvent `lemma ∪ (D \ {-p})` is RUP.
//!
//! Both kinds keep the clause set satisfiable if the formula is, and deleting clauses does too,
//! so once unit propagation on the current clauses conflicts the formula is proved
//! unsatisfiable. That is what this checker looks for ([`ProofCheck::refuted_at`]).
//!
//! This is *forward* checking: every lemma is checked, in order, with no core-first trimming
//! and no backward pass. It is simple and sound, and slower than drat-trim on long proofs; the
//! check therefore takes a [`Budget`].
//!
//! Conventions taken from drat-trim, so that proofs accepted there are accepted here:
//! - the deletion of a unit clause is ignored (solvers delete satisfied units that the
//!   checker still needs; ignoring a deletion only makes the RUP check use more clauses and the
//!   RAT check use more resolvents, which keeps it sound) and counted;
//! - the deletion of a clause that is not present is ignored and counted;
//! - a file is binary when its first byte is `a` or when its first block holds a byte that is
//!   neither printable ASCII nor white space; otherwise it is text.
//!
//! Counters ([`ProofCheck`]): `lemmas` = addition steps read and checked, `rat_lemmas` = those
//! accepted by RAT (not RUP), `deletions` = deletion steps that removed a clause,
//! `ignored_deletions` = deletion steps ignored by the two rules above.
//!
//! Top-level assignments (from unit clauses) are kept between checks, each with the clause
//! that implied it; deleting such a reason clause makes them be recomputed before the next
//! check, so a lemma is never checked against a literal the current clauses do not imply.

use std::collections::HashMap;
use std::fmt;
use std::io::{self, BufRead};

use super::formula::Clauses;
use super::{Budget, Interrupt};

/// Where a proof step starts: a 1-based line and column in a text proof, a 0-based byte
/// offset in a binary one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProofPosition {
    Text { line: u64, column: u64 },
    Binary { byte: u64 },
}

impl fmt::Display for ProofPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProofPosition::Text { line, column } => write!(f, "line {line}, column {column}"),
            ProofPosition::Binary { byte } => write!(f, "byte {byte}"),
        }
    }
}

/// The form of a proof file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProofFormat {
    Text,
    Binary,
}

/// Why a proof does not prove the formula unsatisfiable.
#[derive(Debug)]
pub enum DratError {
    /// The file could not be read.
    Io(io::Error),
    /// The file is not a DRAT proof at this position.
    Syntax {
        position: ProofPosition,
        message: String,
    },
    /// Lemma number `lemma` (1-based, counting additions only) is neither RUP nor RAT on its
    /// first literal.
    NotImplied {
        lemma: u64,
        position: ProofPosition,
        clause: Vec<i32>,
    },
    /// The proof ended, after `lemmas` lemmas, without unit propagation reaching a conflict.
    NoConflict { lemmas: u64 },
    /// The budget ran out after `lemmas` lemmas.
    Interrupted { lemmas: u64, interrupt: Interrupt },
}

impl fmt::Display for DratError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DratError::Io(e) => write!(f, "{e}"),
            DratError::Syntax { position, message } => write!(f, "{position}: {message}"),
            DratError::NotImplied {
                lemma,
                position,
                clause,
            } => {
                let text: String = clause.iter().map(|l| format!("{l} ")).collect();
                write!(
                    f,
                    "{position}: lemma {lemma} `{text}0` is neither RUP nor RAT on its first \
                     literal with respect to the clauses before it"
                )
            }
            DratError::NoConflict { lemmas } => write!(
                f,
                "the proof ends after {lemmas} lemmas without deriving the empty clause (unit \
                 propagation on the clauses left reaches no conflict)"
            ),
            DratError::Interrupted { lemmas, interrupt } => {
                let why = match interrupt {
                    Interrupt::Time => "at the time limit",
                    Interrupt::Cancelled => "on cancellation",
                    Interrupt::ConflictLimit => "at the conflict limit",
                    Interrupt::DecisionLimit => "at the decision limit",
                };
                write!(f, "the check stopped {why} after {lemmas} lemmas")
            }
        }
    }
}

impl std::error::Error for DratError {}

/// What a successful check counted (see the module doc for each counter's definition).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProofCheck {
    pub format: Option<ProofFormat>,
    pub lemmas: u64,
    pub rat_lemmas: u64,
    pub deletions: u64,
    pub ignored_deletions: u64,
    /// The lemma after which unit propagation conflicted: 0 when the formula alone does.
    pub refuted_at: u64,
}

/// Reads proof steps from text or binary DRAT.
struct ProofReader<R> {
    input: R,
    format: ProofFormat,
    // Text: current line and the column of the next byte; binary: the next byte's offset.
    line: u64,
    column: u64,
    byte: u64,
    in_comment: bool,
}

impl<R: BufRead> ProofReader<R> {
    fn new(mut input: R) -> io::Result<Self> {
        let head = input.fill_buf()?;
        let binary = head.first() == Some(&b'a')
            || head
                .iter()
                .any(|&b| !(b.is_ascii_graphic() || b.is_ascii_whitespace()));
        Ok(Self {
            input,
            format: if binary {
                ProofFormat::Binary
            } else {
                ProofFormat::Text
            },
            line: 1,
            column: 1,
            byte: 0,
            in_comment: false,
        })
    }

    fn next_byte(&mut self) -> io::Result<Option<u8>> {
        let buf = self.input.fill_buf()?;
        let Some(&b) = buf.first() else {
            return Ok(None);
        };
        self.input.consume(1);
        self.byte += 1;
        if b == b'\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Ok(Some(b))
    }

    fn peek_byte(&mut self) -> io::Result<Option<u8>> {
        Ok(self.input.fill_buf()?.first().copied())
    }

    fn position(&self) -> ProofPosition {
        match self.format {
            ProofFormat::Text => ProofPosition::Text {
                line: self.line,
                column: self.column,
            },
            ProofFormat::Binary => ProofPosition::Binary { byte: self.byte },
        }
    }

    fn syntax(&self, position: ProofPosition, message: String) -> DratError {
        DratError::Syntax { position, message }
    }

    /// The next step, or `None` at the end of the file. `lits` is reused.
    fn next_step(
        &mut self,
        lits: &mut Vec<i32>,
    ) -> Result<Option<(bool, ProofPosition)>, DratError> {
        lits.clear();
        match self.format {
            ProofFormat::Text => self.next_text_step(lits),
            ProofFormat::Binary => self.next_binary_step(lits),
        }
    }

    fn next_binary_step(
        &mut self,
        lits: &mut Vec<i32>,
    ) -> Result<Option<(bool, ProofPosition)>, DratError> {
        let start = self.position();
        let delete = match self.next_byte().map_err(DratError::Io)? {
            None => return Ok(None),
            Some(b'a') => false,
            Some(b'd') => true,
            Some(b) => {
                return Err(self.syntax(
                    start,
                    format!(
                        "expected `a` (0x61) or `d` (0x64) to start a binary step, found 0x{b:02x}"
                    ),
                ))
            }
        };
        loop {
            let at = self.position();
            let mut value: u64 = 0;
            let mut shift = 0;
            loop {
                let Some(b) = self.next_byte().map_err(DratError::Io)? else {
                    return Err(self.syntax(
                        at,
                        "expected a literal or the 0 that ends the clause, found the end of the file"
                            .into(),
                    ));
                };
                value |= u64::from(b & 0x7f) << shift;
                if b & 0x80 == 0 {
                    break;
                }
                shift += 7;
                if shift > 35 {
                    return Err(self.syntax(
                        at,
                        "expected a literal of at most 31 bits, found a longer number".into(),
                    ));
                }
            }
            if value == 0 {
                return Ok(Some((delete, start)));
            }
            let var = value >> 1;
            if var == 0 || var > i32::MAX as u64 {
                return Err(self.syntax(
                    at,
                    format!(
                        "expected a literal (2 * variable + sign, variable 1 to {}), found {value}",
                        i32::MAX
                    ),
                ));
            }
            let var = var as i32;
            lits.push(if value & 1 == 1 { -var } else { var });
        }
    }

    fn next_text_step(
        &mut self,
        lits: &mut Vec<i32>,
    ) -> Result<Option<(bool, ProofPosition)>, DratError> {
        let mut start: Option<ProofPosition> = None;
        let mut delete = false;
        let mut token = String::new();
        loop {
            // Skip white space and comment lines.
            let Some(b) = self.peek_byte().map_err(DratError::Io)? else {
                return match start {
                    None => Ok(None),
                    Some(_) => Err(self.syntax(
                        self.position(),
                        "expected a literal or the 0 that ends the clause, found the end of the file"
                            .into(),
                    )),
                };
            };
            if self.in_comment {
                self.next_byte().map_err(DratError::Io)?;
                if b == b'\n' {
                    self.in_comment = false;
                }
                continue;
            }
            if b.is_ascii_whitespace() {
                self.next_byte().map_err(DratError::Io)?;
                continue;
            }
            if b == b'c' && start.is_none() {
                self.in_comment = true;
                continue;
            }
            let at = self.position();
            token.clear();
            while let Some(b) = self.peek_byte().map_err(DratError::Io)? {
                if b.is_ascii_whitespace() {
                    break;
                }
                token.push(b as char);
                self.next_byte().map_err(DratError::Io)?;
            }
            if token == "d" && start.is_none() {
                start = Some(at);
                delete = true;
                continue;
            }
            let value: i64 = token.parse().map_err(|_| {
                self.syntax(
                    at,
                    format!(
                        "expected a literal (a non-zero integer), a 0 ending the clause, `d` or a \
                         `c` comment line, found `{token}`"
                    ),
                )
            })?;
            let start = *start.get_or_insert(at);
            if value == 0 {
                return Ok(Some((delete, start)));
            }
            if value.unsigned_abs() > i32::MAX as u64 {
                return Err(self.syntax(
                    at,
                    format!(
                        "expected a literal of magnitude at most {}, found {value}",
                        i32::MAX
                    ),
                ));
            }
            lits.push(value as i32);
        }
    }
}

const NONE: u32 = u32::MAX;

/// The clause database with unit propagation by two watched literals.
#[derive(Default)]
struct Checker {
    /// Literals of every clause ever added, in DIMACS form; the first two of a clause of two or
    /// more literals are its watched ones.
    arena: Vec<i32>,
    start: Vec<u32>,
    len: Vec<u32>,
    alive: Vec<bool>,
    /// Clause ids watching each literal (index [`code`]); deleted ids are dropped lazily.
    watches: Vec<Vec<u32>>,
    /// Value of each literal (index [`code`]): 1 true, -1 false, 0 unassigned.
    val: Vec<i8>,
    /// The clause that made each variable true at the top level (index `var - 1`).
    reason: Vec<u32>,
    trail: Vec<i32>,
    /// Trail length at the top level (assignments implied by the clauses alone).
    top: usize,
    head: usize,
    /// Ids of unit clauses still present.
    units: Vec<u32>,
    /// Clause ids by an order-independent hash of their literals, to find deletions.
    index: HashMap<u64, Vec<u32>>,
    /// The top-level trail holds a literal whose reason was deleted: recompute it.
    stale: bool,
    /// Unit propagation on the clauses alone conflicts: the clause set is unsatisfiable.
    refuted: bool,
    /// Per-literal marks for removing duplicate literals.
    seen: Vec<bool>,
}

/// Index of a literal in per-literal arrays.
fn code(lit: i32) -> usize {
    (((lit.unsigned_abs() - 1) as usize) << 1) | usize::from(lit < 0)
}

/// An order-independent hash of a clause's literals (a sum of mixed values).
fn clause_hash(lits: &[i32]) -> u64 {
    lits.iter().fold(0u64, |h, &l| {
        let mut x = (l as i64 as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        x ^= x >> 31;
        h.wrapping_add(x.wrapping_mul(0xbf58_476d_1ce4_e5b9))
    })
}

impl Checker {
    fn grow(&mut self, var: u32) {
        let need = 2 * var as usize;
        if self.val.len() < need {
            self.val.resize(need, 0);
            self.watches.resize_with(need, Vec::new);
            self.seen.resize(need, false);
            self.reason.resize(var as usize, NONE);
        }
    }

    fn value(&self, lit: i32) -> i8 {
        self.val[code(lit)]
    }

    fn assign(&mut self, lit: i32, reason: u32) {
        self.val[code(lit)] = 1;
        self.val[code(-lit)] = -1;
        self.reason[(lit.unsigned_abs() - 1) as usize] = reason;
        self.trail.push(lit);
    }

    fn clause(&self, id: u32) -> &[i32] {
        let s = self.start[id as usize] as usize;
        &self.arena[s..s + self.len[id as usize] as usize]
    }

    /// Unit propagation from `head`; true on a conflict.
    fn propagate(&mut self) -> bool {
        while self.head < self.trail.len() {
            let falsified = -self.trail[self.head];
            self.head += 1;
            let f = code(falsified);
            let mut list = std::mem::take(&mut self.watches[f]);
            let (mut i, mut j) = (0, 0);
            let mut conflict = false;
            while i < list.len() {
                let id = list[i];
                i += 1;
                if !self.alive[id as usize] {
                    continue;
                }
                let s = self.start[id as usize] as usize;
                let n = self.len[id as usize] as usize;
                if self.arena[s] == falsified {
                    self.arena.swap(s, s + 1);
                }
                let first = self.arena[s];
                if self.value(first) == 1 {
                    list[j] = id;
                    j += 1;
                    continue;
                }
                let mut moved = false;
                for k in 2..n {
                    let l = self.arena[s + k];
                    if self.value(l) != -1 {
                        self.arena.swap(s + 1, s + k);
                        self.watches[code(l)].push(id);
                        moved = true;
                        break;
                    }
                }
                if moved {
                    continue;
                }
                list[j] = id;
                j += 1;
                if self.value(first) == -1 {
                    conflict = true;
                    break;
                }
                self.assign(first, id);
            }
            while i < list.len() {
                list[j] = list[i];
                i += 1;
                j += 1;
            }
            list.truncate(j);
            self.watches[f] = list;
            if conflict {
                return true;
            }
        }
        false
    }

    /// Back to the top-level trail.
    fn undo(&mut self) {
        for &lit in &self.trail[self.top..] {
            self.val[code(lit)] = 0;
            self.val[code(-lit)] = 0;
        }
        self.trail.truncate(self.top);
        self.head = self.top;
    }

    /// Propagates the top level after a change; sets `refuted` on a conflict.
    fn settle(&mut self) {
        if self.stale {
            self.stale = false;
            self.top = 0;
            self.undo();
            for i in 0..self.units.len() {
                let id = self.units[i];
                let lit = self.clause(id)[0];
                match self.value(lit) {
                    1 => {}
                    -1 => {
                        self.refuted = true;
                        return;
                    }
                    _ => self.assign(lit, id),
                }
            }
        }
        if self.propagate() {
            self.refuted = true;
        }
        self.top = self.trail.len();
        self.head = self.top;
    }

    /// True when unit propagation on the clauses plus the negation of `lits` conflicts.
    fn rup(&mut self, lits: &[i32]) -> bool {
        debug_assert_eq!(self.top, self.trail.len());
        let mut conflict = false;
        for &l in lits {
            match self.value(l) {
                1 => {
                    conflict = true;
                    break;
                }
                -1 => {}
                _ => self.assign(-l, NONE),
            }
        }
        if !conflict {
            conflict = self.propagate();
        }
        self.undo();
        conflict
    }

    /// True when `lits` is RAT on its first literal. `scratch` holds resolvents.
    fn rat(
        &mut self,
        lits: &[i32],
        scratch: &mut Vec<i32>,
        budget: &Budget,
    ) -> Result<bool, Interrupt> {
        let Some(&pivot) = lits.first() else {
            return Ok(false);
        };
        for id in 0..self.alive.len() as u32 {
            if id % 4096 == 0 {
                if let Some(why) = budget.spent() {
                    return Err(why);
                }
            }
            if !self.alive[id as usize] || !self.clause(id).contains(&-pivot) {
                continue;
            }
            scratch.clear();
            scratch.extend_from_slice(lits);
            scratch.extend(self.clause(id).iter().copied().filter(|&l| l != -pivot));
            let resolvent = std::mem::take(scratch);
            let ok = self.rup(&resolvent);
            *scratch = resolvent;
            if !ok {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Adds a clause (duplicate literals dropped) at the top level.
    fn add(&mut self, lits: &[i32]) {
        let id = self.start.len() as u32;
        let s = self.arena.len();
        for &l in lits {
            if !self.seen[code(l)] {
                self.seen[code(l)] = true;
                self.arena.push(l);
            }
        }
        for &l in &self.arena[s..] {
            self.seen[code(l)] = false;
        }
        let n = self.arena.len() - s;
        self.start.push(s as u32);
        self.len.push(n as u32);
        self.alive.push(true);
        self.index
            .entry(clause_hash(&self.arena[s..]))
            .or_default()
            .push(id);
        match n {
            0 => self.refuted = true,
            1 => {
                self.units.push(id);
                let lit = self.arena[s];
                match self.value(lit) {
                    1 => {}
                    -1 => self.refuted = true,
                    _ => self.assign(lit, id),
                }
            }
            _ => {
                // Watch two literals that are not false if there are two; if only one is
                // left, the clause is unit (or conflicting) at the top level.
                let mut free = 0;
                for k in 0..n {
                    if self.value(self.arena[s + k]) != -1 {
                        self.arena.swap(s + free, s + k);
                        free += 1;
                        if free == 2 {
                            break;
                        }
                    }
                }
                self.watches[code(self.arena[s])].push(id);
                self.watches[code(self.arena[s + 1])].push(id);
                if free == 0 {
                    self.refuted = true;
                } else if free == 1 && self.value(self.arena[s]) == 0 {
                    self.assign(self.arena[s], id);
                }
            }
        }
    }

    /// Deletes a clause with these literals; false when the deletion is ignored.
    fn delete(&mut self, lits: &[i32], scratch: &mut Vec<i32>) -> bool {
        scratch.clear();
        scratch.extend_from_slice(lits);
        scratch.sort_unstable();
        scratch.dedup();
        let hash = clause_hash(scratch);
        let Some(ids) = self.index.get(&hash) else {
            return false;
        };
        let mut sorted = Vec::new();
        let found = ids.iter().position(|&id| {
            sorted.clear();
            sorted.extend_from_slice(self.clause(id));
            sorted.sort_unstable();
            sorted == *scratch
        });
        let Some(at) = found else {
            return false;
        };
        let id = ids[at];
        if self.len[id as usize] == 1 {
            return false;
        }
        let ids = self.index.get_mut(&hash).expect("present");
        ids.swap_remove(at);
        if ids.is_empty() {
            self.index.remove(&hash);
        }
        self.alive[id as usize] = false;
        let first = self.clause(id)[0];
        if self.value(first) == 1 && self.reason[(first.unsigned_abs() - 1) as usize] == id {
            self.stale = true;
        }
        true
    }
}

/// Checks a DRAT proof of unsatisfiability of the formula `clauses` over `num_vars` variables.
/// Ok when unit propagation conflicts on the formula, or after some lemma of the proof.
pub fn check_drat(
    num_vars: u32,
    clauses: &Clauses,
    proof: impl BufRead,
    budget: &Budget,
) -> Result<ProofCheck, DratError> {
    let mut checker = Checker::default();
    checker.grow(num_vars.max(clauses.max_var()));
    for clause in clauses.iter() {
        checker.add(clause);
    }
    checker.settle();
    let mut counts = ProofCheck::default();
    let mut reader = ProofReader::new(proof).map_err(DratError::Io)?;
    counts.format = Some(reader.format);
    if checker.refuted {
        return Ok(counts);
    }
    let mut lits = Vec::new();
    let mut scratch = Vec::new();
    while let Some((delete, position)) = reader.next_step(&mut lits)? {
        if let Some(&max) = lits.iter().map(|l| l.unsigned_abs()).max().as_ref() {
            checker.grow(max);
        }
        if delete {
            if checker.delete(&lits, &mut scratch) {
                counts.deletions += 1;
            } else {
                counts.ignored_deletions += 1;
            }
            continue;
        }
        counts.lemmas += 1;
        if counts.lemmas % 256 == 0 {
            if let Some(interrupt) = budget.spent() {
                return Err(DratError::Interrupted {
                    lemmas: counts.lemmas,
                    interrupt,
                });
            }
        }
        if checker.stale {
            checker.settle();
            if checker.refuted {
                counts.refuted_at = counts.lemmas - 1;
                return Ok(counts);
            }
        }
        if !checker.rup(&lits) {
            let rat = checker
                .rat(&lits, &mut scratch, budget)
                .map_err(|interrupt| DratError::Interrupted {
                    lemmas: counts.lemmas,
                    interrupt,
                })?;
            if !rat {
                return Err(DratError::NotImplied {
                    lemma: counts.lemmas,
                    position,
                    clause: lits,
                });
            }
            counts.rat_lemmas += 1;
        }
        checker.add(&lits);
        checker.settle();
        if checker.refuted {
            counts.refuted_at = counts.lemmas;
            return Ok(counts);
        }
    }
    Err(DratError::NoConflict {
        lemmas: counts.lemmas,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn formula(clauses: &[&[i32]]) -> (u32, Clauses) {
        let mut c = Clauses::new();
        for cl in clauses {
            c.push(cl);
        }
        (c.max_var(), c)
    }

    fn check(clauses: &[&[i32]], proof: &[u8]) -> Result<ProofCheck, DratError> {
        let (n, c) = formula(clauses);
        check_drat(n, &c, proof, &Budget::default())
    }

    /// The pigeonhole formula: 3 pigeons, 2 holes; `p(i, j)` = pigeon i in hole j.
    fn php32() -> Vec<Vec<i32>> {
        let p = |i: i32, j: i32| 2 * (i - 1) + j;
        let mut f: Vec<Vec<i32>> = (1..=3).map(|i| vec![p(i, 1), p(i, 2)]).collect();
        for j in 1..=2 {
            for a in 1..=3 {
                for b in a + 1..=3 {
                    f.push(vec![-p(a, j), -p(b, j)]);
                }
            }
        }
        f
    }

    fn run_php(proof: &[u8]) -> Result<ProofCheck, DratError> {
        let f = php32();
        let refs: Vec<&[i32]> = f.iter().map(|c| c.as_slice()).collect();
        check(&refs, proof)
    }

    /// (1 2)(-1 5)(4 -2): satisfiable; `2 1` follows (it is a clause), `1 3` does not.
    fn small() -> [&'static [i32]; 3] {
        [&[1, 2], &[-1, 5], &[4, -2]]
    }

    #[test]
    fn a_rup_proof_of_the_pigeonhole_formula_is_accepted() {
        // With pigeon 1 in hole 1, pigeons 2 and 3 both need hole 2: `-1` is RUP, and once
        // it is added, propagation alone conflicts.
        let got = run_php(b"c a RUP proof\n-1 0\n").expect("valid proof");
        assert_eq!(got.format, Some(ProofFormat::Text));
        assert_eq!((got.lemmas, got.rat_lemmas, got.refuted_at), (1, 0, 1));
    }

    #[test]
    fn a_lemma_that_does_not_follow_is_refused_with_its_position() {
        // `1 3`: assuming -1 and -3 propagates 2 and 4, no conflict (not RUP); its resolvent
        // on 1 with (-1 5), `1 3 5`, is not RUP either (not RAT).
        let err = check(&small(), b"c x\n2 1 0\n 1 3 0\n").unwrap_err();
        match err {
            DratError::NotImplied {
                lemma,
                position,
                clause,
            } => {
                assert_eq!(lemma, 2);
                assert_eq!(position, ProofPosition::Text { line: 3, column: 2 });
                assert_eq!(clause, vec![1, 3]);
            }
            other => panic!("expected NotImplied, got {other:?}"),
        }
        // The same clause with the fresh variable first is RAT on 3 (no clause holds -3).
        let err = check(&small(), b"3 1 0\n").unwrap_err();
        assert!(
            matches!(err, DratError::NoConflict { lemmas: 1 }),
            "{err:?}"
        );
    }

    #[test]
    fn a_proof_that_stops_short_is_not_a_refutation() {
        let err = check(&small(), b"2 1 0\n").unwrap_err();
        assert!(
            matches!(err, DratError::NoConflict { lemmas: 1 }),
            "{err:?}"
        );
        let err = check(&[&[1, 2]], b"").unwrap_err();
        assert!(
            matches!(err, DratError::NoConflict { lemmas: 0 }),
            "{err:?}"
        );
    }

    #[test]
    fn a_formula_refuted_by_propagation_needs_no_lemma() {
        let got = check(&[&[1], &[-1, 2], &[-2]], b"").unwrap();
        assert_eq!((got.lemmas, got.refuted_at), (0, 0));
        // An empty clause in the formula.
        let got = check(&[&[1, 2], &[]], b"").unwrap();
        assert_eq!(got.refuted_at, 0);
    }

    #[test]
    fn rat_lemmas_are_counted() {
        // (1 2)(-1 2)(1 -2)(-1 -2) is unsat. `3` (fresh) is not RUP but RAT on 3; then `1` is
        // RUP and refutes.
        let f: &[&[i32]] = &[&[1, 2], &[-1, 2], &[1, -2], &[-1, -2]];
        let got = check(f, b"3 0\n1 0\n").unwrap();
        assert_eq!((got.lemmas, got.rat_lemmas, got.refuted_at), (2, 1, 2));
    }

    #[test]
    fn deleting_a_reason_recomputes_what_the_clauses_imply() {
        // The unit 1 and (-1 2) imply 2. Once (-1 2) is deleted, `2` no longer follows:
        // (1)(3 4)(-2 3) does not imply it, and its resolvent `2 3` with (-2 3) is not RUP.
        let f: &[&[i32]] = &[&[1], &[-1, 2], &[3, 4], &[-2, 3]];
        let err = check(f, b"d -1 2 0\n2 0\n").unwrap_err();
        assert!(
            matches!(err, DratError::NotImplied { lemma: 1, .. }),
            "{err:?}"
        );
        // Without the deletion the same lemma follows (and the proof stops short).
        let err = check(f, b"2 0\n").unwrap_err();
        assert!(
            matches!(err, DratError::NoConflict { lemmas: 1 }),
            "{err:?}"
        );
    }

    #[test]
    fn unit_and_absent_deletions_are_ignored_and_counted() {
        let f: &[&[i32]] = &[&[1, 2], &[-1, 2], &[1, -2], &[-1, -2], &[9], &[5, 6]];
        // `d 1 3`: absent. `d 9`: a unit. `d 6 5`: present (in another order), deleted.
        let got = check(f, b"d 1 3 0\nd 9 0\nd 6 5 0\n1 0\n").unwrap();
        assert_eq!((got.deletions, got.ignored_deletions), (1, 2));
        assert_eq!(got.refuted_at, 1);
    }

    /// The binary form of a step: `a`/`d`, then each literal as 2·var + sign in 7-bit groups.
    fn binary(steps: &[(bool, &[i32])]) -> Vec<u8> {
        let mut out = Vec::new();
        for (delete, lits) in steps {
            out.push(if *delete { b'd' } else { b'a' });
            for &l in lits.iter().chain(&[0]) {
                let mut u = if l == 0 {
                    0
                } else {
                    2 * l.unsigned_abs() as u64 + u64::from(l < 0)
                };
                loop {
                    let b = (u & 0x7f) as u8;
                    u >>= 7;
                    if u == 0 {
                        out.push(b);
                        break;
                    }
                    out.push(b | 0x80);
                }
            }
        }
        out
    }

    #[test]
    fn binary_proofs_are_read_like_text_ones() {
        let got = run_php(&binary(&[(false, &[-1])])).unwrap();
        assert_eq!(got.format, Some(ProofFormat::Binary));
        assert_eq!((got.lemmas, got.refuted_at), (1, 1));
        // Multi-byte literals (variable 200 needs two bytes) and a deletion.
        let bytes = binary(&[(false, &[200, -1]), (true, &[-1, 200]), (false, &[-1])]);
        let got = run_php(&bytes).unwrap();
        assert_eq!((got.lemmas, got.deletions, got.refuted_at), (2, 1, 2));
        // A wrong lemma is placed at its byte offset: `a 4 2 0` takes bytes 0-3.
        let err = check(&small(), &binary(&[(false, &[2, 1]), (false, &[1, 3])])).unwrap_err();
        assert!(
            matches!(
                err,
                DratError::NotImplied {
                    lemma: 2,
                    position: ProofPosition::Binary { byte: 4 },
                    ..
                }
            ),
            "{err:?}"
        );
    }

    #[test]
    fn malformed_proofs_name_the_position() {
        let err = check(&small(), b"2 1 0\n-2 x 0\n").unwrap_err();
        match err {
            DratError::Syntax { position, message } => {
                assert_eq!(position, ProofPosition::Text { line: 2, column: 4 });
                assert!(message.contains("found `x`"), "{message}");
            }
            other => panic!("{other:?}"),
        }
        let err = check(&small(), b"2 1 0\n-2").unwrap_err();
        assert!(matches!(err, DratError::Syntax { .. }), "{err:?}");
        let err = check(&small(), b"a\x03").unwrap_err();
        assert!(
            matches!(
                err,
                DratError::Syntax {
                    position: ProofPosition::Binary { byte: 2 },
                    ..
                }
            ),
            "{err:?}"
        );
        let err = check(&small(), b"a\x04\x02\x00\x07").unwrap_err();
        match err {
            DratError::Syntax { position, message } => {
                assert_eq!(position, ProofPosition::Binary { byte: 4 });
                assert!(message.contains("found 0x07"), "{message}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_spent_budget_stops_the_check() {
        let budget = Budget {
            deadline: Some(std::time::Instant::now()),
            cancel: None,
        };
        let mut proof = String::new();
        for _ in 0..300 {
            proof.push_str("1 2 0\n");
        }
        let (n, c) = formula(&[&[1, 2], &[-1, 2], &[1, -2], &[-1, -2, 3]]);
        let err = check_drat(n, &c, proof.as_bytes(), &budget).unwrap_err();
        assert!(
            matches!(
                err,
                DratError::Interrupted {
                    lemmas: 256,
                    interrupt: Interrupt::Time
                }
            ),
            "{err:?}"
        );
    }
}
