//! A conjugate-gradient correction of a large solve's normal impulses.
//!
//! Gauss–Seidel passes carry a push about one layer of a jam per pass: the error they
//! leave in a deep jam is smooth (the same push owed by every layer) and dies slowly.
//! Conjugate gradients take that smooth part away in a few iterations. The rows that
//! hold an impulse after the first passes are taken as the jam's active set and solved
//! as equalities (each stops closing exactly) with Jacobi-preconditioned conjugate
//! gradients; the impulses found are then clamped at zero (a contact only pushes) and
//! the Gauss–Seidel passes that follow settle the inequalities.

use super::ContactRows;
use glam::DVec2;

/// An active row as the iterations see it.
#[derive(Clone, Copy, Debug)]
struct CgRow {
    a: u32,
    b: u32,
    normal: DVec2,
    /// Inverse masses of `a` and `b`, and `1 / (w_a + w_b)` (the Jacobi preconditioner).
    wa: f64,
    wb: f64,
    inv_w: f64,
}

/// The conjugate gradients' scratch, kept between steps for its allocations.
#[derive(Clone, Debug, Default)]
pub(crate) struct Conjugate {
    /// Rows solved as equalities, and their indices among the solver's rows.
    rows: Vec<CgRow>,
    index: Vec<u32>,
    /// Per active row: impulses found, residual closing speeds, preconditioned
    /// residuals, search direction.
    x: Vec<f64>,
    r: Vec<f64>,
    z: Vec<f64>,
    p: Vec<f64>,
    /// Velocity change per slot of a search direction's impulses.
    dv: Vec<DVec2>,
}

impl ContactRows {
    /// At most `iterations` conjugate-gradient iterations over the rows with a positive
    /// impulse (or closing now), solved as equalities, stopping once none closes faster
    /// than `tolerance`; then the impulses found are applied, each row's total clamped at
    /// zero. Returns the iterations run.
    pub(crate) fn conjugate_gradient(&mut self, iterations: u32, tolerance: f64) -> u32 {
        let mut cg = std::mem::take(&mut self.conjugate);
        cg.rows.clear();
        cg.index.clear();
        cg.r.clear();
        for (k, row) in self.rows.iter().enumerate() {
            let (a, b) = (&self.bodies[row.a as usize], &self.bodies[row.b as usize]);
            let closing = (a.vel - b.vel).dot(row.normal);
            if row.w > 0.0 && (row.acc > 0.0 || closing > 0.0) {
                cg.rows.push(CgRow {
                    a: row.a,
                    b: row.b,
                    normal: row.normal,
                    wa: a.inv_mass,
                    wb: b.inv_mass,
                    inv_w: row.inv_w,
                });
                cg.index.push(k as u32);
                cg.r.push(closing);
            }
        }
        let n = cg.rows.len();
        cg.x.clear();
        cg.x.resize(n, 0.0);
        cg.z.clear();
        cg.z.extend(cg.rows.iter().zip(&cg.r).map(|(row, r)| r * row.inv_w));
        cg.p.clear();
        cg.p.resize(n, 0.0);
        cg.dv.clear();
        cg.dv.resize(self.bodies.len(), DVec2::ZERO);
        let mut rz: f64 = cg.r.iter().zip(&cg.z).map(|(r, z)| r * z).sum();
        let mut largest = cg.r.iter().fold(0.0f64, |m, r| m.max(r.abs()));
        let mut beta = 0.0;
        let mut done = 0;
        while done < iterations && largest > tolerance && rz > 0.0 {
            // The new direction, and the velocity change its impulses make.
            cg.dv.fill(DVec2::ZERO);
            for (s, row) in cg.rows.iter().enumerate() {
                let p = cg.z[s] + beta * cg.p[s];
                cg.p[s] = p;
                let push = row.normal * p;
                cg.dv[row.a as usize] -= push * row.wa;
                cg.dv[row.b as usize] += push * row.wb;
            }
            // `A p`: the closing speed each row loses to them (kept in `z` meanwhile).
            let mut pq = 0.0;
            for (s, row) in cg.rows.iter().enumerate() {
                let q = (cg.dv[row.b as usize] - cg.dv[row.a as usize]).dot(row.normal);
                cg.z[s] = q;
                pq += cg.p[s] * q;
            }
            // A direction that takes nothing away (or a non-finite one): stop here.
            if pq.is_nan() || pq <= 0.0 || !rz.is_finite() {
                break;
            }
            let alpha = rz / pq;
            let mut next = 0.0;
            largest = 0.0;
            for (s, row) in cg.rows.iter().enumerate() {
                cg.x[s] += alpha * cg.p[s];
                let r = cg.r[s] - alpha * cg.z[s];
                cg.r[s] = r;
                let z = r * row.inv_w;
                cg.z[s] = z;
                next += r * z;
                largest = largest.max(r.abs());
            }
            beta = next / rz;
            rz = next;
            done += 1;
        }
        for (s, &k) in cg.index.iter().enumerate() {
            let acc = self.rows[k as usize].acc;
            let delta = (acc + cg.x[s]).max(0.0) - acc;
            self.apply_normal(k as usize, delta);
        }
        self.conjugate = cg;
        done
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Row, RowBody};
    use super::*;

