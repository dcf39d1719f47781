//! Uniform grid over swept boxes, with in-step re-insertion.
//!
//! The cell size is the 90th percentile of the swept-box extents (over a strided sample of
//! at most 4096 bodies), so about nine bodies in ten cover at most 2×2 cells. A body whose
//! box spans more than [`MAX_SPAN`] cells on an axis (a huge circle, or a very fast one)
//! goes to an *oversized* list that is tested against every body directly instead of
//! flooding the grid: a few huge circles cost O(N) each and never ruin the cell size for
//! the rest.
//!
//! At the start of a step the bodies go into a *dense* grid when the rectangle of cells
//! they cover is compact (at most `4 N + 1024` cells): a counting sort into one array per
//! cell, so a cell's bodies are contiguous in memory and pairs are generated cell by cell.
//! Sparse worlds use a hash of the cells instead. Bodies whose course changes mid-step are
//! inserted again (into per-cell chains of the dense cells, or the hash) with the boxes of
//! their new paths; their old entries go stale and are filtered out by the box test, so
//! nothing is ever removed during a step.

use crate::bodies::{Bodies, boxes_overlap};
use glam::DVec2;

/// A body whose box spans more cells than this on one axis is kept out of the grid.
pub const MAX_SPAN: i64 = 4;
const NONE: u32 = u32::MAX;

#[derive(Clone, Copy, Debug)]
struct Entry {
    cx: i32,
    cy: i32,
    body: u32,
    next: u32,
}

/// Cell range `(x0, y0, x1, y1)`, inclusive.
type Range = (i32, i32, i32, i32);
const EMPTY: Range = (1, 1, 0, 0);

/// The grid. Rebuilt each step by [`Grid::rebuild`].
#[derive(Clone, Debug, Default)]
pub(crate) struct Grid {
    inv_cell: f64,
    cell: f64,
    /// Dense part: cells `(gx0.., gy0..)`, `gw` wide and `gh` high, row-major.
    pub(crate) dense: bool,
    gx0: i32,
    gy0: i32,
    gw: i32,
    gh: i32,
    /// `cell_start[c]..cell_start[c + 1]` indexes `cell_bodies` for dense cell `c`.
    cell_start: Vec<u32>,
    cell_bodies: Vec<u32>,
    /// Re-insertions into dense cells: head of each dense cell's chain in `entries`.
    dense_heads: Vec<u32>,
    /// Hash part: every body of a sparse world, and re-insertions outside the dense cells.
    shift: u32,
    heads: Vec<u32>,
    entries: Vec<Entry>,
    oversized: Vec<u32>,
    is_oversized: Vec<bool>,
    /// Cell range each body was last inserted with: re-inserting into a range already
    /// covered would only add duplicate entries.
    registered: Vec<Range>,
    scratch: Vec<f64>,
}

/// At most this many boxes are sampled to choose the cell size.
const SIZE_SAMPLES: usize = 4096;

#[inline]
fn cell_coord(x: f64, inv_cell: f64) -> i32 {
    // `floor` without a libm call: truncate (saturating; NaN gives 0), then step down
    // for negative non-integers. Far-away coordinates share the edge cells.
    let v = x * inv_cell;
    let t = v as i32;
    t.saturating_sub(i32::from(f64::from(t) > v))
}

/// Empties `v` and fills it with `n` copies of `value`. A buffer that must grow is
/// replaced by one with an eighth of slack instead of doubling: per-step buffers whose
/// size creeps up would otherwise end up holding twice what they use.
fn refill<T: Clone>(v: &mut Vec<T>, n: usize, value: T) {
    v.clear();
    if v.capacity() < n {
        *v = Vec::new();
        v.reserve_exact(n + n / 8);
    }
    v.resize(n, value);
}

#[inline]
fn within(inner: Range, outer: Range) -> bool {
    outer.0 <= inner.0 && outer.1 <= inner.1 && inner.2 <= outer.2 && inner.3 <= outer.3
}

impl Grid {
    /// Current cell size.
    pub(crate) fn cell_size(&self) -> f64 {
        self.cell
    }

