//! The grid format (`N` rows of `N` cells per puzzle) and the grid form of jigsaw.

use super::line::is_layout;
use super::text::{
    char_len, classify, lines, meaningful_lines, offset_in, tokens, LineKind, RegionNames, Symbols,
    UNKNOWN,
};
use super::{
    GeometryCache, Layout, OutputFormat, ParseError, ParseErrorKind, ReadOptions, Reader, RowsEnd,
    MAX_SIDE,
};

/// Longest header line, in characters.
const MAX_HEADER: usize = 100;

/// A puzzle being read.
struct Building<'a> {
    n: usize,
    /// Line and column of the first row.
    line: usize,
    column: usize,
    name: Option<String>,
    cells: Vec<u16>,
    rows: usize,
    boxes: Option<(usize, usize)>,
    /// The region layout being read (jigsaw, once the givens are complete).
    layout: Option<LayoutRows<'a>>,
}

struct LayoutRows<'a> {
    names: RegionNames<'a>,
    rows: usize,
    /// Line and column of the first layout row.
    at: (usize, usize),
}

/// What follows a classic puzzle, watched for a region layout that the file's format (decided
/// by its first puzzle) does not expect: rows of `N` symbols would be read as headers, rows
/// of `N` numbers as a puzzle of their own ([`ParseErrorKind::StrayLayout`]).
struct AfterPuzzle<'a> {
    n: usize,
    /// A blank line was seen since the puzzle (a layout may follow one).
    blank: bool,
    /// Header lines read so far that are one string of `N` symbols, and the first of them.
    rows: usize,
    first: Option<(usize, &'a str, usize)>,
}

/// Whether a classic grid puzzle's digits are a region layout: every digit `N` times, no
/// empty cell, and [`is_layout`] (not the solution of the puzzle before it).
fn digits_are_layout(cells: &[u16], n: usize) -> bool {
    let mut count = vec![0usize; n + 1];
    for &v in cells {
        count[v as usize] += 1;
    }
    if count[0] != 0 || count[1..].iter().any(|&c| c != n) {
        return false;
    }
    let regions: Vec<u16> = cells.iter().map(|&v| v - 1).collect();
    is_layout(&regions, n)
}

