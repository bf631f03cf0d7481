//! Generalised arc consistency for all-different: J.-C. Régin, "A filtering algorithm for
//! constraints of difference in CSPs", AAAI 1994.
//!
//! The constraint is a bipartite *value graph*: one vertex per variable, one per value, an
//! edge `(x, v)` for each value `v` in the domain of `x`. The variables take distinct values
//! exactly when the graph has a matching that covers every variable, and a value `v` of `x`
//! belongs to a solution exactly when the edge `(x, v)` lies in some maximum matching. By
//! Berge's theorem that is when `(x, v)` is in the matching found, or lies on an alternating
//! cycle, or on an even alternating path that starts at a free value (a value matched to no
//! variable). With the matched edges directed variable to value and the others value to
//! variable, the cycles are those inside one strongly connected component, and the paths are
//! those from a value that a free value reaches. So the filter is:
//!
//! 1. repair the matching kept from the last call (drop the pairs whose value left the
//!    domain) and grow it by augmenting paths until it covers every variable, or fail
//!    (Hall's condition is broken: no value for some set of variables);
//! 2. find the strongly connected components (Tarjan 1972, iteratively) and the values that
//!    a free value reaches;
//! 3. keep, for each variable, its matched value and the values `v` whose vertex is in its
//!    component or reached from a free value.
//!
//! The matching is kept between calls, as Régin advises: after a small change most of it
//! still holds, and only the variables that lost their value are re-matched. It need not be
//! restored on backtracking (any matching is a valid start).
//!
//! A house of a Sudoku has as many cells as digits, so its matching is perfect and no value
//! is free; a killer cage has fewer cells than digits, and the free values matter.

/// No value or no variable.
const NONE: u32 = u32::MAX;

/// Scratch space for the filter, reused between calls.
#[derive(Default)]
pub(super) struct AllDiff {
    /// Per value: the variable it is matched to, or `NONE`.
    var_of: Vec<u32>,
    /// Per value: the last augmenting search that visited it.
    seen: Vec<u32>,
    search: u32,
    /// Value vertex -> variables whose domain holds it unmatched (CSR).
    start: Vec<u32>,
    fill: Vec<u32>,
    adj: Vec<u32>,
    /// Tarjan: index, low link, component, stack, the explicit call stack.
    index: Vec<u32>,
    low: Vec<u32>,
    comp: Vec<u32>,
    on_stack: Vec<bool>,
    stack: Vec<u32>,
    calls: Vec<(u32, u32)>,
    /// Values reached from a free value.
    reached: Vec<bool>,
    queue: Vec<u32>,
    /// The supported values of each variable (`words` words each), the filter's output.
    pub(super) support: Vec<u64>,
}

/// The domains the filter reads: variable `i`'s values are the set bits of `dom(i)`.
pub(super) trait ValueSets {
    fn words(&self) -> usize;
    fn dom(&self, var: usize) -> &[u64];
}

pub(super) fn bits(words: &[u64]) -> impl Iterator<Item = usize> + '_ {
    words.iter().enumerate().flat_map(|(i, &w)| {
        let mut w = w;
        std::iter::from_fn(move || {
            if w == 0 {
                None
            } else {
                let b = w.trailing_zeros() as usize;
                w &= w - 1;
                Some(i * 64 + b)
            }
        })
    })
}

#[inline]
fn has(words: &[u64], v: usize) -> bool {
    words[v / 64] >> (v % 64) & 1 == 1
}

