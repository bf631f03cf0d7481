//! Experiment files: what `sudolab run` reads. An experiment is a TOML file naming puzzle
//! files (datasets), engine configurations, limits and repetitions; the runner expands it into
//! jobs (see [`super::jobs`]).
//!
//! ```toml
//! name = "quick"                 # required: the `experiment` column and the default output name
//! question = "Which engine ..?"  # optional: what the study asks, one sentence (report, sidecar)
//! description = "..."            # optional: how it asks it (report, sidecar)
//! output = "results/quick.csv.gz" # default results/<name>.csv; `--out` overrides; .gz = gzip
//! max_solutions = 2              # default 2 (1 = first solution, 2 = prove uniqueness, 0 = all)
//! repetitions = 1                # default 1: runs of each (puzzle, configuration)
//! seed = 7                       # optional: run the jobs in a shuffled order (default: file order)
//! threads = 2                    # default: all cores; `--threads` overrides
//!
//! [limits]                       # per run; all optional
//! time = 1.0                     # seconds of wall time (engine clock + watchdog)
//! nodes = 1_000_000              # engine nodes
//! live = 4_000_000               # live nodes of breadth-first search (bnb); default 4,000,000
//!
//! [[datasets]]
//! path = "data/pe96.txt"         # relative to the current directory
//! name = "pe96"                  # default: the file stem
//! format = "grid"                # optional, as --format: line | grid | jigsaw
//! box = "3x3"                    # optional, as --box
//! alphabet = "123456789"         # optional, as --alphabet
//! diagonals = false              # optional, as --diagonals
//! windoku = false                # optional, as --windoku
//! first = 100                    # optional: only the first K puzzles of the file
//!
//! [[engines]]
//! engine = "sat"                 # a registered engine, or: spec = "sat:encoding=minimal"
//! label = "sat-minimal"          # default: the spec string, e.g. `sat:encoding=minimal`
//! options = { encoding = "minimal" }
//! # shorthand for options: encoding, amo, backend, givens, order, dedup at top level
//! limits = { time = 0.2 }        # optional: overrides of [limits] for this configuration
//!
//! [[charts]]                     # optional: charts drawn after the run (see `crate::plot`)
//! kind = "cactus"
//! ```
//!
//! Every mistake is an error before any job runs, naming the file, the key path and, when
//! TOML knows it, the line and column: `x.toml:12:1: engines[2].optons: unknown field ...`.
//! Unknown keys are errors (a typo must not silently fall back to a default); each engine
//! configuration is made once so that a bad option fails here; labels and dataset names must
//! be unique, since they identify rows; each `[[charts]]` entry is checked against the
//! metrics of its kind and the file's labels and dataset names (`x.toml:30:5: charts[1].x: no
//! configuration ...`), not only when it is drawn after the last job.
//!
//! The file's fingerprint is the FNV-1a hash of its text ([`crate::records::record::fnv1a`]): `--resume`
//! and `merge` refuse to combine rows of different experiment texts.

use crate::engines::{Engine, EngineError, EngineSpec, Limits, DEFAULT_MAX_LIVE};
use crate::plot::ChartSpec;
use crate::puzzle::{Alphabet, Format, ReadOptions};
use crate::records::record::fnv1a;
use serde::{Deserialize, Deserializer, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Makes an engine from a configuration. The runner takes one so that tests can inject
/// engines that misbehave (ignore the clock, panic) without registering them.
pub type EngineFactory = dyn Fn(&EngineSpec) -> Result<Box<dyn Engine>, EngineError> + Send + Sync;

/// The factory of registered engines.
pub fn registered_engine(spec: &EngineSpec) -> Result<Box<dyn Engine>, EngineError> {
    spec.make()
}

/// A parsed and validated experiment file.
#[derive(Clone, Debug, Serialize)]
pub struct Experiment {
    /// The file as given on the command line.
    pub path: PathBuf,
    #[serde(skip)]
    pub text: String,
    /// FNV-1a hash of the file's text, as 16 hex digits.
    pub fingerprint: String,
    pub name: String,
    /// What the study asks, in one sentence: the report shows it under its title.
    pub question: Option<String>,
    /// How the study asks it (data, configurations, limits), shown under the question.
    pub description: Option<String>,
    pub output: PathBuf,
    pub max_solutions: u64,
    pub repetitions: u64,
    pub seed: Option<u64>,
    pub threads: Option<usize>,
    pub limits: LimitsConfig,
    pub datasets: Vec<DatasetConfig>,
    pub engines: Vec<EngineConfig>,
    #[serde(skip)]
    pub charts: Vec<ChartSpec>,
}

/// Limits of one run; `None` = no limit (for `live`: the engine default).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LimitsConfig {
    #[serde(default, deserialize_with = "seconds")]
    pub time: Option<f64>,
    #[serde(default, deserialize_with = "positive")]
    pub nodes: Option<u64>,
    #[serde(default, deserialize_with = "positive")]
    pub live: Option<u64>,
}

