//! What wakes a sleeping body through the plugin: a moving kinematic body, a body that
//! leaves or changes under it (despawned, collider removed or resized, moved away, given
//! other layers or ignored partners), and a changed configuration (gravity turned; only
//! the settings a body at rest depends on).

mod common;
use bevy::prelude::*;
use bevy_circle_collide::prelude::*;
use common::*;

/// Bodies asleep after the last step.
fn sleeping(app: &App) -> usize {
    app.world().resource::<CollisionDiagnostics>().sleeping
}

/// [`stack_of_two`] in [`gravity_box`], run until both balls sleep (150 steps); (low, high).
fn sleeping_stack(app: &mut App) -> (Entity, Entity) {
    gravity_box(app);
    let stack = stack_of_two(app);
    steps(app, 150);
    assert_eq!(sleeping(app), 2, "the stack fell asleep");
    stack
}

/// Runs `n` steps; the lowest height `body` reached at the end of any of them.
fn lowest_y(app: &mut App, body: Entity, n: usize) -> f32 {
    let mut lowest = f32::INFINITY;
    for _ in 0..n {
        steps(app, 1);
        lowest = lowest.min(pos(app, body).y);
    }
    lowest
}

/// A kinematic paddle (`Mass::Static` with a `Velocity`) spawned beside a sleeping stack
/// and driven into it wakes it and pushes it along the floor, without passing into it.
#[test]
fn a_kinematic_paddle_wakes_a_sleeping_stack_and_pushes_it() {
    let mut app = app();
    let (low, high) = sleeping_stack(&mut app);
    let start = pos(&app, low);
    let paddle = spawn(
        &mut app,
        Vec2::new(2.0, 0.5),
        Vec2::new(3.0, 0.0),
        0.5,
        Mass::Static,
    );
    // 1 s: the paddle reaches the stack after 2 units (0.67 s), then pushes it 1 unit on.
    let mut deepest: f32 = 0.0;
    for _ in 0..60 {
        steps(&mut app, 1);
        let gap = pos(&app, low).distance(pos(&app, paddle)) - 1.0;
        deepest = deepest.max(-gap / 0.5);
    }
    assert_eq!(sleeping(&app), 0, "the stack woke");
    let slop = app.world().resource::<CircleCollideConfig>().overlap_slop;
    assert!(
        deepest <= 2.0 * slop,
        "the low ball {deepest} r inside the paddle"
    );
    let moved = pos(&app, low).x - start.x;
    assert!(moved > 0.9, "the low ball was pushed by {moved} (about 1)");
    assert!(
        pos(&app, high).y > 0.4,
        "the top ball is still there: {}",
        pos(&app, high)
    );
}

/// The ball under a sleeping stack leaves — despawned, its collider removed, or moved
/// away by the game — and the ball it carried wakes and falls to the floor (asleep, it
/// was held in the air like a static body, at y = 1.5).
#[test]
fn a_sleeping_ball_falls_when_the_ball_under_it_leaves() {
    for how in ["despawn", "remove collider", "move away"] {
        let mut app = app();
        gravity_box(&mut app);
        let (low, high) = stack_of_two(&mut app);
        steps(&mut app, 150);
        assert_eq!(sleeping(&app), 2, "{how}: the stack fell asleep");
        match how {
            "despawn" => {
                app.world_mut().despawn(low);
            }
            "remove collider" => {
                app.world_mut().entity_mut(low).remove::<CircleCollider>();
            }
            _ => {
                let mut t = app.world_mut().get_mut::<Transform>(low).unwrap();
                t.translation.x = 8.0;
            }
        }
        // Falling one diameter takes 0.45 s (then it bounces: restitution 1).
        let lowest = lowest_y(&mut app, high, 40);
        assert!(
            (lowest - 0.5).abs() < 0.01,
            "{how}: the top ball came down to y = {lowest} only"
        );
    }
}

/// The ball under a sleeping stack shrinks (the game changes its `CircleCollider`): both
/// wake, it drops to the floor and the top ball comes down onto it (asleep, neither
/// would have moved, the top one resting on a circle that is no longer there).
#[test]
fn a_sleeping_stack_settles_lower_when_its_bottom_ball_shrinks() {
    let mut app = app();
    gravity_box(&mut app);
    let (low, high) = stack_of_two(&mut app);
    for ball in [low, high] {
        app.world_mut().entity_mut(ball).insert(Restitution(0.0));
    }
    steps(&mut app, 150);
    assert_eq!(sleeping(&app), 2, "the stack fell asleep");
    app.world_mut()
        .get_mut::<CircleCollider>(low)
        .unwrap()
        .radius = 0.25;
    steps(&mut app, 60);
    let (l, h) = (pos(&app, low), pos(&app, high));
    assert!((l.y - 0.25).abs() < 0.01, "the shrunk ball is at {l}");
    // Stacked straight: 0.25 + 0.25 + 0.5; it may have slid off to the side instead.
    assert!(h.y < 1.0 + 0.01, "the top ball is at {h}");
}

