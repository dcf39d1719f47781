//! What the in-step event loop reports.

use crate::arena::Wall;
use glam::DVec2;

/// What a body hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub enum Other {
    /// Another body, by index.
    Body(u32),
    /// An arena wall.
    Wall(Wall),
    /// A segment of the level geometry, by its index in
    /// [`Level::segments`](crate::level::Level::segments).
    Segment(u32),
}

/// What a static partner's code (a wall or a segment) names.
pub(crate) fn static_other(code: u32) -> Other {
    match crate::queue::code_segment(code) {
        Some(s) => Other::Segment(s as u32),
        None => Other::Wall(crate::queue::code_wall(code).expect("a wall code")),
    }
}

/// One impact, as handled inside a step.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct Impact {
    /// Time of impact from the start of the step, in `[0, dt]`.
    pub time: f64,
    /// The first body (for body pairs, the lower index).
    pub a: u32,
    /// What it hit.
    pub other: Other,
    /// Contact point at the moment of impact.
    pub point: DVec2,
    /// Unit normal from `a` towards the other.
    pub normal: DVec2,
    /// Impulse magnitude applied along the normal (momentum units).
    pub impulse: f64,
    /// Friction impulse (momentum units) applied to the other body along the tangent
    /// `(−normal.y, normal.x)` (and its opposite to `a`); 0 for smooth bodies. See
    /// [`friction`](crate::friction).
    #[cfg_attr(feature = "serialize", serde(default))]
    pub tangent_impulse: f64,
    /// Closing speed along the normal just before the impact.
    pub approach_speed: f64,
    /// A resting impact: approach speed at or below the resting threshold, handled with
    /// restitution 0 (see [`StepConfig::resting_speed`](crate::StepConfig::resting_speed)).
    pub resting: bool,
    /// A sensor's entry: no impulse was applied (`impulse` is 0), nothing changed course.
    pub sensor: bool,
}
