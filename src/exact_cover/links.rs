//! The dancing-links data structure: an exact-cover problem as circular doubly linked item
//! lists in flat arrays, with the `cover` and `uncover` operations that remove and restore
//! an item and every option that meets it.
//!
//! Sources: D. E. Knuth, "Dancing Links", in *Millennial Perspectives in Computer Science*
//! (2000), arXiv cs/0011047; and Knuth's program DLX1 (the reference implementation of
//! Algorithm 7.2.2.1X in *The Art of Computer Programming*), whose layout this copies:
//!
//! - node `i` for `i < items` is the *header* of item `i`'s list; after them come the option
//!   nodes, each option's nodes consecutive, with one *spacer* node before the first option,
//!   between options and after the last. A spacer's `up` is the first node of the option
//!   before it and its `down` the last node of the option after it, so an option can be walked
//!   circularly from any of its nodes;
//! - each node has `up` and `down` (neighbours in its item's list) and `top` (its item; for a
//!   spacer, a value `>= items` that also encodes the option before it). As in DLX1 and
//!   unlike the 2000 paper, there is no `right` link: the node after `q` in its option is
//!   `q + 1`, and the spacer after the option leads back to its first node. Hiding an option
//!   then computes the next address instead of loading it, so the loads of its nodes do not
//!   wait on one another (`scripts/bench/dlx.sh` measures such layout choices against a build
//!   without them: docs/benchmarks.md);
//! - indices into `Vec`s, no pointer, no allocation after construction: `u16` indices when
//!   the problem has fewer than 65 536 nodes, with `i8` keys when no item has 31 options or
//!   more (9x9 and 16x16 Sudoku matrices) or `i16` keys when none has 8192 or more
//!   (pentominoes); `u32` indices and `i32` keys otherwise (25x25 Sudoku). Smaller nodes and
//!   keys keep the structure in the first-level cache and make the choice scan shorter; the
//!   algorithm is the same generic code.
//!
//! Two departures from DLX1's representation, neither of which changes any choice or count:
//!
//! - DLX1 keeps the active primary items in a doubly linked header list and walks it to
//!   choose an item. Here each item has a *key*, `len | flags` in one integer: `len` is the
//!   number of options in the item's list (DLX1's `len`), and the flags mark the item as
//!   covered (out of the header list) or secondary. Removing an item from the header list
//!   sets its covered flag; the header list, in its order, is the set of primary items whose
//!   key has no flag, in index order (unlinking never reorders a linked list). The leftmost
//!   item of least `len` in the header list is then the first index holding the least key,
//!   which a branch-free scan over a dense array finds fast.
//! - Options with no primary item are not linked at all. DLX1 drops them while reading its
//!   input ("row ignored"), so the two programs see the same matrix.
//!
//! `updates` is counted in `cover` exactly as DLX1 counts it: +1 when the item leaves the
//! header list, +1 for every node removed from another item's list.
//!
//! DLX1 finds a dead end (an active primary item with no option) by choosing it. The covers
//! can also note the last item whose list a hide emptied (`zeroed`), which the elimination
//! of [`super::propagate`] uses to stop early; the plain search's covers skip that (a compare
//! and a conditional move per node hidden) and find dead ends by the choice scan, which
//! counts the same.
//!
//! When every option has the same 4 items in fixed places (every Sudoku matrix without extra
//! houses: cell, row, column, box; `Core::width`), the search hides an option by unrolled
//! code whose addresses are computed from the node's place in its option, with no
//! end-of-option test, and the covers of an option's other items take each item's place
//! from the option instead of reading it from the item's header. The nodes hidden and their
//! order are those of the general walk, so every count is the same.

use super::ExactCover;
use std::fmt::Debug;

/// A node index: `u16` or `u32`.
pub(crate) trait Idx: Copy + Eq + Ord + Debug + Default + Send + Sync + 'static {
    /// Largest number of nodes this index type can number.
    const NODES: usize;
    fn of(v: u32) -> Self;
    fn get(self) -> u32;
}

impl Idx for u16 {
    const NODES: usize = u16::MAX as usize;
    #[inline(always)]
    fn of(v: u32) -> Self {
        v as u16
    }
    #[inline(always)]
    fn get(self) -> u32 {
        self as u32
    }
}

impl Idx for u32 {
    const NODES: usize = u32::MAX as usize;
    #[inline(always)]
    fn of(v: u32) -> Self {
        v
    }
    #[inline(always)]
    fn get(self) -> u32 {
        self
    }
}

/// An item key, `len | COVERED? | SECONDARY?`: `i8`, `i16` or `i32`.
pub(crate) trait Key: Copy + Eq + Ord + Debug + Default + Send + Sync + 'static {
    const COVERED: Self;
    const SECONDARY: Self;
    /// Mask of the length part; also the largest length.
    const LEN: Self;
    const MAX: Self;
    const ONE: Self;
    fn to_usize(self) -> usize;
    fn add(self, o: Self) -> Self;
    fn sub(self, o: Self) -> Self;
    fn and(self, o: Self) -> Self;
    fn or(self, o: Self) -> Self;
    fn not(self) -> Self;
    /// [`first_min_portable`] with AVX2 instructions.
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[cfg(target_arch = "x86_64")]
    unsafe fn first_min_avx2(keys: &[Self]) -> usize;
}

macro_rules! key {
    ($t:ty, $bits:expr, $avx2:ident) => {
        impl Key for $t {
            const COVERED: Self = 1 << ($bits - 2);
            const SECONDARY: Self = 1 << ($bits - 3);
            const LEN: Self = (1 << ($bits - 3)) - 1;
            const MAX: Self = <$t>::MAX;
            const ONE: Self = 1;
            #[inline(always)]
            fn to_usize(self) -> usize {
                self as usize
            }
            #[inline(always)]
            fn add(self, o: Self) -> Self {
                self.wrapping_add(o)
            }
            #[inline(always)]
            fn sub(self, o: Self) -> Self {
                self.wrapping_sub(o)
            }
            #[inline(always)]
            fn and(self, o: Self) -> Self {
                self & o
            }
            #[inline(always)]
            fn or(self, o: Self) -> Self {
                self | o
            }
            #[inline(always)]
            fn not(self) -> Self {
                !self
            }
            #[cfg(target_arch = "x86_64")]
            #[inline(always)]
            unsafe fn first_min_avx2(keys: &[Self]) -> usize {
                x86::$avx2(keys)
            }
        }
    };
}
key!(i8, 8, first_min_i8);
key!(i16, 16, first_min_i16);
key!(i32, 32, first_min_i32);

