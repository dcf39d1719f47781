//! Presets: a configuration plus a scene to spawn, as RON text files (feature `serialize`).

use crate::components::Mass;
use crate::config::{ArenaConfig, CircleCollideConfig};
use bevy::prelude::*;
use circle_collide_core::scenes::SplitMix64;
use std::f32::consts::{PI, TAU};
use std::path::Path;

/// The kinds of scene a [`SceneSpec`] builds.
#[derive(
    Reflect, Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize,
)]
#[reflect(Debug, PartialEq, Default)]
pub enum SceneKind {
    /// Circles on a jittered lattice at packing fraction 0.3, random directions.
    #[default]
    Gas,
    /// Circles at rest on a lattice of spacing 2.2 r, each shifted sideways by up to
    /// ±0.05 r (design §5's jittered pile), dropped into a box.
    Pile,
    /// A pool break: 15 balls racked in a triangle, the cue ball shot at them.
    Billiards,
    /// Newton's cradle: a row with tiny gaps, the first one moving.
    Cradle,
    /// A small fast circle shot into a row of touching circles and a wall.
    Bullet,
}

/// What to spawn. Ranges are `[min, max]`, drawn uniformly from a fixed seed.
#[derive(Reflect, Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[reflect(Debug, PartialEq, Default)]
#[serde(default)]
pub struct SceneSpec {
    /// The layout.
    pub kind: SceneKind,
    /// Number of circles (billiards always has 16; bullet uses `count − 1` for the row).
    pub count: usize,
    /// Radius range.
    pub radius: [f32; 2],
    /// Mass range; `None` = `Mass::Auto` (density × area).
    pub mass: Option<[f32; 2]>,
    /// Speed of the moving circles, units/s.
    pub speed: f32,
    /// Seed of the draws.
    pub seed: u64,
}

impl SceneKind {
    /// Every kind, in menu order.
    pub const ALL: [SceneKind; 5] = [
        SceneKind::Gas,
        SceneKind::Pile,
        SceneKind::Billiards,
        SceneKind::Cradle,
        SceneKind::Bullet,
    ];
}

impl Default for SceneSpec {
    fn default() -> Self {
        Self {
            kind: SceneKind::Gas,
            count: 1000,
            radius: [0.5, 0.5],
            mass: None,
            speed: 10.0,
            seed: 42,
        }
    }
}

/// One circle to spawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpawnBody {
    /// Centre.
    pub position: Vec2,
    /// Velocity.
    pub velocity: Vec2,
    /// Radius.
    pub radius: f32,
    /// Mass.
    pub mass: Mass,
}

