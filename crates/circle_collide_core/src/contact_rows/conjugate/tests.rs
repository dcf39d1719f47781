//! Tests of the conjugate-gradient correction.

use super::super::{Row, RowBody};
use super::*;

/// Every preconditioner, for the tests that hold for each.
const ALL: [Preconditioner; 3] = [
    Preconditioner::Jacobi,
    Preconditioner::GaussSeidel,
    Preconditioner::GaussSeidelRegions,
];

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
    for preconditioner in ALL {
        let mut rows = rows.clone();
        let done = rows.conjugate_gradient(100, 1e-9, preconditioner);
        for b in &rows.bodies[1..] {
            assert!(
                b.vel.length() < 1e-6,
                "{preconditioner:?}: {:?} after {done}",
                b.vel
            );
        }
    }
}

/// The column of [`column_against_a_wall_stops_exactly`] held off the wall by a gap
/// contact that allows closing at 0.25 units/s: plain Gauss–Seidel passes end with every
/// body moving into the wall at exactly that speed (no row between bodies closing);
/// conjugate gradients take the gap as closed (every body at rest) and the passes after
/// them give back the allowance; a gap row allowing more than the column closes takes
/// no impulse at all.
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
    let mut jacobi = column(0.25);
    jacobi.conjugate_gradient(100, 1e-12, Preconditioner::Jacobi);
    let mut cg = column(0.25);
    cg.conjugate_gradient(100, 1e-12, Preconditioner::GaussSeidel);
    let mut regions = column(0.25);
    regions.conjugate_gradient(100, 1e-12, Preconditioner::GaussSeidelRegions);
    for rows in [&mut jacobi, &mut cg, &mut regions] {
        assert!((rows.bodies[1..].iter()).all(|b| b.vel.length() < 1e-6));
        rows.passes(2000, 1.0);
    }
    let mut gs = column(0.25);
    gs.passes(2000, 1.0);
    for rows in [&jacobi, &cg, &regions, &gs] {
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
    let (rows, _) = redundant_lattice(0.0);
    stops_closing(rows);
}

/// The lattice of [`redundant_lattice_stops_closing`] with every third row a kept gap
/// allowing a closing speed of 0.05–0.15: equalities that closed each row by its
/// allowance would have no solution (the rows outnumber the degrees of freedom), and
/// conjugate gradients on them stalled and then diverged; taken as closed, the rows
/// stop closing as in the lattice without gaps.
#[test]
fn gaps_in_a_redundant_lattice_do_not_stall_the_iterations() {
    let (rows, gaps) = redundant_lattice(0.1);
    assert!(gaps > 100, "{gaps} gap rows");
    stops_closing(rows);
}

/// Runs up to 400 iterations on `rows`, with either preconditioner, and asserts that
/// afterwards no row's bodies close or open faster than 10⁻⁶ (the allowances not counted).
fn stops_closing(rows: ContactRows) {
    for preconditioner in ALL {
        let mut rows = rows.clone();
        let done = rows.conjugate_gradient(400, 1e-9, preconditioner);
        let worst = (rows.rows.iter())
            .map(|r| {
                (rows.bodies[r.a as usize].vel - rows.bodies[r.b as usize].vel)
                    .dot(r.normal)
                    .abs()
            })
            .fold(0.0, f64::max);
        assert!(
            worst < 1e-6,
            "{preconditioner:?}: {worst} after {done} of {} rows",
            rows.rows.len()
        );
    }
}

/// A 12 × 12 triangular lattice of unit masses with random velocities, every neighbour
/// pair an active row; every third row allows a closing speed of `gap` ± 50 % (random).
/// Returns the rows and how many allow one.
fn redundant_lattice(gap: f64) -> (ContactRows, usize) {
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
                let allowed = if rows.rows.len() % 3 == 2 {
                    gap * (1.0 + rnd())
                } else {
                    0.0
                };
                rows.rows.push(Row {
                    a: i as u32 + 1,
                    b: j as u32 + 1,
                    normal: d.normalize(),
                    allowed,
                    acc: 1.0,
                    inv_w: 0.5,
                });
            }
        }
    }
    let gaps = rows.rows.iter().filter(|r| r.allowed > 0.0).count();
    (rows, gaps)
}

