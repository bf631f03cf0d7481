//! Writing grids and puzzles back as text.

use super::{Alphabet, Format, OutputFormat};
use crate::puzzle::{Geometry, Puzzle};
use std::fmt::Write as _;

/// Symbols of regions `1, 2, ...` in the line form of a jigsaw layout (62 of them).
const REGION_SYMBOLS: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/// The output format that mirrors an input format: [`Format::Line`] -> line, [`Format::Grid`]
/// -> grid. Jigsaw input may be in either form; this returns [`OutputFormat::Line`] for it,
/// and [`SourcedPuzzle::form`](super::SourcedPuzzle::form) gives the exact form of each
/// puzzle read.
pub fn format_of_output(format: Format) -> OutputFormat {
    match format {
        Format::Line | Format::Jigsaw => OutputFormat::Line,
        Format::Grid | Format::Puzzlekit => OutputFormat::Grid,
        Format::Killer => OutputFormat::Killer,
    }
}

/// Writes a grid (givens or a solution) of `geometry` in `format`, without a final newline.
///
/// - [`OutputFormat::Line`]: the `N*N` symbols of `alphabet` (default `1-9A-Z`) on one line,
///   `.` for an empty cell. When a digit has no symbol (`N` larger than the alphabet, such as
///   36x36 with the default alphabet), the grid form is written instead.
/// - [`OutputFormat::Grid`]: `N` rows. For `N <= 9`, each row is one string of symbols like
///   Project Euler's `003020600` (`0` for empty, or `.` if the alphabet uses `0` as a digit);
///   otherwise each row is `N` decimal numbers (`0` for empty) separated by spaces and
///   right-aligned to equal width, like `rk-16x16.txt`.
///
/// Reading the text back (with the same alphabet, and `--format line` for line puzzles with
/// `N < 4`) gives the same grid.
pub fn write_grid(
    grid: &[u16],
    geometry: &Geometry,
    format: OutputFormat,
    alphabet: Option<&Alphabet>,
) -> String {
    let alphabet = match alphabet {
        Some(a) => a,
        None => default_alphabet(),
    };
    if geometry.is_combined() {
        return write_frame(grid, geometry, format, alphabet);
    }
    let n = geometry.n().max(1);
    // (The largest digit, rather than `all`, so that the scan vectorises.)
    let symbolic = grid.iter().copied().max().unwrap_or(0) as usize <= alphabet.len();
    match format {
        OutputFormat::Line if symbolic => {
            if let Some(table) = alphabet.line_bytes() {
                // Every digit has its byte (symbolic): one lookup per cell, no branch.
                let line: Vec<u8> = grid.iter().map(|&d| table[d as usize]).collect();
                return String::from_utf8(line).expect("ASCII symbols");
            }
            let mut s = String::with_capacity(grid.len());
            for &d in grid {
                s.push(alphabet.symbol(d).unwrap_or('.'));
            }
            s
        }
        _ if n <= 9 && symbolic => {
            let empty = if alphabet.has_zero() { '.' } else { '0' };
            let mut s = String::with_capacity(grid.len() + n);
            for (i, row) in grid.chunks(n).enumerate() {
                if i > 0 {
                    s.push('\n');
                }
                s.extend(row.iter().map(|&d| alphabet.symbol(d).unwrap_or(empty)));
            }
            s
        }
        _ => numbers(grid, n),
    }
}

/// A grid of a combined layout (samurai): the frame's `H x W` cells row-major, `-` for a void
/// cell, `.` for an empty one. [`OutputFormat::Line`]: one line of `H * W` symbols;
/// [`OutputFormat::Grid`]: `H` rows of `W`. Digits without a symbol in `alphabet` are written
/// as decimal numbers separated by spaces, in both forms.
fn write_frame(
    grid: &[u16],
    geometry: &Geometry,
    format: OutputFormat,
    alphabet: &Alphabet,
) -> String {
    let symbolic = grid.iter().all(|&d| d == 0 || alphabet.symbol(d).is_some());
    let width = geometry.width().max(1);
    let mut s = String::with_capacity(grid.len() * if symbolic { 1 } else { 3 });
    for (i, &d) in grid.iter().enumerate() {
        if i > 0 {
            if format == OutputFormat::Grid && i % width == 0 {
                s.push('\n');
            } else if !symbolic {
                s.push(' ');
            }
        }
        if geometry.is_void(i) {
            s.push('-');
        } else if d == 0 {
            s.push('.');
        } else if symbolic {
            s.push(alphabet.symbol(d).expect("symbolic"));
        } else {
            let _ = write!(s, "{d}");
        }
    }
    s
}

