//! The meaning of a formula as DIMACS comment lines, written before `p cnf` and read back, so
//! that a model from any solver can be decoded without the original puzzle file.
//!
//! ```text
//! c sudolab cnf
//! c encoding extended
//! c amo pairwise
//! c givens units                       (units | assumptions | eliminated)
//! c dedup false
//! c probe true                         (only when reduced probed before encoding)
//! c locked true                        (only when reduced applied locked candidates)
//! c geometry 9 box 3x3 diagonals no    (or: c geometry 9 regions diagonals yes)
//! c regions 1 1 1 2 2 ...              (jigsaw only: region of each cell, 1-based, row-major)
//! c geometry 9 combined 21x21 box 3x3 grids 0,0 0,12 6,6 12,0 12,12   (combined layouts:
//!                                      frame, box shape, each grid's top-left row,column)
//! c windows yes                        (windoku only)
//! c puzzle 4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......
//! c fixed 4.....8.5.3....       (reduced only: givens + cells placed by propagation, same form)
//! c map formula var = ((row-1)*W + col-1)*N + digit, vars 1..729  (W = frame width)
//! c map 17 1 3 5                       (explicit map: var row col digit, 1-based)
//! c primary 729                        (vars 1..=primary are (cell, digit); the rest aux)
//! c assume 5 -7 0                      (assumptions mode: the givens as assumptions)
//! c sum bdd                            (killer only: the sum encoding, crate::cnf::cages)
//! c cage 15 1 1 1 2 2 1                (killer only, one per cage: sum, then row col of
//!                                       each cell, 1-based)
//! ```
//!
//! The puzzle line uses `1-9A-Z` and `.` when `N <= 35`, else `N*N` integers (0 = empty).
//! Unknown comment lines are ignored, so other tools may add their own.

use super::amo::AmoError;
use super::formula::{CnfInfo, VarMap};
use super::options::{CnfEncoding, CnfOptions, GivensMode};
use super::unknown_value::UnknownValue;
use crate::puzzle::CageSet;
use crate::puzzle::{Geometry, Layout};
use std::fmt::Write as _;
use std::sync::Arc;

const SYMBOLS: &[u8] = b"123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/// The comment lines (without the leading `c `) that describe `info`, plus `assumptions`.
pub fn header_lines(info: &CnfInfo, assumptions: &[i32]) -> Vec<String> {
    let g = &info.geometry;
    let n = g.n();
    let o = &info.options;
    let mut out = vec![
        "sudolab cnf".to_string(),
        format!("encoding {}", o.encoding),
        format!("amo {}", o.amo),
        format!("givens {}", o.givens_str()),
        format!("dedup {}", o.dedup),
    ];
    if o.probe {
        out.push("probe true".to_string());
    }
    if o.locked {
        out.push("locked true".to_string());
    }
    let yes = |b: bool| if b { "yes" } else { "no" };
    match g.layout() {
        Layout::Boxes { rows, cols } => out.push(format!(
            "geometry {n} box {rows}x{cols} diagonals {}",
            yes(g.has_diagonals())
        )),
        Layout::Regions(r) => {
            out.push(format!(
                "geometry {n} regions diagonals {}",
                yes(g.has_diagonals())
            ));
            let mut line = String::from("regions");
            for &x in r {
                let _ = write!(line, " {}", x + 1);
            }
            out.push(line);
        }
        Layout::Combined {
            rows,
            cols,
            height,
            width,
            grids,
        } => {
            let mut line =
                format!("geometry {n} combined {height}x{width} box {rows}x{cols} grids");
            for (t, l) in grids {
                let _ = write!(line, " {t},{l}");
            }
            out.push(line);
        }
    }
    if g.has_windows() {
        out.push("windows yes".to_string());
    }
    out.push(grid_line("puzzle", &info.givens, n));
    if info.fixed != info.givens {
        out.push(grid_line("fixed", &info.fixed, n));
    }
    match &info.map {
        VarMap::Formula { n, .. } => out.push(format!(
            "map formula var = ((row-1)*W + col-1)*N + digit, vars 1..{} (W = {})",
            g.cells() * n,
            g.width()
        )),
        VarMap::Explicit { pairs, .. } => {
            for (i, &(cell, d)) in pairs.iter().enumerate() {
                out.push(format!(
                    "map {} {} {} {}",
                    i + 1,
                    g.row_of(cell as usize) + 1,
                    g.col_of(cell as usize) + 1,
                    d
                ));
            }
        }
    }
    out.push(format!("primary {}", info.map.primary()));
    if !assumptions.is_empty() {
        let mut line = String::from("assume");
        for l in assumptions {
            let _ = write!(line, " {l}");
        }
        line.push_str(" 0");
        out.push(line);
    }
    if let Some(cages) = &info.cages {
        out.push(format!("sum {}", o.sum));
        for cage in cages.cages() {
            let mut line = format!("cage {}", cage.sum());
            for &c in cage.cells() {
                let _ = write!(line, " {} {}", c as usize / n + 1, c as usize % n + 1);
            }
            out.push(line);
        }
    }
    out
}

