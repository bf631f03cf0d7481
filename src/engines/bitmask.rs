//! `bitmask`: digit-by-digit, row-by-row placement with bit masks.
//!
//! # Source
//!
//! The method of the blog post "Resolver un Sudoku como un problema de optimización" (Spanish,
//! 10 December 2017; C# program written with Visual Studio 2015), methods `BuildMatrix` and
//! `ProcessNextNumber`.
//!
//! # The method (as in the source)
//!
//! The grid is filled one digit value at a time (levels `1..=N`), and within a level one
//! placement per row, rows top to bottom. Before the search, `BuildMatrix` lists for every
//! digit `d` and row `r` the positions where `d` may go in `r` (the source's
//! `_matrix[row, idx, n]`, a compact list in increasing column order): the given cell
//! holding `d` if row `r` has one (then it is the only entry, since every other cell of the
//! row sees `d` in the row), otherwise every empty cell none of whose houses holds `d` among
//! the givens. A given cell appears only in the list of its own digit.
//!
//! `ProcessNextNumber` then walks the rows of a level with an index per row into that list.
//! A position is taken when it passes the masks: its column does not hold the digit yet at
//! this level (the source's `mcol`), its box does not hold it yet (the source's `msec`), and
//! the cell is not taken by an earlier digit (the source's per-row `_numbers`). After a
//! placement the search goes to the next row with its index reset; when a row has no
//! position left, it goes back to the previous row, undoes that row's placement (restoring
//! the masks) and moves that row's index on; when row 1 of a level is exhausted it goes back
//! to the last row of the previous level. Placing the last row of the last level completes
//! the grid.
//!
//! # Generalisation
//!
//! - Side `N` with rectangular `R x C` boxes: the source's `msec` is a mask, over the columns
//!   of the current band of three rows, of the columns whose box does not hold the digit yet,
//!   reset at each band. Here it is a mask over box numbers of the boxes already holding the
//!   digit at this level: the same test, for any box shape.
//! - Jigsaw: the same mask over region numbers works for any region layout, since each
//!   region must hold each digit once.
//! - X-sudoku: per level, one flag "the main diagonal already holds this digit" and one for
//!   the anti-diagonal; a placement on a used diagonal is rejected like one in a used column.
//!   The candidate lists also exclude cells whose diagonal holds the digit among the givens
//!   (the lists are built from every house of the cell).
//! - The source recurses once per level and returns at the first solution. Here the search is
//!   one loop over explicit per-(level, row) indices, and it can count: after recording a
//!   solution it goes on as if the last placement had failed, until the solution cap.
//! - Masks are [`Bits`] sets of `N` bits (the narrowest type, chosen by
//!   [`with_bits!`](crate::with_bits)), so every side up to the model's maximum works.
//!   Undoing a placement removes its column, region and cell bits and clears its diagonal
//!   flags; that restores the masks exactly, because a level holds each column, region and
//!   diagonal at most once (the source restores `_numbers` from a saved copy and recomputes
//!   `mcol`/`msec`, which gives the same masks).
//!
//! # Cages (killer sudoku): an extension, not the source's method
//!
//! A cage is checked where the source checks its masks, when a position is tested for the
//! digit of the level: beside the column, region and cell masks, the cage of the cell must
//! not hold the digit yet (a digit mask per cage), and its sum must stay reachable. Levels
//! go in increasing digit order, so once digit `d` is in a cage its other empty cells will
//! receive distinct digits above `d`: the sum the cage has left must lie between the least
//! and the greatest sums of that many distinct digits of `d + 1..=N`. For the last empty cell
//! of a cage the test is exact, so a complete grid satisfies every cage. The cage state
//! (digits, their total, cells filled) is updated on each placement and undone with it. When
//! a level is complete, every cage is checked the same way (its empty cells will receive
//! distinct digits above the level's), so a level that leaves some cage's sum out of reach
//! fails at its last placement (a dead end, counted in `backtracks`) rather than when a later
//! digit enters that cage. Within a level the same test runs row by row: once row `r` has
//! its digit, a cage with a cell in row `r` that does not hold `d` and whose empty cells
//! cannot complete its sum with digits above `d` alone needs `d` at this level, so it must
//! keep a cell for `d` in a later row (empty, in a column and a region that do not hold `d`
//! yet); otherwise the placement fails as a dead end at once, not at the level's end.
//!
//! Those tests look at one cage at a time. Up to side 16 the engine also looks at houses,
//! with a table of *open digits* (built from the `2^N` digit sets): the digits the empty
//! cells of a cage may still receive, those of some set of distinct digits that completes
//! its sum, each above the level's digit `d` (or `d` itself if the cage lacks it). While
//! level `d` is in progress every house holds exactly the digits below `d`, and `d` or not,
//! so its empty cells must receive exactly the missing ones. A house fails when
//!
//! - *coverage*: some missing digit is open to none of its empty cells, or
//! - *innies* (the killer solvers' "rule of 45", as in `cage_rules.rs` for `human`; the
//!   killer tutorials of sudokuwiki.org): the cages whose empty cells all lie in the house
//!   cannot take disjoint sets of missing digits, each completing its cage's sum, with the
//!   missing digits left over open to the house's other empty cells. The sets are tried one
//!   cage at a time, keeping the distinct unions of digits used so far.
//!
//! After a placement, the houses of the cells of its cage are checked (no other house
//! changes); when a level is complete, every cage and every house is checked for the next
//! one. A failed house makes the placement a dead end. On the janko killer 178_9x9 these
//! house checks take the count to two solutions from no answer in 1,200 s (1.66e10
//! placements) to 25 s (4.9e7): a level of small digits that leaves a house without room for
//! its large ones is found out when it is placed, not five levels later.
//!
//! # Behaviour
//!
//! There is no propagation and the order is fixed (digits ascending, rows top to bottom,
//! columns ascending), so a level that leaves no room for a later digit is found out only at
//! that digit's level, and nearly every placement ends in a dead end. Measured with
//! `max_solutions = 2`: Project Euler 96 about 1.9e5 placements per puzzle, norvig-top95
//! about 1.8e7; with one solution, the published 16x16 (`rk-16x16.txt`) takes 2.09e9. The
//! masks only forbid a second use of a diagonal, so on X-sudoku a level that misses a
//! diagonal is also found out late (the empty 9x9 X grid is not solved within 1.5e9
//! placements).
//!
//! # Counters
//!
//! A *row visit* is the search arriving at row `r` of level `d` from above (from row `r - 1`
//! of the same level, or from the last row of level `d - 1` for `r = 0`, or at the start);
//! coming back to it from below continues the same visit.
//!
//! - `nodes`: placements tried: each time a listed position passes the masks and the digit is
//!   put there (givens included: each given is placed once per visit of its row).
//! - `guesses`: row visits in which two or more positions of the row's list pass the masks
//!   at arrival (the masks of a row do not change while the search is below it, so this is
//!   the row's number of alternatives).
//! - `backtracks`: dead ends, i.e. row visits in which no position of the row's list passes
//!   the masks at arrival (the definition every engine shares: a node with no alternative).
//! - `failed_rows` (engine-specific): row visits that end with the row's list exhausted and
//!   no solution found below them (every alternative failed, the whole subtree). A row on the
//!   path of a recorded solution does not count even when the search, counting, later
//!   exhausts it.
//! - `candidates` (engine-specific): entries of the precomputed table, i.e. the sum over
//!   digits and rows of the number of listed positions (the size of the source's `_matrix`).