impl LimitsConfig {
    /// `self` with the keys `over` sets replaced.
    fn overridden_by(self, over: Option<LimitsConfig>) -> LimitsConfig {
        let Some(o) = over else { return self };
        LimitsConfig {
            time: o.time.or(self.time),
            nodes: o.nodes.or(self.nodes),
            live: o.live.or(self.live),
        }
    }
}

/// One puzzle file.
#[derive(Clone, Debug, Serialize)]
pub struct DatasetConfig {
    pub path: PathBuf,
    pub name: String,
    pub format: Option<FormatKey>,
    #[serde(rename = "box")]
    pub box_shape: Option<String>,
    pub alphabet: Option<String>,
    pub diagonals: bool,
    pub windoku: bool,
    pub first: Option<u64>,
    #[serde(skip)]
    pub read_options: ReadOptions,
}

/// An engine configuration with its effective limits.
#[derive(Clone, Debug, Serialize)]
pub struct EngineConfig {
    #[serde(serialize_with = "display")]
    pub spec: EngineSpec,
    pub label: String,
    pub limits: LimitsConfig,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FormatKey {
    Line,
    Grid,
    Jigsaw,
}

impl Experiment {
    /// The [`Limits`] of a run of configuration `config`.
    pub fn limits(&self, config: usize) -> Limits {
        let l = &self.engines[config].limits;
        Limits {
            max_solutions: self.max_solutions,
            node_limit: l.nodes,
            time_limit: l.time.map(Duration::from_secs_f64),
            max_live: Some(l.live.unwrap_or(DEFAULT_MAX_LIVE)),
            ..Limits::default()
        }
    }

    /// The file as TOML turned into JSON (for the sidecar: the config exactly as written).
    pub fn source_json(&self) -> serde_json::Value {
        toml::from_str::<toml::Value>(&self.text)
            .ok()
            .and_then(|v| serde_json::to_value(v).ok())
            .unwrap_or(serde_json::Value::Null)
    }
}

// ---- the file as written --------------------------------------------------------------

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    name: String,
    question: Option<String>,
    description: Option<String>,
    output: Option<String>,
    max_solutions: Option<u64>,
    #[serde(default, deserialize_with = "repetitions")]
    repetitions: Option<u64>,
    seed: Option<u64>,
    #[serde(default, deserialize_with = "positive_usize")]
    threads: Option<usize>,
    limits: Option<LimitsConfig>,
    #[serde(default)]
    datasets: Vec<RawDataset>,
    #[serde(default)]
    engines: Vec<RawEngine>,
    #[serde(default)]
    charts: Vec<ChartSpec>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDataset {
    path: String,
    name: Option<String>,
    format: Option<FormatKey>,
    #[serde(rename = "box", default, deserialize_with = "box_shape")]
    box_shape: Option<(usize, usize)>,
    alphabet: Option<String>,
    #[serde(default)]
    diagonals: bool,
    #[serde(default)]
    windoku: bool,
    #[serde(default, deserialize_with = "positive")]
    first: Option<u64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEngine {
    engine: Option<String>,
    spec: Option<String>,
    label: Option<String>,
    #[serde(default)]
    options: BTreeMap<String, OptionValue>,
    encoding: Option<OptionValue>,
    amo: Option<OptionValue>,
    backend: Option<OptionValue>,
    givens: Option<OptionValue>,
    order: Option<OptionValue>,
    dedup: Option<OptionValue>,
    limits: Option<LimitsConfig>,
}

/// An engine option's value: written as a string, number or boolean in TOML, passed to the
/// engine as text (`dedup = true` and `dedup = "true"` mean the same).
#[derive(Deserialize)]
#[serde(untagged)]
enum OptionValue {
    Text(String),
    Int(i64),
    Float(f64),
    Bool(bool),
}

impl OptionValue {
    fn text(&self) -> String {
        match self {
            OptionValue::Text(s) => s.clone(),
            OptionValue::Int(i) => i.to_string(),
            OptionValue::Float(f) => f.to_string(),
            OptionValue::Bool(b) => b.to_string(),
        }
    }
}

fn seconds<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    struct Secs;
    impl serde::de::Visitor<'_> for Secs {
        type Value = f64;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a positive number of seconds")
        }
        fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<f64, E> {
            Ok(v as f64)
        }
        fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<f64, E> {
            Ok(v as f64)
        }
        fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<f64, E> {
            Ok(v)
        }
    }
    let v = d.deserialize_any(Secs)?;
    const EXPECTED: &str = "expected a positive number of seconds of at most 1e9";
    let why = if !v.is_finite() {
        "which is not finite (leave the key out for no limit)"
    } else if v <= 0.0 {
        "which is not above 0"
    } else if v > 1e9 {
        "which is above 1e9"
    } else {
        return Ok(Some(v));
    };
    Err(serde::de::Error::custom(format!(
        "{EXPECTED}, found {v}, {why}"
    )))
}

