//! Jigsaw sudoku from pieces: fit `N` pieces (polyominoes of `N` cells, some cells holding
//! givens) together to tile the `N x N` board, then solve each tiling as a jigsaw sudoku whose
//! regions are the pieces (project issue 5, "Pieces to board").
//!
//! Source: D. de la Osa Fernández, "Sudoku de nominoes" (student paper, Jornada Científica
//! Estudiantil, MATCOM, Universidad de La Habana): given the nine "nominoes" of a 9x9 jigsaw
//! sudoku, place them by backtracking (piece `i` at every valid position of the board that
//! holds pieces `1..i-1`), then solve the sudoku that results. Its method is
//! [`backtrack`]; [`cover`] states the same tiling problem as exact cover for the project's
//! dancing-links engine (Knuth, "Dancing Links", 2000), and [`jigsaw`] solves each tiling with
//! any sudolab engine.
//!
//! # The pieces format
//!
//! ```text
//! # the four pieces of a 4x4 jigsaw (data/pieces/jigsaw-4x4.txt); '#' starts a comment
//! size 4
//!
//! xxx
//! x
//!
//! ..2
//! x3x
//!
//! x4x
//! 3
//!
//! ..x
//! xxx
//! ```
//!
//! - Each piece is drawn as a small grid of characters: `.` is outside the piece; inside it,
//!   `x` (or `0`) is an empty cell and a digit symbol is a given: `1`-`9`, then `A`-`Z` for
//!   10-35 (sudolab's default alphabet; lower case accepted, except that `x` is always an
//!   empty cell). Rows may have different lengths; trailing `.` may be left out.
//! - Pieces are separated by one or more blank lines. Lines starting with `#` are comments
//!   (they neither separate pieces nor count as rows).
//! - An optional header `size N`, before the first piece, gives the side. Without it, `N` is
//!   the number of pieces. Either way there must be exactly `N` pieces of exactly `N` cells,
//!   each 4-connected, with givens at most `N`; `1 <= N <= 35`.
//! - Where a piece is drawn inside its little grid does not matter (pieces are normalised).
//!   Its orientation does, unless `--rotations` is given.
//!
//! Errors read `file:line:column: message`, e.g. `p.txt:7:2: piece 2 has 8 cells, expected
//! 9` ([`PiecesErrorKind`] lists them).
//!
//! # Counting tilings
//!
//! A tiling is one placement per piece, pieces being *labelled* by their order in the file:
//! two identical pieces (same shape, same givens) swapped make two tilings of the same
//! puzzle. [`jigsaw::TileReport`] also counts distinct region layouts (the partition of the
//! board, whatever the givens) and distinct puzzles (layout and givens), and solves each
//! distinct puzzle once.

pub mod backtrack;
pub mod cover;
pub mod jigsaw;
pub mod pieces;
pub mod place;

pub use jigsaw::{tile_and_solve, Agreement, TileOptions, TileReport};
pub use pieces::{
    cut, read_pieces_bytes, read_pieces_file, read_pieces_str, write_pieces, Piece, PieceSet,
    PiecesError, PiecesErrorKind,
};
pub use place::{Placement, Placements};

use crate::engines::{Limits, Search, Stats, Stop};
use std::fmt;
use std::time::{Duration, Instant};

/// A tiling method.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Method {
    /// Exact cover with dancing links ([`cover`]).
    Dlx,
    /// The seed paper's backtracking in piece order ([`backtrack`]).
    Backtrack,
}

impl Method {
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Dlx => "dlx",
            Method::Backtrack => "backtrack",
        }
    }

    /// Enumerates the tilings of `p` with this method; see [`cover::enumerate`] and
    /// [`backtrack::enumerate`].
    pub fn enumerate<V: FnMut(&[usize])>(
        self,
        p: &Placements,
        limits: &Limits,
        visit: V,
    ) -> SearchReport {
        match self {
            Method::Dlx => cover::enumerate(p, limits, visit),
            Method::Backtrack => backtrack::enumerate(p, limits, visit),
        }
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How a tiling search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// Every tiling was found.
    Complete,
    /// `--max-tilings` tilings were found.
    MaxTilings,
    NodeLimit,
    TimeLimit,
}

impl End {
    pub fn as_str(self) -> &'static str {
        match self {
            End::Complete => "complete",
            End::MaxTilings => "max-tilings",
            End::NodeLimit => "node-limit",
            End::TimeLimit => "time-limit",
        }
    }
}

impl fmt::Display for End {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What one tiling search did.
#[derive(Clone, Debug)]
pub struct SearchReport {
    pub method: Method,
    /// Tilings found (labelled pieces, see the module doc).
    pub tilings: u64,
    pub end: End,
    /// `nodes` as the method defines it; `updates` for DLX; the named counter `positions`
    /// for backtracking.
    pub stats: Stats,
    /// Wall time of the search, without the time spent on each tiling found (solving it).
    pub search_time: Duration,
    /// Wall time of the search with the time spent on each tiling found.
    pub wall: Duration,
    /// Order-independent digest of the set of tilings found (a wrapping sum of one hash per
    /// tiling): two complete runs that found the same tilings have the same digest.
    pub digest: u64,
}

/// What both methods share when a tiling is found: count it against the cap, add it to the
/// digest, hand it to the visitor (timed apart from the search) and check the clock.
pub(crate) struct Collector<V> {
    visit: V,
    digest: u64,
    visiting: Duration,
}

impl<V: FnMut(&[usize])> Collector<V> {
    pub(crate) fn new(visit: V) -> Self {
        Collector {
            visit,
            digest: 0,
            visiting: Duration::ZERO,
        }
    }

    /// A tiling was found; returns `false` when the search must stop.
    pub(crate) fn found(&mut self, search: &mut Search, tiling: &[usize]) -> bool {
        let more = search.solution(&[]);
        self.digest = self.digest.wrapping_add(tiling_hash(tiling));
        let t = Instant::now();
        (self.visit)(tiling);
        self.visiting += t.elapsed();
        // The visitor may have spent the time left (solving a sudoku): look at the clock now
        // rather than a few hundred nodes later.
        more && search.check_clock()
    }

    pub(crate) fn report(self, method: Method, search: Search) -> SearchReport {
        let end = match search.stop_reason() {
            None => End::Complete,
            Some(Stop::SolutionCap) => End::MaxTilings,
            Some(Stop::Nodes) => End::NodeLimit,
            // Neither search keeps a queue of live nodes, so a memory stop cannot happen; it
            // is reported with the other limit that has no count of its own.
            Some(Stop::Time) | Some(Stop::Cancelled) | Some(Stop::Memory) => End::TimeLimit,
        };
        let o = search.finish();
        SearchReport {
            method,
            tilings: o.count,
            end,
            stats: o.stats,
            search_time: o.wall.saturating_sub(self.visiting),
            wall: o.wall,
            digest: self.digest,
        }
    }
}

/// A 64-bit hash of a tiling (its placement indices), fixed across runs and platforms
/// (SplitMix64 finaliser over the indices).
fn tiling_hash(tiling: &[usize]) -> u64 {
    let mut h = 0x9E37_79B9_7F4A_7C15u64;
    for &k in tiling {
        h = mix(h ^ k as u64);
    }
    h
}

fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests;
