//! The contact memory: the solver's contacts of the last step with their impulses, keyed
//! by the bodies' stable keys — the warm start of the next step's solve and part of the
//! world's state a rollback restores. Re-exported from [`contacts`](crate::contacts).

use crate::arena::Wall;

/// What a remembered contact's first body touches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub enum Partner {
    /// Another body, by its stable key ([`BodyDesc::key`](crate::BodyDesc::key)).
    Body(u64),
    /// A wall of the arena.
    Wall(Wall),
    /// A segment of the level, by its index (see [`Simulation::set_level`](crate::Simulation::set_level)).
    Segment(u32),
}

/// A contact remembered from the last step: its bodies and the impulses it ended the
/// step with.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct KeptContact {
    /// Stable key of the first body (the lower key of two bodies).
    pub a: u64,
    /// What it touches (for two bodies, the higher key).
    pub b: Partner,
    /// Accumulated normal impulse, ≥ 0.
    pub impulse: f64,
    /// Accumulated friction impulse along the contact's tangent (the same whichever
    /// body is first; see [`friction`](crate::friction)). 0 for smooth bodies.
    #[cfg_attr(feature = "serialize", serde(default))]
    pub tangent_impulse: f64,
    /// Accumulated rolling-resistance angular impulse on body `b` (its opposite on `a`).
    /// 0 without rolling resistance.
    #[cfg_attr(feature = "serialize", serde(default))]
    pub rolling_impulse: f64,
}

impl KeptContact {
    /// A contact with a normal impulse only (no friction, no rolling resistance).
    pub fn new(a: u64, b: Partner, impulse: f64) -> Self {
        Self {
            a,
            b,
            impulse,
            tangent_impulse: 0.0,
            rolling_impulse: 0.0,
        }
    }

    pub(crate) fn key(&self) -> (u64, Partner) {
        (self.a, self.b)
    }
}

/// The solver's contacts of the last step with their impulses, keyed by the bodies'
/// stable keys: the solver's warm start and what tells a pressing pair from a new impact
/// (without gravity it also holds, with the least positive impulse, the pairs that had an
/// impact last step and could press: pushed into each other again, they press). It is part
/// of the world's state: a rollback that restores the bodies must restore it too
/// ([`Simulation::contact_memory`](crate::Simulation::contact_memory),
/// [`Simulation::set_contact_memory`](crate::Simulation::set_contact_memory)) to re-simulate
/// bit for bit.
///
/// ```
/// use circle_collide_core::contacts::{ContactMemory, KeptContact, Partner};
/// let memory = ContactMemory::new(vec![KeptContact::new(7, Partner::Body(3), 0.5)]);
/// // Stored as (lower key, higher key):
/// assert_eq!(memory.impulse(3, Partner::Body(7)), Some(0.5));
/// assert_eq!(memory.impulse(7, Partner::Body(3)), Some(0.5));
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct ContactMemory {
    pub(crate) contacts: Vec<KeptContact>,
    /// Whether the step that left this memory ran the conjugate-gradient correction: the
    /// next one then does not ([`CONJUGATE_CONTACTS`](crate::contacts::CONJUGATE_CONTACTS)).
    #[cfg_attr(feature = "serialize", serde(default))]
    pub(crate) corrected: bool,
    /// Whether the step that left this memory stopped its push-out at the work limit,
    /// overlaps left: the next one's push-out then gets the limit without gravity
    /// ([`GRAVITY_WORK_FACTOR`](crate::resolve::GRAVITY_WORK_FACTOR)).
    #[cfg_attr(feature = "serialize", serde(default))]
    pub(crate) push_out_limited: bool,
    /// The bits of the gravity and the arena's corners of the step that left this memory
    /// ([`StepConfig::surroundings`](crate::StepConfig::surroundings); `None` before the
    /// first step): a step that starts with others wakes every sleeping body.
    #[cfg_attr(feature = "serialize", serde(default))]
    pub(crate) surroundings: Option<[[u64; 2]; 3]>,
}

