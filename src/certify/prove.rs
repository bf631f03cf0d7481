//! Producing a certificate: a verdict, its solutions, and a DRAT proof against the canonical
//! formula ([`super::canonical`]), whatever encoding the solver ran on.
//!
//! The steps, for a puzzle `P` with canonical formula `F`:
//! 1. Encode `P` with the chosen encoding `E` (any of [`CnfEncoding`](crate::cnf::CnfEncoding), any [`Amo`](crate::cnf::Amo)), keeping
//!    the deductions made before encoding (`reduced`: singles, locked candidates, probing) as
//!    lemmas over the canonical variables ([`Scratch::keep_deductions`]; each is RUP against
//!    `F` and the lemmas before it: `crate::cnf::singles` says why for each rule).
//! 2. Justify `E`'s auxiliary variables (at-most-one encodings other than pairwise). Each
//!    auxiliary variable `a` of an at-most-one group `X` is first *defined* as the OR of the
//!    members of `X` that make it true (`aux_lemmas`): `(a -x)` for each such `x`, then
//!    `(-a x...)`. These are RAT lemmas on their first literal, the standard way to
//!    introduce a fresh variable by definition (extended resolution: G. S. Tseitin, "On the
//!    complexity of derivation in propositional calculus", 1968; RAT: M. Järvisalo, M. Heule
//!    and A. Biere, "Inprocessing rules", IJCAR 2012). Every other clause of the group then
//!    follows by unit propagation, directly when it holds a negated member of `X` and
//!    otherwise after one case split on the members of `X` (a lemma `(-x C)` for each).
//!    The other clauses of `E` are clauses of `F` with literals that `F` and the lemmas
//!    make false at the top level removed, so unit propagation treats them alike and they
//!    need no lemma.
//! 3. Solve `E` with varisat, which writes a DRAT proof of every conflict; its literals are
//!    renamed to the canonical numbering (a primary variable to `v(cell, digit)`, an
//!    auxiliary one to a fresh number above `F`'s variables) and appended.
//!    - `E` unsatisfiable: the verdict is `unsat`, and the proof refutes `F`.
//!    - `E` satisfiable with grid `s`: a second, fresh solver gets `E` plus the blocking
//!      clause of `s` (varisat's DRAT output does not allow clauses added after a solve).
//!      Unsatisfiable: `unique`, and the proof refutes `F` plus the canonical blocking clause
//!      of `s` (`E`'s blocking clause is that clause without the literals of the cells that
//!      propagation decided, which the lemmas make false). Satisfiable: `multiple`, with two
//!      solutions and no proof.
//! 4. The proof ends with the empty clause.
//!
//! A puzzle that propagation refutes or fills needs no solver: its proof is the deduction
//! lemmas and the empty clause.
//!
//! Every solution is checked against the puzzle before it is reported; the proof is checked
//! by [`super::check`] before a verdict is called certified.

use super::canonical::{Canonical, CanonicalForm};
use super::drat_out::DratText;
use crate::cnf::{
    decode, encode_into, Clauses, CnfOptions, Deadline, EncodeLimits, EncodeStop, GivensMode,
    Interrupt, Model, Scratch,
};
use crate::puzzle::{Grid, Puzzle};
use std::cell::RefCell;
use std::collections::HashMap;
use std::io;
use std::rc::Rc;
use varisat::{ExtendFormula, Lit, ProofFormat};

/// What a certificate says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// One solution; the proof refutes the canonical formula plus its blocking clause.
    Unique,
    /// Two distinct solutions; no proof.
    Multiple,
    /// No solution; the proof refutes the canonical formula.
    Unsat,
    /// A limit stopped the search first.
    Unknown,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Unique => "unique",
            Verdict::Multiple => "multiple",
            Verdict::Unsat => "unsat",
            Verdict::Unknown => "unknown",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "unique" => Verdict::Unique,
            "multiple" => Verdict::Multiple,
            "unsat" => Verdict::Unsat,
            "unknown" => Verdict::Unknown,
            _ => return None,
        })
    }

    /// Whether the verdict comes with a proof.
    pub fn has_proof(self) -> bool {
        matches!(self, Verdict::Unique | Verdict::Unsat)
    }
}

