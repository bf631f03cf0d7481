//! The checked reader of run rows: every reader of records (`summary`, `plot`, `report`,
//! `merge`, `run --resume`) goes through [`RowReader`], so they accept the same rows and name a
//! bad one the same way.

use super::error::{RecordsError, RowError, RowErrorKind};
use super::record::{Cell, ColumnKind, Record, COLUMN_TABLE};
use crate::engines::Status;

/// Reads records from CSV files written by the runner (or merged), plain or gzip
/// ([`super::rowfile::open`]), each row checked by [`RowReader`]. Errors name the file and
/// the line (and the field, for a bad cell).
pub fn read_records(paths: &[std::path::PathBuf]) -> Result<Vec<Record>, RecordsError> {
    let mut out = Vec::new();
    for path in paths {
        out.extend(read_rows(path)?.into_iter().map(|(record, _)| record));
    }
    Ok(out)
}

/// The records of one file as [`read_records`] reads them, each with the line its row
/// starts on.
pub fn read_rows(path: &std::path::Path) -> Result<Vec<(Record, u64)>, RecordsError> {
    let mut out = Vec::new();
    let mut rows = RowReader::new(path, super::rowfile::open(path)?)?;
    while let Some((record, _)) = rows.next_row()? {
        out.push((record, rows.line()));
    }
    Ok(out)
}

/// Whether `secs` is a number of seconds the runner can have written: every time cell comes
/// from a `Duration`, so anything a `Duration` cannot hold (NaN, infinities, negatives,
/// 2^64 s and more) is a damaged or hand-edited cell. Letting such a value through makes
/// medians and means meaningless and sends chart axes over endless ranges.
fn is_seconds(secs: f64) -> bool {
    secs >= 0.0 && std::time::Duration::try_from_secs_f64(secs).is_ok()
}

/// What a cell of `column` must hold, in words, for messages.
fn expected_cell(column: &str) -> String {
    let seconds = "a finite non-negative number of seconds below 2^64";
    match super::record::column(column).map(|c| c.kind) {
        Some(ColumnKind::Seconds) => seconds.into(),
        Some(ColumnKind::OptionalSeconds) => format!("{seconds} (or an empty cell)"),
        Some(ColumnKind::Status) => {
            format!("one of {}", Status::ALL.map(Status::as_str).join(", "))
        }
        Some(ColumnKind::Count(_) | ColumnKind::OptionalWhole) => {
            "a whole number (or an empty cell)".into()
        }
        Some(ColumnKind::Whole) => "a whole number".into(),
        // Text columns fail only on bytes that are not UTF-8.
        Some(ColumnKind::Text) | None => "UTF-8 text".into(),
    }
}

/// The first column (in file order) whose cell in `record` parsed but holds a value the
/// runner never writes: a status not in [`Status::ALL`] (it would be counted as unsolved under
/// a name no one documented), or a time that is not [`is_seconds`].
fn invalid_column(record: &Record) -> Option<&'static str> {
    COLUMN_TABLE
        .iter()
        .find(|c| match c.kind {
            ColumnKind::Status => record.status().is_none(),
            ColumnKind::Seconds | ColumnKind::OptionalSeconds => {
                matches!((c.get)(record), Cell::Seconds(Some(t)) if !is_seconds(t))
            }
            _ => false,
        })
        .map(|c| c.name)
}

/// The rows of one run CSV, one at a time, each parsed and checked (`Record::invalid_column`).
/// The one reader of run rows: `summary`, `plot`, `report` ([`read_records`]), `merge` and
/// `run --resume` all go through it, so they accept the same rows and name a bad one the same
/// way: `FILE:LINE:FIELD: column NAME: expected ..., found "..."`, LINE being the line the
/// row starts on and FIELD the 1-based field number.
pub struct RowReader<'p, R> {
    path: &'p std::path::Path,
    reader: csv::Reader<R>,
    headers: csv::ByteRecord,
    row: csv::ByteRecord,
    /// The header ends in `\r\n`. The csv crate ends a record at its `\r` and counts the
    /// line at the `\n`, which it reads with the next record: each row's position (line
    /// and first byte) is then one early, and is corrected by one.
    crlf: bool,
    /// The line the last row read starts on.
    line: u64,
}

