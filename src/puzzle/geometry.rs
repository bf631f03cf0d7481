//! Geometry of a Sudoku-family grid: its side `N`, how the grid is cut into boxes or
//! irregular regions, optional diagonals, and the list of *houses* that results.
//!
//! A house is a set of `N` cells that must hold every digit `1..=N` exactly once. Every rule of
//! every supported variant is a house: rows, columns, rectangular boxes or jigsaw regions, and
//! the two diagonals of X-sudoku. Engines and reductions are written against the house list,
//! so a new variant is a new house list, not a change to every engine.
//!
//! Cells are numbered row-major, `cell = row * W + column`, both 0-based, in a frame of
//! `H x W` cells. Digits are `1..=N`; `0` means empty. For every single grid the frame is the
//! grid, `H = W = N`. A *combined* layout (samurai, butterfly, sohei, windmill...) places
//! several boxed `N x N` grids in a larger frame: each grid brings its rows, columns and boxes
//! as houses (a box shared by two grids is one house), and the frame's cells that no grid
//! covers are *void*: they belong to no house and hold no digit (`0` in every grid, given or
//! solved).
//!
//! Windoku (hyper sudoku) adds the *windows*: `R x C` blocks (the box shape) whose top rows are
//! `1, R + 2, 2R + 3, ...` and left columns `1, C + 2, ...`, as many as fit; on 9x9 the four
//! 3x3 windows whose rows and columns start at 1 and 5 (0-based).

use std::fmt;

/// Largest side accepted by the model and the readers. Public instances go up to 400 x 400;
/// the limit exists so that a malformed header cannot make the tool allocate blindly.
pub const MAX_SIDE: usize = 1024;

/// How the grid is cut into its third family of houses.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Layout {
    /// Rectangular boxes of `rows x cols` cells with `rows * cols == N`.
    Boxes { rows: usize, cols: usize },
    /// Irregular regions (jigsaw): `region[cell]` in `0..N`, every region exactly `N` cells.
    Regions(Vec<u16>),
    /// Several boxed `N x N` grids (`N = rows * cols`) in an `height x width` frame, each
    /// placed with its top-left cell at `(top, left)`.
    Combined {
        rows: usize,
        cols: usize,
        height: usize,
        width: usize,
        grids: Vec<(usize, usize)>,
    },
}

/// Top-left corners of the five grids of a samurai (21x21 frame): four corners and the
/// centre, which shares one 3x3 box with each corner grid.
pub const SAMURAI_GRIDS: [(usize, usize); 5] = [(0, 0), (0, 12), (6, 6), (12, 0), (12, 12)];

/// What rule a house comes from. The index is the row, column or box/region number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HouseKind {
    Row(usize),
    Column(usize),
    Box(usize),
    Region(usize),
    /// Main diagonal, top-left to bottom-right.
    Diagonal,
    /// Anti-diagonal, top-right to bottom-left.
    AntiDiagonal,
    /// Windoku window `i`, in reading order.
    Window(usize),
    /// Row `row` of grid `grid` of a combined layout (both 0-based).
    GridRow {
        grid: usize,
        row: usize,
    },
    /// Column `col` of grid `grid` of a combined layout.
    GridColumn {
        grid: usize,
        col: usize,
    },
    /// Box `b` of grid `grid` of a combined layout (a box shared by two grids is named by the
    /// first).
    GridBox {
        grid: usize,
        b: usize,
    },
}

impl fmt::Display for HouseKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HouseKind::Row(i) => write!(f, "row {}", i + 1),
            HouseKind::Column(i) => write!(f, "column {}", i + 1),
            HouseKind::Box(i) => write!(f, "box {}", i + 1),
            HouseKind::Region(i) => write!(f, "region {}", i + 1),
            HouseKind::Diagonal => write!(f, "main diagonal"),
            HouseKind::AntiDiagonal => write!(f, "anti-diagonal"),
            HouseKind::Window(i) => write!(f, "window {}", i + 1),
            HouseKind::GridRow { grid, row } => write!(f, "grid {} row {}", grid + 1, row + 1),
            HouseKind::GridColumn { grid, col } => {
                write!(f, "grid {} column {}", grid + 1, col + 1)
            }
            HouseKind::GridBox { grid, b } => write!(f, "grid {} box {}", grid + 1, b + 1),
        }
    }
}

