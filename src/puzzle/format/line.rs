//! The line format (one puzzle per line) and the line form of jigsaw.

use super::text::{
    char_len, classify, isqrt, lines, meaningful_lines, LineKind, RegionNames, Symbols, UNKNOWN,
};
use super::{Layout, OutputFormat, ParseError, ParseErrorKind, Reader, MAX_SIDE};

/// Reads every line of the input as a puzzle (with its region layout if `jigsaw`).
pub(super) fn read(r: &mut Reader, jigsaw: bool) -> Result<(), ParseError> {
    let text = r.ctx.text;
    for (number, line) in lines(text) {
        let LineKind::Content(start) = classify(line) else {
            continue;
        };
        let rest = &line[start..];
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let givens = &rest[..end];
        let at = |r: &Reader, offset: usize, kind| r.ctx.error_at(number, line, offset, kind);
        let (n, cells) = parse_cells(&r.symbols, givens).map_err(|(o, k)| at(r, start + o, k))?;
        let layout = if jigsaw {
            let after = &rest[end..];
            let trimmed = after.trim_start();
            let expected = n * n;
            if trimmed.is_empty() {
                return Err(at(
                    r,
                    line.len(),
                    ParseErrorKind::MissingLayout { expected },
                ));
            }
            let lay_start = start + end + (after.len() - trimmed.len());
            let lay = &trimmed[..trimmed.find(char::is_whitespace).unwrap_or(trimmed.len())];
            let found = char_len(lay);
            if found != expected {
                let kind = ParseErrorKind::LayoutLength { expected, found };
                return Err(at(r, lay_start, kind));
            }
            let mut names = RegionNames::with_capacity(expected);
            for (i, c) in lay.char_indices() {
                if c == '.' {
                    return Err(at(r, lay_start + i, ParseErrorKind::DotRegion));
                }
                names.push(&lay[i..i + c.len_utf8()]);
            }
            Layout::Regions(names.finish(n).map_err(|k| at(r, lay_start, k))?)
        } else {
            let after = &rest[end..];
            let trimmed = after.trim_start();
            if r.options.format.is_none() && !trimmed.is_empty() {
                let t2 = &trimmed[..trimmed.find(char::is_whitespace).unwrap_or(trimmed.len())];
                let t2_start = start + end + (after.len() - trimmed.len());
                if let Some(kind) = stray_text(t2, n) {
                    return Err(at(r, t2_start, kind));
                }
            }
            let (rows, cols) = r.box_shape(n).map_err(|k| at(r, start, k))?;
            Layout::Boxes(rows, cols)
        };
        r.push(n, layout, cells, number, None, OutputFormat::Line)
            .map_err(|k| at(r, start, k))?;
    }
    Ok(())
}

/// The text after the givens of a classic line puzzle is skipped (a rating, a name, the
/// solution), except, when the format was detected rather than given, when it is a region
/// layout or a mistyped one: a string of `N*N` symbols that is a region layout
/// ([`is_layout`]: a jigsaw puzzle in a file whose first line is not one), or a string of 2
/// to `N` distinct symbols at least half as long as the givens and at most twice, but not
/// `N*N` long (a layout or solution with a symbol too many or too few). Skipping either
/// would solve the puzzle as the wrong one without a word.
fn stray_text(t2: &str, n: usize) -> Option<ParseErrorKind> {
    let expected = n * n;
    let found = char_len(t2);
    if 2 * found < expected || found > 2 * expected {
        return None;
    }
    if found == expected {
        if t2.contains('.') {
            return None;
        }
        return match names_of(t2).finish(n) {
            Ok(regions) if is_layout(&regions, n) => Some(ParseErrorKind::StrayLayout { side: n }),
            _ => None,
        };
    }
    let mut distinct = std::collections::HashSet::with_capacity(n + 1);
    for c in t2.chars() {
        if distinct.insert(c) && distinct.len() > n {
            return None;
        }
    }
    (distinct.len() >= 2).then_some(ParseErrorKind::TrailingLength { expected, found })
}

/// The region names of a layout string: one per character.
fn names_of(layout: &str) -> RegionNames<'_> {
    let mut names = RegionNames::with_capacity(layout.len());
    for (i, c) in layout.char_indices() {
        names.push(&layout[i..i + c.len_utf8()]);
    }
    names
}

/// Parses the `N*N` symbols of a line puzzle. Errors carry the byte offset in `token`.
fn parse_cells(
    symbols: &Symbols,
    token: &str,
) -> Result<(usize, Vec<u16>), (usize, ParseErrorKind)> {
    let length = char_len(token);
    let n = isqrt(length);
    if n * n != length || n == 0 {
        return Err((0, ParseErrorKind::BadLength { length }));
    }
    if n > MAX_SIDE {
        return Err((0, ParseErrorKind::SideTooLarge { side: n }));
    }
    let mut cells = Vec::with_capacity(length);
    let bad = |offset: usize, c: char, v: u16| {
        if v == UNKNOWN {
            (offset, ParseErrorKind::UnknownSymbol { symbol: c })
        } else {
            let kind = ParseErrorKind::DigitAboveSide {
                token: c.to_string(),
                digit: u64::from(v),
                side: n,
            };
            (offset, kind)
        }
    };
    if token.is_ascii() {
        for (i, &b) in token.as_bytes().iter().enumerate() {
            let v = symbols.byte_value(b);
            if v as usize > n {
                return Err(bad(i, b as char, v));
            }
            cells.push(v);
        }
    } else {
        for (i, c) in token.char_indices() {
            let v = symbols.char_value(c);
            if v as usize > n {
                return Err(bad(i, c, v));
            }
            cells.push(v);
        }
    }
    Ok((n, cells))
}

