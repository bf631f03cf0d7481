//! Placements: every way to put each piece on the `N x N` board, shared by both tiling
//! methods so that a tiling means the same thing to both (one placement index per piece).
//!
//! Source: the seed paper (de la Osa Fernández) places pieces by translation; with
//! `rotations`, the eight symmetries of the square are applied as in Knuth's pentomino
//! packing ("Dancing Links", 2000), through [`crate::exact_cover::polyomino::transform`].
//!
//! Orientations are deduplicated per piece *with their givens*: a square piece with one given
//! has four distinct orientations (the given moves), an empty one has one. Two orientations
//! are the same when they put the same givens on the same cells, so the same tiling is never
//! counted twice through a symmetric piece.

use super::pieces::{normalise, PieceSet};
use crate::exact_cover::polyomino::transform;

/// One placement of a piece: the board cells it covers (row-major numbers, sorted) and the
/// given of each (`0` = empty), aligned with `cells`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    pub cells: Vec<u32>,
    pub digits: Vec<u16>,
}

/// Every placement of every piece on the board.
#[derive(Clone, Debug)]
pub struct Placements {
    pub n: usize,
    /// `of[piece]`: the placements of that piece, orientation by orientation (in the order of
    /// [`orientations`]), then by translation, row-major.
    pub of: Vec<Vec<Placement>>,
}

impl Placements {
    /// All placements of `set`'s pieces on its board: translations only, or with `rotations`
    /// every rotation and reflection too.
    pub fn new(set: &PieceSet, rotations: bool) -> Self {
        let n = set.n as i32;
        let of = set
            .pieces
            .iter()
            .map(|piece| {
                let mut out = Vec::new();
                for shape in orientations(&piece.cells, rotations) {
                    let h = shape.iter().map(|c| c.0).max().unwrap_or(0) + 1;
                    let w = shape.iter().map(|c| c.1).max().unwrap_or(0) + 1;
                    for r in 0..=n - h {
                        for c in 0..=n - w {
                            // Shapes are sorted row-major, so the cells stay sorted.
                            out.push(Placement {
                                cells: shape
                                    .iter()
                                    .map(|&(dr, dc, _)| ((r + dr) * n + c + dc) as u32)
                                    .collect(),
                                digits: shape.iter().map(|s| s.2).collect(),
                            });
                        }
                    }
                }
                out
            })
            .collect();
        Placements { n: set.n, of }
    }

    /// Number of pieces.
    pub fn pieces(&self) -> usize {
        self.of.len()
    }

    /// Total number of placements (the options of the exact-cover problem).
    pub fn total(&self) -> usize {
        self.of.iter().map(Vec::len).sum()
    }

    /// The region layout (`region[cell]` = piece number) and the givens of a tiling given as
    /// one placement index per piece.
    pub fn board(&self, tiling: &[usize]) -> (Vec<u16>, Vec<u16>) {
        let cells = self.n * self.n;
        let mut region = vec![0u16; cells];
        let mut givens = vec![0u16; cells];
        for (piece, &k) in tiling.iter().enumerate() {
            let p = &self.of[piece][k];
            for (&cell, &d) in p.cells.iter().zip(&p.digits) {
                region[cell as usize] = piece as u16;
                givens[cell as usize] = d;
            }
        }
        (region, givens)
    }
}

/// The distinct orientations of a piece (`(row, column, given)` cells, normalised): the piece
/// itself only, or with `rotations` its images under the eight symmetries of the square,
/// deduplicated with their givens, in the order of the symmetries (identity first).
pub fn orientations(cells: &[(i32, i32, u16)], rotations: bool) -> Vec<Vec<(i32, i32, u16)>> {
    let mut out: Vec<Vec<(i32, i32, u16)>> = Vec::new();
    for t in 0..if rotations { 8 } else { 1 } {
        let shape = normalise(
            cells
                .iter()
                .map(|&(r, c, d)| {
                    let (r, c) = transform(t, (r, c));
                    (r, c, d)
                })
                .collect(),
        );
        if !out.contains(&shape) {
            out.push(shape);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tiling::pieces::read_pieces_str;

    #[test]
    fn orientations_count_givens() {
        let square = [(0, 0, 0), (0, 1, 0), (1, 0, 0), (1, 1, 0)];
        assert_eq!(orientations(&square, true).len(), 1);
        let mut one = square;
        one[0].2 = 1;
        assert_eq!(orientations(&one, true).len(), 4);
        assert_eq!(orientations(&one, false).len(), 1);
        // The L tetromino has 8 orientations, the T 4, the I 2.
        let l = [(0, 0, 0), (1, 0, 0), (2, 0, 0), (2, 1, 0)];
        let t = [(0, 0, 0), (0, 1, 0), (0, 2, 0), (1, 1, 0)];
        let i = [(0, 0, 0), (0, 1, 0), (0, 2, 0), (0, 3, 0)];
        assert_eq!(orientations(&l, true).len(), 8);
        assert_eq!(orientations(&t, true).len(), 4);
        assert_eq!(orientations(&i, true).len(), 2);
    }

    #[test]
    fn placements_on_a_4x4_board() {
        let set = read_pieces_str("xx\nxx\n\nxxxx\n\nx\nx\nx\nx\n\nxxx\nx\n", "t").unwrap();
        let p = Placements::new(&set, false);
        // 2x2 square: 3*3; I horizontal: 4*1; I vertical: 1*4; L 3 wide, 2 high: 2*3.
        assert_eq!(p.of.iter().map(Vec::len).collect::<Vec<_>>(), [9, 4, 4, 6]);
        assert_eq!(p.of[0][4].cells, [5, 6, 9, 10]);
        let r = Placements::new(&set, true);
        // Square 1 orientation, I 2 (4 + 4), L 8 (4 of 2x3: 6 each, 4 of 3x2: 6 each).
        assert_eq!(r.of.iter().map(Vec::len).collect::<Vec<_>>(), [9, 8, 8, 48]);
    }
}
