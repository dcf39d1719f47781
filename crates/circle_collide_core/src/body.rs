//! Bodies: the input description and its sanitising (the store is in [`bodies`](crate::bodies)).

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
    /// Stable identity of the body across steps (the plugin uses the entity's bits).
    /// Contacts remembered between steps ([`ContactMemory`](crate::ContactMemory)) are
    /// keyed by it, so a caller that re-adds its bodies each step in another order keeps
    /// them. Default `None`: the index the body is added at.
    #[cfg_attr(feature = "serialize", serde(default))]
    pub key: Option<u64>,
    /// The body is asleep: it stands still and is simulated as static until something
    /// wakes it (see [`StepConfig::sleep`](crate::StepConfig::sleep)). Only a dynamic,
    /// non-sensor body can sleep. Default `false`.
    #[cfg_attr(feature = "serialize", serde(default))]
    pub sleeping: bool,
    /// Seconds the body has already stayed slower than the sleep speed. Default 0.
    #[cfg_attr(feature = "serialize", serde(default))]
    pub rest_time: f64,
    /// Angular velocity, radians per second, counter-clockwise. A static body with a
    /// spin is a kinematic wheel: its surface drags what it touches (with friction).
    /// Default 0.
    #[cfg_attr(feature = "serialize", serde(default))]
    pub angular_velocity: f64,
    /// Orientation, radians counter-clockwise: advanced by the angular velocity over
    /// each step ([`Bodies::angle`](crate::Bodies::angle)). Default 0.
    #[cfg_attr(feature = "serialize", serde(default))]
    pub angle: f64,
    /// Coulomb friction coefficient `μ ≥ 0` (combined with the other body's, or the
    /// arena's, by [`StepConfig::friction_combine`](crate::StepConfig::friction_combine)).
    /// `f64::INFINITY` never slips. Default 0: a smooth circle, whose impacts are
    /// exactly those of the frictionless engine (see [`friction`](crate::friction)).
    #[cfg_attr(feature = "serialize", serde(default))]
    pub friction: f64,
    /// Rolling resistance coefficient `≥ 0`, dimensionless: a contact resists the
    /// relative rolling of its bodies with a torque of at most this × the smaller radius
    /// × the normal force (combined like friction). Default 0: a ball rolls on for ever.
    #[cfg_attr(feature = "serialize", serde(default))]
    pub rolling_resistance: f64,
    /// Moment of inertia about the centre, mass × length². `None` (the default): a
    /// solid disk, `½ m r²`; infinite for a static body.
    #[cfg_attr(feature = "serialize", serde(default))]
    pub inertia: Option<f64>,
    /// The game set this body's velocity since the last step: it is *steered* (a crowd
    /// or a character given a velocity every frame). Under the default resting speed an
    /// elastic pair (restitution ≥ 1) that a steered body keeps driving together presses
    /// like any other pair instead of bouncing every step (see
    /// [`contacts`](crate::contacts)); under gravity a steered body's pairs are also
    /// remembered as every pair's are without gravity, a world with a steered body (or a
    /// moving kinematic one) keeps the gap contacts of every pair that pressed (see
    /// [`gap_contacts`](crate::contacts::KEEP_GAP)), and a solve with a steered
    /// body in it (a horde walked into a wall, walkers shoving crates) is solved as a jam
    /// without gravity is. Its pairs take the steered resting speed
    /// ([`StepConfig::steered_resting_speed_for`](crate::StepConfig::steered_resting_speed_for)).
    /// Pairs of bodies nobody steers keep their exact elastic impacts. [`Simulation::set_velocity`](crate::Simulation::set_velocity)
    /// sets it when the velocity changes; the plugin sets it for a body whose `Velocity`
    /// the game changed. Default `false`.
    #[cfg_attr(feature = "serialize", serde(default))]
    pub steered: bool,
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
            key: None,
            sleeping: false,
            rest_time: 0.0,
            angular_velocity: 0.0,
            angle: 0.0,
            friction: 0.0,
            rolling_resistance: 0.0,
            inertia: None,
            steered: false,
        }
    }

    /// The same body with a Coulomb friction coefficient (see [`BodyDesc::friction`]).
    pub fn with_friction(mut self, friction: f64) -> Self {
        self.friction = friction;
        self
    }

    /// The same body with a rolling resistance (see [`BodyDesc::rolling_resistance`]).
    pub fn with_rolling_resistance(mut self, rolling_resistance: f64) -> Self {
        self.rolling_resistance = rolling_resistance;
        self
    }

    /// The same body with an angular velocity, rad/s counter-clockwise.
    pub fn with_angular_velocity(mut self, angular_velocity: f64) -> Self {
        self.angular_velocity = angular_velocity;
        self
    }

    /// The same body with a moment of inertia (see [`BodyDesc::inertia`]).
    pub fn with_inertia(mut self, inertia: f64) -> Self {
        self.inertia = Some(inertia);
        self
    }

    /// The moment of inertia the body is simulated with: [`inertia`](Self::inertia), or
    /// `½ m r²` (infinite for a static body).
    pub fn effective_inertia(&self) -> f64 {
        self.inertia
            .unwrap_or(0.5 * self.mass * self.radius * self.radius)
    }

    /// The same body with a stable key (see [`BodyDesc::key`]).
    pub fn with_key(mut self, key: u64) -> Self {
        self.key = Some(key);
        self
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
    /// * restitution NaN or outside `[0, 1]` → clamped into `[0, 1]` (NaN → 1);
    /// * friction or rolling resistance NaN or negative → 0 (infinite friction is
    ///   allowed: it never slips; infinite rolling resistance → 0);
    /// * angular velocity or angle not finite → 0; surface speed `|ω| r` above
    ///   `max_speed` → scaled down to it;
    /// * inertia given but NaN, zero or negative → the solid disk's `½ m r²`.
    pub fn sanitize(mut self, max_speed: f64) -> Result<(Self, InputIssues), InputIssues> {
        let issues = self.repair(max_speed)?;
        Ok((self, issues))
    }

    /// Whether [`repair`](Self::repair) would leave the description as it is and report
    /// nothing: the common case, checked without writing anything (adding a body each
    /// step from a game engine's components goes through here).
    #[inline]
    pub(crate) fn is_sound(&self, max_speed: f64) -> bool {
        let finite = self.position.is_finite()
            & self.velocity.is_finite()
            & self.angular_velocity.is_finite()
            & self.angle.is_finite()
            & self.rest_time.is_finite();
        // The repair's own test (a NaN `max_speed` clamps nothing).
        let too_fast = |speed: f64| speed > max_speed;
        finite
            & (self.radius.is_finite() & (self.radius > 0.0))
            & !too_fast(self.velocity.length())
            & (self.mass > 0.0)
            & !too_fast(self.angular_velocity.abs() * self.radius)
            & (self.friction >= 0.0)
            & (self.rolling_resistance >= 0.0 && self.rolling_resistance.is_finite())
            & self.inertia.is_none_or(|i| i > 0.0)
            & (self.rest_time >= 0.0)
            & (0.0..=1.0).contains(&self.restitution)
    }

    /// [`sanitize`](Self::sanitize) in place: repairs the description and returns the
    /// issues repaired, or `Err` with the issues that make it impossible to simulate
    /// (the description is then left as it was). Saves the copies of a large struct
    /// when adding many bodies.
    pub(crate) fn repair(&mut self, max_speed: f64) -> Result<InputIssues, InputIssues> {
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
        let motion = (
            &mut self.velocity,
            &mut self.angular_velocity,
            &mut self.angle,
        );
        issues |= repair_motion(motion, self.radius, max_speed);
        if self.mass.is_nan() || self.mass <= 0.0 {
            issues |= InputIssues::INVALID_MASS;
            self.mass = std::f64::consts::PI * self.radius * self.radius;
        }
        if self.friction.is_nan() || self.friction < 0.0 {
            issues |= InputIssues::FRICTION_CLAMPED;
            self.friction = 0.0;
        }
        if !(self.rolling_resistance >= 0.0 && self.rolling_resistance.is_finite()) {
            issues |= InputIssues::FRICTION_CLAMPED;
            self.rolling_resistance = 0.0;
        }
        if let Some(inertia) = self.inertia
            && (inertia.is_nan() || inertia <= 0.0)
        {
            issues |= InputIssues::INVALID_INERTIA;
            self.inertia = None;
        }
        if !(self.rest_time.is_finite() && self.rest_time >= 0.0) {
            // Bookkeeping, not physics: start counting anew without a warning.
            self.rest_time = 0.0;
        }
        if !(0.0..=1.0).contains(&self.restitution) {
            issues |= InputIssues::RESTITUTION_CLAMPED;
            self.restitution = if self.restitution.is_nan() {
                1.0
            } else {
                self.restitution.clamp(0.0, 1.0)
            };
        }
        Ok(issues)
    }
}

