//! The time of impact of a parabolic relative motion (a flying body against a static or
//! straight-moving circle) against a high-precision reference, on 10⁵ random cases:
//! random throws, throws built backwards from a known contact, and near-grazes.
//!
//! The reference evaluates the gap `|d + w t + ½ a t²|² − σ²` in double-double
//! arithmetic (about 32 digits), scans the interval densely, refines every dip of the
//! scan to its minimum, and bisects the first sign change to the last bit of `t`.

use circle_collide_core::parabolic_toi::time_of_impact_accelerated;
use circle_collide_core::scenes::SplitMix64;
use glam::DVec2;

/// A double-double number `hi + lo`.
#[derive(Clone, Copy)]
struct Dd(f64, f64);

fn two_sum(a: f64, b: f64) -> Dd {
    let s = a + b;
    let v = s - a;
    Dd(s, (a - (s - v)) + (b - v))
}

fn two_prod(a: f64, b: f64) -> Dd {
    let p = a * b;
    Dd(p, a.mul_add(b, -p))
}

impl Dd {
    fn add(self, o: Dd) -> Dd {
        let s = two_sum(self.0, o.0);
        let lo = s.1 + self.1 + o.1;
        two_sum(s.0, lo)
    }
    fn mul(self, o: Dd) -> Dd {
        let p = two_prod(self.0, o.0);
        let lo = p.1 + self.0 * o.1 + self.1 * o.0;
        two_sum(p.0, lo)
    }
    fn value(self) -> f64 {
        self.0 + self.1
    }
}

/// The gap `|P(t)|² − σ²` in double-double.
fn gap(d: DVec2, w: DVec2, a: DVec2, sigma: f64, t: f64) -> f64 {
    let tt = two_prod(t, t);
    let axis =
        |d: f64, w: f64, a: f64| Dd(d, 0.0).add(two_prod(w, t)).add(tt.mul(Dd(0.5 * a, 0.0)));
    let (x, y) = (axis(d.x, w.x, a.x), axis(d.y, w.y, a.y));
    x.mul(x)
        .add(y.mul(y))
        .add(two_prod(sigma, sigma).mul(Dd(-1.0, 0.0)))
        .value()
}

/// The first root of the gap in `[0, horizon]`, by the reference method: the slope of
/// the gap (`2 P·P′`, a cubic) is sampled densely; each of its sign changes from − to +
/// brackets a minimum of the gap, refined by golden section on the double-double gap; the
/// first stretch that reaches zero (at a minimum or at the end) is bisected.
fn reference(d: DVec2, w: DVec2, a: DVec2, sigma: f64, horizon: f64) -> Option<f64> {
    const SAMPLES: usize = 4096;
    let f = |t: f64| gap(d, w, a, sigma, t);
    let slope = |t: f64| (d + w * t + a * (0.5 * t * t)).dot(w + a * t);
    let at = |k: usize| horizon * k as f64 / SAMPLES as f64;
    let bisect = |mut pos: f64, mut neg: f64| {
        for _ in 0..200 {
            let mid = 0.5 * (pos + neg);
            if mid == pos || mid == neg {
                break;
            }
            if f(mid) > 0.0 { pos = mid } else { neg = mid }
        }
        neg
    };
    let mut from = 0.0; // start of the current stretch, where the gap is positive
    let mut before = slope(0.0);
    for k in 1..=SAMPLES {
        let t = at(k);
        let now = slope(t);
        if before < 0.0 && now >= 0.0 {
            let (mut lo, mut hi) = (at(k - 1), t);
            for _ in 0..100 {
                let (m1, m2) = (lo + 0.382 * (hi - lo), lo + 0.618 * (hi - lo));
                if f(m1) < f(m2) { hi = m2 } else { lo = m1 }
            }
            let t_min = 0.5 * (lo + hi);
            if f(t_min) <= 0.0 {
                return Some(bisect(from, t_min));
            }
            from = t_min;
        }
        before = now;
    }
    (f(horizon) <= 0.0).then(|| bisect(from, horizon))
}

fn unit(rng: &mut SplitMix64) -> DVec2 {
    DVec2::from_angle(rng.next_unit() * std::f64::consts::TAU)
}

/// Worst disagreements seen, by kind of case.
#[derive(Default, Debug)]
struct Worst {
    cases: usize,
    hits: usize,
    /// Largest |t − t_ref| / max(t_ref, 1e-3) on clean hits.
    relative_error: f64,
    /// Largest |t − t_ref| on near-grazes, where the root is ill-conditioned.
    graze_error: f64,
    /// Grazes (the distance's minimum within rounding of σ) the solver counted as a
    /// touch and the reference as a near miss: checked to be within rounding.
    found_beyond_scan: usize,
    /// Touches of the reference the solver called misses (within rounding of a graze).
    missed_grazes: usize,
}

