//! The certificate bundle that `sudolab certify -o DIR` writes and `--check DIR` reads:
//! `DIR/certificates.jsonl`, one JSON object per puzzle in input order, and `DIR/proofs/`,
//! one DRAT proof file per proof. `docs/certify.md` documents every field.
//!
//! An entry is self-contained: the geometry (`size`, `box`, `variant`, `regions`) and the
//! givens (`puzzle`) fix the canonical formula; `verdict`, `solutions` and `proof` are the
//! claim. Grids are written as `solve` writes its `solution` column: one symbol per cell
//! (`1-9A-Z`, `.` for an empty cell) up to side 35, and above that rows of decimal numbers
//! (`0` for an empty cell) separated by white space.

use super::canonical::{CanonicalForm, UnknownForm};
use super::prove::Verdict;
use crate::puzzle::{write_grid, Geometry, Layout, OutputFormat};
use serde::{Deserialize, Serialize};
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// The file of entries inside a bundle.
pub const ENTRIES_FILE: &str = "certificates.jsonl";

/// The folder of proofs inside a bundle.
pub const PROOFS_DIR: &str = "proofs";

/// One line of `certificates.jsonl`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// The puzzle file as given, and the puzzle's 1-based index in it.
    pub source: String,
    pub index: u64,
    /// Side `N`.
    pub size: usize,
    /// Box shape `RxC` (classic and X); null for jigsaw.
    #[serde(rename = "box")]
    pub box_shape: Option<String>,
    /// `classic`, `x`, `jigsaw` or `jigsaw-x` (X: the two diagonals are houses).
    pub variant: String,
    /// Jigsaw: the region (0-based) of every cell, row-major; null otherwise.
    #[serde(default)]
    pub regions: Option<Vec<u16>>,
    /// The givens.
    pub puzzle: String,
    /// `unique`, `multiple`, `unsat` or `unknown`.
    pub verdict: String,
    /// 0, 1 or 2 solutions.
    pub solutions: Vec<String>,
    /// The proof file, relative to the bundle folder; null without a proof.
    pub proof: Option<String>,
    /// The canonical formula's form: `pairwise` or `sequential`.
    pub formula: String,
    /// Minimality certificate: for each given (row-major), a solution of the puzzle without
    /// it, other than the unique one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minimality: Option<Vec<String>>,
    /// Whether the tool checked this entry (solutions and proof, with its own checker) before
    /// writing it. An entry whose check failed or was skipped says false.
    #[serde(default)]
    pub checked: bool,
    /// Why the verdict is `unknown` (`time-limit`, `cancelled`), or what the tool's check
    /// rejected; null otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// How the certificate was made, for measurement; not part of the claim.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stats: Option<EntryStats>,
}

/// Measurements of one entry (informative; the check ignores them).
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct EntryStats {
    /// The encoding options of the proof (`encoding=reduced,amo=auto`, ...).
    pub encoding: String,
    /// Lemmas of the proof (the empty clause included), deletions, bytes.
    pub lemmas: u64,
    pub deletions: u64,
    pub proof_bytes: u64,
    /// Seconds to decide and make the proof, and to check it.
    pub prove_s: f64,
    pub check_s: f64,
}

/// A geometry, givens and grids decoded from an entry.
pub struct Decoded {
    pub geometry: Geometry,
    pub givens: Vec<u16>,
    pub verdict: Verdict,
    pub solutions: Vec<Vec<u16>>,
    pub form: CanonicalForm,
    pub minimality: Option<Vec<Vec<u16>>>,
}

/// What is wrong with an entry, and in which field.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("field `{field}`: {message}")]
pub struct FieldError {
    pub field: &'static str,
    pub message: String,
}

fn field(field: &'static str, message: impl Into<String>) -> FieldError {
    FieldError {
        field,
        message: message.into(),
    }
}

/// Writes a grid as the bundle does (see the module doc).
pub fn grid_text(grid: &[u16], geometry: &Geometry) -> String {
    write_grid(grid, geometry, OutputFormat::Line, None)
        .trim_end()
        .to_string()
}

