//! Phase 1, integrate: free flight under gravity, speed clamp, swept boxes for the step.

use crate::arena::Wall;
use crate::simulation::Simulation;
use glam::DVec2;

impl Simulation {
    /// Starts a step of `dt` seconds (a NaN, infinite or negative `dt` counts as 0):
    /// under gravity, sets every awake dynamic body flying on its exact parabola for the
    /// step ([`flight`](crate::flight); the contact solver later puts the bodies it holds
    /// back on straight lines, with the step's gravity in their velocity), clamps speeds
    /// to [`max_speed`](crate::StepConfig::max_speed), sets the swept boxes (computed
    /// from the bodies when needed) to run to `dt`, and notes which bodies' paths come
    /// within the slop of a wall (the only ones whose wall hits
    /// [`solve_impacts`](Self::solve_impacts) predicts at the start of the step, unless
    /// bodies, the arena or the slop change in between). Sleeping bodies wake, all of
    /// them, if the gravity or the arena's walls differ from the last step's, and each
    /// one sunk in a wall beyond the slop; and the step notes whether the dynamic
    /// circles' total area exceeds the arena's (the push-out's limit then stays the one
    /// without gravity).
    pub fn integrate(&mut self, dt: f64) {
        self.dt = if dt.is_finite() && dt > 0.0 { dt } else { 0.0 };
        self.impacts.clear();
        self.contacts.clear();
        self.deep_at_start_listed = false;
        self.step_issues.clear();
        self.stats = Default::default();
        self.stats.bodies = self.bodies.len();
        let gravity = self.config.gravity;
        // A NaN or infinite gravity counts as none (the plugin warns about it).
        let gravity = if gravity.is_finite() && self.dt > 0.0 {
            gravity
        } else {
            DVec2::ZERO
        };
        let flies = gravity != DVec2::ZERO;
        self.wake_on_new_surroundings(flies);
        self.wake_with_sleep_off(flies);
        let (max_speed, slop, dt) = (self.config.max_speed, self.config.overlap_slop, self.dt);
        let (arena, level) = (self.config.arena, &self.level);
        self.bodies.sweep_end = dt;
        self.bodies.gravity = gravity;
        // A NaN or negative slop widens nothing.
        self.bodies.margin = if slop > 0.0 && slop.is_finite() {
            slop
        } else {
            0.0
        };
        self.near_wall.clear();
        self.outside_at_start.clear();
        self.level_starts.clear();
        // Bodies in the contact memory get boxes widened by the speculative margin in the
        // broad phase, and the solver may turn them anywhere within: near a wall means
        // within that box too (see `follow_contact_changes`).
        let near = slop
            + if self.memory.is_empty() {
                0.0
            } else {
                crate::bodies::SPECULATIVE_MARGIN
            };
        let (mut min_radius, mut max_radius) = (f64::INFINITY, 0.0f64);
        // Scratch until the broad phase's wakes (`wake_touched` clears it).
        let mut outside = std::mem::take(&mut self.woken);
        outside.clear();
        let (mut steered, mut driving) = (0, 0);
        // Sum of the dynamic circles' squared radii (asleep or not), for `overfull`.
        let mut filled = 0.0;
        for (i, h) in self.bodies.hot.iter_mut().enumerate() {
            h.time = 0.0;
            h.version = 0;
            h.clear_step_marks();
            steered += usize::from(h.steered());
            driving += usize::from(h.drives_bodies());
            if arena.is_some() && (h.inv_mass > 0.0 || h.sleeping()) && !h.sensor() {
                filled += h.radius * h.radius;
            }
            if h.sleeping() {
                self.stats.sleeping_at_start += 1;
                // A body asleep beyond the slop in a wall (added asleep there, or the
                // arena moved in on it) would stay there, static: it wakes below, so the
                // push-out brings it in (and reports it if its centre was outside).
                let sunk = |a: crate::Arena| {
                    Wall::ALL
                        .into_iter()
                        .any(|w| a.depth(w, h.pos, h.radius) > slop * h.radius)
                };
                if arena.is_some_and(sunk) {
                    outside.push(i as u32);
                    if arena.is_some_and(|a| a.centre_outside(h.pos, h.radius)) {
                        self.outside_at_start.push(i as u32);
                    }
                }
                continue; // at rest, static, nowhere near a wall it could move to
            }
            if h.inv_mass > 0.0 {
                h.set_flying(flies);
                if !h.sensor() {
                    min_radius = min_radius.min(h.radius);
                    max_radius = max_radius.max(h.radius);
                }
            }
            let speed = h.vel.length();
            if speed > max_speed {
                h.vel *= max_speed / speed;
            }
            // The test `wall_prediction` starts with, made here while the body is in cache.
            if (arena.is_some() || !level.is_empty()) && h.inv_mass > 0.0 && !h.sensor() {
                let (min, max) = h.swept_box(dt, gravity);
                let margin = near * h.radius;
                let near_arena = arena.is_some_and(|a| !a.keeps_clear(min, max, margin));
                let near_level = !near_arena && {
                    let (pad, mut near) = (DVec2::splat(margin), false);
                    level.visit(min - pad, max + pad, |_| near = true);
                    near
                };
                if near_arena || near_level {
                    self.near_wall.push(i as u32);
                }
                if near_arena && arena.is_some_and(|a| a.centre_outside(h.pos, h.radius)) {
                    self.outside_at_start.push(i as u32);
                }
                // The push-out may drive it across a segment (see `level_starts`).
                if !level.is_empty() {
                    self.level_starts.push((i as u32, h.pos));
                }
            }
        }
        self.near_wall_listed = Some((arena, slop));
        self.min_radius = min_radius;
        self.max_radius = max_radius;
        self.overfull = arena.is_some_and(|a| {
            let size = a.max - a.min;
            std::f64::consts::PI * filled > size.x * size.y
        });
        for &k in &outside {
            // Woken after the list of bodies near a wall: every body is looked at instead.
            self.wake_flying(k as usize, flies);
            let r = self.bodies.hot[k as usize].radius;
            self.min_radius = self.min_radius.min(r);
            self.max_radius = self.max_radius.max(r);
        }
        self.woken = outside;
        self.steered_bodies = steered;
        self.driving_bodies = driving;
        self.solver_marked = false;
    }