/// Counters of one certificate's making.
///
/// - `deduction_lemmas`: lemmas written for the deductions made before encoding.
/// - `aux_lemmas`: lemmas that define and derive the encoding's auxiliary clauses.
/// - `solver_lemmas`: lemmas of the solver's proof (its learned and strengthened clauses).
/// - `deletions`: deletion steps of the solver's proof, kept in the proof.
/// - `solver_calls`: fresh solvers run (0 when propagation decided the puzzle, 1 or 2).
/// - `vars`, `clauses`: the size of the encoded formula `E` (without the blocking clause).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProofStats {
    pub deduction_lemmas: u64,
    pub aux_lemmas: u64,
    pub solver_lemmas: u64,
    pub deletions: u64,
    pub solver_calls: u32,
    pub vars: u64,
    pub clauses: u64,
}

impl ProofStats {
    /// Every lemma of the proof, the final empty clause included.
    pub fn lemmas(&self) -> u64 {
        self.deduction_lemmas + self.aux_lemmas + self.solver_lemmas + 1
    }
}

/// A verdict with its evidence, before any check.
#[derive(Clone, Debug)]
pub struct Certificate {
    pub verdict: Verdict,
    /// 0, 1 or 2 solutions, each checked against the puzzle.
    pub solutions: Vec<Grid>,
    /// The DRAT proof (text), for `unique` and `unsat`.
    pub proof: Option<Vec<u8>>,
    pub form: CanonicalForm,
    /// What stopped an `unknown` verdict.
    pub stop: Option<Interrupt>,
    pub stats: ProofStats,
}

/// Why no certificate could be made (a defect, never a property of the puzzle).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProveError {
    #[error("givens=assumptions cannot be certified: a DRAT proof refutes a formula, not a formula under assumptions (use givens=units)")]
    Assumptions,
    #[error("the puzzle has cages (killer): the canonical formula states houses and givens only")]
    Cages,
    #[error("the puzzle's layout ({0}) has windows or several grids: the canonical formula states the houses of one grid and its diagonals only")]
    Layout(String),
    #[error("the encoding is larger than the literal bound ({literals} literals > {bound})")]
    TooLarge { literals: u64, bound: u64 },
    #[error("the solver's model is not a solution: {0}")]
    BadModel(String),
    #[error("the encoding's auxiliary clauses cannot be defined from their group: {0}")]
    Aux(String),
    #[error("the solver failed: {0}")]
    Solver(String),
}

/// Working memory kept across puzzles, and the bound on the formula's size.
pub struct Prover {
    scratch: Scratch,
    clauses: Clauses,
    /// A formula of more literals is not encoded ([`ProveError::TooLarge`]): the formula,
    /// the solver and the proof grow with it.
    max_literals: Option<u64>,
}

impl Default for Prover {
    fn default() -> Self {
        Self::new()
    }
}

impl Prover {
    /// A prover with no bound on the formula's literals (see [`Prover::with_max_literals`]).
    pub fn new() -> Self {
        Prover {
            scratch: Scratch::new(),
            clauses: Clauses::new(),
            max_literals: None,
        }
    }

    /// The bound on the encoded formula's literals (`None`: no bound).
    pub fn with_max_literals(mut self, bound: Option<u64>) -> Self {
        self.max_literals = bound;
        self
    }