/// Why a geometry cannot be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GeometryError {
    #[error("side {0} is out of range (1..={MAX_SIDE})")]
    Side(usize),
    #[error("box {rows}x{cols} does not tile a {n}x{n} grid (rows * columns must equal {n})")]
    BoxShape { n: usize, rows: usize, cols: usize },
    #[error("region layout has {got} cells, expected {expected}")]
    RegionCells { expected: usize, got: usize },
    #[error("region layout names {got} regions, expected {n}")]
    RegionCount { n: usize, got: usize },
    #[error("region {region} has {size} cells, expected {n}")]
    RegionSize {
        n: usize,
        region: usize,
        size: usize,
    },
    #[error("region {region} is not connected")]
    RegionDisconnected { region: usize },
    #[error("frame {height}x{width} is out of range (each side 1..={MAX_SIDE})")]
    Frame { height: usize, width: usize },
    #[error("grid {grid} at row {top}, column {left} does not fit the {height}x{width} frame")]
    GridOutside {
        grid: usize,
        top: usize,
        left: usize,
        height: usize,
        width: usize,
    },
    #[error("a combined layout needs at least one grid")]
    NoGrid,
    #[error("windows need boxes of at least 2x2 that leave room for a window (side {n})")]
    Windows { n: usize },
}

/// Side, layout and house list of a grid. Immutable once built; share it with `Arc`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Geometry {
    n: usize,
    /// Frame: `height x width` cells (`N x N` for a single grid).
    height: usize,
    width: usize,
    /// `void[cell]`: the cell belongs to no grid (combined layouts only; empty otherwise).
    void: Vec<bool>,
    layout: Layout,
    diagonals: bool,
    windows: bool,
    /// `houses[h * n .. (h + 1) * n]` are the cells of house `h`, in reading order.
    houses: Vec<u32>,
    kinds: Vec<HouseKind>,
    /// `cell_houses[cell_house_start[c] .. cell_house_start[c + 1]]` are the houses of cell `c`.
    cell_houses: Vec<u32>,
    cell_house_start: Vec<u32>,
    /// Box or region number of each cell (`u16::MAX` for a void cell).
    region_of: Vec<u16>,
}

impl Geometry {
    /// Classic layout: `N x N` with rectangular boxes of `rows x cols`.
    pub fn boxed(n: usize, rows: usize, cols: usize) -> Result<Self, GeometryError> {
        check_side(n)?;
        if rows == 0 || cols == 0 || rows * cols != n {
            return Err(GeometryError::BoxShape { n, rows, cols });
        }
        let region_of = (0..n * n)
            .map(|c| {
                let (r, k) = (c / n, c % n);
                ((r / rows) * (n / cols) + k / cols) as u16
            })
            .collect();
        Ok(Self::build(n, Layout::Boxes { rows, cols }, region_of))
    }

    /// `N x N` with the default box shape for `N` (see [`default_box`]).
    pub fn square(n: usize) -> Result<Self, GeometryError> {
        check_side(n)?;
        let (r, c) = default_box(n);
        Self::boxed(n, r, c)
    }

    /// Jigsaw layout: `region[cell]` names the region of each cell. Region numbers are taken
    /// as given when they are `0..N`; each region must hold exactly `N` cells. Connectivity is
    /// not required by the rules (some published variants have split regions) and is
    /// available separately through [`Geometry::disconnected_region`].
    pub fn jigsaw(n: usize, region: Vec<u16>) -> Result<Self, GeometryError> {
        check_side(n)?;
        if region.len() != n * n {
            return Err(GeometryError::RegionCells {
                expected: n * n,
                got: region.len(),
            });
        }
        let mut size = vec![0usize; n];
        let mut distinct = 0;
        for &r in &region {
            let r = r as usize;
            if r >= n {
                return Err(GeometryError::RegionCount { n, got: r + 1 });
            }
            if size[r] == 0 {
                distinct += 1;
            }
            size[r] += 1;
        }
        if distinct != n {
            return Err(GeometryError::RegionCount { n, got: distinct });
        }
        if let Some((r, &s)) = size.iter().enumerate().find(|(_, &s)| s != n) {
            return Err(GeometryError::RegionSize {
                n,
                region: r,
                size: s,
            });
        }
        Ok(Self::build(n, Layout::Regions(region.clone()), region))
    }

