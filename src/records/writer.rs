//! The runner's writer of rows: a row formatted straight into bytes, equal (read back) to the
//! serde serialisation of [`Record::new`](super::Record::new), and the cell writers `solve --csv`
//! shares with it. Numbers are formatted by hand: this runs once per job, and on a fast engine
//! its cost is part of the runner's overhead.

use super::record::{count_cells, puzzle_text, sat_columns, PUZZLE_TEXT_MAX};
use crate::engines::{EngineSpec, Limits, Outcome};
use crate::puzzle::{Geometry, Puzzle};
use std::sync::Arc;

/// The fast path of the runner: a row written straight into bytes, equal (read back) to the
/// serde serialisation of [`Record::new`](super::Record::new), without building a `Record`. What is known before
/// the run is prepared once: per dataset ([`DatasetFields`]) and per configuration
/// ([`config_prefix`], [`config_suffix`]); per row the puzzle's line and the outcome's
/// numbers are formatted.
/// Durations are written exactly, as seconds with nine decimals.
pub struct RowParts<'a> {
    pub dataset: &'a DatasetFields,
    /// 1-based position of the puzzle in its dataset file.
    pub puzzle_index: u64,
    pub puzzle: &'a Puzzle,
    pub config_prefix: &'a ConfigPrefix,
    pub repetition: u64,
    /// [`config_suffix`] of the run's limits and shard.
    pub config_suffix: &'a [u8],
    pub search_tree: bool,
    pub job: u64,
}

/// What the fields `experiment` to `clues` of a dataset's rows share: the escaped
/// `experiment,dataset,` and the `size,box,variant,` fields of the geometry its puzzles share
/// (a file's puzzles share one geometry object, jigsaws aside). The runner writes these
/// fields per row from it ([`DatasetFields::write`]) rather than keeping them per puzzle:
/// formatting a 9x9 puzzle's fields costs about as much as copying them, and 50,000 kept
/// prefixes were 7 MB of memory, whose page faults cost more than the formatting.
pub struct DatasetFields {
    run: Vec<u8>,
    geometry: Option<(Arc<Geometry>, Vec<u8>)>,
}

impl DatasetFields {
    /// The fields of `dataset` of `experiment`; `first` is a puzzle of the dataset (its
    /// geometry's fields are kept, as the one the others most likely share).
    pub fn new(experiment: &str, dataset: &str, first: Option<&Puzzle>) -> DatasetFields {
        let mut run = Vec::new();
        push_field_bytes(&mut run, experiment);
        run.push(b',');
        push_field_bytes(&mut run, dataset);
        run.push(b',');
        let geometry = first.map(|p| {
            let mut fields = Vec::new();
            push_geometry_fields(&mut fields, p.geometry(), &p.variant());
            (p.shared_geometry().clone(), fields)
        });
        DatasetFields { run, geometry }
    }

    /// Appends fields `experiment` to `clues` of the puzzle at 1-based `puzzle_index`, each
    /// followed by a comma: the bytes of [`puzzle_prefix`] (tested). The usual line form is
    /// written without an allocation or a quoting scan (the default alphabet's symbols never
    /// need quotes); any other form goes through [`puzzle_text`].
    pub fn write(&self, out: &mut Vec<u8>, puzzle_index: u64, puzzle: &Puzzle) {
        out.extend_from_slice(&self.run);
        int(out, puzzle_index);
        out.push(b',');
        let g = puzzle.geometry();
        let fits = g.n() * g.n() <= PUZZLE_TEXT_MAX;
        // The line's writer counts the clues as it goes (one pass over the grid).
        let line_clues = if fits {
            crate::puzzle::push_default_line(out, puzzle.givens(), g)
        } else {
            None
        };
        let clues = line_clues.unwrap_or_else(|| {
            push_field_bytes(out, &puzzle_text(puzzle));
            puzzle.clues()
        });
        out.push(b',');
        match &self.geometry {
            Some((shared, fields))
                if Arc::ptr_eq(shared, puzzle.shared_geometry()) && !puzzle.has_cages() =>
            {
                out.extend_from_slice(fields)
            }
            _ => push_geometry_fields(out, g, &puzzle.variant()),
        }
        int(out, clues as u64);
        out.push(b',');
    }
}

/// Fields `experiment` to `clues`, CSV-escaped, each followed by a comma.
pub fn puzzle_prefix(
    experiment: &str,
    dataset: &str,
    puzzle_index: u64,
    puzzle: &Puzzle,
    puzzle_text: &str,
) -> String {
    // The general path, as `Record::new` fills the fields: the reference that
    // [`DatasetFields::write`] is tested against.
    let g = puzzle.geometry();
    let box_shape = g
        .box_shape()
        .map(|(r, c)| format!("{r}x{c}"))
        .unwrap_or_default();
    let mut s = String::new();
    for field in [
        experiment,
        dataset,
        &puzzle_index.to_string(),
        puzzle_text,
        &g.n().to_string(),
        &box_shape,
        &puzzle.variant(),
        &puzzle.clues().to_string(),
    ] {
        push_field(&mut s, field);
        s.push(',');
    }
    s
}