fn positive<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    let v = u64::deserialize(d)?;
    if v == 0 {
        return Err(serde::de::Error::custom("must be at least 1"));
    }
    Ok(Some(v))
}

/// The most `repetitions` an experiment may ask for. Repetitions measure the spread of a
/// run's time; a few are enough, and the bound keeps the job count far from overflow.
pub const MAX_REPETITIONS: u64 = 10_000;

fn repetitions<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    let v = u64::deserialize(d)?;
    if v == 0 || v > MAX_REPETITIONS {
        return Err(serde::de::Error::custom(format!(
            "expected a whole number from 1 to {MAX_REPETITIONS}, found {v}"
        )));
    }
    Ok(Some(v))
}

fn positive_usize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<usize>, D::Error> {
    Ok(positive(d)?.map(|v| v as usize))
}

fn box_shape<'de, D: Deserializer<'de>>(d: D) -> Result<Option<(usize, usize)>, D::Error> {
    let s = String::deserialize(d)?;
    crate::puzzle::parse_box(&s)
        .map(Some)
        .map_err(serde::de::Error::custom)
}

fn display<S: serde::Serializer, T: std::fmt::Display>(v: &T, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(v)
}

/// A bad experiment file. The message starts with the file name.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct ConfigError(pub String);

/// Reads and validates an experiment file, making each engine configuration once with
/// `factory` so that bad options fail here. Dataset files are not read here (see
/// [`super::runner`]); only their existence is checked.
pub fn load(path: &Path, factory: &EngineFactory) -> Result<Experiment, ConfigError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| ConfigError(format!("{}: cannot read: {e}", path.display())))?;
    parse(&text, path, factory)
}

