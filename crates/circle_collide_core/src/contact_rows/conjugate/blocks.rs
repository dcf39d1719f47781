//! The conjugate gradients preconditioned by symmetric Gauss–Seidel, on two threads.
//!
//! The sweeps take the active rows in an order that lets two threads share them and still
//! is a Gauss–Seidel order (the result is that of one thread taking the rows in turn): the
//! moving bodies are cut in two regions by their slot (slots follow the bodies' canonical
//! order, which is spatial: the regions are the jam's lower and upper part), a row whose
//! moving bodies are all in one region belongs to that region's block, and the rows
//! between the regions to the separator. The two regions' rows share no moving body, so
//! their sweeps run at once, each adding up its velocity changes in an array of its own;
//! the separator's few rows come after both (forward) or before both (backward) and read
//! and write each body in its region's array. An iteration ([`sweeps`])
//! is five groups of [`team::run_groups`]: the backward sweep (the separator, then the
//! regions), the forward sweep (the regions, then the separator), and the step (a unit
//! per region, the lower one taking the separator's rows too). Each block's work runs in
//! a fixed order and the parts of each sum are added in block order, so the results are
//! the same bits on any number of threads.
//!
//! Why (twenty-eighth session, `docs/contacts.md`): run serially, the sweeps and the
//! product with the system were a fifth of the steered jams' CPU time (the crowd of 2000
//! against a wall, the marches and walkers of 2000) while the second core waited. Each
//! region swept on its own (a block-diagonal preconditioner, no separator) cost the
//! coupling between them: the march of 2000 left the push-out 1000–1900 moves a step
//! instead of 100–700, and its steps got slower.

use super::{Block, CgRow, Changes, Conjugate, STREAMS, sweeps};
use crate::contact_rows::{Row, team};
use crate::parallel::Executor;
use glam::DVec2;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};

/// The blocks: the two regions' rows and the separator's.
const LOWER: usize = 0;
const UPPER: usize = 1;
const SEPARATOR: usize = 2;
const BLOCKS: usize = 3;

/// The groups of an iteration ([`team::run_groups`]): a unit per region, or the
/// separator's one unit.
const SEPARATOR_BACKWARD: usize = 0;
const BACKWARD: usize = 1;
const FORWARD: usize = 2;
const SEPARATOR_FORWARD: usize = 3;
const UPDATE: usize = 4;
const GROUPS: [usize; 5] = [1, 2, 2, 1, 2];

/// What each block's units leave for the gates and the other blocks, per period and
/// block: its part of `p·q` ([`PQ`]), its largest residual ([`LARGEST`]) and its part of
/// `r·z` ([`RZ`]).
struct Sums(Vec<AtomicU64>);

const PQ: usize = 0;
const LARGEST: usize = 1;
const RZ: usize = 2;

impl Sums {
    fn new(periods: usize) -> Self {
        Self(
            (0..periods * BLOCKS * 3)
                .map(|_| AtomicU64::new(0))
                .collect(),
        )
    }

    fn slot(&self, period: usize, block: usize, what: usize) -> &AtomicU64 {
        &self.0[(period * BLOCKS + block) * 3 + what]
    }

    fn set(&self, period: usize, block: usize, what: usize, value: f64) {
        self.slot(period, block, what)
            .store(value.to_bits(), Ordering::Relaxed);
    }

    fn get(&self, period: usize, block: usize, what: usize) -> f64 {
        f64::from_bits(self.slot(period, block, what).load(Ordering::Relaxed))
    }

    /// The blocks' parts of `what` in `period`, summed in block order.
    fn total(&self, period: usize, what: usize) -> f64 {
        (0..BLOCKS).map(|k| self.get(period, k, what)).sum()
    }

    /// The largest residual of `period` over the blocks.
    fn largest(&self, period: usize) -> f64 {
        (0..BLOCKS).fold(0.0, |m, k| m.max(self.get(period, k, LARGEST)))
    }
}

/// The velocity-change arrays of the two regions as the separator's rows see them: a
/// body's entry in its region's array (bodies without inverse mass keep zero in both).
struct Split<'a> {
    lower: &'a mut [DVec2],
    upper: &'a mut [DVec2],
    /// The first slot of the upper region.
    from: u32,
}

impl<'a> Split<'a> {
    /// The view of `lower` and `upper`, the upper region's slots from `from` on.
    fn of(lower: &'a mut [DVec2], upper: &'a mut [DVec2], from: u32) -> Self {
        Self { lower, upper, from }
    }

    fn get(&self, slot: u32) -> DVec2 {
        if slot < self.from {
            self.lower[slot as usize]
        } else {
            self.upper[slot as usize]
        }
    }

