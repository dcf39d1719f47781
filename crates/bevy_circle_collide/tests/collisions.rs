//! Closed-form collision results through the whole plugin.

mod common;
use bevy::prelude::*;
use bevy_circle_collide::core::scenes;
use bevy_circle_collide::prelude::*;
use common::*;

#[test]
fn equal_masses_head_on_swap_velocities() {
    let mut app = app();
    let a = spawn(&mut app, Vec2::ZERO, Vec2::new(2.0, 0.0), 0.5, Mass::Auto);
    let b = spawn(
        &mut app,
        Vec2::new(3.0, 0.0),
        Vec2::new(-1.0, 0.0),
        0.5,
        Mass::Auto,
    );
    steps(&mut app, 60);
    assert_eq!(vel(&app, a), Vec2::new(-1.0, 0.0));
    assert_eq!(vel(&app, b), Vec2::new(2.0, 0.0));
    assert_eq!(events(&mut app).len(), 1);
}

#[test]
fn unequal_masses_match_the_1d_elastic_formula() {
    let mut app = app();
    let (m1, m2, u1, u2) = (3.0f32, 1.0f32, 2.0f32, -1.0f32);
    let a = spawn(
        &mut app,
        Vec2::ZERO,
        Vec2::new(u1, 0.0),
        0.5,
        Mass::Fixed(m1),
    );
    let b = spawn(
        &mut app,
        Vec2::new(3.0, 0.0),
        Vec2::new(u2, 0.0),
        0.5,
        Mass::Fixed(m2),
    );
    steps(&mut app, 60);
    let v1 = (u1 * (m1 - m2) + 2.0 * m2 * u2) / (m1 + m2);
    let v2 = (u2 * (m2 - m1) + 2.0 * m1 * u1) / (m1 + m2);
    assert!((vel(&app, a).x - v1).abs() < 1e-6 && (vel(&app, b).x - v2).abs() < 1e-6);
    assert_eq!((vel(&app, a).y, vel(&app, b).y), (0.0, 0.0));
}

#[test]
fn glancing_hit_on_a_resting_circle_leaves_at_ninety_degrees() {
    for offset in [0.25f32, 0.5, 0.8] {
        let mut app = app();
        let (v, sigma) = (4.0f32, 1.0f32);
        let a = spawn(
            &mut app,
            Vec2::new(-2.0, offset),
            Vec2::new(v, 0.0),
            0.5,
            Mass::Auto,
        );
        let b = spawn(&mut app, Vec2::ZERO, Vec2::ZERO, 0.5, Mass::Auto);
        steps(&mut app, 60);
        let (va, vb) = (vel(&app, a), vel(&app, b));
        let ratio = offset / sigma;
        assert!(
            (va.length() - v * ratio).abs() < 1e-5,
            "offset {offset}: {va}"
        );
        assert!(
            (vb.length() - v * (1.0 - ratio * ratio).sqrt()).abs() < 1e-5,
            "offset {offset}: {vb}"
        );
        assert!(va.dot(vb).abs() < 1e-5, "offset {offset}: {va} · {vb}");
    }
}

#[test]
fn time_of_impact_matches_the_closed_form() {
    // Radius 1 each: d = (5, 1), w = (−3, 0), σ = 2 → t = (5 − √3)/3 s.
    let mut app = app();
    let a = spawn(&mut app, Vec2::ZERO, Vec2::ZERO, 1.0, Mass::Auto);
    let b = spawn(
        &mut app,
        Vec2::new(5.0, 1.0),
        Vec2::new(-3.0, 0.0),
        1.0,
        Mass::Auto,
    );
    steps(&mut app, 90);
    let ev = events(&mut app);
    assert_eq!(ev.len(), 1);
    let exact = (5.0 - 3f64.sqrt()) / 3.0;
    let measured = ev[0].step as f64 * dt() + f64::from(ev[0].time);
    assert!(
        ((measured - exact) / exact).abs() < 1e-6,
        "{measured} vs {exact}"
    );
    assert!(f64::from(ev[0].time) <= dt());
    // At contact: B at (5 − 3t, 1), contact point halfway along the normal, which
    // points from the event's `a` to its `b` (the lower entity in `Entity`'s order first).
    assert_eq!(
        (ev[0].a, ev[0].b),
        (a.min(b), CollisionTarget::Body(a.max(b)))
    );
    let sign = if ev[0].a == a { 1.0 } else { -1.0 };
    let n = Vec2::new((5.0 - 3.0 * exact) as f32, 1.0).normalize() * sign;
    assert!((ev[0].normal - n).length() < 1e-6);
    assert!((ev[0].point - n * sign).length() < 1e-5);
    let u = 3.0 * n.x.abs();
    assert!((ev[0].approach_speed - u).abs() < 1e-5);
    // Equal masses, e = 1: J = 2 u / (1/m + 1/m) = u m, m = π.
    assert!((ev[0].impulse - u * std::f32::consts::PI).abs() < 1e-4);
}

