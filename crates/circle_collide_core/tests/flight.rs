//! Exact flight under gravity: bodies move on parabolas inside the step, so bounces,
//! landings and energy are exact whatever the time of an impact within the step.

mod common;

use circle_collide_core::scenes::{self, DT, SplitMix64};
use circle_collide_core::{BodyDesc, Other, Simulation, Wall};
use common::sim_with;
use glam::DVec2;

const G: DVec2 = DVec2::new(0.0, -9.81);

/// Kinetic plus potential energy of the dynamic bodies.
fn energy(sim: &Simulation) -> f64 {
    sim.bodies().kinetic_energy() + sim.bodies().potential_energy(sim.config.gravity)
}

/// A ball bouncing on the floor at restitution 1 keeps its apex (`y + v_y² / 2g`, read
/// after every step) to 1e-6 relative over 10,000 bounces, dropped at rest, thrown
/// down, or thrown sideways between two walls, whatever the phase of each impact in the
/// step (the bounce period is no multiple of the step).
#[test]
fn an_elastic_ball_keeps_its_apex_over_ten_thousand_bounces() {
    let cases = [
        ("dropped", DVec2::new(5.0, 1.5), DVec2::ZERO),
        ("thrown down", DVec2::new(5.0, 1.5), DVec2::new(0.0, -3.7)),
        (
            "thrown sideways",
            DVec2::new(5.0, 1.5),
            DVec2::new(2.3, 0.4),
        ),
    ];
    for (name, p, v) in cases {
        let ball = BodyDesc::new(p, 0.5, 1.0).with_velocity(v);
        let mut sim = sim_with(&[ball], scenes::elastic_box_under_gravity(10.0, 50.0));
        let apex = |sim: &Simulation| {
            let b = sim.bodies();
            b.position(0).y + b.velocity(0).y.powi(2) / (2.0 * G.length())
        };
        let (apex0, speed_x) = (apex(&sim), v.x.abs());
        let (mut bounces, mut lowest, mut highest) = (0, f64::INFINITY, f64::NEG_INFINITY);
        let mut steps = 0;
        while bounces < 10_000 {
            sim.step(DT);
            steps += 1;
            // A bounce lasts about 54 steps: the ball must not come to rest.
            assert!(
                steps < 1_000_000,
                "{name}: {bounces} bounces in {steps} steps"
            );
            bounces += (sim.impacts().iter())
                .filter(|i| i.other == Other::Wall(Wall::Bottom))
                .count();
            let a = apex(&sim);
            (lowest, highest) = (lowest.min(a), highest.max(a));
            assert!(
                (sim.bodies().velocity(0).x.abs() - speed_x).abs() <= 1e-9,
                "{name}: the side walls keep the horizontal speed"
            );
        }
        let spread = (highest - lowest) / apex0;
        assert!(
            spread < 1e-6,
            "{name}: apex between {lowest} and {highest} (start {apex0}): spread {spread:e}"
        );
    }
}

/// A projectile's landing time and point match the closed form to 1e-9 relative.
#[test]
fn a_projectile_lands_where_and_when_the_closed_form_says() {
    let (p0, v0, r) = (DVec2::new(1.0, 10.0), DVec2::new(3.0, 4.0), 0.5);
    let ball = BodyDesc::new(p0, r, 1.0).with_velocity(v0);
    let mut sim = sim_with(&[ball], scenes::elastic_box_under_gravity(1000.0, 100.0));
    // The centre reaches y = r when p0.y + v0.y t − ½ g t² = r.
    let g = G.length();
    let t_land = (v0.y + (v0.y * v0.y + 2.0 * g * (p0.y - r)).sqrt()) / g;
    let x_land = p0.x + v0.x * t_land;
    for step in 0.. {
        sim.step(DT);
        if let Some(hit) = sim.impacts().first() {
            let t = step as f64 * DT + hit.time;
            assert_eq!(hit.other, Other::Wall(Wall::Bottom));
            assert!(
                (t / t_land - 1.0).abs() < 1e-9,
                "landed at {t}, closed form {t_land}"
            );
            assert!(
                (hit.point.x / x_land - 1.0).abs() < 1e-9,
                "landed at x = {}, closed form {x_land}",
                hit.point.x
            );
            let vy = v0.y - g * t_land;
            assert!(
                (hit.approach_speed / -vy - 1.0).abs() < 1e-9,
                "approach speed {} against {}",
                hit.approach_speed,
                -vy
            );
            return;
        }
        assert!(step < 1000, "never landed");
    }
}

