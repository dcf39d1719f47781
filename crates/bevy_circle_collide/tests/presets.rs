//! Presets: the files in `assets/presets/` load, saving then loading gives the same
//! preset, malformed text is a readable error, and every scene kind builds sanely.
#![cfg(feature = "serialize")]

use bevy::prelude::*;
use bevy_circle_collide::prelude::*;
use bevy_circle_collide::preset::{Preset, SceneKind, SceneSpec};
use std::path::{Path, PathBuf};

fn preset_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/presets")
}

#[test]
fn shipped_presets_load_and_cover_every_scene() {
    let mut kinds = Vec::new();
    for entry in std::fs::read_dir(preset_dir()).unwrap() {
        let path = entry.unwrap().path();
        let preset = Preset::load(&path).unwrap_or_else(|e| panic!("{e}"));
        kinds.push(preset.scene.kind);
    }
    for kind in SceneKind::ALL {
        assert!(kinds.contains(&kind), "no preset for {kind:?}");
    }
}

#[test]
fn save_then_load_gives_the_same_preset() {
    let preset = Preset {
        config: CircleCollideConfig {
            gravity: Vec2::new(0.0, -3.5),
            default_restitution: 0.25,
            resting_speed: Some(0.1),
            ..default()
        },
        scene: SceneSpec {
            kind: SceneKind::Pile,
            count: 321,
            radius: [0.3, 0.7],
            mass: Some([1.0, 2.0]),
            speed: 0.0,
            seed: 7,
        },
    };
    let path =
        std::env::temp_dir().join(format!("circle_collide_preset_{}.ron", std::process::id()));
    preset.save(&path).unwrap();
    assert_eq!(Preset::load(&path), Ok(preset));
    std::fs::remove_file(path).unwrap();
}

#[test]
fn malformed_presets_are_readable_errors() {
    let err =
        Preset::from_ron("(config: (gravity: (0.0, -9.81)), scene: (kind: Volcano))").unwrap_err();
    assert!(err.contains("Volcano") && err.contains("1:"), "{err}");
    let err = Preset::load(Path::new("/nonexistent/x.ron")).unwrap_err();
    assert!(err.contains("/nonexistent/x.ron"), "{err}");
    // Missing fields take their defaults.
    let p = Preset::from_ron("(scene: (count: 5))").unwrap();
    assert_eq!(
        (p.scene.count, p.config),
        (5, CircleCollideConfig::default())
    );
}

#[test]
fn every_scene_kind_builds_non_overlapping_bodies_inside_its_arena() {
    for kind in SceneKind::ALL {
        let spec = SceneSpec {
            kind,
            count: 200,
            radius: [0.3, 0.6],
            ..default()
        };
        let (bodies, arena) = spec.build();
        assert!(!bodies.is_empty());
        for (i, a) in bodies.iter().enumerate() {
            assert!(
                a.position.cmpge(arena.min + a.radius).all()
                    && a.position.cmple(arena.max - a.radius).all(),
                "{kind:?}: {a:?} outside"
            );
            for b in &bodies[i + 1..] {
                // The bullet row touches by design: allow rounding.
                assert!(
                    a.position.distance(b.position) >= (a.radius + b.radius) * (1.0 - 1e-5),
                    "{kind:?}: overlap"
                );
            }
        }
        assert_eq!(spec.build().0, bodies, "deterministic");
    }
}