/// [`load`] from text; `path` names the file in errors.
pub fn parse(text: &str, path: &Path, factory: &EngineFactory) -> Result<Experiment, ConfigError> {
    let file = path.display().to_string();
    // Each error found after the typed read names where its key is written.
    let err_at = |at: &str, key: &str, msg: String| {
        ConfigError(format!("{file}{}: {key}: {msg}", key_position(text, at)))
    };
    let err = |key: &str, msg: String| err_at(key, key, msg);
    let de = toml::Deserializer::new(text);
    let raw: RawConfig = serde_path_to_error::deserialize(de).map_err(|e| {
        let key = e.path().to_string();
        let inner = e.inner();
        let at = inner
            .span()
            .map(|s| {
                let (line, col) = line_col(text, s.start);
                format!(":{line}:{col}")
            })
            .unwrap_or_default();
        let msg = inner.message().trim_end().to_string();
        if key == "." || key.is_empty() {
            ConfigError(format!("{file}{at}: {msg}"))
        } else {
            ConfigError(format!("{file}{at}: {key}: {msg}"))
        }
    })?;

    if raw.name.trim().is_empty() || raw.name.contains(['/', '\\']) {
        return Err(err(
            "name",
            format!(
                "{:?} must be a non-empty name without slashes (it names the output file)",
                raw.name
            ),
        ));
    }
    if raw.datasets.is_empty() {
        return Err(err(
            "datasets",
            "no [[datasets]]: name at least one puzzle file".into(),
        ));
    }
    if raw.engines.is_empty() {
        return Err(err(
            "engines",
            "no [[engines]]: name at least one engine configuration".into(),
        ));
    }
    let limits = raw.limits.unwrap_or_default();

    let mut datasets = Vec::new();
    let mut names = BTreeSet::new();
    for (i, d) in raw.datasets.into_iter().enumerate() {
        let key = format!("datasets[{i}]");
        let p = PathBuf::from(&d.path);
        if !p.is_file() {
            let what = if p.is_dir() {
                "a directory, expected a puzzle file"
            } else {
                "no such file"
            };
            return Err(err(&format!("{key}.path"), format!("{}: {what}", d.path)));
        }
        let name = match d.name {
            Some(n) => n,
            None => p
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| d.path.clone()),
        };
        if !names.insert(name.clone()) {
            return Err(err(
                &format!("{key}.name"),
                format!("{name:?} names two datasets; give one a different name"),
            ));
        }
        let alphabet = d
            .alphabet
            .as_deref()
            .map(|a| Alphabet::new(a).map_err(|e| err(&format!("{key}.alphabet"), e.to_string())))
            .transpose()?;
        let read_options = ReadOptions {
            format: d.format.map(|f| match f {
                FormatKey::Line => Format::Line,
                FormatKey::Grid => Format::Grid,
                FormatKey::Jigsaw => Format::Jigsaw,
            }),
            box_shape: d.box_shape,
            alphabet,
            diagonals: d.diagonals,
            windoku: d.windoku,
        };
        datasets.push(DatasetConfig {
            path: p,
            name,
            format: d.format,
            box_shape: d.box_shape.map(|(r, c)| format!("{r}x{c}")),
            alphabet: d.alphabet,
            diagonals: d.diagonals,
            windoku: d.windoku,
            first: d.first,
            read_options,
        });
    }

    let mut engines = Vec::new();
    let mut labels = BTreeSet::new();
    for (i, e) in raw.engines.into_iter().enumerate() {
        let key = format!("engines[{i}]");
        let mut spec = match (&e.engine, &e.spec) {
            (Some(name), None) => EngineSpec::new(name),
            (None, Some(s)) => s
                .parse::<EngineSpec>()
                .map_err(|m| err(&format!("{key}.spec"), m.to_string()))?,
            (Some(_), Some(_)) => {
                return Err(err(
                    &key,
                    "give either engine or spec, not both".to_string(),
                ))
            }
            (None, None) => {
                return Err(err(
                    &key,
                    "missing engine (a registered name) or spec (NAME:KEY=VALUE,...)".to_string(),
                ))
            }
        };
        let shorthand = [
            ("encoding", &e.encoding),
            ("amo", &e.amo),
            ("backend", &e.backend),
            ("givens", &e.givens),
            ("order", &e.order),
            ("dedup", &e.dedup),
        ];
        let mut options: Vec<(String, String)> = e
            .options
            .iter()
            .map(|(k, v)| (k.clone(), v.text()))
            .collect();
        options.extend(
            shorthand
                .iter()
                .filter_map(|(k, v)| v.as_ref().map(|v| (k.to_string(), v.text()))),
        );
        for (k, v) in options {
            if let Some(old) = spec.options.get(&k) {
                return Err(err(
                    &format!("{key}.{k}"),
                    format!(
                        "expected each option once (in spec, options or the shorthand), found \
                         {k} twice ({old:?} and {v:?})"
                    ),
                ));
            }
            spec.options = std::mem::take(&mut spec.options).with(&k, &v);
        }
        // Point at the engine's name (or spec), which the option names belong to.
        let named = if e.spec.is_some() { "spec" } else { "engine" };
        factory(&spec).map_err(|m| err_at(&format!("{key}.{named}"), &key, m.to_string()))?;
        // A label not written is the spec's: point at the engine then.
        let label_at = match e.label {
            Some(_) => format!("{key}.label"),
            None => format!("{key}.{named}"),
        };
        let label = e.label.unwrap_or_else(|| spec.to_string());
        if label.trim().is_empty() {
            return Err(err(&format!("{key}.label"), "empty label".to_string()));
        }
        if !labels.insert(label.clone()) {
            return Err(err_at(
                &label_at,
                &format!("{key}.label"),
                format!("{label:?} labels two configurations; give one a different label"),
            ));
        }
        engines.push(EngineConfig {
            spec,
            label,
            limits: limits.overridden_by(e.limits),
        });
    }

    // The charts are checked here, with the rest of the file, so that a bad one stops the run
    // before its first job (drawing happens after the last).
    let labels: Vec<&str> = engines.iter().map(|e| e.label.as_str()).collect();
    let names: Vec<&str> = datasets.iter().map(|d| d.name.as_str()).collect();
    for (i, chart) in raw.charts.iter().enumerate() {
        if let Err(e) = chart.check(&labels, &names) {
            let at = chart_key_offset(text, i, e.key)
                .map(|offset| {
                    let (line, col) = line_col(text, offset);
                    format!(":{line}:{col}")
                })
                .unwrap_or_default();
            return Err(ConfigError(format!(
                "{file}{at}: charts[{i}].{}: {}",
                e.key, e.message
            )));
        }
    }

    let output = raw
        .output
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(format!("results/{}.csv", raw.name)));
    Ok(Experiment {
        path: path.to_path_buf(),
        text: text.to_string(),
        fingerprint: format!("{:016x}", fnv1a(text.as_bytes())),
        name: raw.name,
        question: raw.question.filter(|q| !q.trim().is_empty()),
        description: raw.description.filter(|d| !d.trim().is_empty()),
        output,
        max_solutions: raw.max_solutions.unwrap_or(2),
        repetitions: raw.repetitions.unwrap_or(1),
        seed: raw.seed,
        threads: raw.threads,
        limits,
        datasets,
        engines,
        charts: raw.charts,
    })
}

