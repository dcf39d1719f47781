//! Rebuilding a step's bodies from the last step's, re-reading only the changed ones.
//!
//! A game engine that rebuilds the core's bodies every step (as the plugin does, to take
//! the game's changes and a new canonical order) pays for describing every body and
//! checking every description, although in most steps the game changed few of them.
//! Here each body of the new order is either *kept* from the current bodies — and comes
//! out exactly as a description of its state would add it again — or written from a
//! description. The kept bodies are copied array by array (most of a new canonical order
//! is the old one shifted a little) into [`KeptBodies`], which needs only a shared
//! borrow of the simulation (another thread can prepare it while the caller reads its
//! descriptions); [`Simulation::install_kept`] then writes the descriptions over their
//! bodies and puts the whole in place.

use crate::add_bodies::AddOutcome;
use crate::bodies::Bodies;
use crate::body::{BodyDesc, InputIssues};
use crate::queue::MAX_BODIES;
use crate::simulation::Simulation;

/// A simulation's bodies in a new order, each kept as a description of its state would
/// add it ([`Simulation::keep_bodies`]), ready to be [installed](Simulation::install_kept).
#[derive(Clone, Debug, Default)]
pub struct KeptBodies {
    bodies: Bodies,
    /// The repairs made to kept bodies (a speed clamped), by new index.
    issues: Vec<(u32, InputIssues)>,
    /// How many bodies are inelastic, have a rest time, spin.
    counts: [usize; 3],
    /// The number of bodies of the simulation they were kept from, and whether every
    /// index given was one of them.
    from: Option<usize>,
}

impl KeptBodies {
    /// How many bodies are kept.
    pub fn len(&self) -> usize {
        self.bodies.len()
    }

    /// Whether no body is kept.
    pub fn is_empty(&self) -> bool {
        self.bodies.is_empty()
    }
}

impl Simulation {
    /// Fills `kept` with bodies `picks[0]`, `picks[1]`, … of these bodies, each as a
    /// description of its state would be added: its position, velocity, spin, angle,
    /// sleep and rest time (passed through `rest_time`, the precision the caller keeps it
    /// in between steps), its radius, masses, restitution, layers, surface and key as they
    /// are, with the same repairs (a speed above
    /// [`max_speed`](crate::StepConfig::max_speed) clamped and reported), and nothing
    /// from the last step's work. An index out of range makes the set one
    /// [`install_kept`](Self::install_kept) refuses.
    pub fn keep_bodies(
        &self,
        picks: &[u32],
        rest_time: impl Fn(f64) -> f64,
        kept: &mut KeptBodies,
    ) {
        let b = &self.bodies;
        let (old_len, max_speed) = (b.len(), self.config.max_speed);
        kept.issues.clear();
        kept.counts = [0; 3];
        kept.from = None;
        if picks.iter().any(|&j| j as usize >= old_len) {
            kept.bodies.clear();
            return;
        }
        let new = &mut kept.bodies;
        (new.sweep_end, new.margin, new.gravity) = (b.sweep_end, b.margin, b.gravity);
        kept.counts = new.keep_from(b, picks, &rest_time, max_speed, (&mut kept.issues, 0));
        kept.from = Some(old_len);
    }

