//! The pieces text format: `N` pieces (polyominoes of `N` cells, some cells holding givens)
//! that are to tile an `N x N` board, read with errors that name file, line and column.
//!
//! Source: the pieces of D. de la Osa Fernández, "Sudoku de nominoes" (student paper, MATCOM,
//! Universidad de La Habana), which lists each piece as tuples `(row, column, value)`; this is
//! the same information drawn as a picture. See [`super`] for the format itself.
//!
//! Reading rules, in the order they are applied (the first failure is reported):
//!
//! 1. the input is UTF-8 text without NUL bytes (a byte-order mark is skipped);
//! 2. lines are read one by one: `#` lines are comments, a `size N` line is the header (only
//!    before the first piece, only once), blank lines end a piece, any other line is a row of
//!    the current piece whose every character must be `.`, `x`, `0` or a digit symbol;
//! 3. `N` is the header's value, or else the number of pieces; `1 <= N <= 35` (the default
//!    alphabet writes digits up to 35);
//! 4. the number of pieces must be `N`;
//! 5. piece by piece: `N` cells, every given at most `N`, the cells 4-connected.

use crate::puzzle::Alphabet;
use std::io::Read;
use std::path::Path;

/// Largest board side: the default alphabet `1-9A-Z` writes digits up to 35.
pub const MAX_PIECES_SIDE: usize = 35;

/// One piece: its cells, normalised (smallest row and column 0, sorted row-major), with the
/// given of each cell (`0` = empty).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// `(row, column, given)` for each cell, sorted by `(row, column)`.
    pub cells: Vec<(i32, i32, u16)>,
    /// 1-based line of the piece's first row in the input.
    pub line: usize,
}

impl Piece {
    /// A piece from `(row, column, given)` cells anywhere in the plane: normalised here.
    pub fn new(cells: Vec<(i32, i32, u16)>, line: usize) -> Self {
        Piece {
            cells: normalise(cells),
            line,
        }
    }

    /// Number of givens of the piece.
    pub fn givens(&self) -> usize {
        self.cells.iter().filter(|c| c.2 != 0).count()
    }
}

/// Shifts cells so that the smallest row and column are 0 and sorts them row-major: the
/// position of a piece in its drawing does not matter.
pub fn normalise(mut cells: Vec<(i32, i32, u16)>) -> Vec<(i32, i32, u16)> {
    let r0 = cells.iter().map(|c| c.0).min().unwrap_or(0);
    let c0 = cells.iter().map(|c| c.1).min().unwrap_or(0);
    for c in &mut cells {
        c.0 -= r0;
        c.1 -= c0;
    }
    cells.sort_unstable();
    cells
}

/// The pieces of one input: the board side `N` and `N` pieces of `N` cells each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceSet {
    pub n: usize,
    pub pieces: Vec<Piece>,
}

impl PieceSet {
    /// Total number of givens over all pieces.
    pub fn givens(&self) -> usize {
        self.pieces.iter().map(Piece::givens).sum()
    }
}

