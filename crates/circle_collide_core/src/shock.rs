//! The shock pass under gravity: each body lifted off its supports, lowest first.
//!
//! After the contact solver's passes under gravity
//! ([`shock_propagation`](crate::StepConfig::shock_propagation), see the
//! [`contacts`](crate::contacts) module), the bodies are taken from the bottom up and
//! each is given the smallest change of velocity that stops it closing on any of its
//! supports, those held fixed; the settle passes follow.

use crate::queue::is_body;
use crate::simulation::Simulation;
use glam::DVec2;

/// One support of the shock pass, copied out of its contact: the lifts take the
/// bodies from the lowest up, in no order of the contacts, and read this compact list
/// instead (the pile of 10,000's lifts read ~25,000 contacts of ~140 bytes each a step).
#[derive(Clone, Copy, Debug)]
pub(crate) struct ShockSupport {
    /// Unit normal from the support into the upper body.
    normal: DVec2,
    /// The closing speed the contact allows.
    allowed: f64,
    /// The lower body, or [`NO_BODY`] for a wall or segment.
    lower: u32,
    /// The contact's index in the step's solver contacts.
    contact: u32,
    /// The impulse the lift gave (mass × the velocity change), if lifted against it.
    impulse: Option<f64>,
}

/// [`ShockSupport::lower`] of a static support.
const NO_BODY: u32 = u32::MAX;

impl Simulation {
    /// Bottom-up shock propagation by body: each dynamic body, lowest first, is given
    /// the smallest change of velocity that stops it sinking into any of its supports
    /// (contacts with a body lower than it, or a wall, whose normal's cosine with the
    /// vertical is at least `steep`: [`SHOCK_SUPPORT`](crate::contacts::SHOCK_SUPPORT) or
    /// [`SMOOTH_SHOCK_SUPPORT`](crate::contacts::SMOOTH_SHOCK_SUPPORT)), the supports'
    /// velocities held fixed. A body on two supports is lifted straight up; on one
    /// slanted support it slides along it, as a frictionless body does.
    pub(crate) fn shock_by_body(&mut self, up: DVec2, steep: f64) {
        let mut order = std::mem::take(&mut self.shock_order);
        let mut supports = std::mem::take(&mut self.shock_supports);
        order.clear();
        supports.clear();
        let hot = &self.bodies.hot;
        for (k, c) in self.resting.iter().enumerate() {
            let (a, b) = (c.a as usize, c.b as usize);
            if c.normal.dot(up).abs() < steep {
                continue;
            }
            let a_upper = !is_body(c.b) || up.dot(hot[a].pos) >= up.dot(hot[b].pos);
            let upper = if a_upper { a } else { b };
            if hot[upper].inv_mass > 0.0 {
                let height = crate::order::ordered(up.dot(hot[upper].pos));
                order.push((height, upper as u32, supports.len() as u32));
                // The normal points from the support into the upper body.
                let (normal, lower) = match (is_body(c.b), a_upper) {
                    (false, _) => (-c.normal, NO_BODY),
                    (true, true) => (-c.normal, c.b),
                    (true, false) => (c.normal, c.a),
                };
                supports.push(ShockSupport {
                    normal,
                    allowed: c.allowed,
                    lower,
                    contact: k as u32,
                    impulse: None,
                });
            }
        }
        // Every contact once: an unstable sort gives the one order. Integer keys, the order
        // of `f64::total_cmp`: 20,000 supports sorted in 0.86 ms against 1.33 (measured
        // alone), the same results bit for bit. The supports are numbered in contact
        // order, so the order is that of (height, body, contact).
        order.sort_unstable();
        let mut start = 0;
        while start < order.len() {
            let body = order[start].1;
            let end = start + order[start..].iter().take_while(|o| o.1 == body).count();
            self.lift_body(body as usize, &order[start..end], &mut supports);
            start = end;
        }
        // Kept as the supports' impulses, so the next step's warm start carries the
        // support the shock gave and a deep pile's impulses build up over the steps.
        // Each contact is one body's support: added in contact order, as the lifts did.
        for s in &supports {
            if let Some(impulse) = s.impulse {
                self.resting[s.contact as usize].accumulated += impulse;
            }
        }
        self.shock_order = order;
        self.shock_supports = supports;
    }

