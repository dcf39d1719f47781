//! Shared helpers of the app-level tests: a headless app stepping exactly one fixed step
//! of 1/60 s per update, scene spawning, event collection and an independent overlap check.
#![allow(dead_code)]

use bevy::app::TaskPoolPlugin;
use bevy::ecs::schedule::{LogLevel, ScheduleBuildSettings};
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_circle_collide::core::scenes::Scene;
use bevy_circle_collide::prelude::*;

/// Every `CollisionEvent` seen by a game system in `Update`.
#[derive(Resource, Default)]
pub struct Collected(pub Vec<CollisionEvent>);

fn collect(mut reader: MessageReader<CollisionEvent>, mut out: ResMut<Collected>) {
    out.0.extend(reader.read().copied());
}

/// A headless app without the plugin: one fixed step of 1/60 s per `update()` after the
/// first, and the given number of compute-pool threads (not updated yet).
pub fn bare_app(threads: usize) -> App {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins.set(TaskPoolPlugin {
        task_pool_options: bevy_circle_collide::task_pool_options(threads),
    }))
    .insert_resource(Time::<Fixed>::from_hz(60.0))
    .insert_resource(TimeUpdateStrategy::ManualDuration(
        Time::<Fixed>::from_hz(60.0).timestep(),
    ));
    app
}

/// A headless app with the plugin, one fixed step of 1/60 s per `update()` after the
/// first, and the given number of compute-pool threads.
pub fn app_with_threads(threads: usize) -> App {
    let mut app = bare_app(threads);
    app.add_plugins(CircleCollidePlugin::default())
        .init_resource::<Collected>()
        .add_systems(Update, collect);
    // Frame 0 never runs the fixed loop: prime it so each later update is one step.
    app.update();
    app
}

/// [`app_with_threads`] with two threads.
pub fn app() -> App {
    app_with_threads(2)
}

/// Gravity −9.81 and a 10 × 10 arena from the origin with inelastic, smooth walls.
pub fn gravity_box(app: &mut App) {
    let mut config = app.world_mut().resource_mut::<CircleCollideConfig>();
    config.gravity = Vec2::new(0.0, -9.81);
    config.arena = Some(ArenaConfig {
        min: Vec2::ZERO,
        max: Vec2::splat(10.0),
        restitution: 0.0,
        friction: 0.0,
    });
}

/// Two balls of radius 0.5 stacked on the floor of [`gravity_box`] at x = 5: (low, high).
pub fn stack_of_two(app: &mut App) -> (Entity, Entity) {
    let low = spawn(app, Vec2::new(5.0, 0.5), Vec2::ZERO, 0.5, Mass::Auto);
    let high = spawn(app, Vec2::new(5.0, 1.5), Vec2::ZERO, 0.5, Mass::Auto);
    (low, high)
}

/// The fixed step length in seconds, as the plugin sees it.
pub fn dt() -> f64 {
    Time::<Fixed>::from_hz(60.0).timestep().as_secs_f64()
}

/// Runs `n` steps and checks each update ran exactly one.
pub fn steps(app: &mut App, n: usize) {
    for _ in 0..n {
        let before = app.world().resource::<CollisionDiagnostics>().step;
        app.update();
        assert_eq!(
            app.world().resource::<CollisionDiagnostics>().step,
            before + 1
        );
    }
}

/// Spawns a core scene (positions rounded to f32) and sets the config from it.
pub fn spawn_scene(app: &mut App, scene: &Scene) -> Vec<Entity> {
    let c = &scene.config;
    let mut config = app.world_mut().resource_mut::<CircleCollideConfig>();
    config.gravity = Vec2::new(c.gravity.x as f32, c.gravity.y as f32);
    config.arena = c.arena.map(|a| ArenaConfig {
        min: Vec2::new(a.min.x as f32, a.min.y as f32),
        max: Vec2::new(a.max.x as f32, a.max.y as f32),
        restitution: a.restitution as f32,
        friction: a.friction as f32,
    });
    scene
        .bodies
        .iter()
        .map(|b| {
            let mass = if b.mass.is_finite() {
                Mass::Fixed(b.mass as f32)
            } else {
                Mass::Static
            };
            app.world_mut()
                .spawn((
                    CircleCollider::new(b.radius as f32),
                    Transform::from_xyz(b.position.x as f32, b.position.y as f32, 0.0),
                    Velocity(Vec2::new(b.velocity.x as f32, b.velocity.y as f32)),
                    mass,
                    Restitution(b.restitution as f32),
                    AngularVelocity(b.angular_velocity as f32),
                    Friction(b.friction as f32),
                    RollingResistance(b.rolling_resistance as f32),
                ))
                .id()
        })
        .collect()
}

/// Spawns one body.
pub fn spawn(app: &mut App, pos: Vec2, vel: Vec2, radius: f32, mass: Mass) -> Entity {
    app.world_mut()
        .spawn((
            CircleCollider::new(radius),
            Transform::from_translation(pos.extend(0.0)),
            Velocity(vel),
            mass,
        ))
        .id()
}

pub fn pos(app: &App, e: Entity) -> Vec2 {
    app.world()
        .get::<Transform>(e)
        .unwrap()
        .translation
        .truncate()
}

pub fn vel(app: &App, e: Entity) -> Vec2 {
    app.world().get::<Velocity>(e).unwrap().0
}

pub fn events(app: &mut App) -> Vec<CollisionEvent> {
    std::mem::take(&mut app.world_mut().resource_mut::<Collected>().0)
}

/// Deepest overlap of any pair (the core's independent sort-and-sweep check).
pub fn max_overlap(circles: &[(Vec2, f32)]) -> f32 {
    let wide: Vec<_> = circles
        .iter()
        .map(|(p, r)| (p.as_dvec2(), f64::from(*r)))
        .collect();
    bevy_circle_collide::core::manifold::deepest_overlap(&wide) as f32
}

/// All colliders as (centre, radius).
pub fn circles(app: &mut App) -> Vec<(Vec2, f32)> {
    let mut q = app.world_mut().query::<(&Transform, &CircleCollider)>();
    q.iter(app.world())
        .map(|(t, c)| (t.translation.truncate(), c.radius))
        .collect()
}

/// Builds `FixedPostUpdate` with ambiguity detection set to fail, and panics on any.
pub fn initialize_without_ambiguity(app: &mut App) {
    app.edit_schedule(FixedPostUpdate, |s| {
        s.set_build_settings(ScheduleBuildSettings {
            ambiguity_detection: LogLevel::Error,
            ..default()
        });
    });
    app.world_mut()
        .schedule_scope(FixedPostUpdate, |world, schedule| {
            schedule.initialize(world).map(|_| ())
        })
        .expect("no ambiguities in the plugin's schedule");
}

/// Kinematic paddles (a speed of 3 units/s along x) sweeping the floor of an arena
/// `width` wide: each turns back once it is within 2 units of a wall.
pub fn turn_paddles(app: &mut App, paddles: &[Entity], width: f32) {
    for &p in paddles {
        let x = app.world().get::<Transform>(p).unwrap().translation.x;
        let mut v = app.world_mut().get_mut::<Velocity>(p).unwrap();
        if x > width - 2.0 {
            v.0.x = -3.0;
        } else if x < 2.0 {
            v.0.x = 3.0;
        }
    }
}
