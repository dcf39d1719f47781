//! The runtime configuration resource.

use bevy::prelude::*;
use circle_collide_core::glam::DVec2;
use circle_collide_core::{Arena, MAX_IMPACTS_PER_BODY, RestitutionCombine, StepConfig};

/// An axis-aligned box that keeps every circle inside it.
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_circle_collide::prelude::*;
/// // A 20 × 10 room whose walls bounce with each body's own restitution.
/// let arena = ArenaConfig { min: Vec2::ZERO, max: Vec2::new(20.0, 10.0), restitution: 0.0, friction: 0.0 };
/// let config = CircleCollideConfig { arena: Some(arena), ..default() };
/// # assert!(config.arena.is_some());
/// ```
#[derive(Reflect, Clone, Copy, Debug, PartialEq)]
#[reflect(Debug, PartialEq)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct ArenaConfig {
    /// Lower-left corner.
    pub min: Vec2,
    /// Upper-right corner.
    pub max: Vec2,
    /// Restitution of the walls, combined with the body's (under the default `Max`
    /// rule, 0 means "the body's own").
    pub restitution: f32,
    /// Coulomb friction of the walls, combined with the body's by
    /// [`CircleCollideConfig::friction_combine`] (under the default `Max` rule, 0 means
    /// "the body's own"). Default 0.
    #[cfg_attr(feature = "serialize", serde(default))]
    pub friction: f32,
}

impl ArenaConfig {
    /// A box from `min` to `max` whose walls take the body's restitution and friction
    /// (under the default `Max` rules).
    ///
    /// ```
    /// # use bevy::prelude::*;
    /// # use bevy_circle_collide::prelude::*;
    /// let arena = ArenaConfig::new(Vec2::ZERO, Vec2::new(40.0, 30.0));
    /// assert_eq!((arena.restitution, arena.friction), (0.0, 0.0));
    /// ```
    pub const fn new(min: Vec2, max: Vec2) -> Self {
        Self {
            min,
            max,
            restitution: 0.0,
            friction: 0.0,
        }
    }
}

/// How two restitutions (or two frictions) combine (mirror of the core's rule,
/// reflectable).
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_circle_collide::prelude::*;
/// // Pool: the softer of ball and cushion decides.
/// let config = CircleCollideConfig { restitution_combine: CombineRule::Min, ..default() };
/// # assert_eq!(config.restitution_combine, CombineRule::Min);
/// ```
#[derive(Reflect, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[reflect(Debug, PartialEq, Default)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub enum CombineRule {
    /// The larger (default).
    #[default]
    Max,
    /// The smaller.
    Min,
    /// The mean.
    Average,
    /// The product.
    Multiply,
}

