//! `--screenshot PATH --frames N`: save a screenshot through Bevy after N frames, fail if
//! it is blank, and exit.

use crate::Args;
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured, save_to_disk};

pub fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        take.run_if(|args: Res<Args>| args.screenshot.is_some()),
    );
}

fn take(mut commands: Commands, args: Res<Args>, mut frame: Local<u32>) {
    *frame += 1;
    if *frame != args.frames {
        return;
    }
    let path = args.screenshot.clone().expect("run only with --screenshot");
    commands
        .spawn(Screenshot::primary_window())
        .observe(save_to_disk(path))
        .observe(check_and_exit);
}

/// Distinct colours on a sparse grid of the image: a blank frame has one or two.
fn distinct_colors(image: &Image) -> usize {
    let Some(data) = image.data.as_ref() else {
        return 0;
    };
    let mut seen = std::collections::HashSet::new();
    for px in data.chunks_exact(4).step_by(97) {
        seen.insert([px[0] / 8, px[1] / 8, px[2] / 8]);
    }
    seen.len()
}

fn check_and_exit(shot: On<ScreenshotCaptured>, mut exit: MessageWriter<AppExit>) {
    let colors = distinct_colors(&shot.image);
    let size = shot.image.size();
    if colors < 12 {
        error!(
            "screenshot {}×{} looks blank: {colors} distinct colours",
            size.x, size.y
        );
        exit.write(AppExit::error());
    } else {
        info!(
            "screenshot {}×{} with {colors} distinct colours",
            size.x, size.y
        );
        exit.write(AppExit::Success);
    }
}
