//! Uniform spatial hash over swept boxes, with in-step re-insertion.
//!
//! The cell size is the 90th percentile of the swept-box extents, so nine bodies in ten
//! cover at most 2×2 cells. A body whose box spans more than [`MAX_SPAN`] cells on an axis
//! (a huge circle, or a very fast one) goes to an *oversized* list that is tested against
//! every body directly instead of flooding the grid: a few huge circles cost O(N) each
//! and never ruin the cell size for the rest.
//!
//! Cells are hashed into a power-of-two table of singly linked entry lists. A body whose
//! course changes mid-step is inserted again with its new box; its old entries go stale
//! and are filtered out by the box test, so nothing is ever removed during a step.

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

/// The grid. Rebuilt each step by [`Grid::rebuild`].
#[derive(Clone, Debug, Default)]
pub(crate) struct Grid {
    inv_cell: f64,
    cell: f64,
    shift: u32,
    heads: Vec<u32>,
    entries: Vec<Entry>,
    oversized: Vec<u32>,
    is_oversized: Vec<bool>,
    /// Cell range each body was last inserted with: re-inserting into a range already
    /// covered would only add duplicate entries.
    registered: Vec<(i32, i32, i32, i32)>,
    scratch: Vec<f64>,
}

#[inline]
fn cell_coord(x: f64, inv_cell: f64) -> i32 {
    // Saturating float-to-int cast: far-away coordinates share the edge cells.
    (x * inv_cell).floor() as i32
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
    fn range(&self, min: DVec2, max: DVec2) -> (i32, i32, i32, i32) {
        (
            cell_coord(min.x, self.inv_cell),
            cell_coord(min.y, self.inv_cell),
            cell_coord(max.x, self.inv_cell),
            cell_coord(max.y, self.inv_cell),
        )
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
        let bits = (4 * n).max(64).next_power_of_two().trailing_zeros();
        self.shift = 64 - bits;
        self.heads.clear();
        self.heads.resize(1 << bits, NONE);
        self.entries.clear();
        self.oversized.clear();
        self.is_oversized.clear();
        self.is_oversized.resize(n, false);
        self.registered.clear();
        self.registered.resize(n, (1, 1, 0, 0));
        for i in 0..n {
            self.insert(bodies, i);
        }
    }

    /// Inserts body `i` with its current box (again, if its course changed).
    pub(crate) fn insert(&mut self, bodies: &Bodies, i: usize) {
        if self.is_oversized[i] {
            return;
        }
        let (x0, y0, x1, y1) = self.range(bodies.box_min[i], bodies.box_max[i]);
        if i64::from(x1) - i64::from(x0) >= MAX_SPAN || i64::from(y1) - i64::from(y0) >= MAX_SPAN {
            self.is_oversized[i] = true;
            self.oversized.push(i as u32);
            return;
        }
        let (rx0, ry0, rx1, ry1) = self.registered[i];
        if rx0 <= x0 && ry0 <= y0 && x1 <= rx1 && y1 <= ry1 {
            return;
        }
        self.registered[i] = (x0, y0, x1, y1);
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

    /// Calls `found(j)` for bodies `j ≠ i` whose current box overlaps body `i`'s. With
    /// `only_greater`, calling it for every `i` lists each pair exactly once (used at the
    /// start of a step): gridded pairs from the lower index, pairs with an oversized body
    /// from the oversized one.
    /// A pair may be reported more than once after re-insertions; callers tolerate it.
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
        let keep = |j: usize| j != i && (!only_greater || j > i) && bodies.boxes_overlap(i, j);
        let (min, max) = (bodies.box_min[i], bodies.box_max[i]);
        let (x0, y0, x1, y1) = self.range(min, max);
        for cy in y0..=y1 {
            for cx in x0..=x1 {
                let mut e = self.heads[self.slot(cx, cy)];
                while e != NONE {
                    let entry = self.entries[e as usize];
                    e = entry.next;
                    if entry.cx != cx || entry.cy != cy {
                        continue;
                    }
                    let j = entry.body as usize;
                    if !keep(j) {
                        continue;
                    }
                    // Report the pair only from the cell holding the min corner of the
                    // boxes' intersection: once, however many cells they share.
                    let corner = min.max(bodies.box_min[j]);
                    if cell_coord(corner.x, self.inv_cell) == cx
                        && cell_coord(corner.y, self.inv_cell) == cy
                    {
                        found(j);
                    }
                }
            }
        }
        if !only_greater {
            for &j in &self.oversized {
                if keep(j as usize) {
                    found(j as usize);
                }
            }
        }
    }
}