    /// Combined layout: boxed `N x N` grids (boxes `rows x cols`, `N = rows * cols`) placed
    /// with their top-left cells at `grids` in a `height x width` frame. Each grid adds its
    /// rows, columns and boxes; houses with the same cells (a box two grids share) are kept
    /// once; cells of no grid are void.
    pub fn combined(
        rows: usize,
        cols: usize,
        height: usize,
        width: usize,
        grids: Vec<(usize, usize)>,
    ) -> Result<Self, GeometryError> {
        let n = rows * cols;
        check_side(n)?;
        if rows == 0 || cols == 0 {
            return Err(GeometryError::BoxShape { n, rows, cols });
        }
        if height == 0 || width == 0 || height > MAX_SIDE || width > MAX_SIDE {
            return Err(GeometryError::Frame { height, width });
        }
        if grids.is_empty() {
            return Err(GeometryError::NoGrid);
        }
        if let Some((i, &(top, left))) = grids
            .iter()
            .enumerate()
            .find(|(_, &(t, l))| t + n > height || l + n > width)
        {
            return Err(GeometryError::GridOutside {
                grid: i + 1,
                top,
                left,
                height,
                width,
            });
        }
        Ok(Self::build_combined(Layout::Combined {
            rows,
            cols,
            height,
            width,
            grids,
        }))
    }

    /// Samurai: five 9x9 grids in a 21x21 frame ([`SAMURAI_GRIDS`]).
    pub fn samurai() -> Self {
        Self::combined(3, 3, 21, 21, SAMURAI_GRIDS.to_vec()).expect("the samurai layout fits")
    }

    /// The same geometry with the two diagonal houses added (X-sudoku) or removed. A combined
    /// layout has no diagonals: it is returned unchanged (readers refuse the combination).
    pub fn with_diagonals(&self, diagonals: bool) -> Self {
        if self.is_combined() {
            return self.clone();
        }
        self.rebuilt(diagonals, self.windows)
            .expect("the windows fitted before")
    }

    /// The same geometry with the windoku windows added or removed (see the module doc).
    /// Fails on a combined layout and where no window fits (boxes under 2x2).
    pub fn with_windows(&self, windows: bool) -> Result<Self, GeometryError> {
        if windows && self.is_combined() {
            return Err(GeometryError::Windows { n: self.n });
        }
        self.rebuilt(self.diagonals, windows)
    }

    fn rebuilt(&self, diagonals: bool, windows: bool) -> Result<Self, GeometryError> {
        let mut g = match self.layout {
            Layout::Combined { .. } => return Ok(self.clone()),
            _ => Self::build(self.n, self.layout.clone(), self.region_of.clone()),
        };
        if diagonals {
            g.add_diagonals();
        }
        if windows {
            g.add_windows()?;
        }
        Ok(g)
    }

    fn build(n: usize, layout: Layout, region_of: Vec<u16>) -> Self {
        let mut houses = Vec::with_capacity(3 * n * n);
        let mut kinds = Vec::with_capacity(3 * n + 2);
        for r in 0..n {
            kinds.push(HouseKind::Row(r));
            houses.extend((0..n).map(|c| (r * n + c) as u32));
        }
        for c in 0..n {
            kinds.push(HouseKind::Column(c));
            houses.extend((0..n).map(|r| (r * n + c) as u32));
        }
        let boxed = matches!(layout, Layout::Boxes { .. });
        let mut members: Vec<Vec<u32>> = vec![Vec::with_capacity(n); n];
        for (cell, &r) in region_of.iter().enumerate() {
            members[r as usize].push(cell as u32);
        }
        for (b, cells) in members.into_iter().enumerate() {
            kinds.push(if boxed {
                HouseKind::Box(b)
            } else {
                HouseKind::Region(b)
            });
            houses.extend(cells);
        }
        Self::assemble(n, (n, n), Vec::new(), layout, (houses, kinds), region_of)
    }

    /// The geometry of these parts, its cell index built (no diagonals, no windows).
    fn assemble(
        n: usize,
        (height, width): (usize, usize),
        void: Vec<bool>,
        layout: Layout,
        (houses, kinds): (Vec<u32>, Vec<HouseKind>),
        region_of: Vec<u16>,
    ) -> Self {
        let mut g = Geometry {
            n,
            height,
            width,
            void,
            layout,
            diagonals: false,
            windows: false,
            houses,
            kinds,
            cell_houses: Vec::new(),
            cell_house_start: Vec::new(),
            region_of,
        };
        g.index_cells();
        g
    }

