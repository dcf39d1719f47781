//! The egui side panel: time, configuration, scene, presets, debug drawing, selection,
//! statistics with plots, recent events.

use crate::camera::{FitRequest, PointerOverUi};
use crate::report::{EnergyPlot, FrictionSlider, ShownPlot};
use crate::spawner::{self, ColorMode, Inspector};
use crate::stats::History;
use bevy::camera::Viewport;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_circle_collide::CircleCollideDebugConfig;
use bevy_circle_collide::prelude::*;
use bevy_circle_collide::preset::SceneKind;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use egui_plot::{Line, Plot};

pub fn plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, panel);
}

/// What the selection section edits on the clicked circle.
type SelectedBody = (
    &'static mut CircleCollider,
    &'static mut Mass,
    &'static mut Velocity,
    &'static mut AngularVelocity,
    Option<&'static mut Restitution>,
    Option<&'static mut Friction>,
);

/// Everything the panel edits, bundled to keep the system signature readable.
#[derive(bevy::ecs::system::SystemParam)]
struct Editables<'w, 's> {
    config: ResMut<'w, CircleCollideConfig>,
    debug: ResMut<'w, CircleCollideDebugConfig>,
    inspector: ResMut<'w, Inspector>,
    virtual_time: ResMut<'w, Time<Virtual>>,
    fixed_time: ResMut<'w, Time<Fixed>>,
    fit: ResMut<'w, FitRequest>,
    friction_slider: ResMut<'w, FrictionSlider>,
    bodies: Query<'w, 's, SelectedBody>,
    commands: Commands<'w, 's>,
}

/// What the statistics panel shows, and where it reports the energy plot.
#[derive(bevy::ecs::system::SystemParam)]
struct Statistics<'w> {
    diag: Res<'w, CollisionDiagnostics>,
    history: Res<'w, History>,
    energy_plot: ResMut<'w, EnergyPlot>,
}

fn panel(
    mut contexts: EguiContexts,
    mut e: Editables,
    mut stats: Statistics,
    mut over_ui: ResMut<PointerOverUi>,
    window: Single<&Window, With<PrimaryWindow>>,
    mut camera: Single<&mut Camera, Without<bevy_egui::PrimaryEguiContext>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    over_ui.0 = ctx.is_pointer_over_egui() || ctx.egui_wants_pointer_input();
    let mut root = egui::Ui::new(
        ctx.clone(),
        "inspector_root".into(),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(ctx.viewport_rect()),
    );
    // Controls on the left, statistics, plots and events on the right: at 1500 × 1000
    // everything shows without scrolling the statistics away.
    let left = egui::Panel::left("inspector")
        .resizable(true)
        .default_size(360.0)
        .show(&mut root, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                ui.heading("bevy_circle_collide");
                time_section(ui, &mut e);
                config_section(ui, &mut e);
                scene_section(ui, &mut e);
                presets_section(ui, &mut e);
                debug_section(ui, &mut e);
                selection_section(ui, &mut e);
            });
        })
        .response
        .rect
        .width();
    let right = egui::Panel::right("statistics")
        .resizable(true)
        .default_size(330.0)
        .show(&mut root, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                let Statistics {
                    diag,
                    history,
                    energy_plot,
                } = &mut stats;
                stats_section(ui, diag, history, &mut energy_plot.0);
            });
        })
        .response
        .rect
        .width();
    // The scene is drawn between the panels.
    let scale = window.scale_factor();
    let (left, right) = ((left * scale) as u32, (right * scale) as u32);
    let size = UVec2::new(
        window.physical_width().saturating_sub(left + right).max(1),
        window.physical_height().max(1),
    );
    let viewport = Viewport {
        physical_position: UVec2::new(left, 0),
        physical_size: size,
        ..default()
    };
    if camera
        .viewport
        .as_ref()
        .map(|v| (v.physical_position, v.physical_size))
        != Some((viewport.physical_position, size))
    {
        camera.viewport = Some(viewport);
        e.fit.0 = true;
    }
    Ok(())
}

