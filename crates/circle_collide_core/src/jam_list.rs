//! The push-out's list of a large jam's pairs ([`JamList`]): for each body the pairs it
//! is in, which pairs a pass took, and what keeps the list in force — where each body
//! stood when it was made (a relist), or the broad phase's boxes (a list made from the
//! step's own pairs, `Simulation::list_from_broad_phase`).

use crate::push_out::{JAM_MARGIN, slop_box};
use glam::DVec2;

/// No pair added to a jam's list after it was made ([`JamList::add_pair`]).
const NO_EXTRA: u32 = u32::MAX;

/// A large jam's pair list for the push-out's later passes: where each body stood when it
/// was made, and for each body the indices of its pairs (in the candidate pairs).
#[derive(Clone, Debug, Default)]
pub(crate) struct JamList {
    pub(crate) listed_at: Vec<DVec2>,
    /// The margin, a fraction of each radius, the boxes were widened by when the list was
    /// made (`Simulation::allowed_move`).
    pub(crate) margin: f64,
    /// The broad phase's box of each body (as its grid listed it), for a list made from
    /// the step's own pairs (`Simulation::list_from_broad_phase`); empty when the broad
    /// phase listed nothing or not every pair from these boxes
    /// ([`Grid::copy_listed_boxes`](crate::grid::Grid::copy_listed_boxes)).
    pub(crate) broad_boxes: Vec<crate::grid::SmallBox>,
    /// In a world with sleeping bodies at the start of the step, whether each body could
    /// interact with none of the same kind when the broad phase listed the pairs (a
    /// static, kinematic or sleeping body: no pair of two such is listed); empty
    /// otherwise. A body among them awake now (woken since) may be in unlisted pairs.
    pub(crate) broad_inactive: Vec<bool>,
    /// A list made from the step's own pairs: the bodies inside their broad-phase box
    /// must stay inside it, the others ([`outside`](Self::outside)) near where they stood.
    pub(crate) by_boxes: bool,
    /// Whether each body stood outside its broad-phase box when the list was made.
    pub(crate) outside: Vec<bool>,
    /// `pairs_of[start[i]..start[i + 1]]`: indices of body `i`'s pairs.
    start: Vec<u32>,
    pairs_of: Vec<u32>,
    /// Pass at which each pair was last taken (so a pair of two pushed bodies is taken
    /// once per pass).
    taken: Vec<u32>,
    /// Scratch of [`mark`](Self::mark): whether each body was pushed.
    marked: Vec<bool>,
    /// Scratch of a list from the step's own pairs: the listed pairs of the bodies outside
    /// their box (sorted), the pairs found for them, and a body's listed partners.
    pub(crate) listed: Vec<(u32, u32)>,
    pub(crate) found: Vec<(u32, u32)>,
    pub(crate) known: Vec<u32>,
    /// Pairs added to the list after it was made ([`add_pair`](Self::add_pair)): the
    /// first entry of each body's chain in `extra_next` (`u32::MAX`: none), and the
    /// entries (pair index, next entry).
    extra_head: Vec<u32>,
    extra_next: Vec<(u32, u32)>,
    /// Bodies whose pairs were searched again since the list was made
    /// (`Simulation::extend_broad_list`).
    pub(crate) searched: usize,
    pass: u32,
    /// How many times this push-out's list was outgrown (a body moved past its margin).
    pub(crate) outgrown: u32,
    /// How many times this push-out listed every pair anew (for tests).
    pub(crate) relists: u32,
    /// How many times this push-out made its list from the step's own pairs (for tests).
    pub(crate) broad_lists: u32,
    /// Pairs listed by the last relist of every pair, not yet counted in the push-out's
    /// work ([`PUSH_OUT_PASS_LIMIT`](crate::push_out::PUSH_OUT_PASS_LIMIT)).
    pub(crate) relisted: usize,
}

impl JamList {
    /// Forgets the list (the allocations are kept).
    pub(crate) fn clear(&mut self) {
        self.listed_at.clear();
        self.by_boxes = false;
    }

    /// Forgets the list and its count of outgrown lists: a new push-out.
    pub(crate) fn reset(&mut self) {
        self.clear();
        self.outgrown = 0;
        self.relisted = 0;
        self.relists = 0;
        self.broad_lists = 0;
    }

    /// Keeps the broad phase's boxes of the step (the grid just listed every pair from
    /// them): a jammed push-out can make its list from those pairs.
    pub(crate) fn note_broad_boxes(
        &mut self,
        grid: &crate::grid::Grid,
        bodies: &crate::bodies::Bodies,
        sleepers: bool,
    ) {
        grid.copy_listed_boxes(&mut self.broad_boxes);
        self.broad_inactive.clear();
        if sleepers && !self.broad_boxes.is_empty() {
            (self.broad_inactive).extend(bodies.hot.iter().map(|h| !h.active()));
        }
    }

    /// Forgets the broad phase's boxes (its pairs no longer list every pair they hold).
    pub(crate) fn forget_broad_boxes(&mut self) {
        self.broad_boxes.clear();
        self.broad_inactive.clear();
    }

    /// Whether a list is in force.
    pub(crate) fn is_listed(&self) -> bool {
        !self.listed_at.is_empty()
    }