/// What is wrong with a pieces file. The position is in the enclosing [`PiecesError`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PiecesErrorKind {
    /// The file could not be read (at line 0, column 0).
    #[error("cannot read: {0}")]
    Io(String),
    /// Not UTF-8 text (at the first bad byte).
    #[error("expected UTF-8 text, found a byte that is not UTF-8")]
    InvalidUtf8,
    /// A NUL byte: binary data, not text (at the NUL).
    #[error("expected text, found a NUL byte (binary data?)")]
    NulByte,
    /// No piece at all (at the end of the input).
    #[error("expected pieces, found none")]
    NoPieces,
    /// A `size` header whose value is not a number in `1..=35` (at the value).
    #[error("expected `size N` with 1 <= N <= {MAX_PIECES_SIDE}, found `{0}`")]
    BadSize(String),
    /// A second `size` header, or one after the first piece (at the header).
    #[error("a `size` header must come once, before the first piece")]
    MisplacedSize,
    /// A character that is not `.`, `x`, `0` or a digit symbol (at the character).
    #[error("expected '.', 'x', '0' or a digit symbol (1-9, A-Z), found {0:?}")]
    UnknownSymbol(char),
    /// A given above `N` (at the symbol).
    #[error("expected a given 1..={side}, found '{symbol}' = {digit}, above the side {side}")]
    DigitAboveSide {
        symbol: char,
        digit: u16,
        side: usize,
    },
    /// A piece drawn with `.` only (at its first row).
    #[error("piece {piece} has no cell (only '.')")]
    EmptyPiece { piece: usize },
    /// Without a header, a number of pieces above 35 (at the first piece too many).
    #[error(
        "at most {MAX_PIECES_SIDE} pieces (boards up to {MAX_PIECES_SIDE}x{MAX_PIECES_SIDE}), found {found}"
    )]
    TooManyPieces { found: usize },
    /// The number of pieces is not `N` (at the first extra piece, or at the end of the input).
    #[error(
        "expected {expected} pieces (one per region of a {expected}x{expected} board), found {found}"
    )]
    PieceCount { expected: usize, found: usize },
    /// A piece does not have `N` cells (at its first cell).
    #[error(
        "piece {piece} has {cells} cells, expected {expected} (every piece of a {expected}x{expected} board has {expected})"
    )]
    CellCount {
        piece: usize,
        cells: usize,
        expected: usize,
    },
    /// A piece is not 4-connected (at its first cell not joined to its first cell).
    #[error(
        "piece {piece} is not connected: this cell is not joined to the piece's first cell through cells sharing a side"
    )]
    Disconnected { piece: usize },
}

/// An error in a pieces file: `file:line:column: message` (1-based, columns in characters).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}:{column}: {kind}")]
pub struct PiecesError {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub kind: PiecesErrorKind,
}

/// Reads a pieces file (`-` = standard input, named `<stdin>` in errors).
pub fn read_pieces_file(path: &Path) -> Result<PieceSet, PiecesError> {
    let (name, data) = if path.as_os_str() == "-" {
        let mut data = Vec::new();
        let r = std::io::stdin().lock().read_to_end(&mut data);
        ("<stdin>".to_string(), r.map(|_| data))
    } else {
        (path.display().to_string(), std::fs::read(path))
    };
    match data {
        Ok(bytes) => read_pieces_bytes(&bytes, &name),
        Err(e) => Err(PiecesError {
            file: name,
            line: 0,
            column: 0,
            kind: PiecesErrorKind::Io(e.to_string()),
        }),
    }
}

/// Reads pieces from raw bytes; `file` names them in errors.
pub fn read_pieces_bytes(bytes: &[u8], file: &str) -> Result<PieceSet, PiecesError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            // Position of the first bad byte: lines and characters of the valid prefix.
            let valid = std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or("");
            let (line, column) = end_position(valid);
            return Err(PiecesError {
                file: file.to_string(),
                line,
                column,
                kind: PiecesErrorKind::InvalidUtf8,
            });
        }
    };
    read_pieces_str(text, file)
}

/// 1-based line and column just past the end of `text`.
fn end_position(text: &str) -> (usize, usize) {
    let line = text.matches('\n').count() + 1;
    let last = text.rsplit('\n').next().unwrap_or("");
    (line, last.chars().count() + 1)
}

/// A piece being read: its rows as `(line number, text)`.
struct Block<'a> {
    rows: Vec<(usize, &'a str)>,
}