/// Whether `token` looks like a line puzzle rather than a contiguous grid row: `N*N`
/// characters with `N >= 4`, no comma, and (if `N*N` is short enough for a grid row written
/// with the alphabet) no symbol naming a digit in `N+1..=N*N`.
///
/// A token of digit symbols and empty marks that is too long for a contiguous grid row (more
/// characters than the alphabet has symbols) is a line puzzle even when its length is not a
/// square: it is one with a symbol too many or too few, and reading it as a line names the
/// length expected and found (read as a grid, it would be a row of 80 cells missing 79 rows).
pub(super) fn looks_like_line(token: &str, symbols: &Symbols) -> bool {
    let length = char_len(token);
    let n = isqrt(length);
    if n * n != length {
        return length > symbols.alphabet().len()
            && token.chars().all(|c| symbols.char_value(c) != UNKNOWN);
    }
    if n < 4 || token.contains(',') {
        return false;
    }
    if length > symbols.alphabet().len() {
        // Too long for a contiguous grid row: the alphabet cannot write its digits.
        return true;
    }
    !token.chars().any(|c| {
        let v = symbols.char_value(c) as usize;
        v != UNKNOWN as usize && v > n && v <= length
    })
}

/// Whether a first line `t1 t2 ...` is a jigsaw line: `t1` and `t2` have the same length
/// `N*N` (`N >= 2`), `t1` has no comma, `t2` has no `.`, and `t2` is either a region layout
/// that is not a Latin square (so not a solution written after its puzzle) or no layout of
/// `N` regions of `N` cells at all, a layout with a mistake, so that reading it as jigsaw
/// reports the mistake rather than dropping it as text after whitespace. A wrong `t2` that
/// holds `0` when `t1` writes its empty cells as `0` is taken for a second puzzle instead.
pub(super) fn looks_like_jigsaw_line(t1: &str, t2: &str, symbols: &Symbols) -> bool {
    let length = char_len(t1);
    let n = isqrt(length);
    if n * n != length || !(2..=MAX_SIDE).contains(&n) || char_len(t2) != length {
        return false;
    }
    if t1.contains(',') || t2.contains('.') {
        return false;
    }
    match names_of(t2).finish(n) {
        Ok(regions) => is_layout(&regions, n),
        Err(_) => !(symbols.char_value('0') == 0 && t1.contains('0') && t2.contains('0')),
    }
}

/// Whether `regions` (`N` regions of `N` cells, checked) reads as a region layout rather
/// than a solution: some row holds a region twice, or every region is connected. A solution
/// has neither (no row repeats a digit, and two cells of a digit never touch, as they would
/// share a row or a column), so a line puzzle followed by its solution is not a jigsaw; a
/// layout whose regions are the columns is one.
pub(super) fn is_layout(regions: &[u16], n: usize) -> bool {
    !is_latin(regions, n) || connected(regions, n)
}

/// Whether every region is orthogonally connected.
fn connected(regions: &[u16], n: usize) -> bool {
    let mut seen = vec![false; regions.len()];
    let mut reached = vec![false; n];
    let mut stack = Vec::new();
    for start in 0..regions.len() {
        let reg = regions[start];
        if reached[reg as usize % n] {
            continue;
        }
        reached[reg as usize % n] = true;
        let mut size = 0;
        seen[start] = true;
        stack.push(start);
        while let Some(c) = stack.pop() {
            size += 1;
            let (row, col) = (c / n, c % n);
            let around = [
                (row > 0).then(|| c - n),
                (row + 1 < n).then_some(c + n),
                (col > 0).then(|| c - 1),
                (col + 1 < n).then_some(c + 1),
            ];
            for d in around.into_iter().flatten() {
                if !seen[d] && regions[d] == reg {
                    seen[d] = true;
                    stack.push(d);
                }
            }
        }
        if size != n {
            return false;
        }
    }
    true
}

/// Whether no row holds a region twice (a Latin square: each region one cell per row).
pub(super) fn is_latin(regions: &[u16], n: usize) -> bool {
    let mut seen = vec![usize::MAX; n];
    for (cell, &reg) in regions.iter().enumerate() {
        let row = cell / n;
        let slot = &mut seen[reg as usize % n];
        if *slot == row {
            return false;
        }
        *slot = row;
    }
    true
}

/// For jigsaw input: whether it is in the line form. True when the first meaningful line
/// holds two strings, the first of square length `>= 4` with no comma, or one string that
/// looks like a line puzzle.
pub(super) fn jigsaw_is_line_form(text: &str, symbols: &Symbols) -> bool {
    let Some((_, first)) = meaningful_lines(text).next() else {
        return false;
    };
    let mut words = first.split_whitespace();
    let t1 = words.next().unwrap_or("");
    if words.next().is_some() {
        let length = char_len(t1);
        let n = isqrt(length);
        n * n == length && n >= 2 && !t1.contains(',')
    } else {
        looks_like_line(t1, symbols)
    }
}
