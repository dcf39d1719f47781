//! Uniform grid over swept boxes, with in-step re-insertion.
//!
//! At the start of a step every body is listed *once*, in the cell holding the min
//! corner of its swept box. The cell size is the largest box extent of the gridded
//! bodies, so two boxes can only overlap if their corners' cells are neighbours, and the
//! pairs come from scanning each cell against itself and half of its neighbours (the
//! classic linked-cell method): each pair is met exactly once, and the boxes are read
//! from one array in cell order. Only bodies up to [`SINGLE_SPAN`] times the typical
//! extent (the 90th percentile, over a strided sample of at most 4096 bodies) set the
//! cell size; middling ones, up to [`MAX_SPAN`] times, are listed in every cell their box
//! covers and find their pairs with one scan each. A larger body — a huge circle, or a
//! very fast one — goes to an *oversized* list that is tested against every body
//! directly instead of inflating the cells: a few huge circles cost O(N) each and never
//! ruin the cell size for the rest.
//!
//! The cells form a *dense* array when the rectangle they cover is compact (at most
//! `4 N + 1024` cells): a counting sort, so a cell's bodies are contiguous in memory.
//! Sparse worlds use a hash instead, where a body is listed in every cell its box covers.
//! Bodies whose course changes mid-step are inserted again (into per-cell chains of the
//! dense cells, or the hash) in every cell of the box of their new path; their old
//! entries go stale and are filtered out by the box test, so nothing is ever removed
//! during a step.

use crate::bodies::{Bodies, boxes_overlap};
use glam::DVec2;

/// A body whose box is more than this many times the typical extent is kept out of the
/// grid at the start of a step; mid-step, one whose cells — the range holding every box it
/// was listed with in the step ([`Grid::insert`]) — would span this many or more on one
/// axis.
pub const MAX_SPAN: i64 = 4;
/// Bodies up to this many times the typical extent are listed once, in the cell of their
/// box's min corner (the cell size is the largest of them); larger ones, up to
/// [`MAX_SPAN`] times, are listed in every cell their box covers, like mid-step
/// re-insertions, so a few middling circles do not inflate the cells.
pub const SINGLE_SPAN: f64 = 1.5;
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
    /// `cell_start[c]..cell_start[c + 1]` indexes `cell_bodies` (and `cell_boxes`) for
    /// dense cell `c`: the bodies whose box's min corner lies in it.
    cell_start: Vec<u32>,
    cell_bodies: Vec<u32>,
    /// Start-of-step box of each entry of `cell_bodies`, in `f32` rounded outwards.
    cell_boxes: Vec<SmallBox>,
    /// Whether each entry of `cell_bodies` can be in an interacting pair on its own: a
    /// dynamic awake body (inverse mass above 0) or a sensor. Two entries that cannot —
    /// static, kinematic or sleeping bodies — never interact
    /// ([`Simulation::interacts`](crate::Simulation::interacts)).
    cell_active: Vec<bool>,
    /// `active_before[c]`: the active entries of the dense cells before cell `c`.
    active_before: Vec<u32>,
    /// Whether some entry of the dense cells is not active: pair listing then skips the
    /// cells with no active entry near them, and the pairs of two inactive entries.
    pub(crate) any_inactive: bool,
    /// Re-insertions into dense cells: head of each dense cell's chain in `entries`.
    dense_heads: Vec<u32>,
    /// Hash part: every body of a sparse world, and re-insertions outside the dense cells.
    shift: u32,
    heads: Vec<u32>,
    entries: Vec<Entry>,
    oversized: Vec<u32>,
    is_oversized: Vec<bool>,
    /// Gridded bodies too large for one cell: listed in every cell of their box.
    big: Vec<u32>,
    is_big: Vec<bool>,
    /// Cell range each body is listed in (by its entries, or for a body listed once by
    /// the dense cell of its box's min corner): re-inserting into a range already covered
    /// would only add duplicate entries, so mid-step it grows to hold each new range.
    registered: Vec<Range>,
    /// Each body's box (body order) as of its last listing: the start-of-step box from
    /// [`rebuild`](Grid::rebuild), replaced when [`insert`](Grid::insert) lists the
    /// body again. While the event loop runs it holds the box of the body's current path
    /// (the rest of a path lies within the box of the whole), read by
    /// [`query_listed`](Grid::query_listed).
    body_boxes: Vec<SmallBox>,
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

