//! puzzlekit JSON (the SmilingWayne/puzzlekit-dataset files, janko.at puzzles): an object
//! with a `name` naming the puzzle type and a `data` object mapping each puzzle's id to its
//! `problem` text (and its published `solution`, `source` and `info`, which are not read).
//!
//! `KillerSudoku` problems are read: a line `R C` (the side twice), `R` rows of `R` tokens
//! holding the sum of each cage in one of its cells (`-` elsewhere), then `R` rows of cage
//! ids (the cells of one id form one cage). The houses are the default boxes of the side
//! (2x2, 2x3, 3x3, ...). There are no givens. A cage that is disconnected, overlaps another,
//! carries no sum or two sums, or has a sum its cells cannot reach is bad input, reported at
//! the puzzle's id in the file.
//!
//! The files do not say whether a killer also has the diagonal houses (janko.at's killer-X
//! puzzles sit among the others); `--diagonals` ([`super::ReadOptions::diagonals`]) adds them
//! to every puzzle of the file.
//!
//! `SamuraiSudoku` problems are read: a line `21 21`, then 21 rows of 21 tokens, a digit for a
//! given and `-` for an empty cell or a cell outside the five grids ([`Geometry::samurai`]:
//! the void cells). A digit in a void cell is bad input. `--diagonals` does not apply to
//! samurai and is refused.
//!
//! Other puzzle types are refused by name.
//!
//! [`write_puzzlekit`] writes samurai puzzles as `SamuraiSudoku` (the frame's rows, `-` for
//! an empty or void cell) and killer puzzles back in the same shape (`name`, `count`,
//! `count_sol`, `data` of id -> `problem`, `solution`, `source`, `info`), each cage's sum in
//! its first cell (row-major) and cage ids `1, 2, ...` in the puzzle's order, as janko.at's
//! files do. A puzzle the format cannot hold is refused ([`WriteError`]): one without cages,
//! one with givens, a jigsaw. The diagonals are not written (the files never say them):
//! killer-X puzzles read back with `--diagonals`, as janko.at's do.

use super::text::Ctx;
use super::{Format, ParseError, ParseErrorKind, ReadOptions, SourcedPuzzle};
use crate::puzzle::{default_box, Geometry, OutputFormat, Puzzle, MAX_SIDE};
use serde::de::{Deserializer, MapAccess, Visitor};
use serde::Deserialize;
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

/// Whether `text` looks like JSON (its first non-blank character is `{`).
pub(super) fn looks_like_json(text: &str) -> bool {
    text.trim_start().starts_with('{')
}

#[derive(Deserialize)]
struct Dataset {
    name: String,
    #[serde(deserialize_with = "in_file_order")]
    data: Vec<(String, Entry)>,
}

#[derive(Deserialize)]
struct Entry {
    problem: String,
}

/// A JSON object's members in the order of the file.
fn in_file_order<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<(String, Entry)>, D::Error> {
    struct Ordered;
    impl<'de> Visitor<'de> for Ordered {
        type Value = Vec<(String, Entry)>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("an object of puzzles")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut out = Vec::new();
            while let Some(entry) = map.next_entry()? {
                out.push(entry);
            }
            Ok(out)
        }
    }
    d.deserialize_map(Ordered)
}

