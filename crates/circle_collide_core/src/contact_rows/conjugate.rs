//! A conjugate-gradient correction of a large solve's normal impulses.
//!
//! Gauss–Seidel passes carry a push about one layer of a jam per pass: the error they
//! leave in a deep jam is smooth (the same push owed by every layer) and dies slowly.
//! Conjugate gradients take that smooth part away in a few iterations. The rows that
//! hold an impulse after the first passes are taken as the jam's active set and solved
//! as equalities (each stops closing exactly) with preconditioned conjugate gradients;
//! the impulses found are then clamped at zero (a contact only pushes) and the
//! Gauss–Seidel passes that follow settle the inequalities.
//!
//! Two preconditioners ([`Preconditioner`]; `contacts` picks by the solve's size,
//! `GAUSS_SEIDEL_CONTACTS`): symmetric Gauss–Seidel (a forward and a backward sweep from
//! zero impulses on the residual) for solves of 2000 contacts or more, Jacobi's (each
//! row's residual scaled by its diagonal) for smaller ones. With Jacobi's an iteration is
//! the search direction's velocity change added up on the bodies and read back as the
//! closing speed it takes away, then the step on impulses and residuals with the
//! scaling, on the calling thread. With symmetric Gauss–Seidel it is a backward and a
//! forward sweep and the step, in Eisenstat's form ([`sweeps`]: the same iterates, no
//! product with the system; since the thirty-second session); its rows are taken in the
//! order of [`STREAMS`] on the calling thread for piles under gravity, or on the
//! executor's threads in an order that is still one Gauss–Seidel order (two regions of
//! the jam at once, then the rows between them: [`blocks`]). Either way the result does
//! not depend on the number of threads.
//!
//! Why (twenty-seventh session, `docs/contacts.md`): with Jacobi's alone a jam of L layers
//! needed about L iterations (the walkers and marches of 2000 all 70 of theirs), and the
//! correction ran on two threads in blocks of rows. Symmetric Gauss–Seidel crosses a jam
//! in far fewer (20 left the walkers of 2000 fewer moves to the push-out than Jacobi's 70)
//! at 1.6–2× the cost of one of Jacobi's with the rows taken in [`STREAMS`] runs. But it
//! solves a small jam's equalities nearly exactly, and the clamp then throws away their
//! pulling impulses: the steered hordes of 500 were left stirred (kinetic energy at the
//! end up to 67 over twelve draws, Jacobi's up to 3.3), hence Jacobi's below 2000
//! contacts. Measured (core, two threads, draws `NUDGE=0…3`, against Jacobi's for all):
//! the march of 2000 means 3.82 / 3.68 / 3.69 / 4.02 → 3.11 / 3.38 / 3.08 / 3.13 ms a step
//! (push-out moves 4816 / 3315 / 3285 / 4983 → 165 / 710 / 96 / 141), the walkers of 2000,
//! the crowds of 2000 (at the centre and against a wall) and of 10,000 level (the last
//! with a quarter to a half of the push-out's moves), the pile of 10,000 awake over 3 s
//! 25.2 → 27.3 ms (mean of four chaotic draws; its landing 388 → 369 ms).
//!
//! A consistent system (seventeenth session): the equalities ask every active row to stop
//! closing, a kept gap contact (`SolverContact::allowed`) included — not to close by
//! exactly its allowance. A jam has more active rows than its bodies have degrees of
//! freedom (the crowd of 2000 against a wall: ~4900 rows on 4000), so the closing speeds
//! that velocities can give are a subspace, and a right-hand side with the allowances in
//! it lies outside it: no impulses solve that system, and the iterations stalled and then
//! diverged. Without the allowances the system is consistent and they converge; the
//! passes that follow let each gap close by its allowance
//! (`gap_row_allows_its_closing_speed`,
//! `gaps_in_a_redundant_lattice_do_not_stall_the_iterations`).
//!
//! So too a moving kinematic body (forty-fourth session): its velocity is no impulse's to
//! change, and the closing speed it gives a row lies outside that subspace as well. A row
//! of bodies pressed between a kinematic paddle and a wall asks two nearly opposite rows
//! per body to stop closing at once: the iterations grew both impulses without bound, and
//! their small difference flung bodies at hundreds of times the paddle's speed (a pile of
//! 777 with walkers and two paddles: speeds 10 → 1800 units/s in one solve, then steps
//! at the impact cap with bodies at millions of units/s, 1.5 s each). The equalities take
//! every kinematic body as still; the passes that follow give its push
//! (`a_paddle_squeezing_a_row_into_a_wall_does_not_fling_it`).