/// The stack of the coloured passes' tests, 120 bodies wide and 80 high, every body
/// falling at 0.95–1.05 units/s (19,000 rows, every row active): 30 iterations
/// preconditioned by symmetric Gauss–Seidel take at least nine tenths of the largest
/// closing speed away (they leave ~5 %), with the rows in order and reversed, on the
/// calling thread and in regions, and give the same bits whether the solver's executor has
/// one thread or two; 30 preconditioned by
/// Jacobi leave more than half of it (the push crosses the stack about a layer an
/// iteration).
#[test]
fn deep_stack_is_crossed_in_few_iterations() {
    use crate::parallel::{Executor, ExecutorHandle, Serial};
    use std::sync::Arc;
    let mut rows = super::super::coloured::tests::stack(120, 80);
    rows.rows.iter_mut().for_each(|r| r.acc = 1e-9);
    let closing = |r: &ContactRows| {
        (r.rows.iter())
            .map(|row| r.closing(row))
            .fold(0.0f64, f64::max)
    };
    let mut reversed = rows.clone();
    reversed.rows.reverse();
    for (order, rows) in [("in order", rows), ("reversed", reversed)] {
        let before = closing(&rows);
        let run = |executor: Arc<dyn Executor>, preconditioner| {
            let mut r = rows.clone();
            r.set_executor(&ExecutorHandle {
                executor,
                min_bodies: 0,
            });
            let done = r.conjugate_gradient(30, 0.0, preconditioner);
            let bits: Vec<u64> = (r.bodies.iter())
                .flat_map(|b| [b.vel.x.to_bits(), b.vel.y.to_bits()])
                .chain(r.rows.iter().map(|row| row.acc.to_bits()))
                .collect();
            (done, bits, closing(&r))
        };
        for preconditioner in [
            Preconditioner::GaussSeidel,
            Preconditioner::GaussSeidelRegions,
        ] {
            let (done, one, after) = run(Arc::new(Serial), preconditioner);
            let (done_two, two, _) = run(Arc::new(super::super::team::Two), preconditioner);
            assert_eq!(done, 30, "{order}, {preconditioner:?}");
            assert_eq!(done_two, done, "{order}, {preconditioner:?}");
            assert!(
                one == two,
                "{order}, {preconditioner:?}: the two runs differ"
            );
            assert!(
                after < 0.1 * before,
                "{order}, {preconditioner:?}: closing {before} → {after}"
            );
        }
        let mut jacobi = rows.clone();
        jacobi.conjugate_gradient(30, 0.0, Preconditioner::Jacobi);
        let left = closing(&jacobi);
        assert!(left > 0.5 * before, "{order}: Jacobi's {before} → {left}");
    }
}

/// The preconditioner (a forward and a backward Gauss–Seidel sweep, in the order of the
/// runs, on the calling thread or in regions) is a symmetric, positive-definite operator,
/// as conjugate gradients need: on the rows of the redundant lattice and two random
/// residuals `u`, `v`, `u·M⁻¹v = v·M⁻¹u` to rounding and `u·M⁻¹u > 0`.
#[test]
fn preconditioner_is_symmetric_and_positive() {
    for (preconditioner, blocks) in [
        (Preconditioner::GaussSeidel, 1),
        (Preconditioner::GaussSeidelRegions, 3),
    ] {
        symmetric_and_positive(preconditioner, blocks);
    }
}

