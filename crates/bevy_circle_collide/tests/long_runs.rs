//! Conservation over thousands of steps, overlap bounds, determinism.

mod common;
use bevy::prelude::*;
use bevy_circle_collide::core::scenes;
use bevy_circle_collide::prelude::*;
use common::*;

/// Kinetic energy, momentum and Σ m |v| of the velocities the next step starts from: the
/// double-precision ones, unless the game's `Velocity` is not them rounded (as at spawn).
fn kinetic_energy_and_momentum(app: &mut App) -> (f64, bevy::math::DVec2, f64) {
    let mut q = app
        .world_mut()
        .query::<(&Velocity, &PreciseMotion, &Mass)>();
    let (mut ke, mut p, mut scale) = (0.0, bevy::math::DVec2::ZERO, 0.0);
    for (v, precise, m) in q.iter(app.world()) {
        let Mass::Fixed(m) = *m else {
            panic!("scene masses are fixed")
        };
        let v = if precise.velocity.as_vec2() == v.0 {
            precise.velocity
        } else {
            v.0.as_dvec2()
        };
        let m = f64::from(m);
        ke += 0.5 * m * v.length_squared();
        p += m * v;
        scale += m * v.length();
    }
    (ke, p, scale)
}

/// The gas scene, N = 1000, restitution 1, 10,000 steps (167 s of simulated time).
#[test]
fn gas_conserves_energy_and_momentum_over_ten_thousand_steps() {
    let scene = scenes::gas(1000, 0.3, 10.0);
    let mut app = app();
    spawn_scene(&mut app, &scene);
    let (e0, p0, scale) = kinetic_energy_and_momentum(&mut app);
    let (mut wall_impulse, mut impacts, mut worst) = (bevy::math::DVec2::ZERO, 0usize, f32::MIN);
    for step in 0..10_000 {
        steps(&mut app, 1);
        let d = app.world().resource::<CollisionDiagnostics>();
        wall_impulse += d.external_impulse.as_dvec2();
        impacts += d.impacts;
        assert!(!d.last_step_fell_back);
        if step % 10 == 0 {
            worst = worst.max(max_overlap(&circles(&mut app)));
        }
    }
    let (e1, p1, _) = kinetic_energy_and_momentum(&mut app);
    let de = (e1 - e0).abs() / e0;
    let dp = (p1 - p0 - wall_impulse).length() / scale;
    println!(
        "gas 1000 × 10000 steps: {impacts} impacts, |ΔE|/E = {de:.3e}, |ΔP − wall impulse|/Σm|v| = {dp:.3e}, deepest overlap/r = {:.3e}",
        worst / 0.5
    );
    assert!(impacts > 200_000, "a real gas: {impacts} impacts");
    // The plugin keeps each body's f64 state between steps (`PreciseMotion`): the drift
    // is the core's (4e-13 here; 1.4e-7 when every step restarted from f32).
    assert!(de < 1e-10, "energy drift {de:e}");
    // The walls' impulse is summed from the f32 diagnostics.
    assert!(dp < 1e-6, "momentum drift {dp:e}");
    // Slop is 1 % of the radius.
    assert!(worst <= 0.01 * 0.5, "overlap {worst}");
}

/// The parallel threshold of these tests: mid-sized worlds run as jobs.
const PARALLEL_THRESHOLD: usize = 2048;

