//! The end-of-step push-out: separate pairs that overlap deeper than the slop, and
//! circles sunk into a wall, by moving positions only.
//!
//! Its pairs are the broad phase's (plus the late pairs the event loop met), listed for
//! each body's path over the step. A push can move a body off that path, next to a body
//! it was never paired with; the push-out then lists the pushed bodies in the grid at
//! their new place, adds the pairs they touch there, and goes on while any overlaps.

use crate::arena::{Arena, Wall};
use crate::bodies::Hot;
use crate::body::InputIssues;
use crate::manifold;
use crate::simulation::Simulation;
use crate::statics::{level_start, push_out_of_segments, sunk_in_segment};
use glam::DVec2;

pub(crate) use crate::jam_list::JamList;

/// The push-out's work limit: its jammed passes stop once they have visited as many
/// pairs as this many times
/// [`separation_iterations`](crate::StepConfig::separation_iterations) passes over every
/// pair the step listed would, even if overlaps remain (they stop earlier as soon as a
/// pass moves nothing), and never before this many times the configured passes. A jam
/// of the whole world so gets that many passes, a small jam many more over its few
/// pairs, up to [`PUSH_OUT_PASS_CAP`].
///
/// Until 2026-11-25 this limited the passes whatever the jam's size, and small jams in
/// the steered crowds hit it. Core, crowds of 500 / 1600 / 2400 / 3000 / 10000 over 600
/// steps (10,000: 300), binaries alternated: overlaps left in 15 / 105 / 233 / 334 / 157
/// steps before, in none now; late-half medians 0.47 / 1.54 / 2.69 / 3.90 / 5.15 →
/// 0.48 / 1.53 / 2.64 / 3.36 / 5.03 ms; worst steps 1.1 / 3.1 / 6.1 / 6.1 / 10.1 →
/// 1.3 / 2.8 / 6.9 / 9.0 / 16–23 ms. The jittered pile of 2000 is unchanged (no
/// overlap left either way); the 10,000 pile's landing leaves overlaps in 48 steps
/// (279 before), none after step 153, and its worst step after 4 s fell from 43 to 23 ms.
/// (Measured with the work limit alone; with the floor of as many passes as before the
/// pile's landing leaves overlaps in 48 steps instead of 51, and the crowds still none.)
pub const PUSH_OUT_PASS_LIMIT: u32 = 16;

/// Under gravity the push-out's work limit and cap ([`PUSH_OUT_PASS_LIMIT`],
/// [`PUSH_OUT_PASS_CAP`]) are this many times larger. A pile's landing is where its
/// push-out needs the most passes, and an overlap left there persists (the upper body is
/// lifted out of it over the next steps, which adds potential energy); those steps are
/// dominated by their impacts anyway. Without gravity the limit stays: a crowd's
/// leftover clears in the next step, while clearing every one made its rare jammed
/// steps many times slower.
///
/// Measured 2026-11-26 (core, jittered piles, deterministic, 1× → 8×): the pile of
/// 10,000 left overlaps in 68 of its landing steps (at most 1,110 pairs) → none, its
/// worst (landing) step 587 → 938 ms, late-half median unchanged; the pile of 6000 in 23
/// steps → none, worst step 251 → 287 ms; the piles of 2000 and 3000 never reached the
/// limit (unchanged). At 4× the 10,000 pile still left overlaps in one step. Steered
/// crowds with a 4× / 16× limit everywhere (crowds of 4000, 7000, 10,000 and 12,000 over
/// 600 steps): overlaps left in 1 / 11 / 48 / 31 steps → 0 at 16×, similar medians, but
/// worst steps of 37 / 46 / 106 / 136 ms → 97 / 189 / 798 / 728 ms.
///
/// Not in the step right after one whose push-out stopped at its limit
/// ([`ContactMemory::push_out_limited`](crate::ContactMemory::push_out_limited)): a jam
/// that did not clear with the larger limit will not clear with it next step either —
/// an arena filled past what fits, under gravity, has no place to push its overlaps to,
/// and paid the larger limit every step (2000 circles of radius 0.5 packed at 0.9 / 1.0
/// / 3.0 of the arena's area: 162 / 221 / 549 ms a step against 3.3 at 0.8; with the
/// limit without gravity after the first step 13 / 26 / 103 ms, like a steered crowd
/// filled past what fits without gravity, 19–32 ms; 2026-11-30). Nor when the dynamic
/// circles' total area exceeds the arena's (`Simulation::overfull`): no arrangement fits
/// them, and the first step need not find out at the larger limit (2000 circles at 1.05 /
/// 1.5 / 3 times the arena's area: first step 265 / 327 / 547 → 42 / 47 / 77 ms). The
/// piles and hordes measured never stop at the larger limit, so they do not change.
/// Nor, once past the limit without it, in a jam that a moving kinematic body drives
/// (`Simulation::driven_by_kinematic`, forty-sixth session): a paddle sliding along the
/// floor under a pile of 2000 (core, `walkers_steps` with `DOZER=1`, share 0) late mean
/// 7.46 → 6.79 ms and worst step 58 → 27 ms, driven higher through it (`DOZER_Y=6`)
/// 10.96 → 8.71 and 82 → 20 ms.
pub const GRAVITY_WORK_FACTOR: u32 = 8;

