//! The contacts remembered between steps, as a resource a rollback can save.

use bevy::prelude::*;
use circle_collide_core::Wall;
use circle_collide_core::contacts::{ContactMemory as CoreMemory, KeptContact, Partner};

/// What a remembered contact's first entity touches.
#[derive(Reflect, Clone, Copy, Debug, PartialEq)]
#[reflect(Debug, PartialEq)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub enum ContactPartner {
    /// Another body.
    Body(Entity),
    /// A wall of the arena, by its index in [`Wall::ALL`].
    Wall(u8),
    /// A segment of the level, by its index in the core's
    /// [`Level::segments`](circle_collide_core::Level::segments) (dropped when the level
    /// changes).
    Segment(u32),
}

/// One remembered contact and the impulses it ended the last step with.
#[derive(Reflect, Clone, Copy, Debug, PartialEq)]
#[reflect(Debug, PartialEq)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct RememberedContact {
    /// The first body.
    pub a: Entity,
    /// What it touches.
    pub b: ContactPartner,
    /// Accumulated normal impulse, ≥ 0.
    pub impulse: f64,
    /// Accumulated friction impulse along the contact's tangent (0 for smooth bodies).
    #[cfg_attr(feature = "serialize", serde(default))]
    pub tangent_impulse: f64,
    /// Accumulated rolling-resistance angular impulse on `b` (0 without rolling
    /// resistance).
    #[cfg_attr(feature = "serialize", serde(default))]
    pub rolling_impulse: f64,
}

/// The slow contacts of the last step (and, without gravity, the pairs that had an impact
/// and could press, with the least positive impulse), keyed by their entities: the
/// contact solver's warm start and what tells a pressing pair from a new impact. The
/// plugin reads it at the
/// start of every step and writes it at the end, so it is part of the world's state: a
/// rollback (bevy_ggrs, lightyear) that restores the bodies' components must restore this
/// resource too to re-simulate bit for bit. `Reflect` and serde make it saveable.
///
/// ```
/// # use bevy::prelude::*;
/// use bevy_circle_collide::ContactMemory;
/// fn save(memory: Res<ContactMemory>) -> ContactMemory {
///     memory.clone()
/// }
/// # App::new().add_systems(Update, |m: Res<ContactMemory>| { save(m); });
/// ```
#[derive(Resource, Reflect, Clone, Debug, Default, PartialEq)]
#[reflect(Resource, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct ContactMemory {
    /// The contacts, in the core's order (by the entities' bits).
    pub contacts: Vec<RememberedContact>,
    /// Whether the last step ran the contact solver's conjugate-gradient correction: a
    /// deep jam's or pile's solve runs it every other step at most
    /// ([`CONJUGATE_CONTACTS`](circle_collide_core::contacts::CONJUGATE_CONTACTS)).
    #[cfg_attr(feature = "serialize", serde(default))]
    pub corrected: bool,
    /// Whether the last step's push-out stopped at its work limit with overlaps left:
    /// under gravity the next one then works within the limit without gravity
    /// ([`GRAVITY_WORK_FACTOR`](circle_collide_core::resolve::GRAVITY_WORK_FACTOR)), so an
    /// arena filled past what fits does not pay the larger limit every step.
    #[cfg_attr(feature = "serialize", serde(default))]
    pub push_out_limited: bool,
    /// The bits of the settings the last step's bodies rested under (gravity, arena,
    /// default surface, density, slop, sleeping: see
    /// [`CircleCollideConfig`](crate::CircleCollideConfig)'s fields; opaque, `None` before
    /// the first step). A step whose configuration differs from them wakes every sleeping
    /// body; kept here so that a rollback which restores the configuration with the
    /// bodies wakes them only where the first run did, even when the game changed gravity
    /// or the arena after the restored moment. A memory without them (`None`, as one saved
    /// by an earlier version reads) wakes every sleeper at the next step.
    #[cfg_attr(feature = "serialize", serde(default))]
    pub settings: Option<[u64; 14]>,
}