use super::bits::Bits;
use super::{
    Engine, EngineError, EngineInfo, EngineOptions, Limits, Outcome, Search, Sides, Status,
};
use crate::puzzle::{completable, Puzzle};

pub static INFO: EngineInfo = EngineInfo {
    name: "bitmask",
    summary: "digit by digit, one placement per row, column/box/cell bit masks, \
              backtracking over rows and digit levels",
    source: "blog post \"Resolver un Sudoku como un problema de optimización\" (Spanish, \
             2017; C#, Visual Studio 2015): BuildMatrix, ProcessNextNumber",
    nodes: "placements tried: a listed position of the row that passes the column, \
            box/region, diagonal and taken-cell masks (and the cage check) and receives the \
            digit",
    counters: "guesses = row visits (arriving at a row of a level from above) with two or \
               more positions passing the masks; backtracks = dead ends: row visits with no \
               position passing the masks, and (killer) placements that leave a cage unable \
               to complete its sum or a house unable to receive its missing digits \
               (checked after each row and at each level's end); \
               failed_rows = row visits that exhaust the row's list with no solution found \
               below; candidates = entries of the precomputed (digit, row) -> positions table",
    sides: Sides::Any,
    search_tree: true,
    capabilities: "boxes R x C, jigsaw regions, X-sudoku diagonals; killer cages (a digit \
                   mask and a sum bound per cage, tested with the masks; after each row, a \
                   cage that needs the level's digit must keep a cell for it in a later row; \
                   up to side 16, the houses of the placed cell's cage must still be able to \
                   receive their missing digits: coverage and innies); \
                   any side up to the model's maximum; no options",
    make,
    variants: super::no_variants,
};

fn make(options: &EngineOptions) -> Result<Box<dyn Engine>, EngineError> {
    options.allow_only("bitmask", &[])?;
    Ok(Box::new(Bitmask))
}

/// The engine. It keeps nothing between puzzles.
#[derive(Clone, Copy, Debug, Default)]
pub struct Bitmask;

impl Engine for Bitmask {
    fn supports_cages(&self) -> bool {
        true
    }

    fn solve(&mut self, puzzle: &Puzzle, limits: &Limits) -> Outcome {
        let mut search = Search::new(limits);
        if puzzle.clash().is_some() {
            return search.finish_unsat();
        }
        let table = match crate::with_bits!(puzzle.n(), B => Table::build::<B>(puzzle, &mut search))
        {
            Ok(Some(t)) => t,
            Ok(None) => {
                // A limit passed while the table was built.
                search.built();
                return search.finish();
            }
            Err(reason) => {
                // Unsupported, with the time spent deciding it counted as build time.
                search.built();
                let mut o = search.finish();
                o.status = Status::Unsupported;
                o.note = Some(reason);
                return o;
            }
        };
        search.stats.bump("candidates", table.cands.len() as u64);
        search.built();
        crate::with_bits!(puzzle.n(), B => run::<B>(puzzle, &table, &mut search));
        search.finish()
    }
}

/// Largest candidate table the engine builds. Only nearly empty grids of side above ~640
/// reach it (the table has at most `N^3` entries).
const MAX_TABLE_BYTES: u64 = 1 << 30;

/// One position of a (digit, row) list: the source's `sNum` (`Col`; its `ColMask` and
/// `SecMask` become the column and region numbers, turned into bits when tested).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Cand {
    col: u16,
    region: u16,
}

impl Cand {
    /// A position packed as the table stores it: the column in the low 16 bits.
    #[inline]
    fn pack(self) -> u32 {
        u32::from(self.col) | u32::from(self.region) << 16
    }

    #[inline]
    fn unpack(v: u32) -> Cand {
        Cand {
            col: v as u16,
            region: (v >> 16) as u16,
        }
    }
}

/// The source's `_matrix`: for digit `d` (0-based) and row `r`, the positions are
/// `cands[start[d * n + r] .. start[d * n + r + 1]]`, in increasing column order, each
/// [`Cand::pack`]ed (so that the table is allocated zeroed, page by page as the fill pass
/// reaches it, rather than written whole before the pass reads the clock).
struct Table {
    start: Vec<u32>,
    cands: Vec<u32>,
}

impl Table {
    /// `BuildMatrix`, over every house of each cell. From side 32 the clock is read once per
    /// row of each pass (the table has up to `N^3` entries, seconds of work on a large empty
    /// grid; below 32 it is at most 32K entries, microseconds): `Ok(None)` when a limit passed.
    fn build<B: Bits>(puzzle: &Puzzle, search: &mut Search) -> Result<Option<Table>, String> {
        let g = puzzle.geometry();
        let n = g.n();
        let givens = puzzle.givens();
        let poll = n >= 32;
        let mut stopped = || poll && !search.check_clock();
        // Digits (0-based) held by the givens of each house.
        let mut house_digits = vec![B::EMPTY; g.house_count()];
        for (h, digits) in house_digits.iter_mut().enumerate() {
            for &c in g.house(h) {
                let d = givens[c as usize];
                if d != 0 {
                    digits.insert(d as usize - 1);
                }
            }
        }
        // Digits that may go in `cell`: its given alone, or those none of its houses holds.
        let digits_of = |cell: usize| -> B {
            match givens[cell] {
                0 => g
                    .houses_of(cell)
                    .iter()
                    .fold(B::full(n), |m, &h| m.and_not(house_digits[h as usize])),
                d => B::bit(d as usize - 1),
            }
        };
        // The table's size first, by counting bits (N/64 words per cell), so that a grid
        // whose table would pass the cap is refused before anything of size N^3 is touched
        // (listing the candidates of an empty 1024x1024 first takes about 7 s, only to refuse).
        let mut total = 0u64;
        for row in 0..n {
            if stopped() {
                return Ok(None);
            }
            total += (row * n..(row + 1) * n)
                .map(|cell| digits_of(cell).count() as u64)
                .sum::<u64>();
        }
        let bytes = total * std::mem::size_of::<u32>() as u64;
        if bytes > MAX_TABLE_BYTES {
            return Err(format!(
                "bitmask: expected a candidate table of at most {MAX_TABLE_BYTES} bytes, found \
                 {total} candidates ({bytes} bytes) in this {n}x{n} puzzle"
            ));
        }
        // Two passes (count, then fill) so that no per-cell mask table is kept: at large
        // sides it would be as big as the candidate table.
        let mut start = vec![0u32; n * n + 1];
        for cell in 0..n * n {
            let r = cell / n;
            if cell % n == 0 && stopped() {
                return Ok(None);
            }
            for d in digits_of(cell).iter() {
                start[d * n + r + 1] += 1;
            }
        }
        for i in 0..n * n {
            start[i + 1] += start[i];
        }
        let mut fill: Vec<u32> = start[..n * n].to_vec();
        let mut cands = vec![0u32; total as usize];
        // Cells in row-major order, so each list comes out in increasing column order.
        for cell in 0..n * n {
            let (r, col) = (cell / n, cell % n);
            if col == 0 && stopped() {
                return Ok(None);
            }
            let region = g.region_of(cell) as u16;
            for d in digits_of(cell).iter() {
                let slot = &mut fill[d * n + r];
                cands[*slot as usize] = Cand {
                    col: col as u16,
                    region,
                }
                .pack();
                *slot += 1;
            }
        }
        Ok(Some(Table { start, cands }))
    }
}

/// The masks of the level being filled: columns and regions already holding its digit
/// (`mcol`, `msec` in the source) and the two diagonal flags (X-sudoku only; always false
/// otherwise).
#[derive(Clone, Copy, Debug)]
struct LevelMasks<B> {
    cols: B,
    regions: B,
    main: bool,
    anti: bool,
}