/// `key` and a grid in the puzzle line's form.
fn grid_line(key: &str, grid: &[u16], n: usize) -> String {
    let mut line = format!("{key} ");
    if n <= SYMBOLS.len() {
        line.extend(grid.iter().map(|&d| {
            if d == 0 {
                '.'
            } else {
                SYMBOLS[d as usize - 1] as char
            }
        }));
    } else {
        for (i, d) in grid.iter().enumerate() {
            if i > 0 {
                line.push(' ');
            }
            let _ = write!(line, "{d}");
        }
    }
    line
}

/// What the header comments of a DIMACS file say.
#[derive(Clone, Debug)]
pub struct Header {
    pub info: CnfInfo,
    pub assumptions: Vec<i32>,
}

/// Why header comments do not give a formula its meaning: the comment line at fault (1-based,
/// in the DIMACS file), or none when a needed comment is missing or the comments disagree as
/// a whole; and what is wrong, as a sentence without the position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}{message}", line.map(|l| format!("line {l}: ")).unwrap_or_default())]
pub struct HeaderError {
    pub line: Option<usize>,
    pub message: String,
}

impl HeaderError {
    fn at(line: usize, message: impl Into<String>) -> Self {
        HeaderError {
            line: Some(line),
            message: message.into(),
        }
    }
}

/// A missing comment, or a fault of the comments as a whole: no line to name.
impl From<&str> for HeaderError {
    fn from(message: &str) -> Self {
        HeaderError {
            line: None,
            message: message.to_string(),
        }
    }
}