    fn build_combined(layout: Layout) -> Self {
        let Layout::Combined {
            rows,
            cols,
            height,
            width,
            ref grids,
        } = layout
        else {
            unreachable!("a combined layout")
        };
        let n = rows * cols;
        let mut houses: Vec<u32> = Vec::new();
        let mut kinds = Vec::new();
        let mut seen: std::collections::HashSet<Vec<u32>> = std::collections::HashSet::new();
        let mut void = vec![true; height * width];
        let mut region_of = vec![u16::MAX; height * width];
        let mut boxes = 0u16;
        let cell =
            |top: usize, left: usize, r: usize, c: usize| ((top + r) * width + left + c) as u32;
        for (g, &(top, left)) in grids.iter().enumerate() {
            let mut add = |kind: HouseKind, mut cells: Vec<u32>| -> bool {
                cells.sort_unstable();
                if !seen.insert(cells.clone()) {
                    return false;
                }
                kinds.push(kind);
                houses.extend(cells);
                true
            };
            for r in 0..n {
                add(
                    HouseKind::GridRow { grid: g, row: r },
                    (0..n).map(|c| cell(top, left, r, c)).collect(),
                );
            }
            for c in 0..n {
                add(
                    HouseKind::GridColumn { grid: g, col: c },
                    (0..n).map(|r| cell(top, left, r, c)).collect(),
                );
            }
            for b in 0..n {
                let (r0, c0) = ((b / (n / cols)) * rows, (b % (n / cols)) * cols);
                let cells: Vec<u32> = (0..n)
                    .map(|i| cell(top, left, r0 + i / cols, c0 + i % cols))
                    .collect();
                if add(HouseKind::GridBox { grid: g, b }, cells.clone()) {
                    for &c in &cells {
                        region_of[c as usize] = boxes;
                    }
                    boxes += 1;
                }
            }
            for r in 0..n {
                for c in 0..n {
                    void[cell(top, left, r, c) as usize] = false;
                }
            }
        }
        Self::assemble(n, (height, width), void, layout, (houses, kinds), region_of)
    }

    fn add_diagonals(&mut self) {
        let n = self.n;
        self.kinds.push(HouseKind::Diagonal);
        self.houses.extend((0..n).map(|i| (i * n + i) as u32));
        self.kinds.push(HouseKind::AntiDiagonal);
        self.houses
            .extend((0..n).map(|i| (i * n + (n - 1 - i)) as u32));
        self.diagonals = true;
        self.index_cells();
    }

    fn add_windows(&mut self) -> Result<(), GeometryError> {
        let n = self.n;
        let (rows, cols) = self.box_shape().unwrap_or_else(|| default_box(n));
        let starts = |size: usize| -> Vec<usize> {
            (0..)
                .map(|i| 1 + i * (size + 1))
                .take_while(|&t| t + size <= n)
                .collect()
        };
        let (tops, lefts) = (starts(rows), starts(cols));
        if rows < 2 || cols < 2 || tops.is_empty() || lefts.is_empty() {
            return Err(GeometryError::Windows { n });
        }
        let mut w = 0;
        for &top in &tops {
            for &left in &lefts {
                self.kinds.push(HouseKind::Window(w));
                w += 1;
                self.houses
                    .extend((0..n).map(|i| ((top + i / cols) * n + left + i % cols) as u32));
            }
        }
        self.windows = true;
        self.index_cells();
        Ok(())
    }

    fn index_cells(&mut self) {
        let cells = self.cells();
        let mut count = vec![0u32; cells + 1];
        for &c in &self.houses {
            count[c as usize + 1] += 1;
        }
        for i in 0..cells {
            count[i + 1] += count[i];
        }
        let mut fill = count.clone();
        let mut cell_houses = vec![0u32; self.houses.len()];
        for h in 0..self.kinds.len() {
            for &c in self.house(h) {
                cell_houses[fill[c as usize] as usize] = h as u32;
                fill[c as usize] += 1;
            }
        }
        self.cell_houses = cell_houses;
        self.cell_house_start = count;
    }

