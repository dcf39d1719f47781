//! Friction and rotation against closed forms: rough impacts (sticking, sliding,
//! perfectly rough), the disk that slides into rolling, rolling resistance, energy never
//! created, and the rough gas's equipartition.

mod common;

use circle_collide_core::friction::{slip, tangent};
use circle_collide_core::{Arena, BodyDesc, Other, Simulation, StepConfig, scenes};
use common::sim_with;
use glam::DVec2;

const G: DVec2 = DVec2::new(0.0, -9.81);

/// Two equal solid disks (radius 0.5, mass 1): A moving at `v` toward B at rest, B
/// offset so that they meet with the normal at 30° to A's motion.
fn oblique(mu: f64, spin_a: f64) -> [BodyDesc; 2] {
    let (r, sigma) = (0.5, 1.0);
    let a = BodyDesc::new(DVec2::ZERO, r, 1.0)
        .with_velocity(DVec2::new(6.0, 0.0))
        .with_angular_velocity(spin_a)
        .with_friction(mu);
    let b = BodyDesc::new(DVec2::new(2.0, 0.5 * sigma), r, 1.0).with_friction(mu);
    [a, b]
}

/// One step of `bodies` with `config`; returns the simulation.
fn one_step(bodies: &[BodyDesc], config: StepConfig) -> Simulation {
    let mut sim = sim_with(bodies, config);
    sim.step(0.5);
    sim
}

/// State of body `i`: velocity and angular velocity.
fn state(sim: &Simulation, i: usize) -> (DVec2, f64) {
    (sim.bodies().velocity(i), sim.bodies().angular_velocity(i))
}

/// Checks the laws an impact between bodies 0 and 1 through their contact point obeys:
/// linear momentum, each body's angular momentum about the contact point, the normal
/// law `u'n = −e un`; returns (slip before, slip after, impact).
fn check_impact_laws(before: &[BodyDesc; 2], sim: &Simulation, e: f64) -> (f64, f64) {
    let impact = sim.impacts()[0];
    assert_eq!(impact.other, Other::Body(1));
    let (n, p, t) = (impact.normal, impact.point, impact.time);
    let (m, inertia) = (1.0, 0.5 * 0.25);
    let centre = |i: usize| before[i].position + before[i].velocity * t;
    let (v0, v1) = (before[0].velocity, before[1].velocity);
    let (w0, w1) = (before[0].angular_velocity, before[1].angular_velocity);
    let ((v0n, w0n), (v1n, w1n)) = (state(sim, 0), state(sim, 1));
    let tol = 1e-12 * 10.0;
    assert!(((v0n + v1n) - (v0 + v1)).length() < tol, "momentum");
    let about = |c: DVec2, v: DVec2, w: f64| inertia * w + m * (c - p).perp_dot(v);
    for (c, (v, w), (vn, wn)) in [
        (centre(0), (v0, w0), (v0n, w0n)),
        (centre(1), (v1, w1), (v1n, w1n)),
    ] {
        assert!(
            (about(c, vn, wn) - about(c, v, w)).abs() < tol,
            "angular momentum about the contact point"
        );
    }
    let un = (v1 - v0).dot(n);
    assert!(((v1n - v0n).dot(n) + e * un).abs() < tol, "normal law");
    let r = 0.5;
    (
        slip(v0, w0, r, v1, w1, r, n),
        slip(v0n, w0n, r, v1n, w1n, r, n),
    )
}

#[test]
fn an_oblique_impact_that_sticks_obeys_the_rough_disk_laws() {
    for (spin, e) in [(0.0, 1.0), (-7.0, 1.0), (-3.0, 0.5)] {
        let bodies = oblique(f64::INFINITY, spin);
        let config = StepConfig {
            restitution_combine: circle_collide_core::RestitutionCombine::Min,
            ..StepConfig::default()
        };
        let bodies = bodies.map(|b| b.with_restitution(e));
        let sim = one_step(&bodies, config.clone());
        let (before, after) = check_impact_laws(&bodies, &sim, e);
        assert!(before.abs() > 1.0, "a real slip to stop: {before}");
        assert!(after.abs() < 1e-12, "sticks: slip {after}");
        // The normal is 30° from the motion.
        let n = sim.impacts()[0].normal;
        assert!((n.y / n.x - (30f64).to_radians().tan()).abs() < 1e-12);
        // Perfectly rough (β = 1): the slip reverses and energy is kept at e = 1.
        let rough = StepConfig {
            tangential_restitution: 1.0,
            ..config
        };
        let sim = one_step(&bodies, rough);
        let (before, after) = check_impact_laws(&bodies, &sim, e);
        assert!((after + before).abs() < 1e-12, "slip {before} → {after}");
        if e == 1.0 {
            let energy =
                |s: &Simulation| s.bodies().kinetic_energy() + s.bodies().rotational_energy();
            let start = 0.5 * 36.0 + 0.5 * 0.125 * spin * spin;
            assert!((energy(&sim) - start).abs() < 1e-12 * start);
        }
    }
}

