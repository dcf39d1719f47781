//! The camera: fits the arena, pans, zooms, and picks circles under the cursor.

use crate::spawner::Inspector;
use bevy::camera::CameraOutputMode;
use bevy::camera::visibility::RenderLayers;
use bevy::input::mouse::{AccumulatedMouseMotion, AccumulatedMouseScroll};
use bevy::prelude::*;
use bevy::render::render_resource::BlendState;
use bevy::window::PrimaryWindow;
use bevy_circle_collide::core::Layers;
use bevy_circle_collide::core::query::{QueryFilter, SpatialIndex};
use bevy_circle_collide::prelude::*;
use bevy_egui::{EguiGlobalSettings, PrimaryEguiContext};

/// Set to re-fit the camera to the arena.
#[derive(Resource, Default)]
pub struct FitRequest(pub bool);

/// Whether egui has the pointer this frame (set by the panel).
#[derive(Resource, Default)]
pub struct PointerOverUi(pub bool);

pub fn plugin(app: &mut App) {
    app.init_resource::<FitRequest>()
        .init_resource::<PointerOverUi>()
        .add_systems(Startup, spawn_cameras)
        .add_systems(Update, (fit, pan_zoom, pick));
}

/// The world camera, drawn in the viewport right of the panel, and a full-window camera
/// that draws only egui on top (so the panel is not shifted by the world's viewport).
fn spawn_cameras(mut commands: Commands, mut egui_settings: ResMut<EguiGlobalSettings>) {
    egui_settings.auto_create_primary_context = false;
    commands.spawn(Camera2d);
    commands.spawn((
        PrimaryEguiContext,
        Camera2d,
        RenderLayers::none(),
        Camera {
            order: 1,
            output_mode: CameraOutputMode::Write {
                blend_state: Some(BlendState::ALPHA_BLENDING),
                clear_color: ClearColorConfig::None,
            },
            clear_color: ClearColorConfig::Custom(Color::NONE),
            ..default()
        },
    ));
}

fn viewport_size(camera: &Camera, window: &Window) -> Vec2 {
    camera
        .viewport
        .as_ref()
        .map(|v| v.physical_size.as_vec2() / window.scale_factor())
        .unwrap_or(window.size())
}

fn fit(
    mut request: ResMut<FitRequest>,
    config: Res<CircleCollideConfig>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&Camera, &mut Transform, &mut Projection), Without<PrimaryEguiContext>>,
) {
    let Some(arena) = config.arena.filter(|_| request.0) else {
        return;
    };
    let (cam, mut transform, mut projection) = camera.into_inner();
    let size = viewport_size(cam, &window);
    if size.min_element() < 1.0 {
        return;
    }
    request.0 = false;
    let extent = (arena.max - arena.min) * 1.08;
    transform.translation = ((arena.min + arena.max) / 2.0).extend(transform.translation.z);
    if let Projection::Orthographic(ortho) = &mut *projection {
        ortho.scale = (extent / size).max_element();
    }
}

/// Whether the cursor is over the world's viewport (not over a panel) and egui does not
/// want the pointer: only then do the wheel, drags and clicks reach the world.
fn world_has_pointer(over_ui: &PointerOverUi, camera: &Camera, window: &Window) -> bool {
    let inside = match (window.cursor_position(), camera.logical_viewport_rect()) {
        (Some(cursor), Some(rect)) => rect.contains(cursor),
        _ => false,
    };
    inside && !over_ui.0
}

fn pan_zoom(
    over_ui: Res<PointerOverUi>,
    buttons: Res<ButtonInput<MouseButton>>,
    motion: Res<AccumulatedMouseMotion>,
    scroll: Res<AccumulatedMouseScroll>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&Camera, &mut Transform, &mut Projection), Without<PrimaryEguiContext>>,
) {
    let (cam, mut transform, mut projection) = camera.into_inner();
    if !world_has_pointer(&over_ui, cam, &window) {
        return;
    }
    let Projection::Orthographic(ortho) = &mut *projection else {
        return;
    };
    if buttons.any_pressed([MouseButton::Right, MouseButton::Middle]) {
        transform.translation.x -= motion.delta.x * ortho.scale;
        transform.translation.y += motion.delta.y * ortho.scale;
    }
    if scroll.delta.y != 0.0 {
        ortho.scale *= (1.0 - 0.1 * scroll.delta.y.clamp(-3.0, 3.0)).max(0.05);
    }
}

fn pick(
    over_ui: Res<PointerOverUi>,
    buttons: Res<ButtonInput<MouseButton>>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&Camera, &GlobalTransform), Without<PrimaryEguiContext>>,
    circles: Query<(Entity, &Transform, &CircleCollider)>,
    mut inspector: ResMut<Inspector>,
) {
    let (cam, cam_transform) = camera.into_inner();
    if !buttons.just_pressed(MouseButton::Left) || !world_has_pointer(&over_ui, cam, &window) {
        return;
    }
    let Some(cursor) = window.cursor_position() else {
        return;
    };
    // Window coordinates: `viewport_to_world_2d` takes the viewport's offset (right of the
    // panel) into account itself.
    let Ok(world) = cam.viewport_to_world_2d(cam_transform, cursor) else {
        return;
    };
    // The circles under the cursor, by the core's point query over the circles where they
    // are drawn now (the plugin's `SpatialQuery` sees the last physics step, and the
    // inspector is often paused, or was just respawned); of several, the one whose edge is
    // farthest from the cursor.
    let listed: Vec<(Entity, Vec2, f32)> = (circles.iter())
        .map(|(e, t, c)| (e, t.translation.truncate(), c.radius))
        .collect();
    let index = SpatialIndex::from_circles(
        (listed.iter())
            .map(|&(_, p, r)| (p.as_dvec2(), f64::from(r)))
            .collect(),
        vec![Layers::ALL; listed.len()],
        vec![false; listed.len()],
        None,
    );
    let depth = |k: u32| listed[k as usize].1.distance(world) - listed[k as usize].2;
    inspector.selected = (index
        .point(world.as_dvec2(), &QueryFilter::default())
        .into_iter())
    .min_by(|&a, &b| depth(a).total_cmp(&depth(b)))
    .map(|k| listed[k as usize].0);
}
