//! Presets: the files in `assets/presets/` load, saving then loading gives the same
//! preset, malformed text is a readable error, and every scene kind builds sanely.
#![cfg(feature = "serialize")]

mod common;
use bevy::prelude::*;
use bevy_circle_collide::prelude::*;
use bevy_circle_collide::preset::{Preset, SceneKind, SceneSpec};
use common::*;
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
fn the_deep_jam_correction_defaults_on_and_reaches_the_core() {
    // On by default, in presets that do not name it (written before it existed), and
    // switched off through to the core's step configuration.
    assert!(
        CircleCollideConfig::default()
            .to_step_config()
            .conjugate_correction
    );
    let pile = Preset::load(&preset_dir().join("pile.ron")).unwrap_or_else(|e| panic!("{e}"));
    assert!(pile.config.conjugate_correction);
    let off = CircleCollideConfig {
        conjugate_correction: false,
        ..default()
    };
    assert!(!off.to_step_config().conjugate_correction);
}

#[test]
fn sleeping_by_neighbourhood_defaults_off_and_reaches_the_core() {
    // Off by default (whole islands), in presets that do not name it, and switched on
    // through to the core's step configuration.
    assert!(
        !CircleCollideConfig::default()
            .to_step_config()
            .sleep
            .by_neighbourhood
    );
    let pile = Preset::load(&preset_dir().join("pile.ron")).unwrap_or_else(|e| panic!("{e}"));
    assert!(!pile.config.sleep_by_neighbourhood);
    let on = CircleCollideConfig {
        sleep_by_neighbourhood: true,
        ..default()
    };
    assert!(on.to_step_config().sleep.by_neighbourhood);
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
        level: vec![
            LevelCollider::polyline(vec![Vec2::new(-1.0, 2.0), Vec2::ZERO, Vec2::X], true)
                .with_friction(0.4),
            LevelCollider::rectangle(Vec2::new(2.0, 0.5)).with_restitution(0.3),
        ],
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

/// Every shipped preset runs clean for 3 s as the inspector spawns it: no step hits the
/// impact cap, every circle stays inside the arena, and the bullet never gets past the
/// first circle of its row.
#[test]
fn shipped_presets_run_without_fallback_and_the_bullet_stays_out_of_the_row() {
    for entry in std::fs::read_dir(preset_dir()).unwrap() {
        let path = entry.unwrap().path();
        let preset = Preset::load(&path).unwrap();
        let (bodies, arena) = preset.scene.build();
        let mut app = app();
        *app.world_mut().resource_mut::<CircleCollideConfig>() = CircleCollideConfig {
            arena: Some(arena),
            ..preset.config.clone()
        };
        let entities: Vec<Entity> = (bodies.iter())
            .map(|b| spawn(&mut app, b.position, b.velocity, b.radius, b.mass))
            .collect();
        for piece in &preset.level {
            app.world_mut().spawn(piece.clone());
        }
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        for step in 0..180 {
            steps(&mut app, 1);
            let d = app.world().resource::<CollisionDiagnostics>();
            assert_eq!(d.fallbacks, 0, "{name}: step {step} hit the impact cap");
            for (e, b) in entities.iter().zip(&bodies) {
                let p = pos(&app, *e);
                // With level geometry on top of the arena's walls (the plinko and cup
                // floors lie on the arena's floor) a pressed body may sit a little deeper
                // than the slop: see the level notes in docs/level.md.
                let slop = if preset.level.is_empty() { 0.99 } else { 0.97 };
                let slack = Vec2::splat(b.radius * slop);
                assert!(
                    p.cmpge(arena.min + slack).all() && p.cmple(arena.max - slack).all(),
                    "{name}: step {step}: {p} outside"
                );
            }
            if preset.scene.kind == SceneKind::Bullet {
                let (bullet, first) = (pos(&app, entities[0]), pos(&app, entities[1]));
                // entities[1] is the row's rightmost circle; the leftmost is the last.
                let leftmost = pos(&app, *entities.last().unwrap());
                assert!(
                    bullet.x < leftmost.x && leftmost.x <= first.x,
                    "{name}: step {step}: the bullet at {bullet} passed the row"
                );
            }
        }
    }
}
