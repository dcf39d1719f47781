//! Phase 3, narrow phase: exact overlap manifolds (seed 002) of the candidate pairs that
//! touch or overlap at the start of the step.

use crate::manifold::manifold;
use crate::simulation::{Contact, Simulation};

impl Simulation {
    /// Lists the candidate pairs whose circles touch or overlap now (within the slop),
    /// with their manifolds, in pair order.
    pub fn narrow_phase(&mut self) {
        self.contacts.clear();
        let b = &self.bodies;
        for &(i, j) in &self.pairs {
            let (iu, ju) = (i as usize, j as usize);
            let m = manifold(
                b.hot[iu].pos,
                b.hot[iu].radius,
                b.hot[ju].pos,
                b.hot[ju].radius,
                (i, j),
            );
            let margin = self.config.overlap_slop * b.hot[iu].radius.min(b.hot[ju].radius);
            if m.depth >= -margin {
                self.contacts.push(Contact {
                    a: i,
                    b: j,
                    manifold: m,
                });
            }
        }
        self.stats.contacts = self.contacts.len();
    }
}
