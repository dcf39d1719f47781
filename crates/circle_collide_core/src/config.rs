//! Step parameters of the core simulation.

use crate::arena::Arena;
use crate::impulse::RestitutionCombine;
use glam::DVec2;

/// Everything a step needs besides the bodies. Every default is documented on its field.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serialize", serde(default))]
pub struct StepConfig {
    /// Acceleration applied to every dynamic body, units/s². Default `(0, 0)`.
    pub gravity: DVec2,
    /// Optional axis-aligned box whose walls the circles bounce off. Default `None`.
    pub arena: Option<Arena>,
    /// How two restitutions combine into the pair's. Default [`RestitutionCombine::Max`].
    pub restitution_combine: RestitutionCombine,
    /// How two friction coefficients (and two rolling resistances) combine into the
    /// pair's, and a body's with the arena's. Default [`RestitutionCombine::Max`], as for
    /// restitution: a rough body is rough on any floor, and setting friction on the
    /// bodies alone is enough.
    #[cfg_attr(feature = "serialize", serde(default))]
    pub friction_combine: RestitutionCombine,
    /// Tangential restitution `β` of rough impacts ([`friction`](crate::friction)): the
    /// slip at the contact point after a sticking impact is `−β` times the slip before.
    /// −1 is smooth (no tangential impulse), 0 (the default) sticks — the slip stops, as
    /// in the contact solver and the peers' friction — and +1 is perfectly rough (the
    /// slip reverses, and energy is kept while Coulomb's cap does not bind). Clamped
    /// into `[−1, 1]`; NaN counts as 0. Impacts only: slow contacts always aim at no slip.
    pub tangential_restitution: f64,
    /// Allowed overlap after a step, as a fraction of the smaller radius of the pair
    /// (or of the radius, against a wall). Deeper overlaps are pushed apart at the end
    /// of the step: to touching, or under gravity, for two bodies without friction, to
    /// [`GRAVITY_PUSH_OUT_KEEP`](crate::resolve::GRAVITY_PUSH_OUT_KEEP) of the slop.
    /// Default `0.01`. A looser slop makes jams cheaper: a jam whose overlaps stay far inside
    /// it skips the conjugate-gradient correction
    /// ([`TIGHT_JAM_DEPTH`](crate::contacts::TIGHT_JAM_DEPTH)); at `0.05` steered walkers and
    /// crowds against a wall cost 15–20 % less a step. A tighter one is a trade the other
    /// way, with a floor: at `0.005` jams still hold it, but below about that a jam
    /// cannot (each push-out move presses the next pair past it) — at `0.001` or `0` a
    /// steered crowd of 2000, or walkers shoving a pile, leave overlaps past the slop in
    /// half or more of their steps and cost 4–20 times as much a step.
    pub overlap_slop: f64,
    /// Gauss–Seidel passes of the end-of-step push-out of overlaps. Default `4`. Passes
    /// stop early when nothing moves, and continue while overlaps remain (jammed
    /// clusters) within the work of
    /// [`PUSH_OUT_PASS_LIMIT`](crate::resolve::PUSH_OUT_PASS_LIMIT) times this many
    /// passes over every pair, and at most
    /// [`PUSH_OUT_PASS_CAP`](crate::resolve::PUSH_OUT_PASS_CAP) times this many passes
    /// (both [`GRAVITY_WORK_FACTOR`](crate::resolve::GRAVITY_WORK_FACTOR) times more
    /// under gravity).
    pub separation_iterations: u32,
    /// Impacts handled per step per body; the step's cap is
    /// `max_impacts_per_body × bodies + 64`. Past it the rest of the step falls back to
    /// plain motion plus push-out (counted in the step's statistics). Default `32`; at
    /// most [`MAX_IMPACTS_PER_BODY`] is used, and a step's cap is at most
    /// [`MAX_IMPACTS_PER_STEP`].
    pub max_impacts_per_body: u32,
    /// Closing speed at or below which contact is *slow* (resting, pressing): touching
    /// pairs closing this slowly at the start of a step are contacts of the contact
    /// solver ([`contacts`](crate::contacts)); impacts this slow later in the step use
    /// restitution 0 and are flagged in [`Impact::resting`](crate::Impact::resting).
    /// Faster pairs are exact binary impacts in time order, even when they start the
    /// step touching. `None` (the default) means, under gravity, `2 |gravity| dt` (the
    /// speed gravity adds in two steps; 0.33 units/s at 60 Hz), and without gravity four
    /// radii per second of the pair's smaller circle, never less than of the world's
    /// smallest dynamic circle (2 units/s for the standard radius 0.5; Box2D's restitution
    /// threshold is 1 m/s, about two radii per second of its typical body), so top-down
    /// worlds at restitution < 1 — crowds, swarms, pushed bodies — get slow contacts out
    /// of the box, and a few small circles among them do not make every pair's contacts
    /// impacts. The default never applies
    /// to elastic pairs without gravity ([`pair_resting_speed`](Self::pair_resting_speed)):
    /// an elastic gas stays exact — unless the game steers one of the two bodies
    /// ([`BodyDesc::steered`](crate::BodyDesc::steered)): such a pair takes the larger of
    /// the two defaults under gravity too
    /// ([`steered_resting_speed_for`](Self::steered_resting_speed_for)). `Some(0.0)` makes
    /// every pair an exact impact, steered or not.
    pub resting_speed: Option<f64>,
    /// Gauss–Seidel passes of the contact solver (warm-started from the last step's
    /// impulses). Default `16`. Without gravity a solve of many contacts takes more
    /// ([`deep_jam_passes`](crate::contacts::deep_jam_passes): up to twice this); under
    /// gravity a smooth solve, and a rough one of
    /// [`ROUGH_CONVERGED_CONTACTS`](crate::contacts::ROUGH_CONVERGED_CONTACTS) contacts or
    /// more, goes on until converged, up to
    /// [`MAX_PASS_FACTOR`](crate::contacts::MAX_PASS_FACTOR) times this.
    pub contact_iterations: u32,
    /// Sleeping: islands of touching bodies that stay slow fall asleep and cost almost
    /// nothing until woken. Default [`SleepConfig::default`].
    pub sleep: SleepConfig,
    /// Under gravity, finish the contact solver with a bottom-up shock-propagation pass
    /// (each body, lowest first, stops sinking into its supports, which are held fixed)
    /// and [`SETTLE_PASSES`](crate::contacts::SETTLE_PASSES) more passes, so columns
    /// and rough piles hold their weight and irregular ones come to rest (in a smooth
    /// solve only near-vertical supports count:
    /// [`SMOOTH_SHOCK_SUPPORT`](crate::contacts::SMOOTH_SHOCK_SUPPORT)). Default `true`.
    pub shock_propagation: bool,
    /// Solve deep jams and deep piles with the conjugate-gradient correction: a solve of
    /// at least [`CONJUGATE_CONTACTS`](crate::contacts::CONJUGATE_CONTACTS) contacts
    /// (a steered crowd of some 4000 circles, a pile of some 5000) gets it on top of its
    /// Gauss–Seidel passes — without gravity always, under gravity in the steps whose
    /// configured passes do not converge; either way every other step at most (the warm
    /// start carries it into the next;
    /// [`ContactMemory::corrected`](crate::contacts::ContactMemory::corrected)).
    /// It carries a push across the whole jam at once, so a crowd of 10,000 holds within
    /// the slop and a pile of 10,000 comes to rest and falls asleep (in six of eight
    /// nudged trajectories within 10 s in the core; without it, never). Without gravity a solve of at least
    /// [`DEEP_JAM_CONTACTS`](crate::contacts::DEEP_JAM_CONTACTS) contacts gets it too when
    /// its first passes do not converge
    /// ([`CONJUGATE_TRIGGER`](crate::contacts::CONJUGATE_TRIGGER): a crowd pressed against
    /// a wall). Without gravity, and in a steered jam, it runs only while the jam is pressed
    /// near [`overlap_slop`](Self::overlap_slop)
    /// ([`TIGHT_JAM_DEPTH`](crate::contacts::TIGHT_JAM_DEPTH)): a looser slop lets a jam
    /// rest from it. Default `true`; other solves never use it.
    pub conjugate_correction: bool,
    /// Speeds above this are clamped (direction kept) and reported. Default `1e5`.
    pub max_speed: f64,
}

