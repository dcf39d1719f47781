//! The core's double-precision motion of a body, kept on its entity between steps.

use bevy::math::DVec2;
use bevy::prelude::*;

/// A body's position, velocity, spin and angle in the core's double precision, as the
/// last step left them. Added with every [`CircleCollider`](crate::CircleCollider) and
/// kept up to date by the plugin; games read and write `Transform`,
/// [`Velocity`](crate::Velocity) and [`AngularVelocity`](crate::AngularVelocity) as usual.
///
/// Why: the plugin steps in `f64` but `Transform` and `Velocity` hold `f32`. Without this
/// component every step would restart from the rounded values, and in a deep pile those
/// roundings, step after step, keep bodies creeping that would otherwise come to rest.
/// The next step starts from these values as long as the body's `f32` components still
/// hold them rounded; a value the game changed (a teleport, a new velocity) is taken from
/// the game's component instead, for that quantity alone.
///
/// The plugin writes it every step without change detection (`Changed<PreciseMotion>`
/// does not see the plugin's writes; watch `Transform` instead).
///
/// A rollback that restores `Transform` and `Velocity` should restore this component too
/// (it is `Reflect` and, with the `serialize` feature, serde), or results re-simulate only
/// to `f32` precision.
///
/// ```
/// # use bevy::prelude::*;
/// use bevy_circle_collide::prelude::*;
/// fn exact_height(bodies: Query<&PreciseMotion>) -> Option<f64> {
///     bodies.iter().map(|m| m.position.y).reduce(f64::max)
/// }
/// # App::new().add_systems(Update, |q: Query<&PreciseMotion>| { exact_height(q); });
/// ```
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq)]
#[reflect(Component, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct PreciseMotion {
    /// Centre, world units.
    pub position: DVec2,
    /// Linear velocity, world units per second.
    pub velocity: DVec2,
    /// Angular velocity, radians per second counter-clockwise.
    pub angular_velocity: f64,
    /// Angle of rotation about z, radians counter-clockwise in `[-π, π)`: the angle whose
    /// rotation the plugin last wrote into `Transform` (0 until it writes one; a body
    /// that never turns keeps the rotation the game gave it).
    #[cfg_attr(feature = "serialize", serde(default))]
    pub angle: f64,
}

impl PreciseMotion {
    /// The position to step from: this one if `translation` is it rounded, else the game's.
    pub(crate) fn position_from(&self, translation: Vec2) -> DVec2 {
        unless_changed(self.position, translation)
    }

    /// The velocity to step from: this one if `velocity` is it rounded, else the game's.
    pub(crate) fn velocity_from(&self, velocity: Vec2) -> DVec2 {
        unless_changed(self.velocity, velocity)
    }

    /// The spin to step from: this one if `omega` is it rounded, else the game's.
    pub(crate) fn spin_from(&self, omega: f32) -> f64 {
        if self.angular_velocity as f32 == omega {
            self.angular_velocity
        } else {
            f64::from(omega)
        }
    }

    /// The angle to step from: this one if `rotation` is still the rotation the plugin
    /// wrote for it, else the game's (about z). Most bodies never turn: no trigonometry
    /// for them.
    pub(crate) fn angle_from(&self, rotation: Quat) -> f64 {
        if rotation == Quat::IDENTITY {
            0.0
        } else if Quat::from_rotation_z(self.angle as f32) == rotation {
            self.angle
        } else {
            f64::from(rotation.to_euler(EulerRot::ZYX).0)
        }
    }
}

/// `kept` if the game's `f32` value is still it rounded (as the plugin wrote it), else the
/// game's value.
fn unless_changed(kept: DVec2, game: Vec2) -> DVec2 {
    if kept.as_vec2() == game {
        kept
    } else {
        game.as_dvec2()
    }
}
