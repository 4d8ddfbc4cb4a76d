//! What an entity in sight is.

/// What an entity is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EntityKind {
    /// Another player (`S_SPAWN_USER`).
    User,
    /// An NPC or monster (`S_SPAWN_NPC`).
    Npc,
    /// A gathering node (`S_SPAWN_COLLECTION`).
    Collection,
}
