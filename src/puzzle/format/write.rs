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
        Format::Grid => OutputFormat::Grid,
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

/// The default alphabet, built once per process (shared by [`write_grid`] and
/// [`push_default_line`]): building it costs about as much as writing a 9x9 line, and the
/// experiment runner writes one line per row of outputs of 50,000 rows.
fn default_alphabet() -> &'static Alphabet {
    static DEFAULT: std::sync::OnceLock<Alphabet> = std::sync::OnceLock::new();
    DEFAULT.get_or_init(Alphabet::default_alphabet)
}

/// Appends the line form of a boxed or X grid with the default alphabet (what
/// [`write_grid`] writes for [`OutputFormat::Line`] without an alphabet) to `out` as bytes
/// and returns true, or writes nothing and returns false when a digit has no one-byte symbol
/// there or the geometry is a jigsaw (whose line form carries its regions: use
/// [`write_puzzle`]). The experiment runner writes one such line per CSV row: this path
/// allocates nothing, and its bytes are ASCII.
pub fn push_default_line(out: &mut Vec<u8>, grid: &[u16], geometry: &Geometry) -> bool {
    let Some(table) = default_alphabet().line_bytes() else {
        return false;
    };
    // (The largest digit, rather than `all`, so that the scan vectorises.)
    if geometry.is_jigsaw() || grid.iter().copied().max().unwrap_or(0) as usize >= table.len() {
        return false;
    }
    // Through a table of 64 entries indexed by `d & 63` (every digit is below the table's
    // length, checked above): no bounds check per cell. Into a fixed buffer, then one copy:
    // pushing per cell costs a capacity check each, several times the lookup itself.
    let mut symbols = [b'.'; 64];
    let known = table.len().min(symbols.len());
    symbols[..known].copy_from_slice(&table[..known]);
    if table.len() > symbols.len() {
        // (No default alphabet is that long; the general path then.)
        out.extend(grid.iter().map(|&d| table[d as usize]));
        return true;
    }
    let mut buf = [0u8; 256];
    for chunk in grid.chunks(buf.len()) {
        for (b, &d) in buf.iter_mut().zip(chunk) {
            *b = symbols[(d & 63) as usize];
        }
        out.extend_from_slice(&buf[..chunk.len()]);
    }
    true
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
pub fn write_puzzle(puzzle: &Puzzle, format: OutputFormat, alphabet: Option<&Alphabet>) -> String {
    let geometry = puzzle.geometry();
    if !geometry.is_jigsaw() {
        return write_grid(puzzle.givens(), geometry, format, alphabet);
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
    let line = write_grid(puzzle.givens(), geometry, format, alphabet);
    if format == OutputFormat::Line && n <= letters.len() && !line.contains('\n') {
        let mut s = line;
        s.push(' ');
        s.extend(regions.iter().map(|&r| letters[r as usize - 1]));
        return s;
    }
    let givens = write_grid(puzzle.givens(), geometry, OutputFormat::Grid, alphabet);
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