/// Fields `size`, `box` and `variant`, each followed by a comma.
fn push_geometry_fields(out: &mut Vec<u8>, g: &Geometry, variant: &str) {
    int(out, g.n() as u64);
    out.push(b',');
    if let Some((r, c)) = g.box_shape() {
        int(out, r as u64);
        out.push(b'x');
        int(out, c as u64);
    }
    out.push(b',');
    push_field_bytes(out, variant);
    out.push(b',');
}

/// Fields `config` to `givens` of a configuration's rows, CSV-escaped, each followed by a
/// comma ([`config_prefix`]). `amo` is kept apart: a row shows the AMO its formula was
/// encoded with where the engine settled one ([`crate::search::Stats::resolved`]).
pub struct ConfigPrefix {
    /// `config` to `encoding`.
    head: String,
    /// `amo` as configured (defaults filled in; empty for engines other than `sat`).
    amo: String,
    /// `backend` and `givens`.
    tail: String,
}

impl ConfigPrefix {
    /// Appends the fields, with the `amo` that `outcome` settled where it settled one.
    fn write(&self, out: &mut Vec<u8>, outcome: &Outcome) {
        out.extend_from_slice(self.head.as_bytes());
        match outcome.stats.resolved("amo") {
            Some(amo) if !self.amo.is_empty() => push_field_bytes(out, amo),
            _ => push_field_bytes(out, &self.amo),
        }
        out.push(b',');
        out.extend_from_slice(self.tail.as_bytes());
    }
}

/// The [`ConfigPrefix`] of configuration `config` running `spec`.
pub fn config_prefix(config: &str, spec: &EngineSpec) -> ConfigPrefix {
    let options = spec
        .options
        .0
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(";");
    let (encoding, amo, backend, givens) = sat_columns(Some(spec));
    let fields = |list: &[&str]| {
        let mut s = String::new();
        for f in list {
            push_field(&mut s, f);
            s.push(',');
        }
        s
    };
    ConfigPrefix {
        head: fields(&[config, &spec.name, &options, &encoding]),
        amo,
        tail: fields(&[&backend, &givens]),
    }
}

/// Fields `time_limit_s` to `shard`, each followed by a comma: what follows the timings in
/// every row of a configuration (and shard), formatted once rather than per row.
pub fn config_suffix(limits: &Limits, shard: &str) -> Vec<u8> {
    let mut out = Vec::new();
    match limits.time_limit {
        Some(t) => secs(&mut out, t),
        None => out.push(b','),
    }
    opt_int(&mut out, limits.node_limit);
    int(&mut out, limits.max_solutions);
    out.push(b',');
    push_field_bytes(&mut out, shard);
    out.push(b',');
    out
}

/// Appends one CSV field, quoted (with doubled quotes) when it holds a comma, a quote or a
/// line break, as the `csv` crate writes it.
fn push_field(s: &mut String, field: &str) {
    if needs_quotes(field) {
        s.push('"');
        s.push_str(&field.replace('"', "\"\""));
        s.push('"');
    } else {
        s.push_str(field);
    }
}

/// Whether a field holds a comma, a quote or a line break (ASCII bytes, which never occur
/// inside a multi-byte UTF-8 character; a byte scan is several times faster than a search
/// for any of four `char`s).
fn needs_quotes(field: &str) -> bool {
    field
        .bytes()
        .any(|b| matches!(b, b',' | b'"' | b'\n' | b'\r'))
}

/// Appends the row of a finished run (with its final newline) to `out`. Numbers are written
/// by hand (`itoa`, and nine zero-padded decimals for the nanoseconds) rather than through
/// `core::fmt`: this runs once per job, and on a fast engine its cost is part of the runner's
/// overhead.
pub fn write_row(out: &mut Vec<u8>, parts: &RowParts<'_>, outcome: &Outcome) {
    parts.dataset.write(out, parts.puzzle_index, parts.puzzle);
    parts.config_prefix.write(out, outcome);
    int(out, parts.repetition);
    out.push(b',');
    out.extend_from_slice(outcome.status.as_str().as_bytes());
    out.push(b',');
    int(out, outcome.count);
    out.push(b',');
    write_counts(out, outcome, parts.search_tree);
    secs(out, outcome.build);
    secs(out, outcome.solve);
    secs(out, outcome.build + outcome.solve);
    secs(out, outcome.wall);
    out.extend_from_slice(parts.config_suffix);
    int(out, parts.job);
    out.push(b',');
    if let Some(note) = &outcome.note {
        push_field_bytes(out, note);
    }
    let s = &outcome.stats;
    out.push(b',');
    opt_int(out, s.proof_lemmas);
    opt_int(out, s.proof_bytes);
    if let Some(t) = s.check_s {
        secs(out, std::time::Duration::from_secs_f64(t.max(0.0)));
        out.pop(); // `secs` ends its cell with a comma
    }
    out.push(b'\n');
}