/// Reads every puzzle of a puzzlekit JSON text.
pub(super) fn read(
    ctx: &Ctx<'_>,
    options: &ReadOptions,
) -> Result<(Format, Vec<SourcedPuzzle>), ParseError> {
    let diagonals = options.diagonals;
    let dataset: Dataset = serde_json::from_str(ctx.text).map_err(|e| {
        let kind = ParseErrorKind::Json {
            message: strip_position(&e),
        };
        ParseError {
            file: ctx.file.to_string(),
            line: e.line(),
            column: e.column(),
            kind,
        }
    })?;
    let samurai = match dataset.name.as_str() {
        "KillerSudoku" => false,
        "SamuraiSudoku" => true,
        other => {
            let at = ctx.text.find("\"name\"").unwrap_or(0);
            return Err(ctx.error_at_byte(
                at,
                ParseErrorKind::Json {
                    message: format!(
                        "puzzlekit type `{other}` is not read (KillerSudoku and SamuraiSudoku are)"
                    ),
                },
            ));
        }
    };
    if samurai && (diagonals || options.windoku) {
        return Err(ctx.error_at_byte(
            ctx.text.find("\"name\"").unwrap_or(0),
            ParseErrorKind::Json {
                message: "--diagonals and --windoku do not apply to samurai puzzles".to_string(),
            },
        ));
    }
    let samurai_geometry = Arc::new(Geometry::samurai());
    let mut geometries: HashMap<usize, Arc<Geometry>> = HashMap::new();
    let mut out = Vec::with_capacity(dataset.data.len());
    let mut search_from = 0;
    for (id, entry) in dataset.data {
        // The entry's key in the text, for positions (keys are searched in file order).
        let key = format!("\"{id}\"");
        let at = ctx.text[search_from..]
            .find(&key)
            .map_or(search_from, |k| search_from + k);
        search_from = at + key.len().min(ctx.text.len() - at);
        let fail = |message: String| {
            ctx.error_at_byte(
                at,
                ParseErrorKind::Puzzlekit {
                    entry: id.clone(),
                    message,
                },
            )
        };
        let line = ctx.text[..at].bytes().filter(|&b| b == b'\n').count() + 1;
        if samurai {
            let givens = samurai_givens(&entry.problem, &samurai_geometry).map_err(&fail)?;
            let puzzle =
                Puzzle::new(samurai_geometry.clone(), givens).map_err(|e| fail(e.to_string()))?;
            out.push(SourcedPuzzle {
                puzzle,
                line,
                name: Some(id),
                form: OutputFormat::Grid,
            });
            continue;
        }
        let (n, cages) = killer(&entry.problem).map_err(&fail)?;
        let geometry = match geometries.get(&n) {
            Some(g) => g.clone(),
            None => {
                let (r, c) = default_box(n);
                let g = Geometry::boxed(n, r, c).map_err(|e| fail(e.to_string()))?;
                let g = g
                    .with_diagonals(diagonals)
                    .with_windows(options.windoku)
                    .map_err(|e| fail(e.to_string()))?;
                let g = Arc::new(g);
                geometries.insert(n, g.clone());
                g
            }
        };
        let puzzle = Puzzle::empty(geometry)
            .with_cages(cages)
            .map_err(|e| fail(e.to_string()))?;
        out.push(SourcedPuzzle {
            puzzle,
            line,
            name: Some(id),
            form: OutputFormat::Grid,
        });
    }
    if out.is_empty() {
        // As for a text file without a puzzle; at the empty `data` object.
        let at = ctx.text.find("\"data\"").unwrap_or(0);
        return Err(ctx.error_at_byte(at, ParseErrorKind::NoPuzzle));
    }
    Ok((Format::Puzzlekit, out))
}

/// Why a puzzle cannot be written as puzzlekit `KillerSudoku` JSON.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WriteError {
    #[error("puzzle {id}: puzzlekit KillerSudoku holds killer puzzles, this one has no cages")]
    NoCages { id: String },
    #[error(
        "puzzle {id}: puzzlekit KillerSudoku has no givens, this puzzle has {givens} (write it \
         in the killer text format)"
    )]
    Givens { id: String, givens: usize },
    #[error("puzzle {id}: puzzlekit KillerSudoku has boxes only, this puzzle is a jigsaw")]
    Regions { id: String },
    #[error("puzzle {id}: one puzzlekit file holds one type ({first}), this puzzle is another")]
    Mixed { id: String, first: &'static str },
    #[error("puzzle {id}: puzzlekit SamuraiSudoku holds givens only, this puzzle has cages")]
    SamuraiCages { id: String },
}

/// One puzzle of a puzzlekit file: its id, the puzzle, its solution if known, and the
/// `source` and `info` strings.
#[derive(Clone, Debug)]
pub struct PuzzlekitEntry<'a> {
    pub id: String,
    pub puzzle: &'a Puzzle,
    pub solution: Option<&'a [u16]>,
    pub source: String,
    pub info: String,
}

