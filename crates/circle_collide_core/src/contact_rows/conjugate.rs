//! A conjugate-gradient correction of a large solve's normal impulses.
//!
//! Gauss–Seidel passes carry a push about one layer of a jam per pass: the error they
//! leave in a deep jam is smooth (the same push owed by every layer) and dies slowly.
//! Conjugate gradients take that smooth part away in a few iterations. The rows that
//! hold an impulse after the first passes are taken as the jam's active set and solved
//! as equalities (each stops closing exactly) with Jacobi-preconditioned conjugate
//! gradients; the impulses found are then clamped at zero (a contact only pushes) and
//! the Gauss–Seidel passes that follow settle the inequalities.
//!
//! An iteration is three sweeps: the rows add up the velocity change of the search
//! direction (two units: the bodies of the lower and of the upper half of the slots,
//! each unit walking the rows that touch its half, in row order), then each block of rows
//! reads how much closing speed that takes away, then each block updates its impulses and
//! residuals (independent units). A solve of [`PARALLEL_MIN_ROWS`] rows or more runs them
//! on the executor's threads ([`team::run_groups`], one call for all iterations). The
//! units of the last two sweeps are fixed blocks of [`UNIT`] rows (each behind a lock of
//! its own, so the sweeps are plain loops) and the sums of an iteration are added block by
//! block in block order; every body's velocity change is added up in row order, whichever
//! half it is in. So the result is the same, bit for bit, on any number of threads, and
//! the same as a single loop over the rows would give.
//!
//! Measured (2026-11-27, a stack of 20,781 rows, 50 iterations, six runs each, one
//! process): the single serial loop this replaced 10.0–10.7 ms; now 7.2–8.1 ms on two
//! threads and 7.6–9.0 ms on one (the blocks keep each row's values together). A first
//! version cut the rows into two parts for the first sweep, each adding into an array of
//! its own: 7.6–9.5 ms on two threads and 10.5–11.9 on one (the second array cost the
//! next sweep a second read per body, more than the parallel sweep gained). The first
//! sweep in halves of the slots (twelfth session; the stack's 19,161 rows, the last
//! version and this one alternated in one process, 41 runs each, medians of five such
//! runs): two threads 5.9 / 6.4 / 9.7 / 10.9 / 5.2 ms against 7.2 / 7.3 / 14.1 / 16.7 /
//! 5.6 (the machine's speed changed between runs, not within one), one thread 1–4 %
//! slower (the next sweep now stores the directions). The loops are kept out of line:
//! inlined into the team's closure, the second sweep's sum lived on the stack (one
//! thread 40 % slower).
//!
//! The lower half's walk (sixteenth session): in a pile the rows touching the lower
//! half's bodies run almost to the end of the rows (a few late rows meet early bodies),
//! so the lower half walked nearly every row — twice the upper half's work — checking
//! each row's bodies from the middle on. It now walks its own rows, then only the listed
//! *strays* (the 10k pile: ~550 of the ~12,300 later rows). Same sums in the same order;
//! through the plugin (alternated runner pairs, 2 threads) the 10k pile 22.6 → 21.5 ms
//! a step (3 of 3), the crowd of 2000 against a wall 3.79 → 3.59 (4 of 4).
//!
//! A consistent system (seventeenth session): the equalities ask every active row to stop
//! closing, a kept gap contact (`SolverContact::allowed`) included — not to close by
//! exactly its allowance. A jam has more active rows than its bodies have degrees of
//! freedom (the crowd of 2000 against a wall: ~4900 rows on 4000), so the closing speeds
//! that velocities can give are a subspace, and a right-hand side with the allowances in
//! it lies outside it: no impulses solve that system. The iterations then stalled (`r·z`
//! still 30–100 % of its start after 50) and, given more, diverged (10⁵ × its start after
//! 350, in the wall crowd). Without the allowances the system is consistent and the same
//! iterations converge (`r·z` 0.1–3 % of its start after 55, 10⁻⁴ after 250 — a jam is
//! ill-conditioned, so 50 still do not reach the tolerance); the passes that follow let
//! each gap close by its allowance (`gap_row_allows_its_closing_speed`,
//! `gaps_in_a_redundant_lattice_do_not_stall_the_iterations`). The crowds' trajectories
//! change, their cost does not: core, `crowd_steps` 600 steps, late-half medians over
//! trajectories `NUDGE=1…k`, builds alternated, 2 threads — against a wall 2000 (8
//! trajectories) 3.16 → 3.13 ms, 5000 (4) 6.19 → 5.60; centre 3000 (6) 3.34 → 3.54,
//! 10,000 (3) 14.7 → 13.7; no step left overlaps. (On the unnudged trajectory alone the
//! first three looked 10–27 % faster: one trajectory is not a measurement.)