/// Appends the cells `nodes` to `ones` and `counters` (`name=value;...`), each followed by a
/// comma. The one writer of counts, for `run` and `solve --csv`: a count the engine does not
/// have is an empty cell, never 0.
pub fn write_counts(out: &mut Vec<u8>, o: &Outcome, search_tree: bool) {
    for v in count_cells(o, search_tree) {
        opt_int(out, v);
    }
    let s = &o.stats;
    for (i, (k, v)) in s.counters.iter().enumerate() {
        if i > 0 {
            out.push(b';');
        }
        out.extend_from_slice(k.as_bytes());
        out.push(b'=');
        int(out, *v);
    }
    out.push(b',');
}

#[inline]
fn int(out: &mut Vec<u8>, v: u64) {
    // Most numbers of a row are one digit (repetition, solutions, limits, small counts).
    if v < 10 {
        out.push(b'0' + v as u8);
    } else if v < 100 {
        // Clues and most named counters: two bytes from the table, no call.
        let pair = v as usize * 2;
        out.extend_from_slice(&DIGIT_PAIRS[pair..pair + 2]);
    } else {
        out.extend_from_slice(itoa::Buffer::new().format(v).as_bytes());
    }
}

/// `v` and a comma, or only the comma (an empty cell).
#[inline]
fn opt_int(out: &mut Vec<u8>, v: Option<u64>) {
    if let Some(v) = v {
        int(out, v);
    }
    out.push(b',');
}

/// A duration as exact seconds with nine decimals (`0.000012345`), then a comma.
pub fn secs(out: &mut Vec<u8>, d: std::time::Duration) {
    // The cell is built in a fixed array and copied at once (a copy of known length is a few
    // moves, not a call), two decimals per step from a table as itoa does: the runner writes
    // four durations per row, and a division per digit was a tenth of its work per row.
    let mut cell = *b"0.000000000,";
    let mut n = d.subsec_nanos();
    for pos in [9, 7, 5, 3] {
        let pair = (n % 100) as usize * 2;
        n /= 100;
        cell[pos..pos + 2].copy_from_slice(&DIGIT_PAIRS[pair..pair + 2]);
    }
    cell[2] = b'0' + n as u8;
    match d.as_secs() {
        s @ 0..=9 => {
            cell[0] = b'0' + s as u8;
            out.extend_from_slice(&cell);
        }
        s => {
            int(out, s);
            out.extend_from_slice(&cell[1..]);
        }
    }
}

/// `00` to `99`, two bytes each.
const DIGIT_PAIRS: &[u8; 200] = b"\
      0001020304050607080910111213141516171819202122232425262728293031323334353637383940414243444546474849\
      5051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899";

