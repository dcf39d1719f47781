//! Peer runner: one standard scene of the design guide (§5) on one engine, headless
//! (`MinimalPlugins`, `TimeUpdateStrategy::ManualDuration(1/60 s)`, fixed step 1/60 s),
//! printing exactly one JSON line.
//!
//! ```text
//! cargo run --release -p circle_collide_bench -- --engine ours|avian|rapier --scene gas|pile|lattice|crowd|wall_crowd|dozer|pile_dozer|march|walkers|heap --n N --steps S [--threads T] [--friction MU] [--rolling C] [--restitution E] [--slop S] [--shuffle] [--spinner]
//! ```
//!
//! `pile` is the design's jittered pile, `lattice` the perfect-lattice variant, `crowd`
//! the gas construction at rest steered toward the centre at 4 units/s before every step
//! (each engine's velocity component is set in `FixedPreUpdate`), `wall_crowd` the same
//! crowd steered toward the middle of the left wall (a crowd pressed against a wall),
//! `dozer` the centre crowd with a kinematic bulldozer (radius 4 r, 8 units/s) driven
//! through its middle from the left wall to the right one and back, `pile_dozer` the
//! jittered pile with a bulldozer of 4 r driven at 4 units/s along the floor from the left
//! wall to the right one and back (the circles it would overlap at the start left out, on
//! every engine),
//! `march` the jittered pile whose circles are given a horizontal velocity of −4 units/s
//! before every step, their vertical velocity kept (a side-view horde walking into the
//! left wall under gravity), `walkers` the same pile of which a fifth of the circles (a
//! fixed scatter: circle `i` when `frac(i φ⁻¹) < 0.2`) walk so, shoving the others —
//! walkers and crates,
//! `heap` the poured heap
//! of mixed radii (`scenes::heap`: 5 circles released every 8 steps; `--steps` counts
//! the steps after the pour, and the line gives the heap's angle of repose).
//!
//! The scene's bodies come from `circle_collide_core::scenes` for all three engines.
//! `--friction` gives every circle that Coulomb coefficient (default 0: smooth) and
//! `--rolling` our rolling resistance (the peers have none); `--restitution` gives every
//! circle and our walls that restitution instead of the scene's (the crowd at 1: a
//! top-down crowd left at our plugin's default). Peers get the scene's
//! restitution and friction with the `Max` combine rule (walls 0), their default solver
//! settings otherwise, and four static boxes as walls. `--slop` gives ours that
//! `overlap_slop` (the overlap a step may leave, a fraction of the smaller radius; default
//! 0.01) — how much a looser tolerance buys; the peers have no such setting and keep
//! theirs. `--shuffle` spawns the scene's circles in a fixed shuffled order (the same
//! circles, the same steering): the ECS order of a long-running game, which no longer
//! follows space, where a scene spawned row by row keeps neighbours next to each other.
//! `--spinner` adds a kinematic circle spinning at 1 rad/s in the arena's top right corner,
//! touching nothing: once the scene sleeps (the pile with `--friction 0.5` does on every
//! engine), the late half measures a sleeping world beside one awake body — ours cannot
//! skip such a step as idle.
//!
//! `TIMES=1` prints every step's time (ms) to stderr, one a line;
//! `PHASES=1` prints our five phases' medians to stderr (over all steps and the late half,
//! with the rest of the app's update); `VERBOSE=1` prints our step's
//! figures (time, contacts, impacts, the push-out's moves and leftovers) every 25 steps;
//! `SLEEP_BY_NEIGHBOURHOOD=1` runs ours with that opt-in sleeping (not the default);
//! `SINGLE_THREADED_SCHEDULES=1` runs the fixed schedules and `PostUpdate` on Bevy's
//! single-threaded executor (any engine; the tables use Bevy's default).

mod engines;
mod measure;

use bevy::app::TaskPoolPlugin;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_circle_collide::core::scenes;

/// The share of the `walkers` scene's circles that walk.
const WALKING_SHARE: f64 = 0.2;

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
    friction: f64,
    rolling: f64,
    restitution: Option<f64>,
    slop: Option<f64>,
    shuffle: bool,
    spinner: bool,
}

fn parse() -> Args {
    let mut a = Args {
        engine: Engine::Ours,
        scene: "gas".into(),
        n: 1000,
        steps: 300,
        threads: 2,
        friction: 0.0,
        rolling: 0.0,
        restitution: None,
        slop: None,
        shuffle: std::env::args().any(|a| a == "--shuffle"),
        spinner: std::env::args().any(|a| a == "--spinner"),
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
            "--friction" => a.friction = v.parse().expect("--friction takes a number"),
            "--rolling" => a.rolling = v.parse().expect("--rolling takes a number"),
            "--restitution" => {
                a.restitution = Some(v.parse().expect("--restitution takes a number"));
            }
            "--slop" => a.slop = Some(v.parse().expect("--slop takes a number")),
            _ => {}
        }
    }
    a
}