fn time_section(ui: &mut egui::Ui, e: &mut Editables) {
    ui.horizontal(|ui| {
        let paused = e.virtual_time.is_paused();
        if ui
            .button(if paused { "▶ Run" } else { "⏸ Pause" })
            .clicked()
        {
            if paused {
                e.virtual_time.unpause()
            } else {
                e.virtual_time.pause()
            }
        }
        if ui.add_enabled(paused, egui::Button::new("Step")).clicked() {
            let step = e.fixed_time.timestep();
            e.fixed_time.accumulate_overstep(step);
        }
        if ui.button("Respawn").clicked() {
            e.inspector.respawn = true;
        }
        if ui.button("Fit view").clicked() {
            e.fit.0 = true;
        }
    });
    let mut speed = e.virtual_time.relative_speed();
    if ui
        .add(
            egui::Slider::new(&mut speed, 0.05..=4.0)
                .logarithmic(true)
                .text("time scale"),
        )
        .changed()
    {
        e.virtual_time.set_relative_speed(speed);
    }
}

fn config_section(ui: &mut egui::Ui, e: &mut Editables) {
    // The widgets edit a copy, written back only when it differs: a write marks the
    // configuration changed, which wakes every sleeping body (and ends idle steps).
    let mut edited = e.config.clone();
    egui::CollapsingHeader::new("Collision config")
        .default_open(true)
        .show(ui, |ui| {
            let c = &mut edited;
            egui::Grid::new("config").num_columns(2).show(ui, |ui| {
                ui.label("gravity x, y");
                ui.horizontal(|ui| {
                    ui.add(egui::DragValue::new(&mut c.gravity.x).speed(0.1));
                    ui.add(egui::DragValue::new(&mut c.gravity.y).speed(0.1));
                });
                ui.end_row();
                ui.label("default restitution");
                ui.add(egui::Slider::new(&mut c.default_restitution, 0.0..=1.0));
                ui.end_row();
                ui.label("restitution rule");
                combine_rule(ui, "combine", &mut c.restitution_combine);
                ui.end_row();
                ui.label("default friction μ");
                let friction = ui.add(egui::Slider::new(&mut c.default_friction, 0.0..=2.0));
                e.friction_slider.0 = Some(friction.rect);
                ui.end_row();
                ui.label("rolling resistance");
                ui.add(egui::Slider::new(
                    &mut c.default_rolling_resistance,
                    0.0..=0.2,
                ));
                ui.end_row();
                ui.label("friction rule");
                combine_rule(ui, "friction_combine", &mut c.friction_combine);
                ui.end_row();
                ui.label("tangential restitution");
                ui.add(egui::Slider::new(&mut c.tangential_restitution, -1.0..=1.0))
                    .on_hover_text("−1 smooth, 0 the slip stops, +1 perfectly rough");
                ui.end_row();
                ui.label("density");
                ui.add(
                    egui::DragValue::new(&mut c.density)
                        .speed(0.01)
                        .range(0.001..=1000.0),
                );
                ui.end_row();
                ui.label("overlap slop (× r)");
                ui.add(egui::Slider::new(&mut c.overlap_slop, 0.0..=0.1))
                    .on_hover_text(
                        "deeper overlaps are pushed apart; looser is cheaper in jams, and below \
                     0.005 a jam cannot hold it (4–20× the cost a step)",
                    );
                ui.end_row();
                ui.label("push-out passes");
                ui.add(egui::Slider::new(&mut c.separation_iterations, 0..=32))
                    .on_hover_text(
                        "a jam that does not clear gets up to 16× these passes' work: \
                     more here costs more where bodies jam",
                    );
                ui.end_row();
                ui.label("contact passes");
                ui.add(egui::Slider::new(&mut c.contact_iterations, 0..=64));
                ui.end_row();
                ui.label("sleeping");
                ui.horizontal(|ui| {
                    ui.checkbox(&mut c.sleep, "");
                    ui.label("after (s)");
                    ui.add(
                        egui::DragValue::new(&mut c.time_to_sleep)
                            .speed(0.05)
                            .range(0.0..=10.0),
                    );
                    ui.checkbox(&mut c.sleep_by_neighbourhood, "by neighbourhood");
                    ui.checkbox(&mut c.skip_idle_steps, "skip idle steps");
                });
                ui.end_row();
                ui.label("shock propagation");
                ui.checkbox(&mut c.shock_propagation, "");
                ui.end_row();
                ui.label("deep-jam correction");
                ui.checkbox(&mut c.conjugate_correction, "");
                ui.end_row();
                ui.label("impact cap per body");
                ui.add(egui::Slider::new(&mut c.max_impacts_per_body, 1..=256).logarithmic(true));
                ui.end_row();
                ui.label("resting speed");
                ui.horizontal(|ui| {
                    let mut auto = c.resting_speed.is_none();
                    if ui.checkbox(&mut auto, "auto").changed() {
                        c.resting_speed = if auto { None } else { Some(0.3) };
                    }
                    if let Some(s) = &mut c.resting_speed {
                        ui.add(egui::DragValue::new(s).speed(0.01).range(0.0..=100.0));
                    }
                });
                ui.end_row();
                ui.label("report resting impacts");
                ui.checkbox(&mut c.report_resting_impacts, "");
                ui.end_row();
                ui.label("max speed");
                ui.add(
                    egui::DragValue::new(&mut c.max_speed)
                        .speed(100.0)
                        .range(1.0..=1e7),
                );
                ui.end_row();
                if let Some(a) = &mut c.arena {
                    ui.label("arena max x, y");
                    ui.horizontal(|ui| {
                        ui.add(egui::DragValue::new(&mut a.max.x).speed(0.1));
                        ui.add(egui::DragValue::new(&mut a.max.y).speed(0.1));
                    });
                    ui.end_row();
                    ui.label("wall restitution");
                    ui.add(egui::Slider::new(&mut a.restitution, 0.0..=1.0));
                    ui.end_row();
                    ui.label("wall friction μ");
                    ui.add(egui::Slider::new(&mut a.friction, 0.0..=2.0));
                    ui.end_row();
                }
            });
        });
    e.config.set_if_neq(edited);
}

