//! Bodies: the input description, its sanitising, and the struct-of-arrays store.

use crate::filter::Layers;
use glam::DVec2;

/// One circle as given to the simulation.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct BodyDesc {
    /// Centre.
    pub position: DVec2,
    /// Velocity, units per second.
    pub velocity: DVec2,
    /// Radius, > 0.
    pub radius: f64,
    /// Mass, > 0; `f64::INFINITY` makes the body static (it never moves and others bounce
    /// off it).
    pub mass: f64,
    /// Coefficient of restitution in `[0, 1]`.
    pub restitution: f64,
    /// Collision layers. Default [`Layers::ALL`].
    pub layers: Layers,
    /// A sensor detects overlaps — its entry into another body is reported as an
    /// [`Impact`](crate::Impact) with `sensor: true` at the exact time — but has no
    /// physical response: nothing bounces off it, it passes through everything, walls
    /// included. Default `false`.
    pub sensor: bool,
}

impl BodyDesc {
    /// A dynamic body of the given mass, at rest, restitution 1.
    pub fn new(position: DVec2, radius: f64, mass: f64) -> Self {
        Self {
            position,
            velocity: DVec2::ZERO,
            radius,
            mass,
            restitution: 1.0,
            layers: Layers::ALL,
            sensor: false,
        }
    }

    /// The same body with a velocity.
    pub fn with_velocity(mut self, velocity: DVec2) -> Self {
        self.velocity = velocity;
        self
    }

    /// The same body with collision layers.
    pub fn with_layers(mut self, layers: Layers) -> Self {
        self.layers = layers;
        self
    }

    /// The same body as a sensor (or not).
    pub fn with_sensor(mut self, sensor: bool) -> Self {
        self.sensor = sensor;
        self
    }

    /// The same body with a restitution.
    pub fn with_restitution(mut self, restitution: f64) -> Self {
        self.restitution = restitution;
        self
    }

    /// Checks and repairs the description. Returns the body to simulate with the issues
    /// that were repaired, or `Err` with the issues that make it impossible to simulate.
    ///
    /// Treatments (each reported by its [`InputIssues`] flag):
    /// * position not finite → the body is skipped (`Err`);
    /// * radius not finite or ≤ 0 → skipped (`Err`);
    /// * velocity not finite → set to zero;
    /// * speed above `max_speed` → scaled down to `max_speed`, direction kept;
    /// * mass NaN or ≤ 0 → mass `π r²` (density 1);
    /// * restitution NaN or outside `[0, 1]` → clamped into `[0, 1]` (NaN → 1).
    pub fn sanitize(mut self, max_speed: f64) -> Result<(Self, InputIssues), InputIssues> {
        let mut issues = InputIssues::NONE;
        if !self.position.is_finite() {
            issues |= InputIssues::NON_FINITE_POSITION;
        }
        if !(self.radius.is_finite() && self.radius > 0.0) {
            issues |= InputIssues::INVALID_RADIUS;
        }
        if issues != InputIssues::NONE {
            return Err(issues);
        }
        if !self.velocity.is_finite() {
            issues |= InputIssues::NON_FINITE_VELOCITY;
            self.velocity = DVec2::ZERO;
        }
        let speed = self.velocity.length();
        if speed > max_speed {
            issues |= InputIssues::SPEED_CLAMPED;
            self.velocity *= max_speed / speed;
        }
        if self.mass.is_nan() || self.mass <= 0.0 {
            issues |= InputIssues::INVALID_MASS;
            self.mass = std::f64::consts::PI * self.radius * self.radius;
        }
        if !(0.0..=1.0).contains(&self.restitution) {
            issues |= InputIssues::RESTITUTION_CLAMPED;
            self.restitution = if self.restitution.is_nan() {
                1.0
            } else {
                self.restitution.clamp(0.0, 1.0)
            };
        }
        Ok((self, issues))
    }
}

/// Bit set of problems found in a [`BodyDesc`] by [`BodyDesc::sanitize`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct InputIssues(pub u8);

impl InputIssues {
    /// No problem.
    pub const NONE: Self = Self(0);
    /// Position NaN or infinite: body skipped.
    pub const NON_FINITE_POSITION: Self = Self(1);
    /// Radius NaN, infinite, zero or negative: body skipped.
    pub const INVALID_RADIUS: Self = Self(2);
    /// Velocity NaN or infinite: set to zero.
    pub const NON_FINITE_VELOCITY: Self = Self(4);
    /// Speed above the configured maximum: clamped.
    pub const SPEED_CLAMPED: Self = Self(8);
    /// Mass NaN, zero or negative: replaced by `π r²`.
    pub const INVALID_MASS: Self = Self(16);
    /// Restitution NaN or outside `[0, 1]`: clamped.
    pub const RESTITUTION_CLAMPED: Self = Self(32);
    /// Found overlapping another body by more than half the smaller radius (spawned on
    /// top of it, or at the same point): pushed apart, coincident centres along a fixed
    /// direction drawn from the pair's indices.
    pub const DEEP_OVERLAP: Self = Self(64);
    /// Found with its centre outside the arena: pushed back inside.
    pub const OUTSIDE_ARENA: Self = Self(128);