/// One node: neighbours in its item's list and its item (DLX1's `up`, `down`, `itm`). The
/// next node of an option is the next index, up to the spacer after the option (see
/// [`others`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C)]
struct Node<I> {
    up: I,
    down: I,
    top: I,
    /// For an option node, its place in its option (0 for the first node); for a header,
    /// the place of its item in every option holding it when [`Core::width`] is not 0 (else
    /// 0); 0 in spacers. Read only when `width` is not 0 (see [`others`]); it also keeps a
    /// node 8 (or 16) bytes, so that its address is an index shifted: the 6-byte node (index
    /// times 3, then 2) searched 9x9 Sudoku 15-17% slower.
    slot: I,
}

/// Reads node `i` without a bounds check.
///
/// SAFETY (for every caller in this file): node indices come only from `up`, `down` and
/// `top` fields, from item numbers below `items`, and from `q + 1` for an option node `q`
/// (which is at most the spacer after its option); construction makes every link point into
/// `nodes`, every `top` below `items` or a spacer, and ends `nodes` with a spacer, and
/// `cover`/`uncover` only copy links between nodes, so every index stays below
/// `nodes.len()`. Checked by `debug_assert!` in debug builds (all tests run there).
#[inline(always)]
fn node<I: Idx>(nodes: &[Node<I>], i: u32) -> Node<I> {
    debug_assert!((i as usize) < nodes.len());
    unsafe { *nodes.get_unchecked(i as usize) }
}

/// Node `i`'s `up`, `down` and `top` read one by one (its `slot` left 0), for [`others`]
/// with `W > 0`. A node read whole is one 64-bit load, which cannot take its value from the
/// 16-bit store that unlinked a neighbour a moment before (store forwarding fails and the
/// load waits for the store to reach the cache); loads of one field each can.
#[inline(always)]
fn node_fields<I: Idx>(nodes: &[Node<I>], i: u32) -> Node<I> {
    debug_assert!((i as usize) < nodes.len());
    // SAFETY: as for `node`.
    let n = unsafe { nodes.get_unchecked(i as usize) };
    Node {
        up: n.up,
        down: n.down,
        top: n.top,
        slot: I::default(),
    }
}

/// `v`, through an empty `asm!` block on x86-64, so that the compiler cannot narrow a loop
/// variable started from it. A node index walking a list (`rr = down(rr)`) would otherwise
/// be kept in 16 bits and zero-extended again before every load: one more cycle on the
/// chain of dependent loads that a list walk is. Only the generated code depends on it, never
/// a result: every cover and uncover goes through it, so every test of the searches runs it.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn opaque(mut v: u32) -> u32 {
    // SAFETY: the template is empty (a comment naming the register): no instruction runs,
    // and the block declares that it touches no memory, no stack and no flags, reading and
    // writing only `v`'s register, which it leaves as it was.
    unsafe {
        std::arch::asm!("/* {0:e} */", inout(reg) v, options(pure, nomem, nostack, preserves_flags))
    };
    v
}

/// [`opaque`] on other targets: `v` itself (the portable code; the narrowing it may leave
/// costs an instruction at most).
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn opaque(v: u32) -> u32 {
    v
}

#[inline(always)]
fn node_mut<I: Idx>(nodes: &mut [Node<I>], i: u32) -> &mut Node<I> {
    debug_assert!((i as usize) < nodes.len());
    unsafe { nodes.get_unchecked_mut(i as usize) }
}

#[inline(always)]
fn key_mut<K: Key>(key: &mut [K], i: u32) -> &mut K {
    debug_assert!((i as usize) < key.len());
    unsafe { key.get_unchecked_mut(i as usize) }
}

/// Calls `f(nodes, q, node q)` for every node `q` of the option holding node `rr` other
/// than `rr`, going right, cyclically (DLX1's order): `q = rr + 1, rr + 2, ...` up to the
/// spacer after the option (a `top` of `items` or more), then from the option's first node
/// (the spacer's `up`) up to `rr - 1`. The next index is known before the node is read, so
/// the loads of an option's nodes do not wait on one another (as they would on a `right`
/// link), and each node costs one test.
///
/// `W > 0` says that every option has exactly `W` nodes and that `rr` is the node in place
/// `slot` of its option (see [`Core::width`]; 9x9 Sudoku: `W = 4`, and a cover knows `slot`
/// from its item's header): the others are then `rr - slot + (slot + j) mod W` for
/// `j = 1..W`, the same nodes in the same order, with no test at all (no branch to
/// mispredict where an option ends) and with addresses known before any node is read.
/// `W = 0`: any options (`slot` unused).
#[inline(always)]
fn others<I: Idx, const W: u32>(
    nodes: &mut [Node<I>],
    rr: u32,
    slot: u32,
    items: u32,
    mut f: impl FnMut(&mut [Node<I>], u32, Node<I>),
) {
    if W > 0 {
        let start = rr - slot;
        for j in 1..W {
            let q = start + (slot + j) % W;
            let n = node_fields(nodes, q);
            debug_assert!(n.top.get() < items && node(nodes, q).slot.get() == (slot + j) % W);
            f(nodes, q, n);
        }
        return;
    }
    let mut nn = rr + 1;
    let mut n = node(nodes, nn);
    while n.top.get() < items {
        f(nodes, nn, n);
        nn += 1;
        n = node(nodes, nn);
    }
    nn = n.up.get();
    while nn != rr {
        f(nodes, nn, node(nodes, nn));
        nn += 1;
    }
}

/// Takes node `n` out of its item's list and shortens the item's key (the step shared by
/// `cover` and `remove_option`); returns whether the key is now 0 (an active primary item
/// left with no option).
#[inline(always)]
fn unlink<I: Idx, K: Key>(nodes: &mut [Node<I>], key: &mut [K], n: Node<I>) -> bool {
    node_mut(nodes, n.up.get()).down = n.down;
    node_mut(nodes, n.down.get()).up = n.up;
    let k = key_mut(key, n.top.get());
    *k = k.sub(K::ONE);
    *k == K::default()
}

