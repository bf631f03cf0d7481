//! Engines: every way sudolab solves a puzzle, behind one trait.
//!
//! An engine takes a [`Puzzle`] and [`Limits`] and returns an [`Outcome`]: a [`Status`], the
//! solutions found (each checked against the houses before it is reported, see [`run`]) and
//! [`Stats`]. What `nodes` counts is defined per engine, in its module doc and in
//! [`EngineInfo::nodes`]; `guesses` and `backtracks` mean the same thing everywhere:
//!
//! - `guesses`: branch points with two or more alternatives (tdoku's metric);
//! - `backtracks`: dead ends, i.e. nodes at which the search finds no alternative at all (a
//!   cell with no digit allowed, a contradiction after propagation, an item with no option)
//!   and must go back. Failures of whole subtrees are not counted here; engines that track
//!   them report them as a named counter.
//!
//! Adding an engine = one module and one line in [`ENGINES`].
//!
//! # Example
//!
//! Make an engine from the registry by name and options (as `--engine` spells them), and
//! run it under limits: here, count up to two solutions to prove the answer unique.
//!
//! ```
//! use sudolab::engines::{self, EngineSpec, Limits, Status};
//! use sudolab::puzzle::{read_str, ReadOptions};
//!
//! let line = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
//! let (_, puzzles) = read_str(line, "example", &ReadOptions::default())?;
//! let puzzle = &puzzles[0].puzzle;
//! let spec: EngineSpec = "gac:branch=domwdeg".parse()?;
//! let mut engine = engines::make(&spec.name, &spec.options)?;
//! let limits = Limits { max_solutions: 2, ..Limits::default() };
//! let outcome = engines::run(engine.as_mut(), puzzle, &limits);
//! assert_eq!((outcome.status, outcome.count), (Status::Unique, 1));
//! assert!(puzzle.check_solution(&outcome.solutions[0]).is_ok());
//! println!("{} nodes", outcome.stats.nodes);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod backtrack;
pub mod binary;
pub mod bitmask;
pub mod bits;
pub mod bnb;
mod cage_rules;
mod candidates;
pub mod dlx;
mod error;
pub mod fast;
pub mod gac;
pub mod human;
pub mod sat;

pub use self::error::{EngineError, OptionError, SpecError, SpecErrorKind};
pub use crate::search::{Limits, Outcome, Search, Stats, Status, Stop, DEFAULT_MAX_LIVE};

use crate::puzzle::{Geometry, Grid, GridError, Puzzle};
use std::collections::BTreeMap;
use std::fmt;

/// A solver of puzzles. `&mut self` lets an engine keep work across puzzles of one geometry
/// (for example a matrix built once); an engine must give the same answers whatever it has
/// solved before.
pub trait Engine: Send {
    fn solve(&mut self, puzzle: &Puzzle, limits: &Limits) -> Outcome;

    /// Whether the engine enforces cages (killer sudoku). [`run`] answers `unsupported` for
    /// a puzzle with cages, before the engine builds anything, unless it does.
    fn supports_cages(&self) -> bool {
        false
    }

    /// Whether the engine answers puzzles on `g`. The default takes the rows, columns, boxes
    /// or regions of one grid and its diagonals; engines written from the house list alone
    /// also take windoku windows and combined layouts (samurai: void cells, shared boxes).
    /// [`run`] answers `unsupported` for the others before the engine builds anything.
    fn supports_geometry(&self, g: &Geometry) -> bool {
        !g.has_extra_houses()
    }
}

/// Options of an engine configuration (`order=lifo`, later `encoding=extended`, ...). Each
/// engine reads the keys it knows and rejects the others, so a typo is an error, not a
/// silently ignored knob.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EngineOptions(pub BTreeMap<String, String>);

impl EngineOptions {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn with(mut self, key: &str, value: &str) -> Self {
        self.0.insert(key.to_string(), value.to_string());
        self
    }

    pub fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key).map(String::as_str)
    }

    /// Error naming the first key that is not in `known`.
    pub fn allow_only(&self, engine: &str, known: &[&str]) -> Result<(), OptionError> {
        match self.0.keys().find(|k| !known.contains(&k.as_str())) {
            None => Ok(()),
            Some(k) => Err(OptionError::UnknownKey {
                engine: engine.to_string(),
                key: k.clone(),
                known: known.iter().map(|o| o.to_string()).collect(),
            }),
        }
    }
}

/// An engine configuration: a registered name plus options, written `name` or
/// `name:key=value,key=value` (e.g. `sat:encoding=minimal,amo=sequential`). Used by
/// `verify`, experiment files and CSV rows, so one string names one configuration everywhere.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EngineSpec {
    pub name: String,
    pub options: EngineOptions,
}