/// Under gravity the push-out takes a pair that overlaps deeper than the slop back to
/// this fraction of the slop (of the smaller radius), not all the way to touching. The
/// upper body is the one that moves, and lifted to touching it can leave the other
/// bodies it rested on by up to the slop: falling back from 0.005 units (radius 0.5) it
/// lands at 0.31 units/s, above the sleep speed (0.25), and a settled pile that sheds a few
/// such jolts a second stays awake. Lifted less, it falls back slower or stays on them.
///
/// Measured 2026-11-26 (core, jittered piles, deterministic, settled by DESIGN §5's
/// criterion within 12 s; back to touching → to 0.3 of the slop): the eight sizes
/// 1500–2700 7 of 8 (mean 7.45 s, an unsettled one counted as 12) → 8 of 8 (6.75 s); the
/// eight sizes 5000–12,000 7 of 8 (9.46 s) → 8 of 8 (8.86 s); the six sizes 400–900 (by
/// whole islands, all asleep either way) 5.35 → 5.44 s. Half the slop: 8 of 8 (7.31 s),
/// 8 of 8 (8.70 s), but 6.86 s at 400–900 (each of the six later); 0.7 of it: 6 of 8 at
/// 1500–2700. Which size settles when stays chaotic: over 40 sizes (core) 0.3 settled
/// earlier in 26 and within 12 s 37 against 32 times, but through the plugin (other draws)
/// its eight-size sweep showed no gain (`docs/contacts.md`). The overlaps stay within the
/// slop.
/// Without gravity nothing changes (a crowd's pairs share the push; nothing falls back),
/// nor for a pair with friction or rolling resistance: friction brings rough piles to
/// rest on its own, and with it the rough heap poured at μ 0.5 with rolling resistance
/// 0.05 settled at 18.9° instead of 20.1° (`tests/heap.rs`).
pub const GRAVITY_PUSH_OUT_KEEP: f64 = 0.3;

/// The push-out runs at most this many times
/// [`separation_iterations`](crate::StepConfig::separation_iterations) passes, whatever
/// its work ([`PUSH_OUT_PASS_LIMIT`]): a small jam with no room to clear stops there.
pub const PUSH_OUT_PASS_CAP: u32 = 16 * PUSH_OUT_PASS_LIMIT;

/// A jammed pass lists every pair anew (grid rebuilt at the bodies' current places)
/// instead of querying the grid for each pushed body once at least [`RELIST_MIN`]
/// bodies, and at least one in this many of them, were pushed; the following passes
/// reuse that list while it holds ([`JamList`]). Measured on the steered crowds (core,
/// late-half medians): at one in 8 the crowds of 9000, 10000 and 11000 (300 steps) took
/// 5.5, 8.6 and 9.7 ms per step, a grid query per pushed body in every pass; one in 16,
/// 32 and 64 gave 4.1/6.0/6.2, 3.5/4.9/5.3 and 3.4/5.1/4.3 ms; the crowds of 1600–3000
/// (11 sizes) stayed at a mean of 2.5 ms, and the piles' results did not change.
const RELIST_FRACTION: usize = 64;

