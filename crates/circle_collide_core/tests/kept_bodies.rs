//! Keeping a step's bodies (`kept_bodies`) against adding a description of each body's
//! state: the same bodies bit for bit, and the same steps after.

mod common;

use circle_collide_core::kept_bodies::KeptBodies;
use circle_collide_core::{Arena, BodyDesc, InputIssues, Layers, Simulation, StepConfig};
use common::{Rng, sim_with};
use glam::DVec2;

/// A rough pile of 120 bodies falling into an arena: statics, sensors, filtered layers,
/// restitutions from 0 to 1, spinning bodies; masses and inertias powers of two (a
/// description's mass is then exactly the inverse of the kept inverse mass), and a lone
/// body that sleeps early.
fn pile() -> (Vec<BodyDesc>, StepConfig) {
    let mut rng = Rng(7);
    let bodies = (0..120u64)
        .map(|k| {
            let at = DVec2::new(
                1.0 + 1.9 * (k % 15) as f64 + 0.1 * rng.unit(),
                1.0 + 1.9 * (k / 15) as f64,
            );
            let mass = if k % 37 == 5 {
                f64::INFINITY
            } else {
                2f64.powi((k % 3) as i32 - 1)
            };
            let mut d = BodyDesc::new(at, 0.5 + 0.4 * rng.unit(), mass)
                .with_key(1000 + k)
                .with_velocity(DVec2::new(rng.range(-3.0, 3.0), rng.range(-3.0, 3.0)))
                .with_restitution([0.0, 0.4, 1.0][(k % 3) as usize])
                .with_friction(0.5)
                .with_rolling_resistance(0.01)
                .with_angular_velocity(rng.range(-2.0, 2.0));
            if k % 4 == 0 {
                d = d.with_inertia(2f64.powi((k % 5) as i32 - 2));
            }
            if k % 29 == 3 {
                d = d.with_sensor(true);
            }
            if k % 31 == 4 {
                d = d.with_layers(Layers::new(1, 1));
            }
            d
        })
        // A body on no layer, lying on the floor: it meets only the arena and falls asleep
        // on its own while the pile still moves (the pile falls asleep as one island).
        .chain(std::iter::once(
            BodyDesc::new(DVec2::new(29.0, 0.5), 0.5, 1.0)
                .with_key(2000)
                .with_restitution(0.0)
                .with_layers(Layers::NONE),
        ))
        .collect();
    let config = StepConfig {
        gravity: DVec2::new(0.0, -9.81),
        arena: Some(Arena::new(DVec2::ZERO, DVec2::new(30.0, 60.0))),
        ..StepConfig::default()
    };
    (bodies, config)
}

/// The pile after `steps` steps of 1/60 s.
fn stepped(steps: usize) -> (Simulation, Vec<BodyDesc>) {
    let (bodies, config) = pile();
    let mut sim = sim_with(&bodies, config);
    for _ in 0..steps {
        sim.step(1.0 / 60.0);
    }
    (sim, bodies)
}

/// A description of body `i`'s state as `sim` holds it (its rest time in `f32`), with
/// the rest from its spawn description `spawned`.
fn described(sim: &Simulation, i: usize, spawned: &BodyDesc) -> BodyDesc {
    let b = sim.bodies();
    let inv_mass = b.inverse_mass(i);
    BodyDesc {
        position: b.position(i),
        velocity: b.velocity(i),
        angular_velocity: b.angular_velocity(i),
        angle: b.angle(i),
        mass: if inv_mass > 0.0 {
            1.0 / inv_mass
        } else {
            f64::INFINITY
        },
        sleeping: b.is_sleeping(i),
        rest_time: f64::from(b.rest_time(i) as f32),
        ..*spawned
    }
}

/// Body `i` of `sim`, bit for bit.
fn bits(sim: &Simulation, i: usize) -> [u64; 17] {
    sim.bodies().state_bits(i)
}