use super::{ContactRows, team};
use crate::parallel::{Executor, Serial};
use glam::DVec2;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard};

#[cfg(test)]
mod tests;

/// Solves with at least this many active rows iterate on the executor's threads; smaller
/// ones on the caller's (the same bits either way). Below it an iteration costs about what
/// handing work to another thread does; from it, a crowd of 2000 pressed against a wall
/// (triggered solves of ~4400 rows) ran 5–9 % faster a step through the plugin (twelfth
/// session, `docs/contacts.md`).
pub(super) const PARALLEL_MIN_ROWS: usize = 2048;

/// Rows per block (the unit of work of the sweeps over rows).
const UNIT: usize = 1024;

/// An active row as the iterations see it (24 bytes: the sweeps stream these; the
/// inverse masses and the block's vectors live in arrays of their own).
#[derive(Clone, Copy, Debug)]
struct CgRow {
    a: u32,
    b: u32,
    normal: DVec2,
}

/// A block of active rows and their vectors.
#[derive(Debug, Default)]
struct Block {
    rows: Vec<CgRow>,
    /// Per row: `1 / (w_a + w_b)` (the Jacobi preconditioner), impulse found, residual
    /// closing speed, preconditioned residual (within an iteration, for a while, the
    /// closing speed the search direction takes away), search direction.
    inv_w: Vec<f64>,
    x: Vec<f64>,
    r: Vec<f64>,
    z: Vec<f64>,
    p: Vec<f64>,
}

/// The conjugate gradients' scratch, kept between steps for its allocations.
#[derive(Debug, Default)]
pub(crate) struct Conjugate {
    /// The active rows in blocks of [`UNIT`], and their indices among the solver's rows.
    blocks: Vec<RwLock<Block>>,
    index: Vec<u32>,
    /// Inverse mass per slot.
    w: Vec<f64>,
    /// Velocity change per slot of the search direction's impulses: with the first
    /// sweep in two halves, the slots below `mid` in the first array and the others in
    /// the second (at their own index; its first `mid` entries are not read); in one,
    /// the first array is empty. Slot 0 (walls, no inverse mass) reads zero.
    dv: [RwLock<Vec<DVec2>>; 2],
    /// Whether the first sweep runs in two halves (on two threads or more); the next
    /// three fields are set (by `split`) only then.
    halves: bool,
    /// The first slot of the upper half.
    mid: usize,
    /// The first active row touching the upper half, and the end of the rows touching
    /// the lower half (slot 0 aside): the rows before the first touch only the lower
    /// half, the rows after the end only the upper one.
    upper_start: usize,
    lower_end: usize,
    /// The rows from the first touching the upper half on that also touch the lower one,
    /// in order: the lower half's walk after its own rows (in a pile, the last of them is
    /// near the end, but they are only about one in twenty of those rows).
    strays: Vec<u32>,
    /// Per iteration and block: the block's share of `p·Ap`, of the next `r·z`, and its
    /// largest residual.
    pq: Vec<AtomicU64>,
    next: Vec<AtomicU64>,
    largest: Vec<AtomicU64>,
}

impl Clone for Conjugate {
    /// Scratch only: a clone starts empty.
    fn clone(&self) -> Self {
        Self::default()
    }
}

#[inline(always)]
fn get(a: &AtomicU64) -> f64 {
    f64::from_bits(a.load(Ordering::Relaxed))
}

#[inline(always)]
fn set(a: &AtomicU64, v: f64) {
    a.store(v.to_bits(), Ordering::Relaxed);
}

/// Locks `m` to read, whether or not a panic poisoned it.
fn read<T>(m: &RwLock<T>) -> RwLockReadGuard<'_, T> {
    m.read().unwrap_or_else(PoisonError::into_inner)
}

/// Locks `m` to write, whether or not a panic poisoned it.
fn write<T>(m: &RwLock<T>) -> RwLockWriteGuard<'_, T> {
    m.write().unwrap_or_else(PoisonError::into_inner)
}

