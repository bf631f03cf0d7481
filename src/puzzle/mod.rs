//! The puzzle model: geometry (side, boxes or regions, diagonals, houses), givens, the check
//! of a grid against the houses, and the text formats. Knows nothing of engines.

mod format;
mod geometry;

pub use format::{
    detect_format, detect_format_with, format_of_output, push_default_line, read_bytes, read_file,
    read_puzzles, read_str, write_grid, write_grid_with_layout, write_puzzle, Alphabet, Format,
    OutputFormat, ParseError, ParseErrorKind, ReadOptions, RowsEnd, SourcedPuzzle,
};
#[cfg(test)]
pub(crate) use geometry::jigsaw6_for_tests;
pub use geometry::{
    default_box, parse_box, Geometry, GeometryError, GridError, HouseKind, Layout, MAX_SIDE,
};

use std::sync::Arc;

/// A grid of `N*N` digits, row-major, `0` for an empty cell.
pub type Grid = Vec<u16>;

/// A puzzle: a shared geometry and its givens (`0` = empty).
///
/// Givens that clash are allowed: such a puzzle is not malformed, it has no solution, and
/// every engine reports it as `unsat`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    geometry: Arc<Geometry>,
    givens: Grid,
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
        Ok(Puzzle { geometry, givens })
    }

    /// The grid with no givens.
    pub fn empty(geometry: Arc<Geometry>) -> Self {
        let cells = geometry.cells();
        Puzzle {
            geometry,
            givens: vec![0; cells],
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

    /// The first pair of givens that clash, if any. A puzzle with clashing givens has no
    /// solution.
    pub fn clash(&self) -> Option<GridError> {
        self.geometry.first_clash(&self.givens)
    }

    /// Checks that `grid` is a complete solution of this puzzle: every house holds every digit
    /// once and every given is kept.
    pub fn check_solution(&self, grid: &[u16]) -> Result<(), GridError> {
        self.geometry.check_grid(grid)?;
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
