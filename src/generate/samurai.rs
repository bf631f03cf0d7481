//! Samurai puzzles: a random full samurai grid, then givens removed one at a time while an
//! engine proves the puzzle unique.
//!
//! # Method
//!
//! 1. **A full grid**: the filler's randomised search ([`super::fill`]) on the samurai
//!    geometry ([`Geometry::samurai`]: five 9x9 grids in a 21x21 frame, a shared box one
//!    house). The filler works from the house list; a void cell is in no house, so it takes
//!    any digit, and is then cleared to 0 ([`Geometry::clear_void`]).
//! 2. **Removal**, as for [`super::Generator`]: every grid cell is visited once in a uniformly
//!    random order; its given is removed and the removal is kept only if the engine (default
//!    `human`) answers `unique` with `max_solutions = 2` within the node limit. A refused
//!    removal puts the given back for good, so after the pass the puzzle is *minimal* (no
//!    given can be removed) unless a check hit the node limit ([`PuzzleStats::undecided`]):
//!    such a given stays, and the puzzle is still proven unique. With a clue target the pass
//!    stops once that many givens are left; a pass that ends above it draws a new grid, at
//!    most `attempts` times.
//!
//! Determinism: one seeded ChaCha8 stream and node limits, never time limits (except the
//! optional time limit, which only stops the stream), so a seed gives the same puzzles on any
//! machine.

use super::fill::Filler;
use super::{GenerateError, PuzzleStats};
use crate::engines::{self, Engine, EngineSpec, Limits, Status};
use crate::puzzle::{Geometry, Puzzle};
use crate::search::Deadline;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// Default node limit of one uniqueness check (`human`'s nodes are its guesses; it decides
/// every janko.at samurai with none: `sudolab solve data/variants/samurai-janko.json
/// --engine human`).
pub const DEFAULT_SAMURAI_NODE_LIMIT: u64 = 1_000_000;

/// What to generate.
#[derive(Clone, Debug)]
pub struct SamuraiOptions {
    /// Givens to keep (`None` = minimal: remove every given that can go).
    pub clues: Option<usize>,
    pub seed: u64,
    /// Engine of the uniqueness checks (it must take combined layouts); `None` = `human`
    /// (propagation with guesses: the cheapest check on samurai, results/README.md).
    pub engine: Option<EngineSpec>,
    /// Node limit of each uniqueness check.
    pub node_limit: u64,
    /// Full grids tried per puzzle when a clue target is missed.
    pub attempts: u32,
    /// Wall time for the whole stream (`None` = no limit).
    pub time_limit: Option<std::time::Duration>,
}

impl Default for SamuraiOptions {
    fn default() -> Self {
        SamuraiOptions {
            clues: None,
            seed: 0,
            engine: None,
            node_limit: DEFAULT_SAMURAI_NODE_LIMIT,
            attempts: 20,
            time_limit: None,
        }
    }
}

/// A stream of unique samurai puzzles (see the module doc).
pub struct SamuraiGenerator {
    options: SamuraiOptions,
    geometry: Arc<Geometry>,
    filler: Filler,
    engine: Box<dyn Engine>,
    rng: ChaCha8Rng,
    stats: PuzzleStats,
    solution: Vec<u16>,
    deadline: Deadline,
}

impl std::fmt::Debug for SamuraiGenerator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SamuraiGenerator")
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

impl SamuraiGenerator {
    /// Checks the options (clue target, engine) and prepares the engine.
    pub fn new(options: SamuraiOptions) -> Result<Self, GenerateError> {
        let deadline = Deadline::after(std::time::Instant::now(), options.time_limit, None);
        let geometry = Geometry::samurai();
        let cells = geometry.cells() - geometry.void_cells();
        if let Some(k) = options.clues {
            if k > cells {
                return Err(GenerateError::TooManyClues { clues: k, cells });
            }
        }
        if options.attempts == 0 {
            return Err(GenerateError::NoAttempts);
        }
        let spec = options
            .engine
            .clone()
            .unwrap_or_else(|| EngineSpec::new("human"));
        let engine = spec.make()?;
        if !engine.supports_geometry(&geometry) {
            return Err(GenerateError::EngineUnfit {
                spec: spec.to_string(),
                lacks: "does not take combined layouts (samurai); dlx, sat, human and binary do",
            });
        }
        Ok(SamuraiGenerator {
            filler: Filler::new(&geometry),
            geometry: Arc::new(geometry),
            engine,
            rng: ChaCha8Rng::seed_from_u64(options.seed),
            options,
            stats: PuzzleStats::default(),
            solution: Vec::new(),
            deadline,
        })
    }

    /// Work done for the last puzzle returned (`attempts`, `checks`, `refused`,
    /// `undecided`, as for [`super::Generator::last_stats`]).
    pub fn last_stats(&self) -> &PuzzleStats {
        &self.stats
    }

    /// The solution of the last puzzle returned (void cells 0).
    pub fn last_solution(&self) -> &[u16] {
        &self.solution
    }

