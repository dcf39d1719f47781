//! The bodies in key order, and the contact memory built in that order.
//!
//! The contact memory is sorted by (first key, partner) and looked up by key; the
//! bodies are in the canonical (spatial) order, their keys (entity bits in the plugin)
//! in no order. Both look-ups and the memory's order come from one sorted list of the
//! bodies' `(key, index)`, sorted once a step ([`Simulation::sort_keys`]).

use crate::contacts::{ContactMemory, KeptContact, Partner, SolverContact, static_partner};
use crate::events::Other;
use crate::gap_contacts::KEEP_GAP;
use crate::queue::{is_body, segment_code, wall_code};
use crate::simulation::Simulation;

impl Simulation {
    /// Makes `key_order` the bodies' `(key, index)` sorted by key, unless it already
    /// is for the current bodies (the broad phase sorts them; the contact solver's
    /// look-ups in the contact memory and [`remember_contacts`](Self::remember_contacts)
    /// reuse the order).
    pub(crate) fn sort_keys(&mut self) {
        if self.key_order_valid {
            return;
        }
        let order = &mut self.key_order;
        order.clear();
        order.extend((self.bodies.keys.iter().enumerate()).map(|(i, &k)| (k, i as u32)));
        // Bodies added in key order (the core's default keys) need no sort.
        if !order.is_sorted_by_key(|&(k, _)| k) {
            // Stable by key from index order: ties (equal keys) by index, as a sort of the
            // `(key, index)` pairs would leave them.
            crate::key_sort::sort_by_key(order, &mut self.key_scratch, |&(k, _)| k);
        }
        self.key_order_valid = true;
    }

    /// Keeps this step's contacts and their impulses for the next step's warm start.
    ///
    /// The memory's order, (first key, partner), is built without sorting the contacts:
    /// each contact goes to the group of its first body (the one with the lower key, or
    /// the body of a static contact), the groups in key order, and only each group (a
    /// body's few contacts) is sorted by partner. The same memory as a sort of the whole
    /// list (equal keys share a group), which took ~1.9 ms a step of the pile of
    /// 10,000's ~25,000 contacts through the plugin.
    pub(crate) fn remember_contacts(&mut self) {
        if self.resting.is_empty() {
            // Nothing to order (a world asleep): no sort of the keys.
            self.memory.contacts.clear();
            self.memory.corrected = false;
            return;
        }
        self.sort_keys();
        let n = self.bodies.len();
        let keys = &self.bodies.keys;
        // Each body's place among the sorted keys; equal keys share the first place.
        let rank = &mut self.key_rank;
        rank.clear();
        rank.resize(n, 0);
        let mut place = 0;
        for (r, &(key, i)) in self.key_order.iter().enumerate() {
            if r == 0 || key != self.key_order[r - 1].0 {
                place = r as u32;
            }
            rank[i as usize] = place;
        }
        let first = |c: &SolverContact| {
            if is_body(c.b) && keys[c.b as usize] < keys[c.a as usize] {
                c.b as usize
            } else {
                c.a as usize
            }
        };
        // The contacts grouped by their first body's place (in contact order within a
        // group), then each group sorted by partner.
        let resting = &self.resting;
        let (start, by_place) = (&mut self.rank_start, &mut self.by_place);
        crate::compressed_rows::build(n, start, by_place, |emit| {
            for (k, c) in resting.iter().enumerate() {
                emit(rank[first(c)] as usize, k as u32);
            }
        });
        let mut kept = std::mem::take(&mut self.memory.contacts);
        kept.clear();
        kept.extend(by_place.iter().map(|&k| {
            let c = &resting[k as usize];
            kept_contact(keys, c, first(c))
        }));
        for group in start.windows(2) {
            let (from, to) = (group[0] as usize, group[1] as usize);
            if to > from + 1 {
                kept[from..to].sort_unstable_by_key(KeptContact::key);
            }
        }
        // The push-out's mark is the last step's until this step's push-out runs.
        self.memory = ContactMemory::from_sorted(kept)
            .with_corrected(self.stats.corrected)
            .with_push_out_limited(self.memory.push_out_limited)
            .with_surroundings(self.memory.surroundings);
    }
}