impl Default for StepConfig {
    fn default() -> Self {
        Self {
            gravity: DVec2::ZERO,
            arena: None,
            restitution_combine: RestitutionCombine::Max,
            friction_combine: RestitutionCombine::Max,
            tangential_restitution: 0.0,
            overlap_slop: 0.01,
            separation_iterations: 4,
            max_impacts_per_body: 32,
            resting_speed: None,
            contact_iterations: 16,
            sleep: SleepConfig::default(),
            shock_propagation: true,
            conjugate_correction: true,
            max_speed: 1e5,
        }
    }
}

/// The largest `max_impacts_per_body` a step uses ([`StepConfig::impact_cap`]); a larger
/// setting is taken as this (the plugin warns). Every impact is kept for the step's
/// events: a cap of 100,000 a body let a rattling circle (bouncing ever faster between two
/// bodies closing on it) fill steps of 121 bodies with 6.5 million impacts, three seconds
/// and about two gigabytes of impacts and events each (a test app that also kept every
/// event ran out of memory). This is 128 times the default.
pub const MAX_IMPACTS_PER_BODY: u32 = 4096;

/// The most impacts a step handles, whatever the bodies and `max_impacts_per_body`
/// ([`StepConfig::impact_cap`]): each holds about a third of a kilobyte while the step's
/// events live (its record, its event, the event loop's lists: 330 MB resident at a
/// million a step through the plugin) and takes a microsecond or more. A pile of 1396
/// circles at `max_impacts_per_body` 4096 with every impact exact (`resting_speed`
/// `Some(0.0)`: an inelastic collapse) took 5.7 million impacts a step, three seconds
/// each. At the default of 32 a body, worlds of up to 31,248 bodies never reach it.
pub const MAX_IMPACTS_PER_STEP: usize = 1_000_000;