    /// Decides `puzzle` with the encoding `options` and makes its certificate. `options`
    /// must have givens as units. The budget bounds propagation, encoding and each solver.
    pub fn certify(
        &mut self,
        puzzle: &Puzzle,
        options: &CnfOptions,
        budget: &Deadline,
    ) -> Result<Certificate, ProveError> {
        if options.givens == GivensMode::Assumptions {
            return Err(ProveError::Assumptions);
        }
        if puzzle.has_cages() {
            return Err(ProveError::Cages);
        }
        let g = puzzle.geometry();
        if g.has_extra_houses() {
            return Err(ProveError::Layout(g.variant()));
        }
        let form = CanonicalForm::for_side(g.n());
        let canonical = Canonical::new(g, puzzle.givens(), form);
        let mut stats = ProofStats::default();
        let unknown = |stats, solutions, why| Certificate {
            verdict: Verdict::Unknown,
            solutions,
            proof: None,
            form,
            stop: Some(why),
            stats,
        };

        // 1. Encode, keeping the deductions as lemmas.
        self.scratch.keep_deductions(true);
        self.clauses.clear();
        let limits = EncodeLimits {
            max_literals: self.max_literals,
            budget: budget.clone(),
            teardown: None,
        };
        let encoded = encode_into(
            puzzle,
            options,
            &mut self.clauses,
            &mut self.scratch,
            &limits,
        );
        let deductions = self.scratch.take_deductions();
        self.scratch.keep_deductions(false);
        let encoded = match encoded {
            Ok(e) => e,
            Err(EncodeStop::Interrupted(why)) => return Ok(unknown(stats, Vec::new(), why)),
            Err(EncodeStop::TooLarge { literals, bound }) => {
                return Err(ProveError::TooLarge { literals, bound })
            }
        };
        stats.vars = encoded.size.vars;
        stats.clauses = encoded.size.clauses;
        let mut head = DratText::default();
        for lemma in deductions.split(|&l| l == 0).filter(|l| !l.is_empty()) {
            head.add(lemma);
        }
        stats.deduction_lemmas = head.lemmas();
        if encoded.trivially_unsat {
            head.add(&[]);
            return Ok(Certificate {
                verdict: Verdict::Unsat,
                solutions: Vec::new(),
                proof: Some(head.into_bytes()),
                form,
                stop: None,
                stats,
            });
        }

        // 2. The auxiliary variables, renamed above the canonical formula's.
        let info = encoded.info;
        let primary = info.map.primary();
        let aux_base = canonical.num_vars() as i64 - primary as i64;
        let n = g.n();
        let rename = |l: i32| -> i32 {
            let v = l.unsigned_abs();
            let c = if v <= primary {
                let (cell, d) = info.map.cell_digit(v).expect("a primary variable");
                (cell * n + d as usize) as i64
            } else {
                v as i64 + aux_base
            };
            if l < 0 {
                -(c as i32)
            } else {
                c as i32
            }
        };
        let before_aux = head.lemmas();
        aux_lemmas(&self.clauses, primary, encoded.num_vars, &rename, &mut head)?;
        stats.aux_lemmas = head.lemmas() - before_aux;

        // 3. Solve; then solve again with the first grid blocked.
        let open = info.fixed.contains(&0);
        let first = if open {
            stats.solver_calls += 1;
            match solve_logged(encoded.num_vars, &self.clauses, None, budget) {
                Err(SolveFail::Stopped(why)) => return Ok(unknown(stats, Vec::new(), why)),
                Err(SolveFail::Error(e)) => return Err(ProveError::Solver(e)),
                Ok(Logged::Unsat(proof)) => {
                    let mut out = head;
                    append_renamed(&proof, &rename, &mut out, &mut stats)?;
                    out.add(&[]);
                    return Ok(Certificate {
                        verdict: Verdict::Unsat,
                        solutions: Vec::new(),
                        proof: Some(out.into_bytes()),
                        form,
                        stop: None,
                        stats,
                    });
                }
                Ok(Logged::Sat(model)) => {
                    decode(&info, &model).map_err(|e| ProveError::BadModel(e.to_string()))?
                }
            }
        } else {
            info.fixed.clone()
        };
        puzzle
            .check_solution(&first)
            .map_err(|e| ProveError::BadModel(e.to_string()))?;
        let block = info
            .blocking_clause(&first)
            .ok_or_else(|| ProveError::BadModel("the grid uses a removed candidate".into()))?;
        if block.is_empty() {
            // Propagation decided every cell: the blocking clause is false at once.
            head.add(&[]);
            return Ok(Certificate {
                verdict: Verdict::Unique,
                solutions: vec![first],
                proof: Some(head.into_bytes()),
                form,
                stop: None,
                stats,
            });
        }
        stats.solver_calls += 1;
        match solve_logged(encoded.num_vars, &self.clauses, Some(&block), budget) {
            Err(SolveFail::Stopped(why)) => Ok(unknown(stats, vec![first], why)),
            Err(SolveFail::Error(e)) => Err(ProveError::Solver(e)),
            Ok(Logged::Unsat(proof)) => {
                let mut out = head;
                append_renamed(&proof, &rename, &mut out, &mut stats)?;
                out.add(&[]);
                Ok(Certificate {
                    verdict: Verdict::Unique,
                    solutions: vec![first],
                    proof: Some(out.into_bytes()),
                    form,
                    stop: None,
                    stats,
                })
            }
            Ok(Logged::Sat(model)) => {
                let second =
                    decode(&info, &model).map_err(|e| ProveError::BadModel(e.to_string()))?;
                puzzle
                    .check_solution(&second)
                    .map_err(|e| ProveError::BadModel(e.to_string()))?;
                if second == first {
                    return Err(ProveError::BadModel(
                        "the second model repeats the blocked grid".into(),
                    ));
                }
                Ok(Certificate {
                    verdict: Verdict::Multiple,
                    solutions: vec![first, second],
                    proof: None,
                    form,
                    stop: None,
                    stats,
                })
            }
        }
    }
}

