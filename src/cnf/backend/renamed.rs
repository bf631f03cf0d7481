//! `renamed:SEED:BACKEND`: another backend on the same formula with its variables renamed by
//! a random permutation drawn from `SEED`, for diversified portfolios.
//!
//! A CDCL solver's search depends on the numbers of the variables (its initial decision
//! order, ties in its heuristics), so renamed copies of one formula take different searches
//! and times that can differ by an order of magnitude (the heavy tails of Gomes, Selman and
//! Kautz, "Heavy-tailed phenomena in satisfiability and constraint satisfaction problems",
//! JAR 2000): racing copies under different numberings
//! (`portfolio:cadical:sat+renamed:1:cadical:sat`) takes the fastest of them. Measured on
//! sudoku-64-1 in results/README.md ("The hard public instances").
//!
//! The renaming is a bijection of the variables: [`SatBackend::reserve_vars`] extends it by
//! a shuffled block of the new variables (the same block for the same seed and the same
//! calls), and a variable above every reserved one is its own image. Clauses, assumptions and
//! preferred literals go in renamed; models come back under the caller's numbering; nothing
//! else names a variable. Seed 0 is the identity.

use super::{BackendError, SatBackend};
use crate::cnf::{BackendStats, Deadline, Model, SatAnswer};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// A backend under a seeded renaming of the variables.
pub struct Renamed {
    inner: Box<dyn SatBackend>,
    seed: u64,
    rng: ChaCha8Rng,
    /// `image[v - 1]`: the inner variable of caller variable `v`.
    image: Vec<i32>,
    /// `source[w - 1]`: the caller variable of inner variable `w`.
    source: Vec<i32>,
    buffer: Vec<i32>,
}

impl Renamed {
    /// `spec` is `SEED:BACKEND`: a seed (an unsigned integer) and any backend name of
    /// [`super::make_backend`].
    pub fn from_spec(spec: &str) -> Result<Self, BackendError> {
        let bad = || BackendError::RenamedSpec {
            spec: spec.to_string(),
        };
        let (seed, name) = spec.split_once(':').ok_or_else(bad)?;
        let seed: u64 = seed.parse().map_err(|_| bad())?;
        if name.is_empty() {
            return Err(bad());
        }
        Ok(Renamed::new(seed, super::make_backend(name)?))
    }

    /// `inner` under the renaming of `seed`.
    pub fn new(seed: u64, inner: Box<dyn SatBackend>) -> Self {
        Renamed {
            inner,
            seed,
            rng: ChaCha8Rng::seed_from_u64(seed),
            image: Vec::new(),
            source: Vec::new(),
            buffer: Vec::new(),
        }
    }

    /// Extends the renaming to variables `1..=n`: a shuffled block of the new ones (seed 0:
    /// in order).
    fn extend(&mut self, n: u32) {
        let from = self.image.len() as i32 + 1;
        if n as i32 >= from {
            let mut block: Vec<i32> = (from..=n as i32).collect();
            if self.seed != 0 {
                block.shuffle(&mut self.rng);
            }
            self.image.extend_from_slice(&block);
            self.source.resize(n as usize, 0);
            for (i, &w) in block.iter().enumerate() {
                self.source[w as usize - 1] = from + i as i32;
            }
        }
    }

    fn rename(&self, lit: i32) -> i32 {
        through(&self.image, lit)
    }

    fn renamed(&self, lits: &[i32]) -> Vec<i32> {
        lits.iter().map(|&l| self.rename(l)).collect()
    }

    fn source_of(&self, lit: i32) -> i32 {
        through(&self.source, lit)
    }
}

/// `lit` with its variable `v` replaced by `table[v - 1]` (itself beyond the table).
fn through(table: &[i32], lit: i32) -> i32 {
    let v = table
        .get(lit.unsigned_abs() as usize - 1)
        .copied()
        .unwrap_or(lit.abs());
    if lit > 0 {
        v
    } else {
        -v
    }
}

impl SatBackend for Renamed {
    fn name(&self) -> String {
        format!("renamed:{}:{}", self.seed, self.inner.name())
    }

    fn reserve_vars(&mut self, n: u32) {
        self.extend(n);
        self.inner.reserve_vars(n);
    }

    fn add_clause(&mut self, lits: &[i32]) {
        // The one call per clause: its renamed copy reuses one buffer.
        self.buffer.clear();
        self.buffer
            .extend(lits.iter().map(|&l| through(&self.image, l)));
        self.inner.add_clause(&self.buffer);
    }