impl<B: Bits> LevelMasks<B> {
    const EMPTY: Self = LevelMasks {
        cols: B::EMPTY,
        regions: B::EMPTY,
        main: false,
        anti: false,
    };
}

/// The retreat path calls the clock this often (in retreats): a long run of retreats makes
/// no placement, so `Search::node` would not look at the clock.
const RETREAT_CLOCK_EVERY: u64 = 4096;

/// `ProcessNextNumber` for all levels in one loop. `d` is the level (0-based digit), `r` the
/// row; `idx[d * n + r]` is the absolute index in `table.cands` of the position row `r` of
/// level `d` holds or will try next (the source's `indexes`).
fn run<B: Bits>(puzzle: &Puzzle, table: &Table, search: &mut Search) {
    let g = puzzle.geometry();
    let n = g.n();
    let diagonals = g.has_diagonals();
    let start = &table.start[..];
    let cands = &table.cands[..];

    let mut grid = vec![0u16; n * n];
    // Cells of each row taken by a digit of an earlier level (the source's `_numbers`).
    let mut taken = vec![B::EMPTY; n];
    let mut idx = vec![0u32; n * n];
    // Solutions recorded when each row visit began: a visit that ends with the same count
    // found nothing below it (a dead end).
    let mut count_at_visit = vec![0u64; n * n];
    // Masks of every finished level, so that a retreat into it restores them.
    let mut saved = vec![LevelMasks::<B>::EMPTY; n];
    let mut m = LevelMasks::<B>::EMPTY;

    let (mut guesses, mut backtracks, mut failed_rows, mut retreats) = (0u64, 0u64, 0u64, 0u64);
    let (mut d, mut r) = (0usize, 0usize);
    let mut arriving = true;

    let mut cages = CageState::<B>::new(puzzle);
    // Whether position `c` passes the masks of the current level `d` for row `r`, given the
    // row's `blocked` columns (see below), and the cage check with cages.
    #[inline(always)]
    fn passes<B: Bits>(
        c: Cand,
        blocked: B,
        regions: B,
        cages: &Option<CageState<B>>,
        cell: usize,
        d: usize,
    ) -> bool {
        !blocked.contains(c.col as usize)
            && !regions.contains(c.region as usize)
            && cages
                .as_ref()
                .map_or(true, |k| k.allows(cell + c.col as usize, d))
    }

    loop {
        let pos = d * n + r;
        let end = start[pos + 1] as usize;
        // Columns row `r` may not use: cells taken by earlier digits, columns holding this
        // digit, and the row's cell on a diagonal that holds it (the only cell of row `r` on
        // the main diagonal is column `r`, on the anti-diagonal column `n - 1 - r`).
        let mut blocked = taken[r].or(m.cols);
        if m.main {
            blocked.insert(r);
        }
        if m.anti {
            blocked.insert(n - 1 - r);
        }
        let regions = m.regions;
        let row = r * n;
        let pass = |v: u32, cages: &Option<CageState<B>>| {
            passes(Cand::unpack(v), blocked, regions, cages, row, d)
        };
        let mut i;
        if arriving {
            arriving = false;
            count_at_visit[pos] = search.count();
            i = start[pos] as usize;
            while i < end && !pass(cands[i], &cages) {
                i += 1;
            }
            if i < end {
                let mut j = i + 1;
                while j < end && !pass(cands[j], &cages) {
                    j += 1;
                }
                if j < end {
                    guesses += 1;
                }
            } else {
                backtracks += 1;
            }
        } else {
            i = idx[pos] as usize;
            while i < end && !pass(cands[i], &cages) {
                i += 1;
            }
        }

        if i < end {
            // Place the digit at position i.
            idx[pos] = i as u32;
            if !search.node() {
                break;
            }
            let c = Cand::unpack(cands[i]);
            let col = c.col as usize;
            taken[r].insert(col);
            m.cols.insert(col);
            m.regions.insert(c.region as usize);
            if diagonals {
                m.main |= col == r;
                m.anti |= col + r == n - 1;
            }
            grid[r * n + col] = (d + 1) as u16;
            if let Some(k) = cages.as_mut() {
                k.set(r * n + col, d, true);
            }
            // The cage checks at the end of a row (a cage that needs `d` and has no cell
            // left for it in a later row) and of a level (a cage whose sum the digits above
            // `d` can no longer complete): a placement that fails one is a dead end.
            let dead = cages.as_mut().is_some_and(|k| {
                if r + 1 < n {
                    !k.row_leaves_sums(r, n, d, &m) || !k.placement_leaves_digits(r * n + col, d)
                } else {
                    d + 1 < n && !k.level_leaves_sums(d)
                }
            });
            if dead {
                backtracks += 1;
                undo(c, r, n, &mut taken, &mut m);
                if let Some(k) = cages.as_mut() {
                    k.set(r * n + col, d, false);
                }
                idx[pos] += 1;
                continue;
            }
            if r + 1 < n {
                r += 1;
                arriving = true;
                continue;
            }
            if d + 1 < n {
                saved[d] = m;
                m = LevelMasks::EMPTY;
                d += 1;
                r = 0;
                arriving = true;
                continue;
            }
            // Last row of the last level: the grid is complete.
            if !search.solution(&grid) {
                break;
            }
            // Go on as if this placement had failed.
            undo(Cand::unpack(cands[i]), r, n, &mut taken, &mut m);
            if let Some(k) = cages.as_mut() {
                k.set(r * n + col, d, false);
            }
            idx[pos] += 1;
            continue;
        }

        // Row exhausted: retreat to the previous row (or the last row of the previous level)
        // and move its index past the position it held.
        if search.count() == count_at_visit[pos] {
            failed_rows += 1;
        }
        retreats += 1;
        if retreats % RETREAT_CLOCK_EVERY == 0 && !search.check_clock() {
            break;
        }
        if r > 0 {
            r -= 1;
        } else if d > 0 {
            d -= 1;
            r = n - 1;
            m = saved[d];
        } else {
            break; // row 1 of level 1 exhausted: the search space is exhausted
        }
        let pos = d * n + r;
        let c = Cand::unpack(cands[idx[pos] as usize]);
        undo(c, r, n, &mut taken, &mut m);
        if let Some(k) = cages.as_mut() {
            k.set(r * n + c.col as usize, d, false);
        }
        idx[pos] += 1;
    }

    search.stats.guesses = guesses;
    search.stats.backtracks = backtracks;
    search.stats.bump("failed_rows", failed_rows);
}

/// The cages (killer) as the levels fill them: digits, their total and the cells filled per
/// cage.
struct CageState<B> {
    /// Cage of each cell, `u32::MAX` for none.
    cage_of: Vec<u32>,
    sum: Vec<u32>,
    len: Vec<u32>,
    digits: Vec<B>,
    total: Vec<u32>,
    filled: Vec<u32>,
    n: u32,
    /// The cells of each cage, in increasing order (so by row).
    cells: Vec<Vec<u32>>,
    /// The cages with a cell in each row.
    in_row: Vec<Vec<u32>>,
    /// Whether each cell holds a digit.
    full: Vec<bool>,
    /// The region (box or jigsaw region) of each cell.
    region: Vec<u32>,
    /// Every house, `n` cells each, one after the other.
    houses: Vec<u32>,
    /// The houses a placement in each cell can change, checked after it: those of the cells
    /// of its cage (of the cell alone, outside the cages), each once, in increasing order.
    touched: Vec<Vec<u32>>,
    /// The digits a cage's empty cells may still receive (see [`CageState::open_digits`]):
    /// bit `e - 1` of entry `(lo, rest, need)` is set when some `rest` distinct digits of
    /// `lo..=n`, digit `e` among them, add up to `need`. Built for `n <= MAX_OPEN_N` only
    /// (it enumerates the `2^n` digit sets); empty above.
    open: Vec<u32>,
    /// Strides of `open`: `rest` runs over `0..=max_len`, `need` over `0..=max_need`.
    max_len: usize,
    max_need: usize,
    /// The digit sets of each size and sum (`rest * (max_need + 1) + need`), as bit masks;
    /// built with `open`.
    combos: Vec<Vec<u32>>,
    /// Buffers of the house checks, kept between calls.
    scratch: Scratch,
}

