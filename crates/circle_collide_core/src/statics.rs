//! What every phase asks of a body's static partners, the arena walls and the level
//! segments, named by their codes in the queue ([`wall_code`], [`segment_code`]): which
//! lie near a path, where a body touches one, and with what material.

use crate::queue::{code_segment, code_wall, segment_code, wall_code};
use crate::simulation::Simulation;
use glam::DVec2;

/// Where a body touches a static partner.
#[derive(Clone, Copy, Debug)]
pub(crate) struct StaticTouch {
    /// The partner's code.
    pub code: u32,
    /// Closest point of the partner (the contact point).
    pub point: DVec2,
    /// Unit normal from the body's centre into the partner.
    pub normal: DVec2,
    /// Overlap (positive) or gap (negative).
    pub depth: f64,
    /// The partner's restitution and friction (to combine with the body's).
    pub restitution: f64,
    pub friction: f64,
}

impl StaticTouch {
    /// Where a circle at `p` of radius `r` touches `wall` of `arena`.
    #[inline]
    fn wall(arena: &crate::Arena, wall: crate::Wall, p: DVec2, r: f64) -> Self {
        Self {
            code: wall_code(wall),
            point: arena.contact_point(wall, p),
            normal: wall.outward_normal(),
            depth: arena.depth(wall, p, r),
            restitution: arena.restitution,
            friction: arena.friction,
        }
    }

    /// Where a circle at `p` of radius `r`, moving at `v`, touches level segment `s`.
    #[inline]
    fn segment(seg: &crate::Segment, s: usize, p: DVec2, r: f64, v: DVec2) -> Self {
        let (point, normal, depth) = seg.contact(p, r, v);
        Self {
            code: segment_code(s),
            point,
            normal,
            depth,
            restitution: seg.restitution,
            friction: seg.friction,
        }
    }
}

impl Simulation {
    /// Calls `visit` with where body `i` (at `p`, moving at `v`) touches each static
    /// partner it may meet whose box overlaps `[min, max]` widened by `margin`: every
    /// wall of the arena unless the box keeps clear of them all, and the segments of the
    /// level the body's layers accept.
    #[inline]
    pub(crate) fn visit_statics(
        &self,
        i: usize,
        (p, v): (DVec2, DVec2),
        (min, max): (DVec2, DVec2),
        margin: f64,
        mut visit: impl FnMut(StaticTouch),
    ) {
        let r = self.bodies.hot[i].radius;
        if let Some(arena) = self.config.arena
            && !arena.keeps_clear(min, max, margin)
        {
            for wall in crate::Wall::ALL {
                visit(StaticTouch::wall(&arena, wall, p, r));
            }
        }
        if self.level.is_empty() {
            return;
        }
        let layers = self.bodies.layers[i];
        let segments = self.level.segments();
        let pad = DVec2::splat(margin);
        self.level.visit(min - pad, max + pad, |s| {
            let seg = &segments[s];
            if !layers.interacts(seg.layers) || self.level.defers(s, p) {
                return;
            }
            visit(StaticTouch::segment(seg, s, p, r, v));
        });
    }

    /// Restitution and friction of the static partner `code`.
    pub(crate) fn static_material(&self, code: u32) -> (f64, f64) {
        static_material(&self.level, self.config.arena.as_ref(), code)
    }

    /// The restitution of body `i` against the static partner `code`, combined by the
    /// configured rule (what [`Bodies::pair_restitution`](crate::bodies::Bodies::pair_restitution)
    /// is for two bodies).
    pub(crate) fn static_restitution(&self, i: usize, code: u32) -> f64 {
        let wall = self.static_material(code).0;
        (self.config.restitution_combine).combine(self.bodies.restitution[i], wall)
    }

    /// Where body `i` at `p` (moving at `v`) touches the static partner `code`.
    pub(crate) fn static_touch(&self, i: usize, code: u32, p: DVec2, v: DVec2) -> StaticTouch {
        let r = self.bodies.hot[i].radius;
        if let Some(s) = code_segment(code) {
            return StaticTouch::segment(&self.level.segments()[s], s, p, r, v);
        }
        let wall = code_wall(code).expect("a static code names a wall or a segment");
        let arena = self.config.arena.unwrap_or(crate::Arena::new(p, p));
        StaticTouch::wall(&arena, wall, p, r)
    }

