//! The config presets shipped in `assets/presets/` parse, and configs round-trip through RON.
#![cfg(feature = "serialize")]

use bevy::prelude::*;
use bevy_circle_collide::prelude::*;
use std::path::Path;

fn presets() -> Vec<std::path::PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/presets");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files
}

#[test]
fn shipped_presets_parse_and_round_trip() {
    let files = presets();
    assert!(files.len() >= 2, "{files:?}");
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let config: CircleCollideConfig =
            ron::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let again: CircleCollideConfig = ron::from_str(&ron::to_string(&config).unwrap()).unwrap();
        assert_eq!(config, again);
    }
}

#[test]
fn missing_fields_take_their_defaults_and_bad_text_is_an_error() {
    let c: CircleCollideConfig = ron::from_str("(gravity: (0.0, -9.81))").unwrap();
    assert_eq!(
        c,
        CircleCollideConfig {
            gravity: Vec2::new(0.0, -9.81),
            ..default()
        }
    );
    assert!(ron::from_str::<CircleCollideConfig>("(gravity: oops)").is_err());
}