/// The default resting speed without gravity, in radii per second: four times the radius
/// of the smaller circle of a pair (of the world's smallest dynamic circle for
/// [`StepConfig::resting_speed_for`]), and a steered pair's least one under gravity.
pub const RESTING_RADII_PER_SECOND: f64 = 4.0;

impl StepConfig {
    /// The bits of the gravity (zero if not finite) and of the arena's two corners (NaN
    /// without an arena) — what bodies at rest lie in: a step that starts with other bits
    /// than the last step's wakes every sleeping body (the game turned gravity, or moved a
    /// wall a body rested on). Compared bit for bit, so setting the same values again
    /// changes nothing. The last step's are part of the
    /// [`ContactMemory`](crate::contacts::ContactMemory) a rollback restores.
    ///
    /// ```
    /// use circle_collide_core::StepConfig;
    /// use glam::DVec2;
    /// let still = StepConfig::default();
    /// let tilted = StepConfig { gravity: DVec2::new(1.0, -9.81), ..still.clone() };
    /// assert_ne!(still.surroundings(), tilted.surroundings());
    /// let broken = StepConfig { gravity: DVec2::NAN, ..still.clone() };
    /// assert_eq!(broken.surroundings(), still.surroundings());
    /// ```
    pub fn surroundings(&self) -> [[u64; 2]; 3] {
        let g = self.gravity;
        let g = if g.is_finite() { g } else { DVec2::ZERO };
        let walls = (self.arena).map_or([DVec2::NAN; 2], |a| [a.min, a.max]);
        let bits = |v: DVec2| [v.x.to_bits(), v.y.to_bits()];
        [bits(g), bits(walls[0]), bits(walls[1])]
    }

    /// The resting-speed threshold in force for a step of length `dt` in a world whose
    /// smallest dynamic circle has radius `min_radius` (see
    /// [`resting_speed`](Self::resting_speed)). NaN or negative settings count as 0.
    pub fn resting_speed_for(&self, dt: f64, min_radius: f64) -> f64 {
        let speed = self.resting_speed.unwrap_or_else(|| {
            if self.gravity != DVec2::ZERO {
                2.0 * self.gravity.length() * dt
            } else if min_radius.is_finite() {
                RESTING_RADII_PER_SECOND * min_radius
            } else {
                0.0
            }
        });
        if speed > 0.0 { speed } else { 0.0 }
    }

