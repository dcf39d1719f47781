//! Through the plugin: a crowd steered every frame onto a static body (an obstacle of a
//! top-down game). Each circle that reaches it is driven into it again every step, faster
//! than the resting speed; it must press on it (the core remembers the pair after its
//! impact) rather than hit it anew each step.

mod common;

use bevy::prelude::*;
use bevy_circle_collide::core::scenes;
use bevy_circle_collide::prelude::*;
use common::*;

#[test]
fn a_crowd_steered_onto_a_static_obstacle_holds_within_the_slop() {
    // The crowd of 500 (DESIGN §5) around a static circle of radius 3 with the crowd's
    // restitution, the circles it would overlap left out. Without the remembered impacts
    // (`Simulation::remember_impacts` removed) overlaps were left past the slop in 512 of
    // the 600 steps.
    let n = 500;
    let centre = Vec2::splat(0.5 * scenes::gas_side(n, 0.3) as f32);
    let mut scene = scenes::crowd(n, 0.3);
    scene
        .bodies
        .retain(|b| b.position.as_vec2().distance(centre) > 3.0 + b.radius as f32);
    let mut app = app();
    let ids = spawn_scene(&mut app, &scene);
    let obstacle = app
        .world_mut()
        .spawn((
            CircleCollider::new(3.0),
            Transform::from_translation(centre.extend(0.0)),
            Velocity(Vec2::ZERO),
            Mass::Static,
            Restitution(0.2),
        ))
        .id();
    let (mut left_steps, mut impacts) = (0, 0);
    for _ in 0..600 {
        for &e in &ids {
            let to = centre - pos(&app, e);
            app.world_mut().get_mut::<Velocity>(e).unwrap().0 =
                to.normalize_or_zero() * scenes::CROWD_SPEED as f32;
        }
        steps(&mut app, 1);
        let d = app.world().resource::<CollisionDiagnostics>();
        left_steps += usize::from(d.overlaps_left > 0);
        impacts += d.impacts;
    }
    let d = app.world().resource::<CollisionDiagnostics>();
    assert_eq!(d.fallbacks, 0, "fell back");
    assert_eq!(left_steps, 0, "steps that left overlaps past the slop");
    let per_step = impacts as f64 / 600.0;
    assert!(per_step < 80.0, "{per_step} impacts a step");
    // Within twice the slop (0.01 r) at the end, nobody inside the obstacle, which stayed.
    let slop = 0.01 * scenes::RADIUS as f32;
    let deepest = max_overlap(&circles(&mut app));
    assert!(deepest <= 2.0 * slop, "deepest overlap {deepest}");
    assert_eq!(pos(&app, obstacle), centre);
    let sunk = ids
        .iter()
        .map(|&e| 3.0 + scenes::RADIUS as f32 - pos(&app, e).distance(centre))
        .fold(f32::NEG_INFINITY, f32::max);
    assert!(sunk <= 2.0 * slop, "sunk into the obstacle by {sunk}");
}