/// The fewest pushed bodies for which a jammed pass lists every pair anew
/// ([`RELIST_FRACTION`]).
const RELIST_MIN: usize = 8;

/// The most bodies (or one in [`RELIST_FRACTION`], if more) that may stand outside their
/// broad-phase box for a jammed push-out to make its list from the step's own pairs
/// (`Simulation::list_from_broad_phase`): each costs a test of every body.
const BROAD_LIST_OUTSIDE: usize = 32;

/// A large jam's pair list is made with every body's box widened by this fraction of
/// its radius (or more once outgrown: [`JAM_WIDEN_MAX`]), and serves the following
/// passes until a body has moved farther than `(margin − slop) × the smallest radius`
/// since: no unlisted pair can touch before.
pub(crate) const JAM_MARGIN: f64 = 0.1;

/// How many times a jammed push-out's list may double its margin ([`JAM_MARGIN`]) when
/// the jam outgrows it (0.1, 0.2, then 0.4 of each radius). A jam pushed through by a
/// kinematic body outgrows its list in a few passes: listed at the plain margin, it
/// rebuilt the grid and listed every pair in each of its passes (the runner's `dozer`
/// scene of 10,000: 61 listings a step, a third of the step's time), where the
/// widened list holds for tens of passes.
pub(crate) const JAM_WIDEN_MAX: u32 = 2;

/// A jammed push-out whose list was outgrown this many times is charged a listing of
/// every pair for each of its passes ([`PUSH_OUT_PASS_LIMIT`]'s work), as when it listed
/// every pair anew in each pass: its widened list makes the passes cheaper, not more.
pub(crate) const JAM_OUTGROWN_CHARGED: u32 = 2;

/// Whether bodies `i` and `j` may be pushed apart and overlap deeper than `slop` times
/// the smaller radius.
#[inline]
fn deeper_than_slop(b: &crate::bodies::Bodies, i: usize, j: usize, slop: f64) -> bool {
    let (hi, hj) = (&b.hot[i], &b.hot[j]);
    let allowed = slop * hi.radius.min(hj.radius);
    b.separable(i, j) && manifold::overlaps(hi.pos, hi.radius - allowed, hj.pos, hj.radius)
}

/// Pair `(i, j)` with its height along `up` (twice its bodies' mean height), the
/// push-out passes' order under gravity.
#[inline]
fn height_key(b: &crate::bodies::Bodies, up: DVec2, (i, j): (u32, u32)) -> (f64, u32, u32) {
    let (hi, hj) = (&b.hot[i as usize], &b.hot[j as usize]);
    (up.dot(hi.pos + hj.pos), i, j)
}

/// Sorts `(key, i, j)` entries by key (`f64::total_cmp`'s order), then pair. The key is
/// mapped to an integer once per entry ([`ordered`](crate::order::ordered)) rather than
/// compared as a float per comparison (1.2 % fewer instructions in the bulldozer's pile
/// than `sort_unstable_by` with `total_cmp`). Pairs are distinct, so no two entries tie:
/// any sort gives the same list.
pub(crate) fn sort_by_key_then_pair(entries: &mut [(f64, u32, u32)]) {
    entries.sort_unstable_by_key(|&(key, i, j)| (crate::order::ordered(key), i, j));
}

/// Whether bodies `i` and `j` touch, or come within `slop` times the smaller radius.
#[inline]
pub(crate) fn within_slop(b: &crate::bodies::Bodies, i: usize, j: usize, slop: f64) -> bool {
    let (hi, hj) = (&b.hot[i], &b.hot[j]);
    let allowed = slop * hi.radius.min(hj.radius);
    manifold::overlaps(hi.pos, hi.radius + allowed, hj.pos, hj.radius)
}

/// The box of body `i`'s circle widened by `slop` times its radius: any pair it touches
/// within the slop has its partner's box meet it.
#[inline]
pub(crate) fn slop_box(b: &crate::bodies::Bodies, i: usize, slop: f64) -> (DVec2, DVec2) {
    let h = &b.hot[i];
    let r = DVec2::splat(h.radius + slop * h.radius);
    (h.pos - r, h.pos + r)
}

