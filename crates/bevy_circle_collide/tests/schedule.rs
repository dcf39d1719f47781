//! The schedule: five sets in order, no ambiguities, observers with late opt-in.

mod common;
use bevy::prelude::*;
use bevy_circle_collide::prelude::*;
use common::*;

#[derive(Resource, Default)]
struct Trace(Vec<CircleCollideSystems>);

#[test]
fn the_five_sets_run_in_order_without_ambiguities() {
    let mut app = app();
    app.init_resource::<Trace>();
    for set in CircleCollideSystems::ALL {
        app.add_systems(
            FixedPostUpdate,
            (move |mut t: ResMut<Trace>| t.0.push(set)).in_set(set),
        );
    }
    // Fail the build on any ambiguity, then build and run one step.
    initialize_without_ambiguity(&mut app);
    steps(&mut app, 1);
    assert_eq!(
        app.world().resource::<Trace>().0,
        CircleCollideSystems::ALL.to_vec()
    );
}

#[derive(Resource, Default)]
struct Hits(Vec<(Entity, CollisionTarget, Vec2)>);

#[test]
fn observer_opt_in_after_spawn_fires_on_the_right_entity() {
    let mut app = app();
    app.init_resource::<Hits>();
    let a = spawn(&mut app, Vec2::ZERO, Vec2::new(1.0, 0.0), 0.5, Mass::Auto);
    let b = spawn(&mut app, Vec2::new(2.0, 0.0), Vec2::ZERO, 0.5, Mass::Auto);
    for e in [a, b] {
        app.world_mut()
            .entity_mut(e)
            .observe(|hit: On<CollisionHit>, mut hits: ResMut<Hits>| {
                hits.0.push((hit.entity, hit.other, hit.normal));
            });
    }
    steps(&mut app, 10);
    // Opt in only now, long after spawn, and only for `b`.
    app.world_mut().entity_mut(b).insert(CollisionEventsEnabled);
    steps(&mut app, 60);
    let hits = &app.world().resource::<Hits>().0;
    assert_eq!(hits, &vec![(b, CollisionTarget::Body(a), Vec2::NEG_X)]);
    // Now `a` too, and a wall at x = 4: b (moving right at 1 after the swap) hits the
    // wall — walls are targets as well — comes back and hits a, now at rest.
    app.world_mut().entity_mut(a).insert(CollisionEventsEnabled);
    app.world_mut().resource_mut::<CircleCollideConfig>().arena = Some(ArenaConfig {
        min: Vec2::splat(-20.0),
        max: Vec2::new(4.0, 20.0),
        restitution: 1.0,
        friction: 0.0,
    });
    steps(&mut app, 240);
    let hits = &app.world().resource::<Hits>().0;
    assert_eq!(hits[1], (b, CollisionTarget::Wall(Wall::Right), Vec2::X));
    // b bounced back into a: both observers fire for that impact, normals opposite.
    assert!(
        hits.contains(&(a, CollisionTarget::Body(b), Vec2::X)),
        "{hits:?}"
    );
    assert!(
        hits.contains(&(b, CollisionTarget::Body(a), Vec2::NEG_X)),
        "{hits:?}"
    );
}

#[test]
fn empty_world_and_single_body_step_cleanly() {
    let mut app = app();
    steps(&mut app, 5);
    assert_eq!(app.world().resource::<CollisionDiagnostics>().bodies, 0);
    let e = spawn(&mut app, Vec2::ZERO, Vec2::new(1.0, 0.5), 0.5, Mass::Auto);
    steps(&mut app, 60);
    let p = pos(&app, e);
    assert!((p - Vec2::new(1.0, 0.5)).length() < 1e-5, "{p}");
}

/// Every system of the step is marked to run on the schedule's thread (the main thread
/// of an `App`): handed from pool thread to pool thread, a sleeping pile of 2000 cost
/// 0.63–0.70 ms a step against 0.44–0.66 (`docs/performance.md`). System names need
/// Bevy's `debug` feature, so the test counts against the same app without the plugin:
/// the plugin's seven systems (level sync, five phases, touch tracking) are all kept off
/// the pool (exclusive systems, such as Bevy's sync points, are not counted: they always
/// run on the schedule's thread).
#[test]
fn the_step_systems_run_on_the_schedule_thread() {
    fn off_pool(app: &mut App) -> usize {
        app.update();
        let schedules = app.world().resource::<Schedules>();
        let schedule = schedules.get(FixedPostUpdate).expect("a fixed schedule");
        (schedule.systems().expect("initialized by the step"))
            .filter(|(_, system)| !system.is_send() && !system.is_exclusive())
            .count()
    }
    let mut without = bare_app(2);
    without.add_systems(FixedPostUpdate, || {});
    without.update();
    assert_eq!(
        off_pool(&mut app_with_threads(2)),
        off_pool(&mut without) + 7
    );
}
