//! The killer text format (`killer`), this tool's own: a header line naming the variant and
//! the side, then keyword sections for the givens, the regions (jigsaw), the cage layout and
//! the cage sums. Every section but the header is introduced by its keyword on a line of its
//! own, so each line's role is known without counting, and new sections or header keywords
//! can be added without changing how the present ones read.
//!
//! ```text
//! killer 4 box=2x2
//! givens
//! 0000
//! 0000
//! 0000
//! 0000
//! cages
//! 1 1 2 3
//! 1 4 2 3
//! 5 4 2 6
//! 5 4 6 6
//! sums
//! 1=9 2=8 3=3 4=7 5=4 6=9
//! ```
//!
//! - **Header** `killer N [box=RxC] [regions] [diagonals] [windoku]`: the side `N`, the box
//!   shape (default the most square one for `N`), `regions` for a jigsaw layout instead of
//!   boxes (then no `box=`), `diagonals` for the two diagonal houses, `windoku` for the
//!   windows ([`crate::puzzle::Geometry::with_windows`]). Keywords may come in any
//!   order, each at most once; an unknown keyword is an error at its column.
//! - **`givens`** (optional: no section means no givens): `N` rows as in the grid format, a
//!   row being `N` tokens (numbers, `.`/`-`/`0` for empty, or symbols of the alphabet) or one
//!   string of `N` symbols.
//! - **`regions`** (exactly when the header says `regions`): `N` rows of `N` region tokens,
//!   `N` regions of `N` cells, as in the jigsaw grid form.
//! - **`cages`** (optional: none for a puzzle without cages): `N` rows of `N` whitespace
//!   separated cage ids, any tokens without `=`; equal ids form one cage; `.` marks a cell
//!   in no cage (killer puzzles as published cage every cell).
//! - **`sums`** (exactly when there are cages): `id=sum` pairs separated by whitespace, on
//!   as many lines as needed, one for every cage id and no other. The cages of the puzzle are
//!   in the order of this list.
//!
//! A file holds any number of puzzles, each starting with its header; blank lines and `#`
//! comment lines may appear anywhere. Cages are checked as for every reader
//! ([`crate::puzzle::CageSet::new`]: connected, no more than `N` cells, reachable sums); a
//! bad cage is reported at the line of its id in `sums`.
//!
//! **Combined layouts** (samurai, butterfly, sohei, windmill...): the header keywords
//! `frame=HxW grids=R,C/R,C/...` place boxed `N x N` grids (box shape `box=RxC` or the
//! default for `N`) with their top-left cells at row `R`, column `C` (0-based) of an `H x W`
//! frame; `samurai` stands for `frame=21x21 grids=0,0/0,12/6,6/12,0/12,12`. The `givens`
//! section then has `H` rows of `W` cells, `-` or `.` for an empty cell and `-` for a void
//! one (a cell of no grid); a digit in a void cell is an error at its row. Combined layouts
//! take givens only: no regions, diagonals or cages.
//!
//! What the format does not take: other constraints than houses and cages.

use super::grid::parse_row;
use super::text::{classify, lines, offset_in, LineKind, RegionNames};
use super::{Alphabet, Layout, OutputFormat, ParseError, ParseErrorKind, Reader};
use crate::puzzle::{write_grid, Puzzle, MAX_SIDE};
use std::collections::HashMap;
use std::fmt::Write as _;

/// The cage id of a cell in no cage.
const NO_CAGE: &str = ".";

/// The word opening every puzzle of the format.
pub(super) const KEYWORD: &str = "killer";

/// Whether `first` (the first meaningful line) is a header of this format: `killer` then a
/// number.
pub(super) fn looks_like_killer(first: &str) -> bool {
    let mut words = first.split_whitespace();
    words.next() == Some(KEYWORD)
        && words
            .next()
            .is_some_and(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit()))
}