impl EngineSpec {
    pub fn new(name: &str) -> Self {
        EngineSpec {
            name: name.to_string(),
            options: EngineOptions::new(),
        }
    }

    pub fn with(mut self, key: &str, value: &str) -> Self {
        self.options = self.options.with(key, value);
        self
    }

    /// Makes the engine this spec names.
    pub fn make(&self) -> Result<Box<dyn Engine>, EngineError> {
        make(&self.name, &self.options)
    }
}

impl fmt::Display for EngineSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)?;
        for (i, (k, v)) in self.options.0.iter().enumerate() {
            write!(f, "{}{k}={v}", if i == 0 { ':' } else { ',' })?;
        }
        Ok(())
    }
}

impl std::str::FromStr for EngineSpec {
    type Err = SpecError;

    fn from_str(s: &str) -> Result<Self, SpecError> {
        let fail = |kind| SpecError {
            spec: s.to_string(),
            kind,
        };
        let (name, rest) = s.split_once(':').unwrap_or((s, ""));
        let name = name.trim();
        if name.is_empty() {
            return Err(fail(SpecErrorKind::NoName));
        }
        let mut spec = EngineSpec::new(name);
        for kv in rest.split(',').map(str::trim).filter(|kv| !kv.is_empty()) {
            let (k, v) = kv
                .split_once('=')
                .ok_or_else(|| fail(SpecErrorKind::NotKeyValue(kv.to_string())))?;
            let (k, v) = (k.trim(), v.trim());
            if let Some(old) = spec.options.get(k).filter(|&old| old != v) {
                return Err(fail(SpecErrorKind::TwoValues {
                    key: k.to_string(),
                    first: old.to_string(),
                    second: v.to_string(),
                }));
            }
            spec = spec.with(k, v);
        }
        Ok(spec)
    }
}

/// A registry entry: what the engine is, where it comes from, what it counts, how to make it.
pub struct EngineInfo {
    pub name: &'static str,
    /// One-line description.
    pub summary: &'static str,
    /// The source text the engine follows.
    pub source: &'static str,
    /// What `nodes` counts for this engine.
    pub nodes: &'static str,
    /// What the other counters (guesses, backtracks, engine-specific ones) count.
    pub counters: &'static str,
    /// The grid sides the engine accepts.
    pub sides: Sides,
    /// Whether `nodes`, `guesses` and `backtracks` describe a search tree of this engine. A SAT
    /// solver has none (its work is `decisions`, `conflicts` and `propagations`), so records
    /// leave those three cells empty rather than writing a meaningless 0.
    pub search_tree: bool,
    /// Variants and options, for `sudolab engines`.
    pub capabilities: &'static str,
    pub make: fn(&EngineOptions) -> Result<Box<dyn Engine>, EngineError>,
    /// Option sets besides the default that `verify --engines all` also runs (every encoding,
    /// order, backend ... that must agree with the rest).
    pub variants: fn() -> Vec<EngineOptions>,
}

/// The grid sides an engine accepts (other grids are answered `unsupported`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sides {
    /// Any side the puzzle model accepts.
    Any,
    /// Sides up to this one.
    UpTo(usize),
    /// This side only.
    Only(usize),
}

impl fmt::Display for Sides {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Sides::Any => write!(f, "any size the model accepts"),
            Sides::UpTo(n) => write!(f, "up to {n}x{n}"),
            Sides::Only(n) => write!(f, "{n}x{n} only"),
        }
    }
}

/// For [`EngineInfo::variants`]: the engine has no variant besides its default.
pub fn no_variants() -> Vec<EngineOptions> {
    Vec::new()
}

/// Every configuration `verify --engines all` runs: each engine with its default options,
/// then each of its variants.
pub fn all_configurations() -> Vec<EngineSpec> {
    let mut specs = Vec::new();
    for info in ENGINES {
        specs.push(EngineSpec::new(info.name));
        for options in (info.variants)() {
            specs.push(EngineSpec {
                name: info.name.to_string(),
                options,
            });
        }
    }
    specs
}

/// Every engine, in the order `sudolab engines` lists them.
pub static ENGINES: &[&EngineInfo] = &[
    &backtrack::INFO,
    &bnb::INFO,
    &bitmask::INFO,
    &human::INFO,
    &binary::INFO,
    &sat::INFO,
    &dlx::INFO,
    &fast::INFO,
    &gac::INFO,
];

/// Looks an engine up by name.
pub fn find(name: &str) -> Option<&'static EngineInfo> {
    ENGINES.iter().copied().find(|e| e.name == name)
}