    /// Replaces the bodies with `kept` after writing over body `k` the description `d`
    /// for each `(k, d)` of `described` (added as
    /// [`add_body_from`](Self::add_body_from) adds it), and sets `outcomes[k]` to what
    /// became of body `k`. `kept` must have been kept from these bodies as they are (a set
    /// kept before they changed would put back their old state); `false` is returned, and
    /// nothing changed, if it was not kept from as many bodies (or never, or is installed
    /// already, or named a body out of range), if some `k` is out of range, or if some
    /// description is one `add_body_from` refuses (a non-finite position, an invalid
    /// radius). The pair exclusions are cleared, as by
    /// [`clear_bodies`](Self::clear_bodies). `kept` is left with the old bodies'
    /// allocations.
    ///
    /// ```
    /// use circle_collide_core::{BodyDesc, Simulation, StepConfig, kept_bodies::KeptBodies};
    /// use glam::DVec2;
    /// let mut sim = Simulation::new(StepConfig::default());
    /// for k in 0..2 {
    ///     sim.add_body(BodyDesc::new(DVec2::new(k as f64, 0.0), 0.4, 1.0).with_key(k));
    /// }
    /// // The two bodies swapped, the new body 1 (the old body 0) described afresh.
    /// let mut kept = KeptBodies::default();
    /// sim.keep_bodies(&[1, 0], |t| t, &mut kept);
    /// let moved = BodyDesc::new(DVec2::new(5.0, 0.0), 0.4, 1.0).with_key(0);
    /// let mut outcomes = Vec::new();
    /// assert!(sim.install_kept(&mut kept, &[(1, &moved)], &mut outcomes));
    /// assert_eq!(sim.bodies().key(0), 1);
    /// assert_eq!(sim.bodies().position(1), DVec2::new(5.0, 0.0));
    /// // A description that cannot be added: nothing changes.
    /// sim.keep_bodies(&[0, 1], |t| t, &mut kept);
    /// let lost = BodyDesc::new(DVec2::NAN, 0.4, 1.0);
    /// assert!(!sim.install_kept(&mut kept, &[(0, &lost)], &mut outcomes));
    /// assert_eq!(sim.bodies().position(1), DVec2::new(5.0, 0.0));
    /// ```
    pub fn install_kept(
        &mut self,
        kept: &mut KeptBodies,
        described: &[(u32, &BodyDesc)],
        outcomes: &mut Vec<AddOutcome>,
    ) -> bool {
        let (n, max_speed) = (kept.bodies.len(), self.config.max_speed);
        let addable = |&(k, d): &(u32, &BodyDesc)| {
            (k as usize) < n && (d.is_sound(max_speed) || d.sanitize(max_speed).is_ok())
        };
        if kept.from != Some(self.bodies.len()) || n > MAX_BODIES || !described.iter().all(addable)
        {
            return false;
        }
        outcomes.clear();
        outcomes.extend((0..n as u32).map(|k| Ok((k, InputIssues::NONE))));
        for &(k, issues) in &kept.issues {
            outcomes[k as usize] = Ok((k, issues));
        }
        let new = &mut kept.bodies;
        for &(k, d) in described {
            add_counts(&mut kept.counts, new.counts_of(k as usize), -1);
            outcomes[k as usize] = Ok((k, set_checked(new, k as usize, d, max_speed)));
            add_counts(&mut kept.counts, new.counts_of(k as usize), 1);
        }
        let [inelastic, resting, spinning] = kept.counts;
        (new.inelastic, new.some_rest, new.spinning) = (inelastic, resting > 0, spinning > 0);
        std::mem::swap(&mut self.bodies, new);
        kept.from = None;
        self.forget_pairs_and_order();
        true
    }
}

/// `counts` plus `sign` times one body's `[inelastic, resting, spinning]`.
fn add_counts(counts: &mut [usize; 3], of: [bool; 3], sign: isize) {
    for (c, on) in counts.iter_mut().zip(of) {
        *c = c.wrapping_add_signed(sign * isize::from(on));
    }
}

/// Makes body `k` of `bodies` the description `desc` (one that can be added) after
/// [`BodyDesc::sanitize`]'s repairs, which it returns.
fn set_checked(bodies: &mut Bodies, k: usize, desc: &BodyDesc, max_speed: f64) -> InputIssues {
    if desc.is_sound(max_speed) {
        bodies.set_numbered(k, desc);
        return InputIssues::NONE;
    }
    let mut desc = *desc;
    let issues = desc.repair(max_speed).unwrap_or(InputIssues::NONE);
    bodies.set_numbered(k, &desc);
    issues
}
