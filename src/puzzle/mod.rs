//! The puzzle model: geometry (side, boxes or regions, diagonals, houses), givens, the check
//! of a grid against the houses, and the text formats. Knows nothing of engines.

mod cage;
mod format;
mod geometry;

pub use cage::{sum_range, Cage, CageBreak, CageError, CageSet};
pub use format::{
    detect_format, detect_format_with, format_of_output, push_default_line, read_bytes, read_file,
    read_puzzles, read_str, write_grid, write_grid_with_layout, write_killer, write_killer_grid,
    write_puzzle, write_puzzlekit, Alphabet, Format, OutputFormat, ParseError, ParseErrorKind,
    PuzzlekitEntry, ReadOptions, RowsEnd, SourcedPuzzle, WriteError,
};
#[cfg(test)]
pub(crate) use geometry::jigsaw6_for_tests;
pub use geometry::{
    default_box, parse_box, Geometry, GeometryError, GridError, HouseKind, Layout, MAX_SIDE,
};

use std::sync::Arc;

/// A grid of `N*N` digits, row-major, `0` for an empty cell.
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
    /// length, a digit above `N`).
    pub fn new(geometry: Arc<Geometry>, givens: Grid) -> Result<Self, GridError> {
        let n = geometry.n();
        if givens.len() != n * n {
            return Err(GridError::Length {
                expected: n * n,
                got: givens.len(),
            });
        }
        if let Some(cell) = givens.iter().position(|&d| d as usize > n) {
            return Err(GridError::Digit {
                cell,
                digit: givens[cell],
            });
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

    pub fn has_cages(&self) -> bool {
        self.cages.is_some()
    }

    /// Short name of the variant: the geometry's (`classic`, `jigsaw`, `x`, `jigsaw-x`), or
    /// with cages `killer`, `jigsaw-killer`, `killer-x`, `jigsaw-killer-x`.
    pub fn variant(&self) -> &'static str {
        if !self.has_cages() {
            return self.geometry.variant();
        }
        match self.geometry.variant() {
            "jigsaw" => "jigsaw-killer",
            "x" => "killer-x",
            "jigsaw-x" => "jigsaw-killer-x",
            _ => "killer",
        }
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