/// Where the value of `key` of the `chart`-th `[[charts]]` table starts in `text` (its
/// `kind` when the key is not written, e.g. a default found wanting). The typed read has no
/// spans for keys that parsed well, so the file is read again, each value with its span.
fn chart_key_offset(text: &str, chart: usize, key: &str) -> Option<usize> {
    #[derive(Deserialize)]
    struct Charts {
        #[serde(default)]
        charts: Vec<BTreeMap<String, toml::Spanned<toml::Value>>>,
    }
    let charts: Charts = toml::from_str(text).ok()?;
    let table = charts.charts.get(chart)?;
    table
        .get(key)
        .or_else(|| table.get("kind"))
        .map(|v| v.span().start)
}

/// The TOML text as a tree of values, each with its span: where a key is written, for
/// errors found after the typed read (which keeps no span for keys that parsed well).
enum Tree {
    Table(BTreeMap<String, toml::Spanned<Tree>>),
    Array(Vec<toml::Spanned<Tree>>),
    Leaf,
}

impl<'de> Deserialize<'de> for Tree {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Tree, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Tree;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a TOML value")
            }
            fn visit_bool<E>(self, _: bool) -> Result<Tree, E> {
                Ok(Tree::Leaf)
            }
            fn visit_i64<E>(self, _: i64) -> Result<Tree, E> {
                Ok(Tree::Leaf)
            }
            fn visit_u64<E>(self, _: u64) -> Result<Tree, E> {
                Ok(Tree::Leaf)
            }
            fn visit_f64<E>(self, _: f64) -> Result<Tree, E> {
                Ok(Tree::Leaf)
            }
            fn visit_str<E>(self, _: &str) -> Result<Tree, E> {
                Ok(Tree::Leaf)
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut a: A) -> Result<Tree, A::Error> {
                let mut v = Vec::new();
                while let Some(e) = a.next_element()? {
                    v.push(e);
                }
                Ok(Tree::Array(v))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut a: A) -> Result<Tree, A::Error> {
                let mut m = BTreeMap::new();
                while let Some((k, v)) = a.next_entry()? {
                    m.insert(k, v);
                }
                Ok(Tree::Table(m))
            }
        }
        d.deserialize_any(V)
    }
}

