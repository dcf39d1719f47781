//! Measures walkers and crates on the Bevy-free core: the jittered pile of design §5 of
//! which a share of the circles (circle `i` when `frac(i φ⁻¹) < share`, the peer runner's
//! `walkers` scene at 0.2, its `march` at 1) walk left at 4 units/s — before every step
//! their horizontal velocity is set, their vertical one kept — shoving the others into the
//! left wall under gravity.
//!
//! ```text
//! cargo run --release -p circle_collide_core --example walkers_steps -- [N] [steps] [share]
//! ```
//!
//! Prints the late-half median and mean, the mean over all steps and the worst step time
//! (the correction runs every other step in these jams, so the late half's steps take
//! two costs and its median sits in the dearer half: the mean is what a game pays); over
//! the late half, the steps that left overlaps past the slop, and per step the solver's
//! contacts, the share of steps that ran the conjugate-gradient correction and its
//! iterations, the push-out's moves and the impacts; the late half's phase medians and
//! means; the kinetic energy at the end and the state's fingerprint. `E=e` gives the
//! circles and the walls restitution e (default 0.2; 1: the plugin's default), `SLOP=s`
//! the overlap a step may leave
//! (`StepConfig::overlap_slop`, a fraction of the smaller radius; default 0.01), `NUDGE=k`
//! scales gravity by 1 + k·10⁻⁸ (another trajectory of the same scene), `VERBOSE=1` prints
//! every step, `THREADS=n` runs on n scoped threads (the results do not change);
//! `DOZER=1` adds the runner's `pile_dozer` bulldozer (a kinematic circle of 4 radii driven
//! at 4 units/s along the floor from the left wall to the right one and back, the circles
//! it would overlap at the start left out: use share 0, the walkers are numbered before);
//! `DOZER_Y=y` drives it with its centre at height y instead (2.05: on the floor).

mod common;

use circle_collide_core::scenes;

/// What the late half of the run added up.
#[derive(Default)]
struct Late {
    left_steps: usize,
    contacts: usize,
    corrected: usize,
    iterations: u64,
    moves: usize,
    impacts: usize,
}

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args
        .next()
        .map_or(2000, |s| s.parse().expect("N: number of circles"));
    let steps: usize = args
        .next()
        .map_or(600, |s| s.parse().expect("steps to simulate"));
    let share: f64 = args
        .next()
        .map_or(0.2, |s| s.parse().expect("share of walking circles"));
    let knob = |name: &str| std::env::var(name).ok().and_then(|v| v.parse::<f64>().ok());
    let e = knob("E").unwrap_or(0.2);
    let mut scene = scenes::pile(n);
    for b in &mut scene.bodies {
        b.restitution = e;
    }
    if let Some(arena) = &mut scene.config.arena {
        arena.restitution = e;
    }
    if let Some(slop) = knob("SLOP") {
        scene.config.overlap_slop = slop;
    }
    if let Some(k) = knob("NUDGE") {
        scene.config.gravity *= 1.0 + k * 1e-8;
    }
    // DOZER=1: the runner's floor bulldozer (module docs).
    let dozer = std::env::var_os("DOZER").is_some().then(|| {
        let arena = scene.config.arena.expect("the pile has walls");
        let body = scenes::floor_dozer(&mut scene, knob("DOZER_Y"));
        scene.bodies.push(body.with_restitution(e));
        arena
    });
    let mut sim = scene.simulation();
    common::threads_from_env(&mut sim);
    let walkers = scenes::walkers(n, share);
    let verbose = std::env::var_os("VERBOSE").is_some();
    let (mut times, mut late) = (Vec::with_capacity(steps), Late::default());
    let mut phases = common::PhaseTimes::default();
    for step in 0..steps {
        scenes::walk_left(&mut sim, walkers.iter().copied());
        if let Some(arena) = dozer {
            common::turn_kinematic(&mut sim, arena, 0.0);
        }
        let ms = phases.step(&mut sim, scenes::DT);
        times.push(ms);
        let s = sim.stats();
        if step >= steps / 2 {
            late.left_steps += usize::from(s.overlaps_left > 0);
            late.contacts += s.resting_contacts;
            late.corrected += usize::from(s.corrected);
            late.iterations += u64::from(s.correction_iterations) * u64::from(s.corrected);
            late.moves += s.overlaps_fixed;
            late.impacts += s.impacts;
        }
        if verbose {
            println!(
                "  step {step}: {ms:.2} ms, {} solver contacts, correction {} ({} iterations), push-out {} moves, {} impacts, {} left",
                s.resting_contacts,
                s.corrected,
                s.correction_iterations,
                s.overlaps_fixed,
                s.impacts,
                s.overlaps_left
            );
        }
    }
    // No steps: 0 (an empty sum of floats is −0).
    let mean = if times.is_empty() {
        0.0
    } else {
        times.iter().sum::<f64>() / times.len() as f64
    };
    let worst = times.iter().copied().fold(0.0, f64::max);
    let second_half = &times[steps / 2..];
    let median = common::median(second_half);
    let late_mean = second_half.iter().sum::<f64>() / second_half.len().max(1) as f64;
    let per_step = |total: f64| total / second_half.len().max(1) as f64;
    println!(
        "walkers N = {n}, share {share}, restitution {e}, {steps} steps, {} walking: late-half median {median:.3} ms, late-half mean {late_mean:.3} ms, mean {mean:.3} ms, worst {worst:.1} ms",
        walkers.len()
    );
    println!(
        "  late half: {} steps left overlaps; per step {:.0} solver contacts, correction in {:.2} of the steps ({:.1} iterations), {:.0} push-out moves, {:.1} impacts; kinetic energy at the end {:.3e}",
        late.left_steps,
        per_step(late.contacts as f64),
        per_step(late.corrected as f64),
        late.iterations as f64 / late.corrected.max(1) as f64,
        per_step(late.moves as f64),
        per_step(late.impacts as f64),
        sim.stats().kinetic_energy
    );
    println!(
        "  late-half phase medians (ms): {}",
        phases.medians(steps / 2)
    );
    println!("  late-half phase means (ms): {}", phases.means(steps / 2));
    common::print_state_fingerprint(&sim);
}