impl SceneSpec {
    /// The circles and the arena around them.
    ///
    /// ```
    /// use bevy_circle_collide::preset::{SceneKind, SceneSpec};
    /// let (bodies, arena) = SceneSpec { kind: SceneKind::Billiards, ..Default::default() }.build();
    /// assert_eq!(bodies.len(), 16);
    /// assert!(bodies.iter().all(|b| b.position.cmpgt(arena.min).all() && b.position.cmplt(arena.max).all()));
    /// ```
    pub fn build(&self) -> (Vec<SpawnBody>, ArenaConfig) {
        let mut rng = SplitMix64(self.seed);
        let (lo, hi) = (
            self.radius[0].min(self.radius[1]).max(1e-3),
            self.radius[0].max(self.radius[1]).max(1e-3),
        );
        let mut draw = |a: f32, b: f32| a + (b - a) * rng.next_unit() as f32;
        let n = self.count.max(1);
        let mut bodies = Vec::with_capacity(n);
        let mass = |rng_draw: &mut dyn FnMut(f32, f32) -> f32| match self.mass {
            None => Mass::Auto,
            Some([a, b]) => Mass::Fixed(rng_draw(a.min(b), a.max(b))),
        };
        let arena = match self.kind {
            SceneKind::Gas => {
                let mean = 0.5 * (lo + hi);
                let k = (n as f32).sqrt().ceil();
                let spacing = (n as f32 * PI * mean * mean / 0.3).sqrt() / k;
                let spacing = spacing.max(2.2 * hi);
                for p in 0..n {
                    let cell = Vec2::new((p % k as usize) as f32, (p / k as usize) as f32);
                    let r = draw(lo, hi);
                    let room = 0.2 * (spacing - 2.0 * r).max(0.0);
                    let jitter = Vec2::new(draw(-room, room), draw(-room, room));
                    let dir = Vec2::from_angle(draw(0.0, TAU));
                    let m = mass(&mut draw);
                    bodies.push(SpawnBody {
                        position: (cell + 0.5) * spacing + jitter,
                        velocity: dir * self.speed,
                        radius: r,
                        mass: m,
                    });
                }
                ArenaConfig {
                    min: Vec2::ZERO,
                    max: Vec2::splat(k * spacing),
                    restitution: 1.0,
                    friction: 0.0,
                }
            }
            SceneKind::Pile => {
                let spacing = 2.2 * hi;
                let width = (1.5 * (n as f32).sqrt()).ceil() * 2.0 * hi;
                let cols = ((width / spacing).floor() as usize).max(1);
                for p in 0..n {
                    let cell = Vec2::new((p % cols) as f32, (p / cols) as f32);
                    let r = draw(lo, hi);
                    let m = mass(&mut draw);
                    // Jittered by ±0.05 of the radius (as design §5's pile): a perfect
                    // lattice stacks into columns that never touch sideways.
                    let jitter = Vec2::new(draw(-0.05 * hi, 0.05 * hi), 0.0);
                    bodies.push(SpawnBody {
                        position: (cell + 0.5) * spacing + jitter,
                        velocity: Vec2::ZERO,
                        radius: r,
                        mass: m,
                    });
                }
                let rows = n.div_ceil(cols) as f32;
                ArenaConfig {
                    min: Vec2::ZERO,
                    max: Vec2::new(width, rows * spacing + width),
                    restitution: 0.0,
                    friction: 0.0,
                }
            }
            SceneKind::Billiards => {
                let r = lo;
                let size = Vec2::new(80.0 * r, 40.0 * r);
                let apex = Vec2::new(size.x * 0.7, size.y * 0.5);
                for row in 0..5 {
                    for k in 0..=row {
                        let offset = Vec2::new(
                            row as f32 * r * 3f32.sqrt(),
                            (k as f32 - row as f32 / 2.0) * 2.0 * r,
                        );
                        // A hair apart, so the break is a cascade of exact impacts.
                        bodies.push(SpawnBody {
                            position: apex + offset * 1.0005,
                            velocity: Vec2::ZERO,
                            radius: r,
                            mass: Mass::Auto,
                        });
                    }
                }
                let cue = Vec2::new(size.x * 0.25, size.y * 0.5 + 0.02 * r);
                bodies.push(SpawnBody {
                    position: cue,
                    velocity: Vec2::new(self.speed, 0.0),
                    radius: r,
                    mass: Mass::Auto,
                });
                ArenaConfig {
                    min: Vec2::ZERO,
                    max: size,
                    restitution: 0.9,
                    friction: 0.0,
                }
            }
            SceneKind::Cradle => {
                let r = lo;
                for k in 0..n {
                    let v = if k == 0 {
                        Vec2::new(self.speed, 0.0)
                    } else {
                        Vec2::ZERO
                    };
                    bodies.push(SpawnBody {
                        position: Vec2::new(4.0 * r + k as f32 * 2.001 * r, 4.0 * r),
                        velocity: v,
                        radius: r,
                        mass: Mass::Auto,
                    });
                }
                ArenaConfig {
                    min: Vec2::ZERO,
                    max: Vec2::new(8.0 * r + n as f32 * 2.001 * r + 20.0 * r, 8.0 * r),
                    restitution: 1.0,
                    friction: 0.0,
                }
            }
            SceneKind::Bullet => {
                let row = n.saturating_sub(1).max(1);
                // Touching up to a hair (1e-4 r), so f32 rounding never makes them overlap.
                let pitch = 2.0001 * hi;
                let right = pitch * row as f32 + 4.0 * hi;
                bodies.push(SpawnBody {
                    position: Vec2::new(hi, 4.0 * hi),
                    velocity: Vec2::new(self.speed, 0.0),
                    radius: 0.1 * lo,
                    mass: Mass::Auto,
                });
                for k in 0..row {
                    bodies.push(SpawnBody {
                        position: Vec2::new(right - hi - pitch * k as f32, 4.0 * hi),
                        velocity: Vec2::ZERO,
                        radius: hi,
                        mass: Mass::Auto,
                    });
                }
                ArenaConfig {
                    min: Vec2::ZERO,
                    max: Vec2::new(right, 8.0 * hi),
                    restitution: 1.0,
                    friction: 0.0,
                }
            }
        };
        (bodies, arena)
    }
}

/// A named configuration and scene, stored as a RON file.
///
/// ```
/// use bevy_circle_collide::preset::Preset;
/// let preset = Preset::default();
/// let text = preset.to_ron();
/// assert_eq!(Preset::from_ron(&text), Ok(preset));
/// let err = Preset::from_ron("(config: (gravity: oops))").unwrap_err();
/// assert!(err.contains("1:"), "the error gives its line and column: {err}");
/// ```
#[derive(Reflect, Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[reflect(Debug, PartialEq, Default)]
#[serde(default)]
pub struct Preset {
    /// The collision configuration (its arena is replaced by the scene's when spawned).
    pub config: CircleCollideConfig,
    /// What to spawn.
    pub scene: SceneSpec,
    /// Level geometry to spawn, in world coordinates (each as an entity with an
    /// identity `Transform`).
    pub level: Vec<crate::LevelCollider>,
}

impl Preset {
    /// Parses RON text; the error is one readable line with its position.
    pub fn from_ron(text: &str) -> Result<Self, String> {
        ron::from_str(text).map_err(|e| format!("{e}"))
    }

    /// Pretty RON text.
    pub fn to_ron(&self) -> String {
        ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default())
            .expect("presets always serialize")
    }

    /// Reads a preset file.
    pub fn load(path: &Path) -> Result<Self, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Self::from_ron(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Writes a preset file.
    pub fn save(&self, path: &Path) -> Result<(), String> {
        std::fs::write(path, self.to_ron()).map_err(|e| format!("{}: {e}", path.display()))
    }
}