    fn at(&mut self, slot: u32) -> &mut DVec2 {
        if slot < self.from {
            &mut self.lower[slot as usize]
        } else {
            &mut self.upper[slot as usize]
        }
    }
}

impl Conjugate {
    /// Loads the active rows into the two regions' blocks and the separator's (see the
    /// module docs); the regions meet at the median of the rows' first moving slots.
    pub(super) fn load_blocks(&mut self, rows: &[Row]) {
        let w = &self.w;
        let moving = |slot: u32| w[slot as usize] > 0.0;
        let first_moving = |row: &Row| if moving(row.a) { row.a } else { row.b };
        let mut firsts: Vec<u32> = (self.active.iter())
            .map(|&(k, _)| first_moving(&rows[k as usize]))
            .collect();
        let from = if firsts.is_empty() {
            0
        } else {
            let middle = firsts.len() / 2;
            *firsts.select_nth_unstable(middle).1
        };
        self.from = from;
        let mut lists: [Vec<(u32, f64)>; BLOCKS] = Default::default();
        for &(k, closing) in &self.active {
            let row = &rows[k as usize];
            let region = |slot: u32| moving(slot).then_some(usize::from(slot >= from));
            let block = match (region(row.a), region(row.b)) {
                (Some(a), Some(b)) if a != b => SEPARATOR,
                (Some(r), _) | (None, Some(r)) => r,
                (None, None) => SEPARATOR,
            };
            lists[block].push((k, closing));
        }
        self.blocks.resize_with(BLOCKS, Block::default);
        for (k, (block, list)) in self.blocks.iter_mut().zip(&lists).enumerate() {
            block.load(list, rows, w.len(), STREAMS / 2);
            if k != SEPARATOR {
                block.back.resize(w.len(), DVec2::ZERO);
            }
        }
    }

    /// Runs at most `iterations` iterations preconditioned by symmetric Gauss–Seidel on
    /// the blocks of [`load_blocks`](Self::load_blocks), on `executor`'s threads
    /// ([`sweeps`]), from `x` = 0 and the closing speeds in `r`, stopping
    /// once no `|D r̂|` exceeds `tolerance` or a direction takes nothing away (or is not
    /// finite). Returns the iterations completed.
    pub(super) fn iterate_blocks(
        &mut self,
        executor: &dyn Executor,
        iterations: usize,
        tolerance: f64,
    ) -> usize {
        if self.blocks.iter().all(|b| b.rows.is_empty()) {
            return 0;
        }
        let (w, from) = (&self.w[..], self.from);
        // The slots whose velocity changes each region's arrays hold: its moving bodies
        // (the other slots stay zero but for the ±0 of bodies without inverse mass).
        let ranges = [0..from as usize, from as usize..w.len()];
        let mut parts = Vec::with_capacity(BLOCKS);
        let (mut dvs, mut backs) = (Vec::with_capacity(2), Vec::with_capacity(2));
        for (k, block) in self.blocks.iter_mut().enumerate() {
            let Block {
                rows,
                inv_d,
                d,
                v,
                dv,
                back,
                ..
            } = block;
            parts.push((&rows[..], &inv_d[..], &d[..], Mutex::new(v)));
            if k != SEPARATOR {
                // The step clears it after each iteration, but a run stopped at the step's
                // gate (a direction that took nothing away) leaves it written.
                back[ranges[k].clone()].fill(DVec2::ZERO);
                dvs.push(Mutex::new(&mut dv[..]));
                backs.push(Mutex::new(&mut back[..]));
            }
        }
        // Period 0 is the start (`r̂`, and a step of length 0 that sums it up); period
        // k ≥ 1 is iteration k.
        let sums = Sums::new(iterations + 1);
        let rz = |period: usize| sums.total(period, RZ);
        let gate = |period: usize, group: usize| match group {
            _ if period == 0 => true,
            SEPARATOR_BACKWARD => {
                let (largest, rz) = (sums.largest(period - 1), rz(period - 1));
                largest > tolerance && rz > 0.0 && rz.is_finite()
            }
            UPDATE => {
                let pq = sums.total(period, PQ);
                !(pq.is_nan() || pq <= 0.0)
            }
            _ => true,
        };
        let beta = |period: usize| {
            if period == 1 {
                0.0
            } else {
                rz(period - 1) / rz(period - 2)
            }
        };
        let work = |period: usize, group: usize, unit: usize| {
            let k = if GROUPS[group] == 1 { SEPARATOR } else { unit };
            let (rows, inv_d, d, v) = &parts[k];
            match group {
                _ if period == 0 && group < FORWARD => {}
                SEPARATOR_BACKWARD => {
                    let (mut lower, mut upper) = (lock(&backs[LOWER]), lock(&backs[UPPER]));
                    let mut back = Split::of(&mut lower, &mut upper, from);
                    sweeps::backward(rows, inv_d, &mut lock(v), &mut back, beta(period), w);
                }
                BACKWARD => {
                    let mut back = lock(&backs[k]);
                    sweeps::backward(rows, inv_d, &mut lock(v), &mut back[..], beta(period), w);
                }
                FORWARD => {
                    let mut dv = lock(&dvs[k]);
                    dv[ranges[k].clone()].fill(DVec2::ZERO);
                    let v = &mut lock(v);
                    if period == 0 {
                        sweeps::start(rows, inv_d, v, &mut dv[..], w);
                    } else {
                        let pq = sweeps::forward(rows, inv_d, d, v, &mut dv[..], w);
                        sums.set(period, k, PQ, pq);
                    }
                }
                SEPARATOR_FORWARD => {
                    let (mut lower, mut upper) = (lock(&dvs[LOWER]), lock(&dvs[UPPER]));
                    let mut dv = Split::of(&mut lower, &mut upper, from);
                    let v = &mut lock(v);
                    if period == 0 {
                        sweeps::start(rows, inv_d, v, &mut dv, w);
                    } else {
                        let pq = sweeps::forward(rows, inv_d, d, v, &mut dv, w);
                        sums.set(period, k, PQ, pq);
                    }
                }
                UPDATE => {
                    let alpha = if period == 0 {
                        0.0
                    } else {
                        rz(period - 1) / sums.total(period, PQ)
                    };
                    // The lower region's unit updates the separator's rows too.
                    let blocks: &[usize] = if k == LOWER {
                        &[LOWER, SEPARATOR]
                    } else {
                        &[k]
                    };
                    for &b in blocks {
                        let (_, _, d, v) = &parts[b];
                        let (largest, rz) = sweeps::update(d, &mut lock(v), alpha);
                        sums.set(period, b, LARGEST, largest);
                        sums.set(period, b, RZ, rz);
                    }
                    // Cleared for the next iteration's backward sweeps.
                    lock(&backs[k])[ranges[k].clone()].fill(DVec2::ZERO);
                }
                _ => {}
            }
        };
        match team::run_groups(executor, &GROUPS, iterations + 1, &gate, &work) {
            Some((period, _)) => period - 1,
            None => iterations,
        }
    }