/// Makes pair `(i, j)` active if it touches (within the slop), noting its index in
/// `deep_at` if it overlaps deeper than the slop; returns whether it does.
#[inline]
fn activate_if_touching(
    b: &crate::bodies::Bodies,
    (i, j): (u32, u32),
    slop: f64,
    (active, deep_at): (&mut Vec<(u32, u32)>, &mut Vec<u32>),
) -> bool {
    let (iu, ju) = (i as usize, j as usize);
    if !within_slop(b, iu, ju, slop) {
        return false;
    }
    active.push((i, j));
    let deep = deeper_than_slop(b, iu, ju, slop);
    if deep {
        deep_at.push((active.len() - 1) as u32);
    }
    deep
}

/// Whether the dynamic, non-sensor body `h` sinks into a wall of `arena` deeper than
/// `slop` times its radius (what [`push_out_of_walls`] would fix).
#[inline]
fn sunk_in_wall(arena: Option<&Arena>, h: &Hot, slop: f64) -> bool {
    arena.is_some_and(|arena| {
        h.inv_mass > 0.0
            && !h.sensor()
            && Wall::ALL
                .iter()
                .any(|&w| arena.depth(w, h.pos, h.radius) > slop * h.radius)
    })
}

/// Which pass of the push-out [`Simulation::separate_pairs`] runs.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Pass {
    /// The first pass (under gravity it visits every pair from the bottom up).
    First,
    /// The rest of the configured passes: pushes shared by mass (or the upper body moves).
    Configured,
    /// Passes past the configured ones, over the active pairs only: pushes shared evenly
    /// (wedged bodies).
    Jammed,
    /// A jammed pass outward from the moving kinematic bodies: all of each push to the
    /// body farther from them (`crate::outward`).
    Outward,
}