/// Undoes `unlink(n)` for node `nn` (the step shared by `uncover` and `unremove_option`).
#[inline(always)]
fn link_back<I: Idx, K: Key>(nodes: &mut [Node<I>], key: &mut [K], nn: u32, n: Node<I>) {
    let nn = I::of(nn);
    node_mut(nodes, n.up.get()).down = nn;
    node_mut(nodes, n.down.get()).up = nn;
    let k = key_mut(key, n.top.get());
    *k = k.add(K::ONE);
}

/// The links with one choice of index and key types.
#[derive(Clone, Debug)]
pub(crate) struct Core<I, K> {
    nodes: Vec<Node<I>>,
    /// Per item: `len | COVERED? | SECONDARY?`.
    key: Vec<K>,
    items: u32,
    primary: u32,
    /// Primary items still in the header list.
    pub(crate) active: u32,
    /// DLX1's `updates` since construction (see the module doc).
    pub(crate) updates: u64,
    /// The last item whose list a hide emptied (`u32::MAX`: none yet). A hint only: the
    /// search checks that its key is still 0 (active, primary, no option) before using it.
    pub(crate) zeroed: u32,
    /// Items covered at the root by `select`, in order, for `restore`.
    root: Vec<u32>,
    /// Search stack: the option node chosen on each level (`level < primary + 1`).
    pub(crate) choice: Vec<u32>,
    /// Search stack: solutions found before each level was entered (for `failed_levels`).
    pub(crate) entry: Vec<u64>,
    /// Search stack: whether the option chosen on each level has a next one in its list
    /// (kept by [`Links::search_discarding`] only).
    pub(crate) open_at: Vec<bool>,
    /// Options of the current solution, filled when one is visited.
    pub(crate) solution: Vec<u32>,
    /// Whether the CPU has AVX2 (the search then runs as code compiled for it).
    pub(crate) avx2: bool,
    /// The nodes and keys as built, kept for [`Links::start`] when `I` is `u16` (at most
    /// 512 KiB).
    built: Option<(Vec<Node<I>>, Vec<K>)>,
    /// Keys scanned by `choose`: the primary items, rounded up to whole blocks (the keys
    /// past the primary items are secondary ones or padding, never least while a primary
    /// item is active).
    scan: usize,
    /// The elimination at every level ([`super::propagate`]), off unless
    /// [`Links::set_propagation`] turned it on, and its state.
    pub(crate) prop: PropState,
    /// Nodes per option when every linked option has the same number and every item has the
    /// same place in all the options holding it (every Sudoku matrix without extra houses:
    /// 4, the cell, then the row, column and box), else 0. The search then hides options by
    /// [`others`] with that `W`, each header's `slot` saying its item's place.
    pub(crate) width: u32,
}

/// The switch, trail and work lists of the elimination in the search (module `propagate`,
/// which defines the counters).
#[derive(Clone, Debug, Default)]
pub(crate) struct PropState {
    /// Whether searches run the elimination.
    pub(crate) on: bool,
    /// A node of each option removed, in the order of removal.
    pub(crate) trail: Vec<u32>,
    /// Per search level: the trail's length once the level's option was covered (what
    /// backing up over the level restores to).
    pub(crate) mark: Vec<u32>,
    /// Items whose lists shrank since they were last looked at.
    pub(crate) queue: Vec<u32>,
    /// `queued[i]`: item `i` is in `queue`.
    pub(crate) queued: Vec<bool>,
    /// Scratch: the items common to the options of the item being looked at.
    pub(crate) common: Vec<u32>,
    /// `prop_removed` and `prop_fired` since the links were made.
    pub(crate) removed: u64,
    pub(crate) fired: u64,
}

/// An exact-cover problem as dancing links, ready to search (see the module doc).
#[derive(Clone, Debug)]
pub struct Links {
    pub(crate) core: AnyCore,
    /// Sizes of the problem as linked: options with a primary item, and their entries.
    linked_options: u64,
    linked_ones: u64,
}

#[derive(Clone, Debug)]
pub(crate) enum AnyCore {
    /// `u16` indices, `i8` keys: every list shorter than 31 (9x9 and 16x16 Sudoku).
    Tiny(Core<u16, i8>),
    Small(Core<u16, i16>),
    Large(Core<u32, i32>),
}

/// Runs `$body` with `$c` bound to the core, whatever its types.
macro_rules! with_core {
    ($links:expr, $c:ident => $body:expr) => {
        match $links {
            AnyCore::Tiny($c) => $body,
            AnyCore::Small($c) => $body,
            AnyCore::Large($c) => $body,
        }
    };
}
pub(crate) use with_core;

/// Options linked (or built, in [`crate::exact_cover::SudokuCover::full_until`]) between two
/// calls of a build's `stop`: 2^13, a few milliseconds at most.
pub const BUILD_OPTIONS_PER_POLL: usize = 1 << 13;

impl Links {
    /// Links the items and options of `x` (options with no primary item are left out).
    pub fn new(x: &ExactCover) -> Self {
        Self::new_until(x, &mut || false).expect("never stopped")
    }

    /// [`Links::new`] that calls `stop` every [`BUILD_OPTIONS_PER_POLL`] options and gives up
    /// (`None`) when it answers true: at large sides linking takes long enough to pass a
    /// time limit.
    pub fn new_until(x: &ExactCover, stop: &mut dyn FnMut() -> bool) -> Option<Self> {
        let mut linked_options = 0u64;
        let mut linked_ones = 0u64;
        let mut len = vec![0usize; x.items()];
        for o in 0..x.options() {
            if x.has_primary(o) {
                linked_options += 1;
                linked_ones += x.option(o).len() as u64;
                for &i in x.option(o) {
                    len[i as usize] += 1;
                }
            }
        }
        // Spacer tops number options up to `x.options()` downwards from the largest index,
        // and must stay above every item: count all options, linked or not.
        let numbered = x.items() as u64 + x.options() as u64 + linked_ones + 1;
        let longest = len.iter().copied().max().unwrap_or(0);
        let core = if numbered < u16::NODES as u64 && longest < <i8 as Key>::LEN as usize {
            AnyCore::Tiny(Core::new(x, stop)?)
        } else if numbered < u16::NODES as u64 && longest < <i16 as Key>::LEN as usize {
            AnyCore::Small(Core::new(x, stop)?)
        } else {
            AnyCore::Large(Core::new(x, stop)?)
        };
        Some(Links {
            core,
            linked_options,
            linked_ones,
        })
    }

