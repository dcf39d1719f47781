//! Peer runner: one standard scene of the design guide (§5) on one engine, headless
//! (`MinimalPlugins`, `TimeUpdateStrategy::ManualDuration(1/60 s)`, fixed step 1/60 s),
//! printing exactly one JSON line.
//!
//! ```text
//! cargo run --release -p circle_collide_bench -- --engine ours|avian|rapier --scene gas|pile --n N --steps S [--threads T]
//! ```
//!
//! The scene's bodies come from `circle_collide_core::scenes` for all three engines. Peers
//! get the scene's restitution with the `Max` combine rule and zero friction with `Min`,
//! their default solver settings otherwise, and four static boxes as walls.

mod engines;
mod measure;

use bevy::app::TaskPoolPlugin;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_circle_collide::core::scenes;

/// Which engine to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// bevy_circle_collide.
    Ours,
    /// avian2d 0.7.
    Avian,
    /// bevy_rapier2d 0.36.
    Rapier,
}

struct Args {
    engine: Engine,
    scene: String,
    n: usize,
    steps: usize,
    threads: usize,
}

fn parse() -> Args {
    let mut a = Args {
        engine: Engine::Ours,
        scene: "gas".into(),
        n: 1000,
        steps: 300,
        threads: 2,
    };
    let argv: Vec<String> = std::env::args().collect();
    for pair in argv.windows(2) {
        let v = &pair[1];
        match pair[0].as_str() {
            "--engine" => {
                a.engine = match v.as_str() {
                    "ours" => Engine::Ours,
                    "avian" => Engine::Avian,
                    "rapier" => Engine::Rapier,
                    other => panic!("unknown engine {other}: ours, avian or rapier"),
                }
            }
            "--scene" => a.scene = v.clone(),
            "--n" => a.n = v.parse().expect("--n takes a number"),
            "--steps" => a.steps = v.parse().expect("--steps takes a number"),
            "--threads" => a.threads = v.parse().expect("--threads takes a number"),
            _ => {}
        }
    }
    a
}

fn main() {
    let args = parse();
    let scene = match args.scene.as_str() {
        "gas" => scenes::gas(args.n, 0.3, 10.0),
        "pile" => scenes::pile(args.n),
        other => panic!("unknown scene {other}: gas or pile"),
    };
    let step = Time::<Fixed>::from_hz(60.0).timestep();
    let mut app = App::new();
    app.add_plugins(MinimalPlugins.set(TaskPoolPlugin {
        task_pool_options: bevy_circle_collide::task_pool_options(args.threads),
    }))
    .add_plugins(TransformPlugin)
    .insert_resource(Time::<Fixed>::from_hz(60.0))
    .insert_resource(TimeUpdateStrategy::ManualDuration(step));
    measure::trace_memory("scene built");
    engines::add(&mut app, args.engine, &scene);
    measure::trace_memory("spawned");
    // The engines hold their own copies now: free the scene's body list (all engines alike).
    let config = scene.config.clone();
    drop(scene);
    // What `App::run` would do first: plugins finishing their setup.
    app.finish();
    app.cleanup();
    // Frame 0 runs no fixed step; after it, one update is one step.
    app.update();
    engines::after_startup(&mut app, args.engine, config.gravity.as_vec2());
    measure::trace_memory("first update");
    // Only the energy of the start is needed: do not hold a copy of the circles.
    let start_energy = measure::snapshot(&mut app, args.engine).kinetic_energy;
    let mut times = Vec::with_capacity(args.steps);
    let mut phases = Vec::with_capacity(args.steps);
    for _ in 0..args.steps {
        let t = std::time::Instant::now();
        app.update();
        times.push(t.elapsed().as_secs_f64() * 1e3);
        if let Some(d) = app
            .world()
            .get_resource::<bevy_circle_collide::CollisionDiagnostics>()
        {
            phases.push(d.phase_seconds);
        }
    }
    if std::env::var_os("PHASES").is_some() {
        measure::print_phase_medians(&mut phases);
    }
    measure::trace_memory("steps done");
    // The engine's peak: the runner's measurements below allocate copies of the circles.
    let peak_rss_kb = measure::peak_rss_kb();
    let end = measure::snapshot(&mut app, args.engine);
    let arena = config.arena.expect("standard scenes have walls");
    let report = measure::Report {
        engine: args.engine,
        scene: &args.scene,
        n: args.n,
        steps: args.steps,
        threads: args.threads,
        times: &times,
        ke_ratio: (start_energy > 0.0).then(|| end.kinetic_energy / start_energy),
        max_overlap_over_r: measure::deepest_overlap(&end.circles) / scenes::RADIUS as f32,
        escaped: measure::escaped(&end.circles, arena.min.as_vec2(), arena.max.as_vec2()),
        peak_rss_kb,
    };
    measure::trace_memory("measured");
    println!("{}", report.json());
}