/// Reads pieces from text; `file` names it in errors.
pub fn read_pieces_str(text: &str, file: &str) -> Result<PieceSet, PiecesError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let err = |line: usize, column: usize, kind| PiecesError {
        file: file.to_string(),
        line,
        column,
        kind,
    };
    let alphabet = Alphabet::default_alphabet();
    let mut size: Option<usize> = None;
    let mut blocks: Vec<Block> = Vec::new();
    let mut open = false;
    for (i, raw) in text.split('\n').enumerate() {
        let number = i + 1;
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        if let Some(at) = line.find('\0') {
            return Err(err(number, column(line, at), PiecesErrorKind::NulByte));
        }
        let trimmed = line.trim();
        if trimmed.is_empty() {
            open = false;
            continue;
        }
        if trimmed.starts_with('#') {
            continue;
        }
        let indent = line.len() - line.trim_start().len();
        if let Some(rest) = trimmed
            .strip_prefix("size")
            .filter(|r| r.is_empty() || r.starts_with(char::is_whitespace))
        {
            if size.is_some() || !blocks.is_empty() {
                return Err(err(
                    number,
                    column(line, indent),
                    PiecesErrorKind::MisplacedSize,
                ));
            }
            let value = rest.trim();
            let at = if value.is_empty() {
                line.trim_end().len()
            } else {
                line.find(value).unwrap_or(indent)
            };
            match value.parse::<usize>() {
                Ok(n) if (1..=MAX_PIECES_SIDE).contains(&n) => size = Some(n),
                _ => {
                    return Err(err(
                        number,
                        column(line, at),
                        PiecesErrorKind::BadSize(value.to_string()),
                    ))
                }
            }
            continue;
        }
        // A row of a piece: check every character now, so that errors come in file order.
        let row = line.trim_end();
        for (at, ch) in row.char_indices() {
            if !(ch == '.' || ch == 'x' || ch == '0' || alphabet.digit(ch).is_some()) {
                return Err(err(
                    number,
                    column(line, at),
                    PiecesErrorKind::UnknownSymbol(ch),
                ));
            }
        }
        if !open {
            blocks.push(Block { rows: Vec::new() });
            open = true;
        }
        if let Some(b) = blocks.last_mut() {
            b.rows.push((number, row));
        }
    }
    if blocks.is_empty() {
        let (line, column) = end_position(text);
        return Err(err(line, column, PiecesErrorKind::NoPieces));
    }
    let n = match size {
        Some(n) => n,
        None => {
            if blocks.len() > MAX_PIECES_SIDE {
                let (line, _) = blocks[MAX_PIECES_SIDE].rows[0];
                return Err(err(
                    line,
                    1,
                    PiecesErrorKind::TooManyPieces {
                        found: blocks.len(),
                    },
                ));
            }
            blocks.len()
        }
    };
    if blocks.len() > n {
        let (line, _) = blocks[n].rows[0];
        return Err(err(
            line,
            1,
            PiecesErrorKind::PieceCount {
                expected: n,
                found: blocks.len(),
            },
        ));
    }
    if blocks.len() < n {
        let (line, column) = end_position(text);
        return Err(err(
            line,
            column,
            PiecesErrorKind::PieceCount {
                expected: n,
                found: blocks.len(),
            },
        ));
    }
    let mut pieces = Vec::with_capacity(n);
    for (k, block) in blocks.iter().enumerate() {
        let piece = k + 1;
        // (row, column, given) with the line and character column of each cell.
        let mut cells: Vec<(i32, i32, u16)> = Vec::new();
        let mut places: Vec<(usize, usize)> = Vec::new();
        for (r, &(number, row)) in block.rows.iter().enumerate() {
            for (c, (at, ch)) in row.char_indices().enumerate() {
                if ch == '.' {
                    continue;
                }
                let digit = if ch == 'x' || ch == '0' {
                    0
                } else {
                    alphabet.digit(ch).unwrap_or(0)
                };
                if digit as usize > n {
                    return Err(err(
                        number,
                        column(row, at),
                        PiecesErrorKind::DigitAboveSide {
                            symbol: ch,
                            digit,
                            side: n,
                        },
                    ));
                }
                cells.push((r as i32, c as i32, digit));
                places.push((number, column(row, at)));
            }
        }
        let first_line = block.rows[0].0;
        if cells.is_empty() {
            return Err(err(first_line, 1, PiecesErrorKind::EmptyPiece { piece }));
        }
        if cells.len() != n {
            let (line, column) = places[0];
            return Err(err(
                line,
                column,
                PiecesErrorKind::CellCount {
                    piece,
                    cells: cells.len(),
                    expected: n,
                },
            ));
        }
        if let Some(i) = first_unreached(&cells) {
            let (line, column) = places[i];
            return Err(err(line, column, PiecesErrorKind::Disconnected { piece }));
        }
        pieces.push(Piece::new(cells, first_line));
    }
    Ok(PieceSet { n, pieces })
}