/// [`BodyDesc::repair`]'s repairs of what a step changes — the velocity, angular velocity
/// and angle of a body of radius `radius` — which it returns: a non-finite value set to
/// 0, a speed (or rim speed) above `max_speed` clamped to it. Shared with the bodies a
/// rebuild keeps (`Bodies::keep_from`), which must come out as their
/// descriptions would.
pub(crate) fn repair_motion(
    (velocity, angular_velocity, angle): (&mut DVec2, &mut f64, &mut f64),
    radius: f64,
    max_speed: f64,
) -> InputIssues {
    let mut issues = InputIssues::NONE;
    if !velocity.is_finite() {
        issues |= InputIssues::NON_FINITE_VELOCITY;
        *velocity = DVec2::ZERO;
    }
    let speed = velocity.length();
    if speed > max_speed {
        issues |= InputIssues::SPEED_CLAMPED;
        *velocity *= max_speed / speed;
    }
    if !angular_velocity.is_finite() || !angle.is_finite() {
        issues |= InputIssues::NON_FINITE_SPIN;
        if !angular_velocity.is_finite() {
            *angular_velocity = 0.0;
        }
        if !angle.is_finite() {
            *angle = 0.0;
        }
    }
    if angular_velocity.abs() * radius > max_speed {
        issues |= InputIssues::SPEED_CLAMPED;
        *angular_velocity = angular_velocity.signum() * max_speed / radius;
    }
    issues
}

