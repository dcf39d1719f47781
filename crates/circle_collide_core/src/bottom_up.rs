//! The push-out's first pass under gravity: every listed pair from the bottom up,
//! visiting only the pairs that can move.
//!
//! The pass takes the pairs in order of height (the sum of the two centres along `up`,
//! at the start of the pass; ties by pair) and pushes apart each that overlaps deeper
//! than the slop, so a body pushed up meets the pairs above it afterwards. A pair is
//! that deep at its turn only if it was at the start or one of its bodies moved before
//! its turn; every other visit does nothing. So the pass visits, in the same order, the
//! pairs deep at the start and, as a body moves, its pairs that come later: the same
//! pushes, bit for bit, without sorting every pair (in the pile of 10,000, ~25,000
//! pairs took ~1.4 ms a step to sort, while a few hundred move).

use crate::order::ordered;
use crate::push_out::{Pass, beyond_slop};
use crate::simulation::Simulation;
use glam::DVec2;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// A pair's turn: (height as an ordered integer key, lower body, higher body, entry).
type Turn = (u64, u32, u32, u32);

/// Scratch of [`Simulation::separate_from_the_bottom`], kept for its allocations.
#[derive(Clone, Debug, Default)]
pub(crate) struct BottomUp {
    /// Each listed pair that can be pushed apart: (height key, i, j).
    entries: Vec<(u64, u32, u32)>,
    /// The turns still to come.
    heap: BinaryHeap<Reverse<Turn>>,
    /// `of[start[k]..start[k + 1]]`: the entries of body `k`.
    start: Vec<u32>,
    of: Vec<u32>,
}

impl BottomUp {
    /// Bytes held on the heap.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.entries.capacity() * std::mem::size_of::<(u64, u32, u32)>()
            + self.heap.capacity() * std::mem::size_of::<Reverse<Turn>>()
            + (self.start.capacity() + self.of.capacity()) * std::mem::size_of::<u32>()
    }
}

impl Simulation {
    /// The push-out's first pass under gravity (see the module docs); returns the
    /// pairs it pushed apart.
    pub(crate) fn separate_from_the_bottom(&mut self, slop: f64, up: DVec2) -> usize {
        let mut s = std::mem::take(&mut self.bottom_up);
        let b = &self.bodies;
        s.entries.clear();
        s.heap.clear();
        for &(i, j) in self.pairs.iter().chain(&self.late_pairs) {
            let (iu, ju) = (i as usize, j as usize);
            if b.separable(iu, ju) {
                let (key, e) = (
                    ordered(up.dot(b.hot[iu].pos + b.hot[ju].pos)),
                    s.entries.len(),
                );
                s.entries.push((key, i, j));
                if beyond_slop(b, iu, ju, slop).is_some() {
                    s.heap.push(Reverse((key, i, j, e as u32)));
                }
            }
        }
        let mut indexed = false;
        let (mut moved, mut last) = (0, None);
        while let Some(Reverse(turn)) = s.heap.pop() {
            // A pair is queued once for each body that moved before its turn.
            if last == Some(turn) {
                continue;
            }
            last = Some(turn);
            let (_, i, j, _) = turn;
            let Some((wi, wj)) =
                self.separate_pair(Pass::First, (slop, up), i as usize, j as usize)
            else {
                continue;
            };
            moved += 1;
            if !indexed {
                let entries = &s.entries;
                crate::compressed_rows::build(self.bodies.len(), &mut s.start, &mut s.of, |emit| {
                    for (e, &(_, i, j)) in entries.iter().enumerate() {
                        emit(i as usize, e as u32);
                        emit(j as usize, e as u32);
                    }
                });
                indexed = true;
            }
            for (k, w) in [(i, wi), (j, wj)] {
                if w == 0.0 {
                    continue;
                }
                let (from, to) = (s.start[k as usize], s.start[k as usize + 1]);
                for &e in &s.of[from as usize..to as usize] {
                    let (key, a, c) = s.entries[e as usize];
                    let later = (key, a, c, e);
                    if later > turn {
                        s.heap.push(Reverse(later));
                    }
                }
            }
        }
        self.bottom_up = s;
        moved
    }
}

#[cfg(test)]
mod tests {
    use crate::push_out::Pass;
    use crate::scenes::{self, SplitMix64};
    use glam::DVec2;

    /// A landed pile of 600 with bodies shoved down into their neighbours (up to 0.4 r,
    /// so a push cascades upwards): the pass gives, bit for bit, what visiting every
    /// listed pair in sorted order of height gives, and it does move bodies.
    #[test]
    fn the_pass_matches_visiting_every_pair_in_order_of_height() {
        for seed in [1u64, 2, 3] {
            let mut sim = scenes::pile(600).simulation();
            for _ in 0..90 {
                sim.step(scenes::DT);
            }
            let mut rng = SplitMix64(seed);
            for i in 0..sim.bodies().len() as u32 {
                if rng.next_unit() < 0.3 {
                    let shove = DVec2::new(0.1 * (rng.next_unit() - 0.5), -0.4 * rng.next_unit());
                    let p = sim.bodies().position(i as usize);
                    sim.set_position(i, p + shove * scenes::RADIUS);
                }
            }
            sim.integrate(scenes::DT);
            sim.broad_phase();
            let (slop, up) = (sim.config.overlap_slop, -sim.config.gravity.normalize());
            let mut sorted = sim.clone();
            let moved = sim.separate_from_the_bottom(slop, up);
            // The reference: every separable pair, sorted by (height, pair), visited.
            let b = &sorted.bodies;
            let mut all: Vec<(f64, u32, u32)> = (sorted.pairs.iter().chain(&sorted.late_pairs))
                .filter(|&&(i, j)| b.separable(i as usize, j as usize))
                .map(|&(i, j)| (up.dot(b.hot[i as usize].pos + b.hot[j as usize].pos), i, j))
                .collect();
            all.sort_by(|x, y| x.0.total_cmp(&y.0).then((x.1, x.2).cmp(&(y.1, y.2))));
            let expected = (all.iter())
                .filter(|&&(_, i, j)| {
                    sorted
                        .separate_pair(Pass::First, (slop, up), i as usize, j as usize)
                        .is_some()
                })
                .count();
            assert!(
                moved > 50,
                "seed {seed}: the shoves overlap ({moved} pushes)"
            );
            assert_eq!(moved, expected, "seed {seed}");
            assert_eq!(sim.pushed, sorted.pushed, "seed {seed}");
            let bits = |s: &crate::Simulation| {
                (0..s.bodies().len())
                    .map(|i| s.bodies().position(i).to_array().map(f64::to_bits))
                    .collect::<Vec<_>>()
            };
            assert_eq!(bits(&sim), bits(&sorted), "seed {seed}");
        }
    }
}