    /// [`Links::new`] forced to the `u16`/`i16` (`large == false`) or the `u32`/`i32`
    /// representation, so that tests run every representation on small problems.
    #[cfg(test)]
    pub(crate) fn new_forced(x: &ExactCover, large: bool) -> Self {
        let mut links = Self::new(x);
        let never = &mut || false;
        links.core = if large {
            AnyCore::Large(Core::new(x, never).expect("never stopped"))
        } else {
            AnyCore::Small(Core::new(x, never).expect("never stopped"))
        };
        links
    }

    /// Name of the representation in use: `tiny` (`u16` indices, `i8` keys), `small`
    /// (`u16`, `i16`) or `large` (`u32`, `i32`).
    pub fn representation(&self) -> &'static str {
        match self.core {
            AnyCore::Tiny(_) => "tiny",
            AnyCore::Small(_) => "small",
            AnyCore::Large(_) => "large",
        }
    }

    /// Number of items (primary and secondary).
    pub fn items(&self) -> usize {
        with_core!(&self.core, c => c.items as usize)
    }

    pub fn primary_items(&self) -> usize {
        with_core!(&self.core, c => c.primary as usize)
    }

    /// Options and ones as linked (options with no primary item are left out).
    pub fn linked_size(&self) -> (u64, u64) {
        (self.linked_options, self.linked_ones)
    }

    /// Whether item `i` is still in the header list (not covered).
    pub fn is_active(&self, i: usize) -> bool {
        with_core!(&self.core, c => c.is_active(i))
    }

    /// Number of options in item `i`'s list now.
    pub fn len(&self, i: usize) -> usize {
        with_core!(&self.core, c => c.len(i))
    }

    /// Size of the problem that remains: items not covered, options still linked, and their
    /// entries. `cells` says that items `0..cells` are met by every option exactly once (the
    /// cell items of a Sudoku matrix), so that options are counted from their lists; with
    /// `None` options are counted by walking the lists of the active primary items, each
    /// option at its first primary item.
    pub fn remaining(&self, cells: Option<usize>) -> (u64, u64, u64) {
        with_core!(&self.core, c => c.remaining(cells))
    }

    /// Selects an option at the root, before any search: covers each of its items (`option`
    /// lists them, as [`ExactCover::option`] does). Fails, changing nothing, when one of them
    /// is already covered (the option clashes with an earlier selection), returning that
    /// item. Undone by [`Links::restore`].
    pub fn select(&mut self, option: &[u32]) -> Result<(), u32> {
        with_core!(&mut self.core, c => c.select(option))
    }

    /// Undoes every [`Links::select`] since the last restore, in reverse order, so that the
    /// structure is exactly as built.
    pub fn restore(&mut self) {
        with_core!(&mut self.core, c => c.restore())
    }

    /// Brings the structure, whatever state it is in (including after
    /// [`Links::search_discarding`]), to the state of [`Links::select`] of each of `selected`
    /// in order on the structure as built: the same lists in the same order and the same
    /// keys for every active item, so that a search from here makes the same choices and
    /// counts. Problems with fewer than 65 536 nodes keep a copy of the structure as built
    /// and copy it back before selecting (a copy of a few tens of kilobytes costs less than
    /// undoing the covers one by one); larger ones are relinked ([`Links::relink`]) rather
    /// than doubled in memory. Fails when a selected option meets an item covered by an
    /// earlier one (the options clash), returning that item; the structure must then be
    /// started again before any other use. `updates` is not changed.
    pub fn start<'a>(&mut self, selected: impl IntoIterator<Item = &'a [u32]>) -> Result<(), u32> {
        with_core!(&mut self.core, c => c.start(selected))
    }

    /// Relinks the lists from scratch as [`Links::select`] of each of `selected` (in order,
    /// on the structure as built) would leave them: the items of the selected options
    /// covered, and every option meeting one of them out of every list. Whatever state the
    /// structure was in (including after [`Links::search_discarding`]), the lists, keys and
    /// counts of active items afterwards are exactly those of the selections on the fresh
    /// structure: same lists in the same order, so a search from here makes the same choices
    /// and counts. Costs one pass over the nodes, whatever the number of selections (the
    /// covers and uncovers of `select` and `restore` cost one list walk per selected item,
    /// each). Fails when a selected option meets an item covered by an earlier one (the
    /// options clash), returning that item; the structure must then be relinked before any
    /// other use. `updates` is not changed.
    pub fn relink<'a>(&mut self, selected: impl IntoIterator<Item = &'a [u32]>) -> Result<(), u32> {
        with_core!(&mut self.core, c => c.relink(selected))
    }

    /// Turns on (or off) the elimination of [`super::propagate`] at the root and after every
    /// choice of the searches that follow ([`Links::search`], [`Links::search_discarding`]).
    pub fn set_propagation(&mut self, on: bool) {
        with_core!(&mut self.core, c => c.set_propagation(on))
    }

    /// Whether the lists and keys are those of `other` (tests: a search leaves no trace).
    #[cfg(test)]
    pub(crate) fn same_lists(&self, other: &Links) -> bool {
        match (&self.core, &other.core) {
            (AnyCore::Tiny(a), AnyCore::Tiny(b)) => a.same_lists(b),
            (AnyCore::Small(a), AnyCore::Small(b)) => a.same_lists(b),
            (AnyCore::Large(a), AnyCore::Large(b)) => a.same_lists(b),
            _ => false,
        }
    }

    /// Checks every list against its key (tests).
    #[cfg(test)]
    pub(crate) fn sane(&self) -> bool {
        with_core!(&self.core, c => c.sane())
    }

    /// Each active item with its length and its list's nodes, top to bottom (tests: what a
    /// search sees).
    #[cfg(test)]
    pub(crate) fn active_lists(&self) -> Vec<(usize, usize, Vec<u32>)> {
        with_core!(&self.core, c => (0..c.items as usize)
            .filter(|&i| c.is_active(i))
            .map(|i| {
                let mut list = Vec::new();
                let mut p = c.first(i as u32);
                while p != i as u32 {
                    list.push(p);
                    p = c.down(p);
                }
                (i, c.len(i), list)
            })
            .collect())
    }

    /// Makes the searches that follow run the portable code (no AVX2 choice scan) even on a
    /// CPU that has AVX2 (tests: the code every other CPU runs).
    #[cfg(test)]
    pub(crate) fn force_portable_search(&mut self) {
        with_core!(&mut self.core, c => c.avx2 = false)
    }

    /// [`Core::width`] (tests).
    #[cfg(test)]
    pub(crate) fn width(&self) -> u32 {
        with_core!(&self.core, c => c.width)
    }

    /// Primary items not covered.
    #[cfg(test)]
    pub(crate) fn active(&self) -> u32 {
        with_core!(&self.core, c => c.active)
    }
}

