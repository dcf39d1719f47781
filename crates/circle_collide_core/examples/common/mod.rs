//! Shared by the core's examples.
#![allow(dead_code)] // each example uses its own part of this module

use circle_collide_core::Simulation;
use circle_collide_core::parallel::Executor;

/// Prints the heap bytes per body of each of the simulation's buffers, largest first.
pub fn print_heap_bytes(sim: &Simulation) {
    let n = sim.bodies().len().max(1) as f64;
    let bytes: Vec<String> = sim
        .heap_bytes()
        .iter()
        .map(|(name, b)| format!("{name} {:.1}", *b as f64 / n))
        .collect();
    println!("  heap bytes per body: {}", bytes.join(", "));
}

/// Prints a fingerprint of every position and velocity bit: two builds that print the
/// same one ran the same physics (for checking that an optimisation changes nothing).
pub fn print_state_fingerprint(sim: &Simulation) {
    use std::hash::{DefaultHasher, Hash, Hasher};
    let mut hasher = DefaultHasher::new();
    let b = sim.bodies();
    for v in b.positions().chain(b.velocities()) {
        (v.x.to_bits(), v.y.to_bits()).hash(&mut hasher);
    }
    println!("  state fingerprint: {:016x}", hasher.finish());
}

/// One phase of a step.
pub type Phase = fn(&mut Simulation, f64);

/// The five phases of [`Simulation::step`], in order, with their names.
pub const PHASES: [(&str, Phase); 5] = [
    ("integrate", Simulation::integrate),
    ("broad", |s, _| s.broad_phase()),
    ("narrow", |s, _| s.narrow_phase()),
    ("impacts", |s, _| s.solve_impacts()),
    ("resolve", |s, _| s.resolve()),
];

/// The median of `v` (the upper one of an even count; 0 when empty).
pub fn median(v: &[f64]) -> f64 {
    let mut sorted = v.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted.get(sorted.len() / 2).copied().unwrap_or(0.0)
}

/// Per-phase step times in ms, one list per phase of [`PHASES`].
#[derive(Default)]
pub struct PhaseTimes(pub Vec<Vec<f64>>);

impl PhaseTimes {
    /// Runs one step of `dt` phase by phase, timing each; returns the whole step's ms.
    pub fn step(&mut self, sim: &mut Simulation, dt: f64) -> f64 {
        self.0.resize(PHASES.len(), Vec::new());
        let start = std::time::Instant::now();
        for ((_, phase), times) in PHASES.iter().zip(&mut self.0) {
            let t = std::time::Instant::now();
            phase(sim, dt);
            times.push(t.elapsed().as_secs_f64() * 1e3);
        }
        start.elapsed().as_secs_f64() * 1e3
    }

    /// "name median, …" over the steps from `from` on (ms).
    pub fn medians(&self, from: usize) -> String {
        self.summary(from, median)
    }

    /// "name mean, …" over the steps from `from` on (ms): where the costly steps go.
    pub fn means(&self, from: usize) -> String {
        self.summary(from, |v| v.iter().sum::<f64>() / v.len().max(1) as f64)
    }

    /// "name figure, …" of each phase's times from step `from` on.
    fn summary(&self, from: usize, figure: fn(&[f64]) -> f64) -> String {
        let split: Vec<String> = (PHASES.iter().zip(&self.0))
            .map(|((name, _), times)| {
                format!("{name} {:.3}", figure(&times[from.min(times.len())..]))
            })
            .collect();
        split.join(", ")
    }
}

/// Runs jobs on `.0` scoped standard threads (the caller's included), round robin.
pub struct Threads(pub usize);

impl Executor for Threads {
    fn threads(&self) -> usize {
        self.0
    }

    fn run(&self, jobs: usize, job: &(dyn Fn(usize) + Sync)) {
        std::thread::scope(|s| {
            for t in 1..self.0 {
                s.spawn(move || (t..jobs).step_by(self.0).for_each(job));
            }
            (0..jobs).step_by(self.0).for_each(job);
        });
    }
}

/// Gives `sim` `THREADS` scoped threads when that variable is set (the parallel phases
/// and the large solves' coloured passes use them).
pub fn threads_from_env(sim: &mut Simulation) {
    if let Some(t) = std::env::var("THREADS")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
    {
        sim.set_executor(std::sync::Arc::new(Threads(t.max(1))));
    }
}

/// Turns every moving kinematic body back along an axis once it is within its radius
/// plus `margin` of a wall of `arena` and moving toward it (the runner's bulldozers turn
/// at margin 0, the bulldozer fuzz's at 0.5).
pub fn turn_kinematic(
    sim: &mut circle_collide_core::Simulation,
    arena: circle_collide_core::Arena,
    margin: f64,
) {
    for i in 0..sim.bodies().len() {
        let b = sim.bodies();
        let (v, p, r) = (b.velocity(i), b.position(i), b.radius(i) + margin);
        if b.inverse_mass(i) > 0.0 || v == circle_collide_core::glam::DVec2::ZERO {
            continue;
        }
        let mut turned = v;
        for k in 0..2 {
            if (p[k] < arena.min[k] + r && v[k] < 0.0) || (p[k] > arena.max[k] - r && v[k] > 0.0) {
                turned[k] = -v[k];
            }
        }
        sim.set_velocity(i as u32, turned);
    }
}
