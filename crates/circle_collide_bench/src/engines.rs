//! Spawning the same scene on each engine.

use crate::Engine;
use bevy::prelude::*;
use bevy_circle_collide::core::scenes::Scene;
use bevy_circle_collide::core::{BodyDesc, StepConfig};

/// Wall thickness of the peers' static boxes.
const WALL: f32 = 10.0;

/// A circle the march walks (`march`): every circle of the `march` scene, a share of
/// the `walkers` scene's.
#[derive(Component)]
pub struct Walker;

/// Adds the engine's plugins, its world settings and the arena's walls, and spawns the
/// scene's bodies; returns their entities in the scene's order.
pub fn add(app: &mut App, engine: Engine, scene: &Scene) -> Vec<Entity> {
    add_world(app, engine, &scene.config);
    (scene.bodies.iter())
        .map(|b| spawn(app.world_mut(), engine, b))
        .collect()
}

/// Adds the engine's plugins, gravity and the arena's walls (restitution of the arena;
/// friction 0 combined by `Max`, so the bodies' own friction holds on them).
pub fn add_world(app: &mut App, engine: Engine, config: &StepConfig) {
    let arena = config.arena.expect("standard scenes have walls");
    let (min, max) = (arena.min.as_vec2(), arena.max.as_vec2());
    let gravity = config.gravity.as_vec2();
    // Plugins first: they register the required components the spawns rely on.
    match engine {
        Engine::Ours => app.add_plugins(bevy_circle_collide::prelude::CircleCollidePlugin::default()),
        Engine::Avian => app.add_plugins(avian2d::prelude::PhysicsPlugins::default()),
        Engine::Rapier => app.add_plugins(
            bevy_rapier2d::prelude::RapierPhysicsPlugin::<bevy_rapier2d::prelude::NoUserData>::default().in_fixed_schedule(),
        ),
    };
    let world = app.world_mut();
    let e = arena.restitution as f32;
    match engine {
        Engine::Ours => {
            use bevy_circle_collide::prelude::*;
            world.insert_resource(CircleCollideConfig {
                gravity,
                arena: Some(ArenaConfig {
                    restitution: e,
                    ..ArenaConfig::new(min, max)
                }),
                // The scene's slop (`--slop`; the default otherwise).
                overlap_slop: config.overlap_slop as f32,
                // Opt-in sleeping by neighbourhood (module docs of `main`).
                sleep_by_neighbourhood: std::env::var_os("SLEEP_BY_NEIGHBOURHOOD").is_some(),
                ..default()
            });
        }
        Engine::Avian => {
            use avian2d::prelude::*;
            world.insert_resource(Gravity(gravity));
            for (centre, size) in walls(min, max) {
                world.spawn((
                    RigidBody::Static,
                    Collider::rectangle(size.x, size.y),
                    Transform::from_translation(centre.extend(0.0)),
                    Restitution::new(e).with_combine_rule(CoefficientCombine::Max),
                    Friction::ZERO.with_combine_rule(CoefficientCombine::Max),
                ));
            }
        }
        Engine::Rapier => {
            use bevy_rapier2d::prelude::*;
            for (centre, size) in walls(min, max) {
                world.spawn((
                    RigidBody::Fixed,
                    Collider::cuboid(size.x / 2.0, size.y / 2.0),
                    Transform::from_translation(centre.extend(0.0)),
                    Restitution {
                        coefficient: e,
                        combine_rule: CoefficientCombineRule::Max,
                    },
                    Friction {
                        coefficient: 0.0,
                        combine_rule: CoefficientCombineRule::Max,
                    },
                ));
            }
        }
    }
}

