//! `LevelCollider` through the plugin: a ball dropped into a cup lands on its floor at
//! the closed-form time with an event naming the collider and the segment, a turned box
//! and layers apply, casts see the level, and the level follows the entities (moved,
//! despawned).

mod common;

use bevy::ecs::system::RunSystemOnce;
use bevy::prelude::*;
use bevy_circle_collide::prelude::*;
use bevy_circle_collide::{SpatialQuery, SpatialQueryFilter};
use common::{Collected, app, pos, spawn, steps, vel};

fn cup(app: &mut App) -> Entity {
    let points = vec![
        Vec2::new(-5.0, 8.0),
        Vec2::new(-5.0, 0.0),
        Vec2::new(5.0, 0.0),
        Vec2::new(5.0, 8.0),
    ];
    app.world_mut()
        .spawn(LevelCollider::polyline(points, false).with_restitution(0.5))
        .id()
}

#[test]
fn ball_lands_in_a_cup_with_an_event_naming_the_floor() {
    let mut app = app();
    let cup = cup(&mut app);
    // Falls 4.5 (from 5 to the floor less its radius 0.5) at 8 units/s: t = 0.5625 s.
    let ball = spawn(
        &mut app,
        Vec2::new(1.0, 5.0),
        Vec2::new(0.0, -8.0),
        0.5,
        Mass::Fixed(1.0),
    );
    app.world_mut().entity_mut(ball).insert(Restitution(0.0));
    steps(&mut app, 36);
    let hits: Vec<CollisionEvent> = app.world().resource::<Collected>().0.clone();
    assert_eq!(hits.len(), 1, "{hits:?}");
    let hit = hits[0];
    assert_eq!(
        hit.b,
        CollisionTarget::Level {
            entity: cup,
            segment: 1
        }
    );
    assert_eq!((hit.a, hit.normal), (ball, Vec2::NEG_Y));
    // Step 33 (counted from 0) holds t = 0.5625 s = 33.75 / 60.
    assert_eq!(hit.step, 33);
    assert!((hit.time - 0.75 / 60.0).abs() < 1e-5, "{}", hit.time);
    // Bounced with the cup's restitution 0.5 (under the `Max` rule).
    assert!(
        (vel(&app, ball).y - 4.0).abs() < 1e-4,
        "{}",
        vel(&app, ball)
    );

    // Casts see the cup: straight down from above the floor.
    let hit = app
        .world_mut()
        .run_system_once(|q: SpatialQuery| {
            q.ray_cast(
                Vec2::new(-2.0, 3.0),
                Vec2::NEG_Y,
                100.0,
                &SpatialQueryFilter::default(),
            )
        })
        .unwrap()
        .unwrap();
    assert_eq!((hit.level, hit.distance), (Some((cup, 1)), 3.0));
}

#[test]
fn turned_box_layers_and_changes_to_the_level() {
    let mut app = app();
    app.world_mut()
        .resource_mut::<CircleCollideConfig>()
        .gravity = Vec2::new(0.0, -9.81);
    // A box turned 90° with half extents (1, 3): as wide as 6, as high as 2 (top at 1).
    let block = app
        .world_mut()
        .spawn((
            LevelCollider::rectangle(Vec2::new(1.0, 3.0)),
            Transform::from_rotation(Quat::from_rotation_z(std::f32::consts::FRAC_PI_2)),
        ))
        .id();
    let ball = spawn(
        &mut app,
        Vec2::new(2.5, 4.0),
        Vec2::new(0.0, -6.0),
        0.5,
        Mass::Fixed(1.0),
    );
    app.world_mut().entity_mut(ball).insert(Restitution(0.0));
    steps(&mut app, 40);
    let hits = app.world().resource::<Collected>().0.clone();
    assert!(
        matches!(hits[0].b, CollisionTarget::Level { entity, .. } if entity == block),
        "{hits:?}"
    );
    // Resting on the box's top (y = 1) with its radius 0.5.
    assert!(
        (pos(&app, ball).y - 1.5).abs() < 0.01,
        "on the box: {}",
        pos(&app, ball)
    );

    // A ball on another layer falls through; so does every ball once the box is gone.
    let ghost = spawn(
        &mut app,
        Vec2::new(-2.0, 4.0),
        Vec2::new(0.0, -6.0),
        0.5,
        Mass::Fixed(1.0),
    );
    app.world_mut()
        .entity_mut(ghost)
        .insert(CollisionLayers::new(2, 2));
    app.world_mut()
        .entity_mut(block)
        .insert(CollisionLayers::new(1, 1));
    steps(&mut app, 120);
    assert!(pos(&app, ghost).y < -5.0, "{}", pos(&app, ghost));
    assert!((pos(&app, ball).y - 1.5).abs() < 0.01, "still on the box");
    app.world_mut().entity_mut(block).despawn();
    app.world_mut().get_mut::<Velocity>(ball).unwrap().0 = Vec2::new(0.0, -6.0);
    steps(&mut app, 60);
    assert!(
        pos(&app, ball).y < -2.0,
        "the box is gone: {}",
        pos(&app, ball)
    );
}

