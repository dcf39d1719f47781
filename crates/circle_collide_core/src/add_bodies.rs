//! Adding a step's bodies in one batch, its writes shared between the executor's threads.

use crate::bodies::Bodies;
use crate::body::{BodyDesc, InputIssues};
use crate::queue::MAX_BODIES;
use crate::simulation::{AddBodyError, Simulation};
use std::sync::{Mutex, PoisonError};

/// What became of one description given to [`Simulation::add_bodies_from`]: its index
/// and the repairs made, as [`Simulation::add_body_from`] returns them.
pub type AddOutcome = Result<(u32, InputIssues), AddBodyError>;

impl Simulation {
    /// Adds `descs[order[0]]`, `descs[order[1]]`, … — the very bodies, indices and repairs
    /// that [`add_body_from`](Self::add_body_from) called in that order gives — and sets
    /// `outcomes[k]` to what became of `descs[order[k]]` (an index out of range is
    /// `Invalid` with no issue named). From a quarter of the
    /// [parallel threshold](Self::set_parallel_min_bodies) of bodies, on an executor of
    /// two threads or more, the second half of the order is written on another thread
    /// (into arrays of its own, appended after): adding is mostly writes to the bodies'
    /// arrays. Results do not depend on it.
    ///
    /// ```
    /// use circle_collide_core::{BodyDesc, Simulation, StepConfig, order::canonical_order};
    /// use glam::DVec2;
    /// let descs: Vec<BodyDesc> = (0..3)
    ///     .map(|k| BodyDesc::new(DVec2::new(5.0 - 2.0 * k as f64, 0.0), 0.5, 1.0).with_key(k))
    ///     .collect();
    /// let mut sim = Simulation::new(StepConfig::default());
    /// let mut outcomes = Vec::new();
    /// sim.add_bodies_from(&descs, &canonical_order(&descs), &mut outcomes);
    /// assert_eq!(outcomes.iter().map(|o| o.unwrap().0).collect::<Vec<_>>(), [0, 1, 2]);
    /// assert_eq!(sim.bodies().key(0), 2); // the leftmost first
    /// ```
    pub fn add_bodies_from(
        &mut self,
        descs: &[BodyDesc],
        order: &[u32],
        outcomes: &mut Vec<AddOutcome>,
    ) {
        outcomes.clear();
        let n = order.len();
        let shared =
            self.executor.pair_chunks(n, n) > 1 && self.bodies.len() + n <= MAX_BODIES && n >= 2;
        if !shared {
            outcomes.extend(order.iter().map(|&i| self.add_listed(descs, i)));
            return;
        }
        self.near_wall_listed = None;
        self.key_order_valid = false;
        outcomes.resize(n, Err(AddBodyError::TooManyBodies));
        let half = n / 2;
        let (first, second) = order.split_at(half);
        let (first_out, second_out) = outcomes.split_at_mut(half);
        let mut tail = std::mem::take(&mut self.add_scratch);
        tail.clear();
        tail.reserve(second.len());
        self.bodies.reserve(n);
        let base = self.bodies.len() as u32;
        let max_speed = self.config.max_speed;
        // Each job takes its part once; the second part's bodies are numbered as if every
        // one of the first part's was added (else they are added again below).
        let parts = [
            Mutex::new(Some((&mut self.bodies, first, first_out, 0))),
            Mutex::new(Some((&mut tail, second, second_out, base + half as u32))),
        ];
        let take = |k: usize| (parts[k].lock().unwrap_or_else(PoisonError::into_inner)).take();
        self.executor.executor.run(2, &|k| {
            if let Some((bodies, part, out, offset)) = take(k) {
                add_part(bodies, descs, part, out, offset, max_speed);
            }
        });
        // A part the executor did not run is added here.
        for k in 0..2 {
            if let Some((bodies, part, out, offset)) = take(k) {
                add_part(bodies, descs, part, out, offset, max_speed);
            }
        }
        if self.bodies.len() == (base as usize) + half {
            self.bodies.append(&mut tail);
        } else {
            // Some of the first half could not be added: the second half's numbers (and
            // the keys of those without one) are off. It is added again, here.
            tail.clear();
            for (&i, out) in second.iter().zip(&mut outcomes[half..]) {
                *out = self.add_listed(descs, i);
            }
        }
        self.add_scratch = tail;
    }

    /// [`add_body_from`](Self::add_body_from) of `descs[i]` (an index out of range is
    /// `Invalid` with no issue named).
    fn add_listed(&mut self, descs: &[BodyDesc], i: u32) -> AddOutcome {
        match descs.get(i as usize) {
            Some(desc) => self.add_body_from(desc),
            None => Err(AddBodyError::Invalid(InputIssues::NONE)),
        }
    }
}

/// Adds the bodies `part` names to `bodies` (numbered from `offset` on), as
/// `add_body_from` does, with their outcomes in `out`.
fn add_part(
    bodies: &mut Bodies,
    descs: &[BodyDesc],
    part: &[u32],
    out: &mut [AddOutcome],
    offset: u32,
    max_speed: f64,
) {
    for (&i, out) in part.iter().zip(out) {
        *out = match descs.get(i as usize) {
            Some(desc) => push_checked(bodies, desc, offset, max_speed),
            None => Err(AddBodyError::Invalid(InputIssues::NONE)),
        };
    }
}

/// Appends `desc` to `bodies` (numbered from `offset` on) after
/// [`BodyDesc::sanitize`]'s test and repairs, as `add_body_from` does once it knows there
/// is room: a sound description, the common case, is not copied.
pub(crate) fn push_checked(
    bodies: &mut Bodies,
    desc: &BodyDesc,
    offset: u32,
    max_speed: f64,
) -> AddOutcome {
    if desc.is_sound(max_speed) {
        return Ok((bodies.push_numbered(desc, offset), InputIssues::NONE));
    }
    let mut desc = *desc;
    let issues = (desc.repair(max_speed)).map_err(AddBodyError::Invalid)?;
    Ok((bodies.push_numbered(&desc, offset), issues))
}
