//! The optional axis-aligned arena whose four walls bound the world (seed 001's screen edges).

use crate::parabolic_toi::wall_time_of_impact_accelerated;
use crate::toi::wall_time_of_impact;
use glam::DVec2;

/// One of the four arena walls.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub enum Wall {
    /// `x = min.x` (also the `Default`, needed by reflection in the plugin).
    #[default]
    Left,
    /// `x = max.x`.
    Right,
    /// `y = min.y`.
    Bottom,
    /// `y = max.y`.
    Top,
}

impl Wall {
    /// All four walls.
    pub const ALL: [Wall; 4] = [Wall::Left, Wall::Right, Wall::Bottom, Wall::Top];

    /// Unit normal pointing from the inside of the arena into the wall.
    pub fn outward_normal(self) -> DVec2 {
        match self {
            Wall::Left => DVec2::NEG_X,
            Wall::Right => DVec2::X,
            Wall::Bottom => DVec2::NEG_Y,
            Wall::Top => DVec2::Y,
        }
    }
}

/// Axis-aligned box `[min, max]`; circles stay inside it.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct Arena {
    /// Lower-left corner.
    pub min: DVec2,
    /// Upper-right corner.
    pub max: DVec2,
    /// Restitution of the walls, combined with the body's by the configured rule.
    /// With the default `Max` rule, `0.0` means "the body's own restitution".
    pub restitution: f64,
    /// Coulomb friction of the walls, combined with the body's by the configured rule
    /// ([`StepConfig::friction_combine`](crate::StepConfig::friction_combine)). With the
    /// default `Max` rule, `0.0` means "the body's own friction". Default 0.
    #[cfg_attr(feature = "serialize", serde(default))]
    pub friction: f64,
}

impl Arena {
    /// A box from `min` to `max` whose walls take the body's restitution (under `Max`).
    pub fn new(min: DVec2, max: DVec2) -> Self {
        Self {
            min,
            max,
            restitution: 0.0,
            friction: 0.0,
        }
    }

    /// The same arena with wall friction (see [`Arena::friction`]).
    pub fn with_friction(mut self, friction: f64) -> Self {
        self.friction = friction;
        self
    }

    /// Whether a circle reaching `reach` from its centre stays strictly inside the
    /// arena, clear of every wall, all along the segment from `from` to `to`.
    #[inline]
    pub(crate) fn keeps_clear(&self, from: DVec2, to: DVec2, reach: f64) -> bool {
        let reach = DVec2::splat(reach);
        (from.min(to) - reach).cmpgt(self.min).all() && (from.max(to) + reach).cmplt(self.max).all()
    }

    /// The wall's coordinate, axis index (0 = x, 1 = y) and side (−1 below, +1 above).
    fn wall_line(&self, wall: Wall) -> (f64, usize, f64) {
        match wall {
            Wall::Left => (self.min.x, 0, -1.0),
            Wall::Right => (self.max.x, 0, 1.0),
            Wall::Bottom => (self.min.y, 1, -1.0),
            Wall::Top => (self.max.y, 1, 1.0),
        }
    }

    /// Time at which a circle at `p` moving at `v` with acceleration `g` (zero for a
    /// straight line) touches `wall`, if it ever does.
    pub fn hit_time(&self, wall: Wall, p: DVec2, v: DVec2, g: DVec2, radius: f64) -> Option<f64> {
        let (line, axis, side) = self.wall_line(wall);
        if g[axis] == 0.0 {
            wall_time_of_impact(p[axis], v[axis], radius, line, side)
        } else {
            wall_time_of_impact_accelerated(p[axis], v[axis], g[axis], radius, line, side)
        }
    }

    /// Earliest wall hit of a circle, `(time, wall)`, ties broken in [`Wall::ALL`] order.
    pub fn earliest_hit(&self, p: DVec2, v: DVec2, g: DVec2, radius: f64) -> Option<(f64, Wall)> {
        self.earliest_hit_where(p, v, g, radius, |_| true)
    }

    /// [`earliest_hit`](Self::earliest_hit) among the walls `keep` accepts.
    pub fn earliest_hit_where(
        &self,
        p: DVec2,
        v: DVec2,
        g: DVec2,
        radius: f64,
        keep: impl Fn(Wall) -> bool,
    ) -> Option<(f64, Wall)> {
        let mut best: Option<(f64, Wall)> = None;
        for wall in Wall::ALL {
            if let Some(t) = self.hit_time(wall, p, v, g, radius)
                && keep(wall)
                && best.is_none_or(|(bt, _)| t < bt)
            {
                best = Some((t, wall));
            }
        }
        best
    }

    /// How deep a circle sits in `wall` (positive = overlapping the wall).
    pub fn depth(&self, wall: Wall, p: DVec2, radius: f64) -> f64 {
        let (line, axis, side) = self.wall_line(wall);
        radius - (line - p[axis]) * side
    }

    /// Whether the centre of a circle at `p` of `radius` lies beyond a wall (deeper in it
    /// than its radius), as the push-out reports it.
    pub(crate) fn centre_outside(&self, p: DVec2, radius: f64) -> bool {
        Wall::ALL
            .into_iter()
            .any(|wall| self.depth(wall, p, radius) > radius)
    }

    /// Contact point of a circle touching `wall`.
    pub fn contact_point(&self, wall: Wall, p: DVec2) -> DVec2 {
        let (line, axis, _) = self.wall_line(wall);
        let mut q = p;
        q[axis] = line;
        q
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn earliest_wall_and_depth() {
        let a = Arena::new(DVec2::ZERO, DVec2::new(10.0, 10.0));
        // Heading to the top-right corner, closer to the right wall.
        let (t, w) = a
            .earliest_hit(DVec2::new(8.0, 5.0), DVec2::new(1.0, 1.0), DVec2::ZERO, 1.0)
            .unwrap();
        assert_eq!((t, w), (1.0, Wall::Right));
        assert_eq!(a.depth(Wall::Right, DVec2::new(9.5, 5.0), 1.0), 0.5);
        assert_eq!(
            a.contact_point(Wall::Bottom, DVec2::new(3.0, 1.0)),
            DVec2::new(3.0, 0.0)
        );
        assert!(
            a.earliest_hit(DVec2::new(5.0, 5.0), DVec2::ZERO, DVec2::ZERO, 1.0)
                .is_none()
        );
    }
}