impl Simulation {
    /// Runs the push-out after the first pass's wall part (done by `resolve`, which says
    /// whether it moved anything).
    ///
    /// The first and the configured passes go over every listed pair while something
    /// moves (the configured passes test only the pairs of the bodies moved since the
    /// last pass's test: no other pair can overlap deeper than the slop). After them,
    /// each further pass ([`Pass::Jammed`]) lists the bodies the last
    /// pass moved in the grid at their new place and takes the pairs they touch there:
    /// only those can overlap now, including partners a push brought a body next to that
    /// its pairs never listed. When many bodies moved (at least one in
    /// [`RELIST_FRACTION`]), the pass makes a list of the jam's pairs instead: the first
    /// time from the step's own pairs where that holds
    /// ([`list_from_broad_phase`](Self::list_from_broad_phase), kept in force by
    /// [`extend_broad_list`](Self::extend_broad_list)), else by listing every pair anew
    /// from the grid rebuilt at the current places with every box widened by
    /// [`JAM_MARGIN`]; the following passes take the pairs of the bodies they moved from
    /// that list ([`JamList`]) for as long as it holds (a relisted jam that outgrows its
    /// list twice is listed anew each pass). These passes go on while such
    /// a pair overlaps deeper than the slop (or a pushed body sinks that deep into a
    /// wall), at least [`PUSH_OUT_PASS_LIMIT`] × the configured passes in all and then
    /// until they have visited as many pairs as that many passes over every listed pair
    /// would, at most [`PUSH_OUT_PASS_CAP`] × the configured passes (both
    /// [`GRAVITY_WORK_FACTOR`] times larger under gravity); then the walls get one
    /// last pass over the bodies still active (a pair left overlapping is better than a
    /// body left outside the arena), and pairs and wall contacts still that deep are
    /// counted in
    /// [`StepStats::overlaps_left`](crate::StepStats::overlaps_left). A steered jam under
    /// gravity (`Simulation::is_steered_jam`: a horde walked into a wall) is pushed out as a
    /// jam without gravity is: each pair shares the push, with the limit without gravity —
    /// lifting the upper body of pairs pressed sideways stacked the horde up the wall.
    pub(crate) fn push_out(&mut self, walls_moved: bool) {
        self.jam.reset();
        self.outward_passes = None;
        self.outward_blocked = false;
        let configured = self.config.separation_iterations.max(1);
        // `pushed[tested..]`: the bodies moved since the last pass tested its pairs.
        let mut tested = self.pushed.len();
        let mut moved = self.separate_pairs(Pass::First, 0) > 0 || walls_moved;
        let mut pass = 1;
        while moved && pass < configured {
            let walls = self.push_out_of_walls_listed(None);
            let since = std::mem::replace(&mut tested, self.pushed.len());
            moved = self.separate_pairs(Pass::Configured, since) + walls > 0;
            pass += 1;
        }
        // The work limit, in pair visits: the passes allowed times the step's listing (a
        // relist counts as a visit of every pair); never stopped before those passes.
        // Gravity's larger limit not right after a step that stopped at its limit: that
        // jam did not clear with it (an arena filled past what fits, say).
        let limited_before = std::mem::take(&mut self.memory.push_out_limited);
        let factor = if self.config.gravity == DVec2::ZERO
            || self.steered_jam
            || limited_before
            || self.overfull
        {
            1
        } else {
            GRAVITY_WORK_FACTOR
        };
        let limit = configured.saturating_mul(PUSH_OUT_PASS_LIMIT * factor);
        let listed = self.pairs.len() + self.late_pairs.len();
        let budget = (limit as usize).saturating_mul(listed);
        let cap = configured.saturating_mul(PUSH_OUT_PASS_CAP * factor);
        // Past the limit without gravity's factor, a jam a moving kinematic body drives
        // gets no more (see `driven_by_kinematic`); asked once, when first reached.
        let plain = configured.saturating_mul(PUSH_OUT_PASS_LIMIT);
        let (plain_budget, mut driven) = ((plain as usize).saturating_mul(listed), None);
        let mut visited = 0usize;
        while self.list_pushed_neighbours() {
            let relisted = std::mem::take(&mut self.jam.relisted);
            let outgrew = relisted == 0 && self.jam.outgrown >= JAM_OUTGROWN_CHARGED;
            visited += self.active.len() + if outgrew { listed } else { relisted };
            let past_plain = factor > 1 && pass >= plain && visited > plain_budget;
            let driven_stop =
                past_plain && *driven.get_or_insert_with(|| self.driven_by_kinematic());
            if pass >= cap || (pass >= limit && visited > budget) || driven_stop {
                self.memory.push_out_limited = true;
                // The walls have the last word: a pair left overlapping is better than a
                // body left outside the arena.
                self.push_active_out_of_walls();
                let (slop, arena, b) = (self.config.overlap_slop, self.config.arena, &self.bodies);
                let pairs = (self.active.iter())
                    .filter(|&&(i, j)| deeper_than_slop(b, i as usize, j as usize, slop))
                    .count();
                let walls = (self.active_bodies.iter())
                    .filter(|&&i| self.sunk(arena.as_ref(), i as usize, slop))
                    .count();
                self.stats.overlaps_left = pairs + walls;
                break;
            }
            self.push_active_out_of_walls();
            self.separate_pairs(Pass::Jammed, 0);
            pass += 1;
        }
        self.push_out_work = (visited, plain_budget);
        if self.late_pairs.len() > self.late_compacted {
            self.compact_late_pairs();
        }
    }

    /// Whether body `i` sinks into a wall or a level segment deeper than the slop.
    fn sunk(&self, arena: Option<&Arena>, i: usize, slop: f64) -> bool {
        let (h, layers) = (&self.bodies.hot[i], self.bodies.layers[i]);
        let start = level_start(&self.level_starts, i);
        sunk_in_wall(arena, h, slop) || sunk_in_segment(&self.level, layers, slop, h, start)
    }