impl<'p, R: std::io::Read> RowReader<'p, R> {
    /// Reads the header line of `input`, the text of the file `path` (named in errors).
    pub fn new(path: &'p std::path::Path, input: R) -> Result<Self, RowError> {
        let mut reader = csv::Reader::from_reader(input);
        let headers = match reader.byte_headers() {
            Ok(h) => h.clone(),
            Err(e) => {
                return Err(RowError {
                    path: path.to_path_buf(),
                    line: e.position().map_or(1, |p| p.line()),
                    field: None,
                    kind: RowErrorKind::HeaderNotCsv(e),
                })
            }
        };
        // After the header the reader is on line 2, unless the `\n` of a `\r\n` is unread.
        let at = reader.position();
        let crlf = at.line() == 1 && at.byte() > 0;
        Ok(RowReader {
            path,
            reader,
            headers,
            row: csv::ByteRecord::new(),
            crlf,
            line: 1,
        })
    }

    /// The next record and the byte range of its row in the text (from its first byte to
    /// the next row's), or `None` after the last row.
    pub fn next_row(&mut self) -> Result<Option<(Record, std::ops::Range<usize>)>, RowError> {
        match self.reader.read_byte_record(&mut self.row) {
            Ok(true) => {}
            Ok(false) => return Ok(None),
            Err(e) => return Err(self.csv_error(e)),
        }
        // The row's own position, not the reader's: after the read the reader is already on
        // the next line (its position would name a bad row one line late).
        let (line, start) = self.row.position().map_or((1, 0), |p| {
            let late = self.crlf as u64;
            (p.line() + late, (p.byte() + late) as usize)
        });
        self.line = line;
        let end = self.end();
        let start = start.min(end);
        let record = self.parse(line)?;
        Ok(Some((record, start..end)))
    }

    /// Whether a row follows: after an error, whether the bad row was the last one (which
    /// `run --resume` forgives as a torn write).
    pub fn more(&mut self) -> bool {
        matches!(self.reader.read_byte_record(&mut self.row), Ok(true))
    }

    /// The byte offset just past the last row read (with `\r\n` line ends, before its
    /// `\n`).
    pub fn end(&self) -> usize {
        self.reader.position().byte() as usize
    }

    /// The line the last row read starts on (1 before the first row).
    pub fn line(&self) -> u64 {
        self.line
    }

    /// An error at `line` (and `field`, 1-based) of the file.
    fn error(&self, line: u64, field: Option<usize>, kind: RowErrorKind) -> RowError {
        RowError {
            path: self.path.to_path_buf(),
            line,
            field,
            kind,
        }
    }

    /// A row the CSV layer refused (a field count unlike the header's, a broken quote).
    fn csv_error(&self, e: csv::Error) -> RowError {
        let line = e.position().map_or(1, |p| p.line() + self.crlf as u64);
        let kind = match e.kind() {
            csv::ErrorKind::UnequalLengths { len, .. } => RowErrorKind::FieldCount {
                expected: self.headers.len(),
                found: *len,
            },
            _ => RowErrorKind::RowNotCsv(e),
        };
        self.error(line, None, kind)
    }