impl ContactMemory {
    /// The core's form: entities become their bits, the core's body keys.
    pub(crate) fn to_core(&self) -> CoreMemory {
        CoreMemory::new(
            (self.contacts.iter())
                .filter_map(|c| {
                    let b = match c.b {
                        ContactPartner::Body(e) => Partner::Body(e.to_bits()),
                        ContactPartner::Wall(w) => Partner::Wall(*Wall::ALL.get(usize::from(w))?),
                        ContactPartner::Segment(s) => Partner::Segment(s),
                    };
                    Some(KeptContact {
                        a: c.a.to_bits(),
                        b,
                        impulse: c.impulse,
                        tangent_impulse: c.tangent_impulse,
                        rolling_impulse: c.rolling_impulse,
                    })
                })
                .collect(),
        )
        .with_corrected(self.corrected)
        .with_push_out_limited(self.push_out_limited)
        .with_surroundings(
            self.settings
                .map(|s| [[s[0], s[1]], [s[2], s[3]], [s[4], s[5]]]),
        )
    }

    /// Refills from the core's memory (whose keys are entity bits).
    pub(crate) fn fill_from(&mut self, memory: &CoreMemory) {
        self.corrected = memory.corrected();
        self.push_out_limited = memory.push_out_limited();
        self.contacts.clear();
        self.contacts
            .extend(memory.contacts().iter().filter_map(|c| {
                let b = match c.b {
                    Partner::Body(bits) => ContactPartner::Body(Entity::try_from_bits(bits)?),
                    Partner::Wall(w) => {
                        ContactPartner::Wall(Wall::ALL.iter().position(|x| *x == w)? as u8)
                    }
                    Partner::Segment(s) => ContactPartner::Segment(s),
                };
                Some(RememberedContact {
                    a: Entity::try_from_bits(c.a)?,
                    b,
                    impulse: c.impulse,
                    tangent_impulse: c.tangent_impulse,
                    rolling_impulse: c.rolling_impulse,
                })
            }));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The memory's contacts, its correction mark and its push-out mark survive the trip
    /// to the core's form and back (what a restored memory hands the core).
    #[test]
    fn the_memory_and_its_marks_round_trip_through_the_core() {
        let (a, b) = (
            Entity::from_bits(1 << 32 | 3),
            Entity::from_bits(1 << 32 | 9),
        );
        let settings = Some(std::array::from_fn(|k| 1000 + k as u64));
        for (corrected, push_out_limited) in [(false, false), (true, false), (false, true)] {
            let memory = ContactMemory {
                contacts: vec![
                    RememberedContact {
                        a,
                        b: ContactPartner::Body(b),
                        impulse: 0.25,
                        tangent_impulse: 0.0,
                        rolling_impulse: 0.0,
                    },
                    RememberedContact {
                        a,
                        b: ContactPartner::Wall(2),
                        impulse: 1.5,
                        tangent_impulse: 0.125,
                        rolling_impulse: 0.0,
                    },
                ],
                corrected,
                push_out_limited,
                settings,
            };
            let core = memory.to_core();
            // The core gets the gravity's and the arena's bits: the settings' first six.
            let surroundings = [[1000, 1001], [1002, 1003], [1004, 1005]];
            assert_eq!(core.surroundings(), Some(surroundings));
            assert_eq!(core.corrected(), corrected);
            assert_eq!(core.push_out_limited(), push_out_limited);
            let mut back = ContactMemory::default();
            back.fill_from(&core);
            assert_eq!(back.corrected, corrected);
            assert_eq!(back.push_out_limited, push_out_limited);
            // The same contacts, in the core's order.
            assert_eq!(back.contacts.len(), 2);
            for c in &memory.contacts {
                assert!(back.contacts.contains(c), "{c:?} lost");
            }
            // The settings are the plugin's own (the write-back sets them beside the
            // core's memory): without them the core gets no surroundings.
            assert_eq!(back.settings, None);
            assert_eq!(back.to_core().surroundings(), None);
            back.settings = settings;
            assert_eq!(back.to_core(), core);
        }
    }
}