    /// The wall (and segment) part of a push-out pass after the first, for the bodies
    /// `only` (every body if `None`); returns how many walls and segments moved a body.
    fn push_out_of_walls_listed(&mut self, only: Option<&[u32]>) -> usize {
        if self.config.arena.is_none() && self.level.is_empty() {
            return 0;
        }
        let slop = self.config.overlap_slop;
        let (hot, issues, pushed) = (
            &mut self.bodies.hot,
            (&mut self.step_issues, &self.outside_at_start[..]),
            &mut self.pushed,
        );
        let (arena, level, layers) = (self.config.arena, &self.level, &self.bodies.layers);
        let starts = &self.level_starts;
        let mut walls = 0;
        let mut push = |i: usize, h: &mut Hot| {
            let moves =
                arena.map_or(0, |arena| {
                    push_out_of_walls(&arena, slop, i, h, (&mut *issues.0, issues.1))
                }) + push_out_of_segments(level, layers[i], slop, h, level_start(starts, i));
            if moves > 0 {
                pushed.push(i as u32);
            }
            walls += moves;
        };
        match only {
            Some(list) => list
                .iter()
                .for_each(|&i| push(i as usize, &mut hot[i as usize])),
            None => hot.iter_mut().enumerate().for_each(|(i, h)| push(i, h)),
        }
        self.stats.overlaps_fixed += walls;
        walls
    }

    /// The wall part of a jammed pass: [`push_out_of_walls_listed`](Self::push_out_of_walls_listed)
    /// for the active bodies. A wall that moves a body after an outward pass ends the
    /// outward passes past the first few (`crate::outward`: the push found no room).
    fn push_active_out_of_walls(&mut self) {
        let bodies = std::mem::take(&mut self.active_bodies);
        let walls = self.push_out_of_walls_listed(Some(&bodies));
        if walls > 0 && self.outward_passes.is_some_and(|done| done > 0) {
            self.outward_blocked = true;
        }
        self.active_bodies = bodies;
    }

    /// Whether a moving kinematic body (sensors aside) touched something this step (a
    /// contact of the solver or an impact). Under gravity the push-out's work limit is
    /// [`GRAVITY_WORK_FACTOR`] times larger, for a landing pile to clear; a jam a
    /// kinematic body drives may have no room at all — a paddle sliding along the floor
    /// under a pile presses the floor row, whose circles all sit at one height, into the
    /// far wall with level normals that no pass can turn — and such a jam gets the limit
    /// without gravity's factor (the kinematic body wins: README, limits). Asked only
    /// once a push-out under gravity passes that limit (a walk over every body, skipped
    /// when `integrate` counted no moving kinematic body: `driving_bodies`).
    fn driven_by_kinematic(&self) -> bool {
        self.driving_bodies > 0 && self.bodies.hot.iter().any(Hot::pushes)
    }

    /// The pair part of one push-out pass (the walls come first, from
    /// [`push_out_of_walls`]); returns how many pairs moved.
    ///
    /// Under gravity the pairs are taken from the bottom up and only the upper body moves
    /// (unless it is static), and on the first pass, if anything overlaps, *every* pair is
    /// visited in that order — a body pushed up into its neighbour above is then fixed in
    /// the same pass, so a column standing on the floor clears at once and nothing is
    /// pushed into the floor. Without gravity each pair shares the push by inverse mass.
    ///
    /// Past the configured passes ([`Pass::Jammed`]) both rules converge too slowly or
    /// not at all where a body is wedged: a light body between a static one and a heavy
    /// one moves the heavy one by a sliver of the depth per pass, and under gravity a
    /// body below a static one is pushed down by it and up again by the body beneath.
    /// Those passes split each push evenly between two dynamic bodies (all of it to the
    /// dynamic one against a static body), which halves a wedged overlap each pass.
    ///
    /// Without gravity (or in a steered jam) in a world with a moving kinematic body, the
    /// first [`OUTWARD_PASSES`](crate::outward::OUTWARD_PASSES) jammed passes go outward
    /// from it instead, and the following ones until one finds no room: every push to the
    /// farther body, pairs nearest first (`crate::outward`).
    ///
    /// Jammed passes take the active pairs, the others every listed pair; a configured
    /// pass tests only those with a body of `pushed[since..]` (the bodies moved since the
    /// last pass tested its pairs), the same pairs in the same order as testing every
    /// one: a pair whose bodies have not moved since a test found it no deeper than the
    /// slop, or pushed it apart, is no deeper now. Every body moved is noted in `pushed`.
    fn separate_pairs(&mut self, pass: Pass, since: usize) -> usize {
        let slop = self.config.overlap_slop;
        let up = self.jam_up();
        let b = &self.bodies;
        let mut deep = std::mem::take(&mut self.overlapping);
        deep.clear();
        if pass == Pass::Jammed && self.active_deep_known {
            self.known_deep_active_pairs(&mut deep, up);
        } else {
            let none = &Vec::new();
            let (listed, rest) = if pass == Pass::Jammed {
                (none, &self.active)
            } else {
                (&self.pairs, &self.late_pairs)
            };
            let moved =
                (pass == Pass::Configured).then(|| self.jam.mark(b.len(), &self.pushed[since..]));
            for &(i, j) in listed.iter().chain(rest) {
                if moved.is_some_and(|m| !m[i as usize] && !m[j as usize]) {
                    continue;
                }
                if deeper_than_slop(b, i as usize, j as usize, slop) {
                    deep.push(height_key(b, up, (i, j)));
                }
            }
        }
        if up != DVec2::ZERO && pass == Pass::First && !deep.is_empty() {
            // Every pair from the bottom up, visiting only those that can move.
            self.overlapping = deep;
            let moved = self.separate_from_the_bottom(slop, up);
            self.stats.overlaps_fixed += moved;
            return moved;
        }
        if up != DVec2::ZERO {
            sort_by_key_then_pair(&mut deep);
        }
        let pass = if pass == Pass::Jammed && self.outward_pass() {
            self.order_outward(&mut deep);
            Pass::Outward
        } else {
            pass
        };
        let mut moved = 0;
        for &(_, i, j) in &deep {
            let pushed = self.separate_pair(pass, (slop, up), i as usize, j as usize);
            moved += usize::from(pushed.is_some());
        }
        self.overlapping = deep;
        self.stats.overlaps_fixed += moved;
        moved
    }