/// Runtime parameters of the collision step. Change them at any time; they apply from
/// the next step. Every default is on its field.
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_circle_collide::prelude::*;
/// let config = CircleCollideConfig {
///     gravity: Vec2::new(0.0, -9.81),
///     arena: Some(ArenaConfig { min: Vec2::ZERO, max: Vec2::splat(20.0), restitution: 0.0, friction: 0.0 }),
///     ..default()
/// };
/// assert_eq!(config.default_restitution, 1.0);
/// ```
#[derive(Resource, Reflect, Clone, Debug, PartialEq)]
#[reflect(Resource, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serialize", serde(default))]
pub struct CircleCollideConfig {
    /// Acceleration of every dynamic body, units/s². Default `(0, 0)`.
    pub gravity: Vec2,
    /// Restitution of bodies without a [`Restitution`](crate::Restitution). Default `1.0`.
    pub default_restitution: f32,
    /// Pair rule for restitution. Default [`CombineRule::Max`].
    pub restitution_combine: CombineRule,
    /// Coulomb friction of bodies without a [`Friction`](crate::Friction). Default `0.0`:
    /// smooth circles, whose impacts keep the exact frictionless results (energy kept
    /// at restitution 1) — give friction to what should roll, stick or pile up.
    pub default_friction: f32,
    /// Rolling resistance of bodies without a
    /// [`RollingResistance`](crate::RollingResistance). Default `0.0`.
    pub default_rolling_resistance: f32,
    /// Pair rule for friction and rolling resistance (also a body's with the arena's).
    /// Default [`CombineRule::Max`], as for restitution: friction set on the bodies
    /// alone holds on any floor.
    pub friction_combine: CombineRule,
    /// Tangential restitution of impacts between rough bodies: −1 smooth, 0 (default)
    /// the slip at the contact stops if Coulomb allows, +1 perfectly rough (the slip
    /// reverses; energy is kept). Clamped into `[−1, 1]`.
    pub tangential_restitution: f32,
    /// Mass per unit area for [`Mass::Auto`](crate::Mass::Auto). Default `1.0`.
    pub density: f32,
    /// Optional walls. Default `None`.
    pub arena: Option<ArenaConfig>,
    /// Overlap allowed after a step, as a fraction of the smaller radius; deeper overlaps
    /// are pushed apart to touching, or under gravity between two bodies without friction
    /// to [`GRAVITY_PUSH_OUT_KEEP`](circle_collide_core::resolve::GRAVITY_PUSH_OUT_KEEP)
    /// of it. Default `0.01`. A game that tolerates shallow overlaps buys speed in jams
    /// with a looser one: at `0.05` a jam keeps its overlaps far inside it and skips the
    /// deep-jam correction ([`TIGHT_JAM_DEPTH`](circle_collide_core::contacts::TIGHT_JAM_DEPTH);
    /// steered walkers and crowds against a wall 15–20 % cheaper a step). Keep it at
    /// `0.005` or more where bodies jam: below about that a jam cannot hold its tolerance
    /// (at `0.001` or `0`, steered crowds leave overlaps past it in half or more of their
    /// steps and cost 4–20 times as much a step).
    pub overlap_slop: f32,
    /// Passes of the end-of-step push-out. Default `4`. A jam whose overlaps do not clear
    /// in these passes gets more, up to the work of
    /// [`PUSH_OUT_PASS_LIMIT`](circle_collide_core::resolve::PUSH_OUT_PASS_LIMIT) (16)
    /// times this many passes over its pairs (8 times more under gravity, see
    /// [`StepConfig::separation_iterations`](circle_collide_core::StepConfig::separation_iterations)),
    /// so a jam that cannot clear costs in proportion to it: a steered crowd of 2699 at
    /// `overlap_slop` 0 with `32` here ran 512 passes, ~100 ms, every step.
    pub separation_iterations: u32,
    /// Impact cap per step per body (cap = this × bodies + 64); past it the step falls
    /// back to motion plus push-out and [`CollisionDiagnostics::fallbacks`](crate::CollisionDiagnostics::fallbacks)
    /// counts it. Default `32`; at most [`MAX_IMPACTS_PER_BODY`] (4096) is used (a
    /// warning says so), and a step's cap is at most a million impacts
    /// ([`MAX_IMPACTS_PER_STEP`](circle_collide_core::MAX_IMPACTS_PER_STEP)).
    pub max_impacts_per_body: u32,
    /// Closing speed at or below which contact is *slow* (resting, pressing): touching
    /// pairs closing this slowly go to the contact solver (no event); slower impacts
    /// later in the step use restitution 0 and send no
    /// [`CollisionEvent`](crate::CollisionEvent) unless `report_resting_impacts`. Faster
    /// pairs are exact binary impacts, even when they start the step touching. `None`
    /// (default) means `2 |gravity| dt` under gravity, and without gravity four radii per
    /// second of the pair's smaller circle (2 units/s for radius 0.5; never less than of
    /// the smallest dynamic circle), so top-down games at restitution < 1 work out of the
    /// box, small circles among large ones included; the default never applies to
    /// elastic pairs without gravity (an elastic gas stays exact) unless the game steers
    /// one of the two bodies (changes its [`Velocity`](crate::Velocity)): a crowd steered
    /// every frame jams at the default restitution too, and under gravity a horde walked
    /// into a wall piles up against it as a jam (under gravity a steered body's pairs take
    /// at least the default without gravity: steering is on the bodies' scale, whatever
    /// the gravity). `Some(0.0)` keeps every impact exact, steered or not: bodies resting
    /// on or pressed into each other at restitution below 1 (a pile, a jammed crowd) then
    /// trade ever smaller impacts and run into the impact cap, and the warning about those
    /// steps ([`CircleCollideWorld::step_warning`](crate::CircleCollideWorld::step_warning))
    /// names the zero resting speed.
    pub resting_speed: Option<f32>,
    /// Also send `CollisionEvent`s for resting impacts. Default `false`.
    pub report_resting_impacts: bool,
    /// Gauss–Seidel passes of the contact solver, warm-started from the last step's
    /// impulses ([`ContactMemory`](crate::ContactMemory)). Default `16`. Without gravity
    /// a solve of many contacts takes more (up to twice this; see
    /// `circle_collide_core::contacts::deep_jam_passes`); under gravity a solve without
    /// friction, and one with friction of 5000 contacts or more (a pile of some 3000
    /// circles), goes on until converged, up to four times this
    /// (`circle_collide_core::contacts::ROUGH_CONVERGED_CONTACTS`).
    pub contact_iterations: u32,
    /// Under gravity, finish the contact solver with a bottom-up shock-propagation pass
    /// (each body, lowest first, stops sinking into its supports) and a few more
    /// passes, so deep piles hold their weight and irregular ones come to rest.
    /// Default `true`.
    pub shock_propagation: bool,
    /// Solve deep jams and piles (at least
    /// [`CONJUGATE_CONTACTS`](circle_collide_core::contacts::CONJUGATE_CONTACTS) contacts
    /// in one solve: a steered crowd of some 4000 circles, a pile of some 5000) with the
    /// conjugate-gradient correction on top of the passes (every other step at most): a
    /// crowd of 10,000 then holds within the slop, and a pile of 10,000
    /// mostly comes to rest within 10 s (without it, never). Without gravity a solve of 2000+ contacts whose first passes
    /// do not converge gets it too
    /// ([`CONJUGATE_TRIGGER`](circle_collide_core::contacts::CONJUGATE_TRIGGER): a crowd
    /// pressed against a wall). Jams without gravity and steered ones get it only while
    /// they are pressed near [`overlap_slop`](Self::overlap_slop)
    /// ([`TIGHT_JAM_DEPTH`](circle_collide_core::contacts::TIGHT_JAM_DEPTH)). Default `true`.
    pub conjugate_correction: bool,
    /// Whether islands of touching bodies that stay slow fall asleep (see
    /// [`SleepState`](crate::SleepState)). Default `true`.
    pub sleep: bool,
    /// Speed at or below which a touching body counts as resting for sleep, units/s.
    /// `None` (default): half a radius per second, of the largest among the body and the
    /// awake circles touching it (a speck of dust in a pile does not keep it awake).
    pub sleep_speed: Option<f32>,
    /// Seconds an island must rest before it falls asleep. Default `0.5`.
    pub time_to_sleep: f32,
    /// Sleep by neighbourhood: a body falls asleep once it and the bodies touching it
    /// have rested, so the quiet parts of a large pile sleep while another part still
    /// moves; a hit wakes the sleeping bodies it reaches (an elastic row whole), a slow
    /// touch only the neighbours. Default
    /// `false` (whole islands). The trade (parts frozen a little out of balance) is
    /// measured in
    /// [`SleepConfig::by_neighbourhood`](circle_collide_core::SleepConfig::by_neighbourhood).
    pub sleep_by_neighbourhood: bool,
    /// Skip the whole step while the world stands still — every dynamic body asleep, no
    /// moving kinematic body, no sensor awake — and nothing the step reads changed since
    /// the last one (no body component changed, added or removed — a component written
    /// again with the same value is compared, not counted —, no change to this
    /// configuration, the [`ContactMemory`](crate::ContactMemory) or the level): such a
    /// step would change nothing, and skipped it costs a walk over the bodies' change
    /// ticks (and, after a write, a comparison of every body) instead of the gather and
    /// write-back.
    /// [`CollisionDiagnostics::idle_steps`](crate::CollisionDiagnostics::idle_steps)
    /// counts the skipped steps. Default `true`; results are the same either way.
    pub skip_idle_steps: bool,
    /// Speed clamp, units/s (with a warning). Default `1e5`.
    pub max_speed: f32,
}