/// Buffers of the house checks ([`CageState::house_leaves_digits`]).
#[derive(Default)]
struct Scratch {
    /// Empty cells per cage in the house at hand (zero between houses).
    count: Vec<u32>,
    /// Digit sets used by the cages processed so far.
    states: Vec<u32>,
    next: Vec<u32>,
}

/// Largest number of used-digit sets the innie search of one house keeps; past it the house
/// is passed without that search (a weaker test, still sound).
const MAX_INNIE_STATES: usize = 1 << 12;

/// Largest side for which [`CageState`] builds its table of open digits (`2^n` digit sets).
const MAX_OPEN_N: usize = 16;

impl<B: Bits> CageState<B> {
    /// `None` for a puzzle without cages.
    fn new(puzzle: &Puzzle) -> Option<Self> {
        let set = puzzle.cage_set()?;
        let cells = puzzle.geometry().cells();
        let cage_of = (0..cells)
            .map(|c| set.cage_of(c).map_or(u32::MAX, |k| k as u32))
            .collect();
        let k = set.len();
        let n = puzzle.n();
        let cells_total = cells;
        let max_len = set.cages().iter().map(|c| c.len()).max().unwrap_or(0);
        let max_need = set
            .cages()
            .iter()
            .map(|c| c.sum() as usize)
            .max()
            .unwrap_or(0);
        let (open, combos) = Self::open_table(n, max_len, max_need);
        let mut in_row = vec![Vec::new(); n];
        let cells: Vec<Vec<u32>> = set
            .cages()
            .iter()
            .enumerate()
            .map(|(i, cage)| {
                let mut v: Vec<u32> = cage.cells().to_vec();
                v.sort_unstable();
                for &c in &v {
                    let row: &mut Vec<u32> = &mut in_row[c as usize / n];
                    if row.last() != Some(&(i as u32)) {
                        row.push(i as u32);
                    }
                }
                v
            })
            .collect();
        Some(CageState {
            cage_of,
            sum: set.cages().iter().map(|c| c.sum()).collect(),
            len: set.cages().iter().map(|c| c.len() as u32).collect(),
            digits: vec![B::EMPTY; k],
            total: vec![0; k],
            filled: vec![0; k],
            n: puzzle.n() as u32,
            cells,
            in_row,
            full: vec![false; cells_total],
            region: (0..cells_total)
                .map(|c| puzzle.geometry().region_of(c) as u32)
                .collect(),
            houses: puzzle.geometry().houses().flatten().copied().collect(),
            touched: (0..cells_total)
                .map(|c| {
                    let mut houses: Vec<u32> = match set.cage_of(c) {
                        Some(k) => set.cages()[k]
                            .cells()
                            .iter()
                            .flat_map(|&x| puzzle.geometry().houses_of(x as usize).iter().copied())
                            .collect(),
                        None => puzzle.geometry().houses_of(c).to_vec(),
                    };
                    houses.sort_unstable();
                    houses.dedup();
                    houses
                })
                .collect(),
            open,
            max_len,
            max_need,
            combos,
            scratch: Scratch {
                count: vec![0; k],
                ..Scratch::default()
            },
        })
    }

    /// The table of open digits: every set of digits of `1..=n`, entered under each `lo` up
    /// to its least digit; and the sets by size and sum. Both empty when `n > MAX_OPEN_N`.
    fn open_table(n: usize, max_len: usize, max_need: usize) -> (Vec<u32>, Vec<Vec<u32>>) {
        if n > MAX_OPEN_N {
            return (Vec::new(), Vec::new());
        }
        let mut open = vec![0u32; (n + 2) * (max_len + 1) * (max_need + 1)];
        let mut combos = vec![Vec::new(); (max_len + 1) * (max_need + 1)];
        for set in 1u32..(1 << n) {
            let len = set.count_ones() as usize;
            let need: usize = (0..n).filter(|&e| set >> e & 1 == 1).map(|e| e + 1).sum();
            if len > max_len || need > max_need {
                continue;
            }
            let least = set.trailing_zeros() as usize + 1;
            for lo in 1..=least {
                open[(lo * (max_len + 1) + len) * (max_need + 1) + need] |= set;
            }
            combos[len * (max_need + 1) + need].push(set);
        }
        (open, combos)
    }

    /// Whether digit `d` (0-based, the current level) may go in `cell`: its cage does not
    /// hold `d`, and the cage's sum is still reachable once `d` is in, by distinct digits
    /// above `d` in the cage's other empty cells (they are filled at later levels).
    #[inline]
    fn allows(&self, cell: usize, d: usize) -> bool {
        let k = self.cage_of[cell];
        if k == u32::MAX {
            return true;
        }
        let k = k as usize;
        if self.digits[k].contains(d) {
            return false;
        }
        let total = self.total[k] + d as u32 + 1;
        if total > self.sum[k] {
            return false;
        }
        let rest = (self.len[k] - self.filled[k] - 1) as usize;
        completable(self.sum[k] - total, rest, d as u32 + 2..=self.n)
    }

    /// Whether, once level `d` (0-based) is complete, every cage can still be completed:
    /// its empty cells will receive distinct digits above `d + 1`, so the sum it has left
    /// must lie between the least and the greatest sums of that many of them. With the table
    /// of open digits the test is exact per cage, and every house passes
    /// [`CageState::house_leaves_digits`] for the next level.
    fn level_leaves_sums(&mut self, d: usize) -> bool {
        let lo = d as u32 + 2;
        if self.open.is_empty() {
            return (0..self.sum.len()).all(|k| {
                let rest = (self.len[k] - self.filled[k]) as usize;
                rest == 0 || completable(self.sum[k] - self.total[k], rest, lo..=self.n)
            });
        }
        (0..self.sum.len())
            .all(|k| self.filled[k] == self.len[k] || self.open_digits(k, d + 1) != 0)
            && (0..self.houses.len() / self.n as usize).all(|h| self.house_leaves_digits(h, d + 1))
    }

    /// Whether, once `cell` has received digit `d + 1` (0-based level `d`), the houses of the
    /// cells of its cage (or of the cell alone, outside the cages) still pass
    /// [`CageState::house_leaves_digits`]: those are the houses the placement can change.
    fn placement_leaves_digits(&mut self, cell: usize, d: usize) -> bool {
        if self.open.is_empty() {
            return true;
        }
        (0..self.touched[cell].len()).all(|i| {
            let h = self.touched[cell][i] as usize;
            self.house_leaves_digits(h, d)
        })
    }