/// A ball asleep on a level segment falls when the game despawns the segment (a level
/// change wakes every sleeping body: it may have rested on what is gone), and lands on
/// the segment below.
#[test]
fn a_sleeping_ball_falls_when_the_segment_under_it_is_despawned() {
    segment_despawned_under_a_sleeping_ball(app());
}

/// The same with frames three times as frequent as the fixed steps (a 180 Hz display):
/// the segment is despawned in a frame after which two frames run no physics step, so
/// Bevy's per-frame record of removed components is gone by the next step. The level
/// still loses the segment (its removal is observed), and the ball falls.
#[test]
fn a_segment_despawned_between_fixed_steps_leaves_the_level() {
    let mut app = common::bare_app(2);
    let step = Time::<Fixed>::from_hz(60.0).timestep();
    app.insert_resource(bevy::time::TimeUpdateStrategy::ManualDuration(step / 3))
        .add_plugins(CircleCollidePlugin::default());
    app.update();
    segment_despawned_under_a_sleeping_ball(app);
}

/// A ball falls asleep on the upper of two segments in `app`; the segment is despawned
/// right after a frame that ran a step, and 60 steps later the ball lies on the lower one.
fn segment_despawned_under_a_sleeping_ball(mut app: App) {
    app.world_mut()
        .resource_mut::<CircleCollideConfig>()
        .gravity = Vec2::new(0.0, -9.81);
    let segment = |y: f32| LevelCollider::segment(Vec2::new(-5.0, y), Vec2::new(5.0, y));
    let upper = app.world_mut().spawn(segment(4.0)).id();
    app.world_mut().spawn(segment(0.0));
    let ball = spawn(&mut app, Vec2::new(0.3, 4.5), Vec2::ZERO, 0.5, Mass::Auto);
    app.world_mut().entity_mut(ball).insert(Restitution(0.0));
    fixed_steps(&mut app, 90);
    let sleeping = app.world().resource::<CollisionDiagnostics>().sleeping;
    assert_eq!(sleeping, 1, "the ball fell asleep on the upper segment");
    app.world_mut().despawn(upper);
    fixed_steps(&mut app, 60);
    let y = pos(&app, ball).y;
    assert!(
        (y - 0.5).abs() < 0.01,
        "the ball is at y = {y}, not on the lower segment"
    );
}

/// Runs updates until `n` more fixed steps ran (with frames shorter than a step, not
/// every update runs one).
fn fixed_steps(app: &mut App, n: u64) {
    let target = app.world().resource::<CollisionDiagnostics>().step + n;
    while app.world().resource::<CollisionDiagnostics>().step < target {
        app.update();
    }
}

#[test]
fn a_ball_a_kinematic_paddle_squeezes_against_a_level_wall_stays_on_its_side() {
    // A moving platform pressing the player into a level wall: the paddle wins (the ball
    // overlaps it), but the ball is never pushed out beyond the wall, which has no
    // thickness (before: from the 30th step, at either restitution).
    for e in [1.0, 0.2] {
        let mut app = app();
        app.world_mut().spawn(LevelCollider::segment(
            Vec2::new(30.0, 0.0),
            Vec2::new(30.0, 40.0),
        ));
        let ball = spawn(&mut app, Vec2::new(29.0, 20.0), Vec2::ZERO, 1.0, Mass::Auto);
        let paddle = spawn(
            &mut app,
            Vec2::new(26.9999, 20.0),
            Vec2::new(2.0, 0.0),
            1.0,
            Mass::Static,
        );
        for id in [ball, paddle] {
            app.world_mut().entity_mut(id).insert(Restitution(e));
        }
        for step in 0..90 {
            steps(&mut app, 1);
            let p = pos(&app, ball);
            assert!(
                p.x < 30.0 && p.is_finite(),
                "e {e}, step {step}: the ball at {p}"
            );
        }
        let d = app.world().resource::<CollisionDiagnostics>();
        assert_eq!(d.fallbacks, 0, "e {e}");
    }
}