/// Reads grid puzzles (with their region layouts if `jigsaw`). Stops after `limit` puzzles
/// if given.
pub(super) fn read(r: &mut Reader, jigsaw: bool, limit: Option<usize>) -> Result<(), ParseError> {
    let text = r.ctx.text;
    let mut current: Option<Building> = None;
    let mut header: Option<String> = None;
    let mut size: Option<(usize, String)> = None;
    // Classic files whose format was detected (not given) only: what follows the last
    // puzzle, and whether the puzzle being read follows one directly (after at most a blank
    // line).
    let mut after: Option<AfterPuzzle> = None;
    let mut follows_puzzle = false;
    for (number, line) in lines(text) {
        let start = match classify(line) {
            LineKind::Comment => continue,
            LineKind::Blank => {
                if let Some(a) = &mut after {
                    if a.rows == 0 && !a.blank {
                        a.blank = true;
                    } else {
                        after = None;
                    }
                }
                if let Some(b) = &current {
                    match &b.layout {
                        Some(l) if l.rows == 0 => {}
                        layout => {
                            let kind = ParseErrorKind::MissingRows {
                                expected: b.n,
                                found: layout.as_ref().map_or(b.rows, |l| l.rows),
                                layout: layout.is_some(),
                                ended_by: RowsEnd::BlankLine,
                            };
                            return Err(r.ctx.error_at(number, line, 0, kind));
                        }
                    }
                }
                continue;
            }
            LineKind::Content(start) => start,
        };
        let content = line[start..].trim_end();
        match &mut current {
            None => {
                let mut cells = Vec::new();
                let expected = size.as_ref().map(|s| s.0);
                match parse_row(r, number, line, start, expected, &mut cells) {
                    Ok(n) => {
                        follows_puzzle = after.take().is_some_and(|a| a.rows == 0);
                        let boxes = if jigsaw {
                            None
                        } else {
                            let shape = r
                                .box_shape(n)
                                .map_err(|k| r.ctx.error_at(number, line, start, k))?;
                            Some(shape)
                        };
                        cells.reserve_exact(n * n - n);
                        size = None;
                        current = Some(Building {
                            n,
                            line: number,
                            column: super::text::column(line, start),
                            name: header.take(),
                            cells,
                            rows: 1,
                            boxes,
                            layout: None,
                        });
                    }
                    Err(e) => {
                        if expected.is_some() {
                            return Err(e);
                        }
                        if is_header(content) {
                            if let Some(a) = &mut after {
                                let one_string = !content.contains(char::is_whitespace);
                                if one_string && char_len(content) == a.n {
                                    a.rows += 1;
                                    let (first_line, first_text, first_start) =
                                        *a.first.get_or_insert((number, line, start));
                                    if a.rows == 2 {
                                        let kind = ParseErrorKind::StrayLayout { side: a.n };
                                        return Err(r.ctx.error_at(
                                            first_line,
                                            first_text,
                                            first_start,
                                            kind,
                                        ));
                                    }
                                } else {
                                    after = None;
                                }
                            }
                            header = Some(content.to_string());
                            continue;
                        }
                        after = None;
                        match size_line(content) {
                            Some((rows, cols)) if rows != cols => {
                                let kind = ParseErrorKind::NotSquare { rows, cols };
                                return Err(r.ctx.error_at(number, line, start, kind));
                            }
                            Some((n, _)) if n > MAX_SIDE => {
                                let kind = ParseErrorKind::SideTooLarge { side: n };
                                return Err(r.ctx.error_at(number, line, start, kind));
                            }
                            Some((n, _)) => {
                                size = Some((n, content.to_string()));
                                continue;
                            }
                            None => return Err(e),
                        }
                    }
                }
            }
            Some(b) => match &mut b.layout {
                None => {
                    if let Err(e) = parse_row(r, number, line, start, Some(b.n), &mut b.cells) {
                        if is_header(content) {
                            let kind = ParseErrorKind::MissingRows {
                                expected: b.n,
                                found: b.rows,
                                layout: false,
                                ended_by: RowsEnd::Header(content.to_string()),
                            };
                            return Err(r.ctx.error_at(number, line, start, kind));
                        }
                        return Err(e);
                    }
                    b.rows += 1;
                }
                Some(l) => {
                    if l.rows == 0 {
                        l.at = (number, super::text::column(line, start));
                    }
                    parse_region_row(r, number, line, start, b.n, &mut l.names)?;
                    l.rows += 1;
                }
            },
        }
        let Some(b) = &mut current else { continue };
        if b.rows < b.n {
            continue;
        }
        if jigsaw && b.layout.as_ref().map_or(true, |l| l.rows < b.n) {
            if b.layout.is_none() {
                b.layout = Some(LayoutRows {
                    names: RegionNames::with_capacity(b.n * b.n),
                    rows: 0,
                    at: (0, 0),
                });
            }
            continue;
        }
        let Some(b) = current.take() else { continue };
        if !jigsaw && r.options.format.is_none() {
            if follows_puzzle && digits_are_layout(&b.cells, b.n) {
                let kind = ParseErrorKind::StrayLayout { side: b.n };
                let err = ParseError {
                    file: r.ctx.file.to_string(),
                    line: b.line,
                    column: b.column,
                    kind,
                };
                return Err(err);
            }
            after = Some(AfterPuzzle {
                n: b.n,
                blank: false,
                rows: 0,
                first: None,
            });
        }
        let layout = match (b.boxes, b.layout) {
            (Some((rows, cols)), _) => Layout::Boxes(rows, cols),
            // Not reached: a jigsaw puzzle is finished with its layout.
            (None, None) => continue,
            (None, Some(l)) => {
                let regions = l.names.finish(b.n).map_err(|kind| ParseError {
                    file: r.ctx.file.to_string(),
                    line: l.at.0,
                    column: l.at.1,
                    kind,
                })?;
                Layout::Regions(regions)
            }
        };
        r.push(b.n, layout, b.cells, b.line, b.name, OutputFormat::Grid)
            .map_err(|kind| ParseError {
                file: r.ctx.file.to_string(),
                line: b.line,
                column: b.column,
                kind,
            })?;
        if limit.is_some_and(|l| r.out.len() >= l) {
            return Ok(());
        }
    }
    if let Some(b) = current {
        let kind = ParseErrorKind::MissingRows {
            expected: b.n,
            found: b.layout.as_ref().map_or(b.rows, |l| l.rows),
            layout: b.layout.is_some(),
            ended_by: RowsEnd::EndOfInput,
        };
        return Err(r.ctx.error_at_end(kind));
    }
    if let Some(h) = header.or(size.map(|s| s.1)) {
        return Err(r
            .ctx
            .error_at_end(ParseErrorKind::HeaderWithoutPuzzle { header: h }));
    }
    Ok(())
}

