//! Measures the pile scene: settle time, residual kinetic energy, deepest overlap, and
//! step times (median and worst), on the Bevy-free core.
//!
//! ```text
//! cargo run --release -p circle_collide_core --example pile_settle -- [N] [seconds]
//! ```
//!
//! "Settled" means the kinetic energy stays below 1e-6 × N m g r from then on.

mod common;

use circle_collide_core::scenes;

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args
        .next()
        .map_or(10_000, |s| s.parse().expect("N: number of circles"));
    let seconds: usize = args
        .next()
        .map_or(10, |s| s.parse().expect("seconds to simulate"));
    // PILE=lattice runs the perfect-lattice variant; VERBOSE=1 prints twice a second;
    // SHOCK=0/1, ITER=n, RS=speed and SLOP=s override the shock pass, the contact passes,
    // the resting speed and the overlap slop; NEIGHBOURHOOD=1 sleeps by neighbourhood; MU=μ and ROLL=c give every
    // circle friction and rolling resistance; DUST=r drops a speck of radius r on the
    // pile (below); THREADS=n runs on n scoped threads (the results do not change).
    let mut scene = match std::env::var("PILE").as_deref() {
        Ok("lattice") => scenes::lattice_pile(n),
        _ => scenes::pile(n),
    };
    let verbose = std::env::var_os("VERBOSE").is_some();
    let knob = |name: &str| std::env::var(name).ok().and_then(|v| v.parse::<f64>().ok());
    for b in &mut scene.bodies {
        b.friction = knob("MU").unwrap_or(0.0);
        b.rolling_resistance = knob("ROLL").unwrap_or(0.0);
    }
    // PLUGIN_INPUTS=1 rounds the scene's inputs through `f32` as the plugin receives them
    // (positions, masses, restitutions, gravity, slop, arena); NUDGE=k scales gravity by
    // 1 + k·10⁻⁸. Either gives another trajectory of the same pile: which step a pile
    // falls asleep at is chaotic, so compare builds over several (`docs/performance.md`).
    if std::env::var_os("PLUGIN_INPUTS").is_some() {
        let r = |x: f64| x as f32 as f64;
        let r2 = |v: glam::DVec2| glam::DVec2::new(r(v.x), r(v.y));
        for b in &mut scene.bodies {
            (b.position, b.mass, b.restitution) = (r2(b.position), r(b.mass), r(b.restitution));
        }
        let c = &mut scene.config;
        (c.gravity, c.overlap_slop) = (r2(c.gravity), r(c.overlap_slop));
        if let Some(a) = &mut c.arena {
            (a.min, a.max, a.restitution) = (r2(a.min), r2(a.max), r(a.restitution));
        }
    }
    // DUST=r drops one more circle, of radius r, from above the middle of the pile (the
    // pile's density and restitution): a speck of dust.
    if let Some(r) = knob("DUST") {
        let arena = scene.config.arena.expect("the pile has a box");
        let top = scene
            .bodies
            .iter()
            .map(|b| b.position.y)
            .fold(f64::MIN, f64::max);
        let mut dust = scene.bodies[0];
        dust.position = glam::DVec2::new(0.5 * (arena.min.x + arena.max.x) + 0.3, top + 2.0);
        (dust.radius, dust.mass) = (r, std::f64::consts::PI * r * r);
        scene.bodies.push(dust);
    }
    if let Some(k) = knob("NUDGE") {
        scene.config.gravity *= 1.0 + k * 1e-8;
    }
    let mut sim = scene.simulation();
    common::threads_from_env(&mut sim);
    if let Some(k) = knob("SHOCK") {
        sim.config.shock_propagation = k != 0.0;
    }
    if let Some(k) = knob("RS") {
        sim.config.resting_speed = Some(k);
    }
    if let Some(k) = knob("NEIGHBOURHOOD") {
        sim.config.sleep.by_neighbourhood = k != 0.0;
    }
    if let Some(k) = knob("ITER") {
        sim.config.contact_iterations = k as u32;
    }
    if let Some(s) = knob("SLOP") {
        sim.config.overlap_slop = s;
    }
    let mass = std::f64::consts::PI * scenes::RADIUS * scenes::RADIUS;
    let threshold = 1e-6 * n as f64 * mass * 9.81 * scenes::RADIUS;
    // EVERY=k prints every k-th step instead of twice a second (with VERBOSE).
    let every = knob("EVERY").map_or(30, |k| (k as usize).max(1));
    let sleep_speed = (sim.config.sleep.speed).unwrap_or(0.5 * scenes::RADIUS);
    let f32_round_trip = std::env::var_os("F32").is_some();
    let mut phases = common::PhaseTimes::default();
    let (mut times, mut settled_at, mut deepest_after, mut fallbacks, mut most_impacts) =
        (Vec::new(), None, 0.0f64, 0, 0);
    let (mut most_left, mut left_steps, mut last_left) = (0, 0, 0);
    for step in 1..=seconds * 60 {
        // F32=1: awake bodies' positions and velocities rounded to f32 before each step,
        // as the plugin's round trip through `Transform` and `Velocity` did before it kept
        // the f64 state in `PreciseMotion`.
        if f32_round_trip {
            for i in 0..sim.bodies().len() {
                if sim.bodies().is_sleeping(i) {
                    continue;
                }
                let (p, v) = (sim.bodies().position(i), sim.bodies().velocity(i));
                let r = |x: f64| x as f32 as f64;
                sim.set_position(i as u32, glam::DVec2::new(r(p.x), r(p.y)));
                sim.set_velocity(i as u32, glam::DVec2::new(r(v.x), r(v.y)));
            }
        }
        times.push(phases.step(&mut sim, scenes::DT));
        fallbacks += usize::from(sim.stats().fallback);
        most_impacts = most_impacts.max(sim.stats().impacts);
        most_left = most_left.max(sim.stats().overlaps_left);
        if sim.stats().overlaps_left > 0 {
            left_steps += 1;
            last_left = step;
        }
        let ke = sim.stats().kinetic_energy;
        if verbose && step % every == 0 {
            let b = sim.bodies();
            if let Some(i) = (0..b.len())
                .max_by(|&i, &j| b.velocity(i).length().total_cmp(&b.velocity(j).length()))
            {
                // What keeps the pile awake: bodies above the sleep speed, and the
                // shortest rest time (an island sleeps when all its bodies rested long).
                let fast = (0..b.len())
                    .filter(|&k| b.velocity(k).length() > sleep_speed)
                    .count();
                let least = (0..b.len())
                    .map(|k| b.rest_time(k))
                    .fold(f64::INFINITY, f64::min);
                println!(
                    "  fastest: #{i} at {:.2} moving {:.3} spin {:.3}; {fast} above the sleep speed, least rest time {least:.3} s",
                    b.position(i),
                    b.velocity(i),
                    b.angular_velocity(i)
                );
            }
            let s = sim.stats();
            println!(
                "t {:5.2} s: {:.2} ms, KE {ke:.3e}, impacts {} (resting {}), solver contacts {}, {} passes, cold restarts {}, sleeping {}, woken {}, pushed apart {}, left {}",
                step as f64 / 60.0,
                times[step - 1],
                s.impacts,
                s.resting_impacts,
                s.resting_contacts,
                s.contact_passes,
                s.cold_restarts,
                s.sleeping,
                s.woken,
                s.overlaps_fixed,
                s.overlaps_left
            );
        }
        match (settled_at, ke < threshold) {
            (None, true) => settled_at = Some(step),
            (Some(_), false) => settled_at = None,
            _ => {}
        }
        if settled_at.is_some() {
            let b = sim.bodies();
            for &(i, j) in sim.candidate_pairs() {
                let (i, j) = (i as usize, j as usize);
                let depth = b.radius(i) + b.radius(j) - b.position(i).distance(b.position(j));
                deepest_after = deepest_after.max(depth / scenes::RADIUS);
            }
        }
    }
    let mut sorted = times.clone();
    sorted.sort_by(f64::total_cmp);
    let worst = times
        .iter()
        .copied()
        .enumerate()
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .unwrap();
    println!(
        "pile N = {n}, {seconds} s: settled at {} s, residual KE {:.3e} (threshold {threshold:.3e}), deepest overlap after settling {:.4} r, step time median {:.3} ms, worst {:.3} ms (step {}), fallback steps {}, most impacts in a step {most_impacts}",
        settled_at.map_or("never".to_string(), |s| format!("{:.3}", s as f64 / 60.0)),
        sim.stats().kinetic_energy,
        deepest_after,
        sorted[sorted.len() / 2],
        worst.1,
        worst.0 + 1,
        fallbacks,
    );
    // After landing: from 4 s on (the pile lands by about 2 s), against the late-half
    // median.
    let landed = (4 * 60).min(times.len());
    let worst_after = times[landed..].iter().copied().fold(0.0, f64::max);
    let late_median = common::median(&times[times.len() / 2..]);
    println!(
        "  after 4 s: worst step {worst_after:.3} ms = {:.1} x the late-half median {late_median:.3} ms",
        worst_after / late_median.max(f64::MIN_POSITIVE)
    );
    println!("  asleep at the end: {}", sim.stats().sleeping);
    println!(
        "  push-out: most overlaps left in a step {most_left}, in {left_steps} steps (the last: step {last_left})"
    );
    println!(
        "  late-half phase medians (ms): {}",
        phases.medians(times.len() / 2)
    );
    // REWAKE=1: every body woken at once, half a second more. A pile at rest stays put.
    if std::env::var_os("REWAKE").is_some() {
        let rest: Vec<glam::DVec2> = sim.bodies().positions().collect();
        for i in 0..rest.len() {
            sim.set_velocity(i as u32, glam::DVec2::ZERO);
        }
        for _ in 0..30 {
            sim.step(scenes::DT);
        }
        let b = sim.bodies();
        let moves: Vec<f64> = (0..rest.len())
            .map(|i| b.position(i).distance(rest[i]))
            .collect();
        println!(
            "  woken at once, half a second later: farthest move {:.4} r, {} bodies moved more than 0.01 r, KE {:.3e}",
            moves.iter().copied().fold(0.0, f64::max) / scenes::RADIUS,
            moves.iter().filter(|&&m| m > 0.01 * scenes::RADIUS).count(),
            sim.stats().kinetic_energy
        );
    }
    common::print_heap_bytes(&sim);
    common::print_state_fingerprint(&sim);
}