    fn solve(&mut self, assumptions: &[i32], budget: &Deadline) -> Result<SatAnswer, BackendError> {
        let assumptions = self.renamed(assumptions);
        Ok(match self.inner.solve(&assumptions, budget)? {
            SatAnswer::Sat(model) => {
                let lits: Vec<i32> = model.lits().iter().map(|&l| self.source_of(l)).collect();
                SatAnswer::Sat(Model::from_lits(&lits))
            }
            other => other,
        })
    }

    fn stats(&self) -> BackendStats {
        self.inner.stats()
    }

    fn set_conflict_limit(&mut self, limit: Option<u64>) {
        self.inner.set_conflict_limit(limit);
    }

    fn set_decision_limit(&mut self, limit: Option<u64>) -> bool {
        self.inner.set_decision_limit(limit)
    }

    fn prefer(&mut self, lits: &[i32]) {
        let lits = self.renamed(lits);
        self.inner.prefer(&lits);
    }

    fn expect_limits(&mut self) {
        self.inner.expect_limits();
    }

    fn teardown_ns_per_clause(&self) -> f64 {
        self.inner.teardown_ns_per_clause()
    }

    fn survives_interrupts(&self) -> bool {
        self.inner.survives_interrupts()
    }

    fn settle(&mut self) {
        self.inner.settle();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cnf::make_backend;

    /// x1 xor x2, x2 -> x3, not x3 or x4, and a unit: one model, found under any renaming.
    fn formula(b: &mut dyn SatBackend) {
        b.reserve_vars(4);
        for c in [
            &[1, 2][..],
            &[-1, -2],
            &[-2, 3],
            &[-3, 4],
            &[-4],
            &[1, 3, 4],
        ] {
            b.add_clause(c);
        }
    }

    #[test]
    fn models_come_back_under_the_callers_numbering() {
        for seed in 0..20 {
            for inner in ["batsat", "varisat", "cadical"] {
                let mut b = Renamed::from_spec(&format!("{seed}:{inner}")).unwrap();
                formula(&mut b);
                let SatAnswer::Sat(m) = b.solve(&[], &Deadline::default()).unwrap() else {
                    panic!("{seed} {inner}: not sat");
                };
                let want = [Some(true), Some(false), Some(false), Some(false)];
                let got: Vec<_> = (1..=4).map(|v| m.value(v)).collect();
                assert_eq!(got, want, "seed {seed}, {inner}");
                // Assumptions are renamed too: x2 makes it unsatisfiable.
                let a = b.solve(&[2], &Deadline::default()).unwrap();
                assert!(matches!(a, SatAnswer::Unsat), "seed {seed}, {inner}");
                // A variable beyond the reserved ones is its own image.
                b.add_clause(&[7, -1]);
                let SatAnswer::Sat(m) = b.solve(&[], &Deadline::default()).unwrap() else {
                    panic!("{seed} {inner}: not sat");
                };
                assert_eq!(m.value(7), Some(true));
            }
        }
    }

    #[test]
    fn the_renaming_is_a_seeded_bijection() {
        let mut a = Renamed::new(5, make_backend("batsat").unwrap());
        let mut b = Renamed::new(5, make_backend("batsat").unwrap());
        a.reserve_vars(50);
        a.reserve_vars(80);
        b.reserve_vars(50);
        b.reserve_vars(80);
        assert_eq!(a.image, b.image);
        let mut sorted = a.image.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (1..=80).collect::<Vec<_>>());
        assert_ne!(a.image, (1..=80).collect::<Vec<_>>());
        for v in 1..=80 {
            assert_eq!(a.source_of(a.rename(v)), v);
            assert_eq!(a.source_of(a.rename(-v)), -v);
        }
        let mut id = Renamed::new(0, make_backend("batsat").unwrap());
        id.reserve_vars(30);
        assert_eq!(id.image, (1..=30).collect::<Vec<_>>());
        assert_eq!(a.name(), "renamed:5:batsat");
    }

    #[test]
    fn bad_specs_are_refused() {
        for spec in ["", "x:batsat", "3", "3:", "-1:batsat", "3:nosuch"] {
            assert!(Renamed::from_spec(spec).is_err(), "{spec:?}");
        }
        assert!(make_backend("portfolio:batsat+renamed:1:batsat").is_ok());
        // A portfolio member renamed is still checked as a member.
        for member in [
            "renamed:1:portfolio",
            "renamed:1:ext:/bin/true",
            "renamed:2:renamed:1:",
        ] {
            let spec = format!("portfolio:batsat+{member}");
            assert!(make_backend(&spec).is_err(), "{spec}");
        }
    }
}