    /// Side `N` of a grid: digits are `1..=N` and every house has `N` cells. The frame is
    /// `N x N` unless the layout is combined ([`Geometry::height`], [`Geometry::width`]).
    #[inline]
    pub fn n(&self) -> usize {
        self.n
    }

    /// Number of cells of the frame, `height * width` (`N * N` for a single grid), void
    /// cells included.
    #[inline]
    pub fn cells(&self) -> usize {
        self.height * self.width
    }

    /// Rows of the frame (`N` for a single grid).
    #[inline]
    pub fn height(&self) -> usize {
        self.height
    }

    /// Columns of the frame (`N` for a single grid).
    #[inline]
    pub fn width(&self) -> usize {
        self.width
    }

    /// Whether the layout places several grids in a frame ([`Layout::Combined`]).
    pub fn is_combined(&self) -> bool {
        matches!(self.layout, Layout::Combined { .. })
    }

    /// Whether `cell` belongs to no grid (combined layouts only).
    #[inline]
    pub fn is_void(&self, cell: usize) -> bool {
        self.void.get(cell).copied().unwrap_or(false)
    }

    /// Number of void cells.
    pub fn void_cells(&self) -> usize {
        self.void.iter().filter(|&&v| v).count()
    }

    /// Sets every void cell of `grid` to 0 (see [`crate::puzzle::Puzzle::void_as_given`]).
    pub fn clear_void(&self, grid: &mut [u16]) {
        for (cell, d) in grid.iter_mut().enumerate() {
            if self.is_void(cell) {
                *d = 0;
            }
        }
    }

    /// Whether the houses are more than the rows, columns and boxes or regions of one grid
    /// and its diagonals: windows or a combined layout. Engines written for those alone
    /// answer `unsupported` on such geometries.
    pub fn has_extra_houses(&self) -> bool {
        self.windows || self.is_combined()
    }

    pub fn has_windows(&self) -> bool {
        self.windows
    }

    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// Box shape `(rows, cols)` for a boxed layout, `None` for jigsaw regions.
    pub fn box_shape(&self) -> Option<(usize, usize)> {
        match self.layout {
            Layout::Boxes { rows, cols } => Some((rows, cols)),
            Layout::Regions(_) | Layout::Combined { .. } => None,
        }
    }

    /// Box shape `(rows, cols)` of every grid of a combined layout.
    pub fn grid_box_shape(&self) -> Option<(usize, usize)> {
        match self.layout {
            Layout::Combined { rows, cols, .. } => Some((rows, cols)),
            _ => None,
        }
    }

    /// Whether this is the samurai layout (five 9x9 grids, [`SAMURAI_GRIDS`]).
    pub fn is_samurai(&self) -> bool {
        matches!(&self.layout, Layout::Combined { rows: 3, cols: 3, height: 21, width: 21, grids } if grids[..] == SAMURAI_GRIDS[..])
    }

    pub fn is_jigsaw(&self) -> bool {
        matches!(self.layout, Layout::Regions(_))
    }

    pub fn has_diagonals(&self) -> bool {
        self.diagonals
    }

    /// Short name of the variant: `classic`, `jigsaw`, `x`, `jigsaw-x`, `windoku`,
    /// `windoku-x`, `jigsaw-windoku`, ..., `samurai` or `combined`.
    pub fn variant(&self) -> String {
        self.variant_with(false)
    }

    /// The variant's name, with `killer` in it when `cages` (see [`crate::puzzle::Puzzle::variant`]).
    pub(crate) fn variant_with(&self, cages: bool) -> String {
        let mut parts: Vec<&str> = Vec::new();
        if self.is_samurai() {
            parts.push("samurai");
        } else if self.is_combined() {
            parts.push("combined");
        }
        if self.is_jigsaw() {
            parts.push("jigsaw");
        }
        if cages {
            parts.push("killer");
        }
        if self.windows {
            parts.push("windoku");
        }
        if self.diagonals {
            parts.push("x");
        }
        if parts.is_empty() {
            "classic".to_string()
        } else {
            parts.join("-")
        }
    }

    /// Number of houses: `3N`, plus 2 with diagonals, plus the windows; for a combined
    /// layout, those of its grids (shared boxes once).
    #[inline]
    pub fn house_count(&self) -> usize {
        self.kinds.len()
    }

    /// Cells of house `h`.
    #[inline]
    pub fn house(&self, h: usize) -> &[u32] {
        &self.houses[h * self.n..(h + 1) * self.n]
    }

