//! Layers, exclusions, sensors, touch start/end, CollidingEntities, the plugin group.

mod common;
use bevy::prelude::*;
use bevy_circle_collide::core::scenes;
use bevy_circle_collide::prelude::*;
use bevy_circle_collide::{
    BroadPhasePlugin, IntegratePlugin, NarrowPhasePlugin, ResolvePlugin, TimeOfImpactPlugin,
};
use common::*;

#[derive(Resource, Default)]
struct Touches(Vec<(bool, Entity, Entity)>);

fn record_touches(
    mut s: MessageReader<CollisionStarted>,
    mut e: MessageReader<CollisionEnded>,
    mut out: ResMut<Touches>,
) {
    out.0.extend(s.read().map(|m| (true, m.a, m.b)));
    out.0.extend(e.read().map(|m| (false, m.a, m.b)));
}

fn app_with_touches() -> App {
    let mut app = app();
    app.init_resource::<Touches>()
        .add_systems(Update, record_touches);
    app
}

#[test]
fn filtered_and_ignored_pairs_pass_through_each_other() {
    let mut app = app_with_touches();
    // Lane 1: layers refuse each other (a is in layer 1, b only collides with layer 2).
    let a = spawn(&mut app, Vec2::ZERO, Vec2::new(2.0, 0.0), 0.5, Mass::Auto);
    let b = spawn(
        &mut app,
        Vec2::new(3.0, 0.0),
        Vec2::new(-2.0, 0.0),
        0.5,
        Mass::Auto,
    );
    app.world_mut()
        .entity_mut(a)
        .insert(CollisionLayers::new(1, u32::MAX));
    app.world_mut()
        .entity_mut(b)
        .insert(CollisionLayers::new(2, 2));
    // Lane 2: an explicit exclusion listed on one side only.
    let c = spawn(
        &mut app,
        Vec2::new(0.0, 5.0),
        Vec2::new(2.0, 0.0),
        0.5,
        Mass::Auto,
    );
    let d = spawn(
        &mut app,
        Vec2::new(3.0, 5.0),
        Vec2::new(-2.0, 0.0),
        0.5,
        Mass::Auto,
    );
    app.world_mut()
        .entity_mut(d)
        .insert(IgnoredCollisions(vec![c]));
    // Lane 3: default layers still collide.
    let e = spawn(
        &mut app,
        Vec2::new(0.0, 10.0),
        Vec2::new(2.0, 0.0),
        0.5,
        Mass::Auto,
    );
    let f = spawn(
        &mut app,
        Vec2::new(3.0, 10.0),
        Vec2::new(-2.0, 0.0),
        0.5,
        Mass::Auto,
    );
    steps(&mut app, 60);
    for (x, y) in [(a, b), (c, d)] {
        assert_eq!(vel(&app, x), Vec2::new(2.0, 0.0));
        assert_eq!(vel(&app, y), Vec2::new(-2.0, 0.0));
        assert!(pos(&app, x).x > pos(&app, y).x, "passed through");
    }
    assert_eq!(
        (vel(&app, e), vel(&app, f)),
        (Vec2::new(-2.0, 0.0), Vec2::new(2.0, 0.0))
    );
    let ev = events(&mut app);
    assert_eq!(ev.len(), 1);
    assert_eq!(ev[0].a, e.min(f));
    let t = &app.world().resource::<Touches>().0;
    assert!(
        t.iter()
            .all(|(_, x, y)| [*x, *y].contains(&e) && [*x, *y].contains(&f)),
        "{t:?}"
    );
}