/// A drop-down of the four pair rules.
fn combine_rule(ui: &mut egui::Ui, id: &str, rule: &mut CombineRule) {
    egui::ComboBox::from_id_salt(id)
        .selected_text(format!("{rule:?}"))
        .show_ui(ui, |ui| {
            for r in [
                CombineRule::Max,
                CombineRule::Min,
                CombineRule::Average,
                CombineRule::Multiply,
            ] {
                ui.selectable_value(rule, r, format!("{r:?}"));
            }
        });
}

fn scene_section(ui: &mut egui::Ui, e: &mut Editables) {
    egui::CollapsingHeader::new("Spawner")
        .default_open(true)
        .show(ui, |ui| {
            let s = &mut e.inspector.preset.scene;
            egui::Grid::new("scene").num_columns(2).show(ui, |ui| {
                ui.label("scene");
                egui::ComboBox::from_id_salt("kind")
                    .selected_text(format!("{:?}", s.kind))
                    .show_ui(ui, |ui| {
                        for kind in SceneKind::ALL {
                            ui.selectable_value(&mut s.kind, kind, format!("{kind:?}"));
                        }
                    });
                ui.end_row();
                ui.label("bodies");
                ui.add(
                    egui::DragValue::new(&mut s.count)
                        .speed(10.0)
                        .range(1..=200_000),
                );
                ui.end_row();
                ui.label("radius min, max");
                ui.horizontal(|ui| {
                    ui.add(
                        egui::DragValue::new(&mut s.radius[0])
                            .speed(0.01)
                            .range(0.01..=50.0),
                    );
                    ui.add(
                        egui::DragValue::new(&mut s.radius[1])
                            .speed(0.01)
                            .range(0.01..=50.0),
                    );
                });
                ui.end_row();
                ui.label("mass");
                ui.horizontal(|ui| {
                    let mut auto = s.mass.is_none();
                    if ui.checkbox(&mut auto, "density × area").changed() {
                        s.mass = if auto { None } else { Some([0.5, 2.0]) };
                    }
                    if let Some(m) = &mut s.mass {
                        ui.add(
                            egui::DragValue::new(&mut m[0])
                                .speed(0.05)
                                .range(0.001..=1e6),
                        );
                        ui.add(
                            egui::DragValue::new(&mut m[1])
                                .speed(0.05)
                                .range(0.001..=1e6),
                        );
                    }
                });
                ui.end_row();
                ui.label("speed");
                ui.add(
                    egui::DragValue::new(&mut s.speed)
                        .speed(0.5)
                        .range(0.0..=1e5),
                );
                ui.end_row();
                ui.label("seed");
                ui.add(egui::DragValue::new(&mut s.seed));
                ui.end_row();
            });
            if ui.button("Respawn with these settings").clicked() {
                e.inspector.preset.config = e.config.clone();
                e.inspector.respawn = true;
            }
        });
}

