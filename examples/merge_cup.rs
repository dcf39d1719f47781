//! A merge game, headless: fruit of four sizes dropped one by one into a cup (a polyline
//! from `assets/presets/merge_cup.ron`); two fruit of the same size that touch merge
//! into one of the next size. Prints what is in the cup, the deepest a fruit sank into
//! the cup's sides, and the physics cost per step.
//!
//! ```text
//! cargo run --release --example merge_cup
//! ```

use bevy::app::AppExit;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_circle_collide::CircleCollideWorld;
use bevy_circle_collide::core::scenes::SplitMix64;
use bevy_circle_collide::prelude::*;
use bevy_circle_collide::preset::Preset;

/// Steps between two drops, and steps run after the last drop.
const DROP_EVERY: u64 = 30;
const SETTLE_STEPS: u64 = 600;
/// Sizes a fruit grows through (the preset's radius range split in four).
const SIZES: usize = 4;

/// A fruit's size class.
#[derive(Component, Clone, Copy)]
struct Fruit(usize);

#[derive(Resource)]
struct Cup {
    preset: Preset,
    rng: SplitMix64,
    dropped: usize,
    merges: usize,
    step: u64,
    costs: Vec<f64>,
    deepest: f32,
}

impl Cup {
    fn radius(&self, size: usize) -> f32 {
        let [lo, hi] = self.preset.scene.radius;
        lo + (hi - lo) * size as f32 / (SIZES - 1) as f32
    }
}

fn main() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../assets/presets/merge_cup.ron");
    let preset = Preset::load(&path).unwrap_or_else(|e| panic!("{e}"));
    let step = Time::<Fixed>::from_hz(60.0).timestep();
    App::new()
        .add_plugins((MinimalPlugins, CircleCollidePlugin::default()))
        .insert_resource(preset.config.clone())
        .insert_resource(Cup {
            rng: SplitMix64(preset.scene.seed),
            preset,
            dropped: 0,
            merges: 0,
            step: 0,
            costs: Vec::new(),
            deepest: 0.0,
        })
        .insert_resource(Time::<Fixed>::from_hz(60.0))
        .insert_resource(TimeUpdateStrategy::ManualDuration(step))
        .add_systems(Startup, build)
        .add_systems(FixedUpdate, (drop_fruit, merge))
        .add_systems(FixedLast, (measure, finish).chain())
        .run();
}

fn build(mut commands: Commands, cup: Res<Cup>) {
    for piece in &cup.preset.level {
        commands.spawn(piece.clone());
    }
}

fn spawn_fruit(commands: &mut Commands, cup: &Cup, size: usize, at: Vec2, v: Vec2) {
    commands.spawn((
        CircleCollider::new(cup.radius(size)),
        Transform::from_translation(at.extend(0.0)),
        Velocity(v),
        Mass::Auto,
        Fruit(size),
    ));
}

fn drop_fruit(mut commands: Commands, mut cup: ResMut<Cup>) {
    cup.step += 1;
    if cup.dropped < cup.preset.scene.count && cup.step.is_multiple_of(DROP_EVERY) {
        let x = (cup.rng.next_unit() as f32 - 0.5) * 10.0;
        let size = (cup.rng.next_unit() * 2.0) as usize; // the two smallest sizes
        spawn_fruit(&mut commands, &cup, size, Vec2::new(x, 24.0), Vec2::ZERO);
        cup.dropped += 1;
    }
}

/// Two touching fruit of one size (below the largest) become one of the next size
/// where they met, with their mean velocity.
fn merge(
    mut commands: Commands,
    mut cup: ResMut<Cup>,
    mut started: MessageReader<CollisionStarted>,
    fruit: Query<(&Fruit, &Transform, &Velocity)>,
) {
    let mut gone: Vec<Entity> = Vec::new();
    for pair in started.read() {
        if gone.contains(&pair.a) || gone.contains(&pair.b) {
            continue;
        }
        let (Ok((fa, ta, va)), Ok((fb, tb, vb))) = (fruit.get(pair.a), fruit.get(pair.b)) else {
            continue;
        };
        if fa.0 != fb.0 || fa.0 + 1 >= SIZES {
            continue;
        }
        let at = (ta.translation + tb.translation).truncate() * 0.5;
        commands.entity(pair.a).despawn();
        commands.entity(pair.b).despawn();
        gone.extend([pair.a, pair.b]);
        spawn_fruit(&mut commands, &cup, fa.0 + 1, at, (va.0 + vb.0) * 0.5);
        cup.merges += 1;
    }
}

fn measure(
    mut cup: ResMut<Cup>,
    diagnostics: Res<CollisionDiagnostics>,
    world: Res<CircleCollideWorld>,
) {
    cup.costs.push(diagnostics.phase_seconds.iter().sum());
    // How deep any fruit sits in a side of the cup, as a fraction of its radius.
    let sim = world.simulation();
    let b = sim.bodies();
    for i in 0..b.len() {
        let (p, r) = (b.position(i), b.radius(i));
        for s in sim.level().segments() {
            let depth = (r - (s.closest_point(p) - p).length()) / r;
            cup.deepest = cup.deepest.max(depth as f32);
        }
    }
}

fn finish(cup: Res<Cup>, fruit: Query<(&Fruit, &Transform)>, mut exit: MessageWriter<AppExit>) {
    if cup.step < cup.preset.scene.count as u64 * DROP_EVERY + SETTLE_STEPS {
        return;
    }
    let mut counts = [0usize; SIZES];
    let mut outside = 0;
    for (f, t) in &fruit {
        counts[f.0] += 1;
        let p = t.translation;
        outside += usize::from(p.x.abs() > 8.0 || p.y < 0.0);
    }
    let mut costs = cup.costs.clone();
    costs.sort_by(f64::total_cmp);
    println!(
        "merge cup: {} fruit dropped, {} merges; in the cup by size: {counts:?}; outside: {outside}",
        cup.dropped, cup.merges
    );
    println!(
        "deepest a fruit sank into the cup: {:.4} of its radius",
        cup.deepest
    );
    println!(
        "physics per step: median {:.3} ms, worst {:.3} ms over {} steps",
        costs[costs.len() / 2] * 1e3,
        costs.last().copied().unwrap_or(0.0) * 1e3,
        costs.len()
    );
    exit.write(AppExit::Success);
}
