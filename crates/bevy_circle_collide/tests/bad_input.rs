//! Garbage from game code: never a panic, a hang, or NaN reaching another body; each
//! problem warned once, naming the entity, with its documented treatment.

mod common;
use bevy::prelude::*;
use bevy_circle_collide::CircleCollideWorld;
use bevy_circle_collide::core::InputIssues;
use bevy_circle_collide::prelude::*;
use common::*;

fn warned(app: &App, e: Entity, issue: InputIssues) -> bool {
    app.world()
        .resource::<CircleCollideWorld>()
        .warnings()
        .any(|(w, i)| w == e && i.contains(issue))
}

fn warning_count(app: &App, e: Entity) -> usize {
    app.world()
        .resource::<CircleCollideWorld>()
        .warnings()
        .filter(|(w, _)| *w == e)
        .count()
}

/// A ball flying free next to the garbage: it must keep its exact motion.
fn witness(app: &mut App) -> Entity {
    spawn(
        app,
        Vec2::new(100.0, 100.0),
        Vec2::new(1.0, 0.0),
        0.5,
        Mass::Auto,
    )
}

fn assert_witness(app: &App, w: Entity, steps_run: usize) {
    let expected = 100.0 + steps_run as f32 / 60.0;
    assert!((pos(app, w).x - expected).abs() < 1e-3 && vel(app, w) == Vec2::new(1.0, 0.0));
}

#[test]
fn invalid_position_radius_and_velocity() {
    let mut app = app();
    let w = witness(&mut app);
    let nan_pos = spawn(
        &mut app,
        Vec2::new(f32::NAN, 0.0),
        Vec2::ZERO,
        0.5,
        Mass::Auto,
    );
    let inf_pos = spawn(
        &mut app,
        Vec2::new(0.0, f32::INFINITY),
        Vec2::ZERO,
        0.5,
        Mass::Auto,
    );
    let radii: Vec<Entity> = [0.0, -1.0, f32::NAN, f32::INFINITY]
        .into_iter()
        .map(|r| spawn(&mut app, Vec2::new(100.5, 100.0), Vec2::ZERO, r, Mass::Auto))
        .collect();
    let nan_vel = spawn(
        &mut app,
        Vec2::new(0.0, 50.0),
        Vec2::new(f32::NAN, 1.0),
        0.5,
        Mass::Auto,
    );
    let fast = spawn(
        &mut app,
        Vec2::new(0.0, -50.0),
        Vec2::new(1e6, 0.0),
        0.5,
        Mass::Auto,
    );
    steps(&mut app, 60);
    assert_witness(&app, w, 60);
    assert_eq!(
        app.world()
            .resource::<CollisionDiagnostics>()
            .skipped_bodies,
        6
    );
    assert!(warned(&app, nan_pos, InputIssues::NON_FINITE_POSITION));
    assert!(warned(&app, inf_pos, InputIssues::NON_FINITE_POSITION));
    for e in &radii {
        assert!(warned(&app, *e, InputIssues::INVALID_RADIUS));
        // Skipped: the plugin leaves it alone.
        assert_eq!(pos(&app, *e), Vec2::new(100.5, 100.0));
    }
    assert!(warned(&app, nan_vel, InputIssues::NON_FINITE_VELOCITY));
    assert_eq!(vel(&app, nan_vel), Vec2::ZERO);
    assert!(warned(&app, fast, InputIssues::SPEED_CLAMPED));
    assert!((vel(&app, fast).length() - 1e5).abs() < 1.0);
    // One warning per entity and problem, not one per step.
    assert_eq!(warning_count(&app, nan_pos), 1);
    assert_eq!(warning_count(&app, fast), 1);
}