impl<I: Idx, K: Key> Core<I, K> {
    /// The links of `x`; `None` if `stop` (called every [`BUILD_OPTIONS_PER_POLL`] options)
    /// answers true.
    fn new(x: &ExactCover, stop: &mut dyn FnMut() -> bool) -> Option<Self> {
        let items = x.items();
        let primary = x.primary_items();
        let mut nodes: Vec<Node<I>> = Vec::with_capacity(items + x.options() + x.ones() + 1);
        // Padded with MAX to whole blocks: `choose` scans `key[..scan]`.
        let mut key = vec![K::MAX; items.div_ceil(BLOCK) * BLOCK];
        for (i, k) in key[..items].iter_mut().enumerate() {
            *k = K::default();
            let i = I::of(i as u32);
            nodes.push(Node {
                up: i,
                down: i,
                top: i,
                slot: I::default(),
            });
            if i.get() as usize >= primary {
                *k = K::SECONDARY;
            }
        }
        // First spacer: `top` = all ones (no option before it).
        nodes.push(Node {
            up: I::of(0),
            down: I::of(0),
            top: I::of(u32::MAX),
            slot: I::default(),
        });
        let mut spacer_count = 0u32;
        // `Core::width` (`None` before the first option).
        let mut width = None;
        for o in 0..x.options() {
            if o % BUILD_OPTIONS_PER_POLL == BUILD_OPTIONS_PER_POLL - 1 && stop() {
                return None;
            }
            let opt = x.option(o);
            if !x.has_primary(o) {
                continue;
            }
            let spacer = nodes.len() - 1;
            let first = nodes.len() as u32;
            width = match width {
                None => Some(opt.len() as u32),
                Some(w) if w == opt.len() as u32 => Some(w),
                Some(_) => Some(0),
            };
            for (place, &i) in opt.iter().enumerate() {
                let p = nodes.len() as u32;
                let last = nodes[i as usize].up;
                // The header's slot: its item's place in the first option holding it.
                let header = &mut nodes[i as usize];
                if header.down.get() == i {
                    header.slot = I::of(place as u32);
                } else if header.slot.get() != place as u32 {
                    width = Some(0);
                }
                nodes.push(Node {
                    up: last,
                    down: I::of(i),
                    top: I::of(i),
                    slot: I::of(place as u32),
                });
                nodes[last.get() as usize].down = I::of(p);
                nodes[i as usize].up = I::of(p);
                key[i as usize] = key[i as usize].add(K::ONE);
            }
            let last = nodes.len() - 1;
            nodes[spacer].down = I::of(last as u32);
            // The spacer after option `o` numbers it: top = all ones - 1 - o, kept >= items
            // by the size checks of `Links::new` and `ExactCover::add_option`.
            spacer_count += 1;
            nodes.push(Node {
                up: I::of(first),
                down: I::of(0),
                top: I::of((I::NODES as u32).wrapping_sub(1).wrapping_sub(o as u32)),
                slot: I::default(),
            });
        }
        debug_assert!(spacer_count as usize <= x.options());
        let built = (I::NODES <= u16::NODES).then(|| (nodes.clone(), key.clone()));
        Some(Core {
            built,
            nodes,
            key,
            items: items as u32,
            primary: primary as u32,
            active: primary as u32,
            updates: 0,
            zeroed: u32::MAX,
            root: Vec::with_capacity(primary),
            choice: vec![0; primary + 1],
            entry: vec![0; primary + 1],
            open_at: vec![false; primary + 1],
            solution: Vec::with_capacity(primary + 1),
            avx2: has_avx2(),
            scan: primary.div_ceil(BLOCK) * BLOCK,
            prop: Default::default(),
            width: width.unwrap_or(0),
        })
    }

    #[inline]
    pub(crate) fn items(&self) -> u32 {
        self.items
    }

    #[inline]
    pub(crate) fn primary(&self) -> u32 {
        self.primary
    }

    #[inline]
    pub(crate) fn is_active(&self, i: usize) -> bool {
        self.key[i].and(K::COVERED) == K::default()
    }

    #[inline]
    pub(crate) fn len(&self, i: usize) -> usize {
        self.key[i].and(K::LEN).to_usize()
    }

    /// Whether item `zeroed` is an active primary item with no option left (its key is 0).
    #[inline]
    pub(crate) fn dead_end(&self) -> bool {
        self.key.get(self.zeroed as usize) == Some(&K::default())
    }

    fn remaining(&self, cells: Option<usize>) -> (u64, u64, u64) {
        // One pass over the keys: active items and the lengths of their lists.
        let tally = |keys: &[K]| {
            keys.iter().fold((0u64, 0u64), |(n, len), &k| {
                let active = (k.and(K::COVERED) == K::default()) as u64;
                (n + active, len + active * k.and(K::LEN).to_usize() as u64)
            })
        };
        let (items, ones) = tally(&self.key[..self.items as usize]);
        let options = match cells {
            Some(c) => tally(&self.key[..c]).1,
            None => {
                let mut count = 0;
                for i in 0..self.primary {
                    if !self.is_active(i as usize) {
                        continue;
                    }
                    let mut p = self.nodes[i as usize].down.get();
                    while p != i {
                        if self.first_primary_of(p) == i {
                            count += 1;
                        }
                        p = self.nodes[p as usize].down.get();
                    }
                }
                count
            }
        };
        (items, options, ones)
    }

    /// First primary item, in option order, of the option holding node `p`.
    fn first_primary_of(&self, p: u32) -> u32 {
        let mut q = p;
        // Walk left to the spacer before the option, then right.
        while self.nodes[q as usize - 1].top.get() < self.items {
            q -= 1;
        }
        loop {
            let t = self.nodes[q as usize].top.get();
            if t < self.primary {
                return t;
            }
            q += 1;
        }
    }

    /// The option (number in the [`ExactCover`]) holding node `p`.
    #[inline]
    pub(crate) fn option_of(&self, mut p: u32) -> u32 {
        while self.nodes[p as usize].top.get() < self.items {
            p += 1;
        }
        (I::NODES as u32)
            .wrapping_sub(1)
            .wrapping_sub(self.nodes[p as usize].top.get())
    }