/// The default alphabet, built once per process (for [`write_grid`]): building it costs
/// about as much as writing a 9x9 line.
fn default_alphabet() -> &'static Alphabet {
    static DEFAULT: std::sync::OnceLock<Alphabet> = std::sync::OnceLock::new();
    DEFAULT.get_or_init(Alphabet::default_alphabet)
}

/// The largest digit the default alphabet has a symbol for (`1-9A-Z`).
const DEFAULT_LINE_MAX: u16 = 35;

/// The byte of digit `d <= DEFAULT_LINE_MAX` in a line with the default alphabet: `.` (empty),
/// `1`-`9`, then `A`-`Z` (tested against the alphabet's table). The digit plus an offset that
/// depends on its range, rather than a table lookup: the arithmetic vectorises, a lookup per
/// cell does not.
#[inline]
fn default_line_byte(d: u16) -> u8 {
    let d = d as u8;
    d + if d == 0 {
        b'.'
    } else if d <= 9 {
        b'0'
    } else {
        b'A' - 10
    }
}

/// Appends the line form of a boxed or X grid with the default alphabet (what
/// [`write_grid`] writes for [`OutputFormat::Line`] without an alphabet) to `out` as bytes
/// and returns the number of its non-empty cells, or writes nothing and returns `None` when
/// a digit has no one-byte symbol there or the geometry is a jigsaw (whose line form carries
/// its regions: use [`write_puzzle`]). The experiment runner writes one such line and its
/// clue count per CSV row: this path allocates nothing and its bytes are ASCII. The grid is
/// read twice, each pass vectorised: once to count the givens and see that every digit has a
/// symbol, once to write the bytes straight into `out` (through a stack buffer and a copy it
/// cost twice as many instructions).
pub fn push_default_line(out: &mut Vec<u8>, grid: &[u16], geometry: &Geometry) -> Option<usize> {
    if geometry.is_jigsaw() {
        return None;
    }
    // One pass counts the givens and the digits past the alphabet, 16-bit sums that vectorise
    // (at most 65,535 cells per chunk, so a sum cannot wrap); a second writes the bytes.
    let mut filled = 0;
    for chunk in grid.chunks(u16::MAX as usize) {
        let (given, past) = chunk.iter().fold((0u16, 0u16), |(given, past), &d| {
            (
                given + u16::from(d != 0),
                past + u16::from(d > DEFAULT_LINE_MAX),
            )
        });
        if past > 0 {
            return None;
        }
        filled += given as usize;
    }
    let start = out.len();
    out.extend(grid.iter().map(|&d| default_line_byte(d)));
    if geometry.is_combined() {
        for (cell, byte) in out[start..].iter_mut().enumerate() {
            if geometry.is_void(cell) {
                *byte = b'-';
            }
        }
    }
    Some(filled)
}

/// Rows of right-aligned decimal numbers.
fn numbers(grid: &[u16], n: usize) -> String {
    let max = grid
        .iter()
        .copied()
        .max()
        .unwrap_or(0)
        .max(n.min(u16::MAX as usize) as u16);
    let width = max.to_string().len();
    let mut s = String::with_capacity(grid.len() * (width + 1));
    for (i, row) in grid.chunks(n).enumerate() {
        if i > 0 {
            s.push('\n');
        }
        for (j, d) in row.iter().enumerate() {
            if j > 0 {
                s.push(' ');
            }
            let _ = write!(s, "{d:>width$}");
        }
    }
    s
}

/// Writes a puzzle's givens like [`write_grid`], followed for a jigsaw puzzle by its region
/// layout: in the line form, a space then `N*N` region symbols (`A-Z`, `a-z`, `0-9`, in order
/// of first appearance; the grid form is used when `N > 62`); in the grid form, a blank line
/// then `N` rows of region symbols (`N <= 9`) or of region numbers `1..=N`. The text reads
/// back as the same puzzle with `--format jigsaw` (and is detected as jigsaw unless the
/// layout is a Latin square).
///
/// A puzzle with cages, and any puzzle asked in [`OutputFormat::Killer`] or
/// [`OutputFormat::Puzzlekit`], is written in the killer text format
/// ([`super::write_killer`]): the line and grid forms have no place for cages, and a
/// puzzlekit file (one JSON document for many puzzles) is written by
/// [`super::write_puzzlekit`].
pub fn write_puzzle(puzzle: &Puzzle, format: OutputFormat, alphabet: Option<&Alphabet>) -> String {
    if puzzle.has_cages() || matches!(format, OutputFormat::Killer | OutputFormat::Puzzlekit) {
        return super::write_killer(puzzle, alphabet);
    }
    write_grid_with_layout(puzzle.givens(), puzzle.geometry(), format, alphabet)
}

