//! Measures the standard crowd (design §5): the gas construction at rest, restitution
//! 0.2, no gravity, every circle steered toward the centre at 4 units/s before each step.
//!
//! ```text
//! cargo run --release -p circle_collide_core --example crowd_steps -- [N] [steps] [resting_speed]
//! ```
//!
//! Prints the late-half median and mean and the worst step time, the steps that hit the
//! impact cap (fallbacks), the most overlaps the push-out left, the slow contacts and
//! impacts per step, and the deepest overlap at the end (over the radius, from the broad phase's
//! pairs). `VERBOSE=1` also prints every 25th step (its time, contacts, impacts, the
//! push-out's moves and leftovers, the solver's passes); `ITER=n` sets the solver's
//! passes, `CG=0` turns the conjugate-gradient correction off, `SLOP=s` sets the overlap a
//! step may leave (`StepConfig::overlap_slop`, default 0.01), `WALL=1` steers the crowd
//! toward the middle of the left wall instead of the centre, `NUDGE=k` moves that target
//! k/1000 units up (another trajectory of the same crowd); `PILLAR=r` stands a static
//! circle of radius r on the target (the circles it would overlap left out) for the crowd
//! to press on; `CROWD_E=e` gives the circles and the walls restitution e (1: a crowd
//! left at the plugin's default); `DOZER=1` adds the runner's bulldozer (a kinematic
//! circle of 4 radii at 8 units/s from the middle of the left wall to the right one and
//! back, turning within its radius of a wall: the runner's `--scene dozer`; `DOZER_Y=y`
//! drives it at height y instead of the middle, by the floor a paddle away from the crowd); `THREADS=n`
//! runs on n scoped threads (the results do not change).

mod common;