    /// The resting speed of a pair with a steered body
    /// ([`BodyDesc::steered`](crate::BodyDesc::steered)) in such a step: the step's
    /// ([`resting_speed_for`](Self::resting_speed_for)), except that under gravity the
    /// default is at least the one without gravity (four radii of the smallest dynamic
    /// circle per second). Gravity's default is the speed gravity adds in two steps; a
    /// game's steering is on the scale of the bodies, whatever the gravity: a horde walked
    /// into a wall meets its neighbours at up to its walking speed, and at gravity's
    /// 0.33 units/s elastic neighbours bounced off each other in chains through the horde
    /// (60,000 impacts a step at 2000 circles).
    ///
    /// ```
    /// use circle_collide_core::StepConfig;
    /// use glam::DVec2;
    /// let config = StepConfig { gravity: DVec2::new(0.0, -9.81), ..Default::default() };
    /// let dt = 1.0 / 60.0;
    /// assert!((config.resting_speed_for(dt, 0.5) - 0.327).abs() < 1e-3);
    /// assert_eq!(config.steered_resting_speed_for(dt, 0.5), 2.0);
    /// let fixed = StepConfig { resting_speed: Some(0.1), ..config };
    /// assert_eq!(fixed.steered_resting_speed_for(dt, 0.5), 0.1);
    /// ```
    pub fn steered_resting_speed_for(&self, dt: f64, min_radius: f64) -> f64 {
        let step = self.resting_speed_for(dt, min_radius);
        if self.resting_speed.is_none() && self.gravity != DVec2::ZERO && min_radius.is_finite() {
            step.max(RESTING_RADII_PER_SECOND * min_radius)
        } else {
            step
        }
    }

    /// The resting speed of a pair of restitution `e` in a step whose resting speed is
    /// `step_resting_speed`: the step's, except that the *default* resting speed does not
    /// apply to elastic pairs (`e ≥ 1`) without gravity — they can neither bounce
    /// endlessly nor collapse, and an elastic gas must stay exact. (A pair with a
    /// steered body takes the step's: see [`BodyDesc::steered`](crate::BodyDesc::steered).)
    #[inline]
    pub fn pair_resting_speed(&self, step_resting_speed: f64, e: f64) -> f64 {
        if e >= 1.0 && self.resting_speed.is_none() && self.gravity == DVec2::ZERO {
            0.0
        } else {
            step_resting_speed
        }
    }

    /// [`tangential_restitution`](Self::tangential_restitution) clamped into `[−1, 1]`
    /// (NaN → 0).
    pub fn tangential_restitution(&self) -> f64 {
        if self.tangential_restitution.is_nan() {
            0.0
        } else {
            self.tangential_restitution.clamp(-1.0, 1.0)
        }
    }

    /// The impact cap for `bodies` bodies: `max_impacts_per_body` (at most
    /// [`MAX_IMPACTS_PER_BODY`]) times `bodies`, plus 64, and at most
    /// [`MAX_IMPACTS_PER_STEP`].
    pub fn impact_cap(&self, bodies: usize) -> usize {
        (self.max_impacts_per_body.min(MAX_IMPACTS_PER_BODY) as usize)
            .saturating_mul(bodies)
            .saturating_add(64)
            .min(MAX_IMPACTS_PER_STEP)
    }
}

/// Sleeping by neighbourhood ([`SleepConfig::by_neighbourhood`]): an awake body near a
/// sleeping one (a candidate pair) that moves faster than this fraction of the sleep
/// speed wakes it and the sleeping bodies touching it. A body that creeps below the sleep
/// speed keeps resting, and could slide away from a sleeping body it held. Measured on
/// the jittered piles of 1200–5000 (twelve sizes, core, 12 s; `docs/contacts.md`,
/// "Sleeping by neighbourhood"): with the sleep speed itself as the bound 11 of 12 fell
/// asleep entirely, with 0.25 of it all 12 (at 4.4–10.1 s), with 0.1 all 12 (4.3–9.3 s,
/// mean 6.5 s; by whole islands 9 of 12, at 5.6–10.6 s); with the end-of-step wake of
/// the islands that impacts hit added, all 12 at 4.7–10.8 s (mean 7.1 s).
pub const DISTURB_FRACTION: f64 = 0.1;

