//! From a model back to a grid, and the checks that make the grid trustworthy: the model
//! satisfies every clause (and assumption), every cell gets exactly one digit, and the grid is
//! a solution of the puzzle under the houses (and the cages, for a killer).
//!
//! Why every cell of a model has exactly one true digit, even with the `minimal` encoding
//! (which has no "at most one digit per cell" clause): the rows are houses of every geometry,
//! so each digit is true in at most one cell per row, at most `N` cells in all, and the `N`
//! digits are true in at most `N*N` (cell, digit) pairs; every one of the `N*N` cells has at
//! least one true digit; hence exactly one each. The same pigeonhole makes every house hold
//! every digit exactly once, so each at-most-one group has exactly one true literal and the
//! auxiliary variables of every AMO encoding here are determined by the grid: one grid is one
//! model, and blocking a grid's (cell, digit) literals blocks exactly that grid.

use super::dimacs::Dimacs;
use super::formula::{Clauses, CnfInfo};
use super::header::{parse_header, HeaderError};
use super::model::Model;
use crate::puzzle::{Grid, GridError, Puzzle};

/// Why a model does not decode to a solution.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    #[error("header comments: {0}")]
    Header(HeaderError),
    #[error(
        "expected a model that makes every clause true, found clause {} of the formula false: \
         `{}` (no literal true)",
        .index + 1,
        dimacs_clause(.clause)
    )]
    Unsatisfied { index: usize, clause: Vec<i32> },
    #[error("the model falsifies assumption {0}")]
    Assumption(i32),
    #[error("cell r{row}c{col} has {count} true digits in the model")]
    Cell {
        row: usize,
        col: usize,
        count: usize,
    },
    #[error("the decoded grid is not a solution: {0}")]
    Grid(#[from] GridError),
}

/// A clause as a DIMACS line: its literals, then 0.
fn dimacs_clause(clause: &[i32]) -> String {
    let mut s: String = clause.iter().map(|l| format!("{l} ")).collect();
    s.push('0');
    s
}

/// First clause that `model` does not satisfy (unassigned literals count as not true).
pub fn check_model(clauses: &Clauses, model: &Model) -> Result<(), DecodeError> {
    for (index, c) in clauses.iter().enumerate() {
        if !c.iter().any(|&l| model.is_true(l)) {
            return Err(DecodeError::Unsatisfied {
                index,
                clause: c.to_vec(),
            });
        }
    }
    Ok(())
}

/// The grid of `model`: the cells decided before encoding (the givens; with `reduced` also
/// what propagation placed), plus for every other cell the digit whose variable is true;
/// void cells 0.
/// Fails if a cell has no true digit or several.
pub fn decode(info: &CnfInfo, model: &Model) -> Result<Grid, DecodeError> {
    let mut grid = info.fixed.clone();
    let mut count = vec![0usize; grid.len()];
    for var in 1..=info.map.primary() {
        if model.value(var) == Some(true) {
            if let Some((cell, d)) = info.map.cell_digit(var) {
                count[cell] += 1;
                if info.fixed[cell] == 0 {
                    grid[cell] = d;
                } else if info.fixed[cell] != d {
                    // a variable of a given cell, true for another digit
                    count[cell] += 1;
                }
            }
        }
    }
    for (cell, (&g, &c)) in info.fixed.iter().zip(&count).enumerate() {
        if info.geometry.is_void(cell) {
            // The 1 given there (`Puzzle::void_as_given`) is in no house: encodings without
            // at-most-one clauses per cell leave its other digits free.
            continue;
        }
        // A cell decided before an optimized or reduced encoding has no variable (count 0).
        let ok = if g != 0 { c <= 1 } else { c == 1 };
        if !ok {
            return Err(DecodeError::Cell {
                row: info.geometry.row_of(cell) + 1,
                col: info.geometry.col_of(cell) + 1,
                count: c,
            });
        }
    }
    // A combined layout is encoded with a 1 given in each void cell
    // (`Puzzle::void_as_given`): the grid holds no digit there.
    info.geometry.clear_void(&mut grid);
    Ok(grid)
}

/// Everything at once for a DIMACS file written by sudolab and a model from any solver:
/// rebuilds the puzzle from the comments, checks that the model satisfies every clause and
/// every assumption, decodes, and checks the grid against the houses, the givens and the
/// cages (from the `c cage` comments).
pub fn decode_checked(dimacs: &Dimacs, model: &Model) -> Result<Grid, DecodeError> {
    let header = parse_header(&dimacs.comments).map_err(DecodeError::Header)?;
    check_model(&dimacs.clauses, model)?;
    if let Some(&a) = header.assumptions.iter().find(|&&a| !model.is_true(a)) {
        return Err(DecodeError::Assumption(a));
    }
    let grid = decode(&header.info, model)?;
    let mut givens = header.info.givens.clone();
    header.info.geometry.clear_void(&mut givens);
    let puzzle = Puzzle::new(header.info.geometry.clone(), givens)
        .map_err(DecodeError::Grid)?
        .with_cage_set(header.info.cages.clone());
    puzzle.check_solution(&grid)?;
    Ok(grid)
}