/// The meaningful lines of the text: (number, line, offset of its content).
type Lines<'a> = std::iter::Peekable<Box<dyn Iterator<Item = (usize, &'a str, usize)> + 'a>>;

fn syntax(expected: &str, found: &str) -> ParseErrorKind {
    ParseErrorKind::Killer {
        expected: expected.to_string(),
        found: found.to_string(),
    }
}

/// Reads every puzzle of the text.
pub(super) fn read(r: &mut Reader) -> Result<(), ParseError> {
    let text = r.ctx.text;
    let it: Box<dyn Iterator<Item = (usize, &str, usize)>> = Box::new(lines(text).filter_map(
        |(number, line)| match classify(line) {
            LineKind::Content(at) => Some((number, line, at)),
            _ => None,
        },
    ));
    let mut lines: Lines = it.peekable();
    while let Some((number, line, at)) = lines.next() {
        read_one(r, &mut lines, number, line, at)?;
    }
    Ok(())
}

/// Whether a line's content is the keyword `word` alone.
fn is_section(line: &str, at: usize, word: &str) -> bool {
    line[at..].trim_end() == word
}

fn read_one<'a>(
    r: &mut Reader,
    lines: &mut Lines<'a>,
    number: usize,
    line: &'a str,
    at: usize,
) -> Result<(), ParseError> {
    let ctx = &r.ctx;
    let err = |n: usize, l: &str, offset: usize, kind| ctx.error_at(n, l, offset, kind);
    // Header.
    let mut words = line[at..].split_whitespace();
    let first = words.next().unwrap_or("");
    if first != KEYWORD {
        return Err(err(
            number,
            line,
            at,
            syntax("a header `killer N ...`", &format!("`{first}`")),
        ));
    }
    let Some(side) = words.next() else {
        let end = line.trim_end().len();
        return Err(err(
            number,
            line,
            end,
            syntax("the side N", "the end of the line"),
        ));
    };
    let n: usize = match side.parse() {
        Ok(n) if (1..=MAX_SIDE).contains(&n) => n,
        Ok(0) => {
            return Err(err(
                number,
                line,
                offset_in(line, side),
                syntax("the side N (1 or more)", "`0`"),
            ))
        }
        Ok(n) => {
            return Err(err(
                number,
                line,
                offset_in(line, side),
                ParseErrorKind::SideTooLarge { side: n },
            ))
        }
        Err(_) => {
            return Err(err(
                number,
                line,
                offset_in(line, side),
                syntax("the side N (a number)", &format!("`{side}`")),
            ))
        }
    };
    let (mut boxes, mut regions, mut diagonals, mut windoku) = (None, false, false, false);
    // A combined layout: the frame `(height, width)` and the grids' corners.
    let mut frame: Option<(usize, usize)> = None;
    let mut grids: Option<Vec<(usize, usize)>> = None;
    for w in words {
        let here = offset_in(line, w);
        let twice = |seen: bool| -> Result<(), ParseError> {
            if seen {
                return Err(err(
                    number,
                    line,
                    here,
                    syntax("each keyword once", &format!("`{w}` again")),
                ));
            }
            Ok(())
        };
        if let Some(shape) = w.strip_prefix("box=") {
            twice(boxes.is_some())?;
            let (rows, cols) = crate::puzzle::parse_box(shape).map_err(|e| {
                err(
                    number,
                    line,
                    here,
                    syntax("box=RxC", &format!("`{w}` ({e})")),
                )
            })?;
            if rows * cols != n {
                return Err(err(
                    number,
                    line,
                    here,
                    ParseErrorKind::BoxShape {
                        rows,
                        cols,
                        side: n,
                    },
                ));
            }
            boxes = Some((rows, cols));
        } else if w == "regions" {
            twice(regions)?;
            regions = true;
        } else if w == "diagonals" {
            twice(diagonals)?;
            diagonals = true;
        } else if w == "windoku" {
            twice(windoku)?;
            windoku = true;
        } else if w == "samurai" {
            twice(frame.is_some())?;
            frame = Some((21, 21));
            grids = Some(crate::puzzle::SAMURAI_GRIDS.to_vec());
        } else if let Some(f) = w.strip_prefix("frame=") {
            twice(frame.is_some())?;
            let bad = || err(number, line, here, syntax("frame=HxW", &format!("`{w}`")));
            let (h, wd) = crate::puzzle::parse_box(f).map_err(|_| bad())?;
            frame = Some((h, wd));
        } else if let Some(list) = w.strip_prefix("grids=") {
            twice(grids.is_some())?;
            let corner = |c: &str| -> Option<(usize, usize)> {
                let (t, l) = c.split_once(',')?;
                Some((t.parse().ok()?, l.parse().ok()?))
            };
            let corners: Option<Vec<(usize, usize)>> = list.split('/').map(corner).collect();
            grids = Some(corners.ok_or_else(|| {
                err(
                    number,
                    line,
                    here,
                    syntax("grids=ROW,COL/ROW,COL/...", &format!("`{w}`")),
                )
            })?);
        } else {
            return Err(err(
                number,
                line,
                here,
                syntax(
                    "a keyword box=RxC, regions, diagonals, windoku, samurai, frame=HxW or grids=...",
                    &format!("`{w}`"),
                ),
            ));
        }
    }
    if frame.is_some() != grids.is_some() {
        return Err(err(
            number,
            line,
            at,
            syntax(
                "frame=HxW and grids=... together (or samurai)",
                "one of them",
            ),
        ));
    }
    if frame.is_some() && (regions || diagonals || r.options.diagonals || windoku) {
        return Err(err(
            number,
            line,
            at,
            syntax(
                "a combined layout of boxed grids",
                "regions, diagonals or windows with it (combined layouts take none)",
            ),
        ));
    }
    // Rows and columns of the grids written: the frame's for a combined layout.
    let (height, width) = frame.unwrap_or((n, n));
    if regions && boxes.is_some() {
        return Err(err(
            number,
            line,
            at,
            syntax("box=RxC or regions, not both", "both"),
        ));
    }
    // The end of the puzzle: the next header or the end of the input.
    let end_err = |lines: &mut Lines, expected: String| -> ParseError {
        match lines.peek() {
            Some(&(n2, l2, a2)) => err(
                n2,
                l2,
                a2,
                syntax(&expected, &format!("`{}`", l2[a2..].trim_end())),
            ),
            None => ctx.error_at_end(syntax(&expected, "the end of the input")),
        }
    };
    // N rows after a section keyword, each handed to `row`.
    let rows = |lines: &mut Lines<'a>,
                what: &str,
                row: &mut dyn FnMut(usize, &'a str, usize) -> Result<(), ParseError>|
     -> Result<(), ParseError> {
        for i in 0..height {
            match lines.peek() {
                Some(&(n2, l2, a2)) if !looks_like_killer(&l2[a2..]) && !is_keyword(&l2[a2..]) => {
                    lines.next();
                    row(n2, l2, a2)?;
                }
                _ => {
                    return Err(end_err(lines, format!("{what} row {} of {height}", i + 1)));
                }
            }
        }
        Ok(())
    };
    let mut givens = Vec::with_capacity(height * width);
    // The line of each row of givens, for the void check of a combined layout.
    let mut given_rows: Vec<(usize, &'a str, usize)> = Vec::new();
    if let Some(&(_, l, a)) = lines.peek() {
        if is_section(l, a, "givens") {
            lines.next();
            rows(lines, "givens", &mut |n2, l2, a2| {
                given_rows.push((n2, l2, a2));
                if frame.is_some() {
                    // `-` marks a void cell inside a row string too (one byte for one).
                    let row = l2.replace('-', ".");
                    return parse_row(r, n2, &row, a2, Some(width), &mut givens).map(|_| ());
                }
                parse_row(r, n2, l2, a2, Some(width), &mut givens).map(|_| ())
            })?;
        }
    }
    if givens.is_empty() {
        givens = vec![0; height * width];
    }
    let layout = if let (Some((h, w)), Some(corners)) = (frame, grids) {
        let (rows, cols) = match boxes {
            Some(b) => b,
            None => r.box_shape(n).map_err(|kind| err(number, line, at, kind))?,
        };
        let g = crate::puzzle::Geometry::combined(rows, cols, h, w, corners)
            .map_err(|e| err(number, line, at, ParseErrorKind::Geometry(e)))?;
        if let Some(cell) = (0..g.cells()).find(|&c| g.is_void(c) && givens[c] != 0) {
            let (n2, l2, a2) = given_rows[cell / w];
            return Err(err(
                n2,
                l2,
                a2,
                syntax(
                    "`-` or `.` in a void cell (outside every grid)",
                    &format!("digit {} in column {}", givens[cell], cell % w + 1),
                ),
            ));
        }
        if let Some(&(n2, l2, a2)) = lines.peek() {
            if is_section(l2, a2, "cages") || is_section(l2, a2, "regions") {
                return Err(err(
                    n2,
                    l2,
                    a2,
                    syntax(
                        "the next puzzle (a combined layout takes givens only)",
                        &format!("`{}`", l2[a2..].trim_end()),
                    ),
                ));
            }
        }
        Layout::Combined(Box::new(g))
    } else if regions {
        match lines.peek() {
            Some(&(_, l, a)) if is_section(l, a, "regions") => {
                lines.next();
            }
            _ => {
                return Err(end_err(
                    lines,
                    "the section `regions` (the header says regions)".into(),
                ))
            }
        }
        let mut names = RegionNames::with_capacity(n * n);
        let mut first_at = None;
        rows(lines, "regions", &mut |n2, l2, a2| {
            first_at.get_or_insert((n2, l2, a2));
            tokens_row(ctx, n, n2, l2, a2, &mut |t| names.push(t))
        })?;
        let ids = names.finish(n).map_err(|kind| {
            let (n2, l2, a2) = first_at.expect("n rows read");
            err(n2, l2, a2, kind)
        })?;
        Layout::Regions(ids)
    } else {
        let (rows, cols) = match boxes {
            Some(b) => b,
            None => r.box_shape(n).map_err(|kind| err(number, line, at, kind))?,
        };
        Layout::Boxes(rows, cols)
    };
    // Cages and sums.
    let mut cages: Vec<(Vec<u32>, u32)> = Vec::new();
    if let Some(&(_, l, a)) = lines.peek() {
        if is_section(l, a, "cages") {
            lines.next();
            let mut ids: Vec<&'a str> = Vec::with_capacity(n * n);
            let mut where_: Vec<(usize, &'a str, usize)> = Vec::with_capacity(n * n);
            rows(lines, "cages", &mut |n2, l2, a2| {
                tokens_row(ctx, n, n2, l2, a2, &mut |t| {
                    ids.push(t);
                    where_.push((n2, l2, offset_in(l2, t)));
                })?;
                for &(n3, l3, o3) in &where_[where_.len() - n..] {
                    if l3[o3..]
                        .split_whitespace()
                        .next()
                        .is_some_and(|t| t.contains('='))
                    {
                        return Err(err(
                            n3,
                            l3,
                            o3,
                            syntax(
                                "a cage id (without `=`)",
                                &format!("`{}`", l3[o3..].split_whitespace().next().unwrap_or("")),
                            ),
                        ));
                    }
                }
                Ok(())
            })?;
            match lines.peek() {
                Some(&(_, l, a)) if is_section(l, a, "sums") => {
                    lines.next();
                }
                _ => return Err(end_err(lines, "the section `sums` after the cages".into())),
            }
            // id -> (cells, first cell)
            let mut cells_of: HashMap<&str, Vec<u32>> = HashMap::new();
            for (cell, &id) in ids.iter().enumerate() {
                if id == NO_CAGE {
                    continue;
                }
                cells_of.entry(id).or_default().push(cell as u32);
            }
            let mut listed: HashMap<&str, usize> = HashMap::new();
            let mut sum_at: Vec<(usize, &'a str, usize)> = Vec::new();
            while let Some(&(n2, l2, a2)) = lines.peek() {
                if looks_like_killer(&l2[a2..]) {
                    break;
                }
                lines.next();
                for t in l2[a2..].split_whitespace() {
                    let o = offset_in(l2, t);
                    let Some((id, sum)) = t.split_once('=') else {
                        return Err(err(n2, l2, o, syntax("id=sum", &format!("`{t}`"))));
                    };
                    let Ok(sum) = sum.parse::<u32>() else {
                        return Err(err(
                            n2,
                            l2,
                            o + id.len() + 1,
                            syntax(
                                "a sum (a whole number from 0 to 4294967295)",
                                &format!("`{sum}`"),
                            ),
                        ));
                    };
                    let Some(cells) = cells_of.get(id) else {
                        return Err(err(
                            n2,
                            l2,
                            o,
                            syntax(
                                "the id of a cage of the layout",
                                &format!("`{id}`, which no cell holds"),
                            ),
                        ));
                    };
                    if listed.insert(id, cages.len()).is_some() {
                        return Err(err(
                            n2,
                            l2,
                            o,
                            syntax("one sum per cage", &format!("a second sum for `{id}`")),
                        ));
                    }
                    cages.push((cells.clone(), sum));
                    sum_at.push((n2, l2, o));
                }
            }
            // Every id has its sum.
            if let Some((cell, id)) = ids
                .iter()
                .enumerate()
                .find(|(_, id)| **id != NO_CAGE && !listed.contains_key(*id))
            {
                let (n3, l3, o3) = where_[cell];
                return Err(err(
                    n3,
                    l3,
                    o3,
                    syntax("a sum for every cage", &format!("none for `{id}`")),
                ));
            }
            let set = crate::puzzle::CageSet::new(n, cages.clone());
            if let Err(e) = set {
                let k = cage_index(&e).min(sum_at.len().saturating_sub(1));
                let (n3, l3, o3) = sum_at[k];
                return Err(err(n3, l3, o3, ParseErrorKind::Cage(e)));
            }
        }
    }
    let form = OutputFormat::Killer;
    let before = r.out.len();
    let houses = (
        diagonals || r.options.diagonals,
        windoku || r.options.windoku,
    );
    if let Err(kind) = r.push_with(n, layout, givens, number, None, form, houses) {
        return Err(r.ctx.error_at(number, line, at, kind));
    }
    if !cages.is_empty() {
        let p = r.out[before].puzzle.clone();
        match p.with_cages(cages) {
            Ok(p) => r.out[before].puzzle = p,
            Err(e) => return Err(r.ctx.error_at(number, line, at, ParseErrorKind::Cage(e))),
        }
    }
    Ok(())
}

/// The 0-based cage a cage error names.
fn cage_index(e: &crate::puzzle::CageError) -> usize {
    use crate::puzzle::CageError::*;
    let cage = match e {
        Empty { cage } | OutsideGrid { cage, .. } | Disconnected { cage, .. } => *cage,
        TooManyCells { cage, .. } | UnreachableSum { cage, .. } => *cage,
        Overlap { second, .. } => *second,
    };
    cage.saturating_sub(1)
}

/// Whether a line's content is a section keyword.
fn is_keyword(content: &str) -> bool {
    matches!(content.trim_end(), "givens" | "regions" | "cages" | "sums")
}

/// A row of exactly `n` whitespace-separated tokens, each handed to `each`.
fn tokens_row<'a>(
    ctx: &super::text::Ctx<'_>,
    n: usize,
    number: usize,
    line: &'a str,
    at: usize,
    each: &mut dyn FnMut(&'a str),
) -> Result<(), ParseError> {
    let toks: Vec<&str> = line[at..].split_whitespace().collect();
    if toks.len() != n {
        let offset = toks
            .get(n)
            .map_or(line.trim_end().len(), |t| offset_in(line, t));
        return Err(ctx.error_at(
            number,
            line,
            offset,
            ParseErrorKind::RaggedRow {
                expected: n,
                found: toks.len(),
            },
        ));
    }
    for t in toks {
        each(t);
    }
    Ok(())
}

/// Writes a puzzle in the killer text format (see the module doc), without a final newline:
/// the header, the givens (as [`write_grid`]'s grid form, left out when there are none), the
/// regions of a jigsaw, and the cages numbered `1, 2, ...` in the puzzle's order with their
/// sums. Reading it back with the same alphabet gives the same puzzle.
pub fn write_killer(puzzle: &Puzzle, alphabet: Option<&Alphabet>) -> String {
    write_killer_grid(puzzle, puzzle.givens(), alphabet)
}

/// Writes `grid` (givens or a solution) with the geometry and cages of `puzzle`, as
/// [`write_killer`] writes the puzzle's givens: a solution written so reads back as a solved
/// puzzle with the same cages.
pub fn write_killer_grid(puzzle: &Puzzle, grid: &[u16], alphabet: Option<&Alphabet>) -> String {
    let g = puzzle.geometry();
    let n = g.n();
    let mut s = format!("{KEYWORD} {n}");
    match (g.box_shape(), g.layout()) {
        (Some((r, c)), _) => {
            let _ = write!(s, " box={r}x{c}");
        }
        (
            None,
            crate::puzzle::Layout::Combined {
                rows, cols, grids, ..
            },
        ) => {
            let _ = write!(s, " box={rows}x{cols}");
            if g.is_samurai() {
                s.push_str(" samurai");
            } else {
                let corners: Vec<String> = grids.iter().map(|(t, l)| format!("{t},{l}")).collect();
                let _ = write!(
                    s,
                    " frame={}x{} grids={}",
                    g.height(),
                    g.width(),
                    corners.join("/")
                );
            }
        }
        (None, _) => s.push_str(" regions"),
    }
    if g.has_diagonals() {
        s.push_str(" diagonals");
    }
    if g.has_windows() {
        s.push_str(" windoku");
    }
    if grid.iter().any(|&d| d != 0) {
        s.push_str("\ngivens\n");
        s.push_str(&write_grid(grid, g, OutputFormat::Grid, alphabet));
    }
    if g.is_jigsaw() {
        s.push_str("\nregions\n");
        let regions: Vec<u32> = g.regions().iter().map(|&r| u32::from(r) + 1).collect();
        s.push_str(&id_rows(&regions, n));
    }
    if let Some(set) = puzzle.cage_set() {
        let ids: Vec<u32> = (0..n * n)
            .map(|c| set.cage_of(c).map_or(0, |k| k as u32 + 1))
            .collect();
        s.push_str("\ncages\n");
        s.push_str(&id_rows(&ids, n));
        s.push_str("\nsums");
        for (k, cage) in set.cages().iter().enumerate() {
            s.push(if k % 12 == 0 { '\n' } else { ' ' });
            let _ = write!(s, "{}={}", k + 1, cage.sum());
        }
    }
    s
}

/// Rows of right-aligned numbers, `.` for `0` (a cell in no cage).
fn id_rows(ids: &[u32], n: usize) -> String {
    let width = ids.iter().max().copied().unwrap_or(0).to_string().len();
    let mut s = String::new();
    for (i, row) in ids.chunks(n).enumerate() {
        if i > 0 {
            s.push('\n');
        }
        for (j, id) in row.iter().enumerate() {
            if j > 0 {
                s.push(' ');
            }
            if *id == 0 {
                let _ = write!(s, "{NO_CAGE:>width$}");
            } else {
                let _ = write!(s, "{id:>width$}");
            }
        }
    }
    s
}