#[test]
fn an_oblique_impact_that_slides_takes_coulombs_impulse() {
    // Sticking needs |Jt| = slip / W = 3 / 6; Coulomb allows μ Jn = 0.05 × 5.2.
    let mu = 0.05;
    let bodies = oblique(mu, 0.0);
    let sim = one_step(&bodies, StepConfig::default());
    let (before, after) = check_impact_laws(&bodies, &sim, 1.0);
    let impact = sim.impacts()[0];
    assert!(
        (impact.tangent_impulse.abs() - mu * impact.impulse).abs() < 1e-12,
        "|Jt| = μ Jn: {} vs {}",
        impact.tangent_impulse,
        impact.impulse
    );
    assert!(
        before * after > 0.0 && after.abs() < before.abs(),
        "still slipping, less"
    );
    // Closed form: the slip changes by Jt W, with W = 2 w + 2 r² k = 2 + 2 × 0.25 × 8.
    assert!((after - (before + impact.tangent_impulse * 6.0)).abs() < 1e-12);
}

#[test]
fn smooth_bodies_give_exactly_the_frictionless_impact_and_keep_their_spin() {
    let smooth = oblique(0.0, 0.0);
    let spinning = oblique(0.0, 5.0);
    let a = one_step(&smooth, StepConfig::default());
    let b = one_step(&spinning, StepConfig::default());
    for i in 0..2 {
        assert_eq!(
            a.bodies().velocity(i),
            b.bodies().velocity(i),
            "bit for bit"
        );
        assert_eq!(a.bodies().position(i), b.bodies().position(i));
    }
    assert_eq!(b.bodies().angular_velocity(0), 5.0);
    assert_eq!(b.impacts()[0].tangent_impulse, 0.0);
    // The angle turned over the step is ω dt.
    assert!((b.bodies().angle(0) - 2.5).abs() < 1e-15);
}

#[test]
fn a_ball_hitting_a_rough_floor_leaves_rolling_at_two_thirds() {
    let arena = Arena::new(DVec2::ZERO, DVec2::splat(20.0)).with_friction(f64::INFINITY);
    let config = StepConfig {
        arena: Some(arena),
        ..StepConfig::default()
    };
    let ball = BodyDesc::new(DVec2::new(5.0, 1.5), 0.5, 1.0).with_velocity(DVec2::new(3.0, -4.0));
    let sim = one_step(&[ball], config);
    let impact = sim.impacts()[0];
    assert_eq!(impact.other, Other::Wall(circle_collide_core::Wall::Bottom));
    assert!((impact.time - 0.25).abs() < 1e-12);
    let (v, w) = state(&sim, 0);
    assert!((v - DVec2::new(2.0, 4.0)).length() < 1e-12, "{v}");
    assert!((w - (-4.0)).abs() < 1e-12, "rolls: ω = −v/r, got {w}");
    // It turned only after the impact: −4 rad/s for 0.25 s.
    assert!((sim.bodies().angle(0) - (-1.0)).abs() < 1e-12);
}

/// A ball on a floor, friction `mu`, given speed `v0` and spin `omega`.
fn on_floor(mu: f64, rolling: f64, v0: f64, omega: f64) -> Simulation {
    let config = StepConfig {
        gravity: G,
        arena: Some(Arena::new(DVec2::ZERO, DVec2::new(1000.0, 20.0))),
        ..StepConfig::default()
    };
    let ball = BodyDesc::new(DVec2::new(10.0, 0.5), 0.5, 1.0)
        .with_velocity(DVec2::new(v0, 0.0))
        .with_angular_velocity(omega)
        .with_friction(mu)
        .with_rolling_resistance(rolling)
        .with_restitution(0.0);
    sim_with(&[ball], config)
}

#[test]
fn a_disk_sliding_onto_a_floor_ends_rolling_at_two_thirds_of_its_speed() {
    for (mu, v0) in [(0.3, 6.0), (0.1, 2.5), (1.0, 9.0)] {
        let mut sim = on_floor(mu, 0.0, v0, 0.0);
        let expected_slide = v0 / (3.0 * mu * 9.81);
        let mut slid_for = None;
        for step in 1..=600 {
            sim.step(scenes::DT);
            let (v, w) = state(&sim, 0);
            if slid_for.is_none() && (v.x + w * 0.5).abs() < 1e-9 {
                slid_for = Some(step as f64 * scenes::DT);
            }
            if slid_for.is_none() {
                // Coulomb: the speed falls at μ g while it slides.
                let expected = v0 - mu * 9.81 * step as f64 * scenes::DT;
                assert!(
                    (v.x - expected).abs() < 1e-9,
                    "step {step}: {} vs {expected}",
                    v.x
                );
            }
        }
        let slid_for = slid_for.expect("it rolls");
        assert!(
            (slid_for - expected_slide).abs() <= scenes::DT,
            "slid {slid_for} s, Coulomb says {expected_slide}"
        );
        let (v, w) = state(&sim, 0);
        assert!(
            (v.x - 2.0 / 3.0 * v0).abs() < 1e-9 * v0,
            "μ {mu}: {} vs {}",
            v.x,
            2.0 * v0 / 3.0
        );
        assert!(v.y.abs() < 1e-12 && (w + v.x / 0.5).abs() < 1e-9);
        assert!(
            (sim.bodies().position(0).y - 0.5).abs() < 0.005,
            "on the floor"
        );
    }
}

