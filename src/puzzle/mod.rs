//! The puzzle model: geometry (side, boxes or regions, diagonals, houses), givens, the check
//! of a grid against the houses, and the text formats. Knows nothing of engines.
//!
//! # Example
//!
//! Read a puzzle from text (the format is detected: here one line of 81 cells, `.` empty),
//! and check a grid against its houses and givens:
//!
//! ```
//! use sudolab::puzzle::{read_str, ReadOptions};
//!
//! let line = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
//! let (_format, puzzles) = read_str(line, "example", &ReadOptions::default())?;
//! let puzzle = &puzzles[0].puzzle;
//! assert_eq!((puzzle.n(), puzzle.clues()), (9, 30));
//! let solution: Vec<u16> =
//!     "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
//!         .bytes()
//!         .map(|b| u16::from(b - b'0'))
//!         .collect();
//! assert!(puzzle.check_solution(&solution).is_ok());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod cage;
mod format;
mod geometry;

pub use cage::{
    completable, digit_set_masks, for_each_digit_set, sum_range, Cage, CageBreak, CageError,
    CageSet,
};
pub use format::{
    detect_format, detect_format_with, format_of_output, push_default_line, read_bytes, read_file,
    read_puzzles, read_str, write_grid, write_grid_with_layout, write_killer, write_killer_grid,
    write_puzzle, write_puzzlekit, Alphabet, AlphabetError, Format, OutputFormat, ParseError,
    ParseErrorKind, PuzzlekitEntry, ReadOptions, RowsEnd, SourcedPuzzle, WriteError,
};
#[cfg(test)]
pub(crate) use geometry::jigsaw6_for_tests;
pub use geometry::{
    default_box, parse_box, BoxShapeError, Geometry, GeometryError, GridError, HouseKind, Layout,
    MAX_SIDE, SAMURAI_GRIDS,
};

use std::sync::Arc;

/// The digits of a frame's cells, row-major (`N*N` for a single grid), `0` for an empty or
/// void cell.
pub type Grid = Vec<u16>;

/// A puzzle: a shared geometry, its givens (`0` = empty) and its cages (killer sudoku; none
/// for the other variants).
///
/// Givens that clash are allowed: such a puzzle is not malformed, it has no solution, and
/// every engine reports it as `unsat`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    geometry: Arc<Geometry>,
    givens: Grid,
    cages: Option<Arc<CageSet>>,
}

impl Puzzle {
    /// A puzzle with these givens. Fails only when the givens do not fit the geometry (wrong
    /// length, a digit above `N`, a digit in a void cell).
    pub fn new(geometry: Arc<Geometry>, givens: Grid) -> Result<Self, GridError> {
        if givens.len() != geometry.cells() {
            return Err(GridError::Length {
                expected: geometry.cells(),
                got: givens.len(),
            });
        }
        if let Some(e) = geometry.misplaced_digit(&givens, true) {
            return Err(e);
        }
        Ok(Puzzle {
            geometry,
            givens,
            cages: None,
        })
    }

    /// The same puzzle with these cages (cells and sum each), checked ([`CageSet::new`]).
    pub fn with_cages(mut self, cages: Vec<(Vec<u32>, u32)>) -> Result<Self, CageError> {
        let set = CageSet::new(self.n(), cages)?;
        self.cages = (!set.is_empty()).then(|| Arc::new(set));
        Ok(self)
    }

    /// The cages (empty unless killer).
    pub fn cages(&self) -> &[Cage] {
        self.cages.as_deref().map_or(&[], CageSet::cages)
    }

    /// The cage set, if the puzzle has cages.
    pub fn cage_set(&self) -> Option<&CageSet> {
        self.cages.as_deref()
    }

    /// The cage set, shared (a formula's meaning keeps it, [`crate::cnf::CnfInfo`]).
    pub fn shared_cages(&self) -> Option<&Arc<CageSet>> {
        self.cages.as_ref()
    }

    /// The same puzzle with a cage set already checked for this side (`None`: no cages).
    pub fn with_cage_set(mut self, cages: Option<Arc<CageSet>>) -> Self {
        self.cages = cages.filter(|c| !c.is_empty());
        self
    }

    pub fn has_cages(&self) -> bool {
        self.cages.is_some()
    }

    /// Short name of the variant: the geometry's (`classic`, `jigsaw`, `x`, `windoku`,
    /// `samurai`, ...), with `killer` in it when the puzzle has cages (`killer`, `killer-x`,
    /// `jigsaw-killer`, ...).
    pub fn variant(&self) -> String {
        self.geometry.variant_with(self.has_cages())
    }

    /// For reductions that give every cell of the frame a digit (the CNF encodings): this
    /// puzzle with digit 1 given in every void cell, `None` when the geometry has no void
    /// cell. No house and no cage holds a void cell, so the view has the solutions of the
    /// puzzle with a 1 in each void cell; [`Geometry::clear_void`] takes them back out. The
    /// view is not a puzzle to print or check: it breaks [`Puzzle::new`]'s rule.
    pub fn void_as_given(&self) -> Option<Puzzle> {
        if self.geometry.void_cells() == 0 {
            return None;
        }
        let mut givens = self.givens.clone();
        for (cell, d) in givens.iter_mut().enumerate() {
            if self.geometry.is_void(cell) {
                *d = 1;
            }
        }
        Some(Puzzle {
            geometry: self.geometry.clone(),
            givens,
            cages: self.cages.clone(),
        })
    }

    /// The grid with no givens.
    pub fn empty(geometry: Arc<Geometry>) -> Self {
        let cells = geometry.cells();
        Puzzle {
            geometry,
            givens: vec![0; cells],
            cages: None,
        }
    }

    #[inline]
    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    /// The geometry as a shared handle, for engines that cache work per geometry.
    pub fn shared_geometry(&self) -> &Arc<Geometry> {
        &self.geometry
    }

    #[inline]
    pub fn n(&self) -> usize {
        self.geometry.n()
    }

    #[inline]
    pub fn givens(&self) -> &[u16] {
        &self.givens
    }

    /// Number of givens.
    pub fn clues(&self) -> usize {
        self.givens.iter().filter(|&&d| d != 0).count()
    }

    /// The first pair of givens that clash in a house, or the first cage the givens break,
    /// if any. A puzzle with clashing givens has no solution.
    pub fn clash(&self) -> Option<GridError> {
        self.geometry
            .first_clash(&self.givens)
            .or_else(|| self.broken_cage(&self.givens))
    }

    fn broken_cage(&self, grid: &[u16]) -> Option<GridError> {
        let (cage, how) = self.cage_set()?.first_broken(grid)?;
        Some(GridError::Cage {
            cage: cage + 1,
            how,
        })
    }

    /// Checks that `grid` is a complete solution of this puzzle: every house holds every digit
    /// once, every cage holds distinct digits adding up to its sum, and every given is kept.
    pub fn check_solution(&self, grid: &[u16]) -> Result<(), GridError> {
        self.geometry.check_grid(grid)?;
        if let Some(e) = self.broken_cage(grid) {
            return Err(e);
        }
        for (cell, (&g, &d)) in self.givens.iter().zip(grid).enumerate() {
            if g != 0 && g != d {
                return Err(GridError::Given {
                    cell,
                    given: g,
                    got: d,
                });
            }
        }
        Ok(())
    }
}
