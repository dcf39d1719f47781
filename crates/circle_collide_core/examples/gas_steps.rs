//! Times the gas scene on the Bevy-free core, single-threaded.
//!
//! ```text
//! cargo run --release -p circle_collide_core --example gas_steps -- [N] [steps]
//! ```

use circle_collide_core::scenes;

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().map_or(100_000, |s| s.parse().expect("N"));
    let steps: usize = args.next().map_or(60, |s| s.parse().expect("steps"));
    let mut sim = scenes::gas(n, 0.3, 10.0).simulation();
    let e0 = sim.bodies().kinetic_energy();
    let mut times = Vec::with_capacity(steps);
    let mut impacts = 0;
    for _ in 0..steps {
        let t = std::time::Instant::now();
        sim.step(scenes::DT);
        times.push(t.elapsed().as_secs_f64() * 1e3);
        impacts += sim.stats().impacts;
    }
    let mean = times.iter().sum::<f64>() / steps as f64;
    times.sort_by(f64::total_cmp);
    println!(
        "gas N = {n}: {steps} steps, median {:.3} ms, mean {mean:.3} ms, worst {:.3} ms, {:.0} impacts/step, |ΔE|/E {:.1e}",
        times[steps / 2],
        times[steps - 1],
        impacts as f64 / steps as f64,
        (sim.bodies().kinetic_energy() / e0 - 1.0).abs()
    );
}
