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
    ///
    /// The keys the memory names (each contact's first key, and its partner's if a body)
    /// are looked up in a table from key to body when the keys are dense (the core's
    /// indices, entity bits of one generation: [`KEY_TABLE_SPAN`]), else sorted (a radix
    /// sort, `key_sort`) and walked beside the bodies sorted by key
    /// ([`sort_keys`](Self::sort_keys)) — a binary search per contact until 2026-11-29
    /// took ~85 µs a step of the crowd of 2000 against a wall through the plugin. A key
    /// that several bodies share marks each of them (keys are meant to be unique; a
    /// wider box is never wrong, only dearer).
    pub(crate) fn mark_speculative(&mut self) {
        if self.memory.is_empty() {
            return;
        }
        self.sort_keys();
        let mut keys = std::mem::take(&mut self.memory_keys);
        keys.clear();
        // The memory is sorted by first key: one entry per run of equal first keys.
        let mut last = None;
        for c in self.memory.contacts() {
            if last != Some(c.a) {
                last = Some(c.a);
                keys.push(c.a);
            }
            if let Partner::Body(b) = c.b {
                keys.push(b);
            }
        }
        let order = &self.key_order;
        let hot = &mut self.bodies.hot;
        let mut mark = |i: u32| {
            let h = &mut hot[i as usize];
            if h.inv_mass > 0.0 && !h.sensor() {
                h.set_speculative(true);
            }
        };
        // Keys within a span of a few times the bodies (the core's indices; entity bits of
        // one generation): a table from key to body, one read per key.
        let span = match (order.first(), order.last()) {
            (Some(&(low, _)), Some(&(high, _))) => high - low,
            _ => u64::MAX,
        };
        let unique = order.windows(2).all(|w| w[0].0 != w[1].0);
        if unique && span < KEY_TABLE_SPAN * order.len() as u64 {
            let low = order[0].0;
            let table = &mut self.key_table;
            table.clear();
            table.resize(span as usize + 1, u32::MAX);
            for &(k, i) in order {
                table[(k - low) as usize] = i;
            }
            for &k in &keys {
                if let Some(&i) = k.checked_sub(low).and_then(|d| table.get(d as usize))
                    && i != u32::MAX
                {
                    mark(i);
                }
            }
        } else {
            crate::key_sort::sort_by_key(&mut keys, &mut self.memory_keys_scratch, |&k| k);
            let mut at = 0;
            for &key in &keys {
                while at < order.len() && order[at].0 < key {
                    at += 1;
                }
                // Every body with this key (a repeated key in `keys` finds them again).
                for &(_, i) in order[at..].iter().take_while(|&&(k, _)| k == key) {
                    mark(i);
                }
            }
        }
        self.memory_keys = keys;
    }
}

/// [`Simulation::mark_speculative`] finds the bodies by a table indexed by key when the
/// bodies' keys span fewer than this many times their number (else by a sorted walk).
const KEY_TABLE_SPAN: u64 = 8;

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

    /// Many bodies (the radix sort's length) with keys like entity bits in a scrambled
    /// order, a memory naming a third of them: exactly the awake dynamic bodies the memory
    /// names are marked (checked against a search of the memory per body) — with keys
    /// dense enough for the table, and spread too far for it (the sorted walk).
    #[test]
    fn many_scrambled_keys_mark_exactly_the_remembered_bodies() {
        let n = 900u64;
        for spread in [1, 1000] {
            let mut sim = Simulation::new(StepConfig::default());
            let key = |i: u64| (1 << 32) | (i * 7919 % 4099 * spread);
            for i in 0..n {
                let p = DVec2::new((i % 30) as f64 * 2.0, (i / 30) as f64 * 2.0);
                let mass = if i % 50 == 0 { f64::INFINITY } else { 1.0 };
                sim.add_body(BodyDesc::new(p, 0.5, mass).with_key(key(i)))
                    .unwrap();
            }
            let mut kept: Vec<KeptContact> = (0..n / 3)
                .map(|i| KeptContact::new(key(3 * i), Partner::Body(key((3 * i + 7) % n)), 1.0))
                .chain([KeptContact::new(key(5), Partner::Wall(Wall::Left), 1.0)])
                .collect();
            kept.sort_by_key(|c| c.a);
            sim.set_contact_memory(ContactMemory::new(kept.clone()));
            sim.integrate(1.0 / 60.0);
            sim.mark_speculative();
            for i in 0..n as usize {
                let k = key(i as u64);
                let named =
                    (kept.iter()).any(|c| c.a == k || matches!(c.b, Partner::Body(b) if b == k));
                let expected = named && i % 50 != 0;
                assert_eq!(
                    sim.bodies.hot[i].speculative(),
                    expected,
                    "body {i}, spread {spread}"
                );
            }
        }
    }
}
