//! Pours the heap scene (mixed radii 0.3–2.0 from one spout) and prints its angle of
//! repose, when it settled, what a step costs and how many same-instant runs were solved
//! as clusters (`circle_collide_core::same_instant`).
//!
//! ```text
//! cargo run --release -p circle_collide_core --example heap_repose -- [N] [friction] [rolling] [seconds after the pour]
//! ```
//!
//! `NEIGHBOURHOOD=1` sleeps by neighbourhood; `VERBOSE=1` prints the fastest body every
//! second of the last 15 s.

use circle_collide_core::scenes;

mod common;

fn main() {
    let mut args = std::env::args().skip(1);
    let mut next = |default: f64| {
        args.next()
            .map_or(default, |s| s.parse().expect("a number"))
    };
    let n = next(2000.0) as usize;
    let (friction, rolling, after) = (next(0.5), next(0.0), next(10.0));
    let heap = scenes::heap(n, friction, rolling);
    let mut sim = heap.simulation();
    // NEIGHBOURHOOD=1: sleeping by neighbourhood (see the module docs).
    if std::env::var_os("NEIGHBOURHOOD").is_some() {
        sim.config.sleep.by_neighbourhood = true;
    }
    let steps = heap.pour_steps() + (after * 60.0) as usize;
    let (mut times, mut settled_at, mut clusters) = (Vec::new(), None, 0);
    for step in 0..steps {
        for b in heap.released_before(step) {
            sim.add_body(*b).expect("valid body");
        }
        let start = std::time::Instant::now();
        sim.step(scenes::DT);
        times.push(start.elapsed().as_secs_f64() * 1e3);
        clusters += sim.stats().cluster_solves;
        let b = sim.bodies();
        let ke = b.kinetic_energy();
        let settled = step >= heap.pour_steps() && ke <= 1e-6 * n as f64 * 9.81 * 0.5;
        match (settled_at, settled) {
            (None, true) => settled_at = Some(step),
            (Some(_), false) => settled_at = None,
            _ => {}
        }
        if std::env::var_os("VERBOSE").is_some() && step % 60 == 0 && step + 900 > steps {
            let fastest = (0..b.len())
                .max_by(|&i, &j| b.velocity(i).length().total_cmp(&b.velocity(j).length()));
            let f = fastest.map(|i| (b.position(i), b.velocity(i), b.radius(i)));
            println!(
                "t {:6.2}: bodies {}, KE {ke:.3e}, sleeping {}, impacts {} (resting {}), solver contacts {}, cold restarts {}, fastest {f:.2?}",
                step as f64 / 60.0,
                b.len(),
                sim.stats().sleeping,
                sim.stats().impacts,
                sim.stats().resting_impacts,
                sim.stats().resting_contacts,
                sim.stats().cold_restarts,
            );
        }
    }
    let b = sim.bodies();
    let circles: Vec<_> = (0..b.len()).map(|i| (b.position(i), b.radius(i))).collect();
    let repose = scenes::repose_angle(&circles, scenes::HEAP_WIDTH);
    let late = &mut times[heap.pour_steps()..];
    late.sort_by(f64::total_cmp);
    println!(
        "heap N = {n}, μ {friction}, rolling {rolling}: angle {:.1}° (left {:.1}, right {:.1}), height {:.1}; settled {} s after the pour; after-pour step median {:.3} ms, worst {:.3} ms; same-instant clusters solved {clusters}",
        repose.angle(),
        repose.left,
        repose.right,
        repose.height,
        settled_at.map_or("never".into(), |s| format!(
            "{:.2}",
            (s - heap.pour_steps()) as f64 / 60.0
        )),
        late[late.len() / 2],
        late[late.len() - 1],
    );
    common::print_state_fingerprint(&sim);
}
