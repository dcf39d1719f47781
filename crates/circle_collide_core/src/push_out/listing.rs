//! How the push-out's jammed passes find their pairs: around the bodies the last pass
//! pushed, by a grid query for each, from the step's own pairs, or by listing every
//! pair anew (`JamList`), and how the pairs a query met join the late pairs.

use super::{BROAD_LIST_OUTSIDE, JAM_MARGIN, JAM_WIDEN_MAX, RELIST_FRACTION, RELIST_MIN};
use super::{activate_if_touching, slop_box};
use crate::jam_list::woken_since;
use crate::simulation::Simulation;

impl Simulation {
    /// Finds the active pairs of the next [`Pass::Jammed`](super::Pass::Jammed) around the bodies pushed since
    /// the last call: through a grid query for each of them
    /// ([`query_pushed_neighbours`](Self::query_pushed_neighbours)), or, when many moved,
    /// by listing every pair anew ([`relist_touching_pairs`](Self::relist_touching_pairs)).
    /// The pushed bodies become the active bodies. Returns whether an active pair
    /// overlaps deeper than the slop, or a pushed body sinks that deep into a wall.
    pub(super) fn list_pushed_neighbours(&mut self) -> bool {
        self.active.clear();
        self.active_deep.clear();
        self.active_deep_known = true;
        if self.pushed.is_empty() {
            return false;
        }
        let mut pushed = std::mem::take(&mut self.pushed);
        self.pushed_bits.sort_distinct(&mut pushed);
        let (slop, arena) = (self.config.overlap_slop, self.config.arena);
        let mut deep = (pushed.iter()).any(|&i| self.sunk(arena.as_ref(), i as usize, slop));
        if self.jam.is_listed() {
            let holds = if self.jam.by_boxes {
                self.extend_broad_list(&pushed)
            } else {
                !(self.jam).moved_past(&self.bodies, &pushed, self.allowed_move(), slop)
            };
            if !holds {
                self.jam.clear();
                self.jam.outgrown += 1;
            }
        }
        if self.jam.is_listed() {
            deep |= self.touching_jam_pairs(&pushed);
        } else if pushed.len() >= RELIST_MIN.max(self.bodies.len() / RELIST_FRACTION) {
            deep |= match self.list_from_broad_phase(&pushed) {
                Some(deep) => deep,
                None => self.relist_touching_pairs(&pushed),
            };
        } else {
            deep |= self.query_pushed_neighbours(&pushed);
        }
        self.active_bodies.clear();
        self.active_bodies.extend_from_slice(&pushed);
        pushed.clear();
        self.pushed = pushed;
        deep
    }

    /// Many bodies moved (a large jam): lists every pair anew from the grid rebuilt at
    /// the bodies' current places, which costs less than a query per pushed body. The
    /// active pairs are the pairs of this list with a body of `pushed` that touch now
    /// (within the slop); returns whether one overlaps deeper than the slop. The
    /// candidate pairs become this list.
    ///
    /// No other pair can overlap that deep: `pushed` holds every body moved since the
    /// pass that last visited the pairs it was in (the first relist of a push-out: every
    /// body moved since the first pass, which visited every listed pair; later: the last
    /// jammed pass's, whose active pairs were every pair touching their bodies), and the
    /// solver's shifts move a body less than the slop its box is widened by. The active
    /// pairs keep the list's order, so the pushes are those of activating every touching
    /// pair, bit for bit; only fewer pairs are visited (until 2026-11-29 every touching
    /// pair of the jam was activated: ~4700 in the walkers of 2000, for the ~100 pushed).
    ///
    /// The boxes are widened by [`JAM_MARGIN`] for this listing (doubled each time this
    /// push-out outgrew its list, up to [`JAM_WIDEN_MAX`] times), and the bodies' places
    /// are kept: the next passes take their pairs from this list for as long as no body
    /// has moved past the margin ([`touching_jam_pairs`](Self::touching_jam_pairs)).
    pub(super) fn relist_touching_pairs(&mut self, pushed: &[u32]) -> bool {
        // A jam that outgrew its list moves much: a wider margin keeps the next list longer.
        let wide = JAM_MARGIN * f64::from(1u32 << self.jam.outgrown.min(JAM_WIDEN_MAX));
        let margin = self.bodies.margin;
        self.bodies.margin = margin.max(wide);
        self.rebuild_grid();
        self.collect_pairs();
        self.jam.relisted += self.pairs.len();
        self.jam.relists += 1;
        self.bodies.margin = margin;
        self.jam.list(&self.bodies, &self.pairs, wide);
        let slop = self.config.overlap_slop;
        let mut deep = false;
        let moved = self.jam.mark(self.bodies.len(), pushed);
        for &(i, j) in &self.pairs {
            if moved[i as usize] || moved[j as usize] {
                let into = (&mut self.active, &mut self.active_deep);
                deep |= activate_if_touching(&self.bodies, (i, j), slop, into);
            }
        }
        deep
    }

