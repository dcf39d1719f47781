//! Debug drawing with gizmos (feature `debug-render`): colliders, velocities, contact
//! points and normals of recent impacts, the broad-phase grid, the arena.

use crate::components::CircleCollider;
use crate::config::CircleCollideConfig;
use crate::events::{CollisionEvent, CollisionTarget};
use crate::world::CircleCollideWorld;
use bevy::color::palettes::css;
use bevy::prelude::*;

/// What the debug plugin draws; change it at run time.
///
/// ```
/// # use bevy::prelude::*;
/// use bevy_circle_collide::{CircleCollideDebugConfig, CircleCollideDebugPlugin};
/// App::new()
///     .add_plugins(CircleCollideDebugPlugin)
///     .insert_resource(CircleCollideDebugConfig { grid: true, ..default() });
/// ```
#[derive(Resource, Reflect, Clone, Debug, PartialEq)]
#[reflect(Resource, Debug, Default)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct CircleCollideDebugConfig {
    /// Outline every collider. Default `true`.
    pub colliders: bool,
    /// A radius line in each outlined collider at its orientation, so rotation shows.
    /// Default `true`.
    #[cfg_attr(feature = "serialize", serde(default = "yes"))]
    pub orientation: bool,
    /// Velocity arrows, drawn `velocity_scale` seconds long. Default `false`.
    pub velocities: bool,
    /// Seconds of motion an arrow shows. Default `0.25`.
    pub velocity_scale: f32,
    /// Contact point and normal of each impact, kept `contact_lifetime` seconds. Default `true`.
    pub contacts: bool,
    /// How long an impact stays drawn, seconds. Default `0.5`.
    pub contact_lifetime: f32,
    /// Length of a drawn contact normal, world units, at most the smaller radius of the
    /// impact's circles. Default `0.4`.
    pub contact_size: f32,
    /// The broad-phase grid over the arena (or the bodies' bounds). Default `false`.
    pub grid: bool,
    /// The arena walls. Default `true`.
    pub arena: bool,
}

impl Default for CircleCollideDebugConfig {
    fn default() -> Self {
        Self {
            colliders: true,
            orientation: true,
            velocities: false,
            velocity_scale: 0.25,
            contacts: true,
            contact_lifetime: 0.5,
            contact_size: 0.4,
            grid: false,
            arena: true,
        }
    }
}

/// Impacts still drawn: (point, normal, size, seconds left).
#[derive(Resource, Default)]
struct RecentImpacts(Vec<(Vec2, Vec2, f32, f32)>);

/// Draws the collision world with gizmos, after each step's results are written back.
/// Needs a renderer (`DefaultPlugins`); configure it with [`CircleCollideDebugConfig`].
pub struct CircleCollideDebugPlugin;

impl Plugin for CircleCollideDebugPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<CircleCollideDebugConfig>()
            .init_resource::<RecentImpacts>()
            .register_type::<CircleCollideDebugConfig>()
            .add_systems(
                PostUpdate,
                (record_impacts, draw)
                    .chain()
                    .after(bevy::transform::TransformSystems::Propagate),
            );
    }
}

/// Ages the drawn impacts and adds this frame's (with their marker size).
fn record_impacts(
    debug: Res<CircleCollideDebugConfig>,
    time: Res<Time>,
    mut hits: MessageReader<CollisionEvent>,
    mut recent: ResMut<RecentImpacts>,
    colliders: Query<&CircleCollider>,
) {
    let dt = time.delta_secs();
    recent.0.retain_mut(|(_, _, _, left)| {
        *left -= dt;
        *left > 0.0
    });
    if !debug.contacts {
        hits.clear();
        return;
    }
    // A marker is never larger than the smaller circle of its impact, so a small fast
    // body is not hidden under its own impacts.
    let radius = |e: Entity| colliders.get(e).map_or(f32::INFINITY, |c| c.radius);
    recent.0.extend(hits.read().map(|h| {
        let smaller = match h.b {
            CollisionTarget::Body(b) => radius(h.a).min(radius(b)),
            CollisionTarget::Wall(_) | CollisionTarget::Level { .. } => radius(h.a),
        };
        let size = debug.contact_size.min(smaller);
        (h.point, h.normal, size, debug.contact_lifetime)
    }));
}

fn draw(
    mut gizmos: Gizmos,
    debug: Res<CircleCollideDebugConfig>,
    config: Option<Res<CircleCollideConfig>>,
    world: Option<Res<CircleCollideWorld>>,
    recent: Res<RecentImpacts>,
) {
    let (Some(world), Some(config)) = (world, config) else {
        return;
    };
    let sim = world.simulation();
    let b = sim.bodies();
    let positions = b.positions().map(|p| p.as_vec2());
    if debug.colliders {
        for (i, (p, r)) in positions.clone().zip(b.radii()).enumerate() {
            let color = if b.is_sensor(i) {
                css::YELLOW
            } else if b.inverse_mass(i) == 0.0 {
                css::GRAY
            } else {
                css::LIGHT_GREEN
            };
            gizmos.circle_2d(Isometry2d::from_translation(p), r as f32, color);
            if debug.orientation {
                let tip = p + Vec2::from_angle(b.angle(i) as f32) * r as f32;
                gizmos.line_2d(p, tip, color);
            }
        }
    }
    if debug.velocities {
        for (p, v) in positions.clone().zip(b.velocities()) {
            gizmos.arrow_2d(p, p + v.as_vec2() * debug.velocity_scale, css::ORANGE);
        }
    }
    if debug.contacts {
        for (point, normal, size, left) in &recent.0 {
            let fade = (left / debug.contact_lifetime).clamp(0.0, 1.0);
            gizmos.circle_2d(
                Isometry2d::from_translation(*point),
                0.15 * size,
                css::RED.with_alpha(fade),
            );
            gizmos.arrow_2d(*point, *point + *normal * *size, css::RED.with_alpha(fade));
        }
    }
    let bounds = config.arena.map(|a| (a.min, a.max)).or_else(|| {
        let (lo, hi) = positions.fold((Vec2::MAX, Vec2::MIN), |(lo, hi), p| (lo.min(p), hi.max(p)));
        (lo.x <= hi.x).then_some((lo, hi))
    });
    if debug.arena
        && let Some(a) = config.arena
    {
        gizmos.rect_2d(
            Isometry2d::from_translation((a.min + a.max) / 2.0),
            a.max - a.min,
            css::WHITE,
        );
    }
    if debug.grid
        && let Some((lo, hi)) = bounds
    {
        let cell = sim.grid_cell_size() as f32;
        // At most 200 lines a side, so a tiny cell cannot flood the frame.
        if cell > 0.0 && ((hi - lo) / cell).max_element() < 200.0 {
            let color = css::STEEL_BLUE.with_alpha(0.35);
            let mut x = (lo.x / cell).floor() * cell;
            while x <= hi.x {
                gizmos.line_2d(Vec2::new(x, lo.y), Vec2::new(x, hi.y), color);
                x += cell;
            }
            let mut y = (lo.y / cell).floor() * cell;
            while y <= hi.y {
                gizmos.line_2d(Vec2::new(lo.x, y), Vec2::new(hi.x, y), color);
                y += cell;
            }
        }
    }
}

/// Serde default of fields that default to `true`.
#[cfg(feature = "serialize")]
fn yes() -> bool {
    true
}