use super::ContactRows;
use glam::DVec2;

mod blocks;
mod sweeps;
#[cfg(test)]
mod tests;

/// An active row as the sweeps see it (24 bytes; its vectors live in arrays of their own).
#[derive(Clone, Copy, Debug)]
struct CgRow {
    a: u32,
    b: u32,
    normal: DVec2,
}

/// The conjugate gradients' scratch, kept between steps for its allocations.
#[derive(Debug, Default)]
pub(crate) struct Conjugate {
    /// The active rows in blocks: one for Jacobi's preconditioner; for symmetric
    /// Gauss–Seidel's the rows of two regions and of the separator between them
    /// ([`blocks`]).
    blocks: Vec<Block>,
    /// Inverse mass per slot (slot 0, walls: none).
    w: Vec<f64>,
    /// The active rows in the solver's order, with their closing speeds.
    active: Vec<(u32, f64)>,
    /// The first slot of the upper region ([`blocks`]).
    from: u32,
    preconditioner: Preconditioner,
}

impl Conjugate {
    /// Bytes of heap this scratch holds (capacities).
    pub(super) fn heap_bytes(&self) -> usize {
        use crate::simulation::capacity_bytes as cap;
        let blocks: usize = (self.blocks.iter())
            .map(|b| {
                let v = &b.v;
                cap(&b.rows)
                    + cap(&b.index)
                    + cap(&b.inv_d)
                    + cap(&b.d)
                    + cap(&v.x)
                    + cap(&v.r)
                    + cap(&v.z)
                    + cap(&v.p)
                    + cap(&v.q)
                    + cap(&b.dv)
                    + cap(&b.back)
            })
            .sum();
        cap(&self.blocks) + blocks + cap(&self.w) + cap(&self.active)
    }
}

/// A block of active rows, in the order of the sweeps ([`STREAMS`]), with its vectors.
#[derive(Debug, Default)]
struct Block {
    rows: Vec<CgRow>,
    /// Each row's index among the solver's rows.
    index: Vec<u32>,
    /// `1 / (w_a + w_b)` per row: the inverse of the system's diagonal.
    inv_d: Vec<f64>,
    /// `w_a + w_b` per row: the system's diagonal (symmetric Gauss–Seidel's inner
    /// products, [`sweeps`]).
    d: Vec<f64>,
    v: Vectors,
    /// Velocity change per slot of the impulses a sweep of this block has added up so far.
    dv: Vec<DVec2>,
    /// The same for the backward sweeps of a region ([`blocks`]; empty otherwise).
    back: Vec<DVec2>,
}

/// A block's vectors, one entry per row: impulse found, residual closing speed,
/// preconditioned residual, search direction and the closing speed the search direction
/// takes away (with Jacobi's preconditioner; symmetric Gauss–Seidel's keep the residual
/// and direction scaled and `t` in `z`: [`sweeps`]).
#[derive(Debug, Default)]
struct Vectors {
    x: Vec<f64>,
    r: Vec<f64>,
    z: Vec<f64>,
    p: Vec<f64>,
    q: Vec<f64>,
}