    /// Bytes held by the grid's buffers, by part.
    pub(crate) fn heap_bytes(&self) -> [(&'static str, usize); 3] {
        use crate::simulation::capacity_bytes as cap;
        [
            (
                "grid cells",
                cap(&self.cell_start) + cap(&self.dense_heads) + cap(&self.heads),
            ),
            ("grid lists", cap(&self.cell_bodies) + cap(&self.entries)),
            (
                "grid per body",
                cap(&self.registered)
                    + cap(&self.is_oversized)
                    + cap(&self.oversized)
                    + cap(&self.scratch),
            ),
        ]
    }

    /// Number of bodies kept out of the grid.
    pub(crate) fn oversized_count(&self) -> usize {
        self.oversized.len()
    }

    #[inline]
    fn slot(&self, cx: i32, cy: i32) -> usize {
        let key = (u64::from(cx as u32) << 32) | u64::from(cy as u32);
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    #[inline]
    fn range(&self, min: DVec2, max: DVec2) -> Range {
        (
            cell_coord(min.x, self.inv_cell),
            cell_coord(min.y, self.inv_cell),
            cell_coord(max.x, self.inv_cell),
            cell_coord(max.y, self.inv_cell),
        )
    }

    /// Range of body `i`'s current box, or `None` if it is (now) oversized.
    #[inline]
    fn body_range(&self, bodies: &Bodies, i: usize) -> Option<Range> {
        let (min, max) = bodies.swept_box(i);
        let r = self.range(min, max);
        let fits = i64::from(r.2) - i64::from(r.0) < MAX_SPAN
            && i64::from(r.3) - i64::from(r.1) < MAX_SPAN;
        fits.then_some(r)
    }

    /// Index of dense cell `(cx, cy)`, if it lies in the dense rectangle.
    #[inline]
    fn dense_index(&self, cx: i32, cy: i32) -> Option<usize> {
        let (x, y) = (
            i64::from(cx) - i64::from(self.gx0),
            i64::from(cy) - i64::from(self.gy0),
        );
        (self.dense && x >= 0 && y >= 0 && x < i64::from(self.gw) && y < i64::from(self.gh))
            .then(|| (y * i64::from(self.gw) + x) as usize)
    }

    /// Chooses the cell size from the bodies' current boxes and inserts every body.
    pub(crate) fn rebuild(&mut self, bodies: &Bodies) {
        let n = bodies.len();
        self.scratch.clear();
        // A strided sample is enough for a percentile, and keeps this O(1) per body.
        let stride = n.div_ceil(SIZE_SAMPLES).max(1);
        self.scratch.extend((0..n).step_by(stride).map(|i| {
            let (min, max) = bodies.swept_box(i);
            (max - min).max_element()
        }));
        let samples = self.scratch.len();
        self.cell = if samples == 0 {
            1.0
        } else {
            let k = (samples * 9 / 10).min(samples - 1);
            let (_, p90, _) = self.scratch.select_nth_unstable_by(k, f64::total_cmp);
            if p90.is_finite() && *p90 > 0.0 {
                *p90
            } else {
                1.0
            }
        };
        self.inv_cell = 1.0 / self.cell;
        self.oversized.clear();
        refill(&mut self.is_oversized, n, false);
        refill(&mut self.registered, n, EMPTY);
        let mut bounds = (i32::MAX, i32::MAX, i32::MIN, i32::MIN);
        for i in 0..n {
            match self.body_range(bodies, i) {
                Some(r) => {
                    self.registered[i] = r;
                    bounds = (
                        bounds.0.min(r.0),
                        bounds.1.min(r.1),
                        bounds.2.max(r.2),
                        bounds.3.max(r.3),
                    );
                }
                None => {
                    self.is_oversized[i] = true;
                    self.oversized.push(i as u32);
                }
            }
        }
        let (w, h) = (
            i64::from(bounds.2) - i64::from(bounds.0) + 1,
            i64::from(bounds.3) - i64::from(bounds.1) + 1,
        );
        self.dense = bounds.0 <= bounds.2 && w * h <= 4 * n as i64 + 1024;
        // The hash holds everything of a sparse world, only re-insertions outside the
        // dense rectangle of a dense one.
        let hashed = if self.dense { 64 } else { 4 * n };
        let bits = hashed.max(64).next_power_of_two().trailing_zeros();
        self.shift = 64 - bits;
        refill(&mut self.heads, 1 << bits, NONE);
        self.entries.clear();
        if self.dense {
            self.fill_dense(bounds, w as usize * h as usize);
        } else {
            for i in 0..n {
                if let Some(r) = (!self.is_oversized[i]).then_some(self.registered[i]) {
                    self.add_entries(i, r);
                }
            }
        }
    }

    /// Counting sort of the bodies into the dense cells of `bounds`.
    fn fill_dense(&mut self, bounds: Range, cells: usize) {
        (self.gx0, self.gy0) = (bounds.0, bounds.1);
        (self.gw, self.gh) = (bounds.2 - bounds.0 + 1, bounds.3 - bounds.1 + 1);
        refill(&mut self.cell_start, cells + 1, 0);
        refill(&mut self.dense_heads, cells, NONE);
        // Every gridded body's range lies inside the bounds: walk its cells row by row.
        let gw = self.gw as usize;
        let cells_of = |r: Range| {
            let first = (r.1 - bounds.1) as usize * gw + (r.0 - bounds.0) as usize;
            let (w, h) = ((r.2 - r.0 + 1) as usize, (r.3 - r.1 + 1) as usize);
            (0..h).flat_map(move |y| first + y * gw..first + y * gw + w)
        };
        for (r, _) in self
            .registered
            .iter()
            .zip(&self.is_oversized)
            .filter(|(_, o)| !**o)
        {
            for c in cells_of(*r) {
                self.cell_start[c] += 1;
            }
        }
        // Running sums: `cell_start[c]` is now where cell `c` ends.
        for c in 1..cells {
            self.cell_start[c] += self.cell_start[c - 1];
        }
        let total = cells.checked_sub(1).map_or(0, |last| self.cell_start[last]);
        self.cell_start[cells] = total;
        refill(&mut self.cell_bodies, total as usize, 0);
        // Filling each cell from its end, bodies in reverse order, leaves every list
        // ascending and `cell_start[c]` at the start of cell `c`: no cursor array needed.
        for (i, r) in self.registered.iter().enumerate().rev() {
            if !self.is_oversized[i] {
                for c in cells_of(*r) {
                    self.cell_start[c] -= 1;
                    self.cell_bodies[self.cell_start[c] as usize] = i as u32;
                }
            }
        }
    }

    /// Adds entries for body `i` in every cell of its range: dense cells get a chain of
    /// their own, other cells go to the hash.
    fn add_entries(&mut self, i: usize, (x0, y0, x1, y1): Range) {
        for cy in y0..=y1 {
            for cx in x0..=x1 {
                let head = match self.dense_index(cx, cy) {
                    Some(c) => &mut self.dense_heads[c],
                    None => {
                        let slot = self.slot(cx, cy);
                        &mut self.heads[slot]
                    }
                };
                let next = std::mem::replace(head, self.entries.len() as u32);
                self.entries.push(Entry {
                    cx,
                    cy,
                    body: i as u32,
                    next,
                });
            }
        }
    }

    /// Inserts body `i` again with its current box (its course changed mid-step).
    pub(crate) fn insert(&mut self, bodies: &Bodies, i: usize) {
        if self.is_oversized[i] {
            return;
        }
        let Some(r) = self.body_range(bodies, i) else {
            self.is_oversized[i] = true;
            self.oversized.push(i as u32);
            return;
        };
        if within(r, self.registered[i]) {
            return;
        }
        self.registered[i] = r;
        self.add_entries(i, r);
    }

    /// Bodies listed in dense cell `c` at the start of the step.
    #[inline]
    fn cell_list(&self, c: usize) -> &[u32] {
        &self.cell_bodies[self.cell_start[c] as usize..self.cell_start[c + 1] as usize]
    }

    /// Calls `found(i, j)` once for every pair of gridded bodies whose boxes overlap and
    /// that is found in the dense cell rows `rows`, cell by cell (start of a step: no
    /// re-insertions yet). Each pair is reported from the cell holding the min corner of
    /// the boxes' intersection only, so all rows together list every pair once; pairs
    /// with oversized bodies come from
    /// [`for_each_oversized_pair`](Self::for_each_oversized_pair). Hashed worlds list
    /// their pairs with [`query`](Self::query) and `only_greater`.
    pub(crate) fn for_each_pair_in_rows(
        &self,
        bodies: &Bodies,
        rows: std::ops::Range<usize>,
        mut found: impl FnMut(usize, usize),
    ) {
        let mut boxes: Vec<(DVec2, DVec2)> = Vec::with_capacity(16);
        let w = self.gw as usize;
        for row in rows {
            for col in 0..w {
                let list = self.cell_list(row * w + col);
                if list.len() < 2 {
                    continue;
                }
                let cell = (self.gx0 + col as i32, self.gy0 + row as i32);
                boxes.clear();
                for &a in list {
                    boxes.push(bodies.swept_box(a as usize));
                }
                for (k, &a) in list.iter().enumerate() {
                    for (l, &b) in list.iter().enumerate().skip(k + 1) {
                        if self.reports(boxes[k], boxes[l], cell) {
                            let (a, b) = (a as usize, b as usize);
                            found(a.min(b), a.max(b));
                        }
                    }
                }
            }
        }
    }

    /// Pairs of an oversized body with any other (dense worlds).
    pub(crate) fn for_each_oversized_pair(
        &self,
        bodies: &Bodies,
        mut found: impl FnMut(usize, usize),
    ) {
        for &o in &self.oversized {
            let o = o as usize;
            for j in 0..bodies.len() {
                if j != o && (!self.is_oversized[j] || j > o) && bodies.boxes_overlap(o, j) {
                    found(o.min(j), o.max(j));
                }
            }
        }
    }

    /// Number of dense cell rows (0 in a hashed world).
    pub(crate) fn dense_rows(&self) -> usize {
        if self.dense { self.gh as usize } else { 0 }
    }

    /// Whether two boxes found in cell `(cx, cy)` are reported there: they overlap, and
    /// that cell holds the min corner of their intersection.
    #[inline]
    fn reports(&self, a: (DVec2, DVec2), b: (DVec2, DVec2), (cx, cy): (i32, i32)) -> bool {
        if !boxes_overlap(a, b) {
            return false;
        }
        let corner = a.0.max(b.0);
        cell_coord(corner.x, self.inv_cell) == cx && cell_coord(corner.y, self.inv_cell) == cy
    }

    /// Calls `found(j)` for bodies `j ≠ i` whose current box overlaps body `i`'s. With
    /// `only_greater`, calling it for every `i` lists each pair exactly once (hash worlds
    /// at the start of a step): gridded pairs from the lower index, pairs with an
    /// oversized body from the oversized one. A pair may be reported more than once after
    /// re-insertions; callers tolerate it.
    pub(crate) fn query(
        &self,
        bodies: &Bodies,
        i: usize,
        only_greater: bool,
        mut found: impl FnMut(usize),
    ) {
        if self.is_oversized[i] {
            for j in 0..bodies.len() {
                // Pairs of an oversized body and a gridded one are found here only, so with
                // `only_greater` the order rule applies to oversized partners alone.
                let listed_once = !only_greater || !self.is_oversized[j] || j > i;
                if j != i && listed_once && bodies.boxes_overlap(i, j) {
                    found(j);
                }
            }
            return;
        }
        let keep = |j: usize| j != i && (!only_greater || j > i);
        let own = bodies.swept_box(i);
        let (x0, y0, x1, y1) = self.range(own.0, own.1);
        let mut check = |j: usize, cell| {
            if keep(j) && self.reports(own, bodies.swept_box(j), cell) {
                found(j);
            }
        };
        for cy in y0..=y1 {
            for cx in x0..=x1 {
                let mut e = match self.dense_index(cx, cy) {
                    Some(c) => {
                        for &j in self.cell_list(c) {
                            check(j as usize, (cx, cy));
                        }
                        self.dense_heads[c]
                    }
                    None => self.heads[self.slot(cx, cy)],
                };
                while e != NONE {
                    let entry = self.entries[e as usize];
                    e = entry.next;
                    if entry.cx == cx && entry.cy == cy {
                        check(entry.body as usize, (cx, cy));
                    }
                }
            }
        }
        if !only_greater {
            for &j in &self.oversized {
                if j as usize != i && bodies.boxes_overlap(i, j as usize) {
                    found(j as usize);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::refill;

    /// A per-step buffer that grows a little each step keeps about what it uses
    /// (an eighth of slack), instead of doubling like a plain `resize`.
    #[test]
    fn refill_grows_with_slack_not_doubling() {
        let mut v: Vec<u32> = Vec::new();
        refill(&mut v, 1000, 7);
        assert_eq!(v, vec![7; 1000]);
        let first = v.capacity();
        assert!((1000..=1125).contains(&first), "capacity {first}");
        refill(&mut v, 1010, 0);
        assert_eq!(v.len(), 1010);
        assert!(v.iter().all(|&x| x == 0));
        assert_eq!(v.capacity(), first, "room left: no new allocation");
        refill(&mut v, 1200, 1);
        assert!(
            (1200..=1350).contains(&v.capacity()),
            "capacity {}",
            v.capacity()
        );
    }
}
