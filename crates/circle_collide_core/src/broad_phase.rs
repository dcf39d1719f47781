//! Phase 2, broad phase: candidate pairs whose swept boxes overlap (seed 001's AABB
//! pre-check, done at scale with the [`grid`](crate::grid)). Each box is widened by the
//! overlap slop times the body's radius, so pairs within the slop are listed too.

use crate::parallel::chunk_range;
use crate::simulation::Simulation;

impl Simulation {
    /// Rebuilds the grid from the swept boxes and lists the candidate pairs, each once as
    /// `(lower, higher)`, in an order fixed by the bodies (not by memory or threads).
    /// Pairs that do not [interact](Simulation::interacts) — two static bodies, layers
    /// that refuse each other, excluded pairs — are left out.
    ///
    /// A sleeping body that an awake one touches or will hit within the step wakes here
    /// with its island, and the pairs are listed again (see the `sleep` module); so does
    /// one touching a place [vacated](Simulation::wake_around) since the last step, and
    /// every one when the [level](Simulation::set_level) changed. A world
    /// in which nothing moves — every dynamic body asleep, no moving kinematic body, no
    /// sensor — has no pair that could interact: the grid is not built and no pair is
    /// listed.
    pub fn broad_phase(&mut self) {
        if !self.vacated.is_empty() || self.level_changed {
            self.wake_vacated();
        }
        if self.stats.sleeping_at_start > 0 && !self.list_movers() {
            self.jam.forget_broad_boxes();
            self.pairs.clear();
            self.stats.candidate_pairs = 0;
            self.stats.oversized_bodies = 0;
            return;
        }
        self.mark_speculative();
        self.rebuild_grid();
        self.collect_pairs();
        if self.stats.sleeping_at_start > 0 && self.wake_touched() {
            self.near_wall_listed = None;
            self.rebuild_grid();
            self.collect_pairs();
        }
        // The push-out may make a jam's list from these pairs (`JamList::note_broad_boxes`).
        self.note_broad_boxes();
        self.stats.candidate_pairs = self.pairs.len();
        self.stats.oversized_bodies = self.grid.oversized_count();
    }

    /// Rebuilds the grid from the bodies' boxes, noting its inactive entries in a world
    /// with sleeping bodies ([`Grid::rebuild`](crate::grid::Grid::rebuild)).
    pub(crate) fn rebuild_grid(&mut self) {
        let sleepers = self.stats.sleeping_at_start > 0;
        self.grid.rebuild(&self.bodies, sleepers);
    }

    /// Keeps the grid's boxes of the pairs just listed for the push-out
    /// ([`JamList::note_broad_boxes`](crate::push_out::JamList::note_broad_boxes)).
    pub(crate) fn note_broad_boxes(&mut self) {
        let sleepers = self.stats.sleeping_at_start > 0;
        self.jam
            .note_broad_boxes(&self.grid, &self.bodies, sleepers);
    }

    /// Lists the interacting candidate pairs into `self.pairs`, in chunks on the
    /// executor when the world is large; the chunks are joined in order, so the list is
    /// the same as a serial run's.
    pub(crate) fn collect_pairs(&mut self) {
        let mut pairs = std::mem::take(&mut self.pairs);
        pairs.clear();
        let this = &*self;
        let (n, rows) = (this.bodies.len(), this.grid.dense_rows());
        // Work follows the bodies; dense worlds split it by cell rows.
        let chunks =
            this.executor
                .pair_chunks(n, n)
                .min(if this.grid.dense { rows.max(1) } else { n });
        if chunks <= 1 {
            this.pairs_in(0..rows, 0..n, &mut pairs);
        } else {
            let parts = this.executor.map(chunks, |k| {
                let mut part = Vec::new();
                let rows = chunk_range(rows, chunks, k);
                this.pairs_in(rows, chunk_range(n, chunks, k), &mut part);
                part
            });
            parts.iter().for_each(|part| pairs.extend_from_slice(part));
        }
        if this.grid.dense {
            let mut keep = this.keep_interacting(&mut pairs);
            this.grid.for_each_big_pair(&this.bodies, &mut keep);
            this.grid.for_each_oversized_pair(&this.bodies, keep);
        }
        self.pairs = pairs;
    }