impl AllDiff {
    /// Filters the `k` variables of `sets` over values `0..n`. `matched[i]` is variable
    /// `i`'s value in the kept matching (or `u32::MAX`), repaired and updated here. Returns
    /// `false` when no matching covers every variable; otherwise `support` holds each
    /// variable's values that belong to a solution of the constraint.
    pub(super) fn filter(
        &mut self,
        sets: &impl ValueSets,
        k: usize,
        n: usize,
        matched: &mut [u32],
    ) -> bool {
        let w = sets.words();
        self.var_of.clear();
        self.var_of.resize(n, NONE);
        // 1. Repair, then augment.
        for (i, m) in matched.iter_mut().enumerate().take(k) {
            if *m != NONE {
                let v = *m as usize;
                if has(sets.dom(i), v) && self.var_of[v] == NONE {
                    self.var_of[v] = i as u32;
                } else {
                    *m = NONE;
                }
            }
        }
        if self.seen.len() < n {
            self.seen.resize(n, 0);
        }
        for i in 0..k {
            if matched[i] != NONE {
                continue;
            }
            // A free value in the domain first (cheap), else an augmenting path.
            if let Some(v) = bits(sets.dom(i)).find(|&v| self.var_of[v] == NONE) {
                matched[i] = v as u32;
                self.var_of[v] = i as u32;
                continue;
            }
            self.search = self.search.wrapping_add(1);
            if self.search == 0 {
                self.seen.fill(0);
                self.search = 1;
            }
            if !self.augment(sets, i, matched) {
                return false;
            }
        }
        // 2. The directed graph: variable i -> matched[i]; value v -> every variable that
        // has v unmatched. Vertices 0..k are variables, k..k+n values.
        self.start.clear();
        self.start.resize(n + 1, 0);
        for (i, &m) in matched.iter().enumerate().take(k) {
            for v in bits(sets.dom(i)) {
                if v as u32 != m {
                    self.start[v + 1] += 1;
                }
            }
        }
        for v in 0..n {
            self.start[v + 1] += self.start[v];
        }
        self.adj.resize(self.start[n] as usize, 0);
        self.fill.clone_from(&self.start);
        for (i, &m) in matched.iter().enumerate().take(k) {
            for v in bits(sets.dom(i)) {
                if v as u32 != m {
                    self.adj[self.fill[v] as usize] = i as u32;
                    self.fill[v] += 1;
                }
            }
        }
        // Values reached from free values.
        self.reached.clear();
        self.reached.resize(n, false);
        self.queue.clear();
        for v in 0..n {
            if self.var_of[v] == NONE && self.start[v] < self.start[v + 1] {
                self.reached[v] = true;
                self.queue.push(v as u32);
            }
        }
        while let Some(v) = self.queue.pop() {
            let v = v as usize;
            for a in self.start[v]..self.start[v + 1] {
                let x = self.adj[a as usize] as usize;
                let m = matched[x] as usize;
                if !self.reached[m] {
                    self.reached[m] = true;
                    self.queue.push(m as u32);
                }
            }
        }
        self.components(k, n, matched);
        // 3. Supports.
        self.support.clear();
        self.support.resize(k * w, 0);
        for (i, &m) in matched.iter().enumerate().take(k) {
            let m = m as usize;
            let out = &mut self.support[i * w..(i + 1) * w];
            out[m / 64] |= 1 << (m % 64);
            for v in bits(sets.dom(i)) {
                if v != m && (self.reached[v] || self.comp[i] == self.comp[k + v]) {
                    out[v / 64] |= 1 << (v % 64);
                }
            }
        }
        true
    }

    /// Kuhn's augmenting path from the free variable `i` (depth first, recursive: its depth
    /// is at most the number of variables).
    fn augment(&mut self, sets: &impl ValueSets, i: usize, matched: &mut [u32]) -> bool {
        let words = sets.dom(i);
        for v in bits(words) {
            if self.seen[v] == self.search {
                continue;
            }
            self.seen[v] = self.search;
            let owner = self.var_of[v];
            if owner == NONE || self.augment(sets, owner as usize, matched) {
                matched[i] = v as u32;
                self.var_of[v] = i as u32;
                return true;
            }
        }
        false
    }