/// What a logged solve answered.
enum Logged {
    Sat(Model),
    /// The solver's binary DRAT proof.
    Unsat(Vec<u8>),
}

enum SolveFail {
    Stopped(Interrupt),
    Error(String),
}

/// The writer varisat's proof goes into: it keeps the bytes and fails a write once the
/// budget is spent, which ends the solve (varisat has no other interrupt).
struct ProofBuffer {
    bytes: Rc<RefCell<Vec<u8>>>,
    budget: Deadline,
    stopped: Rc<RefCell<Option<Interrupt>>>,
}

impl io::Write for ProofBuffer {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if let Some(why) = self.budget.expired().map(Interrupt::from) {
            *self.stopped.borrow_mut() = Some(why);
            return Err(io::Error::other("sudolab: budget spent"));
        }
        self.bytes.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Solves `clauses` (plus `extra`) with a fresh varisat that writes binary DRAT.
fn solve_logged(
    num_vars: u32,
    clauses: &Clauses,
    extra: Option<&[i32]>,
    budget: &Deadline,
) -> Result<Logged, SolveFail> {
    if let Some(why) = budget.expired().map(Interrupt::from) {
        return Err(SolveFail::Stopped(why));
    }
    let bytes = Rc::new(RefCell::new(Vec::new()));
    let stopped = Rc::new(RefCell::new(None));
    let mut solver = varisat::Solver::new();
    solver.write_proof(
        ProofBuffer {
            bytes: bytes.clone(),
            budget: budget.clone(),
            stopped: stopped.clone(),
        },
        ProofFormat::BinaryDrat,
    );
    // Every variable first, in order, so that varisat's proof numbering is the input's.
    solver.new_var_iter(num_vars as usize).for_each(drop);
    let mut lits: Vec<Lit> = Vec::new();
    let mut add = |clause: &[i32], solver: &mut varisat::Solver| {
        lits.clear();
        lits.extend(clause.iter().map(|&l| Lit::from_dimacs(l as isize)));
        solver.add_clause(&lits);
    };
    for clause in clauses.iter() {
        add(clause, &mut solver);
    }
    if let Some(extra) = extra {
        add(extra, &mut solver);
    }
    let answer = solver.solve();
    if let Some(why) = *stopped.borrow() {
        return Err(SolveFail::Stopped(why));
    }
    match answer {
        Ok(true) => {
            let model = solver.model().unwrap_or_default();
            let dimacs: Vec<i32> = model.iter().map(|l| l.to_dimacs() as i32).collect();
            Ok(Logged::Sat(Model::from_lits(&dimacs)))
        }
        Ok(false) => {
            solver
                .close_proof()
                .map_err(|e| SolveFail::Error(e.to_string()))?;
            drop(solver);
            let proof = std::mem::take(&mut *bytes.borrow_mut());
            Ok(Logged::Unsat(proof))
        }
        Err(e) => Err(SolveFail::Error(e.to_string())),
    }
}

/// Appends a binary DRAT proof (over `E`'s variables) to `out`, renamed to the canonical
/// numbering.
fn append_renamed(
    proof: &[u8],
    rename: &dyn Fn(i32) -> i32,
    out: &mut DratText,
    stats: &mut ProofStats,
) -> Result<(), ProveError> {
    let mut lits: Vec<i32> = Vec::new();
    let mut i = 0;
    while i < proof.len() {
        let delete = match proof[i] {
            b'a' => false,
            b'd' => true,
            b => {
                return Err(ProveError::Solver(format!(
                    "the solver's binary proof has byte 0x{b:02x} where a step starts"
                )))
            }
        };
        i += 1;
        lits.clear();
        loop {
            let mut value: u64 = 0;
            let mut shift = 0;
            loop {
                let Some(&b) = proof.get(i) else {
                    return Err(ProveError::Solver("the solver's proof is truncated".into()));
                };
                i += 1;
                value |= u64::from(b & 0x7f) << shift;
                shift += 7;
                if b & 0x80 == 0 {
                    break;
                }
            }
            if value == 0 {
                break;
            }
            let var = (value >> 1) as i32;
            lits.push(rename(if value & 1 == 1 { -var } else { var }));
        }
        if delete {
            out.delete(&lits);
            stats.deletions += 1;
        } else if lits.is_empty() {
            // The final empty clause is written once, by the caller.
        } else {
            out.add(&lits);
            stats.solver_lemmas += 1;
        }
    }
    Ok(())
}

/// Union-find root with path halving.
fn root(parent: &mut [u32], mut x: u32) -> u32 {
    while parent[x as usize] != x {
        parent[x as usize] = parent[parent[x as usize] as usize];
        x = parent[x as usize];
    }
    x
}

/// Writes the lemmas that introduce `E`'s auxiliary variables (`primary + 1 ..= num_vars`)
/// and derive every clause that mentions one (step 2 of the module doc).
///
/// The clauses that mention auxiliary variables fall into components (auxiliary variables
/// linked by sharing a clause); each belongs to one at-most-one group `X`, the primary
/// variables of its clauses. For each member `x_i` (and for none) the component's clauses are
/// evaluated with `x_i` true and the rest of `X` false, by unit propagation and then `false`
/// for what is left; that must satisfy every clause, with every auxiliary variable false when
/// no member is true. Then `a` is defined as the OR of the members that make it true.
pub(crate) fn aux_lemmas(
    clauses: &Clauses,
    primary: u32,
    num_vars: u32,
    rename: &dyn Fn(i32) -> i32,
    out: &mut DratText,
) -> Result<(), ProveError> {
    if num_vars <= primary {
        return Ok(());
    }
    let naux = (num_vars - primary) as usize;
    let aux = |l: i32| l.unsigned_abs() > primary;
    let mut parent: Vec<u32> = (0..naux as u32).collect();
    let mut with_aux: Vec<usize> = Vec::new();
    for (i, clause) in clauses.iter().enumerate() {
        let mut first: Option<u32> = None;
        for &l in clause.iter().filter(|&&l| aux(l)) {
            let a = l.unsigned_abs() - primary - 1;
            match first {
                None => first = Some(a),
                Some(f) => {
                    let (ra, rf) = (root(&mut parent, a), root(&mut parent, f));
                    if ra != rf {
                        parent[ra as usize] = rf;
                    }
                }
            }
        }
        if first.is_some() {
            with_aux.push(i);
        }
    }
    // Clauses by component, in formula order; components by their first clause.
    let mut by_root: HashMap<u32, Vec<usize>> = HashMap::new();
    let mut order: Vec<u32> = Vec::new();
    for &i in &with_aux {
        let l = *clauses
            .get(i)
            .iter()
            .find(|&&l| aux(l))
            .expect("a clause with an auxiliary literal");
        let r = root(&mut parent, l.unsigned_abs() - primary - 1);
        by_root
            .entry(r)
            .or_insert_with(|| {
                order.push(r);
                Vec::new()
            })
            .push(i);
    }
    let mut comp = Component::default();
    for r in order {
        comp.load(clauses, &by_root[&r], primary);
        comp.define(clauses, &by_root[&r], rename, out)?;
    }
    Ok(())
}

/// One component of auxiliary clauses, with local variable indices.
#[derive(Default)]
struct Component {
    /// The members of the group (primary variables), then the auxiliary variables.
    vars: Vec<u32>,
    members: usize,
    /// The clauses over local literals: `local index * 2 + (1 if negative)`.
    lits: Vec<u32>,
    ends: Vec<usize>,
    /// `value[v]`: 0 unassigned, 1 true, -1 false.
    value: Vec<i8>,
    /// `defs[a]`: the members (local indices) that make auxiliary `a` (local index - members)
    /// true.
    defs: Vec<Vec<u32>>,
}

impl Component {
    fn load(&mut self, clauses: &Clauses, ids: &[usize], primary: u32) {
        self.vars.clear();
        for &i in ids {
            self.vars
                .extend(clauses.get(i).iter().map(|l| l.unsigned_abs()));
        }
        self.vars.sort_unstable();
        self.vars.dedup();
        // Primary variables sort first: they are the smaller numbers.
        self.members = self.vars.partition_point(|&v| v <= primary);
        self.lits.clear();
        self.ends.clear();
        for &i in ids {
            for &l in clauses.get(i) {
                let v = self.vars.binary_search(&l.unsigned_abs()).expect("listed") as u32;
                self.lits.push(v * 2 + u32::from(l < 0));
            }
            self.ends.push(self.lits.len());
        }
    }