#[test]
fn invalid_masses_fall_back_to_density_and_still_collide() {
    for bad in [0.0, -2.0, f32::NAN] {
        let mut app = app();
        let a = spawn(
            &mut app,
            Vec2::ZERO,
            Vec2::new(1.0, 0.0),
            0.5,
            Mass::Fixed(bad),
        );
        let b = spawn(&mut app, Vec2::new(2.0, 0.0), Vec2::ZERO, 0.5, Mass::Auto);
        steps(&mut app, 120);
        assert!(warned(&app, a, InputIssues::INVALID_MASS));
        // Same (auto) mass as b: a clean velocity swap.
        assert_eq!(
            (vel(&app, a), vel(&app, b)),
            (Vec2::ZERO, Vec2::new(1.0, 0.0))
        );
    }
}

/// A named bad value, how to give it to an entity, and the issue it must raise.
type BadSurface = (&'static str, fn(&mut EntityWorldMut), InputIssues);

#[test]
fn invalid_friction_spin_and_inertia_are_repaired_and_warned() {
    let mut app = app();
    let w = witness(&mut app);
    // Each bad value on a ball hitting a resting one head-on: after the repair it is a
    // smooth (or solid-disk) ball, so the equal masses swap velocities exactly.
    let cases: [BadSurface; 5] = [
        (
            "NaN friction",
            |e| {
                e.insert(Friction(f32::NAN));
            },
            InputIssues::FRICTION_CLAMPED,
        ),
        (
            "negative friction",
            |e| {
                e.insert(Friction(-1.0));
            },
            InputIssues::FRICTION_CLAMPED,
        ),
        (
            "infinite rolling",
            |e| {
                e.insert(RollingResistance(f32::INFINITY));
            },
            InputIssues::FRICTION_CLAMPED,
        ),
        (
            "NaN spin",
            |e| {
                e.insert(AngularVelocity(f32::NAN));
            },
            InputIssues::NON_FINITE_SPIN,
        ),
        (
            "zero inertia",
            |e| {
                e.insert(MomentOfInertia(0.0));
            },
            InputIssues::INVALID_INERTIA,
        ),
    ];
    let mut pairs = Vec::new();
    for (k, (name, bad, issue)) in cases.iter().enumerate() {
        let y = 10.0 * k as f32;
        let a = spawn(
            &mut app,
            Vec2::new(0.0, y),
            Vec2::new(1.0, 0.0),
            0.5,
            Mass::Auto,
        );
        let b = spawn(&mut app, Vec2::new(2.0, y), Vec2::ZERO, 0.5, Mass::Auto);
        bad(&mut app.world_mut().entity_mut(a));
        pairs.push((name, a, b, *issue));
    }
    steps(&mut app, 120);
    for (name, a, b, issue) in pairs {
        assert!(warned(&app, a, issue), "{name} warned");
        assert_eq!(warning_count(&app, a), 1, "{name}: once");
        assert_eq!(vel(&app, a), Vec2::ZERO, "{name}");
        assert_eq!(vel(&app, b), Vec2::new(1.0, 0.0), "{name}");
        let spins = [a, b].map(|e| app.world().get::<AngularVelocity>(e).unwrap().0);
        assert!(spins.iter().all(|s| s.is_finite()), "{name}: {spins:?}");
        assert!(pos(&app, a).is_finite() && pos(&app, b).is_finite());
    }
    assert_witness(&app, w, 120);
}

fn coincident_positions() -> Vec<Vec2> {
    let mut app = app();
    let ids: Vec<Entity> = (0..4)
        .map(|_| spawn(&mut app, Vec2::new(3.0, 3.0), Vec2::ZERO, 0.5, Mass::Auto))
        .collect();
    steps(&mut app, 10);
    assert!(
        ids.iter()
            .all(|e| warned(&app, *e, InputIssues::DEEP_OVERLAP))
    );
    ids.iter().map(|e| pos(&app, *e)).collect()
}

#[test]
fn coincident_and_deeply_overlapping_spawns_separate_deterministically() {
    let a = coincident_positions();
    assert_eq!(a, coincident_positions(), "same separation every run");
    let circles: Vec<(Vec2, f32)> = a.iter().map(|p| (*p, 0.5)).collect();
    assert!(max_overlap(&circles) <= 0.005 + 1e-6, "{a:?}");
    assert!(a.iter().all(|p| p.is_finite()));

    let mut app = app();
    let x = spawn(&mut app, Vec2::new(0.0, 0.0), Vec2::ZERO, 0.5, Mass::Auto);
    let y = spawn(&mut app, Vec2::new(0.1, 0.0), Vec2::ZERO, 0.5, Mass::Auto);
    steps(&mut app, 1);
    assert!((pos(&app, x).distance(pos(&app, y)) - 1.0).abs() < 1e-5);
    assert!(
        warned(&app, x, InputIssues::DEEP_OVERLAP) && warned(&app, y, InputIssues::DEEP_OVERLAP)
    );
    // Equal masses share the push: the midpoint stays.
    assert!(((pos(&app, x) + pos(&app, y)) / 2.0 - Vec2::new(0.05, 0.0)).length() < 1e-6);
}

#[test]
fn outside_the_arena_is_pushed_in_and_absurd_speeds_stay_inside() {
    let mut app = app();
    app.world_mut().resource_mut::<CircleCollideConfig>().arena = Some(ArenaConfig {
        min: Vec2::ZERO,
        max: Vec2::splat(10.0),
        restitution: 1.0,
        friction: 0.0,
    });
    let out = spawn(&mut app, Vec2::new(-7.0, 5.0), Vec2::ZERO, 0.5, Mass::Auto);
    let fast = spawn(
        &mut app,
        Vec2::new(5.0, 5.0),
        Vec2::new(1e6, 3e5),
        0.5,
        Mass::Auto,
    );
    for _ in 0..120 {
        steps(&mut app, 1);
        for e in [out, fast] {
            let p = pos(&app, e);
            assert!(
                p.cmpge(Vec2::splat(0.5 - 0.005)).all() && p.cmple(Vec2::splat(9.5 + 0.005)).all(),
                "{p}"
            );
        }
    }
    assert!(warned(&app, out, InputIssues::OUTSIDE_ARENA));
    assert_eq!(pos(&app, out), Vec2::new(0.5, 5.0));
    // Clamped to max_speed (1e5). At that speed a 10-unit box means ~370 wall hits per
    // step, over the 2 × 32 + 64 cap: the work stays capped, the fallback is counted,
    // and the fallback's restitution-0 contacts can only take energy out.
    assert!(vel(&app, fast).is_finite() && vel(&app, fast).length() <= 1e5 + 1.0);
    let d = app.world().resource::<CollisionDiagnostics>();
    assert!(d.fallbacks > 0 && d.impacts <= 2 * 32 + 64);
}

/// A body spawned asleep outside the arena (a saved level loaded as it slept, a restored
/// snapshot): asleep it would stand as a static body where nobody pushes it. It wakes in
/// its first step, is pushed in and warned about, and falls to the floor.
#[test]
fn a_body_spawned_asleep_outside_the_arena_wakes_and_comes_in() {
    let mut app = app();
    gravity_box(&mut app);
    // A step with the configuration as it stays (a changed one wakes every body).
    steps(&mut app, 1);
    let at = Vec2::new(5.0, 13.0);
    let e = spawn(&mut app, at, Vec2::ZERO, 0.5, Mass::Auto);
    app.world_mut().entity_mut(e).insert((
        SleepState {
            sleeping: true,
            rest_time: 1.0,
            position: at,
        },
        Restitution(0.0),
    ));
    steps(&mut app, 1);
    assert!(warned(&app, e, InputIssues::OUTSIDE_ARENA));
    assert!(!app.world().get::<SleepState>(e).unwrap().sleeping);
    assert!(pos(&app, e).y <= 9.5 + 0.005, "{}", pos(&app, e));
    steps(&mut app, 180);
    assert!((pos(&app, e).y - 0.5).abs() <= 0.005, "{}", pos(&app, e));
}

#[test]
fn despawn_collider_removal_and_changes_between_steps() {
    let mut app = app();
    let w = witness(&mut app);
    let a = spawn(&mut app, Vec2::ZERO, Vec2::new(1.0, 0.0), 0.5, Mass::Auto);
    let b = spawn(&mut app, Vec2::new(3.0, 0.0), Vec2::ZERO, 0.5, Mass::Auto);
    let c = spawn(
        &mut app,
        Vec2::new(0.0, 10.0),
        Vec2::new(1.0, 0.0),
        0.5,
        Mass::Auto,
    );
    steps(&mut app, 30);
    app.world_mut().despawn(b);
    app.world_mut().entity_mut(c).remove::<CircleCollider>();
    let c_at = pos(&app, c);
    steps(&mut app, 120);
    assert_eq!(app.world().resource::<CollisionDiagnostics>().bodies, 2);
    assert_eq!(vel(&app, a), Vec2::new(1.0, 0.0), "b is gone: no impact");
    assert_eq!(pos(&app, c), c_at, "c is no longer simulated");
    // Grow a's radius and reverse it mid-run: it takes effect at the next step.
    app.world_mut().get_mut::<CircleCollider>(a).unwrap().radius = 2.0;
    app.world_mut().get_mut::<Velocity>(a).unwrap().0 = Vec2::new(-1.0, 0.0);
    let a_at = pos(&app, a);
    let d = spawn(
        &mut app,
        a_at - Vec2::new(3.0, 0.0),
        Vec2::ZERO,
        0.5,
        Mass::Auto,
    );
    steps(&mut app, 60);
    // Gap 3 − 2.5 = 0.5 closed at 1/s: they met, and a (4× the radius, 16× the mass) kept
    // most of its speed.
    assert!(vel(&app, d).x < -1.5 && vel(&app, a).x < -0.7);
    assert_witness(&app, w, 210);
}

/// A configuration mistake is warned once, as a configuration problem, not once per body:
/// a default restitution of 5, NaN gravity, and an arena far too small for the 100 bodies
/// spawned along a line. Fixing the configuration clears the warnings.
#[test]
fn config_mistakes_are_warned_once_not_per_body() {
    let mut app = app();
    {
        let mut config = app.world_mut().resource_mut::<CircleCollideConfig>();
        config.default_restitution = 5.0;
        config.gravity = Vec2::NAN;
        config.arena = Some(ArenaConfig {
            min: Vec2::ZERO,
            max: Vec2::splat(10.0),
            restitution: 0.0,
            friction: 0.0,
        });
    }
    let bodies: Vec<Entity> = (0..100)
        .map(|k| {
            let p = Vec2::new(1.0 + 2.0 * k as f32, 5.0);
            spawn(&mut app, p, Vec2::ZERO, 0.4, Mass::Auto)
        })
        .collect();
    steps(&mut app, 10);
    let world = app.world().resource::<CircleCollideWorld>();
    let config_warnings = world.config_warnings().to_vec();
    assert_eq!(config_warnings.len(), 3, "{config_warnings:?}");
    assert!(config_warnings[0].contains("gravity"));
    assert!(config_warnings[1].contains("default_restitution"));
    assert!(config_warnings[2].contains("outside the arena"));
    assert_eq!(
        world.warnings().count(),
        0,
        "per-body warnings for a config mistake"
    );
    for e in &bodies {
        let p = pos(&app, *e);
        assert!(
            p.is_finite() && p.cmpge(Vec2::splat(0.0)).all() && p.cmple(Vec2::splat(10.0)).all()
        );
    }
    // Fixed: nothing is left to warn about.
    {
        let mut config = app.world_mut().resource_mut::<CircleCollideConfig>();
        config.default_restitution = 1.0;
        config.gravity = Vec2::ZERO;
        config.arena = None;
    }
    steps(&mut app, 1);
    let world = app.world().resource::<CircleCollideWorld>();
    assert!(world.config_warnings().is_empty());
}

/// An impact cap far beyond any step's need is warned about and taken as
/// `MAX_IMPACTS_PER_BODY`: at 100,000 impacts a body, a circle rattling between two bodies
/// closing on it filled steps with millions of impacts (seconds and gigabytes of impacts
/// and events a step). A step's cap is at most `MAX_IMPACTS_PER_STEP` too.
#[test]
fn an_absurd_impact_cap_is_warned_about_and_clamped() {
    let mut app = app();
    app.world_mut()
        .resource_mut::<CircleCollideConfig>()
        .max_impacts_per_body = 100_000;
    for k in 0..10 {
        spawn(
            &mut app,
            Vec2::new(2.0 * k as f32, 0.0),
            Vec2::X,
            0.5,
            Mass::Auto,
        );
    }
    steps(&mut app, 1);
    let world = app.world().resource::<CircleCollideWorld>();
    let warnings = world.config_warnings();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].contains("max_impacts_per_body 100000 is above 4096"));
    let config = &world.simulation().config;
    assert_eq!(config.impact_cap(10), 4096 * 10 + 64);
    // And no step takes more than a million, whatever the bodies (a pile of 1396 in an
    // inelastic collapse took 5.7 million a step at 4096 a body, three seconds each).
    assert_eq!(config.impact_cap(1396), 1_000_000);
    // Within the limit the setting is used as it is, without a warning.
    app.world_mut()
        .resource_mut::<CircleCollideConfig>()
        .max_impacts_per_body = 4096;
    steps(&mut app, 1);
    let world = app.world().resource::<CircleCollideWorld>();
    assert!(world.config_warnings().is_empty());
}

