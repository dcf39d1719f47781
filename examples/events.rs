//! Game code reacting to collisions: a score counter and a colour flash from the
//! `CollisionEvent` messages, and targets that despawn when hit, through the targeted
//! `CollisionHit` observer event.
//!
//! ```text
//! cargo run --release --example events
//! ```

use bevy::prelude::*;
use bevy_circle_collide::prelude::*;

/// Impacts counted so far.
#[derive(Resource, Default)]
struct Score(u32);

/// A ball that flashes white when it hits something, for this many seconds.
#[derive(Component)]
struct Flash(f32);

/// Marks the targets, to colour them.
#[derive(Component)]
struct Target;

#[derive(Resource)]
struct Colors {
    ball: Handle<ColorMaterial>,
    flash: Handle<ColorMaterial>,
}

fn main() {
    App::new()
        .add_plugins((DefaultPlugins, CircleCollidePlugin::default()))
        .insert_resource(CircleCollideConfig {
            arena: Some(ArenaConfig {
                min: Vec2::new(-400.0, -300.0),
                max: Vec2::new(400.0, 300.0),
                restitution: 1.0,
                friction: 0.0,
            }),
            ..default()
        })
        .init_resource::<Score>()
        .add_systems(Startup, setup)
        .add_systems(Update, (count_and_flash, fade_flash, show_score))
        .run();
}

fn setup(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    commands.spawn(Camera2d);
    commands.spawn((
        Text::new("score: 0"),
        Node {
            position_type: PositionType::Absolute,
            left: px(12),
            top: px(12),
            ..default()
        },
    ));
    let circle = meshes.add(Circle::new(1.0));
    let colors = Colors {
        ball: materials.add(Color::srgb(0.3, 0.6, 1.0)),
        flash: materials.add(Color::WHITE),
    };
    // Balls: plain colliders; the message system below sees all their impacts.
    for k in 0..12 {
        let angle = k as f32 * 0.52;
        commands.spawn((
            CircleCollider::new(12.0),
            Transform::from_xyz(-300.0 + 50.0 * k as f32, -200.0, 0.0)
                .with_scale(Vec3::splat(12.0)),
            Velocity(Vec2::from_angle(angle + 0.8) * 250.0),
            Mesh2d(circle.clone()),
            MeshMaterial2d(colors.ball.clone()),
        ));
    }
    // Targets: static posts that opt in to the targeted event and despawn when hit.
    let target_color = materials.add(Color::srgb(1.0, 0.5, 0.2));
    for k in 0..8 {
        commands
            .spawn((
                CircleCollider::new(20.0),
                Mass::Static,
                Target,
                CollisionEventsEnabled,
                Transform::from_xyz(-280.0 + 80.0 * k as f32, 150.0, 0.0)
                    .with_scale(Vec3::splat(20.0)),
                Mesh2d(circle.clone()),
                MeshMaterial2d(target_color.clone()),
            ))
            // `hit.entity` is this target; `hit.other` is what hit it.
            .observe(|hit: On<CollisionHit>, mut commands: Commands| {
                if matches!(hit.other, CollisionTarget::Body(_)) {
                    info!(
                        "target {} hit at {} with impulse {:.0}",
                        hit.entity, hit.point, hit.impulse
                    );
                    commands.entity(hit.entity).despawn();
                }
            });
    }
    commands.insert_resource(colors);
}

/// Every impact scores a point; the bodies involved flash.
fn count_and_flash(
    mut hits: MessageReader<CollisionEvent>,
    mut score: ResMut<Score>,
    mut commands: Commands,
    colors: Res<Colors>,
    balls: Query<(), Without<Target>>,
) {
    for hit in hits.read() {
        score.0 += 1;
        let mut flash = |e: Entity| {
            if balls.contains(e) {
                commands
                    .entity(e)
                    .insert((Flash(0.15), MeshMaterial2d(colors.flash.clone())));
            }
        };
        flash(hit.a);
        if let CollisionTarget::Body(b) = hit.b {
            flash(b);
        }
    }
}

fn fade_flash(
    time: Res<Time>,
    mut q: Query<(Entity, &mut Flash)>,
    mut commands: Commands,
    colors: Res<Colors>,
) {
    for (e, mut flash) in &mut q {
        flash.0 -= time.delta_secs();
        if flash.0 <= 0.0 {
            commands
                .entity(e)
                .remove::<Flash>()
                .insert(MeshMaterial2d(colors.ball.clone()));
        }
    }
}

fn show_score(score: Res<Score>, mut text: Single<&mut Text>) {
    if score.is_changed() {
        text.0 = format!("score: {}", score.0);
    }
}
