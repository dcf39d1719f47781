//! `SpatialQuery` through the plugin: ray casts, circle casts, point and area queries
//! name the right entities at the closed-form distances, respect the filter, and follow
//! the bodies from step to step.

mod common;

use bevy::ecs::system::RunSystemOnce;
use bevy::prelude::*;
use bevy_circle_collide::prelude::*;
use bevy_circle_collide::{RayHit, SpatialQuery, SpatialQueryFilter};
use common::{app, spawn, steps};

fn ray(app: &mut App, o: Vec2, d: Vec2, filter: SpatialQueryFilter) -> Option<RayHit> {
    app.world_mut()
        .run_system_once(move |q: SpatialQuery| q.ray_cast(o, d, 100.0, &filter))
        .unwrap()
}

#[test]
fn casts_and_queries_name_the_right_entities_at_closed_form_distances() {
    let mut app = app();
    app.insert_resource(CircleCollideConfig {
        arena: Some(ArenaConfig::new(Vec2::splat(-20.0), Vec2::splat(20.0))),
        ..default()
    });
    let a = spawn(&mut app, Vec2::new(5.0, 0.0), Vec2::ZERO, 1.0, Mass::Static);
    let b = spawn(&mut app, Vec2::new(9.0, 0.5), Vec2::ZERO, 1.0, Mass::Static);
    let sensor = spawn(&mut app, Vec2::new(2.0, 0.0), Vec2::ZERO, 0.5, Mass::Static);
    app.world_mut().entity_mut(sensor).insert(Sensor);
    steps(&mut app, 1);

    // The sensor first (1.5 along), then `a` (4), then `b`: distances in closed form.
    let all = SpatialQueryFilter::default();
    let hit = ray(&mut app, Vec2::ZERO, Vec2::X, all.clone()).unwrap();
    assert_eq!((hit.entity, hit.distance), (Some(sensor), 1.5));
    let solid = SpatialQueryFilter::default().without_sensors();
    let hit = ray(&mut app, Vec2::ZERO, Vec2::X, solid.clone()).unwrap();
    assert_eq!(
        (hit.entity, hit.distance, hit.normal),
        (Some(a), 4.0, Vec2::NEG_X)
    );
    let past_a = solid.clone().excluding([a]);
    let hit = ray(&mut app, Vec2::ZERO, Vec2::X, past_a.clone()).unwrap();
    // |(t, 0) − (9, 0.5)| = 1  ⇒  t = 9 − √0.75.
    assert!(
        (
            hit.entity,
            (hit.distance - (9.0 - 0.75f32.sqrt())).abs() < 1e-5
        ) == (Some(b), true)
    );
    // Past every circle: the arena's right wall, 20 along, facing back.
    let hit = ray(&mut app, Vec2::new(0.0, 5.0), Vec2::X, solid.clone()).unwrap();
    assert_eq!(
        (hit.entity, hit.wall, hit.distance),
        (None, Some(Wall::Right), 20.0)
    );
    assert_eq!(hit.normal, Vec2::NEG_X);
    let no_walls = solid.clone().without_walls();
    assert!(ray(&mut app, Vec2::new(0.0, 5.0), Vec2::X, no_walls).is_none());

    let world = app.world_mut();
    let (cast, every, under, near, boxed) = world
        .run_system_once(move |q: SpatialQuery| {
            let filter = SpatialQueryFilter::default().without_sensors();
            (
                // A circle of radius 0.5 moving right from the origin touches `a` when
                // its centre is 1.5 from a's: 3.5 along.
                q.circle_cast(Vec2::ZERO, 0.5, Vec2::X, 100.0, &filter),
                q.ray_cast_all(Vec2::ZERO, Vec2::X, 100.0, &SpatialQueryFilter::default()),
                q.point(Vec2::new(9.0, 1.2), &filter),
                q.circle(Vec2::new(7.0, 0.0), 1.1, &filter),
                q.aabb(
                    Vec2::new(1.0, -1.0),
                    Vec2::new(3.0, 1.0),
                    &SpatialQueryFilter::default(),
                ),
            )
        })
        .unwrap();
    let cast = cast.unwrap();
    assert_eq!((cast.entity, cast.distance), (Some(a), 3.5));
    assert_eq!(
        cast.point,
        Vec2::new(4.0, 0.0),
        "where the two circles touch"
    );
    let order: Vec<_> = every.iter().map(|h| h.entity.unwrap()).collect();
    assert_eq!(order, [sensor, a, b], "nearest first, walls not listed");
    assert_eq!(under, [b]);
    assert_eq!(near.len(), 2, "a and b are both within 1.1 + 1 of (7, 0)");
    assert_eq!(boxed, [sensor]);
}

#[test]
fn queries_follow_the_bodies_from_step_to_step() {
    let mut app = app();
    let ball = spawn(
        &mut app,
        Vec2::new(0.0, 0.0),
        Vec2::new(6.0, 0.0),
        0.5,
        Mass::Fixed(1.0),
    );
    steps(&mut app, 1);
    let under = |app: &mut App, x: f32| {
        app.world_mut()
            .run_system_once(move |q: SpatialQuery| q.point(Vec2::new(x, 0.0), &default()))
            .unwrap()
    };
    // After one step of 1/60 s at 6 units/s the ball is centred at 0.1.
    assert_eq!(under(&mut app, 0.55), [ball]);
    steps(&mut app, 30);
    // 31 steps: centred at 3.1; the old place is empty.
    assert!(under(&mut app, 0.0).is_empty());
    assert_eq!(under(&mut app, 3.5), [ball]);
    app.world_mut().despawn(ball);
    steps(&mut app, 1);
    assert!(
        under(&mut app, 3.2).is_empty(),
        "a despawned body is gone after the next step"
    );
}