    /// All houses, each a slice of `N` cells.
    pub fn houses(&self) -> impl ExactSizeIterator<Item = &[u32]> + '_ {
        self.houses.chunks_exact(self.n.max(1))
    }

    pub fn house_kind(&self, h: usize) -> HouseKind {
        self.kinds[h]
    }

    /// Houses that contain `cell` (3, 4 or 5 of them).
    #[inline]
    pub fn houses_of(&self, cell: usize) -> &[u32] {
        let (a, b) = (
            self.cell_house_start[cell] as usize,
            self.cell_house_start[cell + 1] as usize,
        );
        &self.cell_houses[a..b]
    }

    /// Box or region number of `cell` (the third house of every cell).
    #[inline]
    pub fn region_of(&self, cell: usize) -> usize {
        self.region_of[cell] as usize
    }

    /// Region number of every cell.
    pub fn regions(&self) -> &[u16] {
        &self.region_of
    }

    /// Row of `cell` in the frame.
    #[inline]
    pub fn row_of(&self, cell: usize) -> usize {
        cell / self.width
    }

    /// Column of `cell` in the frame.
    #[inline]
    pub fn col_of(&self, cell: usize) -> usize {
        cell % self.width
    }

    /// Whether `cell` is on the main diagonal / anti-diagonal *and* this geometry has them.
    pub fn on_diagonal(&self, cell: usize) -> bool {
        self.diagonals && self.row_of(cell) == self.col_of(cell)
    }

    pub fn on_anti_diagonal(&self, cell: usize) -> bool {
        self.diagonals && self.row_of(cell) + self.col_of(cell) == self.n - 1
    }

    /// First region (0-based) whose cells are not 4-connected, if any (jigsaw layouts; boxes
    /// are always connected).
    pub fn disconnected_region(&self) -> Option<usize> {
        if !self.is_jigsaw() {
            return None;
        }
        let n = self.n;
        let mut seen = vec![false; n * n];
        let mut done = vec![false; n];
        for start in 0..n * n {
            let r = self.region_of[start];
            if done[r as usize] {
                continue;
            }
            done[r as usize] = true;
            let mut stack = vec![start];
            seen[start] = true;
            let mut reached = 1;
            while let Some(c) = stack.pop() {
                let (row, col) = (c / n, c % n);
                let mut visit = |d: usize| {
                    if !seen[d] && self.region_of[d] == r {
                        seen[d] = true;
                        reached += 1;
                        stack.push(d);
                    }
                };
                if row > 0 {
                    visit(c - n);
                }
                if row + 1 < n {
                    visit(c + n);
                }
                if col > 0 {
                    visit(c - 1);
                }
                if col + 1 < n {
                    visit(c + 1);
                }
            }
            if reached != n {
                return Some(r as usize);
            }
        }
        None
    }

    /// Checks a complete grid (a digit in `1..=N` in every cell of the frame, `0` in every
    /// void cell) against every house.
    pub fn check_grid(&self, grid: &[u16]) -> Result<(), GridError> {
        if grid.len() != self.cells() {
            return Err(GridError::Length {
                expected: self.cells(),
                got: grid.len(),
            });
        }
        if let Some(e) = self.misplaced_digit(grid, false) {
            return Err(e);
        }
        self.first_clash(grid).map_or(Ok(()), Err)
    }

    /// The first cell whose digit does not fit: a digit above `N`, a digit in a void cell,
    /// or (unless `empty_allowed`) an empty cell outside the void.
    pub fn misplaced_digit(&self, grid: &[u16], empty_allowed: bool) -> Option<GridError> {
        grid.iter().enumerate().find_map(|(cell, &digit)| {
            if self.is_void(cell) {
                (digit != 0).then_some(GridError::Void { cell, digit })
            } else if digit as usize > self.n || (digit == 0 && !empty_allowed) {
                Some(GridError::Digit { cell, digit })
            } else {
                None
            }
        })
    }

    /// First house holding some digit twice (empty cells ignored), as a [`GridError::Clash`].
    pub fn first_clash(&self, grid: &[u16]) -> Option<GridError> {
        let n = self.n;
        let clash = |h: usize, d: usize| GridError::Clash {
            house: self.kinds[h],
            digit: d as u16,
        };
        if n < 64 {
            // One word of seen digits per house: no allocation (this check runs on every
            // reported solution, so it is on the per-puzzle path of the fastest engines).
            for (h, house) in self.houses().enumerate() {
                let mut seen = 0u64;
                for &c in house {
                    let d = grid[c as usize] as usize;
                    if d == 0 || d > n {
                        continue;
                    }
                    if seen & (1 << d) != 0 {
                        return Some(clash(h, d));
                    }
                    seen |= 1 << d;
                }
            }
            return None;
        }
        let mut seen = vec![u32::MAX; n + 1];
        for (h, house) in self.houses().enumerate() {
            for &c in house {
                let d = grid[c as usize] as usize;
                if d == 0 || d > n {
                    continue;
                }
                if seen[d] == h as u32 {
                    return Some(clash(h, d));
                }
                seen[d] = h as u32;
            }
        }
        None
    }
}