    /// The first list of a jammed push-out, made from the step's own pairs instead of
    /// listing every pair anew (`relist_touching_pairs`, which rebuilds the grid and
    /// lists every pair of the world: ~0.15 ms a step in the walkers and the crowd
    /// against a wall of 2000). Returns `None` (the caller relists) when it cannot hold:
    /// a list was made before in this push-out, the broad phase listed nothing or not by
    /// its boxes alone (a sparse grid, big or oversized bodies), or more than
    /// [`BROAD_LIST_OUTSIDE`] bodies stand outside their broad-phase box — where a body
    /// woken since the listing counts as outside (the broad phase listed no pair of two
    /// bodies that slept or stood still then: `JamList::broad_inactive`).
    ///
    /// The broad phase listed every interacting pair whose boxes (rounded to `f32`) meet,
    /// and the event loop and the push-out added pairs as late pairs; so a pair of two
    /// bodies whose circles, widened by the slop and rounded so, lie inside their
    /// broad-phase boxes is listed if it touches.
    /// The few bodies outside their box (turned by impacts or the solver, or pushed) get
    /// their pairs by testing every body: a partner inside its box by that box, one
    /// outside by its circle, each widened by [`JAM_MARGIN`] of the radius. The list then
    /// holds while the bodies inside stay inside and the others move less than
    /// [`allowed_move`](Self::allowed_move)
    /// ([`JamList::moved_past`](crate::jam_list::JamList::moved_past)); a body pushed past
    /// that has its pairs searched again ([`extend_broad_list`](Self::extend_broad_list)).
    /// The pairs found and not listed yet join the step's pairs
    /// (the candidate pairs; the late pairs are not needed in the list: a pair the event
    /// loop met between two bodies inside their boxes is listed, one with a body outside
    /// is found), which make the list, and the
    /// active pairs are its pairs with a body of `pushed` that touch now; returns whether
    /// one overlaps deeper than the slop.
    pub(super) fn list_from_broad_phase(&mut self, pushed: &[u32]) -> Option<bool> {
        let n = self.bodies.len();
        let jam = &mut self.jam;
        let sleepers = self.stats.sleeping_at_start > 0;
        if jam.relists > 0
            || jam.outgrown > 0
            || jam.broad_boxes.len() != n
            || (sleepers && jam.broad_inactive.len() != n)
        {
            return None;
        }
        let slop = self.config.overlap_slop;
        let b = &self.bodies;
        jam.listed_at.clear();
        jam.listed_at.extend(b.hot.iter().map(|h| h.pos));
        jam.outside.clear();
        // A body woken since the listing counts as outside its box: its pairs with the
        // bodies still asleep were not listed.
        let (boxes, inactive) = (&jam.broad_boxes, &jam.broad_inactive);
        jam.outside.extend((0..n).map(|i| {
            !crate::grid::small_box_holds(boxes[i], slop_box(b, i, slop))
                || (sleepers && woken_since(inactive, b, i))
        }));
        let mut outside = std::mem::take(&mut self.scratch);
        outside.clear();
        outside.extend((0..n).filter(|&i| jam.outside[i]));
        if outside.len() > BROAD_LIST_OUTSIDE.max(n / RELIST_FRACTION) {
            self.scratch = outside;
            return None;
        }
        // The pairs of the bodies outside their box: those listed, then those found.
        let (mut listed, mut found) = (
            std::mem::take(&mut jam.listed),
            std::mem::take(&mut jam.found),
        );
        listed.clear();
        found.clear();
        let jam = &self.jam;
        listed.extend(
            (self.pairs.iter())
                .filter(|&&(i, j)| jam.outside[i as usize] || jam.outside[j as usize]),
        );
        listed.sort_unstable();
        for &o in &outside {
            jam.partners_of(b, o, |j| {
                let pair = (o.min(j) as u32, o.max(j) as u32);
                if listed.binary_search(&pair).is_err() && self.interacts(pair.0, pair.1) {
                    found.push(pair);
                }
            });
        }
        self.scratch = outside;
        found.sort_unstable();
        found.dedup();
        self.pairs.extend_from_slice(&found);
        (self.jam.listed, self.jam.found) = (listed, found);
        let jam = &mut self.jam;
        jam.relisted += self.pairs.len();
        jam.broad_lists += 1;
        jam.list(&self.bodies, &self.pairs, JAM_MARGIN);
        jam.by_boxes = true;
        let mut deep = false;
        let moved = jam.mark(n, pushed);
        for &(i, j) in &self.pairs {
            if moved[i as usize] || moved[j as usize] {
                let into = (&mut self.active, &mut self.active_deep);
                deep |= activate_if_touching(&self.bodies, (i, j), slop, into);
            }
        }
        Some(deep)
    }