    fn clause(&self, k: usize) -> &[u32] {
        let start = if k == 0 { 0 } else { self.ends[k - 1] };
        &self.lits[start..self.ends[k]]
    }

    fn lit_value(&self, l: u32) -> i8 {
        let v = self.value[(l / 2) as usize];
        if l & 1 == 1 {
            -v
        } else {
            v
        }
    }

    /// Unit propagation over the component's clauses until nothing changes. False on a
    /// falsified clause.
    fn propagate(&mut self) -> bool {
        loop {
            let mut changed = false;
            for k in 0..self.ends.len() {
                let mut open = None;
                let mut open_count = 0;
                let mut sat = false;
                for &l in self.clause(k) {
                    match self.lit_value(l) {
                        1 => {
                            sat = true;
                            break;
                        }
                        0 => {
                            open_count += 1;
                            open = Some(l);
                        }
                        _ => {}
                    }
                }
                if sat {
                    continue;
                }
                match (open_count, open) {
                    (0, _) => return false,
                    (1, Some(l)) => {
                        self.value[(l / 2) as usize] = if l & 1 == 1 { -1 } else { 1 };
                        changed = true;
                    }
                    _ => {}
                }
            }
            if !changed {
                return true;
            }
        }
    }

    /// Evaluates the clauses with member `chosen` true (none: `None`) and the other members
    /// false; fills `value`.
    fn evaluate(&mut self, chosen: Option<usize>) -> Result<(), String> {
        self.value.clear();
        self.value.resize(self.vars.len(), 0);
        for m in 0..self.members {
            self.value[m] = if Some(m) == chosen { 1 } else { -1 };
        }
        if !self.propagate() {
            return Err("a member's assignment falsifies a clause".into());
        }
        for a in self.members..self.vars.len() {
            if self.value[a] == 0 {
                self.value[a] = -1;
                if !self.propagate() {
                    return Err("no value of the auxiliary variables satisfies the clauses".into());
                }
            }
        }
        Ok(())
    }