    /// The digits (bit `e - 1` for digit `e`) that the empty cells of cage `k` may still
    /// receive while level `d` (0-based) is in progress: those of some set of distinct digits
    /// that completes the cage's sum, one per empty cell, each above `d + 1`, or `d + 1`
    /// itself when the cage does not hold it yet. Needs the table of open digits.
    #[inline]
    fn open_digits(&self, k: usize, d: usize) -> u32 {
        let lo = if self.digits[k].contains(d) {
            d + 2
        } else {
            d + 1
        };
        let rest = (self.len[k] - self.filled[k]) as usize;
        let need = (self.sum[k] - self.total[k]) as usize;
        self.open[(lo * (self.max_len + 1) + rest) * (self.max_need + 1) + need]
    }

    /// Whether house `h` can still receive its missing digits while level `d` (0-based) is in
    /// progress, every digit up to `d` being placed. The house must receive the digits above
    /// `d + 1`, and `d + 1` too if it does not hold it; a house whose number of empty cells
    /// is neither (a diagonal that missed a digit) is passed. Two tests (the house is
    /// `required` to receive exactly the missing digits, one per empty cell):
    ///
    /// - *coverage*: the open digits of the cages of its empty cells (any digit for a cell
    ///   outside the cages) include every required digit;
    /// - *innies* (the killer solver's "rule of 45"): the cages whose empty cells all lie in
    ///   the house take disjoint sets of required digits, each completing its cage's sum,
    ///   and the required digits left over are open to the house's other empty cells. A
    ///   search over the cages' digit sets, one cage at a time, keeps the sets of digits
    ///   used so far (at most `MAX_INNIE_STATES`; past it the test is skipped).
    fn house_leaves_digits(&mut self, h: usize, d: usize) -> bool {
        let n = self.n as usize;
        let current = 1u32 << d;
        let above = ((1u32 << n) - 1) & !((current << 1) - 1);
        let house = &self.houses[h * n..(h + 1) * n];
        let empty = house.iter().filter(|&&c| !self.full[c as usize]).count() as u32;
        let required = if empty == above.count_ones() + 1 {
            above | current
        } else if empty == above.count_ones() {
            above
        } else {
            return true;
        };
        let mut count = std::mem::take(&mut self.scratch.count);
        let mut seen = 0u32;
        for &c in house {
            let c = c as usize;
            if !self.full[c] {
                let k = self.cage_of[c];
                if k == u32::MAX {
                    seen = required;
                } else {
                    let k = k as usize;
                    seen |= self.open_digits(k, d);
                    count[k] += 1;
                }
            }
        }
        let mut states = std::mem::take(&mut self.scratch.states);
        let mut next = std::mem::take(&mut self.scratch.next);
        states.clear();
        states.push(0u32);
        let mut feasible = seen & required == required;
        // Open digits of the empty cells outside the cages that lie wholly in the house.
        let mut others = 0u32;
        for &c in house {
            let c = c as usize;
            if self.full[c] {
                continue;
            }
            let k = self.cage_of[c];
            if k == u32::MAX {
                others = required;
                continue;
            }
            let k = k as usize;
            let inside = count[k];
            if inside == 0 {
                continue; // a cage already taken into account
            }
            count[k] = 0;
            if !feasible || states.len() > MAX_INNIE_STATES {
                continue;
            }
            if inside < self.len[k] - self.filled[k] {
                others |= self.open_digits(k, d);
                continue;
            }
            let need = (self.sum[k] - self.total[k]) as usize;
            let sets = &self.combos[inside as usize * (self.max_need + 1) + need];
            let allowed = if self.digits[k].contains(d) {
                required & !current
            } else {
                required
            };
            next.clear();
            for &used in &states {
                let free = allowed & !used;
                next.extend(sets.iter().filter(|&&x| x & !free == 0).map(|&x| used | x));
            }
            next.sort_unstable();
            next.dedup();
            std::mem::swap(&mut states, &mut next);
            feasible = !states.is_empty();
        }
        let ok = feasible
            && (states.len() > MAX_INNIE_STATES
                || states.iter().any(|&used| required & !used & !others == 0));
        self.scratch.states = states;
        self.scratch.next = next;
        self.scratch.count = count;
        ok
    }

    /// Whether, once row `r` of level `d` (0-based) has its digit, every cage that needs `d`
    /// can still get it: a cage of row `r` without `d` whose empty cells cannot complete its
    /// sum with digits above `d + 1` alone must keep a cell for `d` in a later row (the rows
    /// the level has still to visit): empty, in a column and a region that the level `m` has
    /// not given `d` yet.
    fn row_leaves_sums(&self, r: usize, n: usize, d: usize, m: &LevelMasks<B>) -> bool {
        self.in_row[r].iter().all(|&k| {
            let k = k as usize;
            let rest = (self.len[k] - self.filled[k]) as usize;
            rest == 0
                || self.digits[k].contains(d)
                || completable(self.sum[k] - self.total[k], rest, d as u32 + 2..=self.n)
                || self.cells[k]
                    .iter()
                    .rev()
                    .take_while(|&&c| c as usize / n > r)
                    .any(|&c| {
                        let c = c as usize;
                        !self.full[c]
                            && !m.cols.contains(c % n)
                            && !m.regions.contains(self.region[c] as usize)
                    })
        })
    }

    /// Records (`on`) or removes the placement of `d` (0-based) in `cell`.
    #[inline]
    fn set(&mut self, cell: usize, d: usize, on: bool) {
        self.full[cell] = on;
        let k = self.cage_of[cell];
        if k == u32::MAX {
            return;
        }
        let k = k as usize;
        if on {
            self.digits[k].insert(d);
            self.total[k] += d as u32 + 1;
            self.filled[k] += 1;
        } else {
            self.digits[k].remove(d);
            self.total[k] -= d as u32 + 1;
            self.filled[k] -= 1;
        }
    }
}

