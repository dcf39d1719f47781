//! Friction and rotation through the plugin: the components reach the core and come back
//! (`AngularVelocity`, the `Transform`'s rotation), and events carry the friction
//! impulse — checked against the closed forms of the rough disk.

mod common;
use bevy::prelude::*;
use bevy_circle_collide::prelude::*;
use common::*;
use std::f32::consts::{PI, TAU};

const G: f32 = 9.81;

fn floor_app() -> App {
    let mut app = app();
    app.insert_resource(CircleCollideConfig {
        gravity: Vec2::new(0.0, -G),
        arena: Some(ArenaConfig::new(Vec2::ZERO, Vec2::new(1000.0, 20.0))),
        ..default()
    });
    app
}

fn spin(app: &App, e: Entity) -> f32 {
    app.world().get::<AngularVelocity>(e).unwrap().0
}

#[test]
fn a_disk_sliding_onto_the_floor_rolls_at_two_thirds_and_its_transform_turns() {
    let (mu, v0, r) = (0.3f32, 6.0f32, 0.5f32);
    let mut app = floor_app();
    let ball = spawn(
        &mut app,
        Vec2::new(10.0, r),
        Vec2::new(v0, 0.0),
        r,
        Mass::Auto,
    );
    app.world_mut()
        .entity_mut(ball)
        .insert((Friction(mu), Restitution(0.0)));
    // The contact solver is first order: each step's impulses change ω, and the body
    // turns by the new ω × dt. Check the written rotation step by step against that.
    let mut angle = 0.0f32;
    for _ in 0..120 {
        steps(&mut app, 1);
        angle += spin(&app, ball) * dt() as f32;
        let rotation = app.world().get::<Transform>(ball).unwrap().rotation;
        let written = rotation.to_euler(EulerRot::ZYX).0;
        // The difference, wrapped into (−π, π].
        let off = (written - angle + PI).rem_euclid(TAU) - PI;
        assert!(
            off.abs() < 1e-4,
            "turned {angle} rad, the transform {written}"
        );
    }
    let (v, w) = (vel(&app, ball), spin(&app, ball));
    assert!((v.x - 2.0 / 3.0 * v0).abs() < 1e-4, "rolls at ⅔ v₀: {v}");
    assert!((w + v.x / r).abs() < 1e-3, "without slip: ω {w}");
    // Closed form: ω grows at 2 μ g / r while it slides for v₀ / (3 μ g), then stays;
    // the first-order steps turn it further by at most that rate × the slide × dt.
    let t_slide = v0 / (3.0 * mu * G);
    let total = 120.0 * dt() as f32;
    let exact = -(mu * G / r) * t_slide * t_slide + w * (total - t_slide);
    let first_order = 2.0 * mu * G / r * t_slide * dt() as f32;
    assert!(
        (angle - exact).abs() <= first_order,
        "{angle} vs the closed form {exact} (± {first_order})"
    );
}

#[test]
fn a_rough_oblique_impact_sticks_and_reports_its_friction_impulse() {
    let mut app = app();
    let r = 0.5;
    let a = spawn(&mut app, Vec2::ZERO, Vec2::new(6.0, 0.0), r, Mass::Auto);
    let b = spawn(&mut app, Vec2::new(2.0, 0.5), Vec2::ZERO, r, Mass::Auto);
    for e in [a, b] {
        app.world_mut()
            .entity_mut(e)
            .insert(Friction(f32::INFINITY));
    }
    steps(&mut app, 30);
    let hits = events(&mut app);
    assert_eq!(hits.len(), 1, "{hits:?}");
    let hit = hits[0];
    let (n, t) = (hit.normal, hit.normal.perp());
    // The normal is 30° from the motion.
    assert!((n.y / n.x - 30f32.to_radians().tan()).abs() < 1e-5, "{n}");
    // Sticking: no slip after the impact, `(v_b − v_a)·t − (ω_a + ω_b) r` = 0, with `a`
    // and `b` as the event names them.
    let CollisionTarget::Body(second) = hit.b else {
        panic!("a body: {hit:?}")
    };
    let first = hit.a;
    let (va, vb) = (vel(&app, first), vel(&app, second));
    let slip = (vb - va).dot(t) - (spin(&app, first) + spin(&app, second)) * r;
    assert!(slip.abs() < 1e-4, "slip after {slip}");
    // The event's friction impulse is the change of `b`'s momentum along t.
    let start = |e: Entity| {
        if e == a {
            Vec2::new(6.0, 0.0)
        } else {
            Vec2::ZERO
        }
    };
    let mass = std::f32::consts::PI * r * r;
    let received = mass * (vb - start(second)).dot(t);
    assert!(hit.tangent_impulse.abs() > 0.1);
    assert!(
        (received - hit.tangent_impulse).abs() < 1e-4,
        "{received} vs {}",
        hit.tangent_impulse
    );
    // The impulse pair turns both bodies the same way: ω = −Jt r / I, I = ½ m r².
    let inertia = 0.5 * mass * r * r;
    for e in [first, second] {
        assert!((spin(&app, e) + hit.tangent_impulse * r / inertia).abs() < 1e-3);
    }
}

#[test]
fn smooth_bodies_leave_the_games_rotation_alone() {
    let mut app = floor_app();
    let turned = Quat::from_rotation_z(0.7);
    let ball = spawn(
        &mut app,
        Vec2::new(5.0, 3.0),
        Vec2::new(2.0, 0.0),
        0.5,
        Mass::Auto,
    );
    app.world_mut().get_mut::<Transform>(ball).unwrap().rotation = turned;
    steps(&mut app, 90);
    assert_eq!(spin(&app, ball), 0.0);
    assert_eq!(app.world().get::<Transform>(ball).unwrap().rotation, turned);
}