#[test]
fn parabolic_time_of_impact_matches_a_high_precision_reference() {
    let mut rng = SplitMix64(2024);
    let mut worst = [Worst::default(), Worst::default(), Worst::default()];
    let mut case = 0;
    while case < 100_000 {
        let mode = case % 3;
        let sigma = 0.5 + 2.5 * rng.next_unit();
        let horizon = 0.02 + 0.98 * rng.next_unit();
        let a = unit(&mut rng) * (1.0 + 49.0 * rng.next_unit());
        let (d, w) = match mode {
            // Random throws, most of which miss.
            0 => {
                let d = unit(&mut rng) * (sigma + 10.0 * rng.next_unit());
                (d, unit(&mut rng) * 30.0 * rng.next_unit())
            }
            // Built backwards from a contact at t* with normal n, closing there.
            1 => {
                let (t_star, n) = (horizon * rng.next_unit(), unit(&mut rng));
                let w = unit(&mut rng) * 30.0 * rng.next_unit();
                if (w + a * t_star).dot(n) >= 0.0 {
                    continue;
                }
                (n * sigma - w * t_star - a * (0.5 * t_star * t_star), w)
            }
            // A graze at t*: the relative velocity is tangent there and the path bends
            // less than the circle; moved in or out by a tiny fraction of σ.
            _ => {
                let (t_star, n) = (horizon * rng.next_unit(), unit(&mut rng));
                let speed = 2.0 + 28.0 * rng.next_unit();
                let tangent = n.perp() * speed;
                if a.perp_dot(tangent).abs() / speed.powi(3) >= 0.9 / sigma {
                    continue;
                }
                let w = tangent - a * t_star;
                let offset =
                    (2.0 * rng.next_unit() - 1.0) * 10f64.powf(-12.0 + 6.0 * rng.next_unit());
                let d = n * sigma * (1.0 + offset) - w * t_star - a * (0.5 * t_star * t_star);
                (d, w)
            }
        };
        if d.length() <= sigma * (1.0 + 1e-9) {
            continue;
        }
        case += 1;
        let kind = &mut worst[mode];
        kind.cases += 1;
        let got = time_of_impact_accelerated(d, w, a, sigma, horizon);
        let want = reference(d, w, a, sigma, horizon);
        // Rounding of the gap: a few units in the last place of its terms, which grow
        // with the path's extent.
        let extent = d.length() + w.length() * horizon + 0.5 * a.length() * horizon * horizon;
        let scale = sigma * sigma + extent * extent;
        // A touch within rounding of a graze, which the reference may call a near miss.
        let grazes = |t: f64| gap(d, w, a, sigma, t) <= 64.0 * f64::EPSILON * scale;
        match (got, want) {
            (Some(t), Some(t_ref)) if t < t_ref - 1e-9 * t_ref.max(1e-3) && grazes(t) => {
                kind.found_beyond_scan += 1;
            }
            (Some(t), Some(t_ref)) => {
                kind.hits += 1;
                let error = (t - t_ref).abs();
                if mode == 2 {
                    kind.graze_error = kind.graze_error.max(error);
                    // Never later than the true first touch by more than the graze's
                    // own ill-conditioning, and a real touch where it says.
                    assert!(error < 1e-5, "graze {d} {w} {a} {sigma}: {t} vs {t_ref}");
                } else {
                    let relative = error / t_ref.max(1e-3);
                    kind.relative_error = kind.relative_error.max(relative);
                    assert!(
                        relative < 1e-9,
                        "{d} {w} {a} σ {sigma} horizon {horizon}: {t} vs reference {t_ref}"
                    );
                }
            }
            (None, Some(t_ref)) => {
                // A miss: allowed only for a touch within rounding of a graze.
                let depth = -gap(d, w, a, sigma, t_ref + 0.0);
                let dip = (0..=64)
                    .map(|k| gap(d, w, a, sigma, t_ref + (horizon - t_ref) * k as f64 / 64.0))
                    .fold(f64::INFINITY, f64::min);
                assert!(
                    depth.max(-dip) <= 64.0 * f64::EPSILON * scale,
                    "missed: {d} {w} {a} σ {sigma} horizon {horizon}: reference {t_ref}"
                );
                kind.missed_grazes += 1;
            }
            (Some(t), None) => {
                // Found where the scan found nothing: it must be a touch.
                assert!(
                    grazes(t),
                    "phantom: {d} {w} {a} σ {sigma} horizon {horizon}: {t}"
                );
                kind.found_beyond_scan += 1;
            }
            (None, None) => {}
        }
    }
    eprintln!("random throws: {:?}", worst[0]);
    eprintln!("built hits:    {:?}", worst[1]);
    eprintln!("near-grazes:   {:?}", worst[2]);
    assert!(
        worst[1].hits == worst[1].cases,
        "every built contact is found"
    );
    assert!(worst[0].hits > 1000 && worst[2].hits > 1000, "{worst:?}");
}