fn presets_section(ui: &mut egui::Ui, e: &mut Editables) {
    egui::CollapsingHeader::new("Presets (assets/presets)")
        .default_open(true)
        .show(ui, |ui| {
            ui.horizontal_wrapped(|ui| {
                for name in e.inspector.files.clone() {
                    if ui.button(&name).clicked() {
                        spawner::load(&mut e.inspector, &name);
                    }
                }
            });
            ui.horizontal(|ui| {
                ui.text_edit_singleline(&mut e.inspector.save_name);
                if ui.button("Save current").clicked() {
                    let config = e.config.clone();
                    spawner::save(&mut e.inspector, &config);
                }
            });
            match &e.inspector.status {
                Ok(msg) => ui.label(msg),
                Err(err) => {
                    ui.colored_label(egui::Color32::from_rgb(255, 110, 110), format!("⚠ {err}"))
                }
            };
        });
}

fn debug_section(ui: &mut egui::Ui, e: &mut Editables) {
    egui::CollapsingHeader::new("Debug drawing")
        .default_open(false)
        .show(ui, |ui| {
            let d = &mut *e.debug;
            ui.horizontal_wrapped(|ui| {
                ui.checkbox(&mut d.colliders, "outlines");
                ui.checkbox(&mut d.orientation, "spin lines");
                ui.checkbox(&mut d.velocities, "velocities");
                ui.checkbox(&mut d.contacts, "contacts");
                ui.checkbox(&mut d.grid, "grid");
                ui.checkbox(&mut d.arena, "arena");
            });
            ui.horizontal(|ui| {
                ui.label("colour by");
                ui.selectable_value(&mut e.inspector.color_mode, ColorMode::Speed, "speed");
                ui.selectable_value(&mut e.inspector.color_mode, ColorMode::Mass, "mass");
            });
        });
}

fn selection_section(ui: &mut egui::Ui, e: &mut Editables) {
    let Some(entity) = e.inspector.selected else {
        ui.label("Click a circle to select it.");
        return;
    };
    egui::CollapsingHeader::new(format!("Selected {entity}"))
        .default_open(true)
        .show(ui, |ui| {
            let Ok((mut collider, mut mass, mut velocity, mut spin, restitution, friction)) =
                e.bodies.get_mut(entity)
            else {
                ui.label("(gone)");
                return;
            };
            // The widgets edit copies, written back only when they differ: a write makes
            // the next step a full one (no idle skip) even when it changes nothing.
            egui::Grid::new("selected").num_columns(2).show(ui, |ui| {
                ui.label("radius");
                let mut edited = *collider;
                ui.add(
                    egui::DragValue::new(&mut edited.radius)
                        .speed(0.01)
                        .range(0.01..=100.0),
                );
                collider.set_if_neq(edited);
                ui.end_row();
                ui.label("mass");
                ui.horizontal(|ui| {
                    let mut edited = *mass;
                    let mut fixed = match edited {
                        Mass::Fixed(m) => m,
                        _ => 0.0,
                    };
                    ui.selectable_value(&mut edited, Mass::Auto, "auto");
                    ui.selectable_value(&mut edited, Mass::Static, "static");
                    if ui
                        .add(
                            egui::DragValue::new(&mut fixed)
                                .speed(0.05)
                                .range(0.0..=1e6),
                        )
                        .changed()
                    {
                        edited = Mass::Fixed(fixed.max(1e-3));
                    }
                    mass.set_if_neq(edited);
                });
                ui.end_row();
                ui.label("velocity");
                let mut edited = *velocity;
                ui.horizontal(|ui| {
                    ui.add(egui::DragValue::new(&mut edited.0.x).speed(0.1));
                    ui.add(egui::DragValue::new(&mut edited.0.y).speed(0.1));
                });
                velocity.set_if_neq(edited);
                ui.end_row();
                ui.label("spin (rad/s)");
                let mut edited = *spin;
                ui.add(egui::DragValue::new(&mut edited.0).speed(0.1));
                spin.set_if_neq(edited);
                ui.end_row();
                ui.label("restitution");
                let own = restitution.map(|r| r.map_unchanged(|r| &mut r.0));
                if override_slider(ui, own, 1.0) {
                    let default = Restitution(e.config.default_restitution);
                    e.commands.entity(entity).insert(default);
                }
                ui.end_row();
                ui.label("friction μ");
                let own = friction.map(|f| f.map_unchanged(|f| &mut f.0));
                if override_slider(ui, own, 2.0) {
                    let default = Friction(e.config.default_friction);
                    e.commands.entity(entity).insert(default);
                }
                ui.end_row();
            });
        });
}

