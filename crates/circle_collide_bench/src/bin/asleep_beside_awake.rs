//! What a sleeping world costs beside one awake body, through the plugin: the jittered
//! pile of design §5 (N circles, default 2000) settles for 15 s (900 steps), then — with
//! `1` as the second argument — a kinematic circle spinning in the air above it keeps the
//! world from standing still (no idle steps); prints the median update of the next 300.
//! With `rewrite` as the third, a system writes every body's `Velocity` every frame
//! without changing it (as a game's drag or clamp system does).
//!
//! ```text
//! cargo run --release -p circle_collide_bench --bin asleep_beside_awake -- [N] [0|1] [rewrite]
//! ```
use bevy::app::TaskPoolPlugin;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_circle_collide::core::scenes;
use bevy_circle_collide::prelude::*;

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .map_or(2000, |s| s.parse().expect("N: number of circles"));
    let awake = std::env::args().nth(2).is_some_and(|s| s == "1");
    let rewrite = std::env::args().nth(3).is_some_and(|s| s == "rewrite");
    let scene = scenes::pile(n);
    let step = Time::<Fixed>::from_hz(60.0).timestep();
    let mut app = App::new();
    app.add_plugins(MinimalPlugins.set(TaskPoolPlugin {
        task_pool_options: bevy_circle_collide::task_pool_options(2),
    }))
    .add_plugins(TransformPlugin)
    .insert_resource(Time::<Fixed>::from_hz(60.0))
    .insert_resource(TimeUpdateStrategy::ManualDuration(step))
    .add_plugins(CircleCollidePlugin::default());
    let arena = scene.config.arena.expect("the pile has walls");
    app.insert_resource(CircleCollideConfig {
        gravity: scene.config.gravity.as_vec2(),
        arena: Some(ArenaConfig {
            restitution: arena.restitution as f32,
            ..ArenaConfig::new(arena.min.as_vec2(), arena.max.as_vec2())
        }),
        ..default()
    });
    for b in &scene.bodies {
        app.world_mut().spawn((
            CircleCollider::new(b.radius as f32),
            Transform::from_translation(b.position.as_vec2().extend(0.0)),
            Velocity(b.velocity.as_vec2()),
            Mass::Fixed(b.mass as f32),
            Restitution(b.restitution as f32),
        ));
    }
    app.finish();
    app.cleanup();
    app.update();
    for _ in 0..900 {
        app.update();
    }
    let d = app.world().resource::<CollisionDiagnostics>();
    eprintln!("after 15 s: {} of {} circles asleep", d.sleeping, d.bodies);
    if awake {
        // A kinematic circle spinning in the air above the pile.
        let top = arena.max.y as f32;
        app.world_mut().spawn((
            CircleCollider::new(0.5),
            Transform::from_translation(Vec3::new(arena.max.x as f32 - 1.0, top - 2.0, 0.0)),
            Mass::Static,
            AngularVelocity(1.0),
        ));
    }
    if rewrite {
        app.add_systems(FixedUpdate, |mut velocities: Query<&mut Velocity>| {
            for mut velocity in &mut velocities {
                velocity.set_changed();
            }
        });
    }
    let mut times = Vec::new();
    for _ in 0..300 {
        let t = std::time::Instant::now();
        app.update();
        times.push(t.elapsed().as_secs_f64() * 1e3);
    }
    times.sort_by(f64::total_cmp);
    let d = app.world().resource::<CollisionDiagnostics>();
    println!(
        "pile of {n}, spinning kinematic circle {awake}, velocities rewritten {rewrite}: median update {:.3} ms, {} asleep, {} idle steps in all, last step's phases (ms) {:?}",
        times[150],
        d.sleeping,
        d.idle_steps,
        d.phase_seconds.map(|s| (s * 1e6).round() / 1e3)
    );
}