    /// The leftmost active primary item of least `len` (DLX1's choice), or `None` when every
    /// primary item is covered. `AVX2`: scan with AVX2 instructions (the caller must have
    /// checked that the CPU has them).
    #[inline(always)]
    pub(crate) fn choose<const AVX2: bool>(&self) -> Option<usize> {
        let keys = &self.key[..self.scan];
        #[cfg(target_arch = "x86_64")]
        let at = if AVX2 {
            // SAFETY: `AVX2` is set only when the CPU has AVX2 (`Core::avx2`).
            unsafe { K::first_min_avx2(keys) }
        } else {
            first_min_portable(keys)
        };
        #[cfg(not(target_arch = "x86_64"))]
        let at = first_min_portable(keys);
        if at >= self.primary as usize || keys[at].and(K::COVERED) != K::default() {
            None
        } else {
            Some(at)
        }
    }

    /// Node at the top of item `i`'s list (`i` itself when the list is empty).
    #[inline]
    pub(crate) fn first(&self, i: u32) -> u32 {
        node(&self.nodes, i).down.get()
    }

    #[inline]
    pub(crate) fn down(&self, p: u32) -> u32 {
        node(&self.nodes, p).down.get()
    }

    #[inline]
    pub(crate) fn top(&self, p: u32) -> u32 {
        node(&self.nodes, p).top.get()
    }

    /// Covers item `c`: takes it out of the header list and hides every option in its list
    /// (removes the option's other nodes from their items' lists). Counts DLX1's updates.
    #[inline]
    pub(crate) fn cover(&mut self, c: u32) {
        self.cover_noting::<true, 0>(c)
    }

    /// `cover(c)`; `ZEROED`: note an item left with no option in `zeroed` (a compare and a
    /// conditional move per node hidden, which the search without elimination does not pay:
    /// it finds dead ends by its choice scan); `W`: every option has `W` nodes, or `W = 0`
    /// (see [`others`]).
    #[inline(always)]
    pub(crate) fn cover_noting<const ZEROED: bool, const W: u32>(&mut self, c: u32) {
        let slot = node(&self.nodes, c).slot.get();
        self.cover_at::<ZEROED, W>(c, slot)
    }

    /// `cover_noting(c)` for an item in place `slot` of its options when `W` is not 0 (see
    /// [`others`]; unused otherwise): [`Core::cover_others`] knows it without reading the
    /// item's header.
    #[inline(always)]
    fn cover_at<const ZEROED: bool, const W: u32>(&mut self, c: u32, slot: u32) {
        let nodes = &mut self.nodes[..];
        let key = &mut self.key[..];
        let mut updates = 1;
        let mut zeroed = self.zeroed;
        let k = key_mut(key, c);
        *k = k.or(K::COVERED);
        if c < self.primary {
            self.active -= 1;
        }
        // `rr`'s own links are read once: hiding its option changes only the lists of the
        // option's other items, never the list of `c` that `rr` is in.
        let items = self.items;
        let mut rr = opaque(node(nodes, c).down.get());
        while rr != c {
            let next = node(nodes, rr).down.get();
            others::<I, W>(nodes, rr, slot, items, |nodes, _, n| {
                let zero = unlink(nodes, key, n);
                // A key of 0 is an active primary item left with no option.
                if ZEROED {
                    zeroed = if zero { n.top.get() } else { zeroed };
                }
                updates += 1;
            });
            rr = next;
        }
        self.updates += updates;
        if ZEROED {
            self.zeroed = zeroed;
        }
    }

    /// Undoes `cover(c)`; must be called in the exact reverse order of the covers.
    #[inline]
    pub(crate) fn uncover(&mut self, c: u32) {
        self.uncover_width::<0>(c)
    }

    /// `uncover(c)`; `W`: see [`Core::cover_noting`].
    #[inline(always)]
    pub(crate) fn uncover_width<const W: u32>(&mut self, c: u32) {
        let slot = node(&self.nodes, c).slot.get();
        self.uncover_at::<W>(c, slot)
    }

    /// `uncover_width(c)` for an item in place `slot` (see [`Core::cover_at`]).
    #[inline(always)]
    fn uncover_at<const W: u32>(&mut self, c: u32, slot: u32) {
        let nodes = &mut self.nodes[..];
        let key = &mut self.key[..];
        let items = self.items;
        let mut rr = opaque(node(nodes, c).down.get());
        while rr != c {
            let next = node(nodes, rr).down.get();
            others::<I, W>(nodes, rr, slot, items, |nodes, nn, n| {
                link_back(nodes, key, nn, n)
            });
            rr = next;
        }
        let k = key_mut(key, c);
        *k = k.and(K::COVERED.not());
        if c < self.primary {
            self.active += 1;
        }
    }

    /// Covers the items of the option holding node `p` other than `p`'s own, going right
    /// (DLX1's "cover all other items of `cur_node`"); `ZEROED`, `W`: see
    /// [`Core::cover_noting`].
    #[inline(always)]
    pub(crate) fn cover_others<const ZEROED: bool, const W: u32>(&mut self, p: u32) {
        if W > 0 {
            // The option's other nodes in the same order as below (see [`others`]).
            // The item of the node in place `place` has that place in all its options.
            let slot = node(&self.nodes, p).slot.get();
            for j in 1..W {
                let place = (slot + j) % W;
                let top = self.top(p - slot + place);
                self.cover_at::<ZEROED, W>(top, place);
            }
            return;
        }
        let mut q = p + 1;
        while q != p {
            let Node { up, top, .. } = node(&self.nodes, q);
            if top.get() >= self.items {
                q = up.get();
            } else {
                self.cover_noting::<ZEROED, W>(top.get());
                q += 1;
            }
        }
    }

    /// Undoes `cover_others(p)`, going left (through the spacer before the option); `W`: see
    /// [`Core::cover_noting`].
    #[inline(always)]
    pub(crate) fn uncover_others<const W: u32>(&mut self, p: u32) {
        if W > 0 {
            let slot = node(&self.nodes, p).slot.get();
            for j in (1..W).rev() {
                let place = (slot + j) % W;
                let top = self.top(p - slot + place);
                self.uncover_at::<W>(top, place);
            }
            return;
        }
        let mut q = p - 1;
        while q != p {
            let Node { down, top, .. } = node(&self.nodes, q);
            if top.get() >= self.items {
                q = down.get();
            } else {
                self.uncover(top.get());
                q -= 1;
            }
        }
    }