fn symmetric_and_positive(preconditioner: Preconditioner, blocks: usize) {
    let (mut rows, _) = redundant_lattice(0.0);
    // Loads the active rows (every row) without iterating.
    assert_eq!(rows.conjugate_gradient(0, 0.0, preconditioner), 0);
    let cg = &mut rows.conjugate;
    assert_eq!(cg.blocks.len(), blocks);
    let n: usize = cg.blocks.iter().map(|b| b.rows.len()).sum();
    assert!(n > 300, "{n} rows");
    let mut seed = 11u64;
    let mut random = || {
        (0..n)
            .map(|_| crate::scenes::SplitMix64::next_f64(&mut seed) - 0.5)
            .collect::<Vec<f64>>()
    };
    let (u, v) = (random(), random());
    let mut apply = |r: &[f64]| cg.precondition(r);
    let (mu, mv) = (apply(&u), apply(&v));
    let dot = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f64>();
    let (uv, vu) = (dot(&u, &mv), dot(&v, &mu));
    assert!((uv - vu).abs() < 1e-12 * dot(&u, &mu), "{uv} against {vu}");
    assert!(dot(&u, &mu) > 0.0 && dot(&v, &mv) > 0.0);
    // Not the identity nor Jacobi's scaling: the sweeps couple neighbouring rows.
    let inv_d = cg.blocks.iter().flat_map(|b| &b.inv_d);
    let jacobi: Vec<f64> = u.iter().zip(inv_d).map(|(x, d)| x * d).collect();
    assert!(dot(&mu, &jacobi).abs() < 0.99 * dot(&mu, &mu).sqrt() * dot(&jacobi, &jacobi).sqrt());
}

/// The iterations in Eisenstat's form (two sweeps, no product with the system:
/// `sweeps`) give the textbook iterates of conjugate gradients preconditioned by
/// symmetric Gauss–Seidel (a product with the system, then the preconditioner applied to
/// the residual) to rounding: on the redundant lattice, after 1, 3 and 8 iterations, on
/// the calling thread and in regions.
#[test]
fn two_sweeps_an_iteration_give_the_textbook_iterates() {
    for preconditioner in [
        Preconditioner::GaussSeidel,
        Preconditioner::GaussSeidelRegions,
    ] {
        for iterations in [1, 3, 8] {
            let (rows, _) = redundant_lattice(0.0);
            let mut ours = rows.clone();
            assert_eq!(
                ours.conjugate_gradient(iterations, 0.0, preconditioner),
                iterations
            );
            let cg = &mut ours.conjugate;
            let found: Vec<f64> = cg.blocks.iter().flat_map(|b| b.v.x.clone()).collect();
            // The rows in the sweeps' order, and their closing speeds at the start.
            let order: Vec<CgRow> = cg.blocks.iter().flat_map(|b| b.rows.clone()).collect();
            let start: std::collections::HashMap<u32, f64> = cg.active.iter().copied().collect();
            let b: Vec<f64> = (cg.blocks.iter())
                .flat_map(|b| b.index.iter().map(|k| start[k]))
                .collect();
            let w = cg.w.clone();
            let product = |p: &[f64]| {
                let mut dv = vec![DVec2::ZERO; w.len()];
                for (&row, &pi) in order.iter().zip(p) {
                    add(row, pi, &mut dv, &w);
                }
                order
                    .iter()
                    .map(|&row| closing(row, &dv))
                    .collect::<Vec<f64>>()
            };
            let dot = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f64>();
            let n = b.len();
            let (mut x, mut r) = (vec![0.0; n], b.clone());
            let mut z = cg.precondition(&r);
            let (mut p, mut rz) = (z.clone(), dot(&r, &z));
            for _ in 0..iterations {
                let q = product(&p);
                let alpha = rz / dot(&p, &q);
                for i in 0..n {
                    x[i] += alpha * p[i];
                    r[i] -= alpha * q[i];
                }
                z = cg.precondition(&r);
                let next = dot(&r, &z);
                for i in 0..n {
                    p[i] = z[i] + next / rz * p[i];
                }
                rz = next;
            }
            let largest = x.iter().fold(0.0f64, |m, v| m.max(v.abs()));
            let worst = (found.iter().zip(&x)).fold(0.0f64, |m, (a, b)| m.max((a - b).abs()));
            assert!(largest > 0.01, "{preconditioner:?}: nothing found");
            assert!(
                worst < 1e-9 * largest,
                "{preconditioner:?}, {iterations} iterations: off by {worst} of {largest}"
            );
        }
    }
}

