//! Phase 3, narrow phase: exact overlap manifolds (seed 002) of the candidate pairs that
//! touch or overlap at the start of the step.

use crate::manifold::manifold;
use crate::parallel::chunk_range;
use crate::simulation::{Contact, Simulation};

impl Simulation {
    /// Lists the candidate pairs whose circles touch or overlap now (within the slop),
    /// with their manifolds, in pair order.
    ///
    /// Large worlds test the pairs in chunks on the executor, joined in order.
    pub fn narrow_phase(&mut self) {
        let mut contacts = std::mem::take(&mut self.contacts);
        contacts.clear();
        let this = &*self;
        let pairs = this.pairs.len();
        let chunks = this.executor.chunks(this.bodies.len(), pairs);
        if chunks <= 1 {
            this.contacts_in(0..pairs, &mut contacts);
        } else {
            let parts = this.executor.map(chunks, |k| {
                let mut part = Vec::new();
                this.contacts_in(chunk_range(pairs, chunks, k), &mut part);
                part
            });
            parts
                .iter()
                .for_each(|part| contacts.extend_from_slice(part));
        }
        self.contacts = contacts;
        self.stats.contacts = self.contacts.len();
    }

    /// Whether bodies `i` and `j` overlapped by more than half the smaller radius at the
    /// start of the step (among its contacts): an overlap the game made (spawned or moved
    /// a body onto another, grew a radius), reported as
    /// [`InputIssues::DEEP_OVERLAP`](crate::InputIssues::DEEP_OVERLAP). A pair the step
    /// itself drove that deep (a speck pressed by a heavy body, a fallback step) is the
    /// engine's to push apart, not the game's input.
    pub(crate) fn deep_at_start(&mut self, i: usize, j: usize) -> bool {
        if !self.deep_at_start_listed {
            self.deep_at_start_listed = true;
            let b = &self.bodies;
            self.deep_at_start.clear();
            self.deep_at_start
                .extend((self.contacts.iter()).filter_map(|c| {
                    let smaller = b.hot[c.a as usize].radius.min(b.hot[c.b as usize].radius);
                    (c.manifold.depth > 0.5 * smaller).then_some((c.a, c.b))
                }));
            self.deep_at_start.sort_unstable();
        }
        let pair = ((i as u32).min(j as u32), (i as u32).max(j as u32));
        self.deep_at_start.binary_search(&pair).is_ok()
    }

    /// Contacts among the candidate pairs `range`, appended to `out`.
    fn contacts_in(&self, range: std::ops::Range<usize>, out: &mut Vec<Contact>) {
        let b = &self.bodies;
        for &(i, j) in &self.pairs[range] {
            let (p, q) = (&b.hot[i as usize], &b.hot[j as usize]);
            let m = manifold(p.pos, p.radius, q.pos, q.radius, (i, j));
            if m.depth >= -self.config.overlap_slop * p.radius.min(q.radius) {
                out.push(Contact {
                    a: i,
                    b: j,
                    manifold: m,
                });
            }
        }
    }
}