/// 1-based character column of byte `offset` in `line`.
fn column(line: &str, offset: usize) -> usize {
    line.get(..offset).map_or(offset, |p| p.chars().count()) + 1
}

/// Index (in reading order) of the first cell that cannot be reached from the first cell by
/// steps between cells sharing a side; `None` when the cells are connected.
fn first_unreached(cells: &[(i32, i32, u16)]) -> Option<usize> {
    let mut reached = vec![false; cells.len()];
    let mut stack = vec![0usize];
    reached[0] = true;
    while let Some(i) = stack.pop() {
        let (r, c, _) = cells[i];
        for (j, &(r2, c2, _)) in cells.iter().enumerate() {
            if !reached[j] && (r - r2).abs() + (c - c2).abs() == 1 {
                reached[j] = true;
                stack.push(j);
            }
        }
    }
    reached.iter().position(|&r| !r)
}

/// Draws pieces in the pieces format (`x` for an empty cell), with a `size` header: what
/// [`read_pieces_str`] reads back as the same pieces. Used to cut a jigsaw puzzle into pieces.
pub fn write_pieces(set: &PieceSet) -> String {
    let alphabet = Alphabet::default_alphabet();
    let mut s = format!("size {}\n", set.n);
    for p in &set.pieces {
        s.push('\n');
        let h = p.cells.iter().map(|c| c.0).max().unwrap_or(0) + 1;
        let w = p.cells.iter().map(|c| c.1).max().unwrap_or(0) + 1;
        let mut rows = vec![vec!['.'; w as usize]; h as usize];
        for &(r, c, d) in &p.cells {
            rows[r as usize][c as usize] = if d == 0 {
                'x'
            } else {
                alphabet.symbol(d).unwrap_or('?')
            };
        }
        for row in rows {
            let line: String = row.into_iter().collect();
            s.push_str(line.trim_end_matches('.'));
            s.push('\n');
        }
    }
    s
}

