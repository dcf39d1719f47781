//! Which pairs interact: collision layers, explicit exclusions, sensors.

/// Collision layers of a body: up to 32 layers as bit masks. Two bodies interact only
/// when each one's `memberships` meets the other's `filters`:
/// `(a.memberships & b.filters) != 0 && (b.memberships & a.filters) != 0`.
/// Pairs that do not interact never reach the narrow phase.
///
/// ```
/// use circle_collide_core::Layers;
/// const PLAYER: u32 = 1 << 0;
/// const ENEMY: u32 = 1 << 1;
/// const BULLET: u32 = 1 << 2;
/// // Player bullets hit enemies only.
/// let bullet = Layers::new(BULLET, ENEMY);
/// let enemy = Layers::new(ENEMY, PLAYER | BULLET);
/// let player = Layers::new(PLAYER, ENEMY);
/// assert!(bullet.interacts(enemy));
/// assert!(!bullet.interacts(player));
/// assert!(Layers::ALL.interacts(Layers::ALL));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct Layers {
    /// Layers the body belongs to.
    pub memberships: u32,
    /// Layers the body collides with.
    pub filters: u32,
}

impl Layers {
    /// Member of every layer, colliding with every layer (the default).
    pub const ALL: Self = Self {
        memberships: u32::MAX,
        filters: u32::MAX,
    };
    /// Member of no layer and colliding with none: interacts with nothing.
    pub const NONE: Self = Self {
        memberships: 0,
        filters: 0,
    };

    /// Layers from the two masks.
    pub const fn new(memberships: u32, filters: u32) -> Self {
        Self {
            memberships,
            filters,
        }
    }

    /// Whether two bodies with these layers interact.
    #[inline]
    pub const fn interacts(self, other: Self) -> bool {
        self.memberships & other.filters != 0 && other.memberships & self.filters != 0
    }
}

impl Default for Layers {
    fn default() -> Self {
        Self::ALL
    }
}

/// Key of an unordered pair, for exclusion sets.
#[inline]
pub(crate) fn pair_key(i: u32, j: u32) -> u64 {
    (u64::from(i.min(j)) << 32) | u64::from(i.max(j))
}
