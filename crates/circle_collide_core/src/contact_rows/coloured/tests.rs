//! Tests of the colour order's passes: colours, the same bits on one thread and two,
//! and what the passes must reach (smooth and rough).

use super::super::{RowBody, team::Two};
use super::*;
use crate::parallel::{Executor, ExecutorHandle, Serial};
use std::sync::Arc;

/// A triangular lattice `wide` bodies wide and `high` rows high standing on a floor
/// between two walls (all slot 0), each body resting on the two below it (a small gap
/// sideways, as in a jittered pile), every body moving down at 0.95–1.05 units/s:
/// the passes must bring every body to rest. (Coloured, with no impulse yet.)
pub(in crate::contact_rows) fn stack(wide: usize, high: usize) -> ContactRows {
    let mut rows = ContactRows::default();
    rows.bodies.push(RowBody::default());
    let slot = |x: usize, y: usize| (1 + y * wide + x) as u32;
    let mut seed = 3u64;
    for _ in 0..wide * high {
        let jitter = crate::scenes::SplitMix64::next_f64(&mut seed) - 0.5;
        rows.bodies.push(RowBody {
            vel: DVec2::new(0.0, -1.0 - 0.1 * jitter),
            inv_mass: 1.0,
            omega: 0.0,
        });
    }
    let (c, s) = (0.5, 0.75f64.sqrt());
    let mut row = |a: u32, b: u32, normal: DVec2, w: f64| {
        rows.rows.push(Row {
            a,
            b,
            normal,
            allowed: 0.0,
            acc: 0.0,
            inv_w: 1.0 / w,
        })
    };
    for y in 0..high {
        for x in 0..wide {
            if y == 0 {
                row(0, slot(x, 0), DVec2::Y, 1.0);
            }
            // Side walls.
            if x == 0 {
                row(0, slot(x, y), DVec2::X, 1.0);
            }
            if x + 1 == wide {
                row(0, slot(x, y), -DVec2::X, 1.0);
            }
            if y + 1 < high {
                // Odd rows sit half a body to the right.
                // Odd rows sit half a body to the right of even ones.
                let (up_left, up_right) = if y % 2 == 0 {
                    (x.checked_sub(1), Some(x))
                } else {
                    (Some(x), (x + 1 < wide).then_some(x + 1))
                };
                if let Some(l) = up_left {
                    row(slot(x, y), slot(l, y + 1), DVec2::new(-c, s), 2.0);
                }
                if let Some(r) = up_right {
                    row(slot(x, y), slot(r, y + 1), DVec2::new(c, s), 2.0);
                }
            }
        }
    }
    rows.colour();
    rows
}

fn with(executor: Arc<dyn Executor>, mut rows: ContactRows) -> ContactRows {
    rows.executor = ExecutorHandle {
        executor,
        min_bodies: 0,
    };
    rows
}

#[test]
fn no_two_rows_of_a_colour_share_a_moving_body() {
    let rows = stack(400, 11);
    assert!(rows.rows.len() >= COLOURED_MIN_ROWS, "{}", rows.rows.len());
    assert!(rows.coloured());
    let c = &rows.colours;
    let mut seen = vec![false; rows.rows.len()];
    let mut start = 0;
    for &end in &c.ends {
        let mut used = vec![false; rows.bodies.len()];
        for &k in &c.order[start..end] {
            assert!(!std::mem::replace(&mut seen[k as usize], true));
            let r = rows.rows[k as usize];
            for s in [r.a, r.b].into_iter().filter(|&s| s != 0) {
                assert!(!std::mem::replace(&mut used[s as usize], true), "slot {s}");
            }
        }
        start = end;
    }
    assert!(seen.iter().all(|&s| s));
    // Each body is in up to four rows (two supports, two supported): at least four
    // colours, and greedy colouring needs at most a few more.
    assert!((4..=8).contains(&c.ends.len()), "{} colours", c.ends.len());
}

/// The same impulses, velocities and passes, bit for bit, on one thread and on two.
#[test]
fn coloured_passes_are_the_same_on_two_threads() {
    let bits = |r: &ContactRows| {
        (r.rows.iter().map(|r| r.acc.to_bits()))
            .chain(
                r.bodies
                    .iter()
                    .flat_map(|b| [b.vel.x.to_bits(), b.vel.y.to_bits()]),
            )
            .collect::<Vec<_>>()
    };
    let mut one = with(Arc::new(Serial), stack(400, 11));
    let mut two = with(Arc::new(Two), stack(400, 11));
    // A tolerance that stops the passes part way (after 148 of them).
    let n1 = one.passes_until(4, 300, 0.01, 1.0);
    assert_eq!(n1, two.passes_until(4, 300, 0.01, 1.0));
    assert!((5..300).contains(&n1), "{n1} passes");
    assert_eq!(
        one.largest_change().to_bits(),
        two.largest_change().to_bits()
    );
    assert_eq!(bits(&one), bits(&two));
    // Fixed, over-relaxed passes too.
    one.passes(7, 1.4);
    two.passes(7, 1.4);
    assert_eq!(bits(&one), bits(&two));
}

