//! Circle–segment time of impact against a reference found by bisection on the exact
//! distance, on 10⁵ random cases: interior hits, end points, grazing and parallel
//! motion, straight and under gravity.

mod common;

use circle_collide_core::Segment;
use circle_collide_core::flight;
use common::Rng;
use glam::DVec2;

/// Gap between the circle and the segment at time `t` (negative = overlapping).
fn gap(s: &Segment, p: DVec2, v: DVec2, g: DVec2, r: f64, t: f64) -> f64 {
    let at = flight::position(p, v, g, t);
    (s.closest_point(at) - at).length() - r
}

/// The first time in `[0, horizon]` the gap drops to 0, found by sampling `samples`
/// times and bisecting the first bracket to the last bit; `None` if no sample overlaps.
fn reference(s: &Segment, p: DVec2, v: DVec2, g: DVec2, r: f64, horizon: f64) -> Option<f64> {
    const SAMPLES: usize = 4096;
    let mut lo = 0.0;
    for k in 1..=SAMPLES {
        let t = horizon * k as f64 / SAMPLES as f64;
        if gap(s, p, v, g, r, t) < 0.0 {
            let mut hi = t;
            for _ in 0..200 {
                let mid = 0.5 * (lo + hi);
                if mid <= lo || mid >= hi {
                    break;
                }
                if gap(s, p, v, g, r, mid) < 0.0 {
                    hi = mid;
                } else {
                    lo = mid;
                }
            }
            return Some(hi);
        }
        lo = t;
    }
    None
}

#[derive(Default, Debug)]
struct Tally {
    hits: usize,
    misses: usize,
    grazing: usize,
    worst_error: f64,
}

/// One kind of case: `make` gives (segment, p, v, g, r); every hit is compared with the
/// reference, every miss checked by it.
fn check(
    cases: usize,
    seed: u64,
    mut make: impl FnMut(&mut Rng) -> (Segment, DVec2, DVec2, DVec2, f64),
) -> Tally {
    let mut rng = Rng(seed);
    let mut tally = Tally::default();
    let horizon = 1.0;
    for case in 0..cases {
        let (s, p, v, g, r) = make(&mut rng);
        if gap(&s, p, v, g, r, 0.0) <= 0.0 {
            continue; // starts touching: not an impact case
        }
        let got = s.time_of_impact(p, v, g, r, horizon);
        let want = reference(&s, p, v, g, r, horizon);
        // Closest approach over the horizon: a pair that passes within a hair of touching
        // is grazing, where either answer is right.
        let min_gap = (0..=4096)
            .map(|k| gap(&s, p, v, g, r, horizon * k as f64 / 4096.0))
            .fold(f64::INFINITY, f64::min);
        let scale = r + (s.b - s.a).length() + v.length() + g.length();
        if min_gap.abs() < 1e-9 * scale {
            tally.grazing += 1;
            if let Some(t) = got {
                assert!(
                    gap(&s, p, v, g, r, t).abs() < 1e-9 * scale,
                    "case {case}: grazing touch off"
                );
            }
            continue;
        }
        match (got, want) {
            (Some(t), Some(w)) => {
                tally.hits += 1;
                let err = (t - w).abs();
                tally.worst_error = tally.worst_error.max(err);
                assert!(
                    err < 1e-9,
                    "case {case}: {s:?} p {p} v {v} g {g} r {r}: {t} vs {w}"
                );
            }
            (None, None) => tally.misses += 1,
            (got, want) => {
                panic!("case {case}: {s:?} p {p} v {v} g {g} r {r}: {got:?} vs {want:?}")
            }
        }
    }
    tally
}

/// Any segment, any circle, any straight path: 40,000 cases.
#[test]
fn random_straight_paths() {
    let t = check(40_000, 1, |rng| {
        let a = rng.vec(5.0);
        let s = Segment::new(a, a + rng.vec(5.0));
        let (p, r) = (rng.vec(10.0), rng.range(0.05, 2.0));
        // Aimed near the segment half the time.
        let v = if rng.unit() < 0.5 {
            (s.a.lerp(s.b, rng.range(-0.2, 1.2)) - p) * rng.range(0.5, 2.0)
        } else {
            rng.vec(20.0)
        };
        (s, p, v, DVec2::ZERO, r)
    });
    println!("straight: {t:?}");
    assert!(t.hits > 10_000 && t.misses > 5_000, "{t:?}");
}

/// Circles aimed exactly at an end point along the segment's line, and paths parallel
/// to the segment at a distance around the radius (grazing and just missing).
#[test]
fn end_points_grazing_and_parallel() {
    let t = check(30_000, 2, |rng| {
        let a = rng.vec(5.0);
        let dir = DVec2::from_angle(rng.range(0.0, std::f64::consts::TAU));
        let len = rng.range(0.1, 6.0);
        let s = Segment::new(a, a + dir * len);
        let r = rng.range(0.05, 2.0);
        match rng.unit() {
            // Along the line towards an end point.
            x if x < 0.3 => {
                let p = s.b + dir * rng.range(r + 0.01, 10.0);
                (s, p, -dir * rng.range(1.0, 30.0), DVec2::ZERO, r)
            }
            // Parallel to the segment, offset by about the radius.
            x if x < 0.7 => {
                // A third exactly at the radius: a tangent slide along the segment.
                let offset = if rng.unit() < 0.33 {
                    r
                } else {
                    r * rng.range(0.9, 1.1)
                };
                let p = s.a - dir * rng.range(0.5, 5.0) + dir.perp() * offset;
                (s, p, dir * rng.range(1.0, 30.0), DVec2::ZERO, r)
            }
            // Towards a point beside an end point, passing at about the radius.
            _ => {
                let aim = s.b + dir.perp() * r * rng.range(0.9, 1.1);
                let p = aim + rng.vec(5.0);
                (s, p, (aim - p) * rng.range(0.5, 2.0), DVec2::ZERO, r)
            }
        }
    });
    println!("end points, grazing, parallel: {t:?}");
    assert!(
        t.hits > 5_000 && t.misses > 1_000 && t.grazing > 1_000,
        "{t:?}"
    );
}

/// Parabolic paths under gravity (the plugin's flight): 30,000 cases.
#[test]
fn random_paths_under_gravity() {
    let t = check(30_000, 3, |rng| {
        let a = rng.vec(5.0);
        let s = Segment::new(a, a + rng.vec(5.0));
        let (p, r) = (rng.vec(10.0), rng.range(0.05, 2.0));
        let g = DVec2::new(rng.range(-2.0, 2.0), -rng.range(5.0, 40.0));
        // Thrown at the segment half the time.
        let v = if rng.unit() < 0.5 {
            (s.a.lerp(s.b, rng.range(-0.2, 1.2)) - p) * rng.range(0.8, 2.0) - g * 0.5
        } else {
            rng.vec(15.0)
        };
        (s, p, v, g, r)
    });
    println!("gravity: {t:?}");
    assert!(t.hits > 5_000 && t.misses > 5_000, "{t:?}");
}