/// Parses one row of givens into `out`: `N` tokens or one string of `N` symbols. `expected`
/// is `N`, or `None` for the first row of a puzzle (which sets `N`). Returns `N`.
pub(super) fn parse_row(
    r: &Reader,
    number: usize,
    line: &str,
    start: usize,
    expected: Option<usize>,
    out: &mut Vec<u16>,
) -> Result<usize, ParseError> {
    let content = &line[start..];
    let err = |offset: usize, kind| r.ctx.error_at(number, line, offset, kind);
    let end_of_row = start + content.trim_end().len();
    let mut toks = tokens(content);
    let Some(first) = toks.next() else {
        // Separators only.
        let kind = match expected {
            Some(n) => ParseErrorKind::RaggedRow {
                expected: n,
                found: 0,
            },
            None => ParseErrorKind::BadToken {
                token: content.trim_end().to_string(),
            },
        };
        return Err(err(start, kind));
    };
    if toks.next().is_none() {
        // One string of N symbols.
        let at = offset_in(line, first);
        let length = char_len(first);
        if expected.is_none() && length > MAX_SIDE {
            return Err(err(at, ParseErrorKind::SideTooLarge { side: length }));
        }
        let n = expected.unwrap_or(length);
        if length != n {
            let kind = ParseErrorKind::RaggedRow {
                expected: n,
                found: length,
            };
            let offset = match first.char_indices().nth(n) {
                Some((i, _)) => at + i,
                None => at + first.len(),
            };
            return Err(err(offset, kind));
        }
        for (i, c) in first.char_indices() {
            let v = r.symbols.char_value(c);
            if v == UNKNOWN {
                return Err(err(at + i, ParseErrorKind::UnknownSymbol { symbol: c }));
            }
            if v as usize > n {
                let kind = ParseErrorKind::DigitAboveSide {
                    token: c.to_string(),
                    digit: u64::from(v),
                    side: n,
                };
                return Err(err(at + i, kind));
            }
            out.push(v);
        }
        return Ok(n);
    }
    let count = tokens(content).count();
    if expected.is_none() && count > MAX_SIDE {
        return Err(err(start, ParseErrorKind::SideTooLarge { side: count }));
    }
    let n = expected.unwrap_or(count);
    if count != n {
        let kind = ParseErrorKind::RaggedRow {
            expected: n,
            found: count,
        };
        let offset = match tokens(content).nth(n) {
            Some(t) => offset_in(line, t),
            None => end_of_row,
        };
        return Err(err(offset, kind));
    }
    for t in tokens(content) {
        match r.symbols.token_value(t) {
            Some(v) if v <= n as u64 => out.push(v as u16),
            Some(digit) => {
                let kind = ParseErrorKind::DigitAboveSide {
                    token: t.to_string(),
                    digit,
                    side: n,
                };
                return Err(err(offset_in(line, t), kind));
            }
            None => {
                let kind = ParseErrorKind::BadToken {
                    token: t.to_string(),
                };
                return Err(err(offset_in(line, t), kind));
            }
        }
    }
    Ok(n)
}

