//! Headless demo: the standard gas scene (restitution 1, walls, no gravity) stepped as
//! fast as possible with `MinimalPlugins`, printing per-second statistics.
//!
//! ```text
//! cargo run --release --example headless -- [--n 1000] [--steps 600]
//! ```

use bevy::app::AppExit;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_circle_collide::core::scenes;
use bevy_circle_collide::prelude::*;

/// Command-line settings.
#[derive(Resource, Clone, Copy)]
struct Settings {
    n: usize,
    steps: u64,
}

/// Energy at the start, to print the relative drift.
#[derive(Resource)]
struct Start {
    energy: f64,
    clock: std::time::Instant,
}

fn parse_args() -> Settings {
    let mut s = Settings {
        n: 1000,
        steps: 600,
    };
    let args: Vec<String> = std::env::args().collect();
    for pair in args.windows(2) {
        match pair[0].as_str() {
            "--n" => s.n = pair[1].parse().expect("--n takes a number of circles"),
            "--steps" => s.steps = pair[1].parse().expect("--steps takes a number of steps"),
            _ => {}
        }
    }
    s
}

fn main() {
    let settings = parse_args();
    let step = Time::<Fixed>::from_hz(60.0).timestep();
    App::new()
        .add_plugins((MinimalPlugins, CircleCollidePlugin::default()))
        .insert_resource(settings)
        .insert_resource(Time::<Fixed>::from_hz(60.0))
        // One fixed step per frame, as fast as the machine goes.
        .insert_resource(TimeUpdateStrategy::ManualDuration(step))
        .add_systems(Startup, spawn_gas)
        .add_systems(Update, report)
        .run();
}

fn spawn_gas(
    mut commands: Commands,
    mut config: ResMut<CircleCollideConfig>,
    settings: Res<Settings>,
) {
    let scene = scenes::gas(settings.n, 0.3, 10.0);
    let side = scenes::gas_side(settings.n, 0.3) as f32;
    config.arena = Some(ArenaConfig {
        min: Vec2::ZERO,
        max: Vec2::splat(side),
        restitution: 1.0,
        friction: 0.0,
    });
    let mut energy = 0.0;
    for b in &scene.bodies {
        let v = b.velocity.as_vec2();
        energy += 0.5 * b.mass * b.velocity.length_squared();
        commands.spawn((
            CircleCollider::new(b.radius as f32),
            Transform::from_translation(b.position.as_vec2().extend(0.0)),
            Velocity(v),
        ));
    }
    commands.insert_resource(Start {
        energy,
        clock: std::time::Instant::now(),
    });
    println!(
        "gas: {} circles of radius {} in a {side:.2} × {side:.2} box, speed 10, restitution 1",
        settings.n,
        scenes::RADIUS
    );
}

fn report(
    diag: Res<CollisionDiagnostics>,
    start: Res<Start>,
    settings: Res<Settings>,
    mut exit: MessageWriter<AppExit>,
    mut last: Local<u64>,
) {
    if diag.step == *last {
        return;
    }
    *last = diag.step;
    if diag.step.is_multiple_of(60) || diag.step >= settings.steps {
        let ms: f64 = diag.phase_seconds.iter().sum::<f64>() * 1e3;
        println!(
            "step {:>5}  t = {:>6.2} s  bodies {}  pairs {:>5}  impacts/step {:>4}  |ΔE|/E {:.2e}  momentum ({:+.3}, {:+.3})  fallbacks {}  last step {:.3} ms",
            diag.step,
            diag.step as f64 / 60.0,
            diag.bodies,
            diag.candidate_pairs,
            diag.impacts,
            (diag.kinetic_energy - start.energy).abs() / start.energy,
            diag.momentum.x,
            diag.momentum.y,
            diag.fallbacks,
            ms
        );
    }
    if diag.step >= settings.steps {
        println!(
            "{} steps in {:.2} s wall-clock",
            diag.step,
            start.clock.elapsed().as_secs_f64()
        );
        exit.write(AppExit::Success);
    }
}