    /// The active pairs that overlap deeper than the slop, in `active`'s order, pushed to
    /// `deep` with their height along `up` ([`height_key`]), from what the pass's listing
    /// found ([`active_deep`](Simulation::active_deep)) instead of testing each pair
    /// again: since the listing only the walls moved bodies (`pushed`), so a pair without
    /// one of those is as deep as it was, and only the pairs with one are tested again.
    /// The same pairs in the same order as testing every active pair (until 2026-12-01 the
    /// pass did: ~10 % of the bulldozer's pile, mostly pairs its listing had just tested).
    fn known_deep_active_pairs(&mut self, deep: &mut Vec<(f64, u32, u32)>, up: DVec2) {
        let (b, slop, active) = (&self.bodies, self.config.overlap_slop, &self.active);
        let key = |pair| height_key(b, up, pair);
        // Debug builds (the tests) check the shortcut against testing every active pair.
        #[cfg(debug_assertions)]
        let tested: Vec<_> = (active.iter().copied())
            .filter(|&(i, j)| deeper_than_slop(b, i as usize, j as usize, slop))
            .collect();
        #[cfg(debug_assertions)]
        let agrees = |deep: &[(f64, u32, u32)]| deep.iter().map(|&(_, i, j)| (i, j)).eq(tested);
        if self.pushed.is_empty() {
            deep.extend(self.active_deep.iter().map(|&k| key(active[k as usize])));
            #[cfg(debug_assertions)]
            debug_assert!(agrees(deep));
            return;
        }
        let walled = self.jam.mark(b.len(), &self.pushed);
        let mut known = self.active_deep.iter().peekable();
        for (k, &(i, j)) in active.iter().enumerate() {
            let was = known.next_if_eq(&&(k as u32)).is_some();
            let now = if walled[i as usize] || walled[j as usize] {
                deeper_than_slop(b, i as usize, j as usize, slop)
            } else {
                was
            };
            if now {
                deep.push(key((i, j)));
            }
        }
        #[cfg(debug_assertions)]
        debug_assert!(agrees(deep));
    }

