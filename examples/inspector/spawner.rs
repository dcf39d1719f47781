//! The spawner: presets on disk, (re)spawning scenes, circle colours.

use bevy::prelude::*;
use bevy_circle_collide::prelude::*;
use bevy_circle_collide::preset::Preset;
use std::path::PathBuf;

/// Folder of the preset files.
pub fn preset_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../assets/presets")
}

/// What colours the circles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorMode {
    /// Blue (slow) to red (fast).
    Speed,
    /// Light (light) to dark (heavy).
    Mass,
}

/// The inspector's editable state.
#[derive(Resource)]
pub struct Inspector {
    /// The preset being edited; its scene is what "Respawn" builds.
    pub preset: Preset,
    /// Name used by "Save current".
    pub save_name: String,
    /// Preset files found in the folder.
    pub files: Vec<String>,
    /// Last preset error or status, shown in the panel.
    pub status: Result<String, String>,
    /// Colouring.
    pub color_mode: ColorMode,
    /// Set to respawn the scene next frame.
    pub respawn: bool,
    /// The selected circle.
    pub selected: Option<Entity>,
}

/// Shared mesh and the colour ramp.
#[derive(Resource)]
pub struct Palette {
    mesh: Handle<Mesh>,
    ramp: Vec<Handle<ColorMaterial>>,
    selected: Handle<ColorMaterial>,
}

const RAMP: usize = 24;

pub fn plugin(app: &mut App) {
    app.add_systems(Startup, setup)
        .add_systems(Update, (respawn, (sync_scale, recolor)).chain())
        .add_systems(Update, draw_level);
}

fn setup(
    mut commands: Commands,
    args: Res<crate::Args>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    let ramp = (0..RAMP)
        .map(|k| {
            let t = k as f32 / (RAMP - 1) as f32;
            materials.add(ColorMaterial::from_color(Color::hsl(
                220.0 - 220.0 * t,
                0.75,
                0.55,
            )))
        })
        .collect();
    commands.insert_resource(Palette {
        mesh: meshes.add(Circle::new(1.0)),
        ramp,
        selected: materials.add(ColorMaterial::from_color(Color::WHITE)),
    });
    let mut inspector = Inspector {
        preset: Preset::default(),
        save_name: "my_preset".into(),
        files: Vec::new(),
        status: Ok(String::new()),
        color_mode: ColorMode::Speed,
        respawn: true,
        selected: None,
    };
    refresh_files(&mut inspector);
    load(&mut inspector, &args.preset);
    commands.insert_resource(inspector);
}

/// Lists the preset files.
pub fn refresh_files(inspector: &mut Inspector) {
    let mut files: Vec<String> = std::fs::read_dir(preset_dir())
        .map(|dir| {
            dir.filter_map(|e| e.ok()?.path().file_stem()?.to_str().map(String::from))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    inspector.files = files;
}

/// Loads `name` into the inspector and asks for a respawn; errors land in `status`.
pub fn load(inspector: &mut Inspector, name: &str) {
    match Preset::load(&preset_dir().join(format!("{name}.ron"))) {
        Ok(preset) => {
            inspector.preset = preset;
            inspector.save_name = name.to_string();
            inspector.status = Ok(format!("loaded {name}"));
            inspector.respawn = true;
        }
        Err(e) => inspector.status = Err(e),
    }
}

/// Saves the current preset (with the live configuration) as `save_name`.
pub fn save(inspector: &mut Inspector, config: &CircleCollideConfig) {
    let name: String = inspector
        .save_name
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == '_' || *c == '-')
        .collect();
    if name.is_empty() {
        inspector.status = Err("give the preset a name (letters, digits, _ or -)".into());
        return;
    }
    inspector.preset.config = config.clone();
    let path = preset_dir().join(format!("{name}.ron"));
    inspector.status = inspector
        .preset
        .save(&path)
        .map(|()| format!("saved {}", path.display()));
    refresh_files(inspector);
}

/// What a respawn clears: the circles and the level geometry.
type SceneEntity = Or<(With<CircleCollider>, With<LevelCollider>)>;

fn respawn(
    mut commands: Commands,
    mut inspector: ResMut<Inspector>,
    mut config: ResMut<CircleCollideConfig>,
    palette: Res<Palette>,
    old: Query<Entity, SceneEntity>,
    mut fit: ResMut<crate::camera::FitRequest>,
    mut history: ResMut<crate::stats::History>,
) {
    if !inspector.respawn {
        return;
    }
    inspector.respawn = false;
    // The plots start over with the new scene (its energy is the new reference).
    *history = default();
    inspector.selected = None;
    for e in &old {
        commands.entity(e).despawn();
    }
    let (bodies, arena) = inspector.preset.scene.build();
    *config = CircleCollideConfig {
        arena: Some(arena),
        ..inspector.preset.config.clone()
    };
    for piece in &inspector.preset.level {
        commands.spawn(piece.clone());
    }
    for b in bodies {
        commands.spawn((
            CircleCollider::new(b.radius),
            Transform::from_translation(b.position.extend(0.0)).with_scale(Vec3::splat(b.radius)),
            Velocity(b.velocity),
            b.mass,
            Mesh2d(palette.mesh.clone()),
            MeshMaterial2d(palette.ramp[0].clone()),
        ));
    }
    fit.0 = true;
}

/// Draws the level geometry (the preset's segments, boxes and polylines) as lines.
fn draw_level(mut gizmos: Gizmos, level: Query<(&LevelCollider, &Transform)>) {
    for (collider, transform) in &level {
        for s in collider.segments(transform) {
            gizmos.line_2d(s.a.as_vec2(), s.b.as_vec2(), Color::srgb(0.85, 0.85, 0.9));
        }
    }
}

/// Keeps the drawn size equal to the collider radius (edited in the panel).
fn sync_scale(mut q: Query<(&CircleCollider, &mut Transform), Changed<CircleCollider>>) {
    for (c, mut t) in &mut q {
        t.scale = Vec3::splat(c.radius.max(1e-3));
    }
}

fn recolor(
    inspector: Res<Inspector>,
    palette: Res<Palette>,
    config: Res<CircleCollideConfig>,
    mut q: Query<(
        Entity,
        &CircleCollider,
        &Velocity,
        &Mass,
        &mut MeshMaterial2d<ColorMaterial>,
    )>,
) {
    let value = |c: &CircleCollider, v: &Velocity, m: &Mass| match inspector.color_mode {
        ColorMode::Speed => v.0.length(),
        ColorMode::Mass => match m {
            Mass::Auto => config.density * std::f32::consts::PI * c.radius * c.radius,
            Mass::Fixed(m) => *m,
            Mass::Static => f32::INFINITY,
        },
    };
    let max = q
        .iter()
        .map(|(_, c, v, m, _)| value(c, v, m))
        .filter(|x| x.is_finite())
        .fold(1e-6, f32::max);
    for (e, c, v, m, mut material) in &mut q {
        let handle = if inspector.selected == Some(e) {
            &palette.selected
        } else {
            let t = (value(c, v, m) / max).clamp(0.0, 1.0);
            let t = if t.is_nan() { 1.0 } else { t };
            &palette.ramp[(t * (RAMP - 1) as f32).round() as usize]
        };
        if material.0 != *handle {
            material.0 = handle.clone();
        }
    }
}
