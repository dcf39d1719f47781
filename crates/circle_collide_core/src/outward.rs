//! The push-out's jammed passes outward from moving kinematic bodies.
//!
//! A kinematic body driven into a jam (a bulldozer through a crowd) pushes the circles in
//! front of it into the ones behind them. The jammed passes split each push evenly
//! between two dynamic bodies, which carries a push one layer of circles a pass: a plough
//! through a crowd of 10,000 ran every step at the push-out's work limit, 64 passes,
//! leaving hundreds of pairs past the slop. So, without gravity (or in a steered jam,
//! which is pushed out as one), the jammed passes of a push-out in a world with a moving
//! kinematic body that touched something this step (a paddle that touches nothing pushes
//! no jam) take their deep pairs in order of distance from the nearest such body
//! (the pair's midpoint; ties by pair) and move the farther body of each pair the whole
//! depth: as the bottom-up pass does under gravity, a push crosses the jam in one pass,
//! up to where there is room.
//!
//! Where there is none the outward rule cannot clear a jam: a body pushed into a wall is
//! put back by the wall and pushed in again, and where two pushers' pushes meet each
//! drives the bodies into the other's; splitting evenly spreads such a jam's overlap over
//! its pairs. Outward passes without end made the densest ploughed crowds of the fuzz
//! 4–11 times slower (`docs/performance.md`, forty-fifth session). So the first
//! [`OUTWARD_PASSES`] jammed passes go outward, and the following ones only until an
//! outward pass finds no room — a wall moves a body after it, or it pushes a dynamic body
//! off a static or kinematic body that is not its nearest pusher, or pushes apart two
//! bodies whose nearest pushers differ; from then on the passes split again.

use crate::simulation::Simulation;
use glam::DVec2;

/// How many jammed passes of a push-out go outward from the moving kinematic bodies even
/// where they find no room (see the module docs). Measured on the runner's `dozer` scene
/// when no pass after them went outward (late means, 10,000 / 2000 circles): 4 passes
/// 19.7 / 2.61 ms, 8 16.9 / 2.32, 16 13.9 / 2.34, every pass 11.8 / 2.19, none 23.7 /
/// 2.56; over the 40 draws of the bulldozer fuzz, 8 passes took the draws' medians 20 %
/// lower (none more than 10 % higher), 16 made two dense draws 30–40 % slower. Going on
/// outward while there is room (forty-sixth session, core `crowd_steps` with `DOZER=1`):
/// 10,000 16.0 → 12.0 ms, 2000 1.92 → 1.64; the fuzz's draws replayed in the core
/// (`plough_draws`) level (their medians' median ratio 1.01, none more than 12 % slower,
/// the single bulldozers' up to 26 % faster).
pub(crate) const OUTWARD_PASSES: u32 = 8;

/// A world with more moving kinematic bodies touching something than this keeps the even
/// split (each deep pair of an outward pass looks for its nearest one among them all).
pub(crate) const OUTWARD_MAX_PUSHERS: usize = 16;

impl Simulation {
    /// Lists the places of the moving kinematic bodies (sensors aside) that touched
    /// something this step — a contact of the solver or an impact — for this push-out
    /// (none under gravity outside a steered jam, or when there are more than
    /// [`OUTWARD_MAX_PUSHERS`]): a paddle that touches nothing pushes no jam. Only
    /// push-outs that reach a jammed pass need them.
    fn list_pushers(&mut self) {
        self.pushers.clear();
        // No moving kinematic body counted by `integrate`: no pusher, no walk.
        if self.driving_bodies == 0 || self.jam_up() != DVec2::ZERO {
            return;
        }
        let pushing = |h: &&crate::bodies::Hot| h.pushes() && h.pos.is_finite();
        (self.pushers).extend(self.bodies.hot.iter().filter(pushing).map(|h| h.pos));
        if self.pushers.len() > OUTWARD_MAX_PUSHERS {
            self.pushers.clear();
        }
    }

    /// Whether this jammed pass goes outward (the first [`OUTWARD_PASSES`], then until one
    /// finds no room: see the module docs); counts it if so. The push-out's first jammed
    /// pass lists the pushers (`outward_passes` is `None` before).
    pub(crate) fn outward_pass(&mut self) -> bool {
        let done = match self.outward_passes {
            Some(done) => done,
            None => {
                self.list_pushers();
                0
            }
        };
        let room = done < OUTWARD_PASSES || !self.outward_blocked;
        let outward = !self.pushers.is_empty() && room;
        self.outward_passes = Some(done + u32::from(outward));
        outward
    }