/// Writes `grid` (givens or a solution) as [`write_puzzle`] writes a puzzle's givens: with the
/// region layout of a jigsaw `geometry` after it, so that a solution printed this way reads
/// back as a (solved) puzzle of the same geometry.
pub fn write_grid_with_layout(
    grid: &[u16],
    geometry: &Geometry,
    format: OutputFormat,
    alphabet: Option<&Alphabet>,
) -> String {
    if !geometry.is_jigsaw() {
        return write_grid(grid, geometry, format, alphabet);
    }
    let n = geometry.n();
    // Region numbers in order of first appearance, 1-based.
    let mut rename = vec![0u16; n];
    let mut next = 0u16;
    let regions: Vec<u16> = geometry
        .regions()
        .iter()
        .map(|&r| {
            let slot = &mut rename[r as usize % n.max(1)];
            if *slot == 0 {
                next += 1;
                *slot = next;
            }
            *slot
        })
        .collect();
    let letters: Vec<char> = REGION_SYMBOLS.chars().collect();
    let line = write_grid(grid, geometry, format, alphabet);
    if format == OutputFormat::Line && n <= letters.len() && !line.contains('\n') {
        let mut s = line;
        s.push(' ');
        s.extend(regions.iter().map(|&r| letters[r as usize - 1]));
        return s;
    }
    let givens = write_grid(grid, geometry, OutputFormat::Grid, alphabet);
    let mut s = givens;
    s.push_str("\n\n");
    if n <= 9 {
        for (i, row) in regions.chunks(n).enumerate() {
            if i > 0 {
                s.push('\n');
            }
            s.extend(row.iter().map(|&r| letters[r as usize - 1]));
        }
    } else {
        s.push_str(&numbers(&regions, n));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The arithmetic symbols are the default alphabet's table, digit for digit, and the
    /// table has no symbol past them.
    #[test]
    fn default_line_bytes_are_the_alphabets() {
        let table = default_alphabet().line_bytes().expect("an ASCII alphabet");
        assert_eq!(table.len(), DEFAULT_LINE_MAX as usize + 1);
        for (d, &want) in table.iter().enumerate() {
            assert_eq!(default_line_byte(d as u16), want, "digit {d}");
        }
    }

    /// The line is what `write_grid` writes and the count is the puzzle's clues, over more
    /// than one buffer's worth of cells (25x25: 625 cells); digits past the alphabet and
    /// jigsaws are left to the general path.
    #[test]
    fn default_lines_count_their_givens() {
        for (n, r, c) in [(4, 2, 2), (9, 3, 3), (16, 4, 4), (25, 5, 5), (36, 6, 6)] {
            let g = Geometry::boxed(n, r, c).unwrap();
            let mut givens = vec![0u16; n * n];
            for (i, v) in givens.iter_mut().enumerate().step_by(3) {
                *v = (i % n) as u16 + 1;
            }
            // The largest digit, which 36x36 has no symbol for.
            givens[n - 1] = n as u16;
            let puzzle = Puzzle::new(std::sync::Arc::new(g), givens).unwrap();
            let mut out = b"x".to_vec();
            let pushed = push_default_line(&mut out, puzzle.givens(), puzzle.geometry());
            if n > DEFAULT_LINE_MAX as usize {
                assert_eq!((pushed, &out[..]), (None, &b"x"[..]), "{n}");
                continue;
            }
            assert_eq!(pushed, Some(puzzle.clues()), "{n}");
            let line = write_grid(puzzle.givens(), puzzle.geometry(), OutputFormat::Line, None);
            assert_eq!(out, [b"x", line.as_bytes()].concat(), "{n}");
        }
        let text = include_str!("../../../data/examples/jigsaw-9x9.txt");
        let jigsaw = super::super::read_str(text, "t", &Default::default())
            .unwrap()
            .1
            .remove(0)
            .puzzle;
        assert_eq!(
            push_default_line(&mut Vec::new(), jigsaw.givens(), jigsaw.geometry()),
            None
        );
    }
}
