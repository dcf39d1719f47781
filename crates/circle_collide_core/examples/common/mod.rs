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