#[test]
fn a_rolling_ball_slows_down_only_with_rolling_resistance() {
    let mut free = on_floor(0.5, 0.0, 4.0, -8.0);
    for _ in 0..600 {
        free.step(scenes::DT);
    }
    let (v, w) = state(&free, 0);
    assert!(
        (v.x - 4.0).abs() < 1e-9 && (w + 8.0).abs() < 1e-9,
        "{v} {w}"
    );
    assert!((free.bodies().position(0).x - 50.0).abs() < 1e-6);

    // Rolling resistance c: a solid disk rolling without slip decelerates at (2/3) c g.
    let c = 0.05;
    let mut resisted = on_floor(0.5, c, 4.0, -8.0);
    for _ in 0..60 {
        resisted.step(scenes::DT);
    }
    let (v, w) = state(&resisted, 0);
    let expected = 4.0 - 2.0 / 3.0 * c * 9.81;
    assert!((v.x - expected).abs() < 1e-3 * 4.0, "{} vs {expected}", v.x);
    assert!((v.x + 0.5 * w).abs() < 1e-6, "still rolling without slip");
    // It stops after 4 / (2/3 c g) = 12.2 s, and stays.
    for _ in 0..900 {
        resisted.step(scenes::DT);
    }
    let (v, w) = state(&resisted, 0);
    assert!(v.length() < 1e-9 && w.abs() < 1e-9, "stopped: {v} {w}");
    let stop = resisted.bodies().position(0).x - 10.0;
    let expected = 4.0 * 4.0 / (2.0 * 2.0 / 3.0 * c * 9.81);
    assert!(
        (stop - expected).abs() < 0.01 * expected,
        "rolled {stop}, expected {expected}"
    );
}

#[test]
fn no_rough_impact_ever_adds_energy() {
    let mut rng = 0x5eed_u64;
    let mut next = || scenes::SplitMix64::next_f64(&mut rng);
    for case in 0..2000 {
        let (r0, r1) = (0.2 + next(), 0.2 + next());
        let (m0, m1) = (0.1 + 3.0 * next(), 0.1 + 3.0 * next());
        let angle = std::f64::consts::TAU * next();
        let n = DVec2::from_angle(angle);
        // Beyond the slop, hit within 0.03 s: sideways drift cannot make them miss.
        let gap = 0.02 + 0.01 * next();
        // Sliding by at most 1.5 × the closing speed: the line of approach passes within
        // 0.84 σ of the other centre, so they meet.
        let closing = 1.0 + 5.0 * next();
        let a = BodyDesc::new(DVec2::ZERO, r0, m0)
            .with_velocity(n * closing + tangent(n) * closing * (2.0 * next() - 1.0))
            .with_angular_velocity(20.0 * next() - 10.0)
            .with_friction(2.0 * next())
            .with_inertia(m0 * r0 * r0 * (0.2 + 0.8 * next()))
            .with_restitution(next());
        let b = BodyDesc::new(n * (r0 + r1 + gap), r1, m1)
            .with_velocity(tangent(n) * closing * (next() - 0.5))
            .with_angular_velocity(20.0 * next() - 10.0)
            .with_friction(2.0 * next())
            .with_restitution(next());
        let config = StepConfig {
            tangential_restitution: 2.0 * next() - 1.0,
            ..StepConfig::default()
        };
        let sim = sim_with(&[a, b], config.clone());
        let before = sim.bodies().kinetic_energy() + sim.bodies().rotational_energy();
        let mut sim = sim;
        sim.step(1.0);
        assert_eq!(sim.impacts().len(), 1, "case {case}");
        let after = sim.bodies().kinetic_energy() + sim.bodies().rotational_energy();
        assert!(
            after <= before * (1.0 + 1e-13),
            "case {case}: {before} → {after}"
        );
    }
}