/// A ball asleep in a cradle of two static circles falls to the floor when the game
/// moves the cradle away through `Transform` (a trapdoor), or despawns one side.
#[test]
fn a_sleeping_ball_falls_when_the_static_cradle_under_it_is_moved_or_despawned() {
    for moved in [true, false] {
        let mut app = app();
        gravity_box(&mut app);
        let left = spawn(&mut app, Vec2::new(4.4, 3.0), Vec2::ZERO, 0.5, Mass::Static);
        let right = spawn(&mut app, Vec2::new(5.6, 3.0), Vec2::ZERO, 0.5, Mass::Static);
        // Set down off-centre by 0.03, below the cradle's rims (a ball dropped from above
        // them slides over the far side: frictionless): it settles at (5, 3.8).
        let ball = spawn(&mut app, Vec2::new(5.03, 3.85), Vec2::ZERO, 0.5, Mass::Auto);
        for body in [left, right, ball] {
            // Inelastic (the default restitution 1 would bounce it about for ever).
            app.world_mut().entity_mut(body).insert(Restitution(0.0));
        }
        steps(&mut app, 180);
        assert_eq!(sleeping(&app), 1, "the ball fell asleep in the cradle");
        let rest = pos(&app, ball);
        assert!(rest.y > 3.5, "in the cradle: {rest}");
        if moved {
            for side in [left, right] {
                let mut t = app.world_mut().get_mut::<Transform>(side).unwrap();
                t.translation.y = 8.5;
            }
        } else {
            app.world_mut().despawn(right);
        }
        let lowest = lowest_y(&mut app, ball, 60);
        assert!(
            (lowest - 0.5).abs() < 0.01,
            "moved {moved}: the ball came down to y = {lowest} only"
        );
    }
}

/// The game turns gravity sideways under a sleeping stack: the configuration changed, so
/// every body wakes, and the stack slides to the right-hand wall (frictionless floor).
/// Woken with the rest time it had asleep (over `time_to_sleep`), a body slower than the
/// sleep speed in its first step awake (gravity gives it 0.16 units/s) fell asleep again
/// at once, where it was: the stack hung in place whatever gravity did.
#[test]
fn a_sleeping_stack_slides_when_gravity_turns_sideways() {
    let mut app = app();
    let (low, high) = sleeping_stack(&mut app);
    app.world_mut()
        .resource_mut::<CircleCollideConfig>()
        .gravity = Vec2::new(9.81, -9.81);
    // From x = 5 to the wall at 10 (x = 9.5 for a ball touching it): 4.5 units at 9.81
    // units/s², about 1 s (the balls then bounce back: restitution 1).
    let mut furthest = [f32::MIN; 2];
    for _ in 0..120 {
        steps(&mut app, 1);
        for (x, ball) in furthest.iter_mut().zip([low, high]) {
            *x = x.max(pos(&app, ball).x);
        }
    }
    assert!(furthest.iter().all(|&x| x > 9.4), "{furthest:?}");
}