    /// Pushes bodies `i` and `j` apart if they overlap deeper than the slop (see
    /// [`separate_pairs`](Self::separate_pairs) for how far and which moves); returns the
    /// share of the push each took, or `None` if they were not that deep. `(slop, up)`:
    /// the configured overlap slop and the unit vector against gravity (zero without).
    pub(crate) fn separate_pair(
        &mut self,
        pass: Pass,
        (slop, up): (f64, DVec2),
        i: usize,
        j: usize,
    ) -> Option<(f64, f64)> {
        let (m, smaller) = beyond_slop(&self.bodies, i, j, slop)?;
        if m.depth > 0.5 * smaller && self.deep_at_start(i, j) {
            self.step_issues.push((i as u32, InputIssues::DEEP_OVERLAP));
            self.step_issues.push((j as u32, InputIssues::DEEP_OVERLAP));
        }
        let outward = (pass == Pass::Outward).then(|| self.outward_weights(i, j));
        let b = &mut self.bodies;
        let (wi, wj) = if let Some(weights) = outward {
            weights
        } else if pass == Pass::Jammed {
            match (b.hot[i].inv_mass > 0.0, b.hot[j].inv_mass > 0.0) {
                (true, true) => (0.5, 0.5),
                (true, false) => (1.0, 0.0),
                _ => (0.0, 1.0),
            }
        } else if up == DVec2::ZERO {
            let w = b.hot[i].inv_mass + b.hot[j].inv_mass;
            (b.hot[i].inv_mass / w, b.hot[j].inv_mass / w)
        } else if (up.dot(b.hot[j].pos) >= up.dot(b.hot[i].pos) && b.hot[j].inv_mass > 0.0)
            || b.hot[i].inv_mass == 0.0
        {
            (0.0, 1.0)
        } else {
            (1.0, 0.0)
        };
        // Under gravity two smooth bodies go back to part of the slop rather than to
        // touching (see there).
        let depth = if up != DVec2::ZERO && !b.rough_pair(i, j) {
            m.depth - GRAVITY_PUSH_OUT_KEEP * slop * smaller
        } else {
            m.depth
        };
        b.hot[i].pos -= m.normal * (depth * wi);
        b.hot[j].pos += m.normal * (depth * wj);
        for (k, w) in [(i, wi), (j, wj)] {
            if w > 0.0 {
                self.pushed.push(k as u32);
            }
        }
        Some((wi, wj))
    }
}

/// The manifold of bodies `i` and `j` and the smaller radius, if they overlap deeper
/// than `slop` times it (the test of a push-out visit).
#[inline]
pub(crate) fn beyond_slop(
    b: &crate::bodies::Bodies,
    i: usize,
    j: usize,
    slop: f64,
) -> Option<(manifold::Manifold, f64)> {
    let (hi, hj) = (&b.hot[i], &b.hot[j]);
    let m = manifold::manifold(hi.pos, hi.radius, hj.pos, hj.radius, (i as u32, j as u32));
    let smaller = hi.radius.min(hj.radius);
    if m.depth <= slop * smaller {
        None
    } else {
        Some((m, smaller))
    }
}

/// Pushes body `i` (record `h`) out of every wall of `arena` it sinks into deeper than
/// `slop` times its radius; returns how many walls moved it. A circle more than its
/// radius outside is noted in `issues` if its centre was outside at the start of the
/// step too (`outside_at_start`, sorted: placed there by the game; the step's own way
/// out, a body driven through a wall in a step that fell back, say, is not input).
#[inline]
pub(crate) fn push_out_of_walls(
    arena: &Arena,
    slop: f64,
    i: usize,
    h: &mut Hot,
    (issues, outside_at_start): (&mut Vec<(u32, InputIssues)>, &[u32]),
) -> usize {
    if h.inv_mass == 0.0 || h.sensor() {
        return 0;
    }
    // Most bodies are at least their radius from every wall: nothing sinks in (the same
    // differences as `Arena::depth`, so the shortcut changes no result).
    let r = DVec2::splat(h.radius);
    if slop >= 0.0 && (h.pos - arena.min).cmpge(r).all() && (arena.max - h.pos).cmpge(r).all() {
        return 0;
    }
    let mut moved = 0;
    for wall in Wall::ALL {
        let depth = arena.depth(wall, h.pos, h.radius);
        if depth > h.radius && outside_at_start.binary_search(&(i as u32)).is_ok() {
            issues.push((i as u32, InputIssues::OUTSIDE_ARENA));
        }
        if depth > slop * h.radius {
            h.pos -= wall.outward_normal() * depth;
            moved += 1;
        }
    }
    moved
}

mod listing;

#[cfg(test)]
mod tests;