/// How the conjugate gradients precondition their residual (`contacts` picks by the
/// solve's size: `GAUSS_SEIDEL_CONTACTS`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Preconditioner {
    /// Each row's residual scaled by the inverse of its diagonal.
    #[default]
    Jacobi,
    /// A forward and a backward Gauss–Seidel sweep from zero impulses, on the calling
    /// thread, the rows in [`STREAMS`] runs.
    GaussSeidel,
    /// The same sweeps in another Gauss–Seidel order: the rows of two regions of the jam
    /// at once on the executor's threads, then those between them ([`blocks`]). For jams
    /// without gravity and steered jams (`contacts` picks); piles under gravity keep
    /// [`GaussSeidel`](Self::GaussSeidel): in this order the pile of 10,000 fell asleep
    /// later (core, draws 0–7: 5 of 7 later, mean 7.48 → 7.97 s; piles of 6000, 8000 and
    /// 12,000 6.68 / 6.30 / 7.57 → 6.93 / 7.10 / 8.02 s), and with two or eight runs per
    /// region instead of four it stayed awake, boiling, in 7 of 8 draws.
    GaussSeidelRegions,
}

/// The sweeps' order: a block's active rows (in the solver's order) are cut into this
/// many runs of consecutive rows, and the sweeps take one row of each run in turn. Any
/// order is a Gauss–Seidel order; within a run neighbours follow each other as in the
/// solver's order, and rows taken one after the other (from different runs, far apart in
/// space) rarely share a body, so a sweep's rows do not wait for each other's velocity
/// changes. In the solver's order (one run) the sweeps waited on them: the
/// preconditioner cost 2.2× as much (walkers of 2000, CPU samples); eight runs cost 12 %
/// less than four.
const STREAMS: usize = 8;

impl Clone for Conjugate {
    /// Scratch only: a clone starts empty.
    fn clone(&self) -> Self {
        Self::default()
    }
}

impl ContactRows {
    /// At most `iterations` conjugate-gradient iterations over the rows with a positive
    /// impulse (or closing now, a kept gap's allowance and a kinematic body's velocity not
    /// counted), solved as equalities (none closes), stopping once none closes faster
    /// than `tolerance` (with symmetric Gauss–Seidel: once none would after the rows before
    /// it in a sweep, [`sweeps`]); then the impulses found are applied, each row's total
    /// clamped at zero. Returns the iterations run.
    pub(crate) fn conjugate_gradient(
        &mut self,
        iterations: u32,
        tolerance: f64,
        preconditioner: Preconditioner,
    ) -> u32 {
        let mut cg = std::mem::take(&mut self.conjugate);
        cg.clear();
        cg.preconditioner = preconditioner;
        // Every kept gap taken as closed, every kinematic body as still (see the module
        // docs, "A consistent system").
        let kinematic = |slot: u32| {
            let b = &self.bodies[slot as usize];
            b.inv_mass == 0.0 && b.vel != DVec2::ZERO
        };
        let moved = |slot: u32| {
            let b = &self.bodies[slot as usize];
            if b.inv_mass > 0.0 { b.vel } else { DVec2::ZERO }
        };
        for (k, row) in self.rows.iter().enumerate() {
            let closing = if kinematic(row.a) || kinematic(row.b) {
                (moved(row.a) - moved(row.b)).dot(row.normal)
            } else {
                self.closing(row) + row.allowed
            };
            if row.inv_w > 0.0 && (row.acc > 0.0 || closing > 0.0) {
                cg.active.push((k as u32, closing));
            }
        }
        cg.w.extend(self.bodies.iter().map(|b| b.inv_mass));
        let slots = cg.w.len();
        let done = match preconditioner {
            Preconditioner::Jacobi | Preconditioner::GaussSeidel => {
                cg.blocks.resize_with(1, Block::default);
                cg.blocks[0].load(&cg.active, &self.rows, slots, STREAMS);
                cg.iterate(iterations as usize, tolerance)
            }
            Preconditioner::GaussSeidelRegions => {
                cg.load_blocks(&self.rows);
                let executor = self.executor.executor.clone();
                cg.iterate_blocks(&*executor, iterations as usize, tolerance)
            }
        };
        for block in &cg.blocks {
            for (&x, &k) in block.v.x.iter().zip(&block.index) {
                let acc = self.rows[k as usize].acc;
                self.apply_normal(k as usize, (acc + x).max(0.0) - acc);
            }
        }
        self.conjugate = cg;
        done as u32
    }
}

impl Conjugate {
    /// Empties every array (keeping the allocations).
    fn clear(&mut self) {
        self.active.clear();
        self.w.clear();
        for block in &mut self.blocks {
            block.clear();
        }
    }