/// Parses one row of a region layout: `N` tokens or one string of `N` symbols.
fn parse_region_row<'a>(
    r: &Reader,
    number: usize,
    line: &'a str,
    start: usize,
    n: usize,
    names: &mut RegionNames<'a>,
) -> Result<(), ParseError> {
    let content = &line[start..];
    let err = |offset: usize, kind| r.ctx.error_at(number, line, offset, kind);
    let mut toks = tokens(content);
    let Some(first) = toks.next() else {
        let kind = ParseErrorKind::RaggedRow {
            expected: n,
            found: 0,
        };
        return Err(err(start, kind));
    };
    if toks.next().is_none() {
        let at = offset_in(line, first);
        let length = char_len(first);
        if length != n {
            let kind = ParseErrorKind::RaggedRow {
                expected: n,
                found: length,
            };
            let offset = match first.char_indices().nth(n) {
                Some((i, _)) => at + i,
                None => at + first.len(),
            };
            return Err(err(offset, kind));
        }
        for (i, c) in first.char_indices() {
            if c == '.' {
                return Err(err(at + i, ParseErrorKind::DotRegion));
            }
            names.push(&first[i..i + c.len_utf8()]);
        }
        return Ok(());
    }
    let count = tokens(content).count();
    if count != n {
        let kind = ParseErrorKind::RaggedRow {
            expected: n,
            found: count,
        };
        let offset = match tokens(content).nth(n) {
            Some(t) => offset_in(line, t),
            None => start + content.trim_end().len(),
        };
        return Err(err(offset, kind));
    }
    for t in tokens(content) {
        if t == "." {
            return Err(err(offset_in(line, t), ParseErrorKind::DotRegion));
        }
        names.push(t);
    }
    Ok(())
}

/// A header: a short line starting with a word of two or more characters, the first a
/// letter (`Grid 01`).
fn is_header(content: &str) -> bool {
    let word = content.split_whitespace().next().unwrap_or("");
    let mut chars = word.chars();
    chars.next().is_some_and(char::is_alphabetic)
        && chars.next().is_some()
        && char_len(content) <= MAX_HEADER
}

/// A puzzlekit size line `R C`: two numbers, both at least 3 (so not a row of a 2x2 grid).
fn size_line(content: &str) -> Option<(usize, usize)> {
    let mut words = content.split_whitespace();
    let (a, b) = (words.next()?, words.next()?);
    if words.next().is_some() {
        return None;
    }
    let num = |w: &str| -> Option<usize> {
        if w.len() > 9 || !w.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        w.parse().ok()
    };
    let (rows, cols) = (num(a)?, num(b)?);
    (rows >= 3 && cols >= 3).then_some((rows, cols))
}

/// Whether `text` starts with a jigsaw puzzle in the grid form: its first puzzle reads as
/// givens followed by a region layout ([`super::line::is_layout`]).
pub(super) fn looks_like_jigsaw_grid(text: &str, symbols: &Symbols) -> bool {
    let options = ReadOptions::default();
    let mut reader = Reader {
        ctx: super::text::Ctx { file: "", text },
        symbols: Symbols::new(symbols.alphabet()),
        options: &options,
        cache: GeometryCache::default(),
        out: Vec::new(),
    };
    match read(&mut reader, true, Some(1)) {
        Ok(()) => reader.out.first().is_some_and(|p| {
            let g = p.puzzle.geometry();
            is_layout(g.regions(), g.n())
        }),
        // The givens and N rows after them were read, and only the regions are wrong: a
        // jigsaw puzzle with a mistake in its layout, unless those rows hold an empty mark
        // (then they are the next puzzle of a grid file).
        Err(e) => match e.kind {
            ParseErrorKind::RegionCount { expected, .. }
            | ParseErrorKind::RegionSize { expected, .. } => {
                !rows_hold_empty_marks(text, e.line, expected)
            }
            _ => false,
        },
    }
}

/// Whether the `n` meaningful lines from line `first` (1-based) hold an empty mark: a `.`,
/// `-` or `0` token, or one of these characters in a row of contiguous symbols.
fn rows_hold_empty_marks(text: &str, first: usize, n: usize) -> bool {
    let empty = |t: &str| matches!(t, "." | "-" | "0");
    meaningful_lines(text)
        .skip_while(|&(number, _)| number < first)
        .take(n)
        .any(|(_, line)| {
            let mut toks = tokens(line);
            match (toks.next(), toks.next()) {
                (Some(row), None) => row.contains(['.', '-', '0']),
                _ => tokens(line).any(empty),
            }
        })
}