#[test]
fn contact_at_time_zero_and_separating_pairs() {
    let mut app = app();
    // Touching and approaching: impact at t = 0 of the first step.
    let a = spawn(&mut app, Vec2::ZERO, Vec2::ZERO, 1.0, Mass::Auto);
    let b = spawn(
        &mut app,
        Vec2::new(2.0, 0.0),
        Vec2::new(-1.0, 0.0),
        1.0,
        Mass::Auto,
    );
    // Overlapping but moving apart: never an impact.
    let c = spawn(
        &mut app,
        Vec2::new(0.0, 10.0),
        Vec2::new(-1.0, 0.0),
        1.0,
        Mass::Auto,
    );
    let d = spawn(
        &mut app,
        Vec2::new(1.5, 10.0),
        Vec2::new(1.0, 0.0),
        1.0,
        Mass::Auto,
    );
    steps(&mut app, 1);
    let ev = events(&mut app);
    assert_eq!(ev.len(), 1, "{ev:?}");
    assert_eq!((ev[0].a, ev[0].time, ev[0].step), (a.min(b), 0.0, 0));
    steps(&mut app, 30);
    assert!(events(&mut app).is_empty());
    assert_eq!(
        (vel(&app, c), vel(&app, d)),
        (Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0))
    );
}

#[test]
fn static_bodies_never_move_and_reflect_exactly() {
    let mut app = app();
    let wall = spawn(&mut app, Vec2::new(5.0, 0.0), Vec2::ZERO, 1.0, Mass::Static);
    let ball = spawn(&mut app, Vec2::ZERO, Vec2::new(3.0, 0.0), 0.5, Mass::Auto);
    let glance = spawn(
        &mut app,
        Vec2::new(5.0, -4.0),
        Vec2::new(0.0, 2.0),
        0.5,
        Mass::Fixed(1e6),
    );
    for _ in 0..120 {
        steps(&mut app, 1);
        assert_eq!(pos(&app, wall), Vec2::new(5.0, 0.0));
        assert_eq!(vel(&app, wall), Vec2::ZERO);
    }
    assert_eq!(vel(&app, ball), Vec2::new(-3.0, 0.0));
    assert_eq!(vel(&app, glance), Vec2::new(0.0, -2.0));
}

#[test]
fn events_are_complete_and_in_time_order() {
    // Three pairs on separate lanes, all hitting inside one 1/60 s step: gaps of 0.02,
    // 0.01 and 0.03 at closing speed 3 give contact at gap / 3.
    let mut app = app();
    let mut expected = Vec::new();
    for (lane, gap) in [(0.0f32, 0.02f32), (10.0, 0.01), (20.0, 0.03)] {
        let a = spawn(
            &mut app,
            Vec2::new(0.0, lane),
            Vec2::new(1.0, 0.0),
            0.5,
            Mass::Auto,
        );
        let b = spawn(
            &mut app,
            Vec2::new(1.0 + gap, lane),
            Vec2::new(-2.0, 0.0),
            0.5,
            Mass::Auto,
        );
        expected.push((f64::from(gap) / 3.0, a, b, lane));
    }
    expected.sort_by(|x, y| x.0.total_cmp(&y.0));
    steps(&mut app, 1);
    let ev = events(&mut app);
    assert_eq!(ev.len(), 3);
    for (e, (t, a, b, lane)) in ev.iter().zip(&expected) {
        assert!(
            (f64::from(e.time) - t).abs() < 1e-6 * t.max(1e-3),
            "{} vs {t}",
            e.time
        );
        // `a` is the lower entity in `Entity`'s order; the normal points from it.
        assert_eq!((e.a, e.b), (*a.min(b), CollisionTarget::Body(*a.max(b))));
        assert_eq!(e.normal, if e.a == *a { Vec2::X } else { Vec2::NEG_X });
        assert!((e.point.y - lane).abs() < 1e-6);
        assert!((e.approach_speed - 3.0).abs() < 1e-5);
        assert!((e.impulse - 3.0 * std::f32::consts::PI * 0.25).abs() < 1e-4);
    }
    assert!(ev.windows(2).all(|w| w[0].time <= w[1].time));
}

#[test]
fn bullet_scene_never_tunnels() {
    // Head-on the motion is 1D: tunnelling would change the x order of the bodies.
    let scene = scenes::bullet(8, 1e4, 0.0);
    let mut app = app();
    let ids = spawn_scene(&mut app, &scene);
    let mut order: Vec<Entity> = vec![ids[0]];
    order.extend(ids[1..].iter().rev());
    for step in 0..600 {
        steps(&mut app, 1);
        let xs: Vec<f32> = order.iter().map(|e| pos(&app, *e).x).collect();
        assert!(xs.windows(2).all(|w| w[0] < w[1]), "step {step}: {xs:?}");
        assert!(xs[0] > 0.0 && *xs.last().unwrap() < 18.0);
    }
    let hits = events(&mut app);
    assert!(
        hits.iter().filter(|e| e.a == ids[0]).count() > 50,
        "the bullet kept bouncing"
    );
}