/// When bodies fall asleep.
///
/// A body *rests* while the contact solver holds it (it is in a slow contact: resting on,
/// or pressed against, a body, a static body or a wall) and its speed stays at or below
/// the sleep speed — a free body, or an elastic gas without gravity, never rests; an
/// island (bodies linked by touching pairs; static bodies and walls do not link) falls
/// asleep once every body in it has been slow for [`time_to_sleep`](Self::time_to_sleep).
/// A sleeping body stands still and is simulated as static. It wakes — with its whole
/// island — when an awake dynamic body or a moving kinematic one (static mass with a
/// velocity or a spin) touches it or will hit it within the step; a body the
/// caller wakes ([`Simulation::set_velocity`](crate::Simulation::set_velocity),
/// `set_position`; the plugin does when the game changes its `Transform` or `Velocity`)
/// wakes the sleeping bodies it touches in the next step.
///
/// [`by_neighbourhood`](Self::by_neighbourhood) (off by default) lets the quiet parts of
/// an island sleep while another part still moves.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serialize", serde(default))]
pub struct SleepConfig {
    /// Whether islands may fall asleep. Default `true`. Turned off, every sleeping body
    /// wakes in the next step.
    pub enabled: bool,
    /// Speed at or below which a held body counts as resting, units/s. `None` (the
    /// default) means half a radius per second, of the largest among the body and the
    /// awake dynamic circles touching it (0.25 units/s for radius 0.5): a speck of dust
    /// lying in a pile rests on the pile's scale, so it does not keep the pile awake.
    pub speed: Option<f64>,
    /// Seconds an island (by neighbourhood: a body and the bodies touching it) must stay
    /// slow before it falls asleep. Default `0.5`.
    pub time_to_sleep: f64,
    /// Sleep by neighbourhood instead of by whole islands. Default `false`: the parts
    /// that fall asleep early freeze a little out of balance (below).
    ///
    /// A body falls asleep once it, and every awake body touching it, has rested for
    /// `time_to_sleep`: the quiet parts of a large pile sleep while an avalanche
    /// elsewhere still moves (an island whose bodies all rest still falls asleep at
    /// once). An awake body that will hit a sleeping one, or touches it closing faster
    /// than the resting speed, wakes it and the sleeping bodies the hit reaches (an
    /// impact must travel through every body it reaches within the step): from each woken
    /// body that leaves faster than the resting speed — estimated as a head-on hit, `(1 +
    /// e) / 2` of the speed it was hit at for equal masses — the sleeping bodies touching
    /// it; an elastic row of equal masses wakes whole, a pile of restitution 0.2 hit at
    /// 3 units/s about five bodies deep; a hit the broad phase did not foresee wakes the
    /// island at the end of the step. A body near it (a candidate pair) that
    /// moves faster than
    /// [`DISTURB_FRACTION`] of the sleep speed, or did
    /// not rest in the last step, wakes it and the sleeping bodies touching it; a body
    /// lying still on it wakes nobody.
    ///
    /// The trade: piles fall asleep sooner and cost less while part of them still moves
    /// (jittered piles of 1200–5000: all twelve sizes asleep within 10.8 s, against nine
    /// of twelve within 12 s by whole islands), but the parts frozen while their
    /// neighbours still settled are further from balance: woken all at once, eight
    /// jittered piles of 400–3000 shift by 0.04–1.1 r in half a second (0.4 r or less
    /// on seven), against 0.13 r or less by whole islands (piles of 400–900).
    /// Measured in `docs/contacts.md`, "Sleeping by neighbourhood" and "A hit wakes the
    /// bodies it reaches".
    pub by_neighbourhood: bool,
}

impl SleepConfig {
    /// The speed at or below which a held body of sleep scale `scale` rests: the
    /// configured [`speed`](Self::speed), by default half the scale per second.
    pub(crate) fn speed_for(&self, scale: f64) -> f64 {
        self.speed.unwrap_or(0.5 * scale)
    }
}

impl Default for SleepConfig {
    fn default() -> Self {
        Self {
            enabled: true,
            speed: None,
            time_to_sleep: 0.5,
            by_neighbourhood: false,
        }
    }
}
