//! Replays the plugin's bulldozer fuzz draws in the core: a top-down crowd of 300–3000
//! circles at packing 0.4–0.75, restitution 0 / 0.2 / 0.5 / 1, steered to its centre at
//! 4 units/s before every step, ploughed by one to three kinematic circles (radius 1–4,
//! 2–12 units/s, turning at the walls), 400 steps — the scenes of
//! `bevy_circle_collide/tests/fuzz.rs` (`crowd_draw`, without the churn), drawn from the
//! same seeds, in `f64` (the plugin's `f32` places make other trajectories of the same
//! scenes). For timing the push-out's rules on the jams they make: the densest draws fill
//! their box, where a push has nowhere to go.
//!
//! ```text
//! cargo run --release -p circle_collide_core --example plough_draws -- [first seed] [last seed]
//! ```
//!
//! Prints, per draw, its scene, the median and worst step, the steps the push-out left
//! overlapping and the fastest circle after step 30, then the sum of the draws' medians.

mod common;

use circle_collide_core::BodyDesc;
use circle_collide_core::glam::DVec2;
use circle_collide_core::scenes::{self, SplitMix64};

fn main() {
    let mut args = std::env::args().skip(1);
    let mut next = |default: u64| args.next().map_or(default, |s| s.parse().expect("a seed"));
    let (first, last) = (next(1), next(40));
    let (mut medians, mut worsts) = (Vec::new(), Vec::new());
    for seed in first..=last {
        let (times, left, fastest, at) = draw(seed);
        let (median, worst) = (
            common::median(&times),
            times.iter().copied().fold(0.0, f64::max),
        );
        println!(
            "{at}: median {median:.2} ms, worst {worst:.1} ms, {left} steps left overlaps, fastest circle {fastest:.1} u/s"
        );
        medians.push(median);
        worsts.push(worst);
    }
    println!(
        "{} draws: medians sum {:.2} ms, worst steps sum {:.1} ms",
        medians.len(),
        medians.iter().sum::<f64>(),
        worsts.iter().sum::<f64>()
    );
}

/// One draw: its step times (ms), the steps left overlapping, the fastest circle after
/// step 30 and a description.
fn draw(seed: u64) -> (Vec<f64>, usize, f64, String) {
    let mut rng = SplitMix64(seed * 6151 + 3);
    let n = 300 + (rng.next_unit() * 2700.0) as usize;
    let eta = 0.4 + 0.35 * rng.next_unit();
    let e = [0.0, 0.2, 0.5, 1.0][(rng.next_unit() * 4.0) as usize % 4];
    let mut scene = scenes::crowd(n, eta);
    for b in &mut scene.bodies {
        b.restitution = e;
    }
    let arena = scene.config.arena.expect("a box");
    let side = arena.max.x;
    let dozers = 1 + (rng.next_unit() * 3.0) as usize;
    for _ in 0..dozers {
        let r = 1.0 + 3.0 * rng.next_unit();
        let speed = 2.0 + 10.0 * rng.next_unit();
        let angle = std::f64::consts::TAU * rng.next_unit();
        let p = DVec2::new(r + 1.0, r + 1.0 + (side - 2.0 * r - 2.0) * rng.next_unit());
        let v = DVec2::from_angle(angle) * speed;
        let dozer = BodyDesc::new(p, r, f64::INFINITY).with_velocity(v);
        scene.bodies.push(dozer.with_restitution(e));
    }
    let at = format!("draw {seed} ({n} circles, packing {eta:.2}, e {e}, {dozers} bulldozers)");
    let mut sim = scene.simulation();
    let centre = DVec2::splat(side / 2.0);
    let (mut times, mut left, mut fastest) = (Vec::new(), 0, 0.0_f64);
    for step in 0..400 {
        scenes::steer_crowd(&mut sim, centre);
        common::turn_kinematic(&mut sim, arena, 0.5);
        let start = std::time::Instant::now();
        sim.step(scenes::DT);
        times.push(start.elapsed().as_secs_f64() * 1e3);
        left += usize::from(sim.stats().overlaps_left > 0);
        if step >= 30 {
            let b = sim.bodies();
            let dynamic = (0..b.len()).filter(|&i| b.inverse_mass(i) > 0.0);
            fastest = dynamic
                .map(|i| b.velocity(i).length())
                .fold(fastest, f64::max);
        }
    }
    (times, left, fastest, at)
}