    /// Runs at most `iterations` iterations on one block, on the calling thread,
    /// preconditioned by Jacobi's (here) or by symmetric Gauss–Seidel
    /// ([`Block::iterate_gauss_seidel`]), from `x` = 0 and the residual in `r`, stopping
    /// once no residual exceeds `tolerance` or a direction takes nothing away (or is not
    /// finite). Returns the iterations completed.
    fn iterate(&mut self, iterations: usize, tolerance: f64) -> usize {
        let (block, w) = (&mut self.blocks[0], &self.w[..]);
        if block.rows.is_empty() {
            return 0;
        }
        if self.preconditioner != Preconditioner::Jacobi {
            return block.iterate_gauss_seidel(w, iterations, tolerance);
        }
        // x = 0, p = q = 0: the first step moves nothing.
        let (mut largest, mut rz) = block.step_and_scale(0.0);
        let mut beta = 0.0;
        for done in 0..iterations {
            if !(largest > tolerance && rz > 0.0 && rz.is_finite()) {
                return done;
            }
            block.dv.fill(DVec2::ZERO);
            Block::direction(&block.rows, &mut block.v, &mut block.dv[..], beta, w);
            let pq = Block::read_back(&block.rows, &mut block.v, &block.dv[..]);
            if pq.is_nan() || pq <= 0.0 {
                return done;
            }
            let next;
            (largest, next) = block.step_and_scale(rz / pq);
            beta = next / rz;
            rz = next;
        }
        iterations
    }
}

impl Block {
    /// Empties every array (keeping the allocations).
    fn clear(&mut self) {
        self.rows.clear();
        self.index.clear();
        self.inv_d.clear();
        self.d.clear();
        self.dv.clear();
        self.back.clear();
        let v = &mut self.v;
        for v in [&mut v.x, &mut v.r, &mut v.z, &mut v.p, &mut v.q] {
            v.clear();
        }
    }

    /// Takes the `active` rows (solver's index, closing speed) of `rows` in the order of
    /// the sweeps (cut into `streams` runs taken in turn: [`STREAMS`]), their residuals
    /// the closing speeds, the other vectors zero; `slots` velocity changes.
    fn load(&mut self, active: &[(u32, f64)], rows: &[super::Row], slots: usize, streams: usize) {
        let n = active.len();
        let m = n.div_ceil(streams);
        for q in 0..m {
            for s in 0..streams {
                let Some(&(k, closing)) = active.get(s * m + q) else {
                    continue;
                };
                let row = &rows[k as usize];
                self.rows.push(CgRow {
                    a: row.a,
                    b: row.b,
                    normal: row.normal,
                });
                self.inv_d.push(row.inv_w);
                self.d.push(1.0 / row.inv_w);
                self.v.r.push(closing);
                self.index.push(k);
            }
        }
        let v = &mut self.v;
        for v in [&mut v.x, &mut v.z, &mut v.p, &mut v.q] {
            v.resize(n, 0.0);
        }
        self.dv.resize(slots, DVec2::ZERO);
    }

    /// Runs at most `iterations` iterations preconditioned by symmetric Gauss–Seidel on
    /// this block, on the calling thread ([`sweeps`]), from `x` = 0 and the closing speeds
    /// in `r`, stopping once no `|D r̂|` exceeds `tolerance` or a direction takes nothing
    /// away (or is not finite); inverse masses `w`. Returns the iterations completed.
    fn iterate_gauss_seidel(&mut self, w: &[f64], iterations: usize, tolerance: f64) -> usize {
        let Block {
            rows,
            inv_d,
            d,
            v,
            dv,
            ..
        } = self;
        dv.fill(DVec2::ZERO);
        sweeps::start(rows, inv_d, v, &mut dv[..], w);
        // x = 0, q = 0: the first update moves nothing.
        let (mut largest, mut rz) = sweeps::update(d, v, 0.0);
        let mut beta = 0.0;
        for done in 0..iterations {
            if !(largest > tolerance && rz > 0.0 && rz.is_finite()) {
                return done;
            }
            dv.fill(DVec2::ZERO);
            sweeps::backward(rows, inv_d, v, &mut dv[..], beta, w);
            dv.fill(DVec2::ZERO);
            let pq = sweeps::forward(rows, inv_d, d, v, &mut dv[..], w);
            if pq.is_nan() || pq <= 0.0 {
                return done;
            }
            let next;
            (largest, next) = sweeps::update(d, v, rz / pq);
            beta = next / rz;
            rz = next;
        }
        iterations
    }