/// Cuts a jigsaw puzzle (`regions[cell]` in `0..N`, `givens[cell]`, `0` = empty) into its
/// pieces, in order of region number: the inverse of tiling, for samples and tests.
pub fn cut(n: usize, regions: &[u16], givens: &[u16]) -> PieceSet {
    let mut cells: Vec<Vec<(i32, i32, u16)>> = vec![Vec::new(); n];
    for (cell, &r) in regions.iter().enumerate() {
        let (row, col) = ((cell / n) as i32, (cell % n) as i32);
        cells[r as usize].push((row, col, givens[cell]));
    }
    PieceSet {
        n,
        pieces: cells.into_iter().map(|c| Piece::new(c, 0)).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<PieceSet, PiecesError> {
        read_pieces_str(text, "t.txt")
    }

    fn error(text: &str) -> String {
        read(text).unwrap_err().to_string()
    }

    #[test]
    fn reads_and_normalises_a_4x4_set() {
        let set = read(
            "# four pieces\n..1x\n..x2\n\n\
             x3\nxx\n\n\
             4x\n\n\
             xx4\n.\n",
        );
        // The third and fourth pieces have too few cells: the error names the third.
        assert!(set.is_err());
        let set = read(
            "# four pieces\n..1x\n..x2\n\n\
             x3\nxx\n\n\
             4xxx\n\n\
             ...x\n...x\n...x\n...1\n",
        )
        .unwrap();
        assert_eq!(set.n, 4);
        assert_eq!(
            set.pieces[0].cells,
            vec![(0, 0, 1), (0, 1, 0), (1, 0, 0), (1, 1, 2)]
        );
        assert_eq!(set.pieces[0].line, 2);
        assert_eq!(
            set.pieces[3].cells,
            vec![(0, 0, 0), (1, 0, 0), (2, 0, 0), (3, 0, 1)]
        );
        assert_eq!(set.givens(), 5);
        // Written back and read again: the same pieces.
        let again = read(&write_pieces(&set)).unwrap();
        assert_eq!(
            again.pieces.iter().map(|p| &p.cells).collect::<Vec<_>>(),
            set.pieces.iter().map(|p| &p.cells).collect::<Vec<_>>()
        );
    }

    #[test]
    fn errors_name_line_and_column() {
        assert_eq!(
            error("xx\nx?\n\nxxx\nx\n"),
            "t.txt:2:2: expected '.', 'x', '0' or a digit symbol (1-9, A-Z), found '?'"
        );
        assert!(error("xxx\n\nxx\nxx\n").starts_with("t.txt:1:1: piece 1 has 3 cells, expected 2"));
        assert_eq!(
            error("xx\n\nx.x\n"),
            "t.txt:3:3: piece 2 is not connected: this cell is not joined to the piece's \
             first cell through cells sharing a side"
        );
        assert!(error("size 3\nxxx\n\nxxx\n").starts_with("t.txt:5:1: expected 3 pieces"));
        assert!(error("size 1\nx\n\nx\n").starts_with("t.txt:4:1: expected 1 pieces"));
        assert!(error("size 99\n").starts_with("t.txt:1:6: expected `size N`"));
        assert!(error("size\n").starts_with("t.txt:1:5: expected `size N`"));
        assert!(error("xx\nx3\n\nxxx\nx\n").starts_with("t.txt:2:2: expected a given 1..=2"));
        assert!(error("x\n\nsize 1\n").starts_with("t.txt:3:1: a `size` header"));
        assert_eq!(
            error("# nothing\n\n"),
            "t.txt:3:1: expected pieces, found none"
        );
        assert!(error("...\n\n").starts_with("t.txt:1:1: piece 1 has no cell"));
        assert!(read_pieces_bytes(b"x\n\xff", "b")
            .unwrap_err()
            .to_string()
            .starts_with("b:2:1: expected UTF-8"));
        assert!(error("x\0").starts_with("t.txt:1:2: expected text"));
        // Columns count characters, not bytes.
        assert!(error("é\n").starts_with("t.txt:1:1: expected '.'"));
        assert!(error("x\nxé\n").starts_with("t.txt:2:2: expected '.'"));
    }

    #[test]
    fn windows_line_ends_and_case() {
        let set = read("size 2\r\n\r\nx1\r\n\r\n2\r\nx\r\n").unwrap();
        assert_eq!(set.pieces[1].cells, vec![(0, 0, 2), (1, 0, 0)]);
        // Upper-case X is the digit 33 in the default alphabet: too large for N = 2.
        assert!(error("xX\n\nxx\n").contains("'X' = 33"));
    }

    #[test]
    fn cut_makes_pieces_of_a_layout() {
        let regions = [0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3];
        let mut givens = [0u16; 16];
        givens[5] = 3;
        let set = cut(4, &regions, &givens);
        assert_eq!(set.pieces.len(), 4);
        assert_eq!(
            set.pieces[0].cells,
            vec![(0, 0, 0), (0, 1, 0), (1, 0, 0), (1, 1, 3)]
        );
        assert_eq!(
            read(&write_pieces(&set)).unwrap().pieces[0].cells,
            set.pieces[0].cells
        );
    }
}