    /// Projects body `u`'s velocity so that it closes on none of its supports (`order`
    /// entries, indices into `supports`), their lower bodies held fixed: Gauss–Seidel
    /// passes over its supports alone (exact for one). A body on more than eight
    /// supports (a large circle on small ones) is lifted against its first eight, by
    /// contact order; the passes that follow see to the others. Notes the impulse of
    /// each support it was lifted against.
    fn lift_body(&mut self, u: usize, order: &[(u64, u32, u32)], supports: &mut [ShockSupport]) {
        const MAX: usize = 8;
        let mut normals = [DVec2::ZERO; MAX];
        let mut floor = [0.0f64; MAX];
        let mut lambda = [0.0f64; MAX];
        let count = order.len().min(MAX);
        let hot = &self.bodies.hot;
        for (s, &(_, _, k)) in order[..count].iter().enumerate() {
            let support = &supports[k as usize];
            let v_other = if support.lower == NO_BODY {
                DVec2::ZERO
            } else {
                hot[support.lower as usize].vel
            };
            normals[s] = support.normal;
            floor[s] = v_other.dot(support.normal) - support.allowed;
        }
        let v0 = hot[u].vel;
        let mut v = v0;
        for _ in 0..if count == 1 { 1 } else { 8 } {
            for s in 0..count {
                let gap = v.dot(normals[s]) - floor[s];
                let next = (lambda[s] - gap).max(0.0);
                v += normals[s] * (next - lambda[s]);
                lambda[s] = next;
            }
        }
        let h = &mut self.bodies.hot[u];
        h.vel = v;
        let m = 1.0 / h.inv_mass;
        self.stats.external_impulse += (v - v0) * m;
        for (s, &(_, _, k)) in order[..count].iter().enumerate() {
            supports[k as usize].impulse = Some(lambda[s] * m);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{Arena, BodyDesc, Simulation, StepConfig, scenes};
    use glam::DVec2;

    /// A column of two circles and, beside it, a circle resting on two static ones
    /// touching (its supports 30° from the vertical), under gravity, after a second at
    /// rest: in a smooth world the shock pass takes the column's vertical support (and
    /// the floor) but neither slanted support; with friction on the resting circle (a
    /// rough solve) it takes the slanted ones too.
    #[test]
    fn a_smooth_solve_lifts_off_near_vertical_supports_only() {
        for mu in [0.0, 0.5] {
            let config = StepConfig {
                gravity: DVec2::new(0.0, -9.81),
                arena: Some(Arena {
                    min: DVec2::ZERO,
                    max: DVec2::new(20.0, 10.0),
                    restitution: 0.0,
                    friction: 0.0,
                }),
                ..StepConfig::default()
            };
            let mut sim = Simulation::new(config);
            let r = scenes::RADIUS;
            let at = |x: f64, y: f64| BodyDesc::new(DVec2::new(x, y), r, scenes::MASS);
            let h = 3f64.sqrt() * r;
            let fixed = |x: f64| BodyDesc::new(DVec2::new(x, r), r, f64::INFINITY);
            let bodies = [
                at(2.0, r),
                at(2.0, 3.0 * r),
                fixed(6.0),
                fixed(6.0 + 2.0 * r),
                at(6.0 + r, r + h).with_friction(mu),
            ];
            for b in bodies {
                sim.add_body(b).expect("a valid body");
            }
            sim.config.sleep.enabled = false;
            for _ in 0..60 {
                sim.step(scenes::DT);
            }
            let up = DVec2::Y;
            let slanted = (sim.shock_supports.iter())
                .filter(|s| s.normal.dot(up) < crate::contacts::SMOOTH_SHOCK_SUPPORT)
                .count();
            let column = (sim.shock_supports.iter())
                .filter(|s| s.lower != super::NO_BODY && s.normal.dot(up) > 0.999)
                .count();
            assert_eq!(column, 1, "μ {mu}: the column's support");
            let expected = if mu == 0.0 { 0 } else { 2 };
            assert_eq!(slanted, expected, "μ {mu}: slanted supports taken");
        }
    }
}
