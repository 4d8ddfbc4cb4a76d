//! Party members, as the party lists them and as its events name them.

/// A party member (`party.getMemberData`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PartyMember {
    /// The member's game id (kept current by `S_SPAWN_USER`).
    pub game_id: u64,
    /// The character on its server.
    pub player_id: u32,
    /// The server.
    pub server_id: u32,
    /// The name.
    pub name: String,
    /// The class index (`Class::from_index` gives the class).
    pub class: u32,
}

/// A party member who left or was kicked (`party.member_leave`,
/// `party.member_kick`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeftMember {
    /// The server.
    pub server_id: u32,
    /// The character on that server.
    pub player_id: u32,
    /// The name.
    pub name: String,
    /// The class index from the party list, if the member was in it
    /// (`None` is tera-game-state's `class: -1`).
    pub class: Option<u32>,
}
