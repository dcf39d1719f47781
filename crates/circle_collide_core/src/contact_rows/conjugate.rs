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

/// An active row as the iterations see it (24 bytes: the three loops of an iteration
/// stream these, and the inverse masses and preconditioner live in their own arrays).
#[derive(Clone, Copy, Debug)]
struct CgRow {
    a: u32,
    b: u32,
    normal: DVec2,
}

/// The conjugate gradients' scratch, kept between steps for its allocations.
#[derive(Clone, Debug, Default)]
pub(crate) struct Conjugate {
    /// Rows solved as equalities, and their indices among the solver's rows.
    rows: Vec<CgRow>,
    index: Vec<u32>,
    /// Per active row: `1 / (w_a + w_b)` (the Jacobi preconditioner), impulses found,
    /// residual closing speeds, preconditioned residuals, search direction.
    inv_w: Vec<f64>,
    x: Vec<f64>,
    r: Vec<f64>,
    z: Vec<f64>,
    p: Vec<f64>,
    /// Inverse mass per slot.
    w: Vec<f64>,
    /// Velocity change per slot of a search direction's impulses.
    dv: Vec<DVec2>,
}

impl ContactRows {
    /// At most `iterations` conjugate-gradient iterations over the rows with a positive
    /// impulse (or closing now), solved as equalities, stopping once none closes faster
    /// than `tolerance`; then the impulses found are applied, each row's total clamped at
    /// zero. Returns the iterations run.
    ///
    /// The three loops of an iteration index re-sliced arrays of one length: with the
    /// vector update written as a chain of `zip`s the iterations took over twice as long
    /// (crowd of 10,000).
    #[allow(clippy::needless_range_loop)]
    pub(crate) fn conjugate_gradient(&mut self, iterations: u32, tolerance: f64) -> u32 {
        let mut cg = std::mem::take(&mut self.conjugate);
        cg.rows.clear();
        cg.index.clear();
        cg.inv_w.clear();
        cg.r.clear();
        for (k, row) in self.rows.iter().enumerate() {
            let closing = self.closing(row);
            if row.inv_w > 0.0 && (row.acc > 0.0 || closing > 0.0) {
                cg.rows.push(CgRow {
                    a: row.a,
                    b: row.b,
                    normal: row.normal,
                });
                cg.index.push(k as u32);
                cg.inv_w.push(row.inv_w);
                cg.r.push(closing);
            }
        }
        cg.w.clear();
        cg.w.extend(self.bodies.iter().map(|b| b.inv_mass));
        let n = cg.rows.len();
        cg.x.clear();
        cg.x.resize(n, 0.0);
        cg.z.clear();
        cg.z.extend(cg.inv_w.iter().zip(&cg.r).map(|(inv_w, r)| r * inv_w));
        cg.p.clear();
        cg.p.resize(n, 0.0);
        cg.dv.clear();
        let slots = self.bodies.len();
        cg.dv.resize(slots, DVec2::ZERO);
        let mut rz: f64 = cg.r.iter().zip(&cg.z).map(|(r, z)| r * z).sum();
        let mut largest = cg.r.iter().fold(0.0f64, |m, r| m.max(r.abs()));
        let mut beta = 0.0;
        let mut done = 0;
        while done < iterations && largest > tolerance && rz > 0.0 {
            // The new direction, and the velocity change its impulses make.
            cg.dv.fill(DVec2::ZERO);
            let (rows, z, p) = (&cg.rows[..n], &cg.z[..n], &mut cg.p[..n]);
            let (dv, w) = (&mut cg.dv[..slots], &cg.w[..slots]);
            for s in 0..n {
                let row = rows[s];
                let ps = z[s] + beta * p[s];
                p[s] = ps;
                let push = row.normal * ps;
                let (a, b) = (row.a as usize, row.b as usize);
                dv[a] -= push * w[a];
                dv[b] += push * w[b];
            }
            // `A p`: the closing speed each row loses to them (kept in `z` meanwhile).
            let mut pq = 0.0;
            let (z, p, dv) = (&mut cg.z[..n], &cg.p[..n], &cg.dv[..slots]);
            for s in 0..n {
                let row = rows[s];
                let q = (dv[row.b as usize] - dv[row.a as usize]).dot(row.normal);
                z[s] = q;
                pq += p[s] * q;
            }
            // A direction that takes nothing away (or a non-finite one): stop here.
            if pq.is_nan() || pq <= 0.0 || !rz.is_finite() {
                break;
            }
            let alpha = rz / pq;
            let mut next = 0.0;
            largest = 0.0;
            let (x, r, z, p, inv_w) = (
                &mut cg.x[..n],
                &mut cg.r[..n],
                &mut cg.z[..n],
                &cg.p[..n],
                &cg.inv_w[..n],
            );
            for s in 0..n {
                x[s] += alpha * p[s];
                let rs = r[s] - alpha * z[s];
                r[s] = rs;
                let zs = rs * inv_w[s];
                z[s] = zs;
                next += rs * zs;
                largest = largest.max(rs.abs());
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
                allowed: 0.0,
                acc: 1e-9,
                inv_w: 1.0 / w,
            });
        }
        let done = rows.conjugate_gradient(100, 1e-9);
        for b in &rows.bodies[1..] {
            assert!(b.vel.length() < 1e-6, "{:?} after {done}", b.vel);
        }
    }

    /// The column of [`column_against_a_wall_stops_exactly`] held off the wall by a gap
    /// contact that allows closing at 0.25 units/s: conjugate gradients and plain
    /// Gauss–Seidel passes both end with every body moving into the wall at exactly that
    /// speed (no row between bodies closing), and a gap row allowing more than the column
    /// closes takes no impulse at all.
    #[test]
    fn gap_row_allows_its_closing_speed() {
        let column = |allowed: f64| {
            let mut rows = ContactRows::default();
            rows.bodies.push(RowBody::default());
            for k in 0..20 {
                rows.bodies.push(RowBody {
                    vel: DVec2::new(-1.0, 0.0),
                    inv_mass: 1.0,
                    omega: 0.0,
                });
                let w: f64 = if k == 0 { 1.0 } else { 2.0 };
                rows.rows.push(Row {
                    a: k,
                    b: k + 1,
                    normal: DVec2::X,
                    allowed: if k == 0 { allowed } else { 0.0 },
                    // Every row in the conjugate gradients' active set.
                    acc: 1e-9,
                    inv_w: 1.0 / w,
                });
            }
            rows
        };
        let mut cg = column(0.25);
        cg.conjugate_gradient(100, 1e-12);
        let mut gs = column(0.25);
        gs.passes(2000, 1.0);
        for rows in [&cg, &gs] {
            for b in &rows.bodies[1..] {
                assert!(
                    (b.vel.x + 0.25).abs() < 1e-5 && b.vel.y == 0.0,
                    "{:?}",
                    b.vel
                );
            }
        }
        let mut free = column(1.5);
        free.rows.iter_mut().for_each(|r| r.acc = 0.0);
        free.passes(50, 1.0);
        assert!(free.rows.iter().all(|r| r.acc == 0.0));
        assert!((free.bodies[1..].iter()).all(|b| (b.vel.x + 1.0).abs() < 1e-8));
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
                        allowed: 0.0,
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