impl ContactRows {
    /// At most `iterations` conjugate-gradient iterations over the rows with a positive
    /// impulse (or closing now, a kept gap's allowance not counted), solved as equalities
    /// (none closes), stopping once none closes faster than `tolerance`; then the
    /// impulses found are applied, each row's total clamped at zero. Returns the
    /// iterations run.
    pub(crate) fn conjugate_gradient(&mut self, iterations: u32, tolerance: f64) -> u32 {
        let mut cg = std::mem::take(&mut self.conjugate);
        cg.index.clear();
        let (mut rz, mut largest) = (0.0, 0.0f64);
        let mut used = 0;
        for (k, row) in self.rows.iter().enumerate() {
            // Every kept gap taken as closed (see the module docs, "A consistent system").
            let closing = self.closing(row) + row.allowed;
            if row.inv_w > 0.0 && (row.acc > 0.0 || closing > 0.0) {
                if cg.index.len().is_multiple_of(UNIT) {
                    cg.start_block(used);
                    used += 1;
                }
                let b = cg.blocks[used - 1]
                    .get_mut()
                    .unwrap_or_else(PoisonError::into_inner);
                let z = closing * row.inv_w;
                b.push(
                    CgRow {
                        a: row.a,
                        b: row.b,
                        normal: row.normal,
                    },
                    row.inv_w,
                    closing,
                    z,
                );
                rz += closing * z;
                largest = largest.max(closing.abs());
                cg.index.push(k as u32);
            }
        }
        cg.blocks.truncate(used);
        cg.w.clear();
        cg.w.extend(self.bodies.iter().map(|b| b.inv_mass));
        let executor: std::sync::Arc<dyn Executor> = if cg.index.len() >= PARALLEL_MIN_ROWS {
            self.executor.executor.clone()
        } else {
            std::sync::Arc::new(Serial)
        };
        cg.halves = executor.threads() > 1;
        if cg.halves {
            cg.split();
        }
        let done = cg.iterate(&*executor, iterations as usize, tolerance, rz, largest);
        let mut k = cg.index.iter();
        for block in &mut cg.blocks {
            let block = block.get_mut().unwrap_or_else(PoisonError::into_inner);
            for (&x, &k) in block.x.iter().zip(&mut k) {
                let acc = self.rows[k as usize].acc;
                self.apply_normal(k as usize, (acc + x).max(0.0) - acc);
            }
        }
        self.conjugate = cg;
        done as u32
    }
}