/// Why a grid fails the check against the houses.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GridError {
    #[error("grid has {got} cells, expected {expected}")]
    Length { expected: usize, got: usize },
    #[error("cell {cell} holds {digit}, not a digit of this grid")]
    Digit { cell: usize, digit: u16 },
    #[error("{house} holds {digit} twice")]
    Clash { house: HouseKind, digit: u16 },
    #[error("cell {cell} is void (in no grid) but holds {digit}")]
    Void { cell: usize, digit: u16 },
    #[error("cell {cell} was given as {given} but holds {got}")]
    Given { cell: usize, given: u16, got: u16 },
    #[error("cage {cage} {}", match how {
        super::CageBreak::Repeated(d) => format!("holds {d} twice"),
        super::CageBreak::Sum(s) => format!("adds up to {s}, not its sum"),
    })]
    Cage { cage: usize, how: super::CageBreak },
}

fn check_side(n: usize) -> Result<(), GeometryError> {
    if n == 0 || n > MAX_SIDE {
        Err(GeometryError::Side(n))
    } else {
        Ok(())
    }
}

/// Default box shape for side `n`: `R x C` with `R * C = n`, `R <= C`, as square as possible
/// (4 -> 2x2, 6 -> 2x3, 8 -> 2x4, 9 -> 3x3, 12 -> 3x4). A prime `n` gets `1 x n` boxes, which
/// repeat the rows: the puzzle is then a Latin square.
pub fn default_box(n: usize) -> (usize, usize) {
    let mut r = (n as f64).sqrt() as usize;
    while r > 1 && n % r != 0 {
        r -= 1;
    }
    let r = r.max(1);
    (r, n / r)
}

/// Parses a box shape written `RxC` (rows x columns, e.g. `2x3`; `X` and spaces around the
/// numbers are accepted). Whether it tiles a grid is [`Geometry::boxed`]'s question.
pub fn parse_box(s: &str) -> Result<(usize, usize), BoxShapeError> {
    let (r, c) = s
        .split_once(['x', 'X'])
        .ok_or_else(|| BoxShapeError::NotRxC {
            found: s.to_string(),
        })?;
    let side = |v: &str, what: &'static str| -> Result<usize, BoxShapeError> {
        match v.trim().parse::<usize>() {
            Ok(0) => Err(BoxShapeError::Zero {
                what,
                found: s.to_string(),
            }),
            Ok(v) => Ok(v),
            Err(_) => Err(BoxShapeError::NotANumber {
                what,
                value: v.trim().to_string(),
                found: s.to_string(),
            }),
        }
    };
    Ok((side(r, "row count")?, side(c, "column count")?))
}

/// Why a box shape written `RxC` cannot be read ([`parse_box`]); `found` is the text read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BoxShapeError {
    #[error("expected RxC (box rows x columns, e.g. 2x3), found {found:?}")]
    NotRxC { found: String },
    /// A row or column count of 0; `what` names which.
    #[error("expected RxC (box rows x columns, e.g. 2x3): the {what} must be at least 1, found 0 in {found:?}")]
    Zero { what: &'static str, found: String },
    /// A row or column count that is not a whole number.
    #[error("expected RxC (box rows x columns, e.g. 2x3): the {what} must be a whole number, found {value:?} in {found:?}")]
    NotANumber {
        what: &'static str,
        value: String,
        found: String,
    },
}