    /// Keeps a list made from the step's own pairs (`list_from_broad_phase`) in force
    /// when bodies of `pushed` moved past what it holds: each that left its broad-phase
    /// box, or (standing outside it) moved past [`allowed_move`](Self::allowed_move)
    /// from where its pairs were found, has its pairs found again where it stands now
    /// (every body tested, as when the list was made) and the new ones added to the list
    /// and to the candidate pairs. Returns false, leaving the list as it was, if that
    /// would make more than [`BROAD_LIST_OUTSIDE`] such searches in this push-out: the
    /// caller then lists anew.
    pub(super) fn extend_broad_list(&mut self, pushed: &[u32]) -> bool {
        let (slop, allowed) = (self.config.overlap_slop, self.allowed_move());
        let b = &self.bodies;
        let mut moved = std::mem::take(&mut self.scratch);
        moved.clear();
        moved.extend(
            (pushed.iter())
                .map(|&i| i as usize)
                .filter(|&i| self.jam.moved_past(b, &[i as u32], allowed, slop)),
        );
        let limit = BROAD_LIST_OUTSIDE.max(b.len() / RELIST_FRACTION);
        if self.jam.searched + moved.len() > limit {
            self.scratch = moved;
            return false;
        }
        for &p in &moved {
            let jam = &mut self.jam;
            jam.searched += 1;
            jam.outside[p] = true;
            jam.listed_at[p] = b.hot[p].pos;
            let (mut found, mut known) = (
                std::mem::take(&mut jam.found),
                std::mem::take(&mut jam.known),
            );
            found.clear();
            known.clear();
            jam.for_each_partner(p, &self.pairs, |j| known.push(j));
            known.sort_unstable();
            let jam = &self.jam;
            jam.partners_of(b, p, |j| {
                if known.binary_search(&(j as u32)).is_err() && self.interacts(p as u32, j as u32) {
                    found.push((p.min(j) as u32, p.max(j) as u32));
                }
            });
            for &pair in &found {
                self.jam.add_pair(self.pairs.len(), pair);
                self.pairs.push(pair);
            }
            (self.jam.found, self.jam.known) = (found, known);
        }
        self.scratch = moved;
        true
    }

