//! Which bodies get a speculative box this step: those the contact memory remembers in a
//! contact of the last step's solver (see
//! [`SPECULATIVE_MARGIN`](crate::bodies::SPECULATIVE_MARGIN)).
//!
//! The marks are read from the contact memory, not from last step's flags, so a world
//! rebuilt each step (the plugin re-adds its bodies) or restored from a saved state gets
//! the same boxes, the same pairs and the same results.

use crate::contacts::Partner;
use crate::simulation::Simulation;

impl Simulation {
    /// Marks each awake dynamic body the contact memory holds a contact of as
    /// speculative (its box widened for this step's broad phase).
    pub(crate) fn mark_speculative(&mut self) {
        if self.memory.is_empty() {
            return;
        }
        let mut order = std::mem::take(&mut self.key_order);
        order.clear();
        let keys = &self.bodies.keys;
        order.extend(keys.iter().enumerate().map(|(i, &k)| (k, i as u32)));
        // Bodies added in key order (the core's default keys) need no sort.
        if !order.is_sorted_by_key(|&(k, _)| k) {
            order.sort_unstable();
        }
        let index_of = |key: u64| {
            (order.binary_search_by_key(&key, |&(k, _)| k).ok()).map(|x| order[x].1 as usize)
        };
        let hot = &mut self.bodies.hot;
        let mut mark = |i: Option<usize>| {
            if let Some(i) = i {
                let h = &mut hot[i];
                if h.inv_mass > 0.0 && !h.sensor() {
                    h.set_speculative(true);
                }
            }
        };
        // The memory is sorted by first key: one lookup per run of equal first keys.
        let mut last = None;
        for c in self.memory.contacts() {
            if last != Some(c.a) {
                last = Some(c.a);
                mark(index_of(c.a));
            }
            if let Partner::Body(b) = c.b {
                mark(index_of(b));
            }
        }
        self.key_order = order;
    }
}