/// Why a grid text cannot be read ([`parse_grid`]); cells are numbered from 1, row-major.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GridTextError {
    #[error("symbol `{symbol}` at cell {cell} is not a digit of 1..{n} or `.`")]
    Symbol { symbol: char, cell: usize, n: usize },
    #[error("`{token}` at cell {cell} is not a number of 0..{n}")]
    Number {
        token: String,
        cell: usize,
        n: usize,
    },
    #[error("{found} cells, expected {} for side {n}", n * n)]
    Length { found: usize, n: usize },
    #[error("cell {cell} holds {digit}, larger than the side {n}")]
    Digit { cell: usize, digit: u16, n: usize },
    #[error("cell {cell} is empty")]
    Empty { cell: usize },
}

/// Reads a grid of side `n` written by [`grid_text`]; `empty_ok` allows empty cells.
pub fn parse_grid(text: &str, n: usize, empty_ok: bool) -> Result<Vec<u16>, GridTextError> {
    let cells = n * n;
    let mut grid = Vec::with_capacity(cells);
    if n <= 35 && !text.trim().contains(char::is_whitespace) {
        for (i, ch) in text.trim().chars().enumerate() {
            let d = match ch {
                '.' | '0' => 0,
                '1'..='9' => ch as u16 - '0' as u16,
                'A'..='Z' => ch as u16 - 'A' as u16 + 10,
                'a'..='z' => ch as u16 - 'a' as u16 + 10,
                _ => {
                    return Err(GridTextError::Symbol {
                        symbol: ch,
                        cell: i + 1,
                        n,
                    })
                }
            };
            grid.push(d);
        }
    } else {
        for (i, tok) in text.split_whitespace().enumerate() {
            let d = if tok == "." {
                0
            } else {
                tok.parse::<u16>().map_err(|_| GridTextError::Number {
                    token: tok.to_string(),
                    cell: i + 1,
                    n,
                })?
            };
            grid.push(d);
        }
    }
    if grid.len() != cells {
        return Err(GridTextError::Length {
            found: grid.len(),
            n,
        });
    }
    for (i, &d) in grid.iter().enumerate() {
        if d as usize > n {
            return Err(GridTextError::Digit {
                cell: i + 1,
                digit: d,
                n,
            });
        }
        if d == 0 && !empty_ok {
            return Err(GridTextError::Empty { cell: i + 1 });
        }
    }
    Ok(grid)
}

impl Entry {
    /// The geometry fields of an entry for `geometry`.
    pub fn geometry_fields(
        geometry: &Geometry,
    ) -> (usize, Option<String>, String, Option<Vec<u16>>) {
        let (box_shape, regions) = match geometry.layout() {
            Layout::Boxes { rows, cols } => (Some(format!("{rows}x{cols}")), None),
            Layout::Regions(r) => (None, Some(r.clone())),
            Layout::Combined { .. } => (None, None),
        };
        (geometry.n(), box_shape, geometry.variant(), regions)
    }

    /// The proof file's path inside the bundle, if any.
    pub fn proof_path(&self, bundle: &std::path::Path) -> Option<PathBuf> {
        self.proof.as_ref().map(|p| bundle.join(p))
    }