/// A ball thrown at a static circle under gravity hits it at the exact time: the path is
/// built backwards from a contact at t* = 0.7 (normal n, closing), and checked to stay
/// clear before it.
#[test]
fn a_ball_thrown_at_a_static_circle_hits_it_at_the_exact_time() {
    let (centre, radius, r) = (DVec2::new(20.0, 10.0), 1.0, 0.5);
    for (k, angle) in [100.0f64, 135.0, 160.0, 80.0].into_iter().enumerate() {
        let n = DVec2::from_angle(angle.to_radians());
        let t_star = 0.7 + 0.013 * k as f64;
        let v0 = DVec2::new(6.0, 2.0 + k as f64);
        let p0 = centre + n * (radius + r) - v0 * t_star - G * (0.5 * t_star * t_star);
        let at = |t: f64| p0 + v0 * t + G * (0.5 * t * t);
        // The construction is only valid if the path arrives from outside.
        assert!(
            ((at(t_star) - at(t_star - 1e-6)).dot(n)) < 0.0,
            "closing at t*"
        );
        assert!(
            (0..7000).all(|s| at(s as f64 * 1e-4).distance(centre) > radius + r),
            "clear before t*"
        );
        let post = BodyDesc::new(centre, radius, f64::INFINITY);
        let ball = BodyDesc::new(p0, r, 1.0).with_velocity(v0);
        let mut sim = sim_with(
            &[post, ball],
            scenes::elastic_box_under_gravity(100.0, 100.0),
        );
        let mut hit_at = None;
        for step in 0..120 {
            sim.step(DT);
            if let Some(hit) = sim
                .impacts()
                .iter()
                .find(|i| i.other != Other::Wall(Wall::Bottom))
            {
                hit_at = Some(step as f64 * DT + hit.time);
                break;
            }
        }
        let t = hit_at.expect("the ball hits the post");
        assert!(
            (t - t_star).abs() < 1e-9 * t_star,
            "angle {angle}: hit at {t}, exact {t_star}"
        );
    }
}

/// 100 elastic balls in a tall box under gravity ([`scenes::tall_gas`]): kinetic plus
/// potential energy stays within 1e-6 relative over 10,000 steps.
#[test]
fn an_elastic_gas_under_gravity_keeps_its_energy() {
    let mut sim = scenes::tall_gas(100, 15.0).simulation();
    let e0 = energy(&sim);
    let mut worst: f64 = 0.0;
    let mut impacts = 0;
    for _ in 0..10_000 {
        sim.step(DT);
        impacts += sim.impacts().len();
        worst = worst.max((energy(&sim) / e0 - 1.0).abs());
    }
    eprintln!("tall gas 100 × 10,000 steps: {impacts} impacts, |ΔE|/E at most {worst:e}");
    assert!(
        impacts > 10_000,
        "a gas, not free flight: {impacts} impacts"
    );
    assert!(worst < 1e-6, "energy drifted by {worst:e}");
}

/// Nothing tunnels under gravity: balls thrown at up to 10⁴ units/s from random places in
/// random directions at a post and into the walls always end their steps outside the post
/// and inside the box.
#[test]
fn nothing_tunnels_under_gravity_at_any_speed() {
    let mut rng = SplitMix64(5);
    let (centre, radius) = (DVec2::new(50.0, 50.0), 2.0);
    for throw in 0..400 {
        let speed = 10f64.powf(1.0 + 3.0 * rng.next_unit());
        let dir = DVec2::from_angle(rng.next_unit() * std::f64::consts::TAU);
        let start =
            centre + DVec2::from_angle(rng.next_unit() * 6.3) * (5.0 + 30.0 * rng.next_unit());
        let mut config = scenes::elastic_box_under_gravity(100.0, 100.0);
        config.max_speed = 2e4;
        config.gravity = G * (1.0 + 99.0 * rng.next_unit());
        let post = BodyDesc::new(centre, radius, f64::INFINITY);
        let ball = BodyDesc::new(start, 0.5, 1.0).with_velocity(dir * speed);
        let mut sim = sim_with(&[post, ball], config);
        for step in 0..60 {
            sim.step(DT);
            let p = sim.bodies().position(1);
            let slop = sim.config.overlap_slop * 0.5;
            assert!(
                p.distance(centre) >= radius + 0.5 - slop,
                "throw {throw} at {speed}: inside the post at step {step}: {p}"
            );
            assert!(
                p.cmpge(DVec2::splat(0.5 - slop)).all() && p.cmple(DVec2::splat(99.5 + slop)).all(),
                "throw {throw} at {speed}: out of the box at step {step}: {p}"
            );
        }
    }
}