impl Simulation {
    /// Adds to the contact memory the pairs that had an impact this step and could press
    /// (not an elastic pair under the default resting speed unless a steered body drives
    /// it, as the solver's classification has it) — body pairs still within a kept gap's reach
    /// ([`KEEP_GAP`]) at the end of the step, and every
    /// body–static impact — unless the memory has them already, with the least positive
    /// impulse. A pair that closes faster than the resting speed again in the next step
    /// is then a pressing contact, the solver's, not a new impact. Under gravity only the
    /// pairs of a steered body ([`BodyDesc::steered`](crate::BodyDesc::steered)).
    pub(crate) fn remember_impacts(&mut self) {
        // Under gravity a body pressed into the pile is held by its weight, and the piles'
        // landings keep their impacts: only what the game steers is remembered there.
        let gravity = self.bodies.gravity != glam::DVec2::ZERO;
        if self.resting_speed <= 0.0
            || self.impacts.is_empty()
            || (gravity && self.steered_bodies == 0)
        {
            return;
        }
        let (b, config) = (&self.bodies, &self.config);
        let elastic_bounces = config.resting_speed.is_none();
        let mut added = std::mem::take(&mut self.impact_scratch);
        added.clear();
        // Kept if it can press: an elastic pair (the solver's classification) only when a
        // steered body drives it, else it bounced; under gravity only a steered pair.
        let keeps = |e: f64, steered: bool| {
            (!gravity || steered) && (e < 1.0 || !elastic_bounces || steered)
        };
        for impact in &self.impacts {
            if impact.sensor {
                continue;
            }
            let a = impact.a as usize;
            let kept = match impact.other {
                Other::Body(j) => {
                    let j = j as usize;
                    let (p, q) = (&b.hot[a], &b.hot[j]);
                    let reach = KEEP_GAP * p.radius.min(q.radius);
                    let steered = b.steered_pair(a, j);
                    if !keeps(
                        b.pair_restitution(config.restitution_combine, a, j),
                        steered,
                    ) || !crate::manifold::overlaps(p.pos, p.radius + reach, q.pos, q.radius)
                    {
                        continue;
                    }
                    // Either key first: the memory's look-up and insertion order pairs.
                    (b.keys[a], Partner::Body(b.keys[j]))
                }
                Other::Wall(_) | Other::Segment(_) => {
                    let code = match impact.other {
                        Other::Wall(w) => wall_code(w),
                        Other::Segment(s) => segment_code(s as usize),
                        Other::Body(_) => unreachable!("matched above"),
                    };
                    let steered = b.hot[a].steered();
                    if !keeps(self.static_restitution(a, code), steered) {
                        continue;
                    }
                    (b.keys[a], static_partner(code))
                }
            };
            if self.memory.get(kept.0, kept.1).is_none() {
                added.push(KeptContact::new(kept.0, kept.1, f64::MIN_POSITIVE));
            }
        }
        self.memory.insert_new(&mut added);
        self.impact_scratch = added;
    }
}

/// Solver contact `c` as remembered, its first body `first` (one of its two).
fn kept_contact(keys: &[u64], c: &SolverContact, first: usize) -> KeptContact {
    let (a, b) = (c.a as usize, c.b as usize);
    let (partner, rolling) = if !is_body(c.b) {
        (static_partner(c.b), c.roll)
    } else if first == a {
        (Partner::Body(keys[b]), c.roll)
    } else {
        // The rolling impulse acts on the contact's second body: it changes sign.
        (Partner::Body(keys[a]), -c.roll)
    };
    KeptContact {
        a: keys[first],
        b: partner,
        impulse: c.accumulated,
        tangent_impulse: c.tangent,
        rolling_impulse: rolling,
    }
}

#[cfg(test)]
mod tests {
    use crate::contacts::ContactMemory;
    use crate::scenes;

    /// A jittered pile of 400 with scrambled keys (as the plugin's entity bits), landed:
    /// the memory built in key order is the fully sorted one (what
    /// [`ContactMemory::new`] makes of its contacts in any order), and each body's range
    /// from `rows_of` holds exactly the contacts whose first key is its key.
    #[test]
    fn the_memory_in_key_order_is_the_sorted_memory_and_each_body_finds_its_rows() {
        let mut scene = scenes::pile(400);
        for (i, b) in scene.bodies.iter_mut().enumerate() {
            // A bijection of the index: keys in no order of the bodies.
            b.key = Some(
                (i as u64 + 1)
                    .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                    .rotate_left(17),
            );
        }
        let mut sim = scene.simulation();
        for _ in 0..120 {
            sim.step(scenes::DT);
        }
        let memory = sim.contact_memory().clone();
        assert!(
            memory.len() > 600,
            "a landed pile: {} contacts",
            memory.len()
        );
        let mut shuffled = memory.contacts().to_vec();
        shuffled.reverse();
        shuffled.rotate_left(memory.len() / 3);
        // The same contacts; the step's gravity and arena bits are the memory's own.
        let rebuilt = ContactMemory::new(shuffled).with_surroundings(memory.surroundings());
        assert_eq!(rebuilt, memory);
        let with_walls = (memory.contacts().iter())
            .filter(|c| !matches!(c.b, crate::contacts::Partner::Body(_)))
            .count();
        assert!(with_walls > 10, "floor contacts are kept too: {with_walls}");

        sim.key_order_valid = false;
        sim.sort_keys();
        let mut rows = Vec::new();
        memory.rows_of(&sim.key_order, &mut rows);
        assert_eq!(rows.len(), sim.bodies.len());
        let keys = &sim.bodies.keys;
        for (i, &(start, end)) in rows.iter().enumerate() {
            let mine = |c: &&crate::contacts::KeptContact| c.a == keys[i];
            let range = &memory.contacts()[start as usize..end as usize];
            assert!(range.iter().all(|c| c.a == keys[i]), "body {i}");
            assert_eq!(range.len(), memory.contacts().iter().filter(mine).count());
        }
    }
}
