//! What the runner measures, and its JSON line.

use crate::Engine;
use bevy::prelude::*;

/// Positions, radii and kinetic energy of the dynamic circles at one moment.
pub struct Snapshot {
    pub circles: Vec<(Vec2, f32)>,
    pub kinetic_energy: f64,
    /// Each dynamic circle's speed, in the order of `circles`.
    pub speeds: Vec<f32>,
}

/// Reads the circles' state from the engine's components. All scene masses are equal,
/// so `Σ v²` stands for the kinetic energy in ratios.
pub fn snapshot(app: &mut App, engine: Engine) -> Snapshot {
    let world = app.world_mut();
    let (circles, speeds): (Vec<(Vec2, f32)>, Vec<f32>) = match engine {
        Engine::Ours => {
            use bevy_circle_collide::prelude::*;
            let mut q = world.query::<(&Transform, &CircleCollider, &Velocity)>();
            q.iter(world)
                .map(|(t, c, v)| ((t.translation.truncate(), c.radius), v.0.length()))
                .unzip()
        }
        Engine::Avian => {
            use avian2d::prelude::*;
            let mut q =
                world.query_filtered::<(&Transform, &Collider, &LinearVelocity), With<RigidBody>>();
            q.iter(world)
                .filter_map(|(t, c, v)| {
                    c.shape()
                        .as_ball()
                        .map(|b| ((t.translation.truncate(), b.radius), v.0.length()))
                })
                .unzip()
        }
        Engine::Rapier => {
            use bevy_rapier2d::prelude::*;
            let mut q = world.query::<(&Transform, &Collider, &Velocity)>();
            q.iter(world)
                .filter_map(|(t, c, v)| {
                    c.as_ball()
                        .map(|b| ((t.translation.truncate(), b.radius()), v.linear.length()))
                })
                .unzip()
        }
    };
    let kinetic_energy = speeds.iter().map(|s| f64::from(*s).powi(2)).sum();
    Snapshot {
        circles,
        kinetic_energy,
        speeds,
    }
}

/// Deepest overlap of any pair, 0 when none overlap (the core's sort-and-sweep check).
pub fn deepest_overlap(circles: &[(Vec2, f32)]) -> f32 {
    let wide: Vec<_> = circles
        .iter()
        .map(|(p, r)| (p.as_dvec2(), f64::from(*r)))
        .collect();
    bevy_circle_collide::core::manifold::deepest_overlap(&wide).max(0.0) as f32
}

/// Circles whose centre left the box (or became NaN).
pub fn escaped(circles: &[(Vec2, f32)], min: Vec2, max: Vec2) -> usize {
    circles
        .iter()
        .filter(|(p, _)| !(p.cmpge(min).all() && p.cmple(max).all()))
        .count()
}

/// A `kB` field of `/proc/self/status` (Linux), such as `VmRSS` or `VmHWM`, if known.
fn status_kb(key: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| {
        l.strip_prefix(key)
            .is_some_and(|rest| rest.starts_with(':'))
    })?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// With `MEMTRACE` set, prints the current and peak resident set sizes to stderr.
pub fn trace_memory(at: &str) {
    if std::env::var_os("MEMTRACE").is_none() {
        return;
    }
    let kb = |key| status_kb(key).map_or("?".to_string(), |k| k.to_string());
    eprintln!("{at}: rss {} kB, peak {} kB", kb("VmRSS"), kb("VmHWM"));
}

/// Peak resident set size of this process, kB (Linux), if known.
pub fn peak_rss_kb() -> Option<u64> {
    status_kb("VmHWM")
}