    /// Whether every flag of `other` is set in `self`.
    pub fn contains(self, other: Self) -> bool {
        self.0 & other.0 == other.0
    }

    /// Human-readable list of the flags, for log messages.
    pub fn describe(self) -> String {
        const NAMES: [(InputIssues, &str); 8] = [
            (
                InputIssues::NON_FINITE_POSITION,
                "position is not finite (body skipped)",
            ),
            (
                InputIssues::INVALID_RADIUS,
                "radius is not a finite positive number (body skipped)",
            ),
            (
                InputIssues::NON_FINITE_VELOCITY,
                "velocity is not finite (set to zero)",
            ),
            (
                InputIssues::SPEED_CLAMPED,
                "speed above max_speed (clamped)",
            ),
            (
                InputIssues::INVALID_MASS,
                "mass is not a positive number (using density × area)",
            ),
            (
                InputIssues::RESTITUTION_CLAMPED,
                "restitution outside [0, 1] (clamped)",
            ),
            (
                InputIssues::DEEP_OVERLAP,
                "overlaps another body by more than half a radius (pushed apart)",
            ),
            (
                InputIssues::OUTSIDE_ARENA,
                "centre outside the arena (pushed inside)",
            ),
        ];
        NAMES
            .iter()
            .filter(|(flag, _)| self.contains(*flag))
            .map(|(_, name)| *name)
            .collect::<Vec<_>>()
            .join("; ")
    }
}

impl std::ops::BitOr for InputIssues {
    type Output = Self;
    fn bitor(self, rhs: Self) -> Self {
        Self(self.0 | rhs.0)
    }
}

impl std::ops::BitOrAssign for InputIssues {
    fn bitor_assign(&mut self, rhs: Self) {
        self.0 |= rhs.0;
    }
}

/// Struct-of-arrays store of the bodies of one step. Index `i` of every vector is body `i`.
///
/// Positions are kept lazily during the in-step event loop: body `i` is at
/// `pos[i] + vel[i] * (t − time[i])` at step time `t`.
#[derive(Clone, Debug, Default)]
pub struct Bodies {
    pub(crate) pos: Vec<DVec2>,
    pub(crate) vel: Vec<DVec2>,
    pub(crate) radius: Vec<f64>,
    pub(crate) inv_mass: Vec<f64>,
    pub(crate) restitution: Vec<f64>,
    pub(crate) layers: Vec<Layers>,
    pub(crate) sensor: Vec<bool>,
    /// Step time at which `pos` is valid.
    pub(crate) time: Vec<f64>,
    /// Bumped at each impulse, to invalidate predicted events lazily.
    pub(crate) version: Vec<u32>,
    /// Swept box of the rest of the step: min corner.
    pub(crate) box_min: Vec<DVec2>,
    /// Swept box of the rest of the step: max corner.
    pub(crate) box_max: Vec<DVec2>,
}

impl Bodies {
    /// Number of bodies.
    pub fn len(&self) -> usize {
        self.pos.len()
    }

    /// Whether there are no bodies.
    pub fn is_empty(&self) -> bool {
        self.pos.is_empty()
    }

    /// Removes every body, keeping the allocations.
    pub fn clear(&mut self) {
        self.pos.clear();
        self.vel.clear();
        self.radius.clear();
        self.inv_mass.clear();
        self.restitution.clear();
        self.layers.clear();
        self.sensor.clear();
        self.time.clear();
        self.version.clear();
        self.box_min.clear();
        self.box_max.clear();
    }

    /// Appends an already sanitised body; returns its index.
    pub(crate) fn push(&mut self, b: &BodyDesc) -> u32 {
        let index = self.pos.len() as u32;
        self.pos.push(b.position);
        self.vel.push(b.velocity);
        self.radius.push(b.radius);
        self.inv_mass.push(if b.mass.is_finite() {
            1.0 / b.mass
        } else {
            0.0
        });
        self.restitution.push(b.restitution);
        self.layers.push(b.layers);
        self.sensor.push(b.sensor);
        self.time.push(0.0);
        self.version.push(0);
        self.box_min.push(b.position);
        self.box_max.push(b.position);
        index
    }

    /// Centres (valid after a full step).
    pub fn positions(&self) -> &[DVec2] {
        &self.pos
    }

    /// Velocities.
    pub fn velocities(&self) -> &[DVec2] {
        &self.vel
    }

    /// Radii.
    pub fn radii(&self) -> &[f64] {
        &self.radius
    }

    /// Inverse masses (0 for static bodies).
    pub fn inverse_masses(&self) -> &[f64] {
        &self.inv_mass
    }