    /// Next node of the option holding node `p`, cyclically (see [`others`]).
    #[inline]
    pub(crate) fn right(&self, p: u32) -> u32 {
        let Node { up, top, .. } = node(&self.nodes, p + 1);
        if top.get() >= self.items {
            up.get()
        } else {
            p + 1
        }
    }

    /// Whether item `i` is active (not covered) and primary.
    #[inline]
    pub(crate) fn active_primary(&self, i: u32) -> bool {
        i < self.primary && self.is_active(i as usize)
    }

    /// Removes the option holding node `p` from the list of each of its items, which must
    /// all be active (an option still in an active item's list has no covered item: covering
    /// hides it from every other list). Counts one update per node removed, as `cover` does
    /// for the nodes it removes, and notes an item left with no option in `zeroed`. Undone by
    /// `unremove_option(p)`, in the reverse order of removals.
    #[inline]
    pub(crate) fn remove_option(&mut self, p: u32) {
        let nodes = &mut self.nodes[..];
        let key = &mut self.key[..];
        let items = self.items;
        let n = node(nodes, p);
        let zero = unlink(nodes, key, n);
        let mut zeroed = if zero { n.top.get() } else { self.zeroed };
        let mut updates = 1;
        others::<I, 0>(nodes, p, 0, items, |nodes, _, n| {
            let zero = unlink(nodes, key, n);
            zeroed = if zero { n.top.get() } else { zeroed };
            updates += 1;
        });
        self.updates += updates;
        self.zeroed = zeroed;
    }

    /// Undoes `remove_option(p)` (its nodes are in distinct lists, so their order here does
    /// not matter; the options must be put back in the reverse order of their removal).
    #[inline]
    pub(crate) fn unremove_option(&mut self, p: u32) {
        let nodes = &mut self.nodes[..];
        let key = &mut self.key[..];
        let items = self.items;
        link_back(nodes, key, p, node(nodes, p));
        others::<I, 0>(nodes, p, 0, items, |nodes, nn, n| {
            link_back(nodes, key, nn, n)
        });
    }

    fn select(&mut self, option: &[u32]) -> Result<(), u32> {
        if let Some(&i) = option.iter().find(|&&i| !self.is_active(i as usize)) {
            return Err(i);
        }
        for &i in option {
            self.cover(i);
            self.root.push(i);
        }
        Ok(())
    }

    fn restore(&mut self) {
        while let Some(i) = self.root.pop() {
            self.uncover(i);
        }
    }

    /// See [`Links::start`].
    fn start<'a>(&mut self, selected: impl IntoIterator<Item = &'a [u32]>) -> Result<(), u32> {
        let Some((nodes, key)) = &self.built else {
            return self.relink(selected);
        };
        self.nodes.copy_from_slice(nodes);
        self.key.copy_from_slice(key);
        self.active = self.primary;
        self.zeroed = u32::MAX;
        self.root.clear();
        let updates = self.updates;
        for option in selected {
            if let Some(&i) = option.iter().find(|&&i| !self.is_active(i as usize)) {
                return Err(i);
            }
            for &i in option {
                // The givens' covers are a tenth of the work on top1465: hide options of 4
                // nodes by the unrolled code too (same lists, same `zeroed`).
                if self.width == 4 {
                    self.cover_noting::<true, 4>(i);
                } else {
                    self.cover(i);
                }
            }
        }
        self.updates = updates;
        Ok(())
    }

    /// See [`Links::relink`]. The header's `up` serves as the tail of its list while the
    /// options are appended, in node order (= option order, the order of the lists as built).
    fn relink<'a>(&mut self, selected: impl IntoIterator<Item = &'a [u32]>) -> Result<(), u32> {
        let items = self.items as usize;
        let primary = self.primary as usize;
        self.root.clear();
        self.zeroed = u32::MAX;
        for (i, k) in self.key[..items].iter_mut().enumerate() {
            *k = if i < primary {
                K::default()
            } else {
                K::SECONDARY
            };
        }
        let mut active = self.primary;
        for option in selected {
            for &i in option {
                let k = &mut self.key[i as usize];
                if k.and(K::COVERED) != K::default() {
                    return Err(i);
                }
                *k = k.or(K::COVERED);
                active -= (i < self.primary) as u32;
            }
        }
        self.active = active;
        let nodes = &mut self.nodes[..];
        let key = &mut self.key[..items];
        for (i, n) in nodes[..items].iter_mut().enumerate() {
            n.up = I::of(i as u32);
        }
        let end = nodes.len();
        // Node `items` is the first spacer; each option runs up to the next spacer.
        let mut p = items + 1;
        while p < end {
            let start = p;
            let mut alive = true;
            while nodes[p].top.get() < self.items {
                alive &= key[nodes[p].top.get() as usize].and(K::COVERED) == K::default();
                p += 1;
            }
            if alive {
                for q in start..p {
                    let i = nodes[q].top.get() as usize;
                    let tail = nodes[i].up;
                    nodes[tail.get() as usize].down = I::of(q as u32);
                    nodes[q].up = tail;
                    nodes[i].up = I::of(q as u32);
                    key[i] = key[i].add(K::ONE);
                }
            }
            p += 1;
        }
        for i in 0..items {
            let tail = nodes[i].up;
            nodes[tail.get() as usize].down = I::of(i as u32);
        }
        Ok(())
    }

    /// Undoes the covers of search levels `0..levels` (each: the chosen item, then the other
    /// items of the chosen option, and with `PROP` the eliminations made after them),
    /// deepest first. Used when a search stops early.
    pub(crate) fn unwind<const PROP: bool>(&mut self, levels: usize) {
        for l in (0..levels).rev() {
            if PROP {
                self.restore_to(self.prop.mark[l]);
            }
            let p = self.choice[l];
            self.uncover_others::<0>(p);
            let c = self.top(p);
            self.uncover(c);
        }
    }

    #[cfg(test)]
    fn same_lists(&self, other: &Self) -> bool {
        self.nodes == other.nodes && self.key == other.key && self.active == other.active
    }

    #[cfg(test)]
    fn sane(&self) -> bool {
        for i in 0..self.items as usize {
            let mut k = 0;
            let mut q = i as u32;
            let mut p = self.nodes[i].down.get();
            while p != i as u32 {
                let n = self.nodes[p as usize];
                if n.up.get() != q || n.top.get() != i as u32 {
                    return false;
                }
                k += 1;
                q = p;
                p = n.down.get();
            }
            if self.nodes[i].up.get() != q || k != self.len(i) {
                return false;
            }
        }
        true
    }
}

