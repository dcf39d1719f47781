//! The canonical order computed at the end of a step for the next one
//! (`CircleCollideWorld::next_order`): the gather takes it only while every body is where
//! the last step left it, and the order it uses is always the canonical order of what it
//! gathered.

use crate::prelude::*;
use crate::world::CircleCollideWorld;
use bevy::app::TaskPoolPlugin;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use circle_collide_core::order::canonical_order;
use circle_collide_core::scenes::{SEED, SplitMix64};

/// A headless app with the plugin and `threads` compute threads, one fixed step per
/// update, and an elastic gas of 400 circles in a 60 × 60 arena without gravity: bodies
/// change rows every step.
fn gas_app(threads: usize) -> (App, Vec<Entity>) {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins.set(TaskPoolPlugin {
        task_pool_options: crate::task_pool_options(threads),
    }))
    .insert_resource(Time::<Fixed>::from_hz(60.0))
    .insert_resource(TimeUpdateStrategy::ManualDuration(
        Time::<Fixed>::from_hz(60.0).timestep(),
    ))
    .add_plugins(CircleCollidePlugin::default());
    // A world this small computes no order ahead by default; the full gather is the one
    // tested here (the kept gather's descriptions are of the bodies it read only).
    let mut world = app.world_mut().resource_mut::<CircleCollideWorld>();
    world.order_ahead_min_bodies = 100;
    world.keep_unchanged = false;
    {
        let mut config = app.world_mut().resource_mut::<CircleCollideConfig>();
        config.gravity = Vec2::ZERO;
        config.arena = Some(ArenaConfig {
            min: Vec2::ZERO,
            max: Vec2::splat(60.0),
            restitution: 1.0,
            friction: 0.0,
        });
    }
    let mut state = SEED;
    let mut unit = || SplitMix64::next_f64(&mut state) as f32;
    let bodies = (0..400)
        .map(|k| {
            let at = Vec2::new(1.5 + 3.0 * (k % 20) as f32, 1.5 + 3.0 * (k / 20) as f32);
            let v = Vec2::new(unit() - 0.5, unit() - 0.5) * 40.0;
            (app.world_mut())
                .spawn((
                    CircleCollider::new(0.5 + 0.3 * unit()),
                    Transform::from_translation(at.extend(0.0)),
                    Velocity(v),
                    Mass::Auto,
                ))
                .id()
        })
        .collect();
    app.update();
    (app, bodies)
}

/// Steps once and checks the order the gather used against the canonical order of the
/// descriptions it gathered; returns whether it was the order computed ahead.
fn step(app: &mut App) -> bool {
    app.update();
    let world = app.world().resource::<CircleCollideWorld>();
    assert!(!world.idle);
    assert_eq!(
        world.last_order,
        canonical_order(&world.gathered_descs),
        "the gather's order is not the canonical order of its bodies"
    );
    world.order_ahead
}

#[test]
fn the_order_computed_ahead_is_taken_only_while_nobody_moved_the_bodies() {
    for threads in [1, 2] {
        let (mut app, bodies) = gas_app(threads);
        // Free flight and impacts: the order computed at the end of each step is taken.
        for k in 0..30 {
            assert!(
                step(&mut app) || k == 0,
                "step {k}: not taken ({threads} threads)"
            );
        }
        // The game moves a body (into another row): the bodies are gathered afresh.
        let moved = bodies[7];
        let mut transform = app.world_mut().get_mut::<Transform>(moved).unwrap();
        transform.translation.y += 31.0;
        assert!(!step(&mut app), "taken after a body was moved");
        assert!(step(&mut app), "not taken again after the move");
        // A collider resized, a body despawned, a body spawned, velocities set: only the
        // first three change what the order reads.
        (app.world_mut()
            .get_mut::<CircleCollider>(bodies[3])
            .unwrap())
        .radius = 0.9;
        assert!(!step(&mut app), "taken after a collider was resized");
        assert!(step(&mut app));
        app.world_mut().despawn(bodies[100]);
        assert!(!step(&mut app), "taken after a despawn");
        assert!(step(&mut app));
        app.world_mut().spawn((
            CircleCollider::new(0.5),
            Transform::from_xyz(30.5, 58.0, 0.0),
            Velocity(Vec2::new(3.0, 0.0)),
            Mass::Auto,
        ));
        assert!(!step(&mut app), "taken after a spawn");
        assert!(step(&mut app));
        for mut v in (app.world_mut().query::<&mut Velocity>()).iter_mut(app.world_mut()) {
            v.0 = -v.0;
        }
        assert!(step(&mut app), "velocities do not change the order");
        for _ in 0..20 {
            assert!(step(&mut app));
        }
    }
}