/// Gives each row of `rows` a friction part (μ 0.5, bodies of radius 0.5 with a
/// disc's moment of inertia) and each body a sideways speed of up to ±1 and a spin,
/// then colours the rows again.
fn roughen(mut rows: ContactRows) -> ContactRows {
    let mut seed = 7u64;
    for b in &mut rows.bodies[1..] {
        let mut rnd = || crate::scenes::SplitMix64::next_f64(&mut seed) - 0.5;
        b.vel.x = 2.0 * rnd();
        b.omega = rnd();
    }
    let radius = 0.5;
    for r in &rows.rows {
        let part = |s: u32| {
            let w = rows.bodies[s as usize].inv_mass;
            let r = if s == 0 { 0.0 } else { radius };
            (w, if s == 0 { 0.0 } else { 2.0 * w / (r * r) }, r)
        };
        let ((wa, ka, ra), (wb, kb, rb)) = (part(r.a), part(r.b));
        let tw = crate::friction::tangent_inverse_mass(wa, ka, ra, wb, kb, rb);
        rows.rough.push(RoughRow {
            mu: 0.5,
            ra,
            rb,
            ka,
            kb,
            tw,
            inv_tw: 1.0 / tw,
            ..RoughRow::default()
        });
    }
    rows.colour();
    rows
}

/// A rough solve's passes in colour order: the same impulses, velocities and spins,
/// bit for bit, on one thread and on two.
#[test]
fn rough_coloured_passes_are_the_same_on_two_threads() {
    let bits = |r: &ContactRows| {
        (r.rows.iter().zip(&r.rough))
            .flat_map(|(r, q)| [r.acc, q.tangent])
            .chain(r.bodies.iter().flat_map(|b| [b.vel.x, b.vel.y, b.omega]))
            .map(f64::to_bits)
            .collect::<Vec<_>>()
    };
    let mut one = with(Arc::new(Serial), roughen(stack(400, 11)));
    let mut two = with(Arc::new(Two), roughen(stack(400, 11)));
    assert!(one.rows.len() >= ROUGH_COLOURED_MIN_ROWS && one.coloured());
    let n1 = one.passes_until(4, 300, 0.01, 1.0);
    assert_eq!(n1, two.passes_until(4, 300, 0.01, 1.0));
    assert!((5..300).contains(&n1), "{n1} passes");
    assert_eq!(bits(&one), bits(&two));
    // Friction acted: tangential impulses within their cones, some at the cone.
    let cone = |r: &Row, q: &RoughRow| q.tangent.abs() <= q.mu * r.acc * (1.0 + 1e-12);
    assert!(one.rows.iter().zip(&one.rough).all(|(r, q)| cone(r, q)));
    let sliding = (one.rows.iter().zip(&one.rough))
        .filter(|(r, q)| r.acc > 0.0 && q.tangent.abs() >= q.mu * r.acc * (1.0 - 1e-9))
        .count();
    assert!(sliding > 0, "no contact at its friction cone");
    one.passes(7, 1.0);
    two.passes(7, 1.0);
    assert_eq!(bits(&one), bits(&two));
}