#[test]
fn sensors_report_exact_entry_and_never_change_velocities() {
    let mut app = app_with_touches();
    app.world_mut().resource_mut::<CircleCollideConfig>().arena = Some(ArenaConfig {
        min: Vec2::splat(-4.0),
        max: Vec2::splat(4.0),
        restitution: 1.0,
        friction: 0.0,
    });
    let coin = spawn(&mut app, Vec2::ZERO, Vec2::ZERO, 1.0, Mass::Static);
    app.world_mut().entity_mut(coin).insert(Sensor);
    let ball = spawn(
        &mut app,
        Vec2::new(-3.0, 0.3),
        Vec2::new(3.0, 0.0),
        0.5,
        Mass::Auto,
    );
    // A moving sensor crossing the wall: sensors ignore walls.
    let ghost = spawn(
        &mut app,
        Vec2::new(3.0, 3.0),
        Vec2::new(3.0, 0.0),
        0.5,
        Mass::Auto,
    );
    app.world_mut().entity_mut(ghost).insert(Sensor);
    // 150 steps: in at ~0.53 s, out at ~1.49 s, right wall at 2.17 s, back at the coin
    // only after 2.8 s.
    steps(&mut app, 150);
    let ev = events(&mut app);
    let entry: Vec<_> = ev.iter().filter(|e| e.sensor).collect();
    assert_eq!(entry.len(), 1, "{ev:?}");
    // Contact when |(-3 + 3t, 0.3)| = 1.5: t = (3 − √(1.5² − 0.3²)) / 3.
    let exact = (3.0 - (1.5f64 * 1.5 - 0.09).sqrt()) / 3.0;
    let measured = entry[0].step as f64 * dt() + f64::from(entry[0].time);
    assert!(
        ((measured - exact) / exact).abs() < 1e-6,
        "{measured} vs {exact}"
    );
    assert_eq!(entry[0].impulse, 0.0);
    assert_eq!(
        vel(&app, ball),
        Vec2::new(-3.0, 0.0),
        "a sensor never pushes; the wall does"
    );
    assert_eq!(pos(&app, coin), Vec2::ZERO);
    assert!(pos(&app, ghost).x > 4.0, "sensors ignore walls");
    // The ball hit the right wall after leaving the coin: one real impact.
    assert_eq!(ev.iter().filter(|e| !e.sensor).count(), 1);
    let t = &app.world().resource::<Touches>().0;
    let (lo, hi) = (coin.min(ball), coin.max(ball));
    assert_eq!(
        t.iter().filter(|x| **x == (true, lo, hi)).count(),
        1,
        "{t:?}"
    );
    assert_eq!(
        t.iter().filter(|x| **x == (false, lo, hi)).count(),
        1,
        "{t:?}"
    );
}

#[test]
fn starts_and_ends_balance_in_a_gas_and_on_despawn() {
    let mut app = app_with_touches();
    let ids = spawn_scene(&mut app, &scenes::gas(300, 0.3, 10.0));
    let watched = ids[7];
    app.world_mut()
        .entity_mut(watched)
        .insert(CollidingEntities::default());
    let mut saw_contact = false;
    for _ in 0..300 {
        steps(&mut app, 1);
        saw_contact |= !app
            .world()
            .get::<CollidingEntities>(watched)
            .unwrap()
            .is_empty();
    }
    assert!(saw_contact);
    // Despawn half the bodies, then everything: every start gets its end.
    for e in ids.iter().step_by(2) {
        app.world_mut().despawn(*e);
    }
    steps(&mut app, 5);
    for e in ids.iter().skip(1).step_by(2) {
        app.world_mut().despawn(*e);
    }
    steps(&mut app, 1);
    let t = &app.world().resource::<Touches>().0;
    let mut open = std::collections::HashSet::new();
    for (start, a, b) in t {
        assert!(a < b);
        if *start {
            assert!(open.insert((*a, *b)), "started twice without an end");
        } else {
            assert!(open.remove(&(*a, *b)), "ended without a start");
        }
    }
    assert!(open.is_empty(), "{} pairs never ended", open.len());
    assert!(t.len() > 1000, "a gas touches a lot: {}", t.len());
}

#[test]
fn resting_pair_starts_once_and_colliding_entities_lists_it() {
    let mut app = app_with_touches();
    gravity_box(&mut app);
    app.world_mut()
        .resource_mut::<CircleCollideConfig>()
        .default_restitution = 0.0;
    let (low, high) = stack_of_two(&mut app);
    app.world_mut()
        .entity_mut(low)
        .insert(CollidingEntities::default());
    steps(&mut app, 120);
    let t = &app.world().resource::<Touches>().0;
    assert_eq!(t, &vec![(true, low.min(high), low.max(high))]);
    let c = app.world().get::<CollidingEntities>(low).unwrap();
    assert_eq!(c.iter().copied().collect::<Vec<_>>(), vec![high]);
    assert!(events(&mut app).is_empty(), "resting sends no impacts");
}