/// A change to the configuration, named.
type Tuning = (&'static str, fn(&mut CircleCollideConfig));

/// Tuning a sleeping world: settings a body at rest does not depend on (restitution, the
/// solver's passes and correction, the resting speed, events, the sleep time) leave a
/// sleeping stack asleep where it is, step after step; those it depends on (the default
/// friction, the density, the slop, sleeping itself) wake it in the next step. Every
/// setting used to wake every body (in the inspector a pile stayed awake while any slider
/// moved).
#[test]
fn only_settings_a_resting_body_depends_on_wake_a_sleeping_stack() {
    let mut app = app();
    let (low, high) = sleeping_stack(&mut app);
    let at = [pos(&app, low), pos(&app, high)];
    let tunings: [Tuning; 6] = [
        ("default restitution", |c| c.default_restitution = 0.3),
        ("contact passes", |c| c.contact_iterations = 40),
        ("correction", |c| c.conjugate_correction = false),
        ("resting speed", |c| c.resting_speed = Some(0.5)),
        ("resting impacts", |c| c.report_resting_impacts = true),
        ("time to sleep", |c| c.time_to_sleep = 1.0),
    ];
    for (what, tune) in tunings {
        tune(&mut app.world_mut().resource_mut::<CircleCollideConfig>());
        steps(&mut app, 3);
        assert_eq!(sleeping(&app), 2, "{what} woke the stack");
        assert_eq!([pos(&app, low), pos(&app, high)], at, "{what}");
    }
    let wakers: [Tuning; 4] = [
        ("default friction", |c| c.default_friction = 0.5),
        ("density", |c| c.density = 2.0),
        ("slop", |c| c.overlap_slop = 0.02),
        ("sleeping off", |c| c.sleep = false),
    ];
    for (what, tune) in wakers {
        tune(&mut app.world_mut().resource_mut::<CircleCollideConfig>());
        steps(&mut app, 1);
        assert_eq!(sleeping(&app), 0, "{what} woke nobody");
        app.world_mut().resource_mut::<CircleCollideConfig>().sleep = true;
        steps(&mut app, 150);
        assert_eq!(sleeping(&app), 2, "after {what}: asleep again");
    }
}

/// Layer `memberships` alone, colliding with itself only.
fn layers(memberships: u32) -> CollisionLayers {
    CollisionLayers {
        memberships,
        filters: memberships,
    }
}

/// A sleeping stack whose balls stop colliding (the game gives them disjoint
/// `CollisionLayers`): the top ball wakes and falls through the bottom one to the floor.
/// Asleep it was held like a static body and hung at y = 1.5, for good: nothing it
/// touched moved, and a change of layers woke nobody.
#[test]
fn a_sleeping_ball_falls_through_a_ball_it_no_longer_collides_with() {
    let mut app = app();
    let (low, high) = sleeping_stack(&mut app);
    app.world_mut().entity_mut(low).insert(layers(1));
    app.world_mut().entity_mut(high).insert(layers(2));
    // Falling 1 unit takes 0.45 s: within 0.6 s it reaches the floor (y = 0.5).
    assert!(lowest_y(&mut app, high, 36) < 0.55, "{}", pos(&app, high));
}

/// The same with the pair ignored (`IgnoredCollisions` added to the top ball, naming the
/// bottom one): the top ball wakes and falls through.
#[test]
fn a_sleeping_ball_falls_through_a_ball_it_now_ignores() {
    let mut app = app();
    let (low, high) = sleeping_stack(&mut app);
    (app.world_mut().entity_mut(high)).insert(IgnoredCollisions(vec![low]));
    assert!(lowest_y(&mut app, high, 36) < 0.55, "{}", pos(&app, high));
}

/// Marks every body's `Mass`, `Friction` and `CollisionLayers` changed every frame, their
/// values unchanged (as a game writing them from its own state does).
fn rewrite_properties(mut bodies: Query<(&mut Mass, &mut Friction, &mut CollisionLayers)>) {
    for (mut mass, mut friction, mut layers) in &mut bodies {
        mass.set_changed();
        friction.set_changed();
        layers.set_changed();
    }
}

/// A game writes the stack's properties again every frame, unchanged: the stack stays
/// asleep, still (compared by value: change ticks alone kept every sleeper touching such
/// a body awake); given another friction, it wakes.
#[test]
fn properties_written_again_unchanged_wake_nobody() {
    let mut app = app();
    app.add_systems(FixedUpdate, rewrite_properties);
    let (low, high) = sleeping_stack(&mut app);
    for ball in [low, high] {
        app.world_mut()
            .entity_mut(ball)
            .insert((Friction(0.0), CollisionLayers::default()));
    }
    let at = [pos(&app, low), pos(&app, high)];
    for step in 0..60 {
        steps(&mut app, 1);
        assert_eq!(
            sleeping(&app),
            2,
            "step {step}: rewritten properties woke the stack"
        );
    }
    assert_eq!([pos(&app, low), pos(&app, high)], at);
    app.world_mut().entity_mut(low).insert(Friction(0.5));
    steps(&mut app, 1);
    assert_eq!(sleeping(&app), 0, "another friction woke nobody");
}

/// Two balls asleep on the floor, overlapping by half a radius, on disjoint layers: the
/// game removes one's `CollisionLayers` (it now collides with every layer), the pair
/// collides, and the balls wake and are pushed apart. Asleep, a pair of two sleeping
/// bodies is never listed, so they stayed overlapped.
#[test]
fn sleeping_balls_that_start_colliding_are_pushed_apart() {
    let mut app = app();
    gravity_box(&mut app);
    let a = spawn(&mut app, Vec2::new(5.0, 0.5), Vec2::ZERO, 0.5, Mass::Auto);
    let b = spawn(&mut app, Vec2::new(5.5, 0.5), Vec2::ZERO, 0.5, Mass::Auto);
    app.world_mut().entity_mut(a).insert(layers(1));
    app.world_mut().entity_mut(b).insert(layers(2));
    steps(&mut app, 60);
    assert_eq!(sleeping(&app), 2, "both asleep, overlapping");
    app.world_mut().entity_mut(a).remove::<CollisionLayers>();
    steps(&mut app, 30);
    let gap = pos(&app, a).distance(pos(&app, b)) - 1.0;
    let slop = app.world().resource::<CircleCollideConfig>().overlap_slop;
    assert!(gap >= -slop * 0.5 - 1e-4, "still {} r deep", -gap / 0.5);
}