/// Discs of different masses and radii falling onto a rough floor (μ 0.4) at about
/// 1 unit/s while sliding sideways at up to ±2.5, one row each, in colour order on two
/// threads: every disc stops falling, and its sideways velocity and spin are the
/// closed form's. A disc's tangential inverse mass at its rim is 3 / m (1 / m for its
/// centre, r² · 2 / (m r²) for its spin), so the friction impulse that stops the slip
/// is m v / 3: within the cone (|v| ≤ 3 μ vn) the disc rolls on at 2/3 of its speed,
/// else it slides on at |v| − μ vn; either way its rim turns at twice the speed lost.
#[test]
fn coloured_rough_passes_match_discs_on_a_rough_floor() {
    let (n, mu) = (5000, 0.4);
    let mut rows = ContactRows::default();
    rows.bodies.push(RowBody::default());
    let mut seed = 5u64;
    let mut given = Vec::new();
    for _ in 0..n {
        let mut rnd = || crate::scenes::SplitMix64::next_f64(&mut seed);
        let (mass, radius) = (0.5 + 1.5 * rnd(), 0.3 + rnd());
        let (vn, vt) = (0.95 + 0.1 * rnd(), 5.0 * (rnd() - 0.5));
        let (w, k) = (1.0 / mass, 2.0 / (mass * radius * radius));
        let s = rows.bodies.len() as u32;
        rows.bodies.push(RowBody {
            vel: DVec2::new(vt, -vn),
            inv_mass: w,
            omega: 0.0,
        });
        rows.rows.push(Row {
            a: 0,
            b: s,
            normal: DVec2::Y,
            allowed: 0.0,
            acc: 0.0,
            inv_w: mass,
        });
        let tw = crate::friction::tangent_inverse_mass(0.0, 0.0, 0.0, w, k, radius);
        rows.rough.push(RoughRow {
            mu,
            rb: radius,
            kb: k,
            tw,
            inv_tw: 1.0 / tw,
            ..RoughRow::default()
        });
        given.push((vn, vt, radius));
    }
    rows.colour();
    assert!(rows.coloured());
    let mut rows = with(Arc::new(Two), rows);
    assert_eq!(rows.passes_until(4, 100, 1e-12, 1.0), 4);
    let (mut rolling, mut sliding) = (0, 0);
    for (body, &(vn, vt, r)) in rows.bodies[1..].iter().zip(&given) {
        let expected = if vt.abs() <= 3.0 * mu * vn {
            rolling += 1;
            vt * 2.0 / 3.0
        } else {
            sliding += 1;
            vt - mu * vn * vt.signum()
        };
        assert!(body.vel.y.abs() < 1e-12, "{:?}", body.vel);
        assert!(
            (body.vel.x - expected).abs() < 1e-12,
            "{} against {expected}",
            body.vel.x
        );
        let rim = (body.omega * r).abs();
        assert!(
            (rim - 2.0 * (vt - body.vel.x).abs()).abs() < 1e-12,
            "rim {rim}"
        );
    }
    assert!(
        rolling > 1000 && sliding > 1000,
        "{rolling} rolling, {sliding} sliding"
    );
}

/// 2000 columns of 5 bodies of different masses falling onto a floor at about
/// 1 unit/s: every body stops, and each column's floor impulse is the column's
/// momentum, Σ m v.
#[test]
fn coloured_passes_stop_columns_on_a_floor() {
    let (columns, high) = (2000, 5);
    let mut rows = ContactRows::default();
    rows.bodies.push(RowBody::default());
    let mut seed = 11u64;
    let mut momentum = vec![0.0; columns];
    for m in &mut momentum {
        for y in 0..high {
            let mut rnd = || crate::scenes::SplitMix64::next_f64(&mut seed);
            let (mass, speed) = (0.5 + 1.5 * rnd(), 0.95 + 0.1 * rnd());
            let s = rows.bodies.len() as u32;
            *m += mass * speed;
            rows.bodies.push(RowBody {
                vel: DVec2::new(0.0, -speed),
                inv_mass: 1.0 / mass,
                omega: 0.0,
            });
            let below = if y == 0 { 0 } else { s - 1 };
            let w = rows.bodies[below as usize].inv_mass + 1.0 / mass;
            rows.rows.push(Row {
                a: below,
                b: s,
                normal: DVec2::Y,
                allowed: 0.0,
                acc: 0.0,
                inv_w: 1.0 / w,
            });
        }
    }
    rows.colour();
    assert!(rows.coloured());
    let mut rows = with(Arc::new(Two), rows);
    let n = rows.passes_until(4, 1000, 1e-12, 1.0);
    assert!(n < 1000, "{n} passes");
    for b in &rows.bodies[1..] {
        assert!(b.vel.length() < 1e-9, "{:?}", b.vel);
    }
    for (x, m) in momentum.iter().enumerate() {
        let floor = rows.rows[x * high].acc;
        assert!(
            (floor - m).abs() < 1e-9 * m,
            "column {x}: {floor} against {m}"
        );
    }
}

/// The solver's memory report counts its rows and, after a pass in colour order, the
/// colours' shared copies of them (`Simulation::heap_bytes`, "solver rows").
#[test]
fn heap_bytes_count_the_rows_and_their_shared_copies() {
    use std::mem::size_of;
    let mut rows = with(Arc::new(Two), roughen(stack(400, 11)));
    let n = rows.rows.len();
    let before = rows.heap_bytes();
    assert!(before >= n * (size_of::<Row>() + size_of::<RoughRow>()));
    rows.passes(1, 1.0);
    let shared = n * (size_of::<SharedRow>() + size_of::<SharedRough>());
    let after = rows.heap_bytes();
    assert!(
        after >= before + shared,
        "{before} → {after} bytes for {n} rows"
    );
}
