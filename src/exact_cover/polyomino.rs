//! Polyomino packing as exact cover: one primary item per piece (each piece used once) and one
//! per board cell (each cell filled once); one option per placement of a piece, in every
//! rotation and reflection, on the board.
//!
//! Source: D. E. Knuth, "Dancing Links" (2000), section on pentominoes (the 6x10 box has
//! 2339 packings up to symmetry, 9356 in all; the 3x20 box has 2, 8 in all), after Dana
//! Scott's 1958 backtrack program; TAOCP 7.2.2.1. Used here to test and measure the solver.

use super::ExactCover;

/// A piece: its name and its cells as `(row, column)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    pub name: String,
    pub cells: Vec<(i32, i32)>,
}

impl Piece {
    /// A piece drawn as rows of `#` (cell) and `.` (no cell), rows separated by `/`.
    pub fn from_picture(name: &str, picture: &str) -> Self {
        let cells = picture
            .split('/')
            .enumerate()
            .flat_map(|(r, row)| {
                row.chars()
                    .enumerate()
                    .filter(|&(_, ch)| ch == '#')
                    .map(move |(c, _)| (r as i32, c as i32))
            })
            .collect();
        Piece {
            name: name.to_string(),
            cells,
        }
    }

    /// Distinct shapes of the piece under the 8 rotations and reflections, each normalised
    /// (smallest row and column 0, cells sorted), in a fixed order.
    pub fn orientations(&self) -> Vec<Vec<(i32, i32)>> {
        let mut out: Vec<Vec<(i32, i32)>> = Vec::new();
        for t in 0..8 {
            let mut shape: Vec<(i32, i32)> =
                self.cells.iter().map(|&cell| transform(t, cell)).collect();
            let r0 = shape.iter().map(|p| p.0).min().unwrap_or(0);
            let c0 = shape.iter().map(|p| p.1).min().unwrap_or(0);
            for p in &mut shape {
                *p = (p.0 - r0, p.1 - c0);
            }
            shape.sort_unstable();
            if !out.contains(&shape) {
                out.push(shape);
            }
        }
        out
    }
}

/// Symmetry `t` (`0..8`) of the square applied to a cell: bit 2 reflects (column negated),
/// then bits 0-1 rotate by `t & 3` quarter turns. `0` is the identity; the eight values are
/// the eight rotations and reflections. Shared with [`crate::tiling`], which also carries each
/// cell's given along.
pub fn transform(t: u8, (r, c): (i32, i32)) -> (i32, i32) {
    let (r, c) = if t & 4 != 0 { (r, -c) } else { (r, c) };
    match t & 3 {
        0 => (r, c),
        1 => (c, -r),
        2 => (-r, -c),
        _ => (-c, r),
    }
}

/// The twelve pentominoes, named by Golomb's letters F I L N P T U V W X Y Z.
pub fn pentominoes() -> Vec<Piece> {
    [
        ("F", ".##/##./.#."),
        ("I", "#####"),
        ("L", "####/#..."),
        ("N", "##../.###"),
        ("P", "##/##/#."),
        ("T", "###/.#./.#."),
        ("U", "#.#/###"),
        ("V", "#../#../###"),
        ("W", "#../##./.##"),
        ("X", ".#./###/.#."),
        ("Y", "####/.#.."),
        ("Z", "##./.#./.##"),
    ]
    .iter()
    .map(|(n, p)| Piece::from_picture(n, p))
    .collect()
}

/// Packing `pieces` into a `rows x cols` box: items are the pieces (named by the pieces), then
/// the cells (named `<r>,<c>`, 0-based), all primary; options are the placements, piece by
/// piece, orientation by orientation, then by position row-major. Each option lists the piece,
/// then its cells.
pub fn packing(rows: usize, cols: usize, pieces: &[Piece]) -> ExactCover {
    packing_where(rows, cols, pieces, |_, _| true)
}

/// [`packing`] with only the placements that `keep(piece index, cells)` accepts (cells as
/// `(row, column)` on the board).
pub fn packing_where<F>(rows: usize, cols: usize, pieces: &[Piece], mut keep: F) -> ExactCover
where
    F: FnMut(usize, &[(usize, usize)]) -> bool,
{
    let mut names: Vec<String> = pieces.iter().map(|p| p.name.clone()).collect();
    names.extend((0..rows * cols).map(|c| format!("{},{}", c / cols, c % cols)));
    let mut x = ExactCover::new(&names, &[] as &[String]).expect("distinct piece names");
    let np = pieces.len();
    let mut cells = Vec::new();
    for (k, piece) in pieces.iter().enumerate() {
        for shape in piece.orientations() {
            let h = shape.iter().map(|p| p.0).max().unwrap_or(0) as usize + 1;
            let w = shape.iter().map(|p| p.1).max().unwrap_or(0) as usize + 1;
            if h > rows || w > cols {
                continue;
            }
            for r in 0..=rows - h {
                for c in 0..=cols - w {
                    cells.clear();
                    cells.extend(
                        shape
                            .iter()
                            .map(|&(dr, dc)| (r + dr as usize, c + dc as usize)),
                    );
                    if !keep(k, &cells) {
                        continue;
                    }
                    let option =
                        std::iter::once(k).chain(cells.iter().map(|&(r, c)| np + r * cols + c));
                    x.add_option(option)
                        .expect("a placement covers distinct cells");
                }
            }
        }
    }
    x
}

/// [`packing`] of a box with even sides, with the `X` pentomino (if among the pieces) kept
/// with its centre in the top-left quadrant: every packing of such a box is one of four
/// under the box's symmetries, and exactly one of the four has the `X` there (its centre
/// never lies on an axis of symmetry), so this counts packings up to symmetry (Knuth, "Dancing
/// Links", 2000).
pub fn packing_reduced(rows: usize, cols: usize, pieces: &[Piece]) -> ExactCover {
    assert!(
        rows % 2 == 0 && cols % 2 == 0,
        "the box must have even sides"
    );
    packing_where(rows, cols, pieces, |k, cells| {
        if pieces[k].name != "X" {
            return true;
        }
        let r = cells.iter().map(|p| p.0).sum::<usize>() / cells.len();
        let c = cells.iter().map(|p| p.1).sum::<usize>() / cells.len();
        r < rows / 2 && c < cols / 2
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pentominoes_have_63_orientations() {
        let counts: Vec<usize> = pentominoes()
            .iter()
            .map(|p| p.orientations().len())
            .collect();
        // F I L N P T U V W X Y Z
        assert_eq!(counts, [8, 2, 8, 8, 8, 4, 4, 4, 4, 1, 8, 4]);
        assert_eq!(counts.iter().sum::<usize>(), 63);
        for p in pentominoes() {
            assert_eq!(p.cells.len(), 5, "{}", p.name);
        }
    }

    #[test]
    fn six_by_ten_has_2056_placements() {
        let x = packing(6, 10, &pentominoes());
        assert_eq!(x.items(), 72);
        assert_eq!(x.options(), 2056);
        assert_eq!(x.ones(), 2056 * 6);
    }
}