    /// Makes the list of `pairs` (indexed by body), at the bodies' current places; they
    /// were found with boxes widened by `margin` of each radius.
    pub(crate) fn list(
        &mut self,
        bodies: &crate::bodies::Bodies,
        pairs: &[(u32, u32)],
        margin: f64,
    ) {
        let n = bodies.len();
        self.margin = margin;
        self.listed_at.clear();
        self.listed_at.extend(bodies.hot.iter().map(|h| h.pos));
        crate::compressed_rows::build(n, &mut self.start, &mut self.pairs_of, |emit| {
            for (k, &(i, j)) in pairs.iter().enumerate() {
                emit(i as usize, k as u32);
                emit(j as usize, k as u32);
            }
        });
        self.taken.clear();
        self.taken.resize(pairs.len(), 0);
        self.pass = 0;
        self.extra_head.clear();
        self.extra_head.resize(n, NO_EXTRA);
        self.extra_next.clear();
        self.searched = 0;
    }

    /// Adds pair `pair`, at index `k` of the candidate pairs, to the list.
    pub(crate) fn add_pair(&mut self, k: usize, (i, j): (u32, u32)) {
        self.taken.push(0);
        for body in [i, j] {
            let head = &mut self.extra_head[body as usize];
            self.extra_next.push((k as u32, *head));
            *head = (self.extra_next.len() - 1) as u32;
        }
    }

    /// Calls `f` with each listed partner of body `p` (`pairs`: the candidate pairs).
    pub(crate) fn for_each_partner(&self, p: usize, pairs: &[(u32, u32)], mut f: impl FnMut(u32)) {
        let mut other = |k: u32| {
            let (i, j) = pairs[k as usize];
            f(if i as usize == p { j } else { i });
        };
        let listed = &self.pairs_of[self.start[p] as usize..self.start[p + 1] as usize];
        listed.iter().for_each(|&k| other(k));
        let mut e = self.extra_head[p];
        while e != NO_EXTRA {
            let (k, next) = self.extra_next[e as usize];
            other(k);
            e = next;
        }
    }

    /// Calls `f` with each body `j ≠ o` that body `o` may touch while it stays within the
    /// allowed move of where it was listed: a body inside its broad-phase box whose box
    /// meets `o`'s circle widened by [`JAM_MARGIN`] of its radius, one outside whose
    /// circle so widened (where it was listed) does.
    pub(crate) fn partners_of(
        &self,
        b: &crate::bodies::Bodies,
        o: usize,
        mut f: impl FnMut(usize),
    ) {
        let widened = |i: usize| {
            let (p, r) = (self.listed_at[i], b.hot[i].radius);
            let m = DVec2::splat(r + JAM_MARGIN * r);
            (p - m, p + m)
        };
        let own = widened(o);
        for j in (0..b.len()).filter(|&j| j != o) {
            let meets = if self.outside[j] {
                crate::bodies::boxes_overlap(own, widened(j))
            } else {
                crate::grid::small_box_meets(self.broad_boxes[j], own)
            };
            if meets {
                f(j);
            }
        }
    }

    /// Whether a body of `pushed` stands farther than `allowed` from where the list was
    /// made. Only pushed bodies move during the push-out, and every one comes through
    /// here, so checking them is checking all.
    ///
    /// A list made from the step's own pairs holds instead while each pushed body that
    /// stood inside its broad-phase box (its circle widened by `slop` times its radius)
    /// still does, and each that stood outside is within `allowed` of where it stood.
    pub(crate) fn moved_past(
        &self,
        bodies: &crate::bodies::Bodies,
        pushed: &[u32],
        allowed: f64,
        slop: f64,
    ) -> bool {
        (pushed.iter()).any(|&i| {
            let i = i as usize;
            if self.by_boxes && !self.outside[i] {
                !crate::grid::small_box_holds(self.broad_boxes[i], slop_box(bodies, i, slop))
            } else {
                bodies.hot[i].pos.distance_squared(self.listed_at[i]) > allowed * allowed
            }
        })
    }

    /// Calls `f` once with the index of each listed pair that has a body of `pushed`.
    pub(crate) fn for_each_pair_of(&mut self, pushed: &[u32], mut f: impl FnMut(usize)) {
        self.pass += 1;
        for &i in pushed {
            let i = i as usize;
            for &k in &self.pairs_of[self.start[i] as usize..self.start[i + 1] as usize] {
                if self.taken[k as usize] != self.pass {
                    self.taken[k as usize] = self.pass;
                    f(k as usize);
                }
            }
            let mut e = self.extra_head.get(i).copied().unwrap_or(NO_EXTRA);
            while e != NO_EXTRA {
                let (k, next) = self.extra_next[e as usize];
                if self.taken[k as usize] != self.pass {
                    self.taken[k as usize] = self.pass;
                    f(k as usize);
                }
                e = next;
            }
        }
    }

    /// Whether each of `n` bodies is one of `pushed` (indexed by body).
    pub(crate) fn mark(&mut self, n: usize, pushed: &[u32]) -> &[bool] {
        self.marked.clear();
        self.marked.resize(n, false);
        for &i in pushed {
            self.marked[i as usize] = true;
        }
        &self.marked
    }

    /// Bytes of heap memory the list holds.
    pub(crate) fn heap_bytes(&self) -> usize {
        use crate::simulation::capacity_bytes as cap;
        cap(&self.listed_at)
            + cap(&self.broad_boxes)
            + cap(&self.outside)
            + cap(&self.start)
            + cap(&self.pairs_of)
            + cap(&self.taken)
            + cap(&self.marked)
            + cap(&self.listed)
            + cap(&self.found)
            + cap(&self.known)
            + cap(&self.extra_head)
            + cap(&self.extra_next)
    }
}

/// Whether body `i` stood inactive when the broad phase listed the pairs (`inactive`, see
/// [`JamList::broad_inactive`]) and is active now: woken since, it may be in pairs with
/// sleepers that were not listed.
pub(crate) fn woken_since(inactive: &[bool], bodies: &crate::bodies::Bodies, i: usize) -> bool {
    inactive
        .get(i)
        .is_some_and(|&was| was && bodies.hot[i].active())
}
