//! The inspector: the collision world drawn with Bevy 2D and an egui panel to tune every
//! parameter live — configuration, time, the spawner, presets, debug drawing, the
//! selected circle — with statistics and plots of energy and impacts.
//!
//! ```text
//! cargo run --release --example inspector -- [--preset gas|pile|billiards|cradle|bullet]
//!                                            [--screenshot PATH.png --frames N]
//!                                            [--paused] [--report PATH]
//! ```
//!
//! Mouse: left click selects a circle, right or middle drag pans, the wheel zooms.
//! With `--screenshot`, the app saves a screenshot after N frames, checks it is not
//! blank, and exits (non-zero if it was blank). `--paused` starts with time paused and
//! `--report PATH` writes, each frame, what the screenshot script's synthetic clicks and
//! scrolls are checked against (see `report.rs`).

mod camera;
mod capture;
mod panel;
mod report;
mod spawner;
mod stats;

use bevy::prelude::*;
use bevy_circle_collide::CircleCollideDebugPlugin;
use bevy_circle_collide::prelude::*;

/// Command-line options.
#[derive(Resource, Clone, Debug)]
pub struct Args {
    /// Preset loaded at start (file stem in `assets/presets`).
    pub preset: String,
    /// Save a screenshot here and exit.
    pub screenshot: Option<String>,
    /// Frames to run before the screenshot.
    pub frames: u32,
    /// Start with time paused.
    pub paused: bool,
    /// Write the driving report here each frame.
    pub report: Option<String>,
}

fn parse_args() -> Args {
    let mut args = Args {
        preset: "gas".into(),
        screenshot: None,
        frames: 90,
        paused: false,
        report: None,
    };
    let argv: Vec<String> = std::env::args().collect();
    args.paused = argv.iter().any(|a| a == "--paused");
    for pair in argv.windows(2) {
        match pair[0].as_str() {
            "--preset" => args.preset = pair[1].clone(),
            "--screenshot" => args.screenshot = Some(pair[1].clone()),
            "--frames" => args.frames = pair[1].parse().expect("--frames takes a number"),
            "--report" => args.report = Some(pair[1].clone()),
            _ => {}
        }
    }
    args
}

fn main() {
    let args = parse_args();
    App::new()
        .add_plugins(DefaultPlugins.set(WindowPlugin {
            primary_window: Some(Window {
                title: "bevy_circle_collide inspector".into(),
                resolution: (1500, 1000).into(),
                ..default()
            }),
            ..default()
        }))
        .add_plugins((
            bevy_egui::EguiPlugin::default(),
            CircleCollidePlugin::default(),
            CircleCollideDebugPlugin,
        ))
        .insert_resource(Time::<Fixed>::from_hz(60.0))
        .insert_resource(ClearColor(Color::srgb(0.07, 0.08, 0.1)))
        // Short, small contact flashes: a busy gas has ~130 impacts a step.
        .insert_resource(bevy_circle_collide::CircleCollideDebugConfig {
            contact_lifetime: 0.15,
            contact_size: 0.3,
            colliders: false,
            ..default()
        })
        .insert_resource(args)
        .add_plugins((
            spawner::plugin,
            camera::plugin,
            stats::plugin,
            panel::plugin,
            capture::plugin,
            report::plugin,
        ))
        .run();
}
