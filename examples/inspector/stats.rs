//! Step history for the plots and the event log.

use bevy::prelude::*;
use bevy_circle_collide::prelude::*;
use std::collections::VecDeque;

/// Samples kept for the plots (10 s at 60 Hz).
const SAMPLES: usize = 600;
/// Events kept in the log.
const LOG: usize = 14;

/// Per-step history.
#[derive(Resource, Default)]
pub struct History {
    /// (step, kinetic energy).
    pub energy: VecDeque<[f64; 2]>,
    /// (step, impacts).
    pub impacts: VecDeque<[f64; 2]>,
    /// Latest collision events, newest first.
    pub events: VecDeque<String>,
}

pub fn plugin(app: &mut App) {
    app.init_resource::<History>()
        .add_systems(FixedPostUpdate, record.after(CircleCollideSystems::Resolve));
}

fn record(
    diag: Res<CollisionDiagnostics>,
    mut history: ResMut<History>,
    mut hits: MessageReader<CollisionEvent>,
) {
    let step = diag.step as f64;
    // Kinetic plus potential: what an elastic world keeps, under gravity too.
    history.energy.push_back([
        step,
        diag.kinetic_energy + diag.rotational_energy + diag.potential_energy,
    ]);
    history.impacts.push_back([step, diag.impacts as f64]);
    while history.energy.len() > SAMPLES {
        history.energy.pop_front();
        history.impacts.pop_front();
    }
    for hit in hits.read() {
        let other = match hit.b {
            CollisionTarget::Body(e) => format!("{e}"),
            CollisionTarget::Wall(w) => format!("{w:?} wall"),
            CollisionTarget::Level { entity, segment } => format!("{entity} segment {segment}"),
        };
        let kind = if hit.sensor { "sensor" } else { "hit" };
        history.events.push_front(format!(
            "#{} +{:.2} ms {} {kind} {other}: J {:.3}, u {:.2}",
            hit.step,
            hit.time * 1e3,
            hit.a,
            hit.impulse,
            hit.approach_speed
        ));
    }
    history.events.truncate(LOG);
}