/// A box `[min x, min y, max x, max y]` in `f32`, rounded outwards.
pub(crate) type SmallBox = [f32; 4];

/// `b` in `f32`, rounded outwards so that it holds `b`.
///
/// Branch-free: each bound is first moved outwards by 2⁻²² of its size (plus a tiny
/// absolute amount for bounds near 0), more than the half `f32` ulp that rounding to
/// nearest can take back.
#[inline]
fn small_box(b: (DVec2, DVec2)) -> SmallBox {
    const REL: f64 = 1.0 / (1u64 << 22) as f64;
    const ABS: f64 = 1e-30;
    let down = |x: f64| (x - x.abs() * REL - ABS) as f32;
    let up = |x: f64| (x + x.abs() * REL + ABS) as f32;
    [down(b.0.x), down(b.0.y), up(b.1.x), up(b.1.y)]
}

/// `b` as `(min, max)` in `f64`.
#[inline]
fn widen(b: SmallBox) -> (DVec2, DVec2) {
    (
        DVec2::new(f64::from(b[0]), f64::from(b[1])),
        DVec2::new(f64::from(b[2]), f64::from(b[3])),
    )
}

/// Largest side of a small box.
#[inline]
fn extent(b: SmallBox) -> f64 {
    let (min, max) = widen(b);
    (max - min).max_element()
}

/// Whether two small boxes overlap (touching counts).
#[inline]
fn small_boxes_overlap(a: SmallBox, b: SmallBox) -> bool {
    a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3]
}

/// Whether the small box `b` holds the box `(min, max)` as rounded outwards to `f32`
/// ([`small_box`]): two boxes held so by boxes the dense cells listed meet only if
/// those did, since the listing tests the rounded boxes.
#[inline]
pub(crate) fn small_box_holds(b: SmallBox, own: (DVec2, DVec2)) -> bool {
    let s = small_box(own);
    b[0] <= s[0] && b[1] <= s[1] && b[2] >= s[2] && b[3] >= s[3]
}