/// A 6x6 jigsaw for the tests of engines and encodings: six irregular regions, each
/// touching three or four rows and columns.
#[cfg(test)]
pub(crate) fn jigsaw6_for_tests() -> Geometry {
    Geometry::jigsaw(
        6,
        vec![
            0, 0, 0, 1, 1, 1, //
            0, 0, 2, 2, 1, 1, //
            0, 2, 2, 2, 3, 1, //
            4, 4, 2, 3, 3, 3, //
            4, 4, 5, 5, 3, 5, //
            4, 4, 5, 5, 5, 3, //
        ],
    )
    .expect("a valid 6x6 jigsaw")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn box_shapes_parse_and_bad_ones_say_what_was_found() {
        assert_eq!(parse_box("2x3"), Ok((2, 3)));
        assert_eq!(parse_box(" 3 X 4 "), Ok((3, 4)));
        let e = parse_box("3").unwrap_err().to_string();
        assert!(
            e.contains("expected RxC") && e.contains("found \"3\""),
            "{e}"
        );
        let e = parse_box("0x3").unwrap_err().to_string();
        assert!(e.contains("row count must be at least 1"), "{e}");
        let e = parse_box("3xb").unwrap_err().to_string();
        assert!(e.contains("column count") && e.contains("\"b\""), "{e}");
    }

    #[test]
    fn default_boxes() {
        assert_eq!(default_box(4), (2, 2));
        assert_eq!(default_box(6), (2, 3));
        assert_eq!(default_box(8), (2, 4));
        assert_eq!(default_box(9), (3, 3));
        assert_eq!(default_box(12), (3, 4));
        assert_eq!(default_box(16), (4, 4));
        assert_eq!(default_box(25), (5, 5));
        assert_eq!(default_box(7), (1, 7));
        assert_eq!(default_box(1), (1, 1));
    }

    #[test]
    fn houses_of_classic_9x9() {
        let g = Geometry::square(9).unwrap();
        assert_eq!(g.house_count(), 27);
        for c in 0..81 {
            assert_eq!(g.houses_of(c).len(), 3);
            for &h in g.houses_of(c) {
                assert!(g.house(h as usize).contains(&(c as u32)));
            }
        }
        // box 4 (the centre) holds cells of rows 3..6, columns 3..6
        assert_eq!(g.house(18 + 4), &[30, 31, 32, 39, 40, 41, 48, 49, 50]);
        let x = g.with_diagonals(true);
        assert_eq!(x.house_count(), 29);
        assert_eq!(x.houses_of(40).len(), 5);
        assert_eq!(x.houses_of(1).len(), 3);
    }

    #[test]
    fn six_by_six_boxes_are_two_by_three() {
        let g = Geometry::square(6).unwrap();
        assert_eq!(g.house(12), &[0, 1, 2, 6, 7, 8]);
    }

    #[test]
    fn regions_are_checked() {
        assert!(matches!(
            Geometry::jigsaw(2, vec![0, 0, 0, 1]),
            Err(GeometryError::RegionSize { .. })
        ));
        assert!(matches!(
            Geometry::jigsaw(2, vec![0, 0, 2, 2]),
            Err(GeometryError::RegionCount { .. })
        ));
        let g = Geometry::jigsaw(2, vec![0, 1, 1, 0]).unwrap();
        assert_eq!(g.disconnected_region(), Some(0));
        let g = Geometry::jigsaw(2, vec![0, 0, 1, 1]).unwrap();
        assert_eq!(g.disconnected_region(), None);
    }

    #[test]
    fn sides_are_bounded() {
        assert_eq!(Geometry::square(0), Err(GeometryError::Side(0)));
        assert_eq!(
            Geometry::square(MAX_SIDE + 1),
            Err(GeometryError::Side(MAX_SIDE + 1))
        );
        assert!(Geometry::boxed(9, 2, 4).is_err());
    }

    #[test]
    fn grid_check_finds_clashes() {
        let g = Geometry::square(4).unwrap();
        let good = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1];
        assert_eq!(g.check_grid(&good), Ok(()));
        let mut bad = good;
        bad.swap(0, 1);
        assert!(matches!(g.check_grid(&bad), Err(GridError::Clash { .. })));
        // this grid is a valid sudoku but fails the anti-diagonal (4, 1, 4, 4 ...)
        let x = g.with_diagonals(true);
        assert!(x.check_grid(&good).is_err());
    }
}
