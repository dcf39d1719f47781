//! A pool break: the cue ball into a racked triangle of 15. Every impact of the break is
//! handled at its exact time, in order, so the break is the same on every machine and at
//! every frame rate. Table friction is game code; when the table comes to rest the
//! example prints how many impacts the break had and how long it took.
//!
//! ```text
//! cargo run --release --example billiards
//! ```

use bevy::prelude::*;
use bevy_circle_collide::prelude::*;
use bevy_circle_collide::preset::{SceneKind, SceneSpec};

/// Ball radius in world units (pixels here).
const R: f32 = 12.0;

#[derive(Resource, Default)]
struct Tally {
    impacts: usize,
    done: bool,
}

fn main() {
    App::new()
        .add_plugins((DefaultPlugins, CircleCollidePlugin::default()))
        .insert_resource(ClearColor(Color::srgb(0.05, 0.3, 0.15)))
        .init_resource::<Tally>()
        .add_systems(Startup, setup)
        .add_systems(Update, (tally, slow_down))
        .run();
}

fn setup(
    mut commands: Commands,
    mut config: ResMut<CircleCollideConfig>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    // The library's billiards layout: 80 r × 40 r table, cue ball at 60 r/s.
    let spec = SceneSpec {
        kind: SceneKind::Billiards,
        radius: [R, R],
        speed: 60.0 * R,
        ..default()
    };
    let (balls, table) = spec.build();
    config.arena = Some(table);
    config.default_restitution = 0.95;
    let centre = (table.min + table.max) / 2.0;
    commands.spawn((Camera2d, Transform::from_translation(centre.extend(0.0))));
    let circle = meshes.add(Circle::new(1.0));
    for (k, ball) in balls.iter().enumerate() {
        let color = if k == balls.len() - 1 {
            Color::WHITE
        } else {
            Color::hsl(k as f32 * 24.0, 0.8, 0.5)
        };
        commands.spawn((
            CircleCollider::new(ball.radius),
            Transform::from_translation(ball.position.extend(0.0))
                .with_scale(Vec3::splat(ball.radius)),
            Velocity(ball.velocity),
            Mesh2d(circle.clone()),
            MeshMaterial2d(materials.add(color)),
        ));
    }
}

/// Table friction, applied by game code before each step: the engine itself is exact.
fn slow_down(time: Res<Time>, mut q: Query<&mut Velocity>) {
    let k = (-0.6 * time.delta_secs()).exp();
    for mut v in &mut q {
        v.0 = if v.0.length() < 2.0 {
            Vec2::ZERO
        } else {
            v.0 * k
        };
    }
}

fn tally(
    mut hits: MessageReader<CollisionEvent>,
    diag: Res<CollisionDiagnostics>,
    mut t: ResMut<Tally>,
) {
    t.impacts += hits.read().count();
    if !t.done && diag.step > 10 && diag.kinetic_energy == 0.0 {
        t.done = true;
        info!(
            "the table is at rest after {} impacts and {:.1} s",
            t.impacts,
            diag.step as f32 / 60.0
        );
    }
}