/// Whether the small box `b` and the box `(min, max)` overlap (touching counts).
#[inline]
pub(crate) fn small_box_meets(b: SmallBox, (min, max): (DVec2, DVec2)) -> bool {
    let (lo, hi) = widen(b);
    boxes_overlap((lo, hi), (min, max))
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

/// Whether cell `(cx, cy)` lies in `r`.
#[inline]
fn holds(r: Range, (cx, cy): (i32, i32)) -> bool {
    r.0 <= cx && cx <= r.2 && r.1 <= cy && cy <= r.3
}

/// The smallest range holding `a` and `b` (`b` if `a` is empty).
fn hull(a: Range, b: Range) -> Range {
    if a.0 > a.2 || a.1 > a.3 {
        return b;
    }
    (a.0.min(b.0), a.1.min(b.1), a.2.max(b.2), a.3.max(b.3))
}

/// Whether a body with range `r` may be gridded mid-step: it spans fewer than
/// [`MAX_SPAN`] cells on each axis.
#[inline]
fn fits(r: Range) -> bool {
    i64::from(r.2) - i64::from(r.0) < MAX_SPAN && i64::from(r.3) - i64::from(r.1) < MAX_SPAN
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
            (
                "grid lists",
                cap(&self.cell_bodies)
                    + cap(&self.cell_boxes)
                    + cap(&self.cell_active)
                    + cap(&self.active_before)
                    + cap(&self.entries),
            ),
            (
                "grid per body",
                cap(&self.registered)
                    + cap(&self.body_boxes)
                    + cap(&self.is_oversized)
                    + cap(&self.is_big)
                    + cap(&self.big)
                    + cap(&self.oversized)
                    + cap(&self.scratch),
            ),
        ]
    }

    /// Each body's box as last listed (body order; the broad phase's boxes right after
    /// [`rebuild`](Self::rebuild)), copied into `out` — if every pair was listed by
    /// testing those boxes as rounded to `f32` (a dense grid with no big or oversized
    /// body); else `out` is left empty.
    pub(crate) fn copy_listed_boxes(&self, out: &mut Vec<SmallBox>) {
        out.clear();
        if self.dense && self.big.is_empty() && self.oversized.is_empty() {
            out.extend_from_slice(&self.body_boxes);
        }
    }

    /// Number of gridded bodies listed in every cell of their box (see [`SINGLE_SPAN`]).
    #[cfg(test)]
    pub(crate) fn big_count(&self) -> usize {
        self.big.len()
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

    /// Range of a body's box `(min, max)`, or `None` if the body is (now) oversized.
    #[inline]
    fn box_range(&self, (min, max): (DVec2, DVec2)) -> Option<Range> {
        let r = self.range(min, max);
        fits(r).then_some(r)
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
    ///
    /// With `mark_inactive` (a world with sleeping bodies) the dense cells also note
    /// which entries are inactive, and pair listing skips what only they could form
    /// ([`for_each_pair_in_rows`](Self::for_each_pair_in_rows)); without, nothing is
    /// noted (the gas pays nothing for it).
    pub(crate) fn rebuild(&mut self, bodies: &Bodies, mark_inactive: bool) {
        let n = bodies.len();
        // Each body's box, read once from the bodies for the passes below.
        self.body_boxes.clear();
        self.body_boxes
            .extend((0..n).map(|i| small_box(bodies.swept_box(i))));
        self.scratch.clear();
        // A strided sample is enough for a percentile, and keeps this O(1) per body.
        let stride = n.div_ceil(SIZE_SAMPLES).max(1);
        self.scratch
            .extend(self.body_boxes.iter().step_by(stride).map(|&b| extent(b)));
        let samples = self.scratch.len();
        let typical = if samples == 0 {
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
        let (single, limit) = (SINGLE_SPAN * typical, MAX_SPAN as f64 * typical);
        self.oversized.clear();
        self.big.clear();
        refill(&mut self.is_oversized, n, false);
        refill(&mut self.is_big, n, false);
        let mut largest: f64 = 0.0;
        for i in 0..n {
            let e = extent(self.body_boxes[i]);
            // `!(e <= limit)`: a NaN extent is oversized too.
            if e <= single {
                largest = largest.max(e);
            } else if e <= limit {
                self.is_big[i] = true;
                self.big.push(i as u32);
            } else {
                self.is_oversized[i] = true;
                self.oversized.push(i as u32);
            }
        }
        // A hair above the largest extent: two boxes that overlap have their min corners
        // in the same or neighbouring cells whatever the rounding.
        self.cell = if largest > 0.0 {
            largest * (1.0 + 1e-6)
        } else {
            typical
        };
        self.inv_cell = 1.0 / self.cell;
        refill(&mut self.registered, n, EMPTY);
        let mut bounds = (i32::MAX, i32::MAX, i32::MIN, i32::MIN);
        for i in 0..n {
            if !self.is_oversized[i] {
                let (min, max) = widen(self.body_boxes[i]);
                let r = self.range(min, max);
                self.registered[i] = r;
                if self.is_big[i] {
                    continue;
                }
                bounds = (
                    bounds.0.min(r.0),
                    bounds.1.min(r.1),
                    bounds.2.max(r.0),
                    bounds.3.max(r.1),
                );
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
            if mark_inactive {
                self.mark_inactive(bodies, w as usize * h as usize);
            } else {
                self.any_inactive = false;
            }
            for k in 0..self.big.len() {
                let i = self.big[k] as usize;
                self.add_entries(i, self.registered[i]);
            }
        } else {
            // Hashed worlds list their pairs by query: no dense cells to mark.
            self.any_inactive = false;
            for i in 0..n {
                if let Some(r) = (!self.is_oversized[i]).then_some(self.registered[i]) {
                    self.add_entries(i, r);
                }
            }
        }
    }

    /// Counting sort of the gridded bodies into the dense cells of `bounds` (which hold
    /// their boxes' min corners), with their boxes.
    fn fill_dense(&mut self, bounds: Range, cells: usize) {
        (self.gx0, self.gy0) = (bounds.0, bounds.1);
        (self.gw, self.gh) = (bounds.2 - bounds.0 + 1, bounds.3 - bounds.1 + 1);
        refill(&mut self.cell_start, cells + 1, 0);
        refill(&mut self.dense_heads, cells, NONE);
        let gw = self.gw as usize;
        let cell_of = |r: &Range| (r.1 - bounds.1) as usize * gw + (r.0 - bounds.0) as usize;
        let n = self.registered.len();
        for i in 0..n {
            if self.listed_once(i) {
                self.cell_start[cell_of(&self.registered[i])] += 1;
            }
        }
        // Running sums: `cell_start[c]` is now where cell `c` ends.
        for c in 1..cells {
            self.cell_start[c] += self.cell_start[c - 1];
        }
        let total = cells.checked_sub(1).map_or(0, |last| self.cell_start[last]);
        self.cell_start[cells] = total;
        refill(&mut self.cell_bodies, total as usize, 0);
        refill(&mut self.cell_boxes, total as usize, [0.0; 4]);
        // Filling each cell from its end, bodies in reverse order, leaves every list
        // ascending and `cell_start[c]` at the start of cell `c`: no cursor array needed.
        for i in (0..n).rev() {
            if self.listed_once(i) {
                let c = cell_of(&self.registered[i]);
                self.cell_start[c] -= 1;
                let k = self.cell_start[c] as usize;
                self.cell_bodies[k] = i as u32;
                self.cell_boxes[k] = self.body_boxes[i];
            }
        }
    }

    /// Notes which entries of the `cells` dense cells are active (`cell_active`), the
    /// running count per cell, and whether any is not.
    fn mark_inactive(&mut self, bodies: &Bodies, cells: usize) {
        let total = self.cell_bodies.len();
        refill(&mut self.cell_active, total, false);
        refill(&mut self.active_before, cells + 1, 0);
        let mut inactive = 0;
        for c in 0..cells {
            let span = self.cells_span(c, c);
            let mut count = 0;
            for k in span {
                let h = &bodies.hot[self.cell_bodies[k] as usize];
                let active = h.active();
                self.cell_active[k] = active;
                count += u32::from(active);
                inactive += usize::from(!active);
            }
            self.active_before[c + 1] = self.active_before[c] + count;
        }
        self.any_inactive = inactive > 0;
    }

    /// Active entries (see `cell_active`) in dense cells `first..=last`.
    #[inline]
    fn active_in(&self, first: usize, last: usize) -> u32 {
        self.active_before[last + 1] - self.active_before[first]
    }

    /// Whether body `i` is listed once, in the cell of its box's min corner (neither big
    /// nor oversized).
    #[inline]
    fn listed_once(&self, i: usize) -> bool {
        !self.is_oversized[i] && !self.is_big[i]
    }

    /// Adds entries for body `i` in every cell of its range: dense cells get a chain of
    /// their own, other cells go to the hash.
    fn add_entries(&mut self, i: usize, r: Range) {
        self.add_entries_outside(i, r, EMPTY);
    }

    /// Adds entries for body `i` in the cells of range `r` that are not in `listed`.
    fn add_entries_outside(&mut self, i: usize, (x0, y0, x1, y1): Range, listed: Range) {
        for cy in y0..=y1 {
            for cx in x0..=x1 {
                if holds(listed, (cx, cy)) {
                    continue;
                }
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
        let own = bodies.swept_box(i);
        self.body_boxes[i] = small_box(own);
        let old = self.registered[i];
        if let Some(r) = self.box_range(own) {
            if within(r, old) {
                return;
            }
            // Entries stay until the next rebuild. A body whose course changes back and
            // forth (a rattler between two bodies closing on it: thousands of times in a
            // step) listed again in the cells of each new range piled up entries there,
            // and every query through those cells walked them all (a step of 20,000
            // impacts of 69 bodies took 2.2 s). So its range grows to the smallest one
            // holding the old and the new, each cell listed once, and a body that would
            // need a wider one is tested against every body for the rest of the step.
            let all = hull(old, r);
            if fits(all) {
                self.registered[i] = all;
                self.add_entries_outside(i, all, old);
                return;
            }
        }
        self.is_oversized[i] = true;
        self.oversized.push(i as u32);
    }

    /// Entries of dense cells `first..=last` (contiguous in memory).
    #[inline]
    fn cells_span(&self, first: usize, last: usize) -> std::ops::Range<usize> {
        self.cell_start[first] as usize..self.cell_start[last + 1] as usize
    }

    /// Calls `found(i, j)` once for every pair of gridded bodies whose boxes overlap and
    /// whose first body lies in the dense cell rows `rows` (start of a step: no
    /// re-insertions yet). Each cell is scanned against itself and its right, lower-left,
    /// lower and lower-right neighbours, so all rows together list every pair once; pairs
    /// with big bodies come from [`for_each_big_pair`](Self::for_each_big_pair), with
    /// oversized ones from [`for_each_oversized_pair`](Self::for_each_oversized_pair).
    /// Hashed worlds list their pairs with [`query`](Self::query) and `only_greater`.
    ///
    /// Pairs of two inactive entries (static, kinematic or sleeping bodies, see
    /// `cell_active`) are not listed, and a cell with no active entry in it or in the
    /// neighbours it is scanned against is skipped: a mostly sleeping pile scans only the
    /// cells around its awake bodies. Such pairs never [interact](crate::Simulation::interacts),
    /// so the pairs kept and their order are the same.
    pub(crate) fn for_each_pair_in_rows(
        &self,
        rows: std::ops::Range<usize>,
        found: impl FnMut(usize, usize),
    ) {
        if self.any_inactive {
            self.pairs_in_rows::<true>(rows, found);
        } else {
            self.pairs_in_rows::<false>(rows, found);
        }
    }

    /// [`for_each_pair_in_rows`](Self::for_each_pair_in_rows), skipping inactive pairs
    /// if `SKIP_INACTIVE` (a world of active bodies only keeps the plain loop).
    fn pairs_in_rows<const SKIP_INACTIVE: bool>(
        &self,
        rows: std::ops::Range<usize>,
        mut found: impl FnMut(usize, usize),
    ) {
        let (w, h) = (self.gw as usize, self.gh as usize);
        for row in rows {
            for col in 0..w {
                let c = row * w + col;
                let own = self.cells_span(c, c);
                if own.is_empty() {
                    continue;
                }
                // This cell and the next one on the row are contiguous; so are the three
                // cells below.
                let row_end = (c + 1).min(row * w + w - 1);
                let same_row = self.cells_span(c, row_end);
                let below_cells = (row + 1 < h).then(|| {
                    (
                        c + w - usize::from(col > 0),
                        (c + w + 1).min(row * w + 2 * w - 1),
                    )
                });
                let below = below_cells.map_or(0..0, |(first, last)| self.cells_span(first, last));
                if SKIP_INACTIVE {
                    let near = self.active_in(c, row_end)
                        + below_cells.map_or(0, |(first, last)| self.active_in(first, last));
                    if near == 0 {
                        continue;
                    }
                }
                for k in own {
                    let a = self.cell_boxes[k];
                    let k_active = !SKIP_INACTIVE || self.cell_active[k];
                    let mut test = |l: usize| {
                        if (k_active || self.cell_active[l])
                            && small_boxes_overlap(a, self.cell_boxes[l])
                        {
                            let (p, q) = (self.cell_bodies[k], self.cell_bodies[l]);
                            found(p.min(q) as usize, p.max(q) as usize);
                        }
                    };
                    (k + 1..same_row.end).for_each(&mut test);
                    below.clone().for_each(test);
                }
            }
        }
    }

    /// Pairs of a big body (see [`SINGLE_SPAN`]) with a gridded body whose box overlaps
    /// (dense worlds, start of a step), each once: with the bodies of the dense cells,
    /// and with the big bodies of higher index.
    pub(crate) fn for_each_big_pair(&self, bodies: &Bodies, mut found: impl FnMut(usize, usize)) {
        for &b in &self.big {
            let b = b as usize;
            let own = bodies.swept_box(b);
            let small = small_box(own);
            self.scan_dense(own, |k| {
                if small_boxes_overlap(small, self.cell_boxes[k]) {
                    let j = self.cell_bodies[k] as usize;
                    found(b.min(j), b.max(j));
                }
            });
            self.scan_chains(own, |j, cell| {
                if j > b && self.reports(own, bodies.swept_box(j), cell) {
                    found(b, j);
                }
            });
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
}

mod queries;

#[cfg(test)]
mod tests;