    /// Tarjan's strongly connected components of the directed value graph, without recursion.
    fn components(&mut self, k: usize, n: usize, matched: &[u32]) {
        let total = k + n;
        self.index.clear();
        self.index.resize(total, NONE);
        self.low.clear();
        self.low.resize(total, 0);
        self.comp.clear();
        self.comp.resize(total, NONE);
        self.on_stack.clear();
        self.on_stack.resize(total, false);
        self.stack.clear();
        let mut next = 0u32;
        let mut comps = 0u32;
        for root in 0..total {
            if self.index[root] != NONE {
                continue;
            }
            self.calls.clear();
            self.calls.push((root as u32, 0));
            self.index[root] = next;
            self.low[root] = next;
            next += 1;
            self.stack.push(root as u32);
            self.on_stack[root] = true;
            while let Some(&mut (u, ref mut e)) = self.calls.last_mut() {
                let u = u as usize;
                // The e-th successor of u.
                let succ = if u < k {
                    (*e == 0).then(|| k + matched[u] as usize)
                } else {
                    let v = u - k;
                    let a = self.start[v] + *e;
                    (a < self.start[v + 1]).then(|| self.adj[a as usize] as usize)
                };
                *e += 1;
                match succ {
                    Some(s) if self.index[s] == NONE => {
                        self.index[s] = next;
                        self.low[s] = next;
                        next += 1;
                        self.stack.push(s as u32);
                        self.on_stack[s] = true;
                        self.calls.push((s as u32, 0));
                    }
                    Some(s) => {
                        if self.on_stack[s] && self.index[s] < self.low[u] {
                            self.low[u] = self.index[s];
                        }
                    }
                    None => {
                        self.calls.pop();
                        if self.low[u] == self.index[u] {
                            loop {
                                let x = self.stack.pop().expect("Tarjan stack") as usize;
                                self.on_stack[x] = false;
                                self.comp[x] = comps;
                                if x == u {
                                    break;
                                }
                            }
                            comps += 1;
                        }
                        if let Some(&(p, _)) = self.calls.last() {
                            let p = p as usize;
                            if self.low[u] < self.low[p] {
                                self.low[p] = self.low[u];
                            }
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    struct Sets(Vec<u64>);

    impl ValueSets for Sets {
        fn words(&self) -> usize {
            1
        }
        fn dom(&self, var: usize) -> &[u64] {
            &self.0[var..var + 1]
        }
    }

    /// The supports by brute force: every assignment of distinct values.
    fn brute(doms: &[u64], n: usize) -> Option<Vec<u64>> {
        fn go(
            doms: &[u64],
            n: usize,
            i: usize,
            used: u64,
            pick: &mut Vec<usize>,
            out: &mut Vec<u64>,
        ) {
            if i == doms.len() {
                for (j, &v) in pick.iter().enumerate() {
                    out[j] |= 1 << v;
                }
                return;
            }
            for v in 0..n {
                if doms[i] >> v & 1 == 1 && used >> v & 1 == 0 {
                    pick.push(v);
                    go(doms, n, i + 1, used | 1 << v, pick, out);
                    pick.pop();
                }
            }
        }
        let mut out = vec![0; doms.len()];
        go(doms, n, 0, 0, &mut Vec::new(), &mut out);
        out.iter().all(|&s| s != 0).then_some(out)
    }

    #[test]
    fn regin_example() {
        // x1 {1,2}, x2 {1,2}, x3 {1,2,3,4}: x3 loses 1 and 2 (values 0..4 as bits 0..3).
        let sets = Sets(vec![0b0011, 0b0011, 0b1111]);
        let mut f = AllDiff::default();
        let mut m = vec![NONE; 3];
        assert!(f.filter(&sets, 3, 4, &mut m));
        assert_eq!(f.support, vec![0b0011, 0b0011, 0b1100]);
        // Three variables on two values: no matching.
        let sets = Sets(vec![0b11, 0b11, 0b11]);
        assert!(!f.filter(&sets, 3, 2, &mut [NONE; 3]));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]
        #[test]
        fn supports_are_those_of_brute_force(
            doms in proptest::collection::vec(1u64..64, 1..6),
            stale in proptest::collection::vec(0u32..6, 6),
        ) {
            let n = 6;
            let k = doms.len();
            let sets = Sets(doms.clone());
            let mut f = AllDiff::default();
            // A stale matching from an earlier call must not matter.
            let mut m: Vec<u32> = stale[..k].to_vec();
            let ok = f.filter(&sets, k, n, &mut m);
            match brute(&doms, n) {
                None => prop_assert!(!ok),
                Some(s) => {
                    prop_assert!(ok);
                    prop_assert_eq!(&f.support, &s);
                }
            }
        }
    }
}