impl Conjugate {
    /// Makes block `k` the next to fill, empty (a new block if there are only `k`).
    fn start_block(&mut self, k: usize) {
        if k == self.blocks.len() {
            self.blocks.push(RwLock::default());
        }
        let b = self.blocks[k]
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner);
        b.rows.clear();
        for v in [&mut b.inv_w, &mut b.x, &mut b.r, &mut b.z, &mut b.p] {
            v.clear();
        }
    }

    /// Splits the slots into the halves of the first sweep: the upper half starts after
    /// the last slot the first half of the active rows touches (slots are numbered as
    /// the rows first meet their bodies, so the rows touching the upper half mostly
    /// follow those touching the lower), and finds the span of rows each half walks.
    fn split(&mut self) {
        let n = self.index.len();
        let (half, slots) = (n.div_ceil(2), self.w.len().max(1));
        let mut rows: Vec<&[CgRow]> = (self.blocks.iter_mut())
            .map(|b| &b.get_mut().unwrap_or_else(PoisonError::into_inner).rows[..])
            .collect();
        let mut mid = 1;
        for r in rows.iter().flat_map(|b| b.iter()).take(half) {
            mid = mid.max(1 + r.a.max(r.b) as usize);
        }
        let mid = mid.min(slots);
        let (mut lower_end, mut upper_start) = (0, n);
        self.strays.clear();
        for (k, r) in rows.drain(..).flat_map(|b| b.iter()).enumerate() {
            let (a, b) = (r.a as usize, r.b as usize);
            if upper_start == n && a.max(b) >= mid {
                upper_start = k;
            }
            if (1..mid).contains(&a) || (1..mid).contains(&b) {
                lower_end = k + 1;
                if upper_start < n {
                    self.strays.push(k as u32);
                }
            }
        }
        (self.mid, self.upper_start, self.lower_end) = (mid, upper_start, lower_end);
    }

    /// Runs at most `periods` iterations from `r·z` = `rz` and the largest residual
    /// `largest`, stopping once no residual exceeds `tolerance` or a direction takes
    /// nothing away (or is not finite). Returns the iterations completed.
    fn iterate(
        &mut self,
        executor: &dyn Executor,
        periods: usize,
        tolerance: f64,
        rz: f64,
        largest: f64,
    ) -> usize {
        let blocks = self.blocks.len();
        if blocks == 0 {
            return 0;
        }
        for v in [&mut self.pq, &mut self.next, &mut self.largest] {
            v.clear();
            v.resize_with(periods * blocks, || AtomicU64::new(0));
        }
        let slots = self.w.len();
        let lower = if self.halves { self.mid } else { 0 };
        for (dv, len) in self.dv.iter_mut().zip([lower, slots]) {
            let dv = dv.get_mut().unwrap_or_else(PoisonError::into_inner);
            dv.clear();
            dv.resize(len, DVec2::ZERO);
        }
        let this = &*self;
        // `r·z` and the largest residual at the start of iteration `k`.
        let rz_at = |k: usize| {
            if k == 0 {
                rz
            } else {
                let part = &this.next[(k - 1) * blocks..k * blocks];
                part.iter().map(get).sum()
            }
        };
        let largest_at = |k: usize| {
            if k == 0 {
                largest
            } else {
                let part = &this.largest[(k - 1) * blocks..k * blocks];
                part.iter().map(get).fold(0.0, f64::max)
            }
        };
        let pq_at = |k: usize| this.pq[k * blocks..(k + 1) * blocks].iter().map(get).sum();
        let beta_at = |k: usize| if k == 0 { 0.0 } else { rz_at(k) / rz_at(k - 1) };
        let gate = |k: usize, sweep: usize| match sweep {
            0 => largest_at(k) > tolerance && rz_at(k) > 0.0,
            // A direction that takes nothing away (or a non-finite one): stop here.
            2 => {
                let (pq, rz): (f64, f64) = (pq_at(k), rz_at(k));
                !(pq.is_nan() || pq <= 0.0 || !rz.is_finite())
            }
            _ => true,
        };
        let work = |k: usize, sweep: usize, unit: usize| match sweep {
            0 => this.scatter(unit, beta_at(k)),
            1 => set(
                &this.pq[k * blocks + unit],
                this.take_away(unit, beta_at(k)),
            ),
            _ => {
                let (next, largest) = this.update(unit, rz_at(k) / pq_at(k));
                set(&this.next[k * blocks + unit], next);
                set(&this.largest[k * blocks + unit], largest);
            }
        };
        let groups = [if self.halves { 2 } else { 1 }, blocks, blocks];
        match team::run_groups(executor, &groups, periods, &gate, &work) {
            None => periods,
            Some((k, _)) => k,
        }
    }

    /// Sweep 1, over every row (or the rows touching half `half` of the slots): adds
    /// up the velocity change of each row's search direction `z + beta p` on its bodies
    /// (of that half), walking the rows in order (the next sweep stores the directions).
    #[inline(never)]
    fn scatter(&self, half: usize, beta: f64) {
        let n = self.index.len();
        let (lower, mid) = (half == 0, self.mid);
        let mut dv = write(&self.dv[usize::from(!self.halves || !lower)]);
        let slots = dv.len();
        let (dv, w) = (&mut dv[..], &self.w[..slots]);
        // The upper half's array holds the lower slots unused.
        let first = if self.halves && !lower { mid } else { 0 };
        dv[first..].fill(DVec2::ZERO);
        // The rows in order; only those that may touch both halves need a look at which
        // of their bodies to add to.
        let side = (mid, lower);
        if !self.halves {
            self.add_rows::<false>(0..n, beta, dv, w, side);
        } else if lower {
            // Its own rows, then the strays among the others'.
            let own = self.upper_start.min(self.lower_end);
            self.add_rows::<false>(0..own, beta, dv, w, side);
            self.add_strays(beta, dv, w, mid);
        } else {
            let end = self.lower_end.max(self.upper_start);
            self.add_rows::<true>(self.upper_start..end, beta, dv, w, side);
            self.add_rows::<false>(end..n, beta, dv, w, side);
        }
        // Walls add nothing but zeros of either sign: every way of splitting reads +0.
        if let Some(wall) = dv.first_mut() {
            *wall = DVec2::ZERO;
        }
    }

    /// Adds the velocity change of the search direction `z + beta p` of the active rows
    /// `range`, in order, to `dv` (inverse masses `w`); with `SHARED`, only to the bodies
    /// of the lower half (below `half.0`) if `half.1`, else of the upper one.
    #[inline(always)]
    fn add_rows<const SHARED: bool>(
        &self,
        range: std::ops::Range<usize>,
        beta: f64,
        dv: &mut [DVec2],
        w: &[f64],
        (mid, lower): (usize, bool),
    ) {
        if range.is_empty() {
            return;
        }
        for u in range.start / UNIT..range.end.div_ceil(UNIT) {
            let block = &*read(&self.blocks[u]);
            let first = u * UNIT;
            let from = range.start.max(first) - first;
            let to = range.end.min(first + block.rows.len()) - first;
            let (rows, z, p) = (
                &block.rows[from..to],
                &block.z[from..to],
                &block.p[from..to],
            );
            for s in 0..rows.len() {
                add_row::<SHARED>(rows[s], z[s] + beta * p[s], dv, w, (mid, lower));
            }
        }
    }

    /// Adds the velocity change of the search direction `z + beta p` of the rows in
    /// `strays`, in order, to the bodies of the lower half (below `mid`).
    #[inline(never)]
    fn add_strays(&self, beta: f64, dv: &mut [DVec2], w: &[f64], mid: usize) {
        let mut k = 0;
        while k < self.strays.len() {
            let u = self.strays[k] as usize / UNIT;
            let block = &*read(&self.blocks[u]);
            while let Some(&row) = self.strays.get(k)
                && row as usize / UNIT == u
            {
                let s = row as usize - u * UNIT;
                let direction = block.z[s] + beta * block.p[s];
                add_row::<true>(block.rows[s], direction, dv, w, (mid, true));
                k += 1;
            }
        }
    }

    /// Sweep 2, over the rows of block `unit`: stores each row's new search direction
    /// `z + beta p` and the closing speed it takes away (`A p`, kept in `z` meanwhile);
    /// returns the block's share of `p·Ap`.
    fn take_away(&self, unit: usize, beta: f64) -> f64 {
        let (lo, hi) = (read(&self.dv[0]), read(&self.dv[1]));
        write(&self.blocks[unit]).take_away(&lo, &hi, beta)
    }

    /// Sweep 3, over the rows of block `unit`: the step `alpha` along the search
    /// direction; returns the block's share of the next `r·z` and its largest residual.
    #[inline(never)]
    fn update(&self, unit: usize, alpha: f64) -> (f64, f64) {
        let block = &mut *write(&self.blocks[unit]);
        let len = block.rows.len();
        let Block {
            inv_w, x, r, z, p, ..
        } = block;
        let (x, r, z, p, inv_w) = (
            &mut x[..len],
            &mut r[..len],
            &mut z[..len],
            &p[..len],
            &inv_w[..len],
        );
        let (mut next, mut largest) = (0.0, 0.0f64);
        for s in 0..len {
            x[s] += alpha * p[s];
            let rs = r[s] - alpha * z[s];
            r[s] = rs;
            let zs = rs * inv_w[s];
            z[s] = zs;
            next += rs * zs;
            largest = largest.max(rs.abs());
        }
        (next, largest)
    }
}