    /// A sink for found pairs `(lower, higher)`: appends those that
    /// [interact](Simulation::interacts) to `out`.
    fn keep_interacting<'a>(
        &'a self,
        out: &'a mut Vec<(u32, u32)>,
    ) -> impl FnMut(usize, usize) + 'a {
        move |a, b| {
            if self.interacts(a as u32, b as u32) {
                out.push((a as u32, b as u32));
            }
        }
    }

    /// Interacting pairs found in dense cell `rows` (dense worlds) or from the bodies
    /// `owners` (hashed worlds), appended to `out`.
    fn pairs_in(
        &self,
        rows: std::ops::Range<usize>,
        owners: std::ops::Range<usize>,
        out: &mut Vec<(u32, u32)>,
    ) {
        let mut keep = self.keep_interacting(out);
        if self.grid.dense {
            self.grid.for_each_pair_in_rows(rows, keep);
        } else {
            for i in owners {
                self.grid
                    .query(&self.bodies, i, true, |j| keep(i.min(j), i.max(j)));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{BodyDesc, Simulation, StepConfig};
    use glam::DVec2;

    /// Random circles in a `side × side` square; every 97th huge, every 131st very fast,
    /// every 53rd middling (listed in several cells).
    fn world(side: f64, n: usize) -> Simulation {
        let mut sim = Simulation::new(StepConfig::default());
        let mut state = 7u64;
        let mut rnd = || crate::scenes::SplitMix64::next_f64(&mut state);
        for k in 0..n {
            let p = DVec2::new(rnd() * side, rnd() * side);
            let r = match (k % 97, k % 53) {
                (0, _) => 8.0,
                (_, 0) => 2.5,
                _ => 0.2 + rnd(),
            };
            let speed = if k % 131 == 0 { 3000.0 } else { 20.0 * rnd() };
            let v = DVec2::from_angle(rnd() * std::f64::consts::TAU) * speed;
            sim.add_body(BodyDesc::new(p, r, 1.0).with_velocity(v))
                .unwrap();
        }
        sim.integrate(1.0 / 60.0);
        sim.broad_phase();
        sim
    }

    fn brute_pairs(sim: &Simulation) -> Vec<(u32, u32)> {
        let b = sim.bodies();
        let mut brute = Vec::new();
        for i in 0..b.len() {
            for j in i + 1..b.len() {
                if b.boxes_overlap(i, j) {
                    brute.push((i as u32, j as u32));
                }
            }
        }
        brute
    }

    /// The grid (boxes kept in `f32`, rounded outwards) must find every pair a
    /// brute-force box test finds, and nothing more than pairs within rounding of
    /// touching.
    fn assert_pairs_match_brute_force(sim: &Simulation, label: &str) {
        let mut pairs = sim.candidate_pairs().to_vec();
        pairs.sort_unstable();
        let len = pairs.len();
        pairs.dedup();
        assert_eq!(pairs.len(), len, "{label}: a pair listed twice");
        let brute = brute_pairs(sim);
        let missed: Vec<_> = brute
            .iter()
            .filter(|p| pairs.binary_search(p).is_err())
            .collect();
        assert!(missed.is_empty(), "{label}: missed {missed:?}");
        for &(i, j) in pairs.iter().filter(|p| brute.binary_search(p).is_err()) {
            let b = sim.bodies();
            let (a, c) = (b.swept_box(i as usize), b.swept_box(j as usize));
            let gap = (c.0 - a.1).max(a.0 - c.1).max_element();
            let scale = a.1.abs().max(c.1.abs()).max_element().max(1.0);
            assert!(
                gap <= 1e-6 * scale,
                "{label}: extra pair {i}-{j}, gap {gap}"
            );
        }
    }

    /// Dense and sparse (hashed) worlds, with huge and very fast circles kept out of the
    /// grid.
    #[test]
    fn grid_pairs_equal_brute_force() {
        for (side, dense) in [(60.0, true), (1e5, false)] {
            let sim = world(side, 600);
            assert_eq!(sim.grid.dense, dense, "side {side}");
            assert!(
                sim.grid.oversized_count() >= 6,
                "huge and fast circles leave the grid"
            );
            if dense {
                assert!(sim.grid.big_count() >= 8, "middling circles span cells");
            }
            assert_pairs_match_brute_force(&sim, &format!("side {side}"));
        }
    }

    /// Static, kinematic and sleeping bodies (inactive in the grid): the pairs listed are
    /// exactly the brute-force box pairs that interact, in the order of a world where
    /// every pair is tested — a region of only inactive bodies (its cells skipped), one
    /// with a few active bodies among them, sensors and huge circles.
    #[test]
    fn inactive_bodies_are_skipped_without_losing_a_pair() {
        let mut sim = Simulation::new(StepConfig::default());
        let mut state = 11u64;
        let mut rnd = || crate::scenes::SplitMix64::next_f64(&mut state);
        for k in 0..1500 {
            let p = DVec2::new(rnd() * 60.0, rnd() * 60.0);
            let r = if k % 97 == 0 { 6.0 } else { 0.3 + 0.5 * rnd() };
            // Left third: all inactive; middle: one in five active; right: all active.
            let active = match p.x {
                x if x < 20.0 => false,
                x if x < 40.0 => k % 5 == 0,
                _ => true,
            };
            let mass = if active { 1.0 } else { f64::INFINITY };
            let mut body = BodyDesc::new(p, r, mass).with_sensor(k % 41 == 0 && p.x >= 20.0);
            if !active && k % 7 == 0 {
                body = body.with_velocity(DVec2::new(1.0, 0.0)); // kinematic
            }
            sim.add_body(body).unwrap();
        }
        sim.integrate(1.0 / 60.0);
        sim.broad_phase();
        // A world with sleeping bodies marks its inactive entries; mark these.
        sim.grid.rebuild(&sim.bodies, true);
        sim.collect_pairs();
        assert!(sim.grid.dense && sim.grid.any_inactive);
        let expected: Vec<(u32, u32)> = brute_pairs(&sim)
            .into_iter()
            .filter(|&(i, j)| sim.interacts(i, j))
            .collect();
        let mut pairs = sim.candidate_pairs().to_vec();
        assert!(pairs.len() > 500, "{} pairs", pairs.len());
        pairs.sort_unstable();
        assert_eq!(pairs, expected);
        // The same list, in the same order, as the plain loop over every pair gives.
        let listed = sim.candidate_pairs().to_vec();
        sim.grid.rebuild(&sim.bodies, false);
        assert!(!sim.grid.any_inactive);
        sim.collect_pairs();
        assert_eq!(sim.candidate_pairs(), &listed[..]);
    }

    /// A gas of equal circles: many boxes almost a cell wide, in every neighbour cell.
    #[test]
    fn gas_pairs_equal_brute_force() {
        let mut sim = crate::scenes::gas(3000, 0.3, 10.0).simulation();
        for step in 0..40 {
            sim.integrate(crate::scenes::DT);
            sim.broad_phase();
            if step % 10 == 9 {
                assert_eq!(sim.grid.oversized_count(), 0);
                assert_pairs_match_brute_force(&sim, &format!("step {step}"));
            }
            sim.narrow_phase();
            sim.solve_impacts();
            sim.resolve();
        }
    }

    /// The event loop's query reads each body's box as last listed: after mid-step course
    /// changes (re-insertions, some far outside the old box) and bodies advanced along
    /// their paths (boxes shrinking), it still finds every body whose current box
    /// overlaps, and only a few more.
    #[test]
    fn listed_box_queries_find_every_overlap() {
        let mut sim = world(60.0, 400);
        assert!(sim.grid.dense_rows() > 0, "the dense cells are exercised");
        for k in (0..400).step_by(3) {
            let v = DVec2::new(-(k as f64), 0.5 * k as f64);
            sim.bodies.hot[k].vel = v;
            sim.grid.insert(&sim.bodies, k);
        }
        for k in (1..400).step_by(5) {
            sim.bodies.advance(k, 0.5 / 60.0);
        }
        let mut extra = 0;
        for i in 0..400 {
            let mut found = Vec::new();
            sim.grid.query_listed(&sim.bodies, i, |j| found.push(j));
            found.sort_unstable();
            found.dedup();
            let expected: Vec<usize> = (0..400)
                .filter(|&j| j != i && sim.bodies.boxes_overlap(i, j))
                .collect();
            let missed: Vec<usize> = (expected.iter())
                .filter(|j| found.binary_search(j).is_err())
                .copied()
                .collect();
            assert!(missed.is_empty(), "body {i} misses {missed:?}");
            extra += found.len() - expected.len();
        }
        // The extras: bodies advanced since they were listed, whose listed boxes still
        // cover the part of the path they have left behind.
        assert!(extra < 400, "{extra} extra candidates");
    }

    /// After mid-step course changes (re-insertions into the hash), a query still finds
    /// every body whose current box overlaps.
    #[test]
    fn queries_after_reinsertion_equal_brute_force() {
        let mut sim = world(60.0, 400);
        for k in (0..400).step_by(3) {
            let v = DVec2::new(-(k as f64), 0.5 * k as f64);
            sim.bodies.hot[k].vel = v;
            sim.grid.insert(&sim.bodies, k);
        }
        for i in 0..400 {
            let mut found = Vec::new();
            sim.grid.query(&sim.bodies, i, false, |j| found.push(j));
            found.sort_unstable();
            found.dedup();
            let expected: Vec<usize> = (0..400)
                .filter(|&j| j != i && sim.bodies.boxes_overlap(i, j))
                .collect();
            assert_eq!(found, expected, "body {i}");
        }
    }

    /// A widened query finds every body whose box overlaps the widened box, in dense and
    /// sparse worlds with huge and fast (oversized) circles, widened by nothing, by less
    /// than a cell and by several cells.
    #[test]
    fn widened_queries_equal_brute_force() {
        for side in [60.0, 1e5] {
            let sim = world(side, 400);
            for widen in [0.0, 0.3, 4.0] {
                for i in 0..400 {
                    let mut found = Vec::new();
                    sim.grid
                        .query_widened(&sim.bodies, i, widen, |j| found.push(j));
                    found.sort_unstable();
                    found.dedup();
                    let (min, max) = sim.bodies.swept_box(i);
                    let own = (min - DVec2::splat(widen), max + DVec2::splat(widen));
                    let expected: Vec<usize> = (0..400)
                        .filter(|&j| {
                            j != i && crate::bodies::boxes_overlap(own, sim.bodies.swept_box(j))
                        })
                        .collect();
                    assert_eq!(found, expected, "side {side}, widen {widen}, body {i}");
                }
            }
        }
    }
}