impl ContactMemory {
    /// Drops the contacts with level segments (the level changed).
    pub(crate) fn forget_segments(&mut self) {
        self.contacts
            .retain(|c| !matches!(c.b, Partner::Segment(_)));
    }

    /// A memory holding `contacts`: each body pair is put in (lower key, higher key)
    /// order, the list is sorted, repeats keep their first entry, and contacts whose
    /// impulse is negative or not finite are dropped.
    pub fn new(mut contacts: Vec<KeptContact>) -> Self {
        normalize(&mut contacts);
        contacts.sort_by_key(KeptContact::key);
        contacts.dedup_by_key(|c| c.key());
        Self {
            contacts,
            corrected: false,
            push_out_limited: false,
            surroundings: None,
        }
    }

    /// This memory, marked as left by a step that did (`true`) or did not run the
    /// conjugate-gradient correction: a step after one that did skips it
    /// ([`CONJUGATE_CONTACTS`](crate::contacts::CONJUGATE_CONTACTS)). Part of the state a rollback restores.
    pub fn with_corrected(mut self, corrected: bool) -> Self {
        self.corrected = corrected;
        self
    }

    /// Whether the step that left this memory ran the conjugate-gradient correction
    /// ([`with_corrected`](Self::with_corrected)).
    pub fn corrected(&self) -> bool {
        self.corrected
    }

    /// This memory, marked as left by a step whose push-out did (`true`) or did not stop
    /// at its work limit with overlaps left: under gravity the next step's push-out then
    /// works within the limit without gravity
    /// ([`GRAVITY_WORK_FACTOR`](crate::resolve::GRAVITY_WORK_FACTOR)). Part of the state a
    /// rollback restores.
    pub fn with_push_out_limited(mut self, limited: bool) -> Self {
        self.push_out_limited = limited;
        self
    }

    /// Whether the step that left this memory stopped its push-out at the work limit
    /// ([`with_push_out_limited`](Self::with_push_out_limited)).
    pub fn push_out_limited(&self) -> bool {
        self.push_out_limited
    }

    /// This memory, marked as left by a step whose gravity and arena had the bits
    /// `surroundings` ([`StepConfig::surroundings`](crate::StepConfig::surroundings); `None`:
    /// unknown, and a simulation given this memory keeps its own). The next step wakes
    /// every sleeping body if its own differ, so a rollback that restores this memory with
    /// the bodies wakes them only where the first run did — even across a change of
    /// gravity or arena after the restored moment. Part of the state a rollback restores.
    pub fn with_surroundings(mut self, surroundings: Option<[[u64; 2]; 3]>) -> Self {
        self.surroundings = surroundings;
        self
    }

    /// The bits of the gravity and arena of the step that left this memory
    /// ([`with_surroundings`](Self::with_surroundings)).
    pub fn surroundings(&self) -> Option<[[u64; 2]; 3]> {
        self.surroundings
    }

    /// [`new`](Self::new) for a list known to hold each contact once, already in
    /// (first key, partner) order with each pair's lower key first (the solver's, from
    /// `remember_contacts`): the same memory, without the sort.
    pub(crate) fn from_sorted(mut contacts: Vec<KeptContact>) -> Self {
        normalize(&mut contacts);
        debug_assert!(contacts.is_sorted_by_key(KeptContact::key));
        Self {
            contacts,
            corrected: false,
            push_out_limited: false,
            surroundings: None,
        }
    }