#[test]
fn specks_pressed_deep_by_heavy_bodies_are_not_warned_about_as_bad_input() {
    // A pour of crates and specks at restitution 0: heavy bodies press specks deeper than
    // half their radius, and the push-out separates them. That is not input the game gave
    // (before: a deep-overlap warning for each of dozens of its entities); a circle the
    // game spawns onto another still is.
    let mut app = app();
    spawn_scene(
        &mut app,
        &bevy_circle_collide::core::scenes::speck_pour(250, 1),
    );
    steps(&mut app, 300);
    let warnings: Vec<_> = (app.world().resource::<CircleCollideWorld>().warnings()).collect();
    assert!(warnings.is_empty(), "{warnings:?}");
    let (x, y) = (Vec2::new(20.0, 1500.0), Vec2::new(20.1, 1500.0));
    let a = spawn(&mut app, x, Vec2::ZERO, 0.5, Mass::Auto);
    let b = spawn(&mut app, y, Vec2::ZERO, 0.5, Mass::Auto);
    steps(&mut app, 1);
    assert!(
        warned(&app, a, InputIssues::DEEP_OVERLAP) && warned(&app, b, InputIssues::DEEP_OVERLAP)
    );
}

#[test]
fn an_arena_too_small_for_its_circles_is_one_warning_about_the_arena() {
    // Forty circles of radius 0.5 (area 31.4) in a box of 4 × 4: they cannot fit, the
    // push-out keeps driving them into each other and the walls. That is the arena's
    // problem, said once — not a deep-overlap or outside-the-arena warning per entity.
    let mut app = app();
    app.world_mut().resource_mut::<CircleCollideConfig>().arena = Some(ArenaConfig {
        min: Vec2::ZERO,
        max: Vec2::splat(4.0),
        restitution: 0.2,
        friction: 0.0,
    });
    for k in 0..40 {
        let p = Vec2::new(0.3 + 0.5 * (k % 7) as f32, 0.3 + 0.6 * (k / 7) as f32);
        spawn(&mut app, p, Vec2::ZERO, 0.5, Mass::Auto);
    }
    steps(&mut app, 30);
    let world = app.world().resource::<CircleCollideWorld>();
    let config_warnings = world.config_warnings().to_vec();
    assert_eq!(config_warnings.len(), 1, "{config_warnings:?}");
    assert!(
        config_warnings[0].contains("total area"),
        "{config_warnings:?}"
    );
    let warnings: Vec<_> = world.warnings().collect();
    assert!(warnings.is_empty(), "{warnings:?}");
}