    /// With sleeping turned off ([`SleepConfig::enabled`](crate::SleepConfig::enabled)),
    /// wakes every sleeping body: no body falls asleep then, and none stays asleep (a
    /// pile asleep when the game turned sleeping off stayed frozen). One look at the
    /// bodies' flags a step while sleeping is off.
    fn wake_with_sleep_off(&mut self, flies: bool) {
        if self.config.sleep.enabled {
            return;
        }
        for k in 0..self.bodies.len() {
            if self.bodies.hot[k].sleeping() {
                self.wake_flying(k, flies);
            }
        }
    }

    /// Wakes every sleeping body, and has every body start resting anew, if the gravity
    /// or the arena's walls differ from the last step's (the game turned gravity, or
    /// moved a wall a body rested on: asleep, or falling asleep after one slow step, it
    /// would hang where it was). Setting the same values again changes nothing; so do
    /// the walls' restitution and friction. Compared bit for bit (a NaN wall is the same
    /// wall step after step).
    fn wake_on_new_surroundings(&mut self, flies: bool) {
        // Kept in the contact memory: a rollback restores it with the bodies.
        let now = self.config.surroundings();
        let last = self.memory.surroundings.replace(now);
        if last.is_none_or(|last| last == now) {
            return;
        }
        for k in 0..self.bodies.len() {
            self.wake_flying(k, flies);
        }
        self.bodies.rest_time.fill(0.0);
    }
}