    /// Restitution coefficients.
    pub fn restitutions(&self) -> &[f64] {
        &self.restitution
    }

    /// Whether either of `i`, `j` is a sensor.
    #[inline]
    pub(crate) fn sensor_pair(&self, i: usize, j: usize) -> bool {
        self.sensor[i] || self.sensor[j]
    }

    /// Whether the push-out may move the pair `i`, `j` apart: at least one is dynamic
    /// and neither is a sensor.
    #[inline]
    pub(crate) fn separable(&self, i: usize, j: usize) -> bool {
        self.inv_mass[i] + self.inv_mass[j] > 0.0 && !self.sensor_pair(i, j)
    }

    /// Sensor flags.
    pub fn sensors(&self) -> &[bool] {
        &self.sensor
    }

    /// Position of body `i` at step time `t` (lazy extrapolation).
    #[inline]
    pub(crate) fn position_at(&self, i: usize, t: f64) -> DVec2 {
        self.pos[i] + self.vel[i] * (t - self.time[i])
    }

    /// Moves body `i` to step time `t` along its current velocity.
    #[inline]
    pub(crate) fn advance(&mut self, i: usize, t: f64) {
        if self.time[i] != t {
            self.pos[i] = self.position_at(i, t);
            self.time[i] = t;
        }
    }

    /// Recomputes the swept box of body `i` from its current time to `end`.
    #[inline]
    pub(crate) fn update_box(&mut self, i: usize, end: f64) {
        let start = self.pos[i];
        let stop = self.position_at(i, end);
        let r = DVec2::splat(self.radius[i]);
        self.box_min[i] = start.min(stop) - r;
        self.box_max[i] = start.max(stop) + r;
    }

    /// Whether the swept boxes of `i` and `j` overlap.
    #[inline]
    pub(crate) fn boxes_overlap(&self, i: usize, j: usize) -> bool {
        self.box_min[i].cmple(self.box_max[j]).all() && self.box_min[j].cmple(self.box_max[i]).all()
    }

    /// Kinetic energy `Σ ½ m v²` of the dynamic bodies.
    pub fn kinetic_energy(&self) -> f64 {
        self.vel
            .iter()
            .zip(&self.inv_mass)
            .filter(|(_, w)| **w > 0.0)
            .map(|(v, w)| 0.5 * v.length_squared() / w)
            .sum()
    }

    /// Momentum `Σ m v` of the dynamic bodies.
    pub fn momentum(&self) -> DVec2 {
        self.vel
            .iter()
            .zip(&self.inv_mass)
            .filter(|(_, w)| **w > 0.0)
            .map(|(v, w)| *v / *w)
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sanitize_skips_and_repairs() {
        let ok = BodyDesc::new(DVec2::ZERO, 1.0, 2.0);
        assert_eq!(ok.sanitize(10.0), Ok((ok, InputIssues::NONE)));

        let nan_pos = BodyDesc::new(DVec2::new(f64::NAN, 0.0), 1.0, 1.0);
        assert_eq!(
            nan_pos.sanitize(10.0),
            Err(InputIssues::NON_FINITE_POSITION)
        );
        for r in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            assert_eq!(
                BodyDesc::new(DVec2::ZERO, r, 1.0).sanitize(10.0),
                Err(InputIssues::INVALID_RADIUS)
            );
        }

        let inf_vel = ok.with_velocity(DVec2::new(f64::INFINITY, 0.0));
        let (b, issues) = inf_vel.sanitize(10.0).unwrap();
        assert_eq!(
            (b.velocity, issues),
            (DVec2::ZERO, InputIssues::NON_FINITE_VELOCITY)
        );

        let fast = ok.with_velocity(DVec2::new(30.0, 40.0));
        let (b, issues) = fast.sanitize(10.0).unwrap();
        assert!((b.velocity - DVec2::new(6.0, 8.0)).length() < 1e-12);
        assert_eq!(issues, InputIssues::SPEED_CLAMPED);

        for m in [0.0, -3.0, f64::NAN] {
            let (b, issues) = BodyDesc::new(DVec2::ZERO, 2.0, m).sanitize(10.0).unwrap();
            assert_eq!(issues, InputIssues::INVALID_MASS);
            assert!((b.mass - 4.0 * std::f64::consts::PI).abs() < 1e-12);
        }
        // Infinite mass is the documented way to make a static body, not an error.
        assert!(
            BodyDesc::new(DVec2::ZERO, 1.0, f64::INFINITY)
                .sanitize(10.0)
                .unwrap()
                .1
                == InputIssues::NONE
        );

        let (b, issues) = ok.with_restitution(1.5).sanitize(10.0).unwrap();
        assert_eq!(
            (b.restitution, issues),
            (1.0, InputIssues::RESTITUTION_CLAMPED)
        );
        assert!(issues.describe().contains("restitution"));
    }
}