impl Default for CircleCollideConfig {
    fn default() -> Self {
        let core = StepConfig::default();
        Self {
            gravity: Vec2::ZERO,
            default_restitution: 1.0,
            restitution_combine: CombineRule::Max,
            default_friction: 0.0,
            default_rolling_resistance: 0.0,
            friction_combine: CombineRule::Max,
            tangential_restitution: 0.0,
            density: 1.0,
            arena: None,
            overlap_slop: core.overlap_slop as f32,
            separation_iterations: core.separation_iterations,
            max_impacts_per_body: core.max_impacts_per_body,
            resting_speed: None,
            report_resting_impacts: false,
            contact_iterations: core.contact_iterations,
            shock_propagation: core.shock_propagation,
            conjugate_correction: core.conjugate_correction,
            sleep: core.sleep.enabled,
            sleep_speed: None,
            time_to_sleep: core.sleep.time_to_sleep as f32,
            sleep_by_neighbourhood: core.sleep.by_neighbourhood,
            skip_idle_steps: true,
            max_speed: core.max_speed as f32,
        }
    }
}

/// Whether a setting that must be a finite non-negative number is one (else its default
/// is used, and [`CircleCollideConfig::problems`] says so).
fn non_negative(x: f32) -> bool {
    x.is_finite() && x >= 0.0
}