#[test]
fn a_pair_gliding_within_the_slop_starts_once_and_survives_fallback_steps() {
    // A and B glide side by side, a quarter of the slop apart: touching all along. From
    // the third step a ball rattles in a slot between two static circles, past the impact
    // cap (4 per body + 64), so steps fall back and list their pairs anew at their end.
    let mut app = app_with_touches();
    app.world_mut()
        .resource_mut::<CircleCollideConfig>()
        .max_impacts_per_body = 4;
    let glide = Vec2::new(1.0, 0.0);
    let a = spawn(&mut app, Vec2::ZERO, glide, 0.5, Mass::Auto);
    let b = spawn(&mut app, Vec2::new(1.00125, 0.0), glide, 0.5, Mass::Auto);
    let far = Vec2::new(0.0, 10.0);
    spawn(&mut app, far, Vec2::ZERO, 0.5, Mass::Static);
    let ball = spawn(
        &mut app,
        far + Vec2::new(1.01, 0.0),
        Vec2::ZERO,
        0.5,
        Mass::Auto,
    );
    spawn(
        &mut app,
        far + Vec2::new(2.02, 0.0),
        Vec2::ZERO,
        0.5,
        Mass::Static,
    );
    steps(&mut app, 2);
    let pair = (a.min(b), a.max(b));
    let t = &app.world().resource::<Touches>().0;
    assert_eq!(
        t,
        &vec![(true, pair.0, pair.1)],
        "A and B touch from the first step"
    );
    app.world_mut()
        .entity_mut(ball)
        .insert(Velocity(Vec2::new(300.0, 0.0)));
    steps(&mut app, 3);
    assert!(app.world().resource::<CollisionDiagnostics>().fallbacks >= 1);
    let t = &app.world().resource::<Touches>().0;
    let ab: Vec<_> = t.iter().filter(|x| (x.1, x.2) == pair).collect();
    assert_eq!(ab, vec![&(true, pair.0, pair.1)], "{t:?}");
}

#[test]
fn plugin_group_with_a_phase_disabled_or_replaced_builds_without_ambiguities() {
    type Disable = fn(bevy::app::PluginGroupBuilder) -> bevy::app::PluginGroupBuilder;
    let variants: [Disable; 5] = [
        |g| g.disable::<IntegratePlugin>(),
        |g| g.disable::<BroadPhasePlugin>(),
        |g| g.disable::<NarrowPhasePlugin>(),
        |g| g.disable::<TimeOfImpactPlugin>(),
        |g| g.disable::<ResolvePlugin>(),
    ];
    for disable in variants {
        let mut app = App::new();
        app.add_plugins((
            MinimalPlugins,
            disable(CircleCollidePlugins::default().build()),
        ));
        initialize_without_ambiguity(&mut app);
        app.update();
    }
    // Narrow phase replaced by a user system in the same set: the step still works.
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        CircleCollidePlugins::default()
            .build()
            .disable::<NarrowPhasePlugin>(),
    ))
    .add_systems(
        FixedPostUpdate,
        (|mut w: ResMut<bevy_circle_collide::CircleCollideWorld>| {
            w.simulation_mut().narrow_phase()
        })
        .in_set(CircleCollideSystems::NarrowPhase),
    )
    .insert_resource(Time::<Fixed>::from_hz(60.0))
    .insert_resource(bevy::time::TimeUpdateStrategy::ManualDuration(
        Time::<Fixed>::from_hz(60.0).timestep(),
    ));
    initialize_without_ambiguity(&mut app);
    let a = app
        .world_mut()
        .spawn((CircleCollider::new(0.5), Velocity(Vec2::X)))
        .id();
    let b = app
        .world_mut()
        .spawn((CircleCollider::new(0.5), Transform::from_xyz(2.0, 0.0, 0.0)))
        .id();
    for _ in 0..90 {
        app.update();
    }
    assert_eq!((vel(&app, a), vel(&app, b)), (Vec2::ZERO, Vec2::X));
}

/// Starts and ends with their step, read in `Update` with several fixed steps per frame.
#[derive(Resource, Default)]
struct StepTouches(Vec<Vec<(u64, bool, Entity, Entity)>>);