/// Keys are scanned in blocks of this many; the key array is padded with `MAX` to a whole
/// number of blocks past the primary items.
const BLOCK: usize = 32;

/// Index of the first least element of `keys`, whose length is a multiple of [`BLOCK`]: a
/// vectorisable minimum, then a vectorisable comparison block by block into a bit mask.
#[inline(always)]
fn first_min_portable<K: Key>(keys: &[K]) -> usize {
    let min = keys.iter().fold(K::MAX, |m, &k| m.min(k));
    for (b, block) in keys.chunks_exact(BLOCK).enumerate() {
        let mut mask = 0u32;
        for (j, &k) in block.iter().enumerate() {
            mask |= ((k == min) as u32) << j;
        }
        if mask != 0 {
            return b * BLOCK + mask.trailing_zeros() as usize;
        }
    }
    keys.len()
}

/// Whether the CPU has AVX2.
fn has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// AVX2 versions of [`first_min_portable`] (same answer): keys are non-negative, the slice
/// length a multiple of [`BLOCK`].
#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::*;

    /// # Safety
    /// The CPU must have AVX2; `keys.len()` must be a multiple of 32.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) unsafe fn first_min_i8(keys: &[i8]) -> usize {
        let n = keys.len();
        debug_assert!(n % 32 == 0);
        let p = keys.as_ptr() as *const __m256i;
        let mut m = _mm256_set1_epi8(i8::MAX);
        for b in 0..n / 32 {
            m = _mm256_min_epi8(m, _mm256_loadu_si256(p.add(b)));
        }
        let m = _mm_min_epi8(_mm256_castsi256_si128(m), _mm256_extracti128_si256::<1>(m));
        // Keys are >= 0: widen the 16 bytes to 16-bit lanes and take the unsigned minimum.
        let m = _mm_min_epu16(
            _mm_cvtepu8_epi16(m),
            _mm_cvtepu8_epi16(_mm_srli_si128::<8>(m)),
        );
        let min = _mm_extract_epi16::<0>(_mm_minpos_epu16(m)) as i8;
        let v = _mm256_set1_epi8(min);
        for b in 0..n / 32 {
            let eq = _mm256_cmpeq_epi8(v, _mm256_loadu_si256(p.add(b)));
            let mask = _mm256_movemask_epi8(eq) as u32;
            if mask != 0 {
                return b * 32 + mask.trailing_zeros() as usize;
            }
        }
        n
    }

    /// # Safety
    /// The CPU must have AVX2; `keys.len()` must be a multiple of 16.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) unsafe fn first_min_i16(keys: &[i16]) -> usize {
        let n = keys.len();
        debug_assert!(n % 16 == 0);
        let p = keys.as_ptr() as *const __m256i;
        let mut m = _mm256_set1_epi16(i16::MAX);
        for b in 0..n / 16 {
            m = _mm256_min_epi16(m, _mm256_loadu_si256(p.add(b)));
        }
        let m = _mm_min_epi16(_mm256_castsi256_si128(m), _mm256_extracti128_si256::<1>(m));
        // Keys are >= 0, so the unsigned minimum is the signed one.
        let min = _mm_extract_epi16::<0>(_mm_minpos_epu16(m)) as i16;
        let v = _mm256_set1_epi16(min);
        for b in 0..n / 16 {
            let eq = _mm256_cmpeq_epi16(v, _mm256_loadu_si256(p.add(b)));
            let mask = _mm256_movemask_epi8(eq) as u32;
            if mask != 0 {
                return b * 16 + (mask.trailing_zeros() / 2) as usize;
            }
        }
        n
    }

    /// # Safety
    /// The CPU must have AVX2; `keys.len()` must be a multiple of 8.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) unsafe fn first_min_i32(keys: &[i32]) -> usize {
        let n = keys.len();
        debug_assert!(n % 8 == 0);
        let p = keys.as_ptr() as *const __m256i;
        let mut m = _mm256_set1_epi32(i32::MAX);
        for b in 0..n / 8 {
            m = _mm256_min_epi32(m, _mm256_loadu_si256(p.add(b)));
        }
        let m = _mm_min_epi32(_mm256_castsi256_si128(m), _mm256_extracti128_si256::<1>(m));
        let m = _mm_min_epi32(m, _mm_shuffle_epi32::<0b01_00_11_10>(m));
        let m = _mm_min_epi32(m, _mm_shuffle_epi32::<0b10_11_00_01>(m));
        let v = _mm256_set1_epi32(_mm_cvtsi128_si32(m));
        for b in 0..n / 8 {
            let eq = _mm256_cmpeq_epi32(v, _mm256_loadu_si256(p.add(b)));
            let mask = _mm256_movemask_epi8(eq) as u32;
            if mask != 0 {
                return b * 8 + (mask.trailing_zeros() / 4) as usize;
            }
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn first_min_agrees_with_a_plain_scan() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        for _ in 0..2000 {
            let n = BLOCK * rng.gen_range(0..5);
            let hi = rng.gen_range(1..40);
            let k16: Vec<i16> = (0..n).map(|_| rng.gen_range(0..hi)).collect();
            let k8: Vec<i8> = k16.iter().map(|&k| k as i8).collect();
            let k32: Vec<i32> = k16.iter().map(|&k| k as i32 * 70_000).collect();
            let want = k16
                .iter()
                .enumerate()
                .min_by_key(|&(i, &k)| (k, i))
                .map_or(n, |(i, _)| i);
            assert_eq!(first_min_portable(&k16), want);
            assert_eq!(first_min_portable(&k8), want);
            assert_eq!(first_min_portable(&k32), want);
            #[cfg(target_arch = "x86_64")]
            if has_avx2() {
                // SAFETY: checked just above.
                unsafe {
                    assert_eq!(i8::first_min_avx2(&k8), want);
                    assert_eq!(i16::first_min_avx2(&k16), want);
                    assert_eq!(i32::first_min_avx2(&k32), want);
                }
            }
        }
    }
}