    /// Adds `added`, contacts the memory does not hold (either body first; duplicates
    /// kept once), keeping the order: they are normalized and sorted, then merged in
    /// place from the back. `added` is left sorted (it is the caller's scratch).
    pub(crate) fn insert_new(&mut self, added: &mut Vec<KeptContact>) {
        normalize(added);
        added.sort_unstable_by_key(KeptContact::key);
        added.dedup_by_key(|c| c.key());
        let Some(&first) = added.first() else {
            return;
        };
        let all = &mut self.contacts;
        let (mut i, mut j) = (all.len(), added.len());
        all.resize(i + j, first);
        while j > 0 {
            let from_old = i > 0 && all[i - 1].key() > added[j - 1].key();
            all[i + j - 1] = if from_old { all[i - 1] } else { added[j - 1] };
            if from_old {
                i -= 1;
            } else {
                j -= 1;
            }
        }
        debug_assert!(all.is_sorted_by_key(KeptContact::key));
    }

    /// The remembered contacts, sorted by (first key, partner).
    pub fn contacts(&self) -> &[KeptContact] {
        &self.contacts
    }

    /// Number of remembered contacts.
    pub fn len(&self) -> usize {
        self.contacts.len()
    }

    /// Whether nothing is remembered.
    pub fn is_empty(&self) -> bool {
        self.contacts.is_empty()
    }

    /// For each body, the range of the remembered contacts whose first (lower) key is
    /// its key, into `out` by body index (for [`find_in`](Self::find_in)); `by_key` is
    /// the bodies' `(key, index)` sorted by key. One walk along both sorted lists (a
    /// binary search per body cost ~0.25 µs a body in a pile of 10,000 with entity
    /// keys). A body with no remembered contact gets an empty range.
    pub(crate) fn rows_of(&self, by_key: &[(u64, u32)], out: &mut Vec<(u32, u32)>) {
        out.clear();
        if self.contacts.is_empty() {
            return;
        }
        out.resize(by_key.len(), (0, 0));
        let mut start = 0;
        for &(key, i) in by_key {
            // Equal keys (never given by the plugin) share one range.
            start += (self.contacts[start..].iter())
                .take_while(|c| c.a < key)
                .count();
            let len = (self.contacts[start..].iter())
                .take_while(|c| c.a == key)
                .count();
            out[i as usize] = (start as u32, (start + len) as u32);
        }
    }

    /// The contact with `partner` among the contacts `start..end` (one body's range from
    /// [`rows_of`](Self::rows_of)).
    pub(crate) fn find_in(
        &self,
        (start, end): (u32, u32),
        partner: Partner,
    ) -> Option<&KeptContact> {
        (self.contacts[start as usize..end as usize].iter()).find(|c| c.b == partner)
    }

    /// The normal impulse remembered for body `a` touching `b`, in either order.
    pub fn impulse(&self, a: u64, b: Partner) -> Option<f64> {
        self.get(a, b).map(|c| c.impulse)
    }

    /// The contact remembered for body `a` touching `b`, in either order (as stored:
    /// lower key first).
    pub fn get(&self, a: u64, b: Partner) -> Option<&KeptContact> {
        let key = match b {
            Partner::Body(b) if b < a => (b, Partner::Body(a)),
            _ => (a, b),
        };
        self.contacts
            .binary_search_by_key(&key, KeptContact::key)
            .ok()
            .map(|k| &self.contacts[k])
    }
}

/// Puts each body pair in (lower key, higher key) order (the rolling impulse, which acts
/// on `b`, changes sign), drops contacts whose normal impulse is negative or not finite,
/// and zeroes friction impulses that are not finite.
fn normalize(contacts: &mut Vec<KeptContact>) {
    for c in contacts.iter_mut() {
        if let Partner::Body(b) = c.b
            && b < c.a
        {
            (c.a, c.b) = (b, Partner::Body(c.a));
            c.rolling_impulse = -c.rolling_impulse;
        }
        for x in [&mut c.tangent_impulse, &mut c.rolling_impulse] {
            if !x.is_finite() {
                *x = 0.0;
            }
        }
    }
    contacts.retain(|c| c.impulse.is_finite() && c.impulse >= 0.0);
}