/// Whether a friction coefficient is usable: not NaN and ≥ 0 (infinite friction is
/// allowed: it never slips).
fn friction_ok(x: f32) -> bool {
    x >= 0.0
}

/// `x` in double precision if `ok(x)`, else 0.
fn or_zero(x: f32, ok: fn(f32) -> bool) -> f64 {
    if ok(x) { f64::from(x) } else { 0.0 }
}

/// Whether a setting that must be a finite positive number is one.
fn positive(x: f32) -> bool {
    x.is_finite() && x > 0.0
}

/// Whether both corners of an arena are finite (else there is no arena).
fn finite_corners(arena: &ArenaConfig) -> bool {
    arena.min.is_finite() && arena.max.is_finite()
}

fn dvec(v: Vec2) -> DVec2 {
    DVec2::new(f64::from(v.x), f64::from(v.y))
}

impl CircleCollideConfig {
    /// The core's step configuration. Non-finite or negative values fall back to their
    /// defaults so a slider dragged to a bad value cannot break the world.
    pub fn to_step_config(&self) -> StepConfig {
        let d = StepConfig::default();
        let finite_or = |x: f32, default: f64| {
            if non_negative(x) {
                f64::from(x)
            } else {
                default
            }
        };
        StepConfig {
            gravity: if self.gravity.is_finite() {
                dvec(self.gravity)
            } else {
                DVec2::ZERO
            },
            arena: self.arena.filter(finite_corners).map(|a| Arena {
                min: dvec(a.min.min(a.max)),
                max: dvec(a.min.max(a.max)),
                restitution: f64::from(a.restitution.clamp(0.0, 1.0)),
                friction: or_zero(a.friction, friction_ok),
            }),
            restitution_combine: self.restitution_combine.to_core(),
            friction_combine: self.friction_combine.to_core(),
            tangential_restitution: if self.tangential_restitution.is_nan() {
                0.0
            } else {
                f64::from(self.tangential_restitution.clamp(-1.0, 1.0))
            },
            overlap_slop: finite_or(self.overlap_slop, d.overlap_slop),
            separation_iterations: self.separation_iterations,
            max_impacts_per_body: self.max_impacts_per_body,
            resting_speed: self.resting_speed.map(|s| finite_or(s, 0.0)),
            contact_iterations: self.contact_iterations,
            shock_propagation: self.shock_propagation,
            conjugate_correction: self.conjugate_correction,
            sleep: circle_collide_core::SleepConfig {
                enabled: self.sleep,
                speed: self.sleep_speed.map(|s| finite_or(s, 0.0)),
                time_to_sleep: finite_or(self.time_to_sleep, d.sleep.time_to_sleep),
                by_neighbourhood: self.sleep_by_neighbourhood,
            },
            max_speed: if positive(self.max_speed) {
                f64::from(self.max_speed)
            } else {
                d.max_speed
            },
        }
    }

    /// Friction and rolling resistance in force for bodies without their own (invalid
    /// values mean 0; the core checks each body's again).
    pub fn effective_default_surface(&self) -> (f64, f64) {
        (
            or_zero(self.default_friction, friction_ok),
            or_zero(self.default_rolling_resistance, non_negative),
        )
    }

    /// Restitution in force for bodies without their own: `default_restitution` clamped
    /// into `[0, 1]` (NaN means 1).
    pub fn effective_default_restitution(&self) -> f64 {
        if self.default_restitution.is_nan() {
            1.0
        } else {
            f64::from(self.default_restitution.clamp(0.0, 1.0))
        }
    }