/// Rebuilds the meaning of a formula from its comment lines (each without the leading `c`,
/// as [`super::Dimacs::comments`] holds them, paired with their line numbers).
pub fn parse_header(comments: &[(usize, String)]) -> Result<Header, HeaderError> {
    let mut encoding = None;
    let mut opts = CnfOptions::default();
    // (N, box shape or None for regions, diagonals)
    type Shape = (usize, Option<(usize, usize)>, bool);
    // combined layouts: (height, width, grids)
    type Frame = (usize, usize, Vec<(usize, usize)>);
    let mut combined: Option<Frame> = None;
    let mut windows = false;
    let mut geometry: Option<Shape> = None;
    let mut regions: Option<Vec<u16>> = None;
    let mut puzzle_text: Option<(usize, String)> = None;
    let mut fixed_text: Option<(usize, String)> = None;
    let mut formula_map = false;
    let mut pairs: Vec<(usize, u32, u32, u32, u32)> = Vec::new();
    let mut assumptions = Vec::new();
    let mut primary: Option<(usize, u32)> = None;
    let mut seen_magic = false;
    let mut cages: Vec<(usize, Vec<u32>, u32)> = Vec::new();
    for (line, text) in comments {
        let err = |m: String| HeaderError::at(*line, m);
        let mut words = text.split_whitespace();
        let Some(key) = words.next() else { continue };
        let rest: Vec<&str> = words.collect();
        let num = |s: &str| {
            s.parse::<u32>()
                .map_err(|_| err(format!("{s:?} is not a number")))
        };
        match key {
            "sudolab" => seen_magic = true,
            "encoding" if !rest.is_empty() => {
                encoding = Some(
                    rest[0]
                        .parse::<CnfEncoding>()
                        .map_err(|e| err(e.to_string()))?,
                )
            }
            "amo" if !rest.is_empty() => {
                opts.amo = rest[0].parse().map_err(|e: AmoError| err(e.to_string()))?
            }
            "givens" if !rest.is_empty() => match rest[0] {
                "eliminated" | "propagated" => {}
                m => opts.givens = m.parse::<GivensMode>().map_err(|e| err(e.to_string()))?,
            },
            "dedup" if !rest.is_empty() => {
                opts.dedup = rest[0]
                    .parse()
                    .map_err(|_| err(format!("dedup {:?} is not true/false", rest[0])))?
            }
            "probe" if !rest.is_empty() => {
                opts.probe = rest[0]
                    .parse()
                    .map_err(|_| err(format!("probe {:?} is not true/false", rest[0])))?
            }
            "locked" if !rest.is_empty() => {
                opts.locked = rest[0]
                    .parse()
                    .map_err(|_| err(format!("locked {:?} is not true/false", rest[0])))?
            }
            "geometry" => {
                let n = num(rest.first().copied().unwrap_or(""))? as usize;
                let diag = rest
                    .windows(2)
                    .any(|w| w[0] == "diagonals" && w[1] == "yes");
                let shape = match rest.get(1).copied() {
                    Some("box") => {
                        let s = rest.get(2).copied().unwrap_or("");
                        let (r, c) = s
                            .split_once('x')
                            .ok_or_else(|| err(format!("box shape {s:?} is not RxC")))?;
                        Some((num(r)? as usize, num(c)? as usize))
                    }
                    Some("regions") => None,
                    Some("combined") => {
                        let pair = |s: &str, sep: char| -> Result<(usize, usize), HeaderError> {
                            let (a, b) = s
                                .split_once(sep)
                                .ok_or_else(|| err(format!("{s:?} is not a{sep}b")))?;
                            Ok((num(a)? as usize, num(b)? as usize))
                        };
                        let (h, w) = pair(rest.get(2).copied().unwrap_or(""), 'x')?;
                        if rest.get(3) != Some(&"box") || rest.get(5) != Some(&"grids") {
                            return Err(err(
                                "combined geometry needs: N combined HxW box RxC grids t,l ..."
                                    .into(),
                            ));
                        }
                        let shape = pair(rest[4], 'x')?;
                        let grids = rest[6..]
                            .iter()
                            .map(|s| pair(s, ','))
                            .collect::<Result<Vec<_>, _>>()?;
                        combined = Some((h, w, grids));
                        Some(shape)
                    }
                    other => return Err(err(format!("unknown layout {other:?}"))),
                };
                geometry = Some((n, shape, diag));
            }
            "regions" => {
                let r: Result<Vec<u16>, HeaderError> = rest
                    .iter()
                    .map(|s| match num(s)? {
                        0 => Err(err("region numbers are 1-based".into())),
                        x if x > u32::from(u16::MAX) => Err(err(format!(
                            "region number {x} is above any side the model accepts"
                        ))),
                        x => Ok((x - 1) as u16),
                    })
                    .collect();
                regions = Some(r?);
            }
            "windows" => windows = rest.first() == Some(&"yes"),
            "puzzle" => puzzle_text = Some((*line, rest.join(" "))),
            "fixed" => fixed_text = Some((*line, rest.join(" "))),
            "map" if rest.first() == Some(&"formula") => formula_map = true,
            "map" => {
                if rest.len() != 4 {
                    return Err(err("map line needs: var row col digit".into()));
                }
                pairs.push((
                    *line,
                    num(rest[0])?,
                    num(rest[1])?,
                    num(rest[2])?,
                    num(rest[3])?,
                ));
            }
            "sum" if !rest.is_empty() => {
                opts.sum = rest[0]
                    .parse()
                    .map_err(|e: UnknownValue| err(e.to_string()))?
            }
            "cage" => {
                if rest.len() < 3 || rest.len() % 2 == 0 {
                    return Err(err("cage line needs: sum, then row col of each cell".into()));
                }
                let sum = num(rest[0])?;
                let rc: Vec<u32> = rest[1..].iter().map(|s| num(s)).collect::<Result<_, _>>()?;
                cages.push((*line, rc, sum));
            }
            "primary" if !rest.is_empty() => primary = Some((*line, num(rest[0])?)),
            "assume" => {
                for s in rest {
                    let l: i32 = s
                        .parse()
                        .map_err(|_| err(format!("{s:?} is not a literal")))?;
                    if l != 0 {
                        assumptions.push(l);
                    }
                }
            }
            _ => {}
        }
    }
    if !seen_magic {
        return Err("no `c sudolab cnf` comment: not a formula written by sudolab".into());
    }
    opts.encoding = encoding.ok_or("no `c encoding` comment")?;
    let (n, shape, diag) = geometry.ok_or("no `c geometry` comment")?;
    let geometry_error = |e: crate::puzzle::GeometryError| HeaderError {
        line: None,
        message: format!("geometry: {e}"),
    };
    let geometry = match (shape, combined) {
        (Some((r, c)), Some((h, w, grids))) => Geometry::combined(r, c, h, w, grids),
        (Some((r, c)), None) => Geometry::boxed(n, r, c),
        (None, _) => Geometry::jigsaw(n, regions.ok_or("jigsaw geometry without `c regions`")?),
    }
    .map_err(geometry_error)?
    .with_diagonals(diag)
    .with_windows(windows)
    .map_err(geometry_error)?;
    let cells = geometry.cells();
    let (pline, ptext) = puzzle_text.ok_or("no `c puzzle` comment")?;
    let givens = parse_givens(n, cells, &ptext).map_err(|m| HeaderError::at(pline, m))?;
    let fixed = match fixed_text {
        None => givens.clone(),
        Some((fline, ftext)) => {
            let fixed = parse_givens(n, cells, &ftext).map_err(|m| HeaderError::at(fline, m))?;
            if givens.iter().zip(&fixed).any(|(&g, &f)| g != 0 && g != f) {
                return Err(HeaderError::at(
                    fline,
                    "the fixed cells disagree with the puzzle's givens",
                ));
            }
            fixed
        }
    };
    let map = if formula_map {
        VarMap::Formula { n, cells }
    } else {
        let mut out = vec![(0u32, 0u16); pairs.len()];
        let mut seen = vec![false; pairs.len()];
        for &(line, v, r, c, d) in &pairs {
            let (v, r, c, d) = (v as usize, r as usize, c as usize, d as usize);
            if v == 0 || v > pairs.len() || seen[v - 1] {
                return Err(HeaderError::at(
                    line,
                    format!("map variables must be 1..{} each once", pairs.len()),
                ));
            }
            let (h, w) = (geometry.height(), geometry.width());
            if !(1..=h).contains(&r) || !(1..=w).contains(&c) || !(1..=n).contains(&d) {
                return Err(HeaderError::at(
                    line,
                    format!("row, column and digit must be in 1..={h}, 1..={w}, 1..={n}"),
                ));
            }
            seen[v - 1] = true;
            out[v - 1] = (((r - 1) * w + c - 1) as u32, d as u16);
        }
        VarMap::explicit(n, cells, out)
    };
    if let Some((line, p)) = primary {
        if p != map.primary() {
            return Err(HeaderError::at(
                line,
                format!(
                    "`c primary {p}` but the map covers {} variables",
                    map.primary()
                ),
            ));
        }
    }
    let cages = if cages.is_empty() {
        None
    } else {
        let first = cages[0].0;
        let mut list = Vec::with_capacity(cages.len());
        for (line, rc, sum) in cages {
            let mut cells = Vec::with_capacity(rc.len() / 2);
            for p in rc.chunks(2) {
                let (r, c) = (p[0] as usize, p[1] as usize);
                if !(1..=n).contains(&r) || !(1..=n).contains(&c) {
                    return Err(HeaderError::at(
                        line,
                        format!("cage cell row and column must be 1..={n}"),
                    ));
                }
                cells.push(((r - 1) * n + c - 1) as u32);
            }
            list.push((cells, sum));
        }
        let set =
            CageSet::new(n, list).map_err(|e| HeaderError::at(first, format!("cages: {e}")))?;
        Some(Arc::new(set))
    };
    Ok(Header {
        info: CnfInfo {
            geometry: Arc::new(geometry),
            givens,
            fixed,
            cages,
            options: opts,
            map,
        },
        assumptions,
    })
}

fn parse_givens(n: usize, cells: usize, text: &str) -> Result<Vec<u16>, String> {
    let out: Vec<u16> = if n <= SYMBOLS.len() {
        let t: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        t.chars()
            .map(|ch| {
                if ch == '.' || ch == '0' {
                    return Ok(0);
                }
                let up = ch.to_ascii_uppercase();
                SYMBOLS[..n]
                    .iter()
                    .position(|&s| up.is_ascii() && s == up as u8)
                    .map(|i| i as u16 + 1)
                    .ok_or_else(|| format!("puzzle symbol {ch:?} is not a digit of a {n}x{n} grid"))
            })
            .collect::<Result<_, _>>()?
    } else {
        text.split_whitespace()
            .map(|s| match s.parse::<u16>() {
                Ok(d) if d as usize <= n => Ok(d),
                _ => Err(format!("puzzle entry {s:?} is not 0..={n}")),
            })
            .collect::<Result<_, _>>()?
    };
    if out.len() != cells {
        return Err(format!("puzzle has {} cells, expected {cells}", out.len()));
    }
    Ok(out)
}