use circle_collide_core::scenes;

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args
        .next()
        .map_or(500, |s| s.parse().expect("N: number of circles"));
    let steps: usize = args
        .next()
        .map_or(600, |s| s.parse().expect("steps to simulate"));
    let mut scene = scenes::crowd(n, 0.3);
    // The target, as below (needed here for the pillar).
    let side = scenes::gas_side(n, 0.3);
    let target = if std::env::var_os("WALL").is_some() {
        DVec2::new(0.0, 0.5 * side)
    } else {
        DVec2::splat(0.5 * side)
    };
    let nudge = std::env::var("NUDGE")
        .ok()
        .and_then(|v| v.parse::<f64>().ok());
    let target = target + DVec2::new(0.0, 1e-3 * nudge.unwrap_or(0.0));
    // PILLAR=r: a static circle of radius r on the target.
    if let Some(r) = std::env::var("PILLAR")
        .ok()
        .and_then(|v| v.parse::<f64>().ok())
    {
        scene
            .bodies
            .retain(|b| b.position.distance(target) > r + b.radius);
        // Restitution: the crowd's (0.2) unless PILLAR_E=e.
        let e = std::env::var("PILLAR_E")
            .ok()
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(0.2);
        scene
            .bodies
            .push(circle_collide_core::BodyDesc::new(target, r, f64::INFINITY).with_restitution(e));
    }
    // CROWD_E=e: the circles' and the walls' restitution (module docs).
    if let Some(e) = std::env::var("CROWD_E")
        .ok()
        .and_then(|v| v.parse::<f64>().ok())
    {
        for b in scene.bodies.iter_mut().filter(|b| b.mass.is_finite()) {
            b.restitution = e;
        }
        if let Some(arena) = &mut scene.config.arena {
            arena.restitution = e;
        }
    }
    // DOZER=1: the runner's bulldozer (module docs), the last body of the scene.
    let dozer = std::env::var_os("DOZER").is_some().then(|| {
        let arena = scene.config.arena.expect("the crowd has walls");
        let y = std::env::var("DOZER_Y").ok().and_then(|v| v.parse().ok());
        let body = scenes::crowd_dozer(arena, y);
        scene.bodies.push(body.with_restitution(0.2));
        arena
    });
    let n = scene.bodies.len();
    let mut sim = scene.simulation();
    common::threads_from_env(&mut sim);
    if let Some(rs) = args.next() {
        sim.config.resting_speed = Some(rs.parse().expect("resting speed"));
    }
    // ITER=n overrides the contact solver's passes (module docs).
    if let Some(k) = std::env::var("ITER").ok().and_then(|v| v.parse().ok()) {
        sim.config.contact_iterations = k;
    }
    // SLOP=s sets the overlap a step may leave (module docs).
    if let Some(s) = std::env::var("SLOP").ok().and_then(|v| v.parse().ok()) {
        sim.config.overlap_slop = s;
    }
    // CG=0 turns the conjugate-gradient correction of deep jams off.
    if let Some(k) = std::env::var("CG").ok().and_then(|v| v.parse::<u32>().ok()) {
        sim.config.conjugate_correction = k != 0;
    }
    // WALL=1 steers the crowd toward the middle of the left wall instead of the centre
    // (a crowd pressing against a wall); NUDGE=k moves the target k thousandths of a unit
    // up: the same crowd on another trajectory (a jam is chaotic), for comparing builds
    // over several of them (both read above).
    let centre = target;
    let (mut times, mut fallbacks, mut most_left, mut impacts, mut contacts) =
        (Vec::new(), 0, 0, 0, 0);
    let mut phases = common::PhaseTimes::default();
    let (mut cold, mut moves, mut left_steps) = (0, 0, 0);
    // VERBOSE=1 prints the step's figures every 25 steps.
    let verbose = std::env::var_os("VERBOSE").is_some();
    for step in 1..=steps {
        scenes::steer_crowd(&mut sim, centre);
        if let Some(arena) = dozer {
            common::turn_kinematic(&mut sim, arena, 0.0);
        }
        times.push(phases.step(&mut sim, scenes::DT));
        let s = sim.stats();
        if verbose && step % 25 == 0 {
            println!(
                "  step {step}: {:.2} ms, {} contacts ({} to the solver), {} impacts, push-out {} moves, {} left, {} passes",
                times[step - 1],
                s.contacts,
                s.resting_contacts,
                s.impacts,
                s.overlaps_fixed,
                s.overlaps_left,
                s.contact_passes,
            );
        }
        fallbacks += usize::from(s.fallback);
        most_left = most_left.max(s.overlaps_left);
        impacts += s.impacts;
        contacts += s.resting_contacts;
        cold += s.cold_restarts;
        moves += s.overlaps_fixed;
        left_steps += usize::from(s.overlaps_left > 0);
    }
    let b = sim.bodies();
    let deepest = (sim.candidate_pairs().iter())
        .map(|&(i, j)| {
            let (i, j) = (i as usize, j as usize);
            b.radius(i) + b.radius(j) - b.position(i).distance(b.position(j))
        })
        .fold(0.0, f64::max)
        / scenes::RADIUS;
    let worst = times.iter().copied().fold(0.0, f64::max);
    println!(
        "crowd N = {n}, {steps} steps: late-half median {:.3} ms, late-half mean {:.3} ms, worst {worst:.3} ms, fallback steps {fallbacks}, most overlaps left {most_left}, per step {:.0} slow contacts and {:.0} impacts, deepest overlap at the end {deepest:.4} r (slop {} r), KE {:.3e}",
        common::median(&times[steps / 2..]),
        times[steps / 2..].iter().sum::<f64>() / (steps - steps / 2).max(1) as f64,
        contacts as f64 / steps as f64,
        impacts as f64 / steps as f64,
        sim.config.overlap_slop,
        sim.stats().kinetic_energy,
    );
    println!("  cold restarts of the contact solver: {cold} of {steps} steps");
    println!(
        "  push-out: {:.0} moves per step, {left_steps} steps left overlaps",
        moves as f64 / steps as f64
    );
    println!(
        "  late-half phase medians (ms): {}",
        phases.medians(steps / 2)
    );
    println!("  late-half phase means (ms): {}", phases.means(steps / 2));
    common::print_heap_bytes(&sim);
    common::print_state_fingerprint(&sim);
}

use circle_collide_core::glam::DVec2;