    /// Decodes the claim: geometry, givens, verdict, grids and form.
    pub fn decode(&self) -> Result<Decoded, FieldError> {
        let n = self.size;
        if n == 0 || n > crate::puzzle::MAX_SIDE {
            return Err(field(
                "size",
                format!("{n} is out of range (1..={})", crate::puzzle::MAX_SIDE),
            ));
        }
        let diagonals = match self.variant.as_str() {
            "classic" | "jigsaw" => false,
            "x" | "jigsaw-x" => true,
            v => {
                return Err(field(
                    "variant",
                    format!("unknown variant `{v}` (expected classic, x, jigsaw or jigsaw-x)"),
                ))
            }
        };
        let jigsaw = self.variant.starts_with("jigsaw");
        let geometry = if jigsaw {
            let Some(regions) = &self.regions else {
                return Err(field("regions", "a jigsaw entry needs its regions"));
            };
            if self.box_shape.is_some() {
                return Err(field("box", "a jigsaw entry has no box shape (null)"));
            }
            Geometry::jigsaw(n, regions.clone()).map_err(|e| field("regions", e.to_string()))?
        } else {
            if self.regions.is_some() {
                return Err(field("regions", "only a jigsaw entry has regions (null)"));
            }
            let Some(shape) = &self.box_shape else {
                return Err(field(
                    "box",
                    format!("a {} entry needs its box shape", self.variant),
                ));
            };
            let (r, c) =
                crate::puzzle::parse_box(shape).map_err(|e| field("box", e.to_string()))?;
            Geometry::boxed(n, r, c).map_err(|e| field("box", e.to_string()))?
        };
        let geometry = if diagonals {
            geometry.with_diagonals(true)
        } else {
            geometry
        };
        let givens =
            parse_grid(&self.puzzle, n, true).map_err(|e| field("puzzle", e.to_string()))?;
        let verdict = Verdict::parse(&self.verdict).ok_or_else(|| {
            field(
                "verdict",
                format!(
                    "unknown verdict `{}` (expected unique, multiple, unsat or unknown)",
                    self.verdict
                ),
            )
        })?;
        let solutions = self
            .solutions
            .iter()
            .map(|s| parse_grid(s, n, false))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| field("solutions", e.to_string()))?;
        let form: CanonicalForm = self
            .formula
            .parse()
            .map_err(|e: UnknownForm| field("formula", e.to_string()))?;
        let minimality = match &self.minimality {
            None => None,
            Some(list) => Some(
                list.iter()
                    .map(|s| parse_grid(s, n, false))
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(|e| field("minimality", e.to_string()))?,
            ),
        };
        if let Some(p) = &self.proof {
            let path = std::path::Path::new(p);
            if path.is_absolute()
                || path
                    .components()
                    .any(|c| matches!(c, std::path::Component::ParentDir))
            {
                return Err(field(
                    "proof",
                    format!("`{p}` is not a path inside the bundle folder"),
                ));
            }
        }
        Ok(Decoded {
            geometry,
            givens,
            verdict,
            solutions,
            form,
            minimality,
        })
    }
}

/// Why a bundle could not be written.
#[derive(Debug, thiserror::Error)]
pub enum BundleError {
    #[error("{}: a bundle is already there (choose another folder, or remove it)", .0.display())]
    Exists(PathBuf),
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: io::Error },
}

/// Writes a bundle: creates the folder (refusing one that already holds a bundle), then one
/// entry at a time, its proof file first and its line flushed at once, so a killed run keeps
/// every entry written before it. Proofs are named `proofs/NNNNNN.drat` by the entry's
/// 1-based number in the bundle.
pub struct BundleWriter {
    dir: PathBuf,
    entries_path: PathBuf,
    entries: BufWriter<File>,
    /// Digits of the proof numbers.
    width: usize,
    written: u64,
}

impl BundleWriter {
    /// Creates the bundle folder `dir` for `total` entries (the number only sets the width
    /// of the proof names: at least six digits).
    pub fn create(dir: &Path, total: u64) -> Result<Self, BundleError> {
        let entries_path = dir.join(ENTRIES_FILE);
        if entries_path.exists() {
            return Err(BundleError::Exists(entries_path));
        }
        let proofs = dir.join(PROOFS_DIR);
        std::fs::create_dir_all(&proofs).map_err(|source| BundleError::Io {
            path: proofs,
            source,
        })?;
        let file = File::create(&entries_path).map_err(|source| BundleError::Io {
            path: entries_path.clone(),
            source,
        })?;
        Ok(BundleWriter {
            dir: dir.to_path_buf(),
            entries_path,
            entries: BufWriter::new(file),
            width: total.to_string().len().max(6),
            written: 0,
        })
    }

    /// The bundle folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Entries written so far.
    pub fn written(&self) -> u64 {
        self.written
    }