/// `:LINE:COL` of where the value of `key` (a key path as errors name it, such as
/// `engines[2].label` or `repetitions`) is written in `text`; for a key that is not written
/// (a default found wanting), where its nearest written parent is; empty when not even that
/// is known.
pub fn key_position(text: &str, key: &str) -> String {
    let Ok(Tree::Table(mut table)) = toml::from_str::<Tree>(text) else {
        return String::new();
    };
    let mut at = None;
    for part in key.split('.') {
        let (name, index) = match part.split_once('[') {
            Some((name, i)) => (name, i.trim_end_matches(']').parse::<usize>().ok()),
            None => (part, None),
        };
        let Some(mut value) = table.remove(name) else {
            break;
        };
        if let Some(i) = index {
            let Tree::Array(items) = value.get_mut() else {
                break;
            };
            if i >= items.len() {
                break;
            }
            value = items.swap_remove(i);
        }
        at = Some(value.span().start);
        match value.into_inner() {
            Tree::Table(t) => table = t,
            _ => break,
        }
    }
    at.map(|offset| {
        let (line, col) = line_col(text, offset);
        format!(":{line}:{col}")
    })
    .unwrap_or_default()
}

/// 1-based line and column (in characters) of byte `offset` of `text`.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = &text[..text.floor_char_boundary_compat(offset)];
    let line = before.matches('\n').count() + 1;
    let col = before
        .rsplit_once('\n')
        .map_or(before, |(_, l)| l)
        .chars()
        .count()
        + 1;
    (line, col)
}

/// `str::floor_char_boundary` is unstable on our MSRV.
trait FloorCharBoundary {
    fn floor_char_boundary_compat(&self, i: usize) -> usize;
}