fn record_step_touches(
    mut s: MessageReader<CollisionStarted>,
    mut e: MessageReader<CollisionEnded>,
    mut out: ResMut<StepTouches>,
) {
    let mut frame: Vec<_> = s.read().map(|m| (m.step, true, m.a, m.b)).collect();
    frame.extend(e.read().map(|m| (m.step, false, m.a, m.b)));
    out.0.push(frame);
}

/// Four fixed steps per frame in an elastic gas (pairs start and end all the time): read
/// starts and ends from two readers, merged by `step` they replay without one start of
/// an open pair or end of a closed one, and end with the pairs `CollidingEntities` holds.
/// Merged without the step (starts first), the same frames do not.
#[test]
fn starts_and_ends_of_several_steps_per_frame_replay_in_step_order() {
    let mut app = app();
    app.insert_resource(bevy::time::TimeUpdateStrategy::ManualDuration(
        4 * Time::<Fixed>::from_hz(60.0).timestep(),
    ))
    .init_resource::<StepTouches>()
    .add_systems(Update, record_step_touches);
    let scene = scenes::gas(300, 0.3, 10.0);
    let entities = spawn_scene(&mut app, &scene);
    for e in &entities {
        app.world_mut()
            .entity_mut(*e)
            .insert(CollidingEntities::default());
    }
    for _ in 0..60 {
        app.update();
    }
    let frames = std::mem::take(&mut app.world_mut().resource_mut::<StepTouches>().0);
    let replay = |by_step: bool| {
        let mut open = std::collections::HashSet::new();
        let mut conflicts = 0;
        for frame in &frames {
            let mut frame = frame.clone();
            if by_step {
                frame.sort_by_key(|c| c.0);
            } else {
                frame.sort_by_key(|c| !c.1);
            }
            for &(_, starts, a, b) in &frame {
                let ok = if starts {
                    open.insert((a, b))
                } else {
                    open.remove(&(a, b))
                };
                conflicts += usize::from(!ok);
            }
        }
        (open, conflicts)
    };
    let steps_in_a_frame = frames
        .iter()
        .map(|f| {
            f.iter()
                .map(|c| c.0)
                .collect::<std::collections::HashSet<_>>()
                .len()
        })
        .max()
        .unwrap();
    assert!(steps_in_a_frame >= 2, "frames held one step each");
    let (open, conflicts) = replay(true);
    assert_eq!(conflicts, 0);
    let mut colliding = std::collections::HashSet::new();
    for e in &entities {
        for other in &app.world().get::<CollidingEntities>(*e).unwrap().0 {
            colliding.insert(((*e).min(*other), (*e).max(*other)));
        }
    }
    assert_eq!(open, colliding);
    assert!(
        replay(false).1 > 0,
        "starts-first never conflicted: the test shows nothing"
    );
}

/// A stack of two balls on the floor falls asleep: its pair starts once and does not end
/// while it sleeps (the broad phase lists no pair of two sleepers; the tracking keeps
/// it); when the game throws the top ball off, it ends, once.
#[test]
fn a_sleeping_stack_keeps_its_touch_until_the_game_separates_it() {
    let mut app = app_with_touches();
    gravity_box(&mut app);
    let (low, high) = stack_of_two(&mut app);
    steps(&mut app, 150);
    assert_eq!(
        app.world().resource::<CollisionDiagnostics>().sleeping,
        2,
        "the stack fell asleep"
    );
    let pair = (low.min(high), low.max(high));
    let touches = std::mem::take(&mut app.world_mut().resource_mut::<Touches>().0);
    assert_eq!(touches, vec![(true, pair.0, pair.1)], "one start, no end");
    app.world_mut().get_mut::<Velocity>(high).unwrap().0 = Vec2::new(6.0, 6.0);
    steps(&mut app, 30);
    let touches = std::mem::take(&mut app.world_mut().resource_mut::<Touches>().0);
    assert_eq!(
        touches,
        vec![(false, pair.0, pair.1)],
        "thrown off: one end"
    );
}