/// Makes the engine `name` with `options`.
pub fn make(name: &str, options: &EngineOptions) -> Result<Box<dyn Engine>, EngineError> {
    let info = find(name).ok_or_else(|| {
        let names: Vec<_> = ENGINES.iter().map(|e| e.name).collect();
        EngineError::UnknownEngine {
            name: name.to_string(),
            known: names.join(", "),
        }
    })?;
    (info.make)(options)
}

/// Runs `engine` on `puzzle` and checks every solution it reports against the houses, the
/// cages and the givens. A solution that fails the check turns the outcome into [`Status::Error`] with the
/// reason in the note: a failed check is a bug report, not a result.
pub fn run(engine: &mut dyn Engine, puzzle: &Puzzle, limits: &Limits) -> Outcome {
    if puzzle.has_cages() && !engine.supports_cages() {
        return Outcome::unsupported(
            "this engine does not enforce cages (killer sudoku); human, dlx, sat, gac, backtrack, \
             binary, bnb and bitmask do",
        );
    }
    if !engine.supports_geometry(puzzle.geometry()) {
        return Outcome::unsupported(format!(
            "this engine does not take the {} layout (windoku windows or combined grids); \
             human, binary, dlx, sat and gac do",
            puzzle.geometry().variant()
        ));
    }
    let mut outcome = engine.solve(puzzle, limits);
    if let Some(err) = first_bad_solution(puzzle, &outcome.solutions) {
        outcome.status = Status::Error;
        outcome.note = Some(format!("engine returned an invalid solution: {err}"));
    }
    outcome
}

fn first_bad_solution(puzzle: &Puzzle, solutions: &[Grid]) -> Option<GridError> {
    solutions
        .iter()
        .find_map(|s| puzzle.check_solution(s).err())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_round_trip() {
        let spec: EngineSpec = "sat:encoding=minimal, amo=sequential".parse().unwrap();
        assert_eq!(spec.name, "sat");
        assert_eq!(spec.options.get("amo"), Some("sequential"));
        assert_eq!(spec.to_string(), "sat:amo=sequential,encoding=minimal");
        assert_eq!(spec.to_string().parse::<EngineSpec>().unwrap(), spec);
        assert_eq!("human".parse::<EngineSpec>().unwrap().to_string(), "human");
        assert!("sat:amo".parse::<EngineSpec>().is_err());
        assert!(":x=1".parse::<EngineSpec>().is_err());
        // The same key twice: the same value is harmless, two values are an error.
        assert!("sat:amo=sequential,amo=sequential"
            .parse::<EngineSpec>()
            .is_ok());
        let e = "sat:amo=sequential,amo=pairwise"
            .parse::<EngineSpec>()
            .unwrap_err()
            .to_string();
        assert!(e.contains("one value for option amo"), "{e}");
    }

    /// What `sudolab engines` says of each engine's sizes is what the engine does: it answers
    /// every side it claims (up to a node limit) and `unsupported` on the sides it excludes.
    #[test]
    fn each_engine_answers_exactly_the_sides_it_declares() {
        use crate::puzzle::{Geometry, Puzzle};
        use std::sync::Arc;
        let limits = Limits {
            max_solutions: 1,
            node_limit: Some(2_000),
            keep_solutions: 0,
            ..Limits::default()
        };
        // (side, box rows, box columns)
        let mut grids = vec![(4, 2, 2), (6, 2, 3), (9, 3, 3), (12, 3, 4)];
        for info in ENGINES {
            let extra = match info.sides {
                Sides::UpTo(n) => Some(n + 4),
                _ => None,
            };
            grids.extend(extra.map(|n| (n, 2, n / 2)));
            for &(n, rows, cols) in &grids {
                let puzzle = Puzzle::empty(Arc::new(Geometry::boxed(n, rows, cols).unwrap()));
                let mut engine = EngineSpec::new(info.name).make().unwrap();
                let status = run(engine.as_mut(), &puzzle, &limits).status;
                let declared = match info.sides {
                    Sides::Any => true,
                    Sides::UpTo(max) => n <= max,
                    Sides::Only(side) => n == side,
                };
                assert_eq!(
                    status != Status::Unsupported,
                    declared,
                    "{} ({}) on an empty {n}x{n}: {status}",
                    info.name,
                    info.sides
                );
            }
            grids.truncate(4);
        }
        assert_eq!(Sides::Only(9).to_string(), "9x9 only");
        assert_eq!(Sides::UpTo(128).to_string(), "up to 128x128");
    }

    #[test]
    fn options_reject_unknown_keys() {
        let o = EngineOptions::new().with("order", "fifo");
        assert!(o.allow_only("bnb", &["order"]).is_ok());
        assert!(o.allow_only("backtrack", &[]).is_err());
    }
}