/// `push_field` into bytes: one CSV field, quoted when it needs to be (no comma after it).
pub fn push_field_bytes(out: &mut Vec<u8>, field: &str) {
    if needs_quotes(field) {
        out.push(b'"');
        for &b in field.as_bytes() {
            if b == b'"' {
                out.push(b'"');
            }
            out.push(b);
        }
        out.push(b'"');
    } else {
        out.extend_from_slice(field.as_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines;
    use crate::records::record::tests::puzzle;
    use crate::records::record::{Record, RunKey, COLUMNS};

    /// The runner's fields (written per row from [`DatasetFields`]) are byte for byte the
    /// general prefix: for the line form, for every form that falls back to [`puzzle_text`]
    /// (jigsaw, sides whose digits have no symbol, texts over the length bound), for puzzles
    /// that share the kept geometry and for those that do not (an equal geometry in another
    /// object, another geometry, no kept geometry).
    #[test]
    fn dataset_fields_equal_the_general_prefix() {
        use crate::puzzle::{Geometry, Puzzle};
        let four = puzzle("1.3.341.2.4.4.21");
        let mut cases = vec![
            four.clone(),
            Puzzle::new(four.shared_geometry().clone(), four.givens().to_vec()).unwrap(),
            puzzle("11.............."),
            puzzle(include_str!("../../data/examples/jigsaw-9x9.txt")),
            puzzle(include_str!("../../data/examples/6x6.txt")),
            puzzle(include_str!("../../data/examples/x-9x9.txt")),
        ];
        for (n, r, c) in [(16, 4, 4), (25, 5, 5), (36, 6, 6), (49, 7, 7)] {
            let g = Geometry::boxed(n, r, c).unwrap();
            let mut givens = vec![0u16; n * n];
            for (i, v) in givens.iter_mut().enumerate().step_by(7) {
                *v = (i % n) as u16 + 1;
            }
            cases.push(Puzzle::new(std::sync::Arc::new(g), givens).unwrap());
        }
        for first in [Some(&four), Some(&cases[3]), None] {
            let fields = DatasetFields::new("exp, one", "d\"q", first);
            for p in &cases {
                let mut fast = b"x,".to_vec();
                fields.write(&mut fast, 12, p);
                let general = puzzle_prefix("exp, one", "d\"q", 12, p, &puzzle_text(p));
                assert_eq!(
                    String::from_utf8(fast).unwrap(),
                    format!("x,{general}"),
                    "{}",
                    p.geometry().n()
                );
            }
        }
    }

    /// The runner's fast rows read back as the records `Record::new` makes.
    #[test]
    fn fast_rows_equal_serde_records() {
        let p = puzzle("1.3.341.2.4.4.21");
        let clash = puzzle("11..............");
        let jigsaw = puzzle(include_str!("../../data/examples/jigsaw-9x9.txt"));
        let six = puzzle(include_str!("../../data/examples/6x6.txt"));
        assert!(jigsaw.geometry().box_shape().is_none());
        let limits = Limits {
            time_limit: Some(std::time::Duration::from_millis(1500)),
            node_limit: Some(77),
            ..Limits::solutions(2)
        };
        for (spec, puzzle) in [
            ("human", &p),
            ("sat:backend=batsat,encoding=minimal", &p),
            ("dlx", &clash),
            ("bnb:order=lifo", &p),
            ("dlx", &jigsaw),
            ("human", &six),
        ] {
            let spec: EngineSpec = spec.parse().unwrap();
            let mut outcome = engines::run(spec.make().unwrap().as_mut(), puzzle, &limits);
            outcome.note = Some("a note, with \"quotes\"\nand a line break".into());
            outcome.stats.bump("x", 3);
            let text = puzzle_text(puzzle);
            let key = RunKey {
                experiment: "exp, one",
                dataset: "d",
                puzzle_index: 4,
                config: "my \"config\"",
                spec: Some(&spec),
                repetition: 2,
                shard: "1/3",
                job: 99,
            };
            let want = Record::new(&key, puzzle, &text, &limits, &outcome);
            let mut bytes = COLUMNS.join(",").into_bytes();
            bytes.push(b'\n');
            let parts = RowParts {
                dataset: &DatasetFields::new("exp, one", "d", None),
                puzzle_index: 4,
                puzzle,
                config_prefix: &config_prefix("my \"config\"", &spec),
                repetition: 2,
                config_suffix: &config_suffix(&limits, "1/3"),
                search_tree: engines::find(&spec.name).unwrap().search_tree,
                job: 99,
            };
            write_row(&mut bytes, &parts, &outcome);
            let mut reader = csv::Reader::from_reader(bytes.as_slice());
            let got: Vec<Record> = reader.deserialize().map(Result::unwrap).collect();
            assert_eq!(got.len(), 1);
            let mut got = got.into_iter().next().unwrap();
            for (a, b) in [
                (got.build_s, want.build_s),
                (got.solve_s, want.solve_s),
                (got.cpu_s, want.cpu_s),
                (got.wall_s, want.wall_s),
            ] {
                assert!((a - b).abs() <= 1e-12 * b.max(1.0), "{a} vs {b}");
            }
            (got.build_s, got.solve_s, got.cpu_s, got.wall_s) =
                (want.build_s, want.solve_s, want.cpu_s, want.wall_s);
            assert_eq!(got, want);
        }
    }

    #[test]
    fn durations_are_written_exactly() {
        use std::time::Duration;
        for (d, want) in [
            (Duration::ZERO, "0.000000000,"),
            (Duration::new(0, 23_364), "0.000023364,"),
            (Duration::new(12, 345), "12.000000345,"),
            (Duration::new(7, 999_999_999), "7.999999999,"),
            (
                Duration::new(u64::MAX, 100_000_000),
                "18446744073709551615.100000000,",
            ),
        ] {
            let mut out = Vec::new();
            secs(&mut out, d);
            assert_eq!(String::from_utf8(out).unwrap(), want);
            assert_eq!(format!("{}.{:09},", d.as_secs(), d.subsec_nanos()), want);
        }
    }
}