/// One run's figures.
pub struct Report<'a> {
    pub engine: Engine,
    pub scene: &'a str,
    pub n: usize,
    pub steps: usize,
    pub threads: usize,
    pub times: &'a [f64],
    pub ke_ratio: Option<f64>,
    /// Kinetic energy at the end (scene masses).
    pub ke_end: f64,
    /// Simulated seconds after which the kinetic energy stayed below the settle
    /// threshold (scenes with gravity), if it did.
    pub settled_at_s: Option<f64>,
    pub max_overlap_over_r: f32,
    pub escaped: usize,
    /// The bodies' Coulomb coefficient.
    pub friction: f64,
    /// The heap's angle of repose, degrees (`scenes::repose_angle`), for the heap.
    pub repose_deg: Option<f64>,
    /// Peak resident set size in kB, read when the steps were done (before the runner's
    /// own end-of-run measurements allocate), if known.
    pub peak_rss_kb: Option<u64>,
}

impl Report<'_> {
    /// The JSON line (plus `peak_rss_kb` after the required fields).
    pub fn json(&self) -> String {
        let mut sorted = self.times.to_vec();
        sorted.sort_by(f64::total_cmp);
        let median = sorted.get(sorted.len() / 2).copied().unwrap_or(0.0);
        let mean = self.times.iter().sum::<f64>() / self.times.len().max(1) as f64;
        let mut late = self.times[self.times.len() / 2..].to_vec();
        // The late half's mean beside its median: steps that alternate between two costs
        // (a correction every other step) put the median in the dearer half.
        let late_mean = late.iter().sum::<f64>() / late.len().max(1) as f64;
        late.sort_by(f64::total_cmp);
        let late_median = late.get(late.len() / 2).copied().unwrap_or(0.0);
        let worst = self.times.iter().copied().fold(0.0, f64::max);
        let settled = self
            .settled_at_s
            .map_or("null".to_string(), |s| format!("{s:.3}"));
        let engine = match self.engine {
            Engine::Ours => "ours",
            Engine::Avian => "avian",
            Engine::Rapier => "rapier",
        };
        let ke = self
            .ke_ratio
            .map_or("null".to_string(), |k| format!("{k:.6}"));
        let repose = self
            .repose_deg
            .map_or("null".to_string(), |a| format!("{a:.2}"));
        let rss = self
            .peak_rss_kb
            .map_or("null".to_string(), |k| k.to_string());
        format!(
            "{{\"engine\":\"{engine}\",\"scene\":\"{}\",\"n\":{},\"steps\":{},\"threads\":{},\"ms_per_step_median\":{median:.4},\"ms_per_step_mean\":{mean:.4},\"ms_late_median\":{late_median:.4},\"ms_late_mean\":{late_mean:.4},\"ms_worst\":{worst:.4},\"ke_end\":{:.6e},\"settled_at_s\":{settled},\"ke_ratio\":{ke},\"max_overlap_over_r\":{:.5},\"escaped\":{},\"friction\":{},\"repose_deg\":{repose},\"peak_rss_kb\":{rss}}}",
            self.scene,
            self.n,
            self.steps,
            self.threads,
            self.ke_end,
            self.max_overlap_over_r,
            self.escaped,
            self.friction
        )
    }
}

/// Prints to stderr the median milliseconds of each of our five phases (with `PHASES=1`),
/// over all steps and over the late half, with the rest of the step (`times`, ms: the
/// app's update outside the five phases — touch tracking, events, the schedule).
pub fn print_phase_medians(phases: &[[f64; 5]], times: &[f64]) {
    if phases.is_empty() || phases.len() != times.len() {
        return;
    }
    let names = [
        "integrate+gather",
        "broad",
        "narrow",
        "impacts",
        "resolve+scatter",
    ];
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    for (label, from) in [("all steps", 0), ("late half", phases.len() / 2)] {
        let mut columns: Vec<String> = (0..5)
            .map(|k| {
                let v = phases[from..].iter().map(|p| p[k] * 1e3).collect();
                format!("{} {:.3}", names[k], median(v))
            })
            .collect();
        let rest = (phases[from..].iter().zip(&times[from..]))
            .map(|(p, t)| t - p.iter().sum::<f64>() * 1e3)
            .collect();
        columns.push(format!("rest of the update {:.3}", median(rest)));
        eprintln!("phase medians (ms), {label}: {}", columns.join(", "));
    }
}