/// Spawns one body of a scene: radius, place, velocity, restitution (combined by `Max`)
/// and Coulomb friction (combined by `Max`; the peers' circles rotate, as ours do). The
/// peers have no rolling resistance: it is ours only. The peers' masses come from their
/// default density 1, which is the scenes' (`π r²`).
pub fn spawn(world: &mut World, engine: Engine, b: &BodyDesc) -> Entity {
    let (p, v) = (b.position.as_vec2(), b.velocity.as_vec2());
    let (r, e, mu) = (b.radius as f32, b.restitution as f32, b.friction as f32);
    match engine {
        Engine::Ours => {
            use bevy_circle_collide::prelude::*;
            world
                .spawn((
                    CircleCollider::new(r),
                    Transform::from_translation(p.extend(0.0)),
                    Velocity(v),
                    Mass::Fixed(b.mass as f32),
                    Restitution(e),
                    Friction(mu),
                    RollingResistance(b.rolling_resistance as f32),
                ))
                .id()
        }
        Engine::Avian => {
            use avian2d::prelude::*;
            world
                .spawn((
                    RigidBody::Dynamic,
                    Collider::circle(r),
                    Transform::from_translation(p.extend(0.0)),
                    LinearVelocity(v),
                    Restitution::new(e).with_combine_rule(CoefficientCombine::Max),
                    Friction::new(mu).with_combine_rule(CoefficientCombine::Max),
                ))
                .id()
        }
        Engine::Rapier => {
            use bevy_rapier2d::prelude::*;
            world
                .spawn((
                    RigidBody::Dynamic,
                    Collider::ball(r),
                    Transform::from_translation(p.extend(0.0)),
                    Velocity::linear(v),
                    Restitution {
                        coefficient: e,
                        combine_rule: CoefficientCombineRule::Max,
                    },
                    Friction {
                        coefficient: mu,
                        combine_rule: CoefficientCombineRule::Max,
                    },
                ))
                .id()
        }
    }
}

/// The crowd's steering: before every fixed step, each dynamic circle's velocity becomes
/// `speed` toward `centre` (the engine's own velocity component).
pub fn steer(app: &mut App, engine: Engine, centre: Vec2, speed: f32) {
    let toward = move |p: Vec3| (centre - p.truncate()).normalize_or_zero() * speed;
    match engine {
        Engine::Ours => {
            use bevy_circle_collide::prelude::*;
            app.add_systems(
                FixedPreUpdate,
                move |mut q: Query<(&Transform, &mut Velocity), Without<Dozer>>| {
                    for (t, mut v) in &mut q {
                        v.0 = toward(t.translation);
                    }
                },
            );
        }
        Engine::Avian => {
            use avian2d::prelude::*;
            app.add_systems(
                FixedPreUpdate,
                move |mut q: Query<(&RigidBody, &Transform, &mut LinearVelocity)>| {
                    for (body, t, mut v) in &mut q {
                        if body.is_dynamic() {
                            v.0 = toward(t.translation);
                        }
                    }
                },
            );
        }
        Engine::Rapier => {
            use bevy_rapier2d::prelude::*;
            app.add_systems(
                FixedPreUpdate,
                move |mut q: Query<(&RigidBody, &Transform, &mut Velocity)>| {
                    for (body, t, mut v) in &mut q {
                        if *body == RigidBody::Dynamic {
                            v.linear = toward(t.translation);
                        }
                    }
                },
            );
        }
    }
}

/// The march's steering: before every fixed step, each [`Walker`]'s horizontal velocity
/// becomes `vx` (its vertical velocity kept: gravity still pulls it), as a side-view
/// horde walking into a wall (the engine's own velocity component).
pub fn march(app: &mut App, engine: Engine, vx: f32) {
    match engine {
        Engine::Ours => {
            use bevy_circle_collide::prelude::*;
            app.add_systems(
                FixedPreUpdate,
                move |mut q: Query<&mut Velocity, With<Walker>>| {
                    for mut v in &mut q {
                        v.0.x = vx;
                    }
                },
            );
        }
        Engine::Avian => {
            use avian2d::prelude::*;
            app.add_systems(
                FixedPreUpdate,
                move |mut q: Query<(&RigidBody, &mut LinearVelocity), With<Walker>>| {
                    for (body, mut v) in &mut q {
                        if body.is_dynamic() {
                            v.0.x = vx;
                        }
                    }
                },
            );
        }
        Engine::Rapier => {
            use bevy_rapier2d::prelude::*;
            app.add_systems(
                FixedPreUpdate,
                move |mut q: Query<(&RigidBody, &mut Velocity), With<Walker>>| {
                    for (body, mut v) in &mut q {
                        if *body == RigidBody::Dynamic {
                            v.linear.x = vx;
                        }
                    }
                },
            );
        }
    }
}

/// Marks the `dozer` scene's kinematic circle: the steering leaves it alone.
#[derive(Component)]
pub struct Dozer;

