//! Phase 1, integrate: gravity into velocities, speed clamp, swept boxes for the step.

use crate::simulation::Simulation;

impl Simulation {
    /// Starts a step of `dt` seconds (a NaN, infinite or negative `dt` counts as 0):
    /// adds `gravity · dt` to every dynamic body's velocity, clamps speeds to
    /// [`max_speed`](crate::StepConfig::max_speed), and computes each body's swept box
    /// from its position now to its position at `dt`.
    pub fn integrate(&mut self, dt: f64) {
        self.dt = if dt.is_finite() && dt > 0.0 { dt } else { 0.0 };
        self.impacts.clear();
        self.contacts.clear();
        self.step_issues.clear();
        self.stats = Default::default();
        self.stats.bodies = self.bodies.len();
        let gravity = self.config.gravity;
        let kick = if gravity.is_finite() {
            gravity * self.dt
        } else {
            Default::default()
        };
        let max_speed = self.config.max_speed;
        let b = &mut self.bodies;
        for i in 0..b.len() {
            b.time[i] = 0.0;
            b.version[i] = 0;
            if b.inv_mass[i] > 0.0 {
                b.vel[i] += kick;
            }
            let speed = b.vel[i].length();
            if speed > max_speed {
                b.vel[i] *= max_speed / speed;
            }
            b.update_box(i, self.dt);
        }
    }
}