    /// Writes `proof` (if any) as the next entry's proof file, sets `entry.proof` to it, and
    /// appends `entry` as one line.
    pub fn write(&mut self, entry: &mut Entry, proof: Option<&[u8]>) -> Result<(), BundleError> {
        let number = self.written + 1;
        entry.proof = None;
        if let Some(proof) = proof {
            let name = format!("{PROOFS_DIR}/{number:0width$}.drat", width = self.width);
            let path = self.dir.join(&name);
            std::fs::write(&path, proof).map_err(|source| BundleError::Io { path, source })?;
            entry.proof = Some(name);
        }
        let line = serde_json::to_string(entry).expect("an entry serialises");
        let io_error = |source| BundleError::Io {
            path: self.entries_path.clone(),
            source,
        };
        writeln!(self.entries, "{line}").map_err(io_error)?;
        self.entries.flush().map_err(io_error)?;
        self.written = number;
        Ok(())
    }
}

/// The 1-based column of `"field"` in a JSON line (1 if it is not there), to place a field
/// error.
pub fn field_column(line: &str, field: &str) -> usize {
    line.find(&format!("\"{field}\""))
        .map(|i| line[..i].chars().count() + 1)
        .unwrap_or(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry() -> Entry {
        Entry {
            source: "x.txt".into(),
            index: 1,
            size: 4,
            box_shape: Some("2x2".into()),
            variant: "classic".into(),
            regions: None,
            puzzle: "1...............".into(),
            verdict: "multiple".into(),
            solutions: vec![],
            proof: None,
            formula: "pairwise".into(),
            minimality: None,
            checked: false,
            note: None,
            stats: None,
        }
    }

    #[test]
    fn grids_round_trip_at_every_form() {
        for n in [4usize, 9, 16, 25, 36] {
            let g = Geometry::square(n).unwrap();
            let grid: Vec<u16> = (0..n * n).map(|i| (i % (n + 1)) as u16).collect();
            let text = grid_text(&grid, &g);
            assert_eq!(parse_grid(&text, n, true).unwrap(), grid, "side {n}");
            assert!(parse_grid(&text, n, false).is_err());
        }
    }

    #[test]
    fn entries_round_trip_through_json() {
        let e = entry();
        let line = serde_json::to_string(&e).unwrap();
        let back: Entry = serde_json::from_str(&line).unwrap();
        assert_eq!(back, e);
        assert_eq!(
            field_column(&line, "verdict"),
            line.find("\"verdict\"").unwrap() + 1
        );
    }

    #[test]
    fn the_writer_numbers_proofs_and_refuses_an_existing_bundle() {
        let dir = tempfile::tempdir().unwrap();
        let bundle = dir.path().join("b");
        let mut writer = BundleWriter::create(&bundle, 3).unwrap();
        let mut with_proof = entry();
        writer.write(&mut with_proof, Some(b"0\n")).unwrap();
        let mut without = entry();
        without.proof = Some("stale".into());
        writer.write(&mut without, None).unwrap();
        assert_eq!(writer.written(), 2);
        assert_eq!(with_proof.proof.as_deref(), Some("proofs/000001.drat"));
        assert_eq!(without.proof, None);
        let proof = std::fs::read(bundle.join("proofs/000001.drat")).unwrap();
        assert_eq!(proof, b"0\n");
        let text = std::fs::read_to_string(bundle.join(ENTRIES_FILE)).unwrap();
        let back: Vec<Entry> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(back, [with_proof, without]);
        assert!(matches!(
            BundleWriter::create(&bundle, 1),
            Err(BundleError::Exists(_))
        ));
    }

    #[test]
    fn bad_fields_are_named() {
        let mut e = entry();
        e.verdict = "maybe".into();
        assert_eq!(e.decode().err().unwrap().field, "verdict");
        let mut e = entry();
        e.puzzle = "1..".into();
        assert_eq!(e.decode().err().unwrap().field, "puzzle");
        let mut e = entry();
        e.variant = "jigsaw".into();
        assert_eq!(e.decode().err().unwrap().field, "regions");
        let mut e = entry();
        e.formula = "ladder".into();
        assert_eq!(e.decode().err().unwrap().field, "formula");
        let mut e = entry();
        e.proof = Some("../etc/passwd".into());
        assert_eq!(e.decode().err().unwrap().field, "proof");
    }
}