/// Writes killer puzzles as one puzzlekit `KillerSudoku` JSON document (see the module doc),
/// ending with a newline. Reading it back gives the same puzzles, in order, with the ids as
/// names (and the diagonals with `--diagonals`).
pub fn write_puzzlekit(entries: &[PuzzlekitEntry<'_>]) -> Result<String, WriteError> {
    use std::fmt::Write as _;
    let json = |s: &str| serde_json::to_string(s).expect("a string is JSON");
    let solved = entries.iter().filter(|e| e.solution.is_some()).count();
    let samurai = entries
        .first()
        .is_some_and(|e| e.puzzle.geometry().is_samurai());
    let name = if samurai {
        "SamuraiSudoku"
    } else {
        "KillerSudoku"
    };
    let mut out = format!(
        "{{\n \"count\": {},\n \"count_sol\": {solved},\n \"name\": \"{name}\",\n \"data\": {{",
        entries.len()
    );
    for (i, e) in entries.iter().enumerate() {
        let p = e.puzzle;
        let id = e.id.clone();
        if p.geometry().is_samurai() != samurai {
            return Err(WriteError::Mixed { id, first: name });
        }
        if samurai {
            if p.has_cages() {
                return Err(WriteError::SamuraiCages { id });
            }
            let _ = write!(
                out,
                "{}\n  {}: {{\n   \"problem\": {}",
                if i > 0 { "," } else { "" },
                json(&e.id),
                json(&frame_text(p.geometry(), p.givens()))
            );
            if let Some(s) = e.solution {
                let _ = write!(
                    out,
                    ",\n   \"solution\": {}",
                    json(&frame_text(p.geometry(), s))
                );
            }
            let _ = write!(
                out,
                ",\n   \"source\": {},\n   \"info\": {}\n  }}",
                json(&e.source),
                json(&e.info)
            );
            continue;
        }
        let Some(set) = p.cage_set() else {
            return Err(WriteError::NoCages { id });
        };
        if p.clues() > 0 {
            let givens = p.clues();
            return Err(WriteError::Givens { id, givens });
        }
        if p.geometry().is_jigsaw() {
            return Err(WriteError::Regions { id });
        }
        let n = p.n();
        let mut sums = vec![String::from("-"); n * n];
        for cage in set.cages() {
            sums[cage.cells()[0] as usize] = cage.sum().to_string();
        }
        let ids: Vec<String> = (0..n * n)
            .map(|c| {
                set.cage_of(c)
                    .map_or("-".to_string(), |k| (k + 1).to_string())
            })
            .collect();
        let mut problem = format!("{n} {n}");
        for rows in [&sums, &ids] {
            for row in rows.chunks(n) {
                problem.push('\n');
                problem.push_str(&row.join(" "));
            }
        }
        let _ = write!(
            out,
            "{}\n  {}: {{\n   \"problem\": {}",
            if i > 0 { "," } else { "" },
            json(&e.id),
            json(&problem)
        );
        if let Some(s) = e.solution {
            let mut text = format!("{n} {n}");
            for row in s.chunks(n) {
                text.push('\n');
                let digits: Vec<String> = row.iter().map(u16::to_string).collect();
                text.push_str(&digits.join(" "));
            }
            let _ = write!(out, ",\n   \"solution\": {}", json(&text));
        }
        let _ = write!(
            out,
            ",\n   \"source\": {},\n   \"info\": {}\n  }}",
            json(&e.source),
            json(&e.info)
        );
    }
    out.push_str("\n }\n}\n");
    Ok(out)
}

/// A samurai `problem` or `solution`: `H W`, then `H` rows of `W` tokens, a digit, or `-`
/// for an empty or void cell.
fn frame_text(g: &Geometry, grid: &[u16]) -> String {
    let mut text = format!("{} {}", g.height(), g.width());
    for row in grid.chunks(g.width()) {
        text.push('\n');
        let tokens: Vec<String> = row
            .iter()
            .map(|&d| match d {
                0 => "-".to_string(),
                d => d.to_string(),
            })
            .collect();
        text.push_str(&tokens.join(" "));
    }
    text
}

/// serde_json's message without its " at line L column C" (the position goes in the error).
fn strip_position(e: &serde_json::Error) -> String {
    let text = e.to_string();
    let own = format!(" at line {} column {}", e.line(), e.column());
    text.strip_suffix(&own).unwrap_or(&text).to_string()
}

/// The givens of a samurai `problem` on geometry `g` (its frame `H x W`): `H W`, then `H` rows
/// of `W` tokens, a digit or `-`.
fn samurai_givens(problem: &str, g: &Geometry) -> Result<Vec<u16>, String> {
    let (h, w) = (g.height(), g.width());
    let mut lines = problem.lines().filter(|l| !l.trim().is_empty());
    let size = lines.next().ok_or("the problem is empty")?;
    if size.split_whitespace().collect::<Vec<_>>() != [h.to_string(), w.to_string()] {
        return Err(format!(
            "problem line 1: expected the samurai frame `{h} {w}`, found {size:?}"
        ));
    }
    let mut givens = Vec::with_capacity(h * w);
    for r in 0..h {
        let line = lines
            .next()
            .ok_or_else(|| format!("problem line {}: missing row {}", r + 2, r + 1))?;
        let tokens: Vec<&str> = line.split_whitespace().collect();
        if tokens.len() != w {
            return Err(format!(
                "problem line {}: row {} has {} tokens, expected {w}",
                r + 2,
                r + 1,
                tokens.len()
            ));
        }
        for (c, token) in tokens.into_iter().enumerate() {
            let d = match token {
                "-" => 0,
                t => match t.parse::<u16>() {
                    Ok(d) if (1..=g.n() as u16).contains(&d) => d,
                    _ => {
                        return Err(format!(
                            "problem row {}, column {}: expected a digit 1-{} or `-`, found {t:?}",
                            r + 1,
                            c + 1,
                            g.n()
                        ))
                    }
                },
            };
            if d != 0 && g.is_void(r * w + c) {
                return Err(format!(
                    "problem row {}, column {}: digit {d} in a void cell (outside the five grids)",
                    r + 1,
                    c + 1
                ));
            }
            givens.push(d);
        }
    }
    if let Some(extra) = lines.next() {
        return Err(format!(
            "problem line {}: unexpected text after the grid: {extra:?}",
            h + 2
        ));
    }
    Ok(givens)
}

/// The side and the cages (cells, sum) of a killer `problem`.
#[allow(clippy::type_complexity)]
fn killer(problem: &str) -> Result<(usize, Vec<(Vec<u32>, u32)>), String> {
    let mut lines = problem.lines().filter(|l| !l.trim().is_empty());
    let size = lines.next().ok_or("the problem is empty")?;
    let dims: Vec<usize> = size
        .split_whitespace()
        .map(|t| t.parse::<usize>())
        .collect::<Result<_, _>>()
        .map_err(|_| format!("problem line 1: expected `R C`, found {size:?}"))?;
    let n = match dims[..] {
        [r, c] if r == c && (1..=MAX_SIDE).contains(&r) => r,
        _ => {
            return Err(format!(
                "problem line 1: expected a square side `N N`, found {size:?}"
            ))
        }
    };
    let mut rows = |what: &str, first_line: usize| -> Result<Vec<Vec<String>>, String> {
        (0..n)
            .map(|r| {
                let line = lines.next().ok_or_else(|| {
                    format!(
                        "problem line {}: missing {what} row {}",
                        first_line + r,
                        r + 1
                    )
                })?;
                let tokens: Vec<String> = line.split_whitespace().map(str::to_string).collect();
                if tokens.len() != n {
                    return Err(format!(
                        "problem line {}: {what} row {} has {} tokens, expected {n}",
                        first_line + r,
                        r + 1,
                        tokens.len()
                    ));
                }
                Ok(tokens)
            })
            .collect()
    };
    let sums = rows("sum", 2)?;
    let ids = rows("cage id", 2 + n)?;
    if let Some(extra) = lines.next() {
        return Err(format!(
            "problem line {}: unexpected text after the cage ids: {extra:?}",
            2 + 2 * n
        ));
    }
    // Cages in order of first appearance (row-major).
    let mut index: HashMap<&str, usize> = HashMap::new();
    let mut cages: Vec<(Vec<u32>, Option<u32>)> = Vec::new();
    for r in 0..n {
        for c in 0..n {
            let id = ids[r][c].as_str();
            let k = *index.entry(id).or_insert_with(|| {
                cages.push((Vec::new(), None));
                cages.len() - 1
            });
            cages[k].0.push((r * n + c) as u32);
            let token = sums[r][c].as_str();
            if token == "-" {
                continue;
            }
            let sum: u32 = token.parse().map_err(|_| {
                format!(
                    "problem row {}, column {}: expected a cage sum or `-`, found {token:?}",
                    r + 1,
                    c + 1
                )
            })?;
            if cages[k].1.replace(sum).is_some() {
                return Err(format!(
                    "cage `{id}` carries two sums (the second at row {}, column {})",
                    r + 1,
                    c + 1
                ));
            }
        }
    }
    let mut out = Vec::with_capacity(cages.len());
    for (cells, sum) in cages {
        let cell = cells[0] as usize;
        let sum = sum.ok_or_else(|| {
            format!(
                "cage `{}` (at row {}, column {}) carries no sum",
                ids[cell / n][cell % n],
                cell / n + 1,
                cell % n + 1
            )
        })?;
        out.push((cells, sum));
    }
    Ok((n, out))
}

#[cfg(test)]
mod tests {
    use super::*;

    const ONE: &str = r#"{"name": "KillerSudoku", "data": {
      "1_4x4": {"problem": "4 4\n9 - 8 3\n- 7 - -\n4 - - 9\n- - - -\n2 2 4 1\n2 3 4 1\n6 3 4 5\n6 3 5 5",
                "solution": "4 4\n2 3 4 1\n4 1 3 2\n3 2 1 4\n1 4 2 3"}}}"#;

    fn read_text(text: &str) -> Result<Vec<SourcedPuzzle>, ParseError> {
        read(
            &Ctx {
                file: "k.json",
                text,
            },
            &ReadOptions::default(),
        )
        .map(|(_, p)| p)
    }

    /// A set without puzzles read as nothing at all, exit status 0; like a text file without
    /// a puzzle, it is an error.
    #[test]
    fn a_set_without_puzzles_is_an_error() {
        for name in ["KillerSudoku", "SamuraiSudoku"] {
            let text = format!("{{\"name\": \"{name}\",\n \"data\": {{}}}}");
            let e = read_text(&text).unwrap_err();
            assert_eq!(
                (e.line, e.column, &e.kind),
                (2, 2, &ParseErrorKind::NoPuzzle)
            );
            assert_eq!(e.to_string(), "k.json:2:2: no puzzle found");
        }
    }

    #[test]
    fn a_killer_is_read_with_its_cages() {
        let p = read_text(ONE).unwrap();
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].name.as_deref(), Some("1_4x4"));
        assert_eq!(p[0].line, 2);
        let puzzle = &p[0].puzzle;
        assert_eq!(puzzle.n(), 4);
        assert_eq!(puzzle.clues(), 0);
        assert_eq!(puzzle.cages().len(), 6);
        assert_eq!(puzzle.cages()[0].cells(), &[0, 1, 4]);
        assert_eq!(puzzle.cages()[0].sum(), 9);
        let solution: Vec<u16> = [2, 3, 4, 1, 4, 1, 3, 2, 3, 2, 1, 4, 1, 4, 2, 3].to_vec();
        puzzle.check_solution(&solution).unwrap();
        let mut wrong = solution.clone();
        wrong.swap(0, 1);
        assert!(puzzle.check_solution(&wrong).is_err());
    }

    #[test]
    fn bad_killers_name_the_entry() {
        let unreachable = ONE.replace("9 - 8 3", "19 - 8 3");
        let e = read_text(&unreachable).unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.to_string().contains("1_4x4"), "{e}");
        assert!(e.to_string().contains("cannot reach"), "{e}");
        let split = ONE.replace("6 3 4 5\\n6 3 5 5", "6 3 4 5\\n6 3 5 2");
        let e = read_text(&split).unwrap_err().to_string();
        assert!(e.contains("not connected"), "{e}");
        let no_sum = ONE.replace("9 - 8 3", "- - 8 3");
        let e = read_text(&no_sum).unwrap_err().to_string();
        assert!(e.contains("carries no sum"), "{e}");
        let short = ONE.replace("\\n6 3 5 5", "");
        let e = read_text(&short).unwrap_err().to_string();
        assert!(e.contains("missing cage id row 4"), "{e}");
        let kakuro = ONE.replace("KillerSudoku", "Kakuro");
        let e = read_text(&kakuro).unwrap_err().to_string();
        assert!(
            e.contains("Kakuro") && e.contains("SamuraiSudoku are"),
            "{e}"
        );
        let broken = &ONE[..40];
        let e = read_text(broken).unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.to_string().starts_with("k.json:2:"), "{e}");
    }
}