    /// The preconditioner applied to the residual `r` (the blocks' rows in turn):
    /// `z = (D + Lᵀ)⁻¹ D (D + L)⁻¹ r`, the start's forward sweep and a backward sweep with
    /// `beta` 0 ([`sweeps`]), leaving every block's impulses as they were;
    /// one block is swept on the calling thread, three as regions and separator.
    #[cfg(test)]
    pub(super) fn precondition(&mut self, r: &[f64]) -> Vec<f64> {
        let mut start = 0;
        for block in &mut self.blocks {
            let n = block.rows.len();
            block.v.r.copy_from_slice(&r[start..start + n]);
            start += n;
        }
        if self.blocks.len() == 1 {
            self.iterate(0, 0.0);
            let w = &self.w[..];
            let Block {
                rows, inv_d, v, dv, ..
            } = &mut self.blocks[0];
            dv.fill(DVec2::ZERO);
            super::sweeps::backward(rows, inv_d, v, &mut dv[..], 0.0, w);
        } else {
            self.iterate_blocks(&crate::parallel::Serial, 0, 0.0);
            let w = &self.w[..];
            let [lower, upper, separator] = &mut self.blocks[..] else {
                unreachable!("three blocks")
            };
            let mut back = Split::of(&mut lower.back, &mut upper.back, self.from);
            let Block { rows, inv_d, v, .. } = separator;
            super::sweeps::backward(rows, inv_d, v, &mut back, 0.0, w);
            for b in [lower, upper] {
                super::sweeps::backward(&b.rows, &b.inv_d, &mut b.v, &mut b.back[..], 0.0, w);
            }
        }
        self.blocks.iter().flat_map(|b| b.v.z.clone()).collect()
    }
}

/// Locks `m` (a poisoned lock only follows a panic, which the executor passes on).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Changes for Split<'_> {
    fn closing(&self, row: CgRow) -> f64 {
        (self.get(row.b) - self.get(row.a)).dot(row.normal)
    }

    fn add(&mut self, row: CgRow, impulse: f64, w: &[f64]) {
        let push = row.normal * impulse;
        *self.at(row.a) -= push * w[row.a as usize];
        *self.at(row.b) += push * w[row.b as usize];
    }
}
