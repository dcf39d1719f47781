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
        self.sort_keys();
        let order = std::mem::take(&mut self.key_order);
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

#[cfg(test)]
mod tests {
    use crate::contacts::{ContactMemory, KeptContact, Partner};
    use crate::{Arena, BodyDesc, Simulation, StepConfig, Wall};
    use glam::DVec2;

    /// Bodies added out of key order (as the plugin adds them), one static: the marks
    /// follow the memory's keys, on either side of a contact, and skip the static body.
    #[test]
    fn the_memory_s_bodies_get_widened_boxes_and_no_others() {
        let mut sim = Simulation::new(StepConfig {
            arena: Some(Arena::new(DVec2::ZERO, DVec2::splat(20.0))),
            ..StepConfig::default()
        });
        let keys = [50u64, 30, 90, 70, 10];
        for (k, &key) in keys.iter().enumerate() {
            let mass = if key == 70 { f64::INFINITY } else { 1.0 };
            let p = DVec2::new(2.0 + 3.0 * k as f64, 5.0);
            sim.add_body(BodyDesc::new(p, 0.5, mass).with_key(key))
                .unwrap();
        }
        sim.set_contact_memory(ContactMemory::new(vec![
            KeptContact::new(30, Partner::Body(90), 1.0),
            KeptContact::new(50, Partner::Wall(Wall::Left), 1.0),
            KeptContact::new(70, Partner::Body(90), 1.0),
        ]));
        sim.integrate(1.0 / 60.0);
        sim.mark_speculative();
        let marked: Vec<u64> = (0..keys.len())
            .filter(|&i| sim.bodies.hot[i].speculative())
            .map(|i| keys[i])
            .collect();
        assert_eq!(
            marked,
            vec![50, 30, 90],
            "key 70 is static, key 10 remembered nowhere"
        );
        // A marked body's box is its path's widened by the speculative margin.
        let (path, widened) = (sim.bodies.path_box(0), sim.bodies.swept_box(0));
        let extra = crate::bodies::SPECULATIVE_MARGIN * 0.5;
        assert!(
            (path.0 - widened.0 - DVec2::splat(extra))
                .abs()
                .max_element()
                < 1e-12
        );
        assert_eq!(sim.bodies.path_box(4), sim.bodies.swept_box(4));
        // The next step starts unmarked: marks last one step.
        sim.set_contact_memory(ContactMemory::default());
        sim.integrate(1.0 / 60.0);
        sim.mark_speculative();
        assert!((0..keys.len()).all(|i| !sim.bodies.hot[i].speculative()));
    }
}