fn main() {
    let args = parse();
    let heap = (args.scene == "heap").then(|| scenes::heap(args.n, args.friction, args.rolling));
    let mut scene = match args.scene.as_str() {
        "gas" => scenes::gas(args.n, 0.3, 10.0),
        "pile" | "march" | "walkers" | "pile_dozer" => scenes::pile(args.n),
        "lattice" => scenes::lattice_pile(args.n),
        "crowd" | "wall_crowd" | "dozer" => scenes::crowd(args.n, 0.3),
        // Poured during the run: the world starts empty.
        "heap" => scenes::Scene {
            bodies: Vec::new(),
            config: heap.as_ref().expect("built above").scene.config.clone(),
        },
        other => {
            panic!(
                "unknown scene {other}: gas, pile, lattice, crowd, wall_crowd, dozer, pile_dozer, march, walkers or heap"
            )
        }
    };
    for b in &mut scene.bodies {
        b.friction = args.friction;
        b.rolling_resistance = args.rolling;
        b.restitution = args.restitution.unwrap_or(b.restitution);
    }
    if let (Some(e), Some(arena)) = (args.restitution, &mut scene.config.arena) {
        arena.restitution = e;
    }
    if let Some(slop) = args.slop {
        scene.config.overlap_slop = slop;
    }
    // A bulldozer of 4 radii at the crowd's speed along the floor, from the left wall.
    let floor_dozer = (args.scene == "pile_dozer").then(|| scenes::floor_dozer(&mut scene, None));
    let pour_steps = heap.as_ref().map_or(0, scenes::Heap::pour_steps);
    let step = Time::<Fixed>::from_hz(60.0).timestep();
    let mut app = App::new();
    app.add_plugins(MinimalPlugins.set(TaskPoolPlugin {
        task_pool_options: bevy_circle_collide::task_pool_options(args.threads),
    }))
    .add_plugins(TransformPlugin)
    .insert_resource(Time::<Fixed>::from_hz(60.0))
    .insert_resource(TimeUpdateStrategy::ManualDuration(step));
    measure::trace_memory("scene built");
    let circles = if args.shuffle {
        spawn_shuffled(&mut app, args.engine, &scene)
    } else {
        engines::add(&mut app, args.engine, &scene)
    };
    let side = scenes::gas_side(args.n, 0.3) as f32;
    let target = match args.scene.as_str() {
        "crowd" | "dozer" => Some(Vec2::splat(0.5 * side)),
        "wall_crowd" => Some(Vec2::new(0.0, 0.5 * side)),
        _ => None,
    };
    if let Some(target) = target {
        engines::steer(&mut app, args.engine, target, scenes::CROWD_SPEED as f32);
    }
    // A bulldozer of 4 radii at twice the crowd's speed, from the middle of the left wall
    // to the right and back, through the crowd's centre at every crossing.
    let arena = scene.config.arena;
    let crowd_dozer = (args.scene == "dozer")
        .then(|| scenes::crowd_dozer(arena.expect("the crowd has walls"), None));
    if let (Some(body), Some(arena)) = (crowd_dozer.or(floor_dozer), arena) {
        let (p, v, r) = (
            body.position.as_vec2(),
            body.velocity.as_vec2(),
            body.radius as f32,
        );
        engines::dozer(
            &mut app,
            args.engine,
            p,
            v,
            r,
            arena.min.as_vec2(),
            arena.max.as_vec2(),
        );
    }
    if args.scene == "march" || args.scene == "walkers" {
        // The walkers: every circle of the march, a fixed fifth of the walkers scene's.
        let share = if args.scene == "march" {
            1.0
        } else {
            WALKING_SHARE
        };
        for (i, &entity) in circles.iter().enumerate() {
            if scenes::walks(i, share) {
                app.world_mut().entity_mut(entity).insert(engines::Walker);
            }
        }
        engines::march(&mut app, args.engine, -scenes::CROWD_SPEED as f32);
    }
    // `--spinner`: one awake body in the arena's top right corner, touching nothing.
    if let (true, Some(arena)) = (args.spinner, arena) {
        let corner = arena.max.as_vec2() - Vec2::ONE;
        engines::spinner(app.world_mut(), args.engine, corner, scenes::RADIUS as f32);
    }
    measure::trace_memory("spawned");
    // Every engine's fixed schedules (and the transform propagation) on one thread.
    if std::env::var_os("SINGLE_THREADED_SCHEDULES").is_some() {
        use bevy::ecs::schedule::{ScheduleLabel, SingleThreadedExecutor};
        for label in [
            FixedPreUpdate.intern(),
            FixedUpdate.intern(),
            FixedPostUpdate.intern(),
            PostUpdate.intern(),
        ] {
            app.edit_schedule(label, |s| {
                s.set_executor(SingleThreadedExecutor::new());
            });
        }
    }
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
    // Settled (design §5): KE ≤ 1e-6 N m g r and staying there; the snapshot is `Σ v²`,
    // so the threshold is 2 × 1e-6 N g r.
    let settle_below = 2e-6 * args.n as f64 * 9.81 * scenes::RADIUS;
    let mut settled_at = None;
    // The heap's pour is not timed: `times` holds the steps after it.
    for step in 0..pour_steps {
        for b in heap.as_ref().expect("a heap pours").released_before(step) {
            engines::spawn(app.world_mut(), args.engine, b);
        }
        app.update();
    }
    let verbose = std::env::var_os("VERBOSE").is_some();
    // SPEEDS=1: over the late half, the fastest circle after a step and how many circles
    // per step ended it faster than twice the crowd's speed (solver overshoot), to stderr.
    let speeds = std::env::var_os("SPEEDS").is_some();
    let (mut fastest, mut fast_circles) = (0.0_f32, 0_usize);
    for step in 1..=args.steps {
        let t = std::time::Instant::now();
        app.update();
        times.push(t.elapsed().as_secs_f64() * 1e3);
        if config.gravity != bevy_circle_collide::core::glam::DVec2::ZERO {
            let ke = measure::snapshot(&mut app, args.engine).kinetic_energy;
            match (settled_at, ke <= settle_below) {
                (None, true) => settled_at = Some(step),
                (Some(_), false) => settled_at = None,
                _ => {}
            }
        }
        if speeds && step > args.steps / 2 {
            let snapshot = measure::snapshot(&mut app, args.engine);
            let limit = 2.0 * scenes::CROWD_SPEED as f32;
            fastest = snapshot.speeds.iter().copied().fold(fastest, f32::max);
            fast_circles += snapshot.speeds.iter().filter(|&&s| s > limit).count();
        }
        if let Some(d) = app
            .world()
            .get_resource::<bevy_circle_collide::CollisionDiagnostics>()
        {
            phases.push(d.phase_seconds);
            // VERBOSE=1: our step's figures every 25 steps (as the core's crowd_steps).
            if verbose && step % 25 == 0 {
                eprintln!(
                    "  step {step}: {:.2} ms, {} contacts ({} to the solver), {} impacts, push-out {} moves, {} left, {} asleep, KE {:.3e} PE+KE {:.6e}",
                    times[step - 1],
                    d.contacts,
                    d.solver_contacts,
                    d.impacts,
                    d.overlaps_fixed,
                    d.overlaps_left,
                    d.sleeping,
                    d.kinetic_energy,
                    d.kinetic_energy + d.potential_energy,
                );
            }
        }
    }
    if speeds {
        let late = (args.steps - args.steps / 2) as f64;
        eprintln!(
            "late half: fastest circle {fastest:.2} u/s, {:.3} circles a step above {} u/s",
            fast_circles as f64 / late,
            2.0 * scenes::CROWD_SPEED
        );
    }
    if std::env::var_os("PHASES").is_some() {
        measure::print_phase_medians(&phases, &times);
    }
    // TIMES=1: every step's time (ms), one per line, to stderr.
    if std::env::var_os("TIMES").is_some() {
        times.iter().for_each(|t| eprintln!("{t:.4}"));
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
        ke_end: 0.5 * scenes::MASS * end.kinetic_energy,
        settled_at_s: settled_at.map(|s| s as f64 / 60.0),
        max_overlap_over_r: measure::deepest_overlap(&end.circles) / scenes::RADIUS as f32,
        escaped: measure::escaped(&end.circles, arena.min.as_vec2(), arena.max.as_vec2()),
        friction: args.friction,
        repose_deg: heap.is_some().then(|| {
            let circles: Vec<_> = (end.circles.iter())
                .map(|(p, r)| (p.as_dvec2(), f64::from(*r)))
                .collect();
            scenes::repose_angle(&circles, arena.max.x - arena.min.x).angle()
        }),
        peak_rss_kb,
    };
    measure::trace_memory("measured");
    println!("{}", report.json());
}

/// Spawns `scene`'s circles in a fixed shuffled order; returns their entities in the
/// scene's order (the steering picks circles by their place in the scene).
fn spawn_shuffled(app: &mut App, engine: Engine, scene: &scenes::Scene) -> Vec<Entity> {
    let n = scene.bodies.len();
    let mut order: Vec<usize> = (0..n).collect();
    // A fixed permutation, the same on every run and engine.
    let mut random = scenes::SplitMix64(0x5EED_0F5C_A7E5_u64);
    for i in (1..n).rev() {
        order.swap(i, (random.next_u64() % (i as u64 + 1)) as usize);
    }
    let shuffled = scenes::Scene {
        bodies: order.iter().map(|&k| scene.bodies[k]).collect(),
        config: scene.config.clone(),
    };
    let spawned = engines::add(app, engine, &shuffled);
    let mut circles = vec![Entity::PLACEHOLDER; n];
    for (place, &k) in order.iter().enumerate() {
        circles[k] = spawned[place];
    }
    circles
}
