//! Property tests on random small worlds.

use circle_collide_core::{Arena, BodyDesc, Other, Simulation, StepConfig};
use glam::DVec2;
use proptest::prelude::*;

/// One body in its own cell of a 4 × 4 grid of side 2.5, so no two start overlapping.
fn body(cell: usize) -> impl Strategy<Value = BodyDesc> {
    let (cx, cy) = ((cell % 4) as f64 * 2.5, (cell / 4) as f64 * 2.5);
    (
        0.1f64..1.2,
        0.0f64..1.0,
        0.0f64..1.0,
        -20.0f64..20.0,
        -20.0f64..20.0,
        prop_oneof![9 => 0.1f64..10.0, 1 => Just(f64::INFINITY)],
        0.0f64..=1.0,
    )
        .prop_map(move |(r, fx, fy, vx, vy, m, e)| {
            let free = 2.5 - 2.0 * r;
            let p = DVec2::new(cx + r + fx * free, cy + r + fy * free);
            let v = if m.is_finite() {
                DVec2::new(vx, vy)
            } else {
                DVec2::ZERO
            };
            BodyDesc::new(p, r, m).with_velocity(v).with_restitution(e)
        })
}

fn world() -> impl Strategy<Value = (Vec<BodyDesc>, bool)> {
    (1usize..=16, any::<bool>())
        .prop_flat_map(|(n, walls)| ((0..n).map(body).collect::<Vec<_>>(), Just(walls)))
}

/// Pairs overlapping deeper than the slop, and circles sunk that deep into a wall, by
/// brute force; with the deepest pair overlap (a fraction of the smaller radius).
fn overlaps_beyond_slop(sim: &Simulation) -> (usize, f64) {
    let b = sim.bodies();
    let slop = sim.config.overlap_slop;
    let (p, r): (Vec<_>, Vec<_>) = (b.positions().collect(), b.radii().collect());
    let (mut count, mut worst) = (0, f64::MIN);
    for i in 0..p.len() {
        for j in i + 1..p.len() {
            let depth = (r[i] + r[j] - p[i].distance(p[j])) / r[i].min(r[j]);
            count += usize::from(
                depth > slop && ((b.inverse_mass(i) > 0.0) || (b.inverse_mass(j) > 0.0)),
            );
            worst = worst.max(depth);
        }
        if let Some(a) = sim.config.arena.filter(|_| b.inverse_mass(i) > 0.0) {
            let out = (a.min - p[i] + r[i]).max(p[i] + r[i] - a.max).max_element() / r[i];
            count += usize::from(out > slop);
        }
    }
    (count, worst)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn random_worlds_stay_finite_separate_and_never_gain_energy((bodies, walls) in world()) {
        let config = StepConfig {
            arena: walls.then(|| Arena { min: DVec2::ZERO, max: DVec2::splat(10.0), restitution: 1.0, friction: 0.0 }),
            ..StepConfig::default()
        };
        let mut sim = Simulation::new(config.clone());
        for b in &bodies {
            sim.add_body(*b).unwrap();
        }
        let closed = !walls && bodies.iter().all(|b| b.mass.is_finite());
        let scale: f64 = bodies.iter().filter(|b| b.mass.is_finite()).map(|b| b.mass * b.velocity.length()).sum::<f64>() + 1e-12;
        for _ in 0..60 {
            let (e0, p0) = (sim.bodies().kinetic_energy(), sim.bodies().momentum());
            sim.step(1.0 / 60.0);
            let s = *sim.stats();
            prop_assert!(sim.bodies().positions().chain(sim.bodies().velocities()).all(|v| v.is_finite()));
            prop_assert!(s.kinetic_energy <= e0 * (1.0 + 1e-9) + 1e-12, "energy rose: {} -> {}", e0, s.kinetic_energy);
            if closed {
                prop_assert!((s.momentum - p0).length() <= 1e-9 * scale, "momentum moved: {} -> {}", p0, s.momentum);
            }
            // Every step, fallbacks included, ends within the slop, or reports exactly
            // what a jam left (the push-out's work is bounded).
            let (deep, worst) = overlaps_beyond_slop(&sim);
            prop_assert_eq!(deep, s.overlaps_left, "deepest overlap {}", worst);
            for i in sim.impacts() {
                prop_assert!(i.time >= 0.0 && i.time <= 1.0 / 60.0 && i.impulse >= 0.0);
                if let Other::Body(j) = i.other {
                    prop_assert!(i.a < j);
                }
            }
        }
    }

    #[test]
    fn degenerate_input_never_panics_or_spreads_nan(
        raw in proptest::collection::vec(
            (prop_oneof![Just(f64::NAN), Just(f64::INFINITY), Just(0.0), -5.0f64..5.0],
             prop_oneof![Just(f64::NAN), Just(0.0), Just(-1.0), 0.01f64..2.0],
             prop_oneof![Just(f64::NAN), Just(f64::INFINITY), Just(1e9), -30.0f64..30.0],
             prop_oneof![Just(f64::NAN), Just(0.0), Just(-1.0), Just(f64::INFINITY), 0.1f64..5.0],
             prop_oneof![Just(f64::NAN), Just(-1.0), Just(3.0), 0.0f64..=1.0]),
            0..24),
        walls in any::<bool>(),
    ) {
        let config = StepConfig {
            arena: walls.then(|| Arena { min: DVec2::splat(-4.0), max: DVec2::splat(4.0), restitution: 0.5, friction: 0.0 }),
            gravity: DVec2::new(0.0, -9.81),
            ..StepConfig::default()
        };
        let mut sim = Simulation::new(config);
        for (x, r, v, m, e) in raw {
            // Several bodies share x = y: coincident centres are common.
            let _ = sim.add_body(BodyDesc { velocity: DVec2::new(v, -v), restitution: e, ..BodyDesc::new(DVec2::splat(x), r, m) });
        }
        for _ in 0..30 {
            sim.step(1.0 / 60.0);
            prop_assert!(sim.bodies().positions().chain(sim.bodies().velocities()).all(|v| v.is_finite()));
            prop_assert!(sim.stats().kinetic_energy.is_finite());
        }
    }
}