/// Hash of every body's position and velocity bits after `steps_n` steps, with the
/// parallel phases on the compute pool (two threads), or serial.
fn hash_after(scene: &scenes::Scene, serial: bool, steps_n: usize) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut app = app_with_threads(2);
    assert_eq!(
        bevy::tasks::ComputeTaskPool::get().thread_num(),
        2,
        "the compute pool has two threads, so the parallel phases really run on two"
    );
    let mut world = app
        .world_mut()
        .resource_mut::<bevy_circle_collide::CircleCollideWorld>();
    world
        .simulation_mut()
        .set_parallel_min_bodies(PARALLEL_THRESHOLD);
    if serial {
        world.set_executor(std::sync::Arc::new(
            bevy_circle_collide::core::parallel::Serial,
        ));
    }
    spawn_scene(&mut app, scene);
    steps(&mut app, steps_n);
    let mut q = app.world_mut().query::<(Entity, &Transform, &Velocity)>();
    let mut rows: Vec<_> = q
        .iter(app.world())
        .map(|(e, t, v)| {
            (
                e,
                t.translation.to_array().map(f32::to_bits),
                v.0.to_array().map(f32::to_bits),
            )
        })
        .collect();
    rows.sort_by_key(|r| r.0);
    let mut h = std::collections::hash_map::DefaultHasher::new();
    rows.iter().for_each(|r| (r.1, r.2).hash(&mut h));
    h.finish()
}

/// Positions and velocities hash the same twice, and the same with the parallel phases
/// on a two-thread compute pool as serially: for the gas and the pile at 1000 bodies
/// (600 steps, below the parallel threshold) and above it (`PARALLEL_MIN_BODIES` lowered
/// to 2048 by `hash_after`; 120 steps, where the broad phase, narrow phase and
/// predictions run as jobs).
#[test]
fn same_scene_twice_and_across_thread_counts_is_bit_identical() {
    let large = PARALLEL_THRESHOLD + 1000;
    for (scene, steps) in [
        (scenes::gas(1000, 0.3, 10.0), 600),
        (scenes::pile(1000), 600),
        (scenes::gas(large, 0.3, 10.0), 120),
        (scenes::pile(large), 120),
    ] {
        let a = hash_after(&scene, false, steps);
        assert_eq!(a, hash_after(&scene, false, steps));
        assert_eq!(a, hash_after(&scene, true, steps));
        assert_ne!(a, hash_after(&scene, true, 30), "the hash sees the state");
    }
}

/// Kinetic plus potential energy (gravity 9.81 down) from the f32 components.
fn mechanical_energy(app: &mut App) -> f64 {
    let mut q = app.world_mut().query::<(&Transform, &Velocity, &Mass)>();
    q.iter(app.world())
        .map(|(t, v, m)| {
            let Mass::Fixed(m) = *m else {
                panic!("scene masses are fixed")
            };
            let m = f64::from(m);
            0.5 * m * v.0.as_dvec2().length_squared() + m * 9.81 * f64::from(t.translation.y)
        })
        .sum()
}

/// The tall gas of the core (100 elastic balls in a 20 × 120 box under gravity) through
/// the plugin, whose components are f32: bodies fly on exact parabolas inside the step,
/// so kinetic plus potential energy stays within 1e-5 relative over 10,000 steps (the
/// f32 rounding of positions and velocities at every step is what is left).
#[test]
fn an_elastic_gas_under_gravity_keeps_its_energy_through_the_plugin() {
    let mut app = app();
    spawn_scene(&mut app, &scenes::tall_gas(100, 15.0));
    let e0 = mechanical_energy(&mut app);
    let (mut worst, mut impacts) = (0.0f64, 0usize);
    for _ in 0..10_000 {
        steps(&mut app, 1);
        impacts += app.world().resource::<CollisionDiagnostics>().impacts;
        worst = worst.max((mechanical_energy(&mut app) / e0 - 1.0).abs());
    }
    println!(
        "tall gas 100 × 10000 steps through the plugin: {impacts} impacts, |ΔE|/E at most {worst:.3e}"
    );
    assert!(impacts > 10_000, "a gas: {impacts} impacts");
    assert!(worst < 1e-5, "energy drift {worst:e}");
    // The diagnostics report the same energy (from the core's f64 state).
    let d = app.world().resource::<CollisionDiagnostics>();
    let reported = d.kinetic_energy + d.potential_energy;
    let from_components = mechanical_energy(&mut app);
    assert!(
        (reported / from_components - 1.0).abs() < 1e-5,
        "diagnostics {reported} against components {from_components}"
    );
}
