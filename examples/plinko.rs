//! A plinko board, headless: balls dropped one every few steps bounce down a field of
//! pins (static circles) between a funnel of slopes and side walls (level segments from
//! `assets/presets/plinko.ron`) into five bins. Prints the bins' counts and the physics
//! cost per step.
//!
//! ```text
//! cargo run --release --example plinko
//! ```

use bevy::app::AppExit;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_circle_collide::core::scenes::SplitMix64;
use bevy_circle_collide::prelude::*;
use bevy_circle_collide::preset::Preset;
use std::time::Instant;

/// Steps between two drops, and steps run after the last drop.
const DROP_EVERY: u64 = 6;
const SETTLE_STEPS: u64 = 900;

#[derive(Resource)]
struct Board {
    preset: Preset,
    rng: SplitMix64,
    dropped: usize,
    step: u64,
    /// Wall-clock seconds of each fixed step's physics (from the diagnostics).
    costs: Vec<f64>,
    started: Instant,
}

fn main() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../assets/presets/plinko.ron");
    let preset = Preset::load(&path).unwrap_or_else(|e| panic!("{e}"));
    let step = Time::<Fixed>::from_hz(60.0).timestep();
    App::new()
        .add_plugins((MinimalPlugins, CircleCollidePlugin::default()))
        .insert_resource(preset.config.clone())
        .insert_resource(Board {
            rng: SplitMix64(preset.scene.seed),
            preset,
            dropped: 0,
            step: 0,
            costs: Vec::new(),
            started: Instant::now(),
        })
        .insert_resource(Time::<Fixed>::from_hz(60.0))
        .insert_resource(TimeUpdateStrategy::ManualDuration(step))
        .add_systems(Startup, build)
        .add_systems(FixedUpdate, drop_balls)
        .add_systems(FixedLast, (measure, finish).chain())
        .run();
}

/// The preset's walls and slopes, and the pins: eight staggered rows.
fn build(mut commands: Commands, board: Res<Board>) {
    for piece in &board.preset.level {
        commands.spawn(piece.clone());
    }
    for row in 0..8 {
        let y = 20.0 - 2.0 * row as f32;
        let shift = if row % 2 == 0 { 0.0 } else { 1.0 };
        for k in -4..=4 {
            let x = 2.0 * k as f32 + shift;
            if x.abs() < 9.5 {
                commands.spawn((
                    CircleCollider::new(0.25),
                    Transform::from_xyz(x, y, 0.0),
                    Velocity(Vec2::ZERO),
                    Mass::Static,
                ));
            }
        }
    }
}

fn drop_balls(mut commands: Commands, mut board: ResMut<Board>) {
    board.step += 1;
    let spec = board.preset.scene.clone();
    if board.dropped < spec.count && board.step.is_multiple_of(DROP_EVERY) {
        let x = (board.rng.next_unit() as f32 - 0.5) * 2.0;
        commands.spawn((
            CircleCollider::new(spec.radius[0]),
            Transform::from_xyz(x, 28.0, 0.0),
            Velocity(Vec2::ZERO),
            Mass::Auto,
        ));
        board.dropped += 1;
    }
}

fn measure(mut board: ResMut<Board>, diagnostics: Res<CollisionDiagnostics>) {
    board.costs.push(diagnostics.phase_seconds.iter().sum());
}

fn finish(
    board: Res<Board>,
    balls: Query<(&Transform, &Mass), With<CircleCollider>>,
    mut exit: MessageWriter<AppExit>,
) {
    let last = board.preset.scene.count as u64 * DROP_EVERY + SETTLE_STEPS;
    if board.step < last {
        return;
    }
    // Bins between the dividers at x = −6, −2, 2, 6.
    let mut bins = [0usize; 5];
    let (mut lost, mut pins) = (0, 0);
    for (t, mass) in &balls {
        if matches!(mass, Mass::Static) {
            pins += 1;
            continue;
        }
        let p = t.translation;
        if p.y > 4.5 || p.x.abs() > 10.0 || p.y < 0.0 {
            lost += 1;
            continue;
        }
        bins[(((p.x + 10.0) / 4.0) as usize).min(4)] += 1;
    }
    let mut costs = board.costs.clone();
    costs.sort_by(f64::total_cmp);
    let median = costs[costs.len() / 2] * 1e3;
    let worst = costs.last().copied().unwrap_or(0.0) * 1e3;
    println!(
        "plinko: {} balls dropped over {pins} pins and {} level colliders",
        board.dropped,
        board.preset.level.len()
    );
    println!("bins (left to right): {bins:?}; not in a bin: {lost}");
    println!(
        "physics per step: median {median:.3} ms, worst {worst:.3} ms over {} steps ({:.1} s wall clock)",
        costs.len(),
        board.started.elapsed().as_secs_f64()
    );
    exit.write(AppExit::Success);
}