#[test]
fn a_kept_body_is_the_body_its_description_adds_and_steps_the_same() {
    for steps in [30, 400] {
        let ((mut kept, spawned), (mut added, _)) = (stepped(steps), stepped(steps));
        let n = kept.bodies().len();
        let sleeping = (0..n).filter(|&i| kept.bodies().is_sleeping(i)).count();
        let resting = (0..n).filter(|&i| kept.bodies().rest_time(i) > 0.0).count();
        if steps == 400 {
            assert!(
                sleeping > 0 && resting > sleeping,
                "{sleeping} asleep, {resting} resting"
            );
        }
        // A new order (every third body first), one body re-described with a new velocity.
        let order: Vec<u32> = (0..n as u32)
            .filter(|k| k % 3 == 0)
            .chain((0..n as u32).filter(|k| k % 3 != 0))
            .collect();
        let spawn_of = |i: usize| {
            spawned
                .iter()
                .find(|d| d.key == Some(kept.bodies().key(i)))
                .unwrap()
        };
        let descs: Vec<BodyDesc> = order
            .iter()
            .map(|&j| described(&kept, j as usize, spawn_of(j as usize)))
            .collect();
        let steered = BodyDesc {
            velocity: DVec2::new(1.5, 0.0),
            steered: true,
            ..descs[10]
        };
        let mut outcomes = Vec::new();
        let mut set = KeptBodies::default();
        kept.keep_bodies(&order, |t| f64::from(t as f32), &mut set);
        assert!(kept.install_kept(&mut set, &[(10, &steered)], &mut outcomes));
        added.clear_bodies();
        for (k, d) in descs.iter().enumerate() {
            let d = if k == 10 { &steered } else { d };
            assert_eq!(added.add_body_from(d), Ok((k as u32, InputIssues::NONE)));
        }
        assert_eq!(
            outcomes,
            (0..n as u32)
                .map(|k| Ok((k, InputIssues::NONE)))
                .collect::<Vec<_>>()
        );
        for i in 0..n {
            assert_eq!(
                bits(&kept, i),
                bits(&added, i),
                "body {i} after {steps} steps"
            );
        }
        for s in 0..120 {
            kept.step(1.0 / 60.0);
            added.step(1.0 / 60.0);
            for i in 0..n {
                assert_eq!(bits(&kept, i), bits(&added, i), "body {i}, {s} steps after");
            }
        }
    }
}

#[test]
fn kept_bodies_are_repaired_as_descriptions_and_refused_when_stale() {
    let (mut sim, _) = stepped(10);
    let n = sim.bodies().len() as u32;
    let picks: Vec<u32> = (0..n).collect();
    // A lower speed limit: kept bodies faster than it are clamped, and reported.
    sim.config.max_speed = 1.0;
    let b = sim.bodies();
    let too_fast =
        |i: usize| b.velocity(i).length() > 1.0 || b.angular_velocity(i).abs() * b.radius(i) > 1.0;
    let fast: Vec<usize> = (0..n as usize).filter(|&i| too_fast(i)).collect();
    assert!(!fast.is_empty());
    let mut kept = KeptBodies::default();
    sim.keep_bodies(&picks, |t| t, &mut kept);
    assert_eq!(kept.len(), n as usize);
    // Kept from these bodies: a body added since makes the set stale.
    let mut other = stepped(10).0;
    other
        .add_body(BodyDesc::new(DVec2::new(20.0, 50.0), 0.5, 1.0))
        .unwrap();
    let mut outcomes = Vec::new();
    assert!(!other.install_kept(&mut kept, &[], &mut outcomes));
    let lost = BodyDesc::new(DVec2::new(f64::NAN, 1.0), 0.5, 1.0);
    assert!(!sim.install_kept(&mut kept, &[(0, &lost)], &mut outcomes));
    let fine = BodyDesc::new(DVec2::new(3.0, 3.0), 0.5, 1.0);
    assert!(!sim.install_kept(&mut kept, &[(n, &fine)], &mut outcomes));
    assert!(sim.install_kept(&mut kept, &[], &mut outcomes));
    for (i, outcome) in outcomes.iter().enumerate() {
        let (k, issues) = outcome.unwrap();
        assert_eq!(k as usize, i);
        assert_eq!(
            issues == InputIssues::SPEED_CLAMPED,
            fast.contains(&i),
            "body {i}"
        );
        let b = sim.bodies();
        assert!(b.velocity(i).length() <= 1.0 + 1e-12);
        assert!(b.angular_velocity(i).abs() * b.radius(i) <= 1.0 + 1e-12);
    }
    // Installed once: the same set again is refused; so are picks out of range.
    assert!(!sim.install_kept(&mut kept, &[], &mut outcomes));
    sim.keep_bodies(&[0, n], |t| t, &mut kept);
    assert!(!sim.install_kept(&mut kept, &[], &mut outcomes));
    assert_eq!(sim.bodies().len(), n as usize);
}
