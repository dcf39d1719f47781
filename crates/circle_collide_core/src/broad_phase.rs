//! Phase 2, broad phase: candidate pairs whose swept boxes overlap (seed 001's AABB
//! pre-check, done at scale with the [`grid`](crate::grid)).

use crate::simulation::Simulation;

impl Simulation {
    /// Rebuilds the grid from the swept boxes and lists the candidate pairs, each once as
    /// `(lower, higher)`, sorted. Pairs that do not [interact](Simulation::interacts) —
    /// two static bodies, layers that refuse each other, excluded pairs — are left out.
    pub fn broad_phase(&mut self) {
        self.grid.rebuild(&self.bodies);
        self.collect_pairs();
        self.stats.candidate_pairs = self.pairs.len();
        self.stats.oversized_bodies = self.grid.oversized_count();
    }

    pub(crate) fn collect_pairs(&mut self) {
        let mut pairs = std::mem::take(&mut self.pairs);
        pairs.clear();
        for i in 0..self.bodies.len() {
            self.grid.query(&self.bodies, i, true, |j| {
                let (a, b) = (i.min(j) as u32, i.max(j) as u32);
                if self.interacts(a, b) {
                    pairs.push((a, b));
                }
            });
        }
        self.pairs = pairs;
        // Sorted order makes every later pass over the pairs independent of the hashing.
        self.pairs.sort_unstable();
    }
}

#[cfg(test)]
mod tests {
    use crate::{BodyDesc, Simulation, StepConfig};
    use glam::DVec2;

    /// The grid must find exactly the pairs a brute-force box test finds, including
    /// pairs with huge and very fast circles kept out of the grid.
    #[test]
    fn grid_pairs_equal_brute_force() {
        let mut sim = Simulation::new(StepConfig::default());
        let mut state = 7u64;
        let mut rnd = || crate::scenes::SplitMix64::next_f64(&mut state);
        for k in 0..600 {
            let p = DVec2::new(rnd() * 60.0, rnd() * 60.0);
            let r = if k % 97 == 0 { 8.0 } else { 0.2 + rnd() };
            let speed = if k % 131 == 0 { 3000.0 } else { 20.0 * rnd() };
            let v = DVec2::from_angle(rnd() * std::f64::consts::TAU) * speed;
            sim.add_body(BodyDesc::new(p, r, 1.0).with_velocity(v))
                .unwrap();
        }
        sim.integrate(1.0 / 60.0);
        sim.broad_phase();
        let b = sim.bodies();
        let mut brute = Vec::new();
        for i in 0..b.len() {
            for j in i + 1..b.len() {
                if b.boxes_overlap(i, j) {
                    brute.push((i as u32, j as u32));
                }
            }
        }
        assert!(
            sim.grid.oversized_count() >= 6,
            "huge and fast circles leave the grid"
        );
        assert_eq!(sim.candidate_pairs(), &brute[..]);
    }
}