#[test]
fn flight_keeps_double_precision_between_steps_and_takes_what_the_game_writes() {
    let mut app = app();
    let g = -9.81;
    app.world_mut()
        .resource_mut::<CircleCollideConfig>()
        .gravity = Vec2::new(0.0, g);
    let (p0, v0) = (Vec2::new(0.1, 0.3), Vec2::new(3.7, 20.3));
    let ball = spawn(&mut app, p0, v0, 0.5, Mass::Auto);
    let precise = |app: &App| *app.world().get::<PreciseMotion>(ball).unwrap();
    let (p0, v0, g) = (p0.as_dvec2(), v0.as_dvec2(), f64::from(g));
    let n = 240;
    steps(&mut app, n);
    // Closed form of the parabola after n steps, against the double-precision state: an
    // f32 round trip every step would be off by ~1e-5 here.
    let t = n as f64 * dt();
    let want = p0 + v0 * t + bevy::math::DVec2::new(0.0, 0.5 * g * t * t);
    let m = precise(&app);
    assert!(
        (m.position - want).length() < 1e-9,
        "{:?} vs {want:?}",
        m.position
    );
    assert!((m.velocity.y - (v0.y + g * t)).abs() < 1e-9);
    assert_eq!(
        pos(&app, ball),
        m.position.as_vec2(),
        "Transform is it rounded"
    );
    assert_eq!(vel(&app, ball), m.velocity.as_vec2());
    // The game gives a new velocity: the position goes on from the precise one.
    let before = precise(&app).position;
    app.world_mut().get_mut::<Velocity>(ball).unwrap().0 = Vec2::new(-1.0, 0.0);
    steps(&mut app, 1);
    let h = dt();
    let want = before + bevy::math::DVec2::new(-h, 0.5 * g * h * h);
    assert!((precise(&app).position - want).length() < 1e-12);
    assert_eq!(precise(&app).velocity, bevy::math::DVec2::new(-1.0, g * h));
    // The game teleports it: the step starts from the game's position.
    app.world_mut()
        .get_mut::<Transform>(ball)
        .unwrap()
        .translation = Vec3::new(1.25, 2.5, 0.0);
    steps(&mut app, 1);
    let v = bevy::math::DVec2::new(-1.0, g * h);
    let want =
        bevy::math::DVec2::new(1.25, 2.5) + v * h + bevy::math::DVec2::new(0.0, 0.5 * g * h * h);
    assert!((precise(&app).position - want).length() < 1e-12);
}

#[test]
fn a_turning_body_keeps_its_angle_in_double_precision_and_takes_the_games_rotation() {
    let mut app = app();
    app.world_mut()
        .resource_mut::<CircleCollideConfig>()
        .gravity = Vec2::ZERO;
    let ball = spawn(
        &mut app,
        Vec2::new(3.0, 4.0),
        Vec2::new(0.5, 0.0),
        0.5,
        Mass::Auto,
    );
    let w = 1.3;
    app.world_mut()
        .entity_mut(ball)
        .insert(AngularVelocity(w as f32));
    let precise = |app: &App| *app.world().get::<PreciseMotion>(ball).unwrap();
    let rotation = |app: &App| app.world().get::<Transform>(ball).unwrap().rotation;
    let n = 600;
    steps(&mut app, n);
    // ω t wrapped into [-π, π): read back from the f32 quaternion every step the angle
    // would be off by ~1.5e-5 here.
    let turned = f64::from(w as f32) * n as f64 * dt();
    let want =
        (turned + std::f64::consts::PI).rem_euclid(std::f64::consts::TAU) - std::f64::consts::PI;
    let m = precise(&app);
    assert!((m.angle - want).abs() < 1e-11, "{} vs {want}", m.angle);
    assert_eq!(rotation(&app), Quat::from_rotation_z(m.angle as f32));
    // The game sets a rotation: the next step turns on from it.
    app.world_mut().get_mut::<Transform>(ball).unwrap().rotation = Quat::from_rotation_z(0.25);
    steps(&mut app, 1);
    let want = f64::from(Quat::from_rotation_z(0.25).to_euler(EulerRot::ZYX).0)
        + f64::from(w as f32) * dt();
    assert!((precise(&app).angle - want).abs() < 1e-12);
    // A body that stops turning keeps its angle, and its rotation is left alone.
    app.world_mut().get_mut::<AngularVelocity>(ball).unwrap().0 = 0.0;
    steps(&mut app, 1);
    let stopped = precise(&app).angle;
    steps(&mut app, 5);
    assert_eq!(precise(&app).angle, stopped);
    assert_eq!(rotation(&app), Quat::from_rotation_z(stopped as f32));
}