    /// The index of the pusher nearest `p` and its squared distance (the first on a tie).
    fn nearest_pusher(&self, p: DVec2) -> (usize, f64) {
        (self.pushers.iter().enumerate())
            .map(|(k, q)| (k, q.distance_squared(p)))
            .fold(
                (usize::MAX, f64::INFINITY),
                |a, b| if b.1 < a.1 { b } else { a },
            )
    }

    /// The squared distance from `p` to the nearest pusher.
    fn pusher_distance(&self, p: DVec2) -> f64 {
        self.nearest_pusher(p).1
    }

    /// Orders an outward pass's deep pairs `(key, i, j)` by the distance of their
    /// midpoint from the nearest pusher (the key is overwritten), ties by pair.
    pub(crate) fn order_outward(&self, deep: &mut [(f64, u32, u32)]) {
        let b = &self.bodies;
        for d in deep.iter_mut() {
            let mid = 0.5 * (b.hot[d.1 as usize].pos + b.hot[d.2 as usize].pos);
            d.0 = self.pusher_distance(mid);
        }
        crate::push_out::sort_by_key_then_pair(deep);
    }

    /// The shares of an outward push bodies `i` and `j` take: two dynamic bodies, all
    /// to the one farther from the nearest pusher (`j` on a tie); against a static or
    /// kinematic body, all to the dynamic one. Notes a push that finds no room (see the
    /// module docs): two bodies with different nearest pushers, or a dynamic body off a
    /// static or kinematic one that is not its nearest pusher.
    pub(crate) fn outward_weights(&mut self, i: usize, j: usize) -> (f64, f64) {
        let (hi, hj) = (&self.bodies.hot[i], &self.bodies.hot[j]);
        let (ni, di) = self.nearest_pusher(hi.pos);
        let (nj, dj) = self.nearest_pusher(hj.pos);
        let (dynamic_i, dynamic_j) = (hi.inv_mass > 0.0, hj.inv_mass > 0.0);
        let (weights, blocked) = match (dynamic_i, dynamic_j) {
            (true, true) if dj >= di => ((0.0, 1.0), ni != nj),
            (true, true) => ((1.0, 0.0), ni != nj),
            (true, false) => ((1.0, 0.0), self.pushers.get(ni) != Some(&hj.pos)),
            _ => ((0.0, 1.0), self.pushers.get(nj) != Some(&hi.pos)),
        };
        self.outward_blocked |= blocked;
        weights
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use crate::scenes::{Scene, SplitMix64};
    use crate::{Arena, BodyDesc, Simulation, StepConfig};
    use glam::DVec2;

    /// A block of 12 × 12 circles of radius 0.5 squeezed to 0.9 of touching along its
    /// rows and columns from (10, 10) (each such pair 0.2 radii deep; every circle
    /// jittered by up to 0.05 radii, draws from `seed`), and `kinematic`, in a 50 × 50
    /// arena without gravity.
    fn squeezed_block(seed: u64, kinematic: BodyDesc) -> Simulation {
        let (n, r, gap) = (12, 0.5, 0.9);
        let mut rng = SplitMix64(seed);
        let mut jitter = || 0.05 * r * (2.0 * rng.next_unit() - 1.0);
        let mut bodies: Vec<BodyDesc> = (0..n * n)
            .map(|k| {
                let (x, y) = ((k % n) as f64, (k / n) as f64);
                let p = DVec2::new(10.0 + gap * x + jitter(), 10.0 + gap * y + jitter());
                BodyDesc::new(p, r, 1.0)
            })
            .collect();
        bodies.push(kinematic);
        let config = StepConfig {
            gravity: DVec2::ZERO,
            arena: Some(Arena::new(DVec2::ZERO, DVec2::splat(50.0))),
            ..StepConfig::default()
        };
        Scene { bodies, config }.simulation()
    }

    /// The runner's `dozer` scene, smaller: a crowd of `n` steered to its centre, a
    /// kinematic circle of 4 radii at twice the crowd's speed driven into it from the
    /// middle of the left wall. Returns it and the crowd's centre.
    pub(crate) fn ploughed_crowd(n: usize) -> (Simulation, DVec2) {
        let mut scene = crate::scenes::crowd(n, 0.3);
        let side = crate::scenes::gas_side(n, 0.3);
        let arena = scene.config.arena.expect("the crowd has walls");
        scene.bodies.push(crate::scenes::crowd_dozer(arena, None));
        (scene.simulation(), DVec2::splat(0.5 * side))
    }

    /// A block of 12 × 12 circles squeezed to 0.9 of touching along its rows and columns
    /// (each such pair 0.2 radii deep; every circle jittered by up to 0.05 radii), a
    /// kinematic circle driven into the middle of its left side. Splitting each push
    /// evenly carries it one circle a pass, and the push-out's work limit stops it with
    /// pairs left past the slop; outward passes carry it across the block.
    #[test]
    fn a_block_squeezed_by_a_kinematic_body_is_cleared_in_one_step() {
        let middle = 10.0 + 0.9 * 6.0;
        let mut pusher = BodyDesc::new(DVec2::new(10.0 - 1.4, middle), 1.0, f64::INFINITY);
        pusher.velocity = DVec2::new(1.0, 0.0);
        let mut sim = squeezed_block(7, pusher);
        sim.step(1.0 / 60.0);
        // Split evenly: 92 pairs left past the slop after 9469 pushes; outward: none, 1725.
        assert!(!sim.stats().fallback);
        assert_eq!(sim.stats().overlaps_left, 0, "pairs left past the slop");
        assert!(sim.outward_passes > Some(0), "no pass went outward");
    }

    /// The squeezed block of the test above with the kinematic circle driven along the
    /// far side of the arena, touching nothing: the block's push-out is no plough's, so
    /// its passes split each push (every push between two equal circles, or by mass,
    /// keeps their centre of mass where it was) instead of driving the block away from a
    /// body that does not touch it.
    #[test]
    fn a_jam_far_from_a_moving_kinematic_body_is_not_pushed_outward_from_it() {
        let centroid = |sim: &crate::Simulation| {
            let b = sim.bodies();
            let dynamic = (0..b.len()).filter(|&i| b.inverse_mass(i) > 0.0);
            dynamic.map(|i| b.position(i)).sum::<DVec2>() / 144.0
        };
        let mut paddle = BodyDesc::new(DVec2::new(45.0, 45.0), 1.0, f64::INFINITY);
        paddle.velocity = DVec2::new(-1.0, 0.0);
        let mut sim = squeezed_block(11, paddle);
        let before = centroid(&sim);
        sim.step(1.0 / 60.0);
        assert!(
            sim.outward_passes.is_some(),
            "the push-out had no jammed pass"
        );
        assert_eq!(sim.outward_passes, Some(0), "passes went outward");
        let moved = centroid(&sim).distance(before);
        assert!(moved < 1e-9, "the block's centre of mass moved {moved}");
    }

    /// The runner's `dozer` scene, smaller (2000 circles steered to their centre, a
    /// kinematic circle of 4 radii at 8 units/s driven into them), on two trajectories
    /// (the crowd's target moved). With only the first eight passes outward the push-out
    /// left pairs past the slop in 132 and 102 of these 300 steps; going on outward while
    /// there is room, in 3 and 5 (its passes went on outward in ~195 steps).
    #[test]
    fn a_crowd_ploughed_by_a_kinematic_body_is_cleared_while_the_push_has_room() {
        for nudge in [0.0, 0.37] {
            let (mut sim, centre) = ploughed_crowd(2000);
            let centre = centre + DVec2::new(0.0, nudge);
            let (mut left, mut past_the_first) = (0, 0);
            for _ in 0..300 {
                crate::scenes::steer_crowd(&mut sim, centre);
                sim.step(crate::scenes::DT);
                left += usize::from(sim.stats().overlaps_left > 0);
                past_the_first += usize::from(sim.outward_passes > Some(super::OUTWARD_PASSES));
            }
            let at = format!("target nudged {nudge}");
            assert!(left <= 12, "{at}: {left} steps left pairs past the slop");
            assert!(
                past_the_first >= 100,
                "{at}: {past_the_first} steps went on outward"
            );
        }
    }
}