    /// The current row as a checked record; errors name the row's `line` and the cell.
    fn parse(&self, line: u64) -> Result<Record, RowError> {
        let bad_cell = |i: usize, expected: String| {
            let column = String::from_utf8_lossy(self.headers.get(i).unwrap_or(b"?"));
            let found = String::from_utf8_lossy(self.row.get(i).unwrap_or(b""));
            let kind = RowErrorKind::BadCell {
                column: column.into_owned(),
                expected,
                found: found.into_owned(),
            };
            self.error(line, Some(i + 1), kind)
        };
        let record = match self.row.deserialize::<Record>(Some(&self.headers)) {
            Ok(record) => record,
            Err(e) => {
                let (field, detail) = match e.kind() {
                    csv::ErrorKind::Deserialize { err, .. } => (err.field(), err.to_string()),
                    other => (None, format!("{other:?}")),
                };
                return Err(match field {
                    Some(i) => {
                        let i = i as usize;
                        let column = String::from_utf8_lossy(self.headers.get(i).unwrap_or(b""));
                        bad_cell(i, expected_cell(&column))
                    }
                    // A column the record needs is not in the header (serde: "missing
                    // field"): the file is not a run output at all.
                    None => {
                        let found = self
                            .headers
                            .iter()
                            .take(6)
                            .map(String::from_utf8_lossy)
                            .collect::<Vec<_>>()
                            .join(",");
                        self.error(1, None, RowErrorKind::NotRunOutput { found, detail })
                    }
                });
            }
        };
        match invalid_column(&record) {
            None => Ok(record),
            Some(column) => {
                let i = self.headers.iter().position(|h| h == column.as_bytes());
                Err(match i {
                    Some(i) => bad_cell(i, expected_cell(column)),
                    // Unreachable for a row that deserialised (every column is in the
                    // header), but a message beats a panic.
                    None => {
                        let kind = RowErrorKind::BadColumn {
                            column: column.to_string(),
                            expected: expected_cell(column),
                        };
                        self.error(line, None, kind)
                    }
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::COLUMNS;

    /// A CSV of `rows` (cells by column name over a valid row), as `read_records` sees it.
    fn read_rows(rows: &[&[(&str, &str)]]) -> Result<Vec<Record>, RecordsError> {
        let valid = Record {
            status: "unique".into(),
            time_limit_s: Some(0.5),
            note: "a note\nof two lines".into(),
            ..Record::default()
        };
        let mut w = csv::Writer::from_writer(Vec::new());
        w.serialize(&valid).unwrap();
        let text = String::from_utf8(w.into_inner().unwrap()).unwrap();
        let mut r = csv::Reader::from_reader(text.as_bytes());
        let valid: Vec<String> = r
            .records()
            .next()
            .unwrap()
            .unwrap()
            .iter()
            .map(String::from)
            .collect();
        let mut out = csv::Writer::from_writer(Vec::new());
        out.write_record(COLUMNS).unwrap();
        for cells in rows {
            let mut row = valid.clone();
            for (column, cell) in *cells {
                let i = COLUMNS.iter().position(|c| c == column).unwrap();
                row[i] = cell.to_string();
            }
            out.write_record(&row).unwrap();
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.csv");
        std::fs::write(&path, out.into_inner().unwrap()).unwrap();
        read_records(&[path])
    }

    /// Cells that parse as their type but that the runner never writes (times a `Duration`
    /// cannot hold, a status not documented) are refused like unparsable ones, naming the
    /// line the row starts on (rows before hold a two-line note), the field and the column.
    #[test]
    fn impossible_cells_are_refused_naming_the_cell() {
        assert_eq!(read_rows(&[&[], &[]]).unwrap().len(), 2);
        let seconds = "expected a finite non-negative number of seconds below 2^64";
        for (column, cell, expected) in [
            ("cpu_s", "inf", seconds),
            ("cpu_s", "NaN", seconds),
            ("cpu_s", "-1", seconds),
            ("build_s", "1e20", seconds),
            ("solve_s", "", seconds),
            ("wall_s", "-0.5", seconds),
            ("wall_s", "x", seconds),
            ("time_limit_s", "-inf", seconds),
            (
                "status",
                "bogus",
                "expected one of solved, unique, multiple, unsat, node-limit",
            ),
            ("status", "", "expected one of solved"),
            ("job", "x", "expected a whole number, found"),
            ("job", "", "expected a whole number, found"),
            ("nodes", "-3", "expected a whole number (or an empty cell)"),
        ] {
            let err = read_rows(&[&[], &[], &[(column, cell)], &[]])
                .unwrap_err()
                .to_string();
            let field = COLUMNS.iter().position(|c| *c == column).unwrap() + 1;
            let want = format!("r.csv:6:{field}: column `{column}`: ");
            assert!(err.contains(&want), "{err}");
            assert!(err.contains(expected), "{err}");
            assert!(err.ends_with(&format!("found {cell:?}")), "{err}");
        }
        // Extreme but possible times are read: a run of 0 s, or of half a millennium.
        let ok = read_rows(&[&[("cpu_s", "0"), ("wall_s", "1.6e10"), ("time_limit_s", "")]]);
        assert_eq!(ok.unwrap()[0].time_limit_s, None);
    }

    /// The words of [`expected_cell`] agree with what the reader takes: a column whose
    /// message allows an empty cell reads one, and no other column does (text aside).
    #[test]
    fn expected_cells_say_whether_a_cell_may_be_empty() {
        for column in COLUMNS {
            let expected = expected_cell(column);
            let may_be_empty = expected.contains("empty cell") || expected == "UTF-8 text";
            let read = read_rows(&[&[(column, "")]]);
            assert_eq!(read.is_ok(), may_be_empty, "{column}: {expected}: {read:?}");
        }
    }

    #[test]
    fn records_round_trip_through_csv() {
        let r = Record {
            experiment: "e".into(),
            status: "time-limit".into(),
            nodes: Some(7),
            time_limit_s: Some(0.5),
            note: "a, \"quoted\" note".into(),
            ..Record::default()
        };
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.csv");
        let mut w = csv::Writer::from_path(&path).unwrap();
        w.serialize(&r).unwrap();
        w.flush().unwrap();
        drop(w);
        let back = read_records(&[path]).unwrap();
        assert_eq!(back, vec![r]);
    }
}
