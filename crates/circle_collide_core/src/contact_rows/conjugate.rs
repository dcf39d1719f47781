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
//! row's residual scaled by its diagonal) for smaller ones. An iteration is the search
//! direction's velocity change added up on the bodies and read back as the closing speed
//! it takes away, the step on impulses and residuals, and the preconditioner. They run on
//! the calling thread, in the order of [`STREAMS`], so the result does not depend on the
//! number of threads.
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

use super::ContactRows;
use glam::DVec2;

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
    /// The active rows, and their indices among the solver's rows.
    rows: Vec<CgRow>,
    index: Vec<u32>,
    /// Per active row: `1 / (w_a + w_b)` (the inverse of the system's diagonal), impulse
    /// found, residual closing speed, preconditioned residual, search direction and the
    /// closing speed the search direction takes away.
    inv_d: Vec<f64>,
    x: Vec<f64>,
    r: Vec<f64>,
    z: Vec<f64>,
    p: Vec<f64>,
    q: Vec<f64>,
    /// Inverse mass per slot (slot 0, walls: none).
    w: Vec<f64>,
    /// Velocity change per slot of the impulses a sweep has added up so far.
    dv: Vec<DVec2>,
    /// The active rows in the solver's order, with their closing speeds.
    active: Vec<(u32, f64)>,
    preconditioner: Preconditioner,
}

/// How the conjugate gradients precondition their residual (`contacts` picks by the
/// solve's size: `GAUSS_SEIDEL_CONTACTS`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Preconditioner {
    /// Each row's residual scaled by the inverse of its diagonal.
    #[default]
    Jacobi,
    /// A forward and a backward Gauss–Seidel sweep from zero impulses.
    GaussSeidel,
}

/// The sweeps' order: the active rows (in the solver's order) are cut into this many
/// runs of consecutive rows, and the sweeps take one row of each run in turn. Any order
/// is a Gauss–Seidel order; within a run neighbours follow each other as in the solver's
/// order, and rows taken one after the other (from different runs, far apart in space)
/// rarely share a body, so a sweep's rows do not wait for each other's velocity changes.
/// In the solver's order (one run) the sweeps waited on them: the preconditioner cost
/// 2.2× as much (walkers of 2000, CPU samples); eight runs cost 12 % less than four.
const STREAMS: usize = 8;

impl Clone for Conjugate {
    /// Scratch only: a clone starts empty.
    fn clone(&self) -> Self {
        Self::default()
    }
}

impl ContactRows {
    /// At most `iterations` conjugate-gradient iterations over the rows with a positive
    /// impulse (or closing now, a kept gap's allowance not counted), solved as equalities
    /// (none closes), stopping once none closes faster than `tolerance`; then the
    /// impulses found are applied, each row's total clamped at zero. Returns the
    /// iterations run.
    pub(crate) fn conjugate_gradient(
        &mut self,
        iterations: u32,
        tolerance: f64,
        preconditioner: Preconditioner,
    ) -> u32 {
        let mut cg = std::mem::take(&mut self.conjugate);
        cg.clear();
        cg.preconditioner = preconditioner;
        for (k, row) in self.rows.iter().enumerate() {
            // Every kept gap taken as closed (see the module docs, "A consistent system").
            let closing = self.closing(row) + row.allowed;
            if row.inv_w > 0.0 && (row.acc > 0.0 || closing > 0.0) {
                cg.active.push((k as u32, closing));
            }
        }
        let n = cg.active.len();
        // The rows in the order of the sweeps: the runs taken in turn (see `STREAMS`).
        let m = n.div_ceil(STREAMS);
        for q in 0..m {
            for s in 0..STREAMS {
                let Some(&(k, closing)) = cg.active.get(s * m + q) else {
                    continue;
                };
                let row = &self.rows[k as usize];
                cg.rows.push(CgRow {
                    a: row.a,
                    b: row.b,
                    normal: row.normal,
                });
                cg.inv_d.push(row.inv_w);
                cg.r.push(closing);
                cg.index.push(k);
            }
        }
        for v in [&mut cg.x, &mut cg.z, &mut cg.p, &mut cg.q] {
            v.resize(n, 0.0);
        }
        cg.w.extend(self.bodies.iter().map(|b| b.inv_mass));
        cg.dv.resize(cg.w.len(), DVec2::ZERO);
        let done = cg.iterate(iterations as usize, tolerance);
        for (&x, &k) in cg.x.iter().zip(&cg.index) {
            let acc = self.rows[k as usize].acc;
            self.apply_normal(k as usize, (acc + x).max(0.0) - acc);
        }
        self.conjugate = cg;
        done as u32
    }
}

