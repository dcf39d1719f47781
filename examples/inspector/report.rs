//! `--report PATH`: each frame, writes what a test driving the inspector with synthetic
//! input checks against (`scripts/screenshot.sh` clicks and scrolls with xdotool): the
//! frame, a target circle (the one nearest the middle of the view) with its place in
//! window coordinates, the selected circle, the world camera's scale and centre, and the
//! energy plot's centre and the range it shows, the default-friction slider's value
//! and place, and how many frames changed the `CircleCollideConfig` (a change wakes every
//! sleeping body, so the panel must not rewrite an unchanged configuration) and how many
//! changed a body's editable components (a write ends idle steps).
//! `--paused` starts with time paused, so the circles stay where the report says.

use crate::Args;
use crate::spawner::Inspector;
use bevy::prelude::*;
use bevy_circle_collide::prelude::*;
use bevy_egui::PrimaryEguiContext;

/// Where a plot was drawn (its centre, window coordinates) and the range it showed
/// (`[x min, y min, x max, y max]`).
#[derive(Clone, Copy, Debug)]
pub struct ShownPlot {
    pub centre: [f32; 2],
    pub range: [f64; 4],
}

/// The energy plot as last drawn by the panel.
#[derive(Resource, Default)]
pub struct EnergyPlot(pub Option<ShownPlot>);

/// Where the panel last drew the default-friction slider (window coordinates), so a
/// driven test can drag it.
#[derive(Resource, Default)]
pub struct FrictionSlider(pub Option<bevy_egui::egui::Rect>);

pub fn plugin(app: &mut App) {
    app.init_resource::<EnergyPlot>()
        .init_resource::<FrictionSlider>()
        .add_systems(Startup, pause.run_if(|args: Res<Args>| args.paused))
        .add_systems(
            PostUpdate,
            write
                .after(bevy::transform::TransformSystems::Propagate)
                .run_if(|args: Res<Args>| args.report.is_some()),
        );
}

fn pause(mut time: ResMut<Time<Virtual>>) {
    time.pause();
}

/// A body whose components the selection editor writes, changed since the last frame.
type EditedBody = Or<(
    Changed<CircleCollider>,
    Changed<Mass>,
    Changed<Velocity>,
    Changed<AngularVelocity>,
    Changed<Restitution>,
    Changed<Friction>,
)>;

fn write(
    args: Res<Args>,
    inspector: Res<Inspector>,
    (energy_plot, friction_slider, config): (
        Res<EnergyPlot>,
        Res<FrictionSlider>,
        Res<CircleCollideConfig>,
    ),
    camera: Single<(&Camera, &GlobalTransform, &Projection), Without<PrimaryEguiContext>>,
    circles: Query<(Entity, &GlobalTransform), With<CircleCollider>>,
    written: Query<(), (With<CircleCollider>, EditedBody)>,
    (mut frame, mut config_writes, mut body_writes): (Local<u64>, Local<u64>, Local<u64>),
) {
    *frame += 1;
    *config_writes += u64::from(config.is_changed());
    *body_writes += u64::from(!written.is_empty());
    let (cam, cam_transform, projection) = camera.into_inner();
    let Some(rect) = cam.logical_viewport_rect() else {
        return;
    };
    let middle = cam
        .viewport_to_world_2d(cam_transform, rect.center())
        .unwrap_or_default();
    let target = (circles.iter())
        .map(|(e, t)| (e, t.translation().truncate()))
        .min_by(|a, b| a.1.distance(middle).total_cmp(&b.1.distance(middle)));
    let scale = match projection {
        Projection::Orthographic(o) => o.scale,
        _ => 1.0,
    };
    let mut text = format!("frame {}\n", *frame);
    if let Some((e, p)) = target
        && let Ok(at) = cam.world_to_viewport(cam_transform, p.extend(0.0))
    {
        text += &format!("target {} {} {}\n", e.to_bits(), at.x, at.y);
    }
    let selected = inspector
        .selected
        .map_or("none".to_string(), |e| e.to_bits().to_string());
    text += &format!("selected {selected}\n");
    let centre = cam_transform.translation();
    text += &format!("camera {scale} {} {}\n", centre.x, centre.y);
    if let Some(plot) = energy_plot.0 {
        let [x, y] = plot.centre;
        let [a, b, c, d] = plot.range;
        text += &format!("plot {x} {y} {a} {b} {c} {d}\n");
    }
    if let Some(r) = friction_slider.0 {
        // The value, then the slider's left and right ends and its middle height.
        text += &format!(
            "friction {} {} {} {}\n",
            config.default_friction,
            r.left(),
            r.right(),
            r.center().y
        );
    }
    text += &format!("config_writes {}\n", *config_writes);
    text += &format!("body_writes {}\n", *body_writes);
    let path = args.report.as_deref().expect("run only with --report");
    // Written whole, then renamed: the script never reads half a report.
    let partial = format!("{path}.part");
    if std::fs::write(&partial, text).is_ok() {
        let _ = std::fs::rename(&partial, path);
    }
}
