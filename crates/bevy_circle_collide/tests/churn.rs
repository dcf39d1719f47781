//! A game that churns its bodies every frame: random despawns, teleports, absurd and
//! non-finite velocities, invalid radii and masses, sensors toggled, colliders removed, bodies forced
//! asleep and spawned on top of others, in a pour of crates and specks under gravity —
//! and its configuration every few frames (gravity, sleeping, slop, resting speed,
//! solver settings, impact cap, some of them invalid). No panic, no hang, no non-finite
//! value reaches a valid body, and no valid dynamic body leaves the arena.

mod common;

use bevy::prelude::*;
use bevy_circle_collide::core::scenes;
use bevy_circle_collide::prelude::*;
use common::*;

/// One random change to entity `e` (or a new body), drawn from `rng`.
fn churn_one(app: &mut App, rng: &mut scenes::SplitMix64, e: Entity, width: f32) {
    let mut unit = || rng.next_unit() as f32;
    let kind = (unit() * 12.0) as usize;
    let (x, y, z) = (unit(), unit(), unit());
    if kind == 11 {
        spawn(
            app,
            Vec2::new(x * width, 1.0 + 30.0 * y),
            Vec2::ZERO,
            0.05 + z,
            Mass::Auto,
        );
        return;
    }
    let Ok(mut body) = app.world_mut().get_entity_mut(e) else {
        return;
    };
    let pick = |choices: usize| (z * choices as f32) as usize % choices;
    match kind {
        0 => body.despawn(),
        1 => body.get_mut::<Transform>().unwrap().translation = Vec3::new(x * width, 40.0 * y, 0.0),
        2 => {
            let scale = [1.0, 100.0, 1e7, f32::NAN, f32::INFINITY][pick(5)];
            body.get_mut::<Velocity>().unwrap().0 = Vec2::new(x - 0.5, y - 0.5) * scale;
        }
        3 => {
            if let Some(mut c) = body.get_mut::<CircleCollider>() {
                c.radius = [0.0, -1.0, f32::NAN, 1e-6, 0.01, 0.5, 3.0][pick(7)];
            }
        }
        4 => {
            let m = [
                Mass::Auto,
                Mass::Static,
                Mass::Fixed(0.0),
                Mass::Fixed(1e-6),
                Mass::Fixed(1e6),
                Mass::Fixed(f32::NAN),
            ];
            body.insert(m[pick(6)]);
        }
        5 if x < 0.5 => {
            body.insert(Sensor);
        }
        5 => {
            body.remove::<Sensor>();
        }
        6 => {
            body.insert(Restitution(1.2 * x));
        }
        7 => {
            body.insert(Friction(x));
        }
        8 => {
            let asleep = SleepState {
                sleeping: true,
                rest_time: 1.0,
                position: Vec2::ZERO,
            };
            body.insert(asleep);
        }
        9 => {
            body.remove::<CircleCollider>();
        }
        _ => {
            body.insert(AngularVelocity(100.0 * (x - 0.5)));
        }
    }
}

/// One random change to the configuration, drawn from `rng` (a few invalid values among
/// them: the plugin warns and uses its defaults).
fn churn_config(app: &mut App, rng: &mut scenes::SplitMix64) {
    let mut unit = || rng.next_unit() as f32;
    let (kind, x) = ((unit() * 14.0) as usize, unit());
    let pick = |choices: usize| (x * choices as f32) as usize % choices;
    let mut c = app.world_mut().resource_mut::<CircleCollideConfig>();
    match kind {
        0 => c.gravity = Vec2::new(0.0, -19.62 * x),
        1 => c.gravity = [Vec2::ZERO, Vec2::new(f32::NAN, 0.0)][pick(2)],
        2 => c.sleep = x < 0.5,
        3 => c.overlap_slop = [0.0, 0.01, 0.05, 0.5, f32::NAN, -1.0][pick(6)],
        4 => c.resting_speed = [None, Some(0.0), Some(2.0), Some(f32::NAN), Some(1e9)][pick(5)],
        5 => c.conjugate_correction = x < 0.5,
        6 => c.contact_iterations = [0, 1, 4, 16, 1000][pick(5)],
        7 => c.sleep_by_neighbourhood = x < 0.5,
        8 => c.default_restitution = 1.5 * x,
        9 => c.default_friction = x,
        10 => c.time_to_sleep = [0.0, 0.1, 0.5, f32::NAN, -1.0][pick(5)],
        11 => c.skip_idle_steps = x < 0.5,
        12 => c.shock_propagation = x < 0.5,
        // 100,000 a body: a rattler's step of 20,000 impacts took seconds before
        // re-inserted bodies were listed once per grid cell.
        _ => c.max_impacts_per_body = [0, 1, 8, 64, 100_000][pick(5)],
    }
}

#[test]
fn bodies_churned_every_frame_never_panic_go_non_finite_or_leave_the_arena() {
    // Seed 263 has a circle rattle between two closing bodies: before re-inserted
    // bodies were listed once per grid cell, its step ran for minutes.
    for seed in [1, 2, 3, 263] {
        let mut app = app();
        let scene = scenes::speck_pour(150, seed);
        let width = scene.config.arena.expect("a box").max.x as f32;
        spawn_scene(&mut app, &scene);
        let mut rng = scenes::SplitMix64(seed * 977 + 5);
        for frame in 0..300 {
            let bodies: Vec<Entity> = (app.world_mut())
                .query_filtered::<Entity, With<CircleCollider>>()
                .iter(app.world())
                .collect();
            for _ in 0..(rng.next_unit() * 6.0) as usize {
                let e = bodies[(rng.next_unit() * bodies.len() as f64) as usize % bodies.len()];
                churn_one(&mut app, &mut rng, e, width);
            }
            if rng.next_unit() < 0.2 {
                churn_config(&mut app, &mut rng);
            }
            steps(&mut app, 1);
            let mut query = (app.world_mut()).query::<(
                Entity,
                &Transform,
                &Velocity,
                &CircleCollider,
                &Mass,
                Has<Sensor>,
            )>();
            for (e, transform, velocity, collider, mass, sensor) in query.iter(app.world()) {
                if !(collider.radius.is_finite() && collider.radius > 0.0) {
                    continue; // skipped, with a warning
                }
                let (p, v) = (transform.translation.truncate(), velocity.0);
                let at = format!("seed {seed}, frame {frame}: {e} at {p}, {v}");
                assert!(p.is_finite() && v.is_finite(), "{at}");
                if *mass != Mass::Static && !sensor {
                    assert!(p.x > -0.1 && p.x < width + 0.1 && p.y > -0.1, "{at}");
                }
            }
            let d = app.world().resource::<CollisionDiagnostics>();
            assert!(d.kinetic_energy.is_finite(), "seed {seed}, frame {frame}");
        }
    }
}