#[test]
fn a_perfectly_rough_elastic_gas_keeps_its_energy_and_shares_it_equally() {
    for jitter_seed in [0u64, 1] {
        let mut scene = scenes::gas(400, 0.3, 10.0);
        let mut rng = jitter_seed;
        for b in &mut scene.bodies {
            b.friction = f64::INFINITY;
            if jitter_seed == 1 {
                b.position += DVec2::new(
                    scenes::SplitMix64::next_f64(&mut rng) - 0.5,
                    scenes::SplitMix64::next_f64(&mut rng) - 0.5,
                ) * 0.05;
            }
        }
        scene.config.tangential_restitution = 1.0;
        let mut sim = scene.simulation();
        let total = |s: &Simulation| s.bodies().kinetic_energy() + s.bodies().rotational_energy();
        let e0 = total(&sim);
        assert_eq!(sim.bodies().rotational_energy(), 0.0);
        let (mut ratio_sum, mut samples) = (0.0, 0);
        for step in 0..900 {
            sim.step(scenes::DT);
            if step >= 300 {
                ratio_sum += sim.bodies().rotational_energy() / sim.bodies().kinetic_energy();
                samples += 1;
            }
        }
        let drift = (total(&sim) / e0 - 1.0).abs();
        assert!(drift < 1e-10, "energy drift {drift:e}");
        let ratio = ratio_sum / samples as f64;
        eprintln!(
            "rough gas, jitter {jitter_seed}: rotational / translational {ratio:.4}, |ΔE|/E {drift:.1e}"
        );
        // Equipartition in 2D: one rotational degree of freedom for two translational.
        assert!(
            (ratio - 0.5).abs() < 0.05,
            "rotational / translational {ratio}"
        );
    }
}

#[test]
fn a_spinning_static_wheel_drags_what_hits_it() {
    // A ball (r, m 1) falls onto the top of a static wheel of radius R spinning at Ω
    // (counter-clockwise: its top surface moves at −Ω R along x). Sticking (μ ∞, β 0)
    // with W = 1/m + r²/(½ m r²) = 3/m: the ball leaves with −Ω R / 3 along x and spin
    // −2 Ω R / (3 r), its contact point then moving with the wheel's surface.
    let (r, big_r, omega) = (0.5, 2.0, 3.0);
    let wheel = BodyDesc::new(DVec2::ZERO, big_r, f64::INFINITY)
        .with_angular_velocity(omega)
        .with_friction(f64::INFINITY)
        .with_restitution(0.5);
    let ball = BodyDesc::new(DVec2::new(0.0, big_r + r + 1.0), r, 1.0)
        .with_velocity(DVec2::new(0.0, -5.0))
        .with_restitution(0.5);
    let sim = one_step(&[wheel, ball], StepConfig::default());
    assert_eq!(sim.impacts().len(), 1);
    let (v, w) = state(&sim, 1);
    assert!(
        (v - DVec2::new(-omega * big_r / 3.0, 2.5)).length() < 1e-12,
        "{v}"
    );
    assert!((w + 2.0 * omega * big_r / (3.0 * r)).abs() < 1e-12, "{w}");
    // The wheel is kinematic: its spin and place do not change.
    assert_eq!(state(&sim, 0), (DVec2::ZERO, omega));
}

/// A rough ball asleep in a cradle of two rough static wheels wakes when the wheels start
/// to turn (`set_angular_velocity`), and turns with them like a gear between two gears
/// (both clockwise: it spins counter-clockwise, in place). A spinning static body drags
/// what it touches, asleep or not: a pair of two infinite masses is never a candidate
/// pair, so before spinning static bodies woke sleepers the ball stayed still.
#[test]
fn a_ball_asleep_on_two_wheels_wakes_and_turns_when_they_turn() {
    let config = StepConfig {
        gravity: G,
        ..StepConfig::default()
    };
    let wheel = |x: f64| {
        BodyDesc::new(DVec2::new(x, 3.0), 0.5, f64::INFINITY)
            .with_friction(0.5)
            .with_restitution(0.0)
    };
    let ball = BodyDesc::new(DVec2::new(5.03, 3.85), 0.5, 1.0)
        .with_friction(0.5)
        .with_restitution(0.0);
    let mut sim = sim_with(&[wheel(4.4), wheel(5.6), ball], config);
    for _ in 0..240 {
        sim.step(scenes::DT);
    }
    assert_eq!(
        sim.stats().sleeping,
        1,
        "the ball fell asleep on the wheels"
    );
    sim.set_angular_velocity(0, -4.0);
    sim.set_angular_velocity(1, -4.0);
    for _ in 0..30 {
        sim.step(scenes::DT);
    }
    assert_eq!(sim.stats().sleeping, 0, "the ball woke");
    // Rolling without slip on both wheels (equal radii): ω = +4.
    let spin = sim.bodies().angular_velocity(2);
    assert!((spin - 4.0).abs() < 0.5, "the ball turns at {spin} rad/s");
}