/// What picks the triggered correction's iterations (`contacts::TRIGGERED_ITERATIONS`):
/// a row with an impulse against the wall (slot 0) or a body without inverse mass (a
/// static or kinematic body) anchors the jam; a row without an impulse there, or rows
/// between free bodies only, do not.
#[test]
fn a_jam_presses_on_static_only_through_a_row_with_an_impulse() {
    let body = |inv_mass: f64| RowBody {
        vel: DVec2::ZERO,
        inv_mass,
        omega: 0.0,
    };
    let row = |a: u32, b: u32, acc: f64| Row {
        a,
        b,
        normal: DVec2::X,
        allowed: 0.0,
        acc,
        inv_w: 1.0,
    };
    // Slot 0 the wall, 1 and 2 free bodies, 3 a static body.
    let mut rows = ContactRows {
        bodies: vec![RowBody::default(), body(1.0), body(1.0), body(0.0)],
        rows: vec![row(1, 2, 0.5)],
        ..Default::default()
    };
    assert!(!rows.presses_on_static(), "free bodies only");
    rows.rows.push(row(0, 1, 0.0));
    rows.rows.push(row(2, 3, 0.0));
    assert!(!rows.presses_on_static(), "anchors without an impulse");
    rows.rows[1].acc = 0.25;
    assert!(rows.presses_on_static(), "pressing on the wall");
    rows.rows[1].acc = 0.0;
    rows.rows[2].acc = 0.25;
    assert!(rows.presses_on_static(), "pressing on a static body");
}

/// How symmetric Gauss–Seidel's rows are shared between two threads (`blocks`): on the
/// deep stack the two regions hold nearly half of the rows each and the separator few,
/// no moving body has rows in both regions (so their sweeps can run at once), and every
/// separator row has moving bodies on both sides, or none.
#[test]
fn the_regions_share_no_moving_body_and_the_separator_is_thin() {
    let mut rows = super::super::coloured::tests::stack(120, 80);
    rows.rows.iter_mut().for_each(|r| r.acc = 1e-9);
    rows.conjugate_gradient(0, 0.0, Preconditioner::GaussSeidelRegions);
    let cg = &rows.conjugate;
    let sizes: Vec<usize> = cg.blocks.iter().map(|b| b.rows.len()).collect();
    let total: usize = sizes.iter().sum();
    assert_eq!(total, rows.rows.len());
    assert!(
        sizes[0] > 45 * total / 100 && sizes[1] > 45 * total / 100 && sizes[2] < total / 20,
        "rows per block {sizes:?}"
    );
    let moving = |slot: u32| cg.w[slot as usize] > 0.0;
    let slots_of = |k: usize| {
        (cg.blocks[k].rows.iter())
            .flat_map(|r| [r.a, r.b])
            .filter(|&s| moving(s))
            .collect::<std::collections::HashSet<u32>>()
    };
    let (lower, upper) = (slots_of(0), slots_of(1));
    assert!(lower.is_disjoint(&upper));
    assert!(lower.iter().all(|&s| s < cg.from) && upper.iter().all(|&s| s >= cg.from));
    for r in &cg.blocks[2].rows {
        let sides: Vec<bool> = (([r.a, r.b].into_iter()).filter(|&s| moving(s)))
            .map(|s| s >= cg.from)
            .collect();
        assert!(sides.len() != 1 && (sides.is_empty() || sides[0] != sides[1]));
    }
}