    /// The active pairs are the pairs of the jam's list that have a body of `pushed` and
    /// touch now (within the slop); returns whether one overlaps deeper than the slop.
    pub(super) fn touching_jam_pairs(&mut self, pushed: &[u32]) -> bool {
        let slop = self.config.overlap_slop;
        let mut deep = false;
        let (b, pairs) = (&self.bodies, &self.pairs);
        let into = (&mut self.active, &mut self.active_deep);
        self.jam.for_each_pair_of(pushed, |k| {
            deep |= activate_if_touching(b, pairs[k], slop, (&mut *into.0, &mut *into.1));
        });
        deep
    }

    /// How far a body may move from where the jam's list was made before the list may
    /// miss a pair: `(margin − slop) ×` the smallest dynamic radius, where the margin is
    /// the one the list was made with ([`JAM_MARGIN`], or wider: [`JAM_WIDEN_MAX`]).
    pub(super) fn allowed_move(&self) -> f64 {
        (self.jam.margin.max(JAM_MARGIN) - self.config.overlap_slop).max(0.0) * self.min_radius
    }

    /// Lists the bodies `pushed` in the grid at their new place and makes every
    /// interacting pair of one of them that touches there (within the slop) an active
    /// pair; they join the late pairs too (for the touching list). Returns whether one
    /// of those pairs overlaps deeper than the slop.
    pub(super) fn query_pushed_neighbours(&mut self, pushed: &[u32]) -> bool {
        for &i in pushed {
            self.grid.insert(&self.bodies, i as usize);
        }
        let slop = self.config.overlap_slop;
        let mut deep = false;
        let mut found = std::mem::take(&mut self.scratch);
        for &i in pushed {
            let i = i as usize;
            found.clear();
            self.grid.query(&self.bodies, i, false, |j| found.push(j));
            for &j in &found {
                if self.interacts(i as u32, j as u32) {
                    let pair = (i.min(j) as u32, i.max(j) as u32);
                    let into = (&mut self.active, &mut self.active_deep);
                    deep |= activate_if_touching(&self.bodies, pair, slop, into);
                }
            }
        }
        self.active.sort_unstable();
        self.active.dedup();
        self.active_deep_known = false;
        self.merge_active_into_late_pairs();
        self.scratch = found;
        deep
    }

    /// Adds the (sorted, distinct) active pairs to the late pairs, keeping those sorted
    /// and distinct: a merge of two sorted lists. A jam's passes meet mostly the same
    /// pairs again; appending them each pass had the list grow to 25 times its distinct
    /// pairs (120,000 entries) in the steered crowd of 10,000, sorted once at the end of
    /// the step (core late-half median 9.8 → 8.7 ms, the same results).
    pub(super) fn merge_active_into_late_pairs(&mut self) {
        if self.late_pairs.len() > self.late_compacted {
            self.compact_late_pairs();
        }
        let mut merged = std::mem::take(&mut self.pair_scratch);
        merged.clear();
        merged.reserve(self.late_pairs.len() + self.active.len());
        let (mut old, mut new) = (
            self.late_pairs.iter().peekable(),
            self.active.iter().peekable(),
        );
        while let (Some(&&a), Some(&&b)) = (old.peek(), new.peek()) {
            match a.cmp(&b) {
                std::cmp::Ordering::Less => {
                    merged.push(a);
                    old.next();
                }
                std::cmp::Ordering::Greater => {
                    merged.push(b);
                    new.next();
                }
                std::cmp::Ordering::Equal => {
                    merged.push(a);
                    old.next();
                    new.next();
                }
            }
        }
        merged.extend(old);
        merged.extend(new);
        std::mem::swap(&mut self.late_pairs, &mut merged);
        self.late_compacted = self.late_pairs.len();
        self.pair_scratch = merged;
    }
}