    /// The search direction `p ← z + beta p` of a block's `rows`, its velocity change
    /// added to `dv` (inverse masses `w`; the caller clears what must start at zero).
    fn direction<C: Changes + ?Sized>(
        rows: &[CgRow],
        v: &mut Vectors,
        dv: &mut C,
        beta: f64,
        w: &[f64],
    ) {
        let n = rows.len();
        let (z, p) = (&v.z[..n], &mut v.p[..n]);
        for i in 0..n {
            let ps = z[i] + beta * p[i];
            p[i] = ps;
            dv.add(rows[i], ps, w);
        }
    }

    /// The closing speed `q = A p` the search direction takes away from each of a block's
    /// `rows`, read back from `dv` (which holds the velocity change of every row's
    /// direction at these rows' bodies); returns the block's part of `p·q`.
    fn read_back<C: Changes + ?Sized>(rows: &[CgRow], v: &mut Vectors, dv: &C) -> f64 {
        let n = rows.len();
        let (p, q) = (&v.p[..n], &mut v.q[..n]);
        let mut pq = 0.0;
        for i in 0..n {
            let qi = dv.closing(rows[i]);
            q[i] = qi;
            pq += p[i] * qi;
        }
        pq
    }

    /// The step `alpha` along the search direction — the impulses `x += alpha p`, the
    /// residuals `r -= alpha q` — and Jacobi's preconditioned residual `z = D⁻¹ r` (`D` the
    /// system's diagonal) in one pass; returns the largest residual and `r·z`.
    fn step_and_scale(&mut self, alpha: f64) -> (f64, f64) {
        let n = self.rows.len();
        let (inv_d, v) = (&self.inv_d[..n], &mut self.v);
        let (x, r, z, p, q) = (
            &mut v.x[..n],
            &mut v.r[..n],
            &mut v.z[..n],
            &v.p[..n],
            &v.q[..n],
        );
        let (mut largest, mut rz) = (0.0f64, 0.0);
        for i in 0..n {
            x[i] += alpha * p[i];
            let ri = r[i] - alpha * q[i];
            r[i] = ri;
            largest = largest.max(ri.abs());
            z[i] = ri * inv_d[i];
            rz += ri * z[i];
        }
        (largest, rz)
    }
}

/// The closing speed the velocity changes `dv` give `row`'s bodies.
#[inline(always)]
fn closing(row: CgRow, dv: &[DVec2]) -> f64 {
    (dv[row.b as usize] - dv[row.a as usize]).dot(row.normal)
}

/// Adds the velocity change of an impulse `impulse` along `row` to its bodies in `dv`
/// (inverse masses `w`; slot 0, the walls, has none and stays zero).
#[inline(always)]
fn add(row: CgRow, impulse: f64, dv: &mut [DVec2], w: &[f64]) {
    let push = row.normal * impulse;
    let (a, b) = (row.a as usize, row.b as usize);
    dv[a] -= push * w[a];
    dv[b] += push * w[b];
}

/// Velocity changes a sweep reads and adds to: one array, or the separator's view of the
/// two regions' arrays ([`blocks`]).
trait Changes {
    fn closing(&self, row: CgRow) -> f64;
    fn add(&mut self, row: CgRow, impulse: f64, w: &[f64]);
}

impl Changes for [DVec2] {
    #[inline(always)]
    fn closing(&self, row: CgRow) -> f64 {
        closing(row, self)
    }

    #[inline(always)]
    fn add(&mut self, row: CgRow, impulse: f64, w: &[f64]) {
        add(row, impulse, self, w);
    }
}