    fn define(
        &mut self,
        clauses: &Clauses,
        ids: &[usize],
        rename: &dyn Fn(i32) -> i32,
        out: &mut DratText,
    ) -> Result<(), ProveError> {
        let naux = self.vars.len() - self.members;
        if self.members == 0 {
            return Err(ProveError::Aux(
                "a component of auxiliary clauses mentions no (cell, digit) variable".into(),
            ));
        }
        self.defs.clear();
        self.defs.resize(naux, Vec::new());
        self.evaluate(None).map_err(ProveError::Aux)?;
        if self.value[self.members..].contains(&1) {
            return Err(ProveError::Aux(
                "an auxiliary variable is forced true when no member is".into(),
            ));
        }
        for m in 0..self.members {
            self.evaluate(Some(m)).map_err(ProveError::Aux)?;
            for a in 0..naux {
                if self.value[self.members + a] == 1 {
                    self.defs[a].push(m as u32);
                }
            }
        }
        let var = |local: u32| rename(self.vars[local as usize] as i32);
        // Definitions: (a -x) for x in S_a, then (-a S_a) or the unit (-a).
        let mut lemma: Vec<i32> = Vec::new();
        for a in 0..naux {
            let av = var((self.members + a) as u32);
            for &m in &self.defs[a] {
                out.add(&[av, -var(m)]);
            }
            lemma.clear();
            lemma.push(-av);
            lemma.extend(self.defs[a].iter().map(|&m| var(m)));
            out.add(&lemma);
        }
        // The clauses: a definition is there already; one with a negated member follows by
        // unit propagation; otherwise split on the members that define one of its negated
        // auxiliary variables (or on every member).
        for (k, &id) in ids.iter().enumerate() {
            let c = self.clause(k);
            if self.is_definition(c) {
                continue;
            }
            let original = clauses.get(id);
            let renamed: Vec<i32> = original.iter().map(|&l| rename(l)).collect();
            let negated_member = c
                .iter()
                .any(|&l| l & 1 == 1 && ((l / 2) as usize) < self.members);
            if !negated_member {
                let split: Vec<u32> = match c
                    .iter()
                    .find(|&&l| l & 1 == 1 && (l / 2) as usize >= self.members)
                {
                    Some(&l) => self.defs[(l / 2) as usize - self.members].clone(),
                    None => (0..self.members as u32).collect(),
                };
                for m in split {
                    if c.contains(&(m * 2)) {
                        continue; // (-x C) with x in C: a tautology
                    }
                    lemma.clear();
                    lemma.push(-var(m));
                    lemma.extend_from_slice(&renamed);
                    out.add(&lemma);
                }
            }
            out.add(&renamed);
        }
        Ok(())
    }

    /// Whether local clause `c` is one of the definition clauses written above.
    fn is_definition(&self, c: &[u32]) -> bool {
        let auxes: Vec<u32> = c
            .iter()
            .copied()
            .filter(|&l| (l / 2) as usize >= self.members)
            .collect();
        if auxes.len() != 1 {
            return false;
        }
        let a = auxes[0];
        let def = &self.defs[(a / 2) as usize - self.members];
        if a & 1 == 0 {
            // (a -x) with x in S_a
            c.len() == 2 && c.iter().any(|&l| l & 1 == 1 && def.contains(&(l / 2)))
        } else {
            // (-a S_a), in any order
            c.len() == def.len() + 1
                && c.iter()
                    .all(|&l| l == a || (l & 1 == 0 && def.contains(&(l / 2))))
        }
    }
}
