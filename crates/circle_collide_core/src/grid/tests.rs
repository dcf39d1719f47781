//! Tests of the grid's bookkeeping.

use super::refill;
use crate::bodies::boxes_overlap;
use glam::DVec2;

/// A body whose course changes back and forth many times in a step (a rattler) is
/// listed once in each cell it reaches, not again at every change: the grid's entries
/// stay bounded (before, each change to a new range listed it again, and queries
/// through those cells walked the pile-up: a step of 20,000 impacts took seconds).
/// Every body whose box overlaps a re-inserted one still finds it.
#[test]
fn a_body_turning_back_and_forth_is_listed_once_per_cell() {
    let mut sim = crate::scenes::gas(400, 0.3, 10.0).simulation();
    sim.integrate(crate::scenes::DT);
    sim.broad_phase();
    assert!(sim.grid.dense);
    let start = sim.grid.entries.len();
    // Forty bodies turned 500 times each along x (half a cell each way over the
    // step), five more fast enough that their two paths need a wider range.
    let turned: Vec<usize> = (0..45).map(|k| k * 8).collect();
    for turn in 0..500 {
        for (k, &i) in turned.iter().enumerate() {
            let speed = if k < 40 { 40.0 } else { 150.0 };
            let sign = if turn % 2 == 0 { 1.0 } else { -1.0 };
            sim.bodies.hot[i].vel = DVec2::new(sign * speed, 0.0);
            sim.grid.insert(&sim.bodies, i);
        }
    }
    let added = sim.grid.entries.len() - start;
    assert!(added <= 40 * 16, "{added} entries added");
    let gridded = turned[..40]
        .iter()
        .filter(|&&i| !sim.grid.is_oversized[i])
        .count();
    assert_eq!(gridded, 40, "the slower ones stay in the grid");
    for &i in &turned[40..] {
        assert!(sim.grid.is_oversized[i], "body {i}: too wide for the grid");
    }
    for &i in &turned {
        for j in (0..sim.bodies.len()).filter(|&j| j != i) {
            if boxes_overlap(sim.bodies.swept_box(i), sim.bodies.swept_box(j)) {
                let mut found = false;
                sim.grid.query_listed(&sim.bodies, j, |k| found |= k == i);
                assert!(found, "body {j} misses body {i}");
            }
        }
    }
}

/// A per-step buffer that grows a little each step keeps about what it uses
/// (an eighth of slack), instead of doubling like a plain `resize`.
#[test]
fn refill_grows_with_slack_not_doubling() {
    let mut v: Vec<u32> = Vec::new();
    refill(&mut v, 1000, 7);
    assert_eq!(v, vec![7; 1000]);
    let first = v.capacity();
    assert!((1000..=1125).contains(&first), "capacity {first}");
    refill(&mut v, 1010, 0);
    assert_eq!(v.len(), 1010);
    assert!(v.iter().all(|&x| x == 0));
    assert_eq!(v.capacity(), first, "room left: no new allocation");
    refill(&mut v, 1200, 1);
    assert!(
        (1200..=1350).contains(&v.capacity()),
        "capacity {}",
        v.capacity()
    );
}