    /// The next puzzle: unique (proven by the engine), minimal or with the clue target.
    pub fn next_puzzle(&mut self) -> Result<Puzzle, GenerateError> {
        self.stats = PuzzleStats::default();
        let g = Arc::clone(&self.geometry);
        let mut fewest = usize::MAX;
        for attempt in 1..=self.options.attempts {
            self.stats.attempts = attempt;
            super::in_time(&self.deadline, self.options.time_limit)?;
            self.filler.deadline = self.deadline.clone();
            let mut solution = self
                .filler
                .random_grid(&mut self.rng, 4 * g.cells() as u64, 1000)
                .ok_or_else(|| GenerateError::NoGrid {
                    what: "the samurai geometry".to_string(),
                    tries: 1000,
                })?;
            g.clear_void(&mut solution);
            let (givens, clues) = self.carve(&g, &solution)?;
            fewest = fewest.min(clues);
            if self.options.clues.map_or(true, |k| k == clues) {
                self.solution = solution;
                return Ok(Puzzle::new(g, givens).expect("digits of a full grid"));
            }
        }
        Err(GenerateError::Unreachable {
            clues: self.options.clues.unwrap_or(0),
            attempts: self.options.attempts,
            fewest,
        })
    }

    /// One removal pass: the givens left and their number.
    fn carve(
        &mut self,
        g: &Arc<Geometry>,
        solution: &[u16],
    ) -> Result<(Vec<u16>, usize), GenerateError> {
        let mut givens = solution.to_vec();
        let mut clues = g.cells() - g.void_cells();
        let target = self.options.clues.unwrap_or(0);
        let mut order: Vec<usize> = (0..g.cells()).filter(|&c| !g.is_void(c)).collect();
        order.shuffle(&mut self.rng);
        let limits = Limits {
            node_limit: Some(self.options.node_limit),
            ..Limits::solutions(2)
        };
        for cell in order {
            if clues == target {
                break;
            }
            super::in_time(&self.deadline, self.options.time_limit)?;
            let digit = givens[cell];
            givens[cell] = 0;
            let p = Puzzle::new(Arc::clone(g), givens.clone()).expect("digits of a full grid");
            self.stats.checks += 1;
            let o = engines::run(self.engine.as_mut(), &p, &limits);
            match o.status {
                Status::Unique => clues -= 1,
                Status::Multiple => {
                    self.stats.refused += 1;
                    givens[cell] = digit;
                }
                Status::NodeLimit => {
                    self.stats.undecided += 1;
                    givens[cell] = digit;
                }
                other => {
                    return Err(GenerateError::Check(format!(
                        "{other} on a puzzle cut from a full grid{}",
                        o.note.map(|n| format!(" ({n})")).unwrap_or_default()
                    )))
                }
            }
        }
        Ok((givens, clues))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A generated samurai is unique by an engine other than the generator's, with the
    /// generator's solution, and minimal: each given put back was needed.
    #[test]
    fn a_samurai_is_unique_and_minimal() {
        let mut gen = SamuraiGenerator::new(SamuraiOptions {
            seed: 3,
            ..SamuraiOptions::default()
        })
        .unwrap();
        let p = gen.next_puzzle().unwrap();
        assert!(p.geometry().is_samurai());
        let mut sat = engines::make("sat", &engines::EngineOptions::new()).unwrap();
        let o = engines::run(sat.as_mut(), &p, &Limits::solutions(2));
        assert_eq!(o.status, Status::Unique);
        assert_eq!(o.solutions[0], gen.last_solution());
        assert_eq!(gen.last_stats().undecided, 0);
        // minimal: removing any one given leaves several solutions
        let mut dlx = engines::make("dlx", &engines::EngineOptions::new()).unwrap();
        for cell in (0..p.givens().len())
            .filter(|&c| p.givens()[c] != 0)
            .take(25)
        {
            let mut g = p.givens().to_vec();
            g[cell] = 0;
            let q = Puzzle::new(p.shared_geometry().clone(), g).unwrap();
            let o = engines::run(dlx.as_mut(), &q, &Limits::solutions(2));
            assert_eq!(o.status, Status::Multiple, "cell {cell}");
        }
        // The same seed gives the same puzzle; a clue target is met exactly.
        let mut again = SamuraiGenerator::new(SamuraiOptions {
            seed: 3,
            ..SamuraiOptions::default()
        })
        .unwrap();
        assert_eq!(again.next_puzzle().unwrap(), p);
        let mut target = SamuraiGenerator::new(SamuraiOptions {
            clues: Some(200),
            seed: 4,
            ..SamuraiOptions::default()
        })
        .unwrap();
        assert_eq!(target.next_puzzle().unwrap().clues(), 200);
    }

    #[test]
    fn engines_without_the_layout_are_refused() {
        let e = SamuraiGenerator::new(SamuraiOptions {
            engine: Some(EngineSpec::new("fast")),
            ..SamuraiOptions::default()
        })
        .unwrap_err();
        assert!(e.to_string().contains("combined layouts"), "{e}");
    }
}
