//! # circle_collide_core
//!
//! Exact continuous collision of 2D circles, with no Bevy dependency. This crate is the
//! engine behind the `bevy_circle_collide` plugin and is usable on its own.
//!
//! * Every approaching pair gets its **exact time of impact** in the step
//!   ([`toi::time_of_impact`], the cancellation-safe root of the seeds' quadratic).
//! * Impacts are handled **in time order within a step** by an event loop with lazy
//!   invalidation ([`Simulation::solve_impacts`]): nothing tunnels, whatever its speed.
//! * Impulses use mass and restitution ([`impulse::normal_impulse`]); at restitution 1
//!   kinetic energy and momentum are conserved to rounding error.
//! * Bodies are stored as struct-of-arrays in `f64` ([`Bodies`]); the broad phase is a
//!   spatial hash sized from the bodies, with an oversized list for huge or very fast circles.
//!
//! A step is five phases, each in its own module: [`integrate`](Simulation::integrate),
//! [`broad_phase`](Simulation::broad_phase), [`narrow_phase`](Simulation::narrow_phase),
//! [`solve_impacts`](Simulation::solve_impacts) (time of impact), and
//! [`resolve`](Simulation::resolve).
//!
//! ```
//! use circle_collide_core::{scenes, Simulation};
//! let scene = scenes::gas(100, 0.3, 10.0);
//! let mut sim = scene.simulation();
//! let e0 = sim.bodies().kinetic_energy();
//! for _ in 0..60 {
//!     sim.step(scenes::DT);
//! }
//! assert!((sim.bodies().kinetic_energy() / e0 - 1.0).abs() < 1e-9);
//! ```

pub mod add_bodies;
pub mod arena;
pub mod bodies;
pub mod body;
mod body_bits;
mod bottom_up;
mod broad_phase;
mod compressed_rows;
pub mod config;
mod contact_memory;
mod contact_rows;
pub mod contacts;
pub mod events;
pub mod filter;
pub mod flight;
pub mod friction;
mod gap_contacts;
mod gravity;
mod grid;
mod groups;
mod impacts;
pub mod impulse;
mod integrate;
mod jam_list;
pub mod kept_bodies;
mod key_sort;
pub mod level;
pub mod manifold;
mod memory_order;
mod narrow_phase;
pub mod order;
mod outward;
mod pair_sort;
pub mod parabolic_toi;
pub mod parallel;
mod push_out;
pub mod query;
mod queue;
pub mod resolve;
pub mod same_instant;
pub mod scenes;
pub mod segment;
mod shock;
pub mod simulation;
mod sleep;
mod small_lcp;
mod solver_pairs;
mod speculative;
mod statics;
pub mod stats;
pub mod toi;
mod wake_push;
mod wake_reach;
#[cfg(test)]
mod work_skips_tests;

pub use arena::{Arena, Wall};
pub use bodies::Bodies;
pub use body::{BodyDesc, InputIssues};
pub use config::{
    DISTURB_FRACTION, MAX_IMPACTS_PER_BODY, MAX_IMPACTS_PER_STEP, SleepConfig, StepConfig,
};
pub use contacts::{ContactMemory, KeptContact, Partner};
pub use events::{Impact, Other};
pub use filter::Layers;
pub use impulse::RestitutionCombine;
pub use level::Level;
pub use manifold::Manifold;
pub use queue::{MAX_BODIES, MAX_SEGMENTS};
pub use segment::Segment;
pub use simulation::{AddBodyError, Contact, Simulation};
pub use stats::StepStats;

/// Re-export of the math library, so users need no direct dependency.
pub use glam;

/// The README's code blocks, compiled as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
