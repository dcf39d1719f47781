//! Shared by the core's examples.

use circle_collide_core::Simulation;

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