#[test]
fn cradle_passes_the_velocity_down_the_chain() {
    let scene = scenes::cradle(5, 1e-3, 2.0);
    let mut app = app();
    let ids = spawn_scene(&mut app, &scene);
    steps(&mut app, 60);
    assert!((vel(&app, ids[4]) - Vec2::new(2.0, 0.0)).length() < 1e-6);
    for e in &ids[..4] {
        assert!(vel(&app, *e).length() < 1e-6, "{}", vel(&app, *e));
    }
    assert_eq!(events(&mut app).len(), 4);
}

#[test]
fn crates_landing_on_a_pebble_are_one_cluster_solve_reported_in_the_diagnostics() {
    // A pebble of radius 0.05 on the floor, a column of three crates of radius 2 landing
    // on it at 10 units/s, restitution 0.2: binary impacts one by one took the whole
    // impact cap (a fallback step); the same-instant run is solved as one cluster.
    let mut app = app();
    {
        let mut config = app.world_mut().resource_mut::<CircleCollideConfig>();
        config.gravity = Vec2::new(0.0, -9.81);
        config.default_restitution = 0.2;
        config.max_impacts_per_body = 2000;
        config.arena = Some(ArenaConfig {
            min: Vec2::ZERO,
            max: Vec2::splat(40.0),
            restitution: 0.2,
            friction: 0.0,
        });
    }
    let r = 0.05;
    let pebble = spawn(
        &mut app,
        Vec2::new(10.0, r),
        Vec2::ZERO,
        r,
        Mass::Fixed(r * r),
    );
    let crates: Vec<Entity> = (0..3)
        .map(|k| {
            let y = 2.0 * r + 2.0 + 1e-3 + 4.0 * k as f32;
            let v = Vec2::new(0.0, -10.0);
            spawn(&mut app, Vec2::new(10.0, y), v, 2.0, Mass::Fixed(4.0))
        })
        .collect();
    steps(&mut app, 1);
    let d = app.world().resource::<CollisionDiagnostics>().clone();
    assert!(!d.last_step_fell_back, "{d:?}");
    assert!(d.cluster_solves >= 1 && d.impacts < 400, "{d:?}");
    // The column bounces at about e × its speed; the pebble stays on the floor.
    for c in &crates {
        assert!(vel(&app, *c).y > 1.0, "crate {}", vel(&app, *c));
    }
    assert!(
        pos(&app, pebble).y > 0.9 * r,
        "pebble at {}",
        pos(&app, pebble)
    );
}

#[test]
fn a_ball_pushed_into_a_wall_by_a_kinematic_paddle_at_the_default_restitution_never_falls_back() {
    // The plugin's default restitution is 1: a ball 0.1 from the right wall, a kinematic
    // paddle (`Mass::Static` with a velocity) sliding into it. One impact at a time the
    // ball was bounced between the two ever faster while the gap closed, up to the
    // step's impact cap; now the kinematic body wins and the ball's wall contact goes to
    // the push-out for that step.
    let mut app = app();
    {
        let mut config = app.world_mut().resource_mut::<CircleCollideConfig>();
        config.arena = Some(ArenaConfig {
            min: Vec2::ZERO,
            max: Vec2::splat(40.0),
            restitution: 1.0,
            friction: 0.0,
        });
    }
    let ball = spawn(&mut app, Vec2::new(38.9, 20.0), Vec2::ZERO, 1.0, Mass::Auto);
    spawn(
        &mut app,
        Vec2::new(36.899, 20.0),
        Vec2::new(2.0, 0.0),
        1.0,
        Mass::Static,
    );
    let mut squeezed = 0;
    for step in 0..8 {
        steps(&mut app, 1);
        let d = app.world().resource::<CollisionDiagnostics>().clone();
        assert!(
            !d.last_step_fell_back && d.impacts < 600,
            "step {step}: {d:?}"
        );
        squeezed += d.squeezed_clusters;
        let (p, v) = (pos(&app, ball), vel(&app, ball));
        // One elastic bounce off the paddle sends it at 4; it is never pumped past that.
        assert!(
            v.length() <= 4.0 + 1e-4 && p.x <= 39.02,
            "step {step}: {p} {v}"
        );
    }
    assert!(squeezed >= 1, "the ball was never squeezed");
}

#[test]
fn specks_squeezed_out_of_wedges_are_handed_to_the_push_out_and_reported() {
    // A pour of 250 crates and specks at restitution 0: specks wedged under and between
    // crates are squeezed out over time; one bounce at a time such a run reached the
    // impact cap (a fallback step, warned about: 11 of these 300 steps before). Their
    // contacts go to the push-out once their cluster closes again at one instant,
    // counted in the diagnostics.
    let mut app = app();
    spawn_scene(&mut app, &scenes::speck_pour(250, 2));
    let (mut fallbacks, mut given_up) = (0, 0);
    for _ in 0..300 {
        steps(&mut app, 1);
        let d = app.world().resource::<CollisionDiagnostics>();
        fallbacks += usize::from(d.last_step_fell_back);
        given_up += d.speck_contacts_given_up;
    }
    assert!(fallbacks <= 1, "{fallbacks} steps fell back");
    assert!(given_up > 0, "no speck's contact was handed over");
}