/// A slider from 0 to `max` for a body's own value, or, for a body that takes the
/// config's default, an "override default" button; true when that button was clicked.
fn override_slider(ui: &mut egui::Ui, own: Option<Mut<f32>>, max: f32) -> bool {
    match own {
        Some(mut value) => {
            let mut edited = *value;
            ui.add(egui::Slider::new(&mut edited, 0.0..=max));
            value.set_if_neq(edited);
            false
        }
        None => ui.button("override default").clicked(),
    }
}

fn stats_section(
    ui: &mut egui::Ui,
    d: &CollisionDiagnostics,
    history: &History,
    shown: &mut Option<ShownPlot>,
) {
    egui::CollapsingHeader::new("Statistics")
        .default_open(true)
        .show(ui, |ui| {
            egui::Grid::new("stats").num_columns(2).show(ui, |ui| {
                let rows = [
                    ("step", d.step.to_string()),
                    (
                        "bodies (skipped)",
                        format!("{} ({})", d.bodies, d.skipped_bodies),
                    ),
                    ("candidate pairs", d.candidate_pairs.to_string()),
                    ("contacts", d.contacts.to_string()),
                    ("solver contacts", d.solver_contacts.to_string()),
                    ("sleeping", d.sleeping.to_string()),
                    ("idle steps skipped", d.idle_steps.to_string()),
                    (
                        "impacts / step (resting)",
                        format!("{} ({})", d.impacts, d.resting_impacts),
                    ),
                    (
                        "same-instant clusters / step (squeezed; speck contacts)",
                        format!(
                            "{} ({}; {})",
                            d.cluster_solves, d.squeezed_clusters, d.speck_contacts_given_up
                        ),
                    ),
                    (
                        "overlaps fixed (left)",
                        format!("{} ({})", d.overlaps_fixed, d.overlaps_left),
                    ),
                    ("fallbacks", d.fallbacks.to_string()),
                    ("kinetic energy", format!("{:.6}", d.kinetic_energy)),
                    ("potential energy", format!("{:.6}", d.potential_energy)),
                    ("rotational energy", format!("{:.6}", d.rotational_energy)),
                    (
                        "momentum",
                        format!("({:.3}, {:.3})", d.momentum.x, d.momentum.y),
                    ),
                ];
                for (k, v) in rows {
                    ui.label(k);
                    ui.monospace(v);
                    ui.end_row();
                }
                let names = [
                    "integrate",
                    "broad phase",
                    "narrow phase",
                    "time of impact",
                    "resolve",
                ];
                for (name, secs) in names.iter().zip(d.phase_seconds) {
                    ui.label(*name);
                    ui.monospace(format!("{:.3} ms", secs * 1e3));
                    ui.end_row();
                }
            });
            let e0 = history.energy.front().map_or(0.0, |p| p[1]);
            let relative: Vec<[f64; 2]> = if e0 != 0.0 {
                (history.energy.iter())
                    .map(|&[s, e]| [s, (e - e0) / e0.abs()])
                    .collect()
            } else {
                Vec::new()
            };
            // At least ±1e-6: conserved energy shows as a flat line, not as magnified
            // rounding noise.
            *shown = Some(plot(
                ui,
                "energy (kinetic + rotational + potential), (E − E₀) / |E₀|",
                relative,
                [-1e-6, 1e-6],
            ));
            let impacts: Vec<[f64; 2]> = history.impacts.iter().copied().collect();
            plot(ui, "impacts per step", impacts, [0.0, 1.0]);
        });
    egui::CollapsingHeader::new("Recent collision events")
        .default_open(true)
        .show(ui, |ui| {
            for line in &history.events {
                ui.monospace(line);
            }
        });
}

/// A small line plot of a step series whose y range spans at least `span`. It neither
/// scrolls, drags nor zooms: the wheel over it scrolls the panel. Returns where it is
/// drawn and the range it shows (for `--report`).
fn plot(ui: &mut egui::Ui, title: &str, series: Vec<[f64; 2]>, span: [f64; 2]) -> ShownPlot {
    ui.label(title);
    let shown = Plot::new(title)
        .height(110.0)
        .show_axes([false, true])
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .allow_boxed_zoom(false)
        .allow_double_click_reset(false)
        .include_y(span[0])
        .include_y(span[1])
        .show(ui, |p| {
            p.line(Line::new(title, series));
        });
    let (rect, bounds) = (shown.response.rect, shown.transform.bounds());
    ShownPlot {
        centre: [rect.center().x, rect.center().y],
        range: [
            bounds.min()[0],
            bounds.min()[1],
            bounds.max()[0],
            bounds.max()[1],
        ],
    }
}