    /// Time from `now`, within the step, of body `i`'s first touch with the static
    /// partner `code` along its path (position `p`, velocity `v`, acceleration `g`).
    pub(crate) fn static_hit_time(
        &self,
        i: usize,
        code: u32,
        p: DVec2,
        v: DVec2,
        now: f64,
    ) -> Option<f64> {
        let (r, g) = (self.bodies.hot[i].radius, self.bodies.acceleration(i));
        let s = match code_segment(code) {
            Some(s) => self.level.segments()[s].time_of_impact(p, v, g, r, self.dt - now),
            None => self
                .config
                .arena
                .and_then(|arena| arena.hit_time(code_wall(code)?, p, v, g, r)),
        }?;
        (now + s <= self.dt).then_some(s)
    }
}

/// Pushes body `h` (layers `layers`) out of every level segment it sinks into deeper
/// than `slop` times its radius, towards the side its centre is on; returns how many
/// segments moved it. A segment has no thickness: a body whose centre went across one
/// since `start` (its position at the start of the step, with a level) — driven by the
/// push-out, a kinematic body or a step that fell back, never by the event loop — is
/// first put back touching it on the side it started on ([`put_back_across`]).
#[inline]
pub(crate) fn push_out_of_segments(
    level: &crate::level::Level,
    layers: crate::Layers,
    slop: f64,
    h: &mut crate::bodies::Hot,
    start: Option<DVec2>,
) -> usize {
    if level.is_empty() || h.inv_mass == 0.0 || h.sensor() {
        return 0;
    }
    let reach = DVec2::splat(h.radius);
    let mut moved = put_back_across(level, layers, start, &mut h.pos, h.radius);
    level.visit(h.pos - reach, h.pos + reach, |s| {
        let seg = &level.segments()[s];
        if !layers.interacts(seg.layers) || level.defers(s, h.pos) {
            return;
        }
        let (_, n, depth) = seg.contact(h.pos, h.radius, h.vel);
        if depth > slop * h.radius {
            h.pos -= n * depth;
            moved += 1;
        }
    });
    moved
}

/// Puts a circle of `radius` at `pos` whose centre went straight across a level segment
/// (between its ends) since `start` back touching it on the side it started on, segment
/// after segment; returns how many moved it. Nothing if the circle is less than half its
/// radius from `start`: one that started clear of a segment (less than half its radius
/// deep) travels at least that far to cross it.
fn put_back_across(
    level: &crate::level::Level,
    layers: crate::Layers,
    start: Option<DVec2>,
    pos: &mut DVec2,
    radius: f64,
) -> usize {
    let Some(start) = start.filter(|&p| (*pos - p).length_squared() >= 0.25 * radius * radius)
    else {
        return 0;
    };
    let reach = DVec2::splat(radius);
    let mut moved = 0;
    level.visit(start.min(*pos) - reach, start.max(*pos) + reach, |s| {
        let seg = &level.segments()[s];
        if layers.interacts(seg.layers)
            && !level.defers(s, *pos)
            && let Some(back) = seg.back_across(start, *pos, radius)
        {
            *pos = back;
            moved += 1;
        }
    });
    moved
}

/// Body `i`'s position at the start of the step if it was awake then (`starts`:
/// [`Simulation::level_starts`], in index order).
#[inline]
pub(crate) fn level_start(starts: &[(u32, DVec2)], i: usize) -> Option<DVec2> {
    if starts.is_empty() {
        return None;
    }
    let k = starts.binary_search_by_key(&(i as u32), |e| e.0).ok()?;
    Some(starts[k].1)
}

/// Whether body `h` (layers `layers`) sinks into a level segment deeper than `slop` times
/// its radius, or went across one since `start` (what [`push_out_of_segments`] would fix).
pub(crate) fn sunk_in_segment(
    level: &crate::level::Level,
    layers: crate::Layers,
    slop: f64,
    h: &crate::bodies::Hot,
    start: Option<DVec2>,
) -> bool {
    if level.is_empty() || h.inv_mass == 0.0 || h.sensor() {
        return false;
    }
    let reach = DVec2::splat(h.radius);
    let mut pos = h.pos; // a copy: this only asks
    let mut sunk = put_back_across(level, layers, start, &mut pos, h.radius) > 0;
    level.visit(h.pos - reach, h.pos + reach, |s| {
        let seg = &level.segments()[s];
        sunk |= layers.interacts(seg.layers)
            && !level.defers(s, h.pos)
            && seg.contact(h.pos, h.radius, h.vel).2 > slop * h.radius;
    });
    sunk
}

/// Restitution and friction of the static partner `code` of `level` and `arena`.
pub(crate) fn static_material(
    level: &crate::level::Level,
    arena: Option<&crate::Arena>,
    code: u32,
) -> (f64, f64) {
    match code_segment(code) {
        Some(s) => {
            let seg = &level.segments()[s];
            (seg.restitution, seg.friction)
        }
        None => arena.map_or((0.0, 0.0), |a| (a.restitution, a.friction)),
    }
}