/// Removes the placement of row `r` at position `c` from the masks. A level holds each
/// column, region and diagonal at most once, so clearing the bits restores the masks as they
/// were before the placement.
#[inline(always)]
fn undo<B: Bits>(c: Cand, r: usize, n: usize, taken: &mut [B], m: &mut LevelMasks<B>) {
    let col = c.col as usize;
    taken[r].remove(col);
    m.cols.remove(col);
    m.regions.remove(c.region as usize);
    if col == r {
        m.main = false;
    }
    if col + r == n - 1 {
        m.anti = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::{run as run_checked, Status};
    use crate::puzzle::Geometry;
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;
    use std::time::Duration;

    fn data(name: &str) -> String {
        let path = format!("{}/data/{name}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    /// 81-char line, `.` or `0` empty.
    fn parse81(s: &str) -> Vec<u16> {
        let v: Vec<u16> = s
            .chars()
            .filter(|c| !c.is_whitespace())
            .map(|c| c.to_digit(10).unwrap_or(0) as u16)
            .collect();
        assert_eq!(v.len(), 81, "{s}");
        v
    }

    fn sudoku(n: usize, givens: Vec<u16>) -> Puzzle {
        Puzzle::new(Arc::new(Geometry::square(n).unwrap()), givens).unwrap()
    }

    fn solve(p: &Puzzle, limits: &Limits) -> Outcome {
        let o = run_checked(&mut Bitmask, p, limits);
        assert_ne!(o.status, Status::Error, "{:?}", o.note);
        for s in &o.solutions {
            p.check_solution(s).unwrap();
        }
        o
    }

    /// A valid full grid for `R x C` boxes (the usual shifted pattern).
    fn pattern_grid(rows: usize, cols: usize) -> Vec<u16> {
        let n = rows * cols;
        (0..n * n)
            .map(|cell| {
                let (r, c) = (cell / n, cell % n);
                ((cols * (r % rows) + r / rows + c) % n + 1) as u16
            })
            .collect()
    }

    /// Empties the cells selected by a fixed pseudo-random pattern (about `keep` in 100 stay).
    fn holes(grid: &[u16], keep: u64, seed: u64) -> Vec<u16> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        grid.iter()
            .map(|&d| if rng.gen_range(0..100) < keep { d } else { 0 })
            .collect()
    }

    #[test]
    fn info_is_filled() {
        for s in [
            INFO.summary,
            INFO.source,
            INFO.nodes,
            INFO.counters,
            INFO.capabilities,
        ] {
            assert!(!s.is_empty());
        }
        assert!(make(&EngineOptions::new()).is_ok());
        assert!(make(&EngineOptions::new().with("order", "lifo")).is_err());
    }

    #[test]
    fn empty_4x4_first_solution_and_counters() {
        // Digit 1 goes down the rows at columns 0, 2, 1, 3; digit 2 at 1, 3, 0, 2; ... and no
        // placement fails: 16 placements; guesses at (digit, row) = (1,1) (1,2) (1,3) (2,1)
        // (2,3) (3,1) (3,2), the rows where two or more columns pass the masks.
        let p = sudoku(4, vec![0; 16]);
        let o = solve(&p, &Limits::solutions(1));
        assert_eq!(o.status, Status::Solved);
        assert_eq!(
            o.solutions[0],
            vec![1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1]
        );
        assert_eq!(o.stats.nodes, 16);
        assert_eq!(o.stats.guesses, 7);
        assert_eq!(o.stats.backtracks, 0);
        assert_eq!(o.stats.counter("candidates"), Some(64));
    }

    #[test]
    fn empty_4x4_has_288_solutions() {
        let p = sudoku(4, vec![0; 16]);
        let o = solve(&p, &Limits::solutions(0));
        assert_eq!(o.status, Status::Multiple);
        assert_eq!(o.count, 288);
        let mut seen = o.solutions.clone();
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), 288);
    }

    #[test]
    fn forced_grid_counts_no_guess_and_no_dead_end() {
        // A full grid minus one cell: every row has one position per level.
        let mut g = pattern_grid(3, 3);
        g[40] = 0;
        let p = sudoku(9, g);
        for k in [1, 2] {
            let o = solve(&p, &Limits::solutions(k));
            assert_eq!(o.count, 1);
            assert_eq!(o.stats.nodes, 81);
            assert_eq!(o.stats.guesses, 0);
            assert_eq!(o.stats.backtracks, 0);
        }
    }

    fn pe96() -> Vec<Vec<u16>> {
        let text = data("pe96.txt");
        let mut grids = Vec::new();
        let mut cur = Vec::new();
        for line in text.lines() {
            let line = line.trim();
            if line.starts_with("Grid") || line.is_empty() {
                continue;
            }
            cur.extend(line.bytes().map(|b| (b - b'0') as u16));
            if cur.len() == 81 {
                grids.push(std::mem::take(&mut cur));
            }
        }
        grids
    }

    #[test]
    fn project_euler_96() {
        let grids = pe96();
        assert_eq!(grids.len(), 50);
        let mut sum = 0u32;
        for (k, g) in grids.into_iter().enumerate() {
            let p = sudoku(9, g);
            let o = solve(&p, &Limits::solutions(2));
            assert_eq!(o.status, Status::Unique, "grid {}", k + 1);
            let s = &o.solutions[0];
            sum += 100 * s[0] as u32 + 10 * s[1] as u32 + s[2] as u32;
        }
        assert_eq!(sum, 24702);
    }

    #[test]
    fn rectangular_boxes_and_16x16() {
        for (rows, cols, keep) in [(2, 3, 30), (3, 4, 50), (4, 4, 60)] {
            let n = rows * cols;
            let full = pattern_grid(rows, cols);
            let geo = Arc::new(Geometry::boxed(n, rows, cols).unwrap());
            geo.check_grid(&full).unwrap();
            let p = Puzzle::new(geo, holes(&full, keep, n as u64)).unwrap();
            let o = solve(&p, &Limits::solutions(1));
            assert_eq!(o.status, Status::Solved, "{n}x{n}");
            assert_eq!(o.solutions.len(), 1);
        }
    }

    /// The published 16x16 puzzle. The method needs about 2.1e9 placements on it (about a
    /// minute in release), so it is not run by default:
    /// `cargo test --release --lib bitmask::tests::rk_16x16 -- --ignored`
    #[test]
    #[ignore]
    fn rk_16x16() {
        let givens: Vec<u16> = data("rk-16x16.txt")
            .split_whitespace()
            .map(|t| t.parse().unwrap())
            .collect();
        let p = sudoku(16, givens);
        let o = solve(&p, &Limits::solutions(1));
        eprintln!("rk-16x16: {} {:?} solve {:?}", o.status, o.stats, o.solve);
        assert_eq!(o.status, Status::Solved);
        assert_eq!(o.stats.nodes, 2_087_303_525);
    }

    /// Solution of Project Euler grid 1, valid for the boxes and for `jigsaw_regions`.
    const PE1: &str = "483921657967345821251876493548132976729564138\
                       136798245372689514814253769695417382";

    /// Boxes of 3x3 with five pairs of cells exchanged between neighbouring boxes; each pair
    /// holds the same digit in `PE1`, so `PE1` stays valid, and every region stays connected.
    fn jigsaw_regions() -> Vec<u16> {
        let mut reg: Vec<u16> = (0..81)
            .map(|c| ((c / 27) * 3 + (c % 9) / 3) as u16)
            .collect();
        let at = |r: usize, c: usize| r * 9 + c;
        for (a, b) in [
            (at(0, 2), at(1, 3)),
            (at(2, 1), at(3, 0)),
            (at(3, 5), at(5, 6)),
            (at(7, 5), at(8, 6)),
            (at(5, 1), at(6, 0)),
        ] {
            reg.swap(a, b);
        }
        reg
    }

    #[test]
    fn jigsaw_9x9() {
        let full = parse81(PE1);
        let geo = Arc::new(Geometry::jigsaw(9, jigsaw_regions()).unwrap());
        assert_eq!(geo.disconnected_region(), None);
        geo.check_grid(&full).unwrap();
        // The regions really differ from the boxes.
        assert_ne!(geo.regions(), Geometry::square(9).unwrap().regions());
        // 31 givens: unique with the regions, 17 solutions with the 3x3 boxes instead.
        let p = Puzzle::new(geo, holes(&full, 40, 4)).unwrap();
        let o = solve(&p, &Limits::solutions(2));
        assert_eq!(o.status, Status::Unique);
        assert_eq!(o.solutions[0], full);
        let boxes = solve(&sudoku(9, p.givens().to_vec()), &Limits::solutions(0));
        assert_eq!(boxes.count, 17);
    }

    #[test]
    fn x_sudoku_9x9() {
        let full = parse81(
            "249368715356971824781542639512783496467195283\
             893426571928614357675839142134257968",
        );
        let geo = Arc::new(Geometry::square(9).unwrap().with_diagonals(true));
        geo.check_grid(&full).unwrap();
        let p = Puzzle::new(geo, holes(&full, 35, 3)).unwrap();
        let o = solve(&p, &Limits::solutions(2));
        assert_eq!(o.status, Status::Unique);
        assert_eq!(o.solutions[0], full);
        // Without the diagonals the same givens leave several solutions.
        let plain = sudoku(9, p.givens().to_vec());
        assert_eq!(
            solve(&plain, &Limits::solutions(2)).status,
            Status::Multiple
        );
    }

    #[test]
    fn clashing_givens_are_unsat_without_search() {
        let mut g = vec![0u16; 81];
        g[0] = 5;
        g[8] = 5;
        let o = solve(&sudoku(9, g), &Limits::solutions(2));
        assert_eq!(o.status, Status::Unsat);
        assert_eq!(o.stats.nodes, 0);
        // Givens that do not clash but leave no solution: cell (0,0) sees 1, 2 in its row and
        // 3, 4 in its column.
        let mut g = vec![0u16; 16];
        (g[1], g[2], g[8], g[12]) = (1, 2, 3, 4);
        let p = sudoku(4, g);
        assert!(p.clash().is_none());
        let o = solve(&p, &Limits::solutions(2));
        assert_eq!(o.status, Status::Unsat);
        assert_eq!(o.count, 0);
        assert_eq!(brute_count(&p), 0);
    }

    #[test]
    fn two_solutions() {
        // Empty a rectangle a b / b a spanning two boxes: exactly two fillings.
        let mut g = parse81(PE1);
        // Look for one in PE1: two rows and two columns where exactly one
        // of the pairs (rows, columns) shares a band or stack, so the four cells lie in two
        // boxes and swapping a and b keeps every house valid.
        let (mut found, n) = (None, 9);
        'outer: for r1 in 0..n {
            for r2 in r1 + 1..n {
                for c1 in 0..n {
                    for c2 in c1 + 1..n {
                        let (a, b) = (g[r1 * n + c1], g[r1 * n + c2]);
                        let same_band = r1 / 3 == r2 / 3;
                        let same_stack = c1 / 3 == c2 / 3;
                        if g[r2 * n + c1] == b && g[r2 * n + c2] == a && (same_band ^ same_stack) {
                            found = Some((r1, r2, c1, c2));
                            break 'outer;
                        }
                    }
                }
            }
        }
        let (r1, r2, c1, c2) = found.expect("PE1 has a deadly rectangle");
        for (r, c) in [(r1, c1), (r1, c2), (r2, c1), (r2, c2)] {
            g[r * n + c] = 0;
        }
        let p = sudoku(9, g);
        let o = solve(&p, &Limits::solutions(0));
        assert_eq!(o.status, Status::Multiple);
        assert_eq!(o.count, 2);
        let o = solve(&p, &Limits::solutions(2));
        assert_eq!(o.status, Status::Multiple);
        assert_eq!(o.count, 2);
        let o = solve(&p, &Limits::solutions(1));
        assert_eq!(o.status, Status::Solved);
    }

    /// From side 32 the candidate table is built under the clock: a limit that has passed
    /// when the build starts ends the puzzle there (no search), and the same engine then
    /// answers the puzzle in full.
    #[test]
    fn the_table_build_reads_the_clock() {
        let g = Arc::new(Geometry::square(36).unwrap());
        let empty = Puzzle::empty(g);
        let passed = Limits {
            time_limit: Some(Duration::from_nanos(1)),
            ..Limits::solutions(1)
        };
        std::thread::sleep(Duration::from_millis(1));
        let o = run_checked(&mut Bitmask, &empty, &passed);
        assert_eq!(o.status, Status::TimeLimit);
        assert_eq!(o.stats.nodes, 0);
        let o = run_checked(&mut Bitmask, &empty, &Limits::solutions(1));
        assert_eq!(o.status, Status::Solved);
    }

    #[test]
    fn node_and_time_limits() {
        let p = sudoku(9, vec![0; 81]);
        let limits = Limits {
            max_solutions: 0,
            node_limit: Some(100),
            ..Limits::default()
        };
        let o = solve(&p, &limits);
        assert_eq!(o.status, Status::NodeLimit);
        assert_eq!(o.stats.nodes, 100);

        let limits = Limits {
            max_solutions: 0,
            time_limit: Some(Duration::from_millis(20)),
            ..Limits::default()
        };
        let o = solve(&p, &limits);
        assert_eq!(o.status, Status::TimeLimit);
        assert!(o.count > 0);

        let limits = Limits {
            max_solutions: 0,
            cancel: Some(Arc::new(AtomicBool::new(true))),
            ..Limits::default()
        };
        assert_eq!(solve(&p, &limits).status, Status::TimeLimit);
    }

    /// Independent counter: cell by cell, digit by digit, checking rows, columns, regions and
    /// diagonals directly.
    fn brute_count(p: &Puzzle) -> u64 {
        let g = p.geometry();
        let n = g.n();
        let reg = g.regions();
        let diag = g.has_diagonals();
        let ok = |grid: &[u16], cell: usize, d: u16| {
            let (r, c) = (cell / n, cell % n);
            (0..n * n).all(|o| {
                if o == cell || grid[o] != d {
                    return true;
                }
                let (r2, c2) = (o / n, o % n);
                !(r2 == r
                    || c2 == c
                    || reg[o] == reg[cell]
                    || (diag && r == c && r2 == c2)
                    || (diag && r + c == n - 1 && r2 + c2 == n - 1))
            })
        };
        fn rec(
            grid: &mut Vec<u16>,
            cell: usize,
            n: usize,
            ok: &dyn Fn(&[u16], usize, u16) -> bool,
        ) -> u64 {
            if cell == grid.len() {
                return 1;
            }
            if grid[cell] != 0 {
                return if ok(grid, cell, grid[cell]) {
                    rec(grid, cell + 1, n, ok)
                } else {
                    0
                };
            }
            let mut total = 0;
            for d in 1..=n as u16 {
                if ok(grid, cell, d) {
                    grid[cell] = d;
                    total += rec(grid, cell + 1, n, ok);
                    grid[cell] = 0;
                }
            }
            total
        }
        let mut grid = p.givens().to_vec();
        rec(&mut grid, 0, n, &ok)
    }

    #[test]
    fn random_small_puzzles_match_brute_force() {
        let mut rng = ChaCha8Rng::seed_from_u64(2017);
        let geometries = [
            Geometry::square(4).unwrap(),
            Geometry::square(4).unwrap().with_diagonals(true),
            Geometry::jigsaw(4, vec![0, 0, 0, 1, 0, 2, 1, 1, 2, 2, 3, 1, 2, 3, 3, 3]).unwrap(),
            Geometry::jigsaw(4, vec![0, 0, 1, 1, 0, 0, 1, 1, 2, 3, 3, 3, 2, 2, 2, 3]).unwrap(),
            Geometry::boxed(4, 1, 4).unwrap(),
        ];
        let empty_4x4 = brute_count(&sudoku(4, vec![0; 16]));
        assert_eq!(empty_4x4, 288);
        for trial in 0..300 {
            let geo = Arc::new(geometries[trial % geometries.len()].clone());
            let n = geo.n();
            let mut givens = vec![0u16; n * n];
            let mut cells: Vec<usize> = (0..n * n).collect();
            cells.shuffle(&mut rng);
            for &c in cells.iter().take(rng.gen_range(0..7)) {
                givens[c] = rng.gen_range(1..=n as u16);
            }
            let p = Puzzle::new(geo, givens).unwrap();
            let expected = if p.clash().is_some() {
                0
            } else {
                brute_count(&p)
            };
            let o = solve(&p, &Limits::solutions(0));
            assert_eq!(o.count, expected, "trial {trial}: {:?}", p.givens());
            let want = match expected {
                0 => Status::Unsat,
                1 => Status::Unique,
                _ => Status::Multiple,
            };
            assert_eq!(o.status, want);
            // The cap stops the count.
            let o = solve(&p, &Limits::solutions(2));
            assert_eq!(o.count, expected.min(2));
        }
    }

    /// Random connected cages over the solution `grid` of side `n`: from each cell not yet in
    /// a cage (skipped, left outside the cages, one time in `outside_one_in` when that is not
    /// 0), a cage grows to a size drawn from `sizes` by adding free right, left or lower
    /// neighbours of its cells; its sum is the grid's, plus one a time in `off_by_one_in`.
    fn random_cages(
        rng: &mut ChaCha8Rng,
        grid: &[u16],
        n: usize,
        sizes: std::ops::RangeInclusive<usize>,
        outside_one_in: u32,
        off_by_one_in: u32,
    ) -> Vec<(Vec<u32>, u32)> {
        let mut cage_of = vec![usize::MAX; n * n];
        let mut cages: Vec<(Vec<u32>, u32)> = Vec::new();
        for start in 0..n * n {
            if cage_of[start] != usize::MAX
                || outside_one_in > 0 && rng.gen_range(0..outside_one_in) == 0
            {
                continue;
            }
            let size = rng.gen_range(sizes.clone());
            let mut cells = vec![start];
            cage_of[start] = cages.len();
            while cells.len() < size {
                let c = cells[rng.gen_range(0..cells.len())];
                let (r, col) = (c / n, c % n);
                let mut next = vec![];
                if col + 1 < n {
                    next.push(c + 1);
                }
                if r + 1 < n {
                    next.push(c + n);
                }
                if col > 0 {
                    next.push(c - 1);
                }
                next.retain(|&x| cage_of[x] == usize::MAX);
                let Some(&x) = next.choose(rng) else { break };
                cage_of[x] = cages.len();
                cells.push(x);
            }
            let mut sum: u32 = cells.iter().map(|&c| grid[c] as u32).sum();
            if rng.gen_range(0..off_by_one_in) == 0 {
                sum += 1;
            }
            cages.push((cells.iter().map(|&c| c as u32).collect(), sum));
        }
        cages
    }

    /// Random cages (connected, 1 to 4 cells, sums from a random solution or off by one) on
    /// the empty 4x4: the count equals the plain grid's solutions that satisfy every
    /// cage, so no cage check (per placement, per row, per level) prunes a solution.
    #[test]
    fn random_killers_count_the_solutions_that_keep_their_cages() {
        let mut rng = ChaCha8Rng::seed_from_u64(29);
        for (n, trials) in [(4usize, 400)] {
            let geo = Arc::new(Geometry::square(n).unwrap());
            let plain = Puzzle::empty(geo.clone());
            let all = solve(&plain, &Limits::solutions(0));
            for trial in 0..trials {
                let grid = &all.solutions[rng.gen_range(0..all.solutions.len())];
                let cages = random_cages(&mut rng, grid, n, 1..=4, 0, 8);
                let Ok(killer) = plain.clone().with_cages(cages.clone()) else {
                    continue; // a sum no digit set reaches (or cells not distinct-able)
                };
                let expected = all
                    .solutions
                    .iter()
                    .filter(|g| {
                        cages.iter().all(|(cells, sum)| {
                            let digits: Vec<u16> = cells.iter().map(|&c| g[c as usize]).collect();
                            let distinct = digits
                                .iter()
                                .enumerate()
                                .all(|(i, d)| !digits[..i].contains(d));
                            distinct && digits.iter().map(|&d| d as u32).sum::<u32>() == *sum
                        })
                    })
                    .count() as u64;
                let o = solve(&killer, &Limits::solutions(0));
                assert_eq!(o.count, expected, "{n}x{n} trial {trial}: {cages:?}");
            }
        }
    }

    /// Random cages on 6x6 grids (2x3 boxes), some cells left outside the cages: the
    /// count (capped at 500) equals that of `backtrack`, whose cage check is a sum bound
    /// per cell. The 6x6 is the smallest side at which the house checks (coverage, innies)
    /// and the digit matchings have room to prune: a false prune shows as a smaller count.
    #[test]
    fn random_6x6_killers_count_as_backtrack_does() {
        use crate::engines::backtrack::Backtrack;
        let mut rng = ChaCha8Rng::seed_from_u64(61);
        let n = 6;
        let geo = Arc::new(Geometry::boxed(6, 2, 3).unwrap());
        let base = pattern_grid(2, 3);
        let limits = Limits::solutions(500);
        let mut pruned = 0;
        for trial in 0..150 {
            // A random solution: relabel the digits, permute rows within bands and bands.
            let mut digits: Vec<u16> = (1..=n as u16).collect();
            digits.shuffle(&mut rng);
            let mut bands = [0usize, 1, 2];
            bands.shuffle(&mut rng);
            let rows: Vec<usize> = bands
                .iter()
                .flat_map(|&b| {
                    let mut inner = [2 * b, 2 * b + 1];
                    inner.shuffle(&mut rng);
                    inner
                })
                .collect();
            let grid: Vec<u16> = (0..n * n)
                .map(|c| digits[base[rows[c / n] * n + c % n] as usize - 1])
                .collect();
            let cages = random_cages(&mut rng, &grid, n, 2..=6, 10, 12);
            let Ok(killer) = Puzzle::empty(geo.clone()).with_cages(cages.clone()) else {
                continue;
            };
            let o = solve(&killer, &limits);
            let reference = run_checked(&mut Backtrack, &killer, &limits);
            assert_eq!(o.count, reference.count, "trial {trial}: {cages:?}");
            pruned += usize::from(o.count < 500);
        }
        assert!(pruned > 50, "too few trials below the cap: {pruned}");
    }

    /// Release-mode rate on norvig-top95 (count up to 2 solutions):
    /// `cargo test --release --lib bitmask::tests::rate_top95 -- --ignored --nocapture`
    #[test]
    #[ignore]
    fn rate_top95() {
        let puzzles: Vec<Puzzle> = data("norvig-top95.txt")
            .lines()
            .filter(|l| l.trim().len() >= 81)
            .map(|l| sudoku(9, parse81(&l.trim()[..81])))
            .collect();
        let limits = Limits::solutions(2);
        let t = std::time::Instant::now();
        let (mut nodes, mut guesses, mut backtracks) = (0u64, 0u64, 0u64);
        let (mut cpu, mut slowest) = (Duration::ZERO, Duration::ZERO);
        for p in &puzzles {
            let o = solve(p, &limits);
            assert_eq!(o.status, Status::Unique);
            nodes += o.stats.nodes;
            guesses += o.stats.guesses;
            backtracks += o.stats.backtracks;
            cpu += o.build + o.solve;
            slowest = slowest.max(o.build + o.solve);
        }
        let wall = t.elapsed().as_secs_f64();
        let (k, cpu) = (puzzles.len() as f64, cpu.as_secs_f64());
        println!(
            "top95 (max 2 solutions): {} puzzles; CPU {cpu:.2} s = {:.2} puzzles/s, \
             {:.1} M placements/s; wall {wall:.2} s = {:.2} puzzles/s; per puzzle: nodes {:.0}, \
             guesses {:.0}, backtracks {:.0}; slowest {:.2} s CPU",
            puzzles.len(),
            k / cpu,
            nodes as f64 / cpu / 1e6,
            k / wall,
            nodes as f64 / k,
            guesses as f64 / k,
            backtracks as f64 / k,
            slowest.as_secs_f64()
        );
    }
}