/// Adds the velocity change of an impulse `direction` along `row` to its bodies in `dv`
/// (inverse masses `w`); with `SHARED`, only to those of the lower half (below `mid`) if
/// `lower`, else of the upper one.
#[inline(always)]
fn add_row<const SHARED: bool>(
    row: CgRow,
    direction: f64,
    dv: &mut [DVec2],
    w: &[f64],
    (mid, lower): (usize, bool),
) {
    let push = row.normal * direction;
    let (a, b) = (row.a as usize, row.b as usize);
    if !SHARED || (a < mid) == lower {
        dv[a] -= push * w[a];
    }
    if !SHARED || (b < mid) == lower {
        dv[b] += push * w[b];
    }
}

impl Block {
    /// Adds an active row with its preconditioner, residual and preconditioned residual
    /// (no impulse yet, no search direction).
    fn push(&mut self, row: CgRow, inv_w: f64, r: f64, z: f64) {
        self.rows.push(row);
        self.inv_w.push(inv_w);
        self.x.push(0.0);
        self.r.push(r);
        self.z.push(z);
        self.p.push(0.0);
    }

    /// [`Conjugate::take_away`] on this block, with each slot's velocity change in `lo`
    /// (the slots below `lo.len()`) or `hi`.
    #[inline(never)]
    fn take_away(&mut self, lo: &[DVec2], hi: &[DVec2], beta: f64) -> f64 {
        if lo.is_empty() {
            self.take_away_with(beta, |s| hi[s as usize])
        } else {
            let mid = lo.len() as u32;
            self.take_away_with(beta, |s| {
                if s < mid {
                    lo[s as usize]
                } else {
                    hi[s as usize]
                }
            })
        }
    }

    /// [`Block::take_away`] with the velocity change of slot `s` given by `dv(s)`.
    #[inline(always)]
    fn take_away_with(&mut self, beta: f64, dv: impl Fn(u32) -> DVec2) -> f64 {
        let len = self.rows.len();
        let (rows, z, p) = (&self.rows[..len], &mut self.z[..len], &mut self.p[..len]);
        let mut pq = 0.0;
        for s in 0..len {
            let row = rows[s];
            let ps = z[s] + beta * p[s];
            p[s] = ps;
            let q = (dv(row.b) - dv(row.a)).dot(row.normal);
            z[s] = q;
            pq += ps * q;
        }
        pq
    }
}
