//! The poured heap (issue "Friction and rotation"): 2000 circles of radii 0.3–2.0 poured
//! from one spout (`scenes::heap`, random radii and jittered release points) build a
//! heap whose slope is set by friction: flat without friction, steeper than the peers'
//! with μ = 0.5, and at least 20° with rolling resistance, where the heap also comes to
//! rest and stays.

use circle_collide_core::Simulation;
use circle_collide_core::scenes::{self, DT, HEAP_WIDTH, Heap, Repose};

/// The steeper of avian2d's and bevy_rapier2d's heaps poured the same way with μ = 0.5,
/// 10 s after the pour: the medians of `bash scripts/friction_matrix.sh`
/// (`results/friction.md`: rapier 15.6°, avian 15.0°; ours through the plugin 16.2°, and
/// 17.6° here in the core).
const PEERS_STEEPEST_AT_MU_HALF: f64 = 15.6;

/// Pours `heap`, then runs `after` more steps; returns the simulation.
fn pour(heap: &Heap, after: usize) -> Simulation {
    let mut sim = heap.simulation();
    for step in 0..heap.pour_steps() + after {
        for b in heap.released_before(step) {
            sim.add_body(*b).expect("valid body");
        }
        sim.step(DT);
    }
    assert_eq!(sim.bodies().len(), heap.scene.bodies.len());
    sim
}

fn repose(sim: &Simulation) -> Repose {
    let b = sim.bodies();
    let circles: Vec<_> = (0..b.len()).map(|i| (b.position(i), b.radius(i))).collect();
    scenes::repose_angle(&circles, HEAP_WIDTH)
}

/// Every body inside the arena and no pair overlapping by more than twice the slop
/// (0.01 of the smaller radius; a wall's, of the body's).
fn sane(sim: &Simulation) {
    let b = sim.bodies();
    let circles: Vec<_> = (0..b.len()).map(|i| (b.position(i), b.radius(i))).collect();
    let mut deepest = 0.0f64;
    for (k, &(p, r)) in circles.iter().enumerate() {
        for &(q, s) in &circles[k + 1..] {
            deepest = deepest.max((r + s - p.distance(q)) / r.min(s));
        }
    }
    assert!(
        deepest <= 0.02,
        "deepest overlap {deepest} of the smaller radius"
    );
    let inside = |&(p, r): &(glam::DVec2, f64)| {
        let within = 0.98 * r;
        p.x >= within && p.x <= HEAP_WIDTH - within && p.y >= within
    };
    let outside: Vec<_> = circles.iter().filter(|c| !inside(c)).collect();
    assert!(outside.is_empty(), "into a wall: {outside:?}");
}

#[test]
fn without_friction_the_heap_flows_flat() {
    let sim = pour(&scenes::heap(2000, 0.0, 0.0), 600);
    let r = repose(&sim);
    eprintln!("μ 0: {r:?}");
    assert!(r.angle() < 5.0, "{r:?}");
    sane(&sim);
}

#[test]
fn with_friction_the_heap_is_steeper_than_the_peers() {
    let sim = pour(&scenes::heap(2000, 0.5, 0.0), 600);
    let r = repose(&sim);
    eprintln!("μ 0.5: {r:?}");
    assert!(r.angle() >= PEERS_STEEPEST_AT_MU_HALF, "{r:?}");
    assert!(r.left > 10.0 && r.right > 10.0, "both flanks slope: {r:?}");
    sane(&sim);
}

#[test]
fn with_rolling_resistance_the_heap_settles_at_twenty_degrees_or_more() {
    let heap = scenes::heap(2000, 0.5, 0.05);
    let mut sim = pour(&heap, 0);
    let n = heap.scene.bodies.len();
    // Settled: every body asleep (it happens 26 s after the pour); then it stays so.
    let mut asleep_at = None;
    for step in 0..60 * 60 {
        sim.step(DT);
        if sim.stats().sleeping == n {
            asleep_at = Some(step);
            break;
        }
    }
    let asleep_at = asleep_at.expect("the rough heap falls asleep within 60 s of the pour");
    let at_rest = repose(&sim);
    eprintln!(
        "μ 0.5, rolling 0.05, asleep {} s after the pour: {at_rest:?}",
        asleep_at as f64 * DT
    );
    for _ in 0..120 {
        sim.step(DT);
        assert_eq!(sim.stats().sleeping, n, "it stays asleep");
    }
    assert_eq!(repose(&sim), at_rest, "and does not move");
    assert!(
        at_rest.angle() >= 20.0 && at_rest.left > 15.0 && at_rest.right > 15.0,
        "asleep {} s after the pour: {at_rest:?}",
        asleep_at as f64 * DT
    );
    sane(&sim);
}