/// Bit set of problems found in a [`BodyDesc`] by [`BodyDesc::sanitize`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct InputIssues(pub u16);

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
    /// Found at the start of a step overlapping another body by more than half the
    /// smaller radius (spawned or moved on top of it, or at the same point): pushed
    /// apart, coincident centres along a fixed direction drawn from the pair's indices.
    /// Overlaps the step itself drives that deep (a speck pressed by heavy bodies, a
    /// step that fell back) are pushed apart without this report.
    pub const DEEP_OVERLAP: Self = Self(64);
    /// Found with its centre outside the arena at the start of a step (added or moved
    /// there): pushed back inside. A body the step itself drives out (a step that fell
    /// back, a speck whose wall contact was left to the push-out) is pushed back in
    /// without this report.
    pub const OUTSIDE_ARENA: Self = Self(128);
    /// Friction or rolling resistance NaN or negative (or infinite rolling
    /// resistance): set to 0.
    pub const FRICTION_CLAMPED: Self = Self(256);
    /// Moment of inertia NaN, zero or negative: the solid disk's `½ m r²` is used.
    pub const INVALID_INERTIA: Self = Self(512);
    /// Angular velocity or angle NaN or infinite: set to 0.
    pub const NON_FINITE_SPIN: Self = Self(1024);

    /// Whether every flag of `other` is set in `self`.
    pub fn contains(self, other: Self) -> bool {
        self.0 & other.0 == other.0
    }

    /// Human-readable list of the flags, for log messages.
    pub fn describe(self) -> String {
        const NAMES: [(InputIssues, &str); 11] = [
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
            (
                InputIssues::FRICTION_CLAMPED,
                "friction or rolling resistance is not a non-negative number (set to 0)",
            ),
            (
                InputIssues::INVALID_INERTIA,
                "moment of inertia is not a positive number (using the solid disk's)",
            ),
            (
                InputIssues::NON_FINITE_SPIN,
                "angular velocity or angle is not finite (set to 0)",
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

        let (b, issues) = ok.with_friction(f64::NAN).sanitize(10.0).unwrap();
        assert_eq!((b.friction, issues), (0.0, InputIssues::FRICTION_CLAMPED));
        let (b, issues) = ok.with_friction(f64::INFINITY).sanitize(10.0).unwrap();
        assert_eq!((b.friction, issues), (f64::INFINITY, InputIssues::NONE));
        let (b, issues) = ok.with_rolling_resistance(-1.0).sanitize(10.0).unwrap();
        assert_eq!(
            (b.rolling_resistance, issues),
            (0.0, InputIssues::FRICTION_CLAMPED)
        );
        let (b, issues) = ok.with_inertia(0.0).sanitize(10.0).unwrap();
        assert_eq!((b.inertia, issues), (None, InputIssues::INVALID_INERTIA));
        assert_eq!(b.effective_inertia(), 1.0, "½ · 2 · 1²");
        let (b, issues) = ok.with_angular_velocity(f64::NAN).sanitize(10.0).unwrap();
        assert_eq!(
            (b.angular_velocity, issues),
            (0.0, InputIssues::NON_FINITE_SPIN)
        );
        let (b, issues) = ok.with_angular_velocity(-40.0).sanitize(10.0).unwrap();
        assert_eq!(
            (b.angular_velocity, issues),
            (-10.0, InputIssues::SPEED_CLAMPED)
        );
        assert!(issues.describe().contains("max_speed"));
    }

    /// The fast path of adding a body agrees with the repair: a description is sound
    /// exactly when repairing it changes nothing and reports nothing.
    #[test]
    fn sound_is_exactly_what_repair_leaves_alone() {
        let edges = [
            0.0,
            -0.0,
            1.0,
            -1.0,
            0.5,
            1.5,
            10.0,
            11.0,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ];
        let mut state = crate::scenes::SEED;
        let mut pick = || {
            let k = crate::scenes::SplitMix64(state).next_u64();
            state = k;
            // Mostly ordinary values, so that sound descriptions are common too.
            if k.is_multiple_of(3) {
                edges[(k >> 8) as usize % edges.len()]
            } else {
                [0.25, 0.5, 1.0, 2.0][(k >> 8) as usize % 4]
            }
        };
        let (mut sound, mut unsound) = (0, 0);
        for _ in 0..200_000 {
            let mut d = BodyDesc::new(DVec2::new(pick(), pick()), pick(), pick());
            d.velocity = DVec2::new(pick(), pick()) * 4.0;
            d.restitution = pick();
            d.angular_velocity = pick() * 8.0;
            d.angle = pick();
            d.friction = pick();
            d.rolling_resistance = pick();
            d.rest_time = pick();
            d.inertia = if pick() > 0.7 { Some(pick()) } else { None };
            let mut repaired = d;
            let untouched = repaired.repair(10.0) == Ok(InputIssues::NONE)
                && format!("{repaired:?}") == format!("{d:?}");
            assert_eq!(d.is_sound(10.0), untouched, "{d:?}");
            if untouched {
                sound += 1;
            } else {
                unsound += 1;
            }
        }
        assert!(sound > 1000 && unsound > 1000, "{sound} / {unsound}");
    }
}
