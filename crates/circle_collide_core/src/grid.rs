//! Uniform grid over swept boxes, with in-step re-insertion.
//!
//! The cell size is the 90th percentile of the swept-box extents, so nine bodies in ten
//! cover at most 2×2 cells. A body whose box spans more than [`MAX_SPAN`] cells on an axis
//! (a huge circle, or a very fast one) goes to an *oversized* list that is tested against
//! every body directly instead of flooding the grid: a few huge circles cost O(N) each
//! and never ruin the cell size for the rest.
//!
//! At the start of a step the bodies go into a *dense* grid when the rectangle of cells
//! they cover is compact (at most `4 N + 1024` cells): a counting sort into one array per
//! cell, so a cell's bodies are contiguous in memory and pairs are generated cell by cell.
//! Sparse worlds use a hash of the cells instead. Bodies whose course changes mid-step are
//! inserted again, into the hash, with the boxes of their new paths; their old entries go
//! stale and are filtered out by the box test, so nothing is ever removed during a step.

use crate::body::Bodies;
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
    /// Hash part: every body of a sparse world, and re-insertions.
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

#[inline]
fn cell_coord(x: f64, inv_cell: f64) -> i32 {
    // Saturating float-to-int cast: far-away coordinates share the edge cells.
    (x * inv_cell).floor() as i32
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
        let r = self.range(bodies.box_min[i], bodies.box_max[i]);
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
        self.scratch
            .extend((0..n).map(|i| (bodies.box_max[i] - bodies.box_min[i]).max_element()));
        self.cell = if n == 0 {
            1.0
        } else {
            let k = (n * 9 / 10).min(n - 1);
            let (_, p90, _) = self.scratch.select_nth_unstable_by(k, f64::total_cmp);
            if p90.is_finite() && *p90 > 0.0 {
                *p90
            } else {
                1.0
            }
        };
        self.inv_cell = 1.0 / self.cell;
        self.oversized.clear();
        self.is_oversized.clear();
        self.is_oversized.resize(n, false);
        self.registered.clear();
        self.registered.resize(n, EMPTY);
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
        // The hash holds everything of a sparse world, only re-insertions of a dense one.
        let hashed = if self.dense { n / 2 } else { 4 * n };
        let bits = hashed.max(64).next_power_of_two().trailing_zeros();
        self.shift = 64 - bits;
        self.heads.clear();
        self.heads.resize(1 << bits, NONE);
        self.entries.clear();
        if self.dense {
            self.fill_dense(bounds, w as usize * h as usize);
        } else {
            for i in 0..n {
                if let Some(r) = (!self.is_oversized[i]).then_some(self.registered[i]) {
                    self.hash_insert(i, r);
                }
            }
        }
    }

    /// Counting sort of the bodies into the dense cells of `bounds`.
    fn fill_dense(&mut self, bounds: Range, cells: usize) {
        (self.gx0, self.gy0) = (bounds.0, bounds.1);
        (self.gw, self.gh) = (bounds.2 - bounds.0 + 1, bounds.3 - bounds.1 + 1);
        self.cell_start.clear();
        self.cell_start.resize(cells + 1, 0);
        let covered =
            |r: Range| (r.1..=r.3).flat_map(move |cy| (r.0..=r.2).map(move |cx| (cx, cy)));
        for i in 0..self.registered.len() {
            if !self.is_oversized[i] {
                for (cx, cy) in covered(self.registered[i]) {
                    let c = self.dense_index(cx, cy).expect("inside the bounds");
                    self.cell_start[c + 1] += 1;
                }
            }
        }
        for c in 0..cells {
            self.cell_start[c + 1] += self.cell_start[c];
        }
        self.cell_bodies.clear();
        self.cell_bodies.resize(self.cell_start[cells] as usize, 0);
        let mut cursor = self.cell_start.clone();
        for i in 0..self.registered.len() {
            if !self.is_oversized[i] {
                for (cx, cy) in covered(self.registered[i]) {
                    let c = self.dense_index(cx, cy).expect("inside the bounds");
                    self.cell_bodies[cursor[c] as usize] = i as u32;
                    cursor[c] += 1;
                }
            }
        }
    }

    fn hash_insert(&mut self, i: usize, (x0, y0, x1, y1): Range) {
        for cy in y0..=y1 {
            for cx in x0..=x1 {
                let slot = self.slot(cx, cy);
                let next = self.heads[slot];
                self.heads[slot] = self.entries.len() as u32;
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
        self.hash_insert(i, r);
    }

    /// Calls `found(i, j)` once for every pair of bodies whose boxes overlap (start of a
    /// step: no re-insertions yet). Dense worlds go cell by cell; each pair is reported
    /// from the cell holding the min corner of the boxes' intersection only.
    pub(crate) fn for_each_pair(&self, bodies: &Bodies, mut found: impl FnMut(usize, usize)) {
        if self.dense {
            for c in 0..(self.gw as usize * self.gh as usize) {
                let list =
                    &self.cell_bodies[self.cell_start[c] as usize..self.cell_start[c + 1] as usize];
                let (cx, cy) = (
                    self.gx0 + (c % self.gw as usize) as i32,
                    self.gy0 + (c / self.gw as usize) as i32,
                );
                for (k, &a) in list.iter().enumerate() {
                    for &b in &list[k + 1..] {
                        let (a, b) = (a as usize, b as usize);
                        if self.reports(bodies, a, b, cx, cy) {
                            found(a.min(b), a.max(b));
                        }
                    }
                }
            }
            for &o in &self.oversized {
                let o = o as usize;
                for j in 0..bodies.len() {
                    if j != o && (!self.is_oversized[j] || j > o) && bodies.boxes_overlap(o, j) {
                        found(o.min(j), o.max(j));
                    }
                }
            }
        } else {
            for i in 0..bodies.len() {
                self.query(bodies, i, true, |j| found(i.min(j), i.max(j)));
            }
        }
    }

    /// Whether the pair `(a, b)` found in cell `(cx, cy)` is reported there: boxes
    /// overlap, and that cell holds the min corner of their intersection.
    #[inline]
    fn reports(&self, bodies: &Bodies, a: usize, b: usize, cx: i32, cy: i32) -> bool {
        if !bodies.boxes_overlap(a, b) {
            return false;
        }
        let corner = bodies.box_min[a].max(bodies.box_min[b]);
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
        let (x0, y0, x1, y1) = self.range(bodies.box_min[i], bodies.box_max[i]);
        for cy in y0..=y1 {
            for cx in x0..=x1 {
                if let Some(c) = self.dense_index(cx, cy) {
                    for &j in &self.cell_bodies
                        [self.cell_start[c] as usize..self.cell_start[c + 1] as usize]
                    {
                        let j = j as usize;
                        if keep(j) && self.reports(bodies, i, j, cx, cy) {
                            found(j);
                        }
                    }
                }
                let mut e = self.heads[self.slot(cx, cy)];
                while e != NONE {
                    let entry = self.entries[e as usize];
                    e = entry.next;
                    let j = entry.body as usize;
                    if entry.cx == cx
                        && entry.cy == cy
                        && keep(j)
                        && self.reports(bodies, i, j, cx, cy)
                    {
                        found(j);
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