impl Conjugate {
    /// Empties every array (keeping the allocations).
    fn clear(&mut self) {
        self.rows.clear();
        self.index.clear();
        self.dv.clear();
        self.active.clear();
        for v in [
            &mut self.inv_d,
            &mut self.x,
            &mut self.r,
            &mut self.z,
            &mut self.p,
            &mut self.q,
            &mut self.w,
        ] {
            v.clear();
        }
    }

    /// Runs at most `iterations` iterations from `x` = 0 and the residual in `r`,
    /// stopping once no residual exceeds `tolerance` or a direction takes nothing away
    /// (or is not finite). Returns the iterations completed.
    fn iterate(&mut self, iterations: usize, tolerance: f64) -> usize {
        if self.rows.is_empty() {
            return 0;
        }
        // x = 0, p = q = 0: the first step moves nothing.
        let (mut largest, mut rz) = self.step_and_precondition(0.0);
        let mut beta = 0.0;
        for done in 0..iterations {
            if !(largest > tolerance && rz > 0.0 && rz.is_finite()) {
                return done;
            }
            let pq = self.take_away(beta);
            if pq.is_nan() || pq <= 0.0 {
                return done;
            }
            let next;
            (largest, next) = self.step_and_precondition(rz / pq);
            beta = next / rz;
            rz = next;
        }
        iterations
    }

    /// The search direction `p ← z + beta p`, and the closing speed `q = A p` it takes
    /// away (two sweeps: its velocity change added up over the rows, then read back by
    /// each); returns `p·q`.
    #[inline(never)]
    fn take_away(&mut self, beta: f64) -> f64 {
        let (rows, w, dv) = (&self.rows[..], &self.w[..], &mut self.dv[..]);
        let n = rows.len();
        let (z, p, q) = (&self.z[..n], &mut self.p[..n], &mut self.q[..n]);
        dv.fill(DVec2::ZERO);
        for i in 0..n {
            let ps = z[i] + beta * p[i];
            p[i] = ps;
            add(rows[i], ps, dv, w);
        }
        let mut pq = 0.0;
        for i in 0..n {
            let qi = closing(rows[i], dv);
            q[i] = qi;
            pq += p[i] * qi;
        }
        pq
    }

    /// The step `alpha` along the search direction — the impulses `x += alpha p`, the
    /// residuals `r -= alpha q` — and the preconditioned residual `z` of the new `r`, in
    /// one pass for the step and the preconditioner's first sweep; returns the largest
    /// residual and `r·z`. Jacobi's preconditioner: `z = D⁻¹ r` (`D` the system's
    /// diagonal). Symmetric Gauss–Seidel's: `z = (D + L)⁻ᵀ D (D + L)⁻¹ r` (`L` the
    /// system's part below the diagonal in the sweeps' order): a forward Gauss–Seidel
    /// sweep from zero impulses on `r`, then a backward one.
    #[inline(never)]
    fn step_and_precondition(&mut self, alpha: f64) -> (f64, f64) {
        let (rows, w, dv) = (&self.rows[..], &self.w[..], &mut self.dv[..]);
        let n = rows.len();
        let (inv_d, x, r, z, p, q) = (
            &self.inv_d[..n],
            &mut self.x[..n],
            &mut self.r[..n],
            &mut self.z[..n],
            &self.p[..n],
            &self.q[..n],
        );
        let mut largest = 0.0f64;
        let mut step = |i: usize| {
            x[i] += alpha * p[i];
            let ri = r[i] - alpha * q[i];
            r[i] = ri;
            largest = largest.max(ri.abs());
            ri
        };
        if self.preconditioner == Preconditioner::Jacobi {
            let mut rz = 0.0;
            for i in 0..n {
                let ri = step(i);
                z[i] = ri * inv_d[i];
                rz += ri * z[i];
            }
            return (largest, rz);
        }
        // Forward: y = (D + L)⁻¹ r.
        dv.fill(DVec2::ZERO);
        for i in 0..n {
            let y = (step(i) - closing(rows[i], dv)) * inv_d[i];
            z[i] = y;
            add(rows[i], y, dv, w);
        }
        // Backward: z = (D + U)⁻¹ D y, i.e. z_i = y_i − (U z)_i / D_ii.
        dv.fill(DVec2::ZERO);
        let mut rz = 0.0;
        for i in (0..n).rev() {
            let zi = z[i] - closing(rows[i], dv) * inv_d[i];
            z[i] = zi;
            add(rows[i], zi, dv, w);
            rz += r[i] * zi;
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
