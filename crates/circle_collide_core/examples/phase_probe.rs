use circle_collide_core::scenes;
fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .map_or(100_000, |s| s.parse().unwrap());
    let mut sim = scenes::gas(n, 0.3, 10.0).simulation();
    let mut acc = [0.0f64; 5];
    for _ in 0..20 {
        let t = std::time::Instant::now();
        sim.integrate(scenes::DT);
        acc[0] += t.elapsed().as_secs_f64();
        let t = std::time::Instant::now();
        sim.broad_phase();
        acc[1] += t.elapsed().as_secs_f64();
        let t = std::time::Instant::now();
        sim.narrow_phase();
        acc[2] += t.elapsed().as_secs_f64();
        let t = std::time::Instant::now();
        sim.solve_impacts();
        acc[3] += t.elapsed().as_secs_f64();
        let t = std::time::Instant::now();
        sim.resolve();
        acc[4] += t.elapsed().as_secs_f64();
    }
    println!(
        "N={n} per step ms: integrate {:.2} broad {:.2} narrow {:.2} toi {:.2} resolve {:.2}; pairs {} cell {:.3} stale {}",
        acc[0] * 50.0,
        acc[1] * 50.0,
        acc[2] * 50.0,
        acc[3] * 50.0,
        acc[4] * 50.0,
        sim.candidate_pairs().len(),
        sim.grid_cell_size(),
        sim.stats().stale_events
    );
}