    /// What is wrong with this configuration, one sentence per setting that
    /// [`to_step_config`](Self::to_step_config) (or the gather) replaces or clamps.
    /// The plugin logs each once, when the configuration changes — not once per body.
    ///
    /// ```
    /// # use bevy::prelude::*;
    /// # use bevy_circle_collide::prelude::*;
    /// let config = CircleCollideConfig { default_restitution: 5.0, gravity: Vec2::NAN, ..default() };
    /// let problems = config.problems();
    /// assert_eq!(problems.len(), 2);
    /// assert!(problems[0].contains("gravity"));
    /// assert!(CircleCollideConfig::default().problems().is_empty());
    /// ```
    pub fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        if !self.gravity.is_finite() {
            out.push(format!(
                "gravity {} is not finite (using zero)",
                self.gravity
            ));
        }
        if !(0.0..=1.0).contains(&self.default_restitution) {
            out.push(format!(
                "default_restitution {} is outside [0, 1] (using {})",
                self.default_restitution,
                self.effective_default_restitution()
            ));
        }
        if !positive(self.density) {
            out.push(format!(
                "density {} is not a positive number (using 1)",
                self.density
            ));
        }
        if let Some(arena) = &self.arena {
            if !finite_corners(arena) {
                out.push(format!(
                    "arena corners {} and {} are not finite (no arena)",
                    arena.min, arena.max
                ));
            }
            if !(0.0..=1.0).contains(&arena.restitution) {
                out.push(format!(
                    "arena restitution {} is outside [0, 1] (clamped)",
                    arena.restitution
                ));
            }
            if !friction_ok(arena.friction) {
                out.push(format!(
                    "arena friction {} is not a non-negative number (using 0)",
                    arena.friction
                ));
            }
        }
        if !friction_ok(self.default_friction) {
            out.push(format!(
                "default_friction {} is not a non-negative number (using 0)",
                self.default_friction
            ));
        }
        if !non_negative(self.default_rolling_resistance) {
            out.push(format!(
                "default_rolling_resistance {} is not a non-negative number (using 0)",
                self.default_rolling_resistance
            ));
        }
        if !(-1.0..=1.0).contains(&self.tangential_restitution) {
            out.push(format!(
                "tangential_restitution {} is outside [-1, 1] (clamped; NaN means 0)",
                self.tangential_restitution
            ));
        }
        if !non_negative(self.overlap_slop) {
            out.push(format!(
                "overlap_slop {} is not a non-negative number (using the default)",
                self.overlap_slop
            ));
        }
        if self.resting_speed.is_some_and(|s| !non_negative(s)) {
            out.push("resting_speed is not a non-negative number (using 0)".to_string());
        }
        if self.sleep_speed.is_some_and(|s| !non_negative(s)) {
            out.push("sleep_speed is not a non-negative number (using 0)".to_string());
        }
        if !non_negative(self.time_to_sleep) {
            out.push(format!(
                "time_to_sleep {} is not a non-negative number (using the default)",
                self.time_to_sleep
            ));
        }
        if !positive(self.max_speed) {
            out.push(format!(
                "max_speed {} is not a positive number (using the default)",
                self.max_speed
            ));
        }
        if self.max_impacts_per_body > MAX_IMPACTS_PER_BODY {
            out.push(format!(
                "max_impacts_per_body {} is above {MAX_IMPACTS_PER_BODY} (using \
                 {MAX_IMPACTS_PER_BODY}: every impact is kept for the step's events)",
                self.max_impacts_per_body
            ));
        }
        out
    }

    /// Density in force (invalid values mean 1).
    pub fn effective_density(&self) -> f64 {
        if positive(self.density) {
            f64::from(self.density)
        } else {
            1.0
        }
    }

    /// The bits of the settings in force that a body at rest depends on: gravity, the
    /// arena's corners and friction, the default friction and rolling resistance and
    /// their pair rule, the density, the overlap slop and whether bodies sleep. When one
    /// of them changes the plugin wakes every sleeping body (asleep, a body is held like a
    /// static one: a stack would hang where it was); the others — restitution, the
    /// solver's passes and correction, the resting speed, events, idle steps, the speed
    /// clamp, the sleep speed and time — wake nobody: a sleeping pile stays asleep while
    /// they are tuned. The first six are the core's
    /// [`surroundings`](circle_collide_core::StepConfig::surroundings) (what the core's own
    /// check compares; [`ContactMemory::settings`](crate::ContactMemory::settings) hands
    /// them to it).
    pub(crate) fn resting_settings(&self) -> [u64; 14] {
        let step = self.to_step_config();
        let (friction, rolling) = self.effective_default_surface();
        let [g, min, max] = step.surroundings();
        let arena_friction = step.arena.map_or(f64::NAN, |a| a.friction);
        [
            g[0],
            g[1],
            min[0],
            min[1],
            max[0],
            max[1],
            arena_friction.to_bits(),
            friction.to_bits(),
            rolling.to_bits(),
            self.friction_combine as u64,
            self.effective_density().to_bits(),
            step.overlap_slop.to_bits(),
            u64::from(step.sleep.enabled),
            u64::from(step.arena.is_some()),
        ]
    }
}

impl CombineRule {
    /// The core's rule.
    pub fn to_core(self) -> RestitutionCombine {
        match self {
            CombineRule::Max => RestitutionCombine::Max,
            CombineRule::Min => RestitutionCombine::Min,
            CombineRule::Average => RestitutionCombine::Average,
            CombineRule::Multiply => RestitutionCombine::Multiply,
        }
    }
}