/// The `dozer` scene's bulldozer: a kinematic circle of radius `r` at `p` moving at `v`
/// (restitution 0.2, the crowd's), which before every fixed step turns back along an
/// axis once it is within its radius of a wall of the box `min`–`max` (each engine's own
/// kinematic body: ours a static mass with a velocity, avian `Kinematic`, rapier
/// `KinematicVelocityBased`).
pub fn dozer(app: &mut App, engine: Engine, p: Vec2, v: Vec2, r: f32, min: Vec2, max: Vec2) {
    let turn = move |p: Vec3, v: &mut Vec2| {
        for k in 0..2 {
            if (p[k] < min[k] + r && v[k] < 0.0) || (p[k] > max[k] - r && v[k] > 0.0) {
                v[k] = -v[k];
            }
        }
    };
    let at = Transform::from_translation(p.extend(0.0));
    match engine {
        Engine::Ours => {
            use bevy_circle_collide::prelude::*;
            let world = app.world_mut();
            let body = (CircleCollider::new(r), at, Velocity(v), Mass::Static);
            world.spawn((body, Restitution(0.2), Dozer));
            app.add_systems(
                FixedPreUpdate,
                move |mut q: Query<(&Transform, &mut Velocity), With<Dozer>>| {
                    for (t, mut v) in &mut q {
                        turn(t.translation, &mut v.0);
                    }
                },
            );
        }
        Engine::Avian => {
            use avian2d::prelude::*;
            let e = Restitution::new(0.2).with_combine_rule(CoefficientCombine::Max);
            let body = (
                RigidBody::Kinematic,
                Collider::circle(r),
                at,
                LinearVelocity(v),
            );
            app.world_mut().spawn((body, e, Dozer));
            app.add_systems(
                FixedPreUpdate,
                move |mut q: Query<(&Transform, &mut LinearVelocity), With<Dozer>>| {
                    for (t, mut v) in &mut q {
                        turn(t.translation, &mut v.0);
                    }
                },
            );
        }
        Engine::Rapier => {
            use bevy_rapier2d::prelude::*;
            let e = Restitution {
                coefficient: 0.2,
                combine_rule: CoefficientCombineRule::Max,
            };
            let body = (RigidBody::KinematicVelocityBased, Collider::ball(r), at);
            app.world_mut().spawn((body, Velocity::linear(v), e, Dozer));
            app.add_systems(
                FixedPreUpdate,
                move |mut q: Query<(&Transform, &mut Velocity), With<Dozer>>| {
                    for (t, mut v) in &mut q {
                        turn(t.translation, &mut v.linear);
                    }
                },
            );
        }
    }
}

/// Settings that need the engine's own startup to have run.
pub fn after_startup(app: &mut App, engine: Engine, gravity: Vec2) {
    if engine == Engine::Rapier {
        let mut q = app
            .world_mut()
            .query::<&mut bevy_rapier2d::prelude::RapierConfiguration>();
        for mut config in q.iter_mut(app.world_mut()) {
            config.gravity = gravity;
        }
    }
}

/// A kinematic circle of radius `r` at `p` spinning at 1 rad/s and touching nothing (the
/// runner's `--spinner`): the one awake body beside a sleeping pile, which keeps our world
/// from skipping its steps as idle.
pub fn spinner(world: &mut World, engine: Engine, p: Vec2, r: f32) {
    let at = Transform::from_translation(p.extend(0.0));
    match engine {
        Engine::Ours => {
            use bevy_circle_collide::prelude::*;
            world.spawn((
                CircleCollider::new(r),
                at,
                Mass::Static,
                AngularVelocity(1.0),
            ));
        }
        Engine::Avian => {
            use avian2d::prelude::*;
            let body = (RigidBody::Kinematic, Collider::circle(r), at);
            world.spawn((body, AngularVelocity(1.0)));
        }
        Engine::Rapier => {
            use bevy_rapier2d::prelude::*;
            let body = (RigidBody::KinematicVelocityBased, Collider::ball(r), at);
            world.spawn((body, Velocity::angular(1.0)));
        }
    }
}

/// Four boxes whose inner faces are the arena's walls: (centre, size).
fn walls(min: Vec2, max: Vec2) -> [(Vec2, Vec2); 4] {
    let (w, h) = (max.x - min.x + 2.0 * WALL, max.y - min.y + 2.0 * WALL);
    let mid = (min + max) / 2.0;
    [
        (Vec2::new(min.x - WALL / 2.0, mid.y), Vec2::new(WALL, h)),
        (Vec2::new(max.x + WALL / 2.0, mid.y), Vec2::new(WALL, h)),
        (Vec2::new(mid.x, min.y - WALL / 2.0), Vec2::new(w, WALL)),
        (Vec2::new(mid.x, max.y + WALL / 2.0), Vec2::new(w, WALL)),
    ]
}