impl FloorCharBoundary for str {
    fn floor_char_boundary_compat(&self, mut i: usize) -> usize {
        while i > 0 && !self.is_char_boundary(i) {
            i -= 1;
        }
        i
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_text(text: &str) -> Result<Experiment, ConfigError> {
        parse(text, Path::new("x.toml"), &registered_engine)
    }

    const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/pe96.txt");

    fn minimal(extra_engine: &str) -> String {
        format!(
            "name = \"t\"\n[[datasets]]\npath = \"{DATA}\"\n[[engines]]\nengine = \"human\"\n{extra_engine}"
        )
    }

    #[test]
    fn defaults_and_shorthand() {
        let text = format!(
            "{}\n[[engines]]\nengine = \"sat\"\nencoding = \"minimal\"\noptions = {{ amo = \"sequential\" }}\nlimits = {{ time = 0.5 }}\n[limits]\nnodes = 10\n",
            minimal("")
        );
        let e = parse_text(&text).unwrap();
        assert_eq!(e.output, PathBuf::from("results/t.csv"));
        assert_eq!((e.max_solutions, e.repetitions), (2, 1));
        assert_eq!(e.datasets[0].name, "pe96");
        assert_eq!(e.engines[1].label, "sat:amo=sequential,encoding=minimal");
        assert_eq!(e.engines[1].limits.time, Some(0.5));
        assert_eq!(e.engines[1].limits.nodes, Some(10));
        assert_eq!(e.engines[0].limits.time, None);
        let l = e.limits(1);
        assert_eq!(l.time_limit, Some(Duration::from_millis(500)));
        assert_eq!(l.node_limit, Some(10));
        assert_eq!(e.fingerprint, format!("{:016x}", fnv1a(text.as_bytes())));
    }

    #[test]
    fn unknown_key_is_named_with_its_path_and_line() {
        let text = minimal("optons = { encoding = \"minimal\" }\n");
        let e = parse_text(&text).unwrap_err().to_string();
        assert!(e.starts_with("x.toml:"), "{e}");
        assert!(
            e.contains("engines[0].optons") || e.contains("engines[0]"),
            "{e}"
        );
        assert!(e.contains("optons"), "{e}");
        assert!(e.contains(":6:"), "{e}");
    }

    #[test]
    fn bad_values_are_named() {
        // (the text before the minimal config, the key named, what the message says)
        let cases = [
            (
                "[limits]\ntime = -1\n",
                "limits.time",
                "which is not above 0",
            ),
            ("[limits]\ntime = \"fast\"\n", "limits.time", ""),
            (
                "[limits]\ntime = 1e10\n",
                "limits.time",
                "found 10000000000, which is above 1e9",
            ),
            (
                "[limits]\ntime = 0\n",
                "limits.time",
                "found 0, which is not above 0",
            ),
            ("repetitions = 0\n", "repetitions", ""),
            ("threads = 0\n", "threads", ""),
        ];
        for (extra, key, why) in cases {
            let text = format!("{extra}{}", minimal(""));
            let e = parse_text(&text).unwrap_err().to_string();
            assert!(
                e.starts_with("x.toml:") && e.contains(key) && e.contains(why),
                "{extra}: {e}"
            );
        }
        // (each at the line and column of its key: the engine's name, the path)
        let text = minimal("").replace("human", "humn");
        let e = parse_text(&text).unwrap_err().to_string();
        assert!(
            e.starts_with("x.toml:5:10: engines[0]: ") && e.contains("humn"),
            "{e}"
        );
        let e = parse_text(&minimal("order = \"sideways\"\n"))
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("x.toml:5:10: engines[0]: "), "{e}");
        let e = parse_text(&minimal("").replace("pe96.txt", "nope.txt"))
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("x.toml:3:8: datasets[0].path: ") && e.contains("nope.txt"),
            "{e}"
        );
        let text = format!(
            "{}[[datasets]]\npath = \"{DATA}\"\nbox = \"3by3\"\n",
            minimal("")
        );
        let e = parse_text(&text).unwrap_err().to_string();
        assert!(e.contains("datasets[1].box"), "{e}");
        // a directory is not "no such file"
        let dir = env!("CARGO_MANIFEST_DIR");
        let e = parse_text(&minimal("").replace(DATA, dir))
            .unwrap_err()
            .to_string();
        assert!(e.contains("a directory, expected a puzzle file"), "{e}");
    }

    #[test]
    fn duplicates_are_refused() {
        let text = format!("{}[[engines]]\nengine = \"human\"\n", minimal(""));
        let e = parse_text(&text).unwrap_err().to_string();
        assert!(e.contains("engines[1].label"), "{e}");
        let text = format!("{}[[datasets]]\npath = \"{DATA}\"\n", minimal(""));
        let e = parse_text(&text).unwrap_err().to_string();
        assert!(e.contains("datasets[1].name"), "{e}");
    }

    /// The committed experiments (their charts included) pass the checks made before a run.
    #[test]
    fn committed_experiments_load() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut n = 0;
        for entry in std::fs::read_dir(dir.join("experiments")).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "toml") {
                // Dataset paths are relative to the repository, the tests' directory.
                let e = load(&path, &registered_engine);
                assert!(e.is_ok(), "{}", e.unwrap_err());
                n += 1;
            }
        }
        assert!(n > 0);
    }

    /// A duplicate label names where it is written, or, left to its default, the spec or
    /// engine it comes from (the other errors found after the typed read are in
    /// `bad_values_are_named`).
    #[test]
    fn errors_after_the_typed_read_name_their_position() {
        let text = format!("{}[[engines]]\nspec = \"human\"\n", minimal(""));
        let e = parse_text(&text).unwrap_err().to_string();
        assert!(e.starts_with("x.toml:7:8: engines[1].label: "), "{e}");
        let text = format!(
            "{}[[engines]]\nengine = \"dlx\"\nlabel = \"human\"\n",
            minimal("")
        );
        let e = parse_text(&text).unwrap_err().to_string();
        assert!(e.starts_with("x.toml:8:9: engines[1].label: "), "{e}");
    }

    #[test]
    fn line_and_column() {
        assert_eq!(line_col("ab\ncd", 0), (1, 1));
        assert_eq!(line_col("ab\ncd", 4), (2, 2));
        assert_eq!(line_col("é\nx", 3), (2, 1));
    }
}
