//! The grid's queries: the bodies whose boxes meet a body's (its own, widened, or as
//! last listed), through the dense cells, the chains of re-inserted bodies, and the
//! oversized list.

use super::{Grid, NONE, cell_coord, small_box, small_boxes_overlap};
use crate::bodies::{Bodies, boxes_overlap};
use glam::DVec2;

impl Grid {
    /// Whether two boxes found in cell `(cx, cy)` are reported there: they overlap, and
    /// that cell holds the min corner of their intersection.
    #[inline]
    pub(super) fn reports(
        &self,
        a: (DVec2, DVec2),
        b: (DVec2, DVec2),
        (cx, cy): (i32, i32),
    ) -> bool {
        if !boxes_overlap(a, b) {
            return false;
        }
        let corner = a.0.max(b.0);
        cell_coord(corner.x, self.inv_cell) == cx && cell_coord(corner.y, self.inv_cell) == cy
    }

    /// Calls `visit(k)` for the entries `k` of `cell_bodies` whose box may reach `own`
    /// (dense worlds). A body listed in a dense cell has its box's min corner there, and
    /// its box is at most a cell wide (its current path stays within the cells of its
    /// start box, or it was inserted again as well): only cells from one before `own`'s
    /// range can hold a box that reaches it.
    pub(super) fn scan_dense(&self, own: (DVec2, DVec2), mut visit: impl FnMut(usize)) {
        if !self.dense {
            return;
        }
        let (x0, y0, x1, y1) = self.range(own.0, own.1);
        let (gx0, gy0) = (i64::from(self.gx0), i64::from(self.gy0));
        let (lo_x, hi_x) = (i64::from(x0) - 1 - gx0, i64::from(x1) - gx0);
        let (lo_y, hi_y) = (i64::from(y0) - 1 - gy0, i64::from(y1) - gy0);
        let (w, h) = (i64::from(self.gw), i64::from(self.gh));
        if hi_x < 0 || lo_x >= w || hi_y < 0 || lo_y >= h {
            return;
        }
        let (cx0, cx1) = (lo_x.max(0) as usize, hi_x.min(w - 1) as usize);
        let w = w as usize;
        for row in lo_y.max(0) as usize..=hi_y.min(h - 1) as usize {
            self.cells_span(row * w + cx0, row * w + cx1)
                .for_each(&mut visit);
        }
    }

    /// Calls `visit(j, cell)` for every chained entry (re-insertions and big bodies of
    /// dense worlds, everything of hashed ones) in the cells of `own`'s range. A body is
    /// met once per cell it is listed in: filter with [`reports`](Self::reports).
    pub(super) fn scan_chains(
        &self,
        own: (DVec2, DVec2),
        mut visit: impl FnMut(usize, (i32, i32)),
    ) {
        let (x0, y0, x1, y1) = self.range(own.0, own.1);
        for cy in y0..=y1 {
            for cx in x0..=x1 {
                let mut e = match self.dense_index(cx, cy) {
                    Some(c) => self.dense_heads[c],
                    None => self.heads[self.slot(cx, cy)],
                };
                while e != NONE {
                    let entry = self.entries[e as usize];
                    e = entry.next;
                    if entry.cx == cx && entry.cy == cy {
                        visit(entry.body as usize, (cx, cy));
                    }
                }
            }
        }
    }

    /// Calls `found(j)` for bodies `j ≠ i` whose current box overlaps body `i`'s widened
    /// by `widen` on every side (each once, unless re-insertions list it twice).
    pub(crate) fn query_widened(
        &self,
        bodies: &Bodies,
        i: usize,
        widen: f64,
        found: impl FnMut(usize),
    ) {
        let (min, max) = bodies.swept_box(i);
        let widen = DVec2::splat(widen.max(0.0));
        let own = (min - widen, max + widen);
        // A box that is not finite is scanned against every body, as an oversized one.
        self.query_box::<false>(bodies, i, own, !widen.is_finite(), false, found);
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
        found: impl FnMut(usize),
    ) {
        self.query_box::<false>(bodies, i, bodies.swept_box(i), false, only_greater, found);
    }

    /// Calls `found(j)` for bodies `j ≠ i` whose box as last listed (see `body_boxes`)
    /// overlaps body `i`'s current box: [`query`](Self::query) for the event loop,
    /// where every change of a body's path lists it again. The listed box holds the
    /// current one, so every body `query` finds is found, and a few more whose paths
    /// have moved on: their current boxes (widened by the slop) miss body `i`'s, so they
    /// can neither hit it within the step nor touch it, and the event loop predicts
    /// exactly what it would with `query`. The boxes are read from one array instead of
    /// being worked out from each body's path (under gravity, its parabola's extremes).
    pub(crate) fn query_listed(&self, bodies: &Bodies, i: usize, found: impl FnMut(usize)) {
        self.query_box::<true>(bodies, i, bodies.swept_box(i), false, false, found);
    }

    /// Calls `found(j)` for bodies `j ≠ i` whose current box overlaps `own` (body `i`'s
    /// box, perhaps widened): through the grid, or over every body if `i` is oversized or
    /// `every`; `only_greater` as in [`query`](Self::query). With `LISTED`, the bodies of
    /// the dense cells are tested by their boxes as last listed
    /// ([`query_listed`](Self::query_listed)).
    fn query_box<const LISTED: bool>(
        &self,
        bodies: &Bodies,
        i: usize,
        own: (DVec2, DVec2),
        every: bool,
        only_greater: bool,
        mut found: impl FnMut(usize),
    ) {
        if self.is_oversized[i] || every {
            for j in 0..bodies.len() {
                // Pairs of an oversized body and a gridded one are found here only, so with
                // `only_greater` the order rule applies to oversized partners alone.
                let listed_once = !only_greater || !self.is_oversized[j] || j > i;
                if j != i && listed_once && boxes_overlap(own, bodies.swept_box(j)) {
                    found(j);
                }
            }
            return;
        }
        let keep = |j: usize| j != i && (!only_greater || j > i);
        let small = small_box(own);
        let overlaps = |j: usize| {
            if LISTED {
                small_boxes_overlap(small, self.body_boxes[j])
            } else {
                boxes_overlap(own, bodies.swept_box(j))
            }
        };
        self.scan_dense(own, |k| {
            let j = self.cell_bodies[k] as usize;
            if keep(j) && overlaps(j) {
                found(j);
            }
        });
        self.scan_chains(own, |j, cell| {
            if keep(j) && self.reports(own, bodies.swept_box(j), cell) {
                found(j);
            }
        });
        if !only_greater {
            for &j in &self.oversized {
                if j as usize != i && boxes_overlap(own, bodies.swept_box(j as usize)) {
                    found(j as usize);
                }
            }
        }
    }
}