    /// A column of 20 unit masses moving into a wall at 1 unit/s: the exact answer is
    /// every body at rest (a chain of 20 rows, which Gauss–Seidel takes ~20 passes to
    /// cross once); conjugate gradients reach it (exactly, in as many iterations as
    /// rows, but for rounding).
    #[test]
    fn column_against_a_wall_stops_exactly() {
        let n = 20;
        let mut rows = ContactRows::default();
        rows.bodies.push(RowBody::default());
        for _ in 0..n {
            rows.bodies.push(RowBody {
                vel: DVec2::new(-1.0, 0.0),
                inv_mass: 1.0,
                omega: 0.0,
            });
        }
        // Wall (slot 0) left of body 1; body k left of body k + 1: normal from a to b is +x.
        for k in 0..n {
            let w = if k == 0 { 1.0 } else { 2.0 };
            rows.rows.push(Row {
                a: k as u32,
                b: k as u32 + 1,
                normal: DVec2::X,
                w,
                acc: 1e-9,
                inv_w: 1.0 / w,
            });
        }
        let done = rows.conjugate_gradient(100, 1e-9);
        for b in &rows.bodies[1..] {
            assert!(b.vel.length() < 1e-6, "{:?} after {done}", b.vel);
        }
    }

    /// A triangular lattice of 144 bodies with random velocities and every neighbour
    /// pair a row (about 3 rows per body against 2 degrees of freedom: a singular,
    /// consistent system): no row closes or opens afterwards.
    #[test]
    fn redundant_lattice_stops_closing() {
        let side = 12;
        let mut rows = ContactRows::default();
        rows.bodies.push(RowBody::default());
        let mut pos = Vec::new();
        let mut seed = 7u64;
        let mut rnd = || crate::scenes::SplitMix64::next_f64(&mut seed) - 0.5;
        for y in 0..side {
            for x in 0..side {
                let p = DVec2::new(x as f64 + 0.5 * (y % 2) as f64, y as f64 * 0.866);
                pos.push(p);
                rows.bodies.push(RowBody {
                    vel: DVec2::new(rnd(), rnd()),
                    inv_mass: 1.0,
                    omega: 0.0,
                });
            }
        }
        for i in 0..pos.len() {
            for j in i + 1..pos.len() {
                let d = pos[j] - pos[i];
                if d.length() < 1.01 {
                    rows.rows.push(Row {
                        a: i as u32 + 1,
                        b: j as u32 + 1,
                        normal: d.normalize(),
                        w: 2.0,
                        acc: 1.0,
                        inv_w: 0.5,
                    });
                }
            }
        }
        let done = rows.conjugate_gradient(400, 1e-9);
        let worst = (rows.rows.iter())
            .map(|r| {
                (rows.bodies[r.a as usize].vel - rows.bodies[r.b as usize].vel)
                    .dot(r.normal)
                    .abs()
            })
            .fold(0.0, f64::max);
        assert!(
            worst < 1e-6,
            "{worst} after {done} of {} rows",
            rows.rows.len()
        );
    }
}
