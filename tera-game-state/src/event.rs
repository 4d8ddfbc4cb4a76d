//! The events game state yields, each with its arguments, named as
//! tera-game-state names them.

use tera_packets::{Angle, Vec3};

use crate::class::{Class, Gender, Race};
use crate::entity_kind::EntityKind;
use crate::member::{LeftMember, PartyMember};

/// How a contract ended (`contract.end`'s `how`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContractEnd {
    /// `S_ACCEPT_CONTRACT`.
    Accept,
    /// `S_REJECT_CONTRACT`.
    Reject,
    /// `S_CANCEL_CONTRACT`.
    Cancel,
}

/// Why the perks changed (`talents.change_perks`'s `how`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PerkChange {
    /// `S_LOAD_EP_INFO`, at login.
    Init,
    /// `S_LEARN_EP_PERK`: perks learned.
    Learn,
    /// `TTB_S_LOAD_EP_PAGE`: another preset.
    ChangePreset,
    /// `S_RESET_EP_PERK`: perks reset.
    Reset,
}

/// Something that happened in the game, as game state saw it in a packet.
///
/// The name that begins each variant's doc is tera-game-state's (`mod.game.on(...)`,
/// `mod.game.me.on(...)`, `mod.game.party.on(...)`...);
/// [`GameEvent::name`] gives them. Events past tera-game-state (position,
/// entities, abnormalities) are marked so.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum GameEvent {
    /// `enter_character_lobby`: The character list is shown.
    EnterCharacterLobby,
    /// `leave_character_lobby`: The character list is left.
    LeaveCharacterLobby,
    /// `enter_game`: A character entered the game (`S_LOGIN`).
    EnterGame,
    /// `leave_game`: The character left the game (lobby or exit).
    LeaveGame,
    /// `enter_loading_screen`: A loading screen begins (`S_LOGIN`,
    /// `S_LOAD_TOPO`).
    EnterLoadingScreen,
    /// `leave_loading_screen`: The loading screen ends (`S_SPAWN_ME`).
    LeaveLoadingScreen,
    /// `me.change_template`: The player's template (at login, or a hero
    /// switched).
    ChangeTemplate {
        /// The template.
        template_id: i32,
        /// Its class (unknown without a data center or the convention).
        class: Option<Class>,
        /// Its race.
        race: Option<Race>,
        /// Its gender.
        gender: Option<Gender>,
    },
    /// `me.change_zone`: The zone changed (`S_LOAD_TOPO`); not on a
    /// channel change or a teleport within the zone.
    ChangeZone {
        /// The new zone.
        zone: i32,
        /// No loading screen is shown.
        quick: bool,
    },
    /// `me.die`: The player died.
    Die,
    /// `me.resurrect`: The player came back to life.
    Resurrect,
    /// `me.mount`: The player mounted a vehicle.
    Mount {
        /// The vehicle.
        id: u32,
        /// The skill used to mount.
        skill: u32,
    },
    /// `me.dismount`: The player dismounted.
    Dismount,
    /// `me.change_name`: The player's name changed in game.
    ChangeName {
        /// The new name.
        name: String,
    },
    /// `me.change_level`: The player's level changed in game.
    ChangeLevel {
        /// The new level.
        level: u32,
    },
    /// `me.enter_combat`: The player entered combat.
    EnterCombat,
    /// `me.leave_combat`: The player left combat.
    LeaveCombat,
    /// `me.start_pegasus`: A pegasus ride began.
    StartPegasus,
    /// `me.finish_pegasus`: The pegasus ride ended.
    FinishPegasus,
    /// `me.abnormalities.begin` (past tera-game-state): An abnormality began
    /// on the player.
    AbnormalityBegin {
        /// The abnormality.
        id: u32,
        /// Its stacks.
        stacks: i32,
        /// How long it lasts, in milliseconds.
        duration: i64,
    },
    /// `me.abnormalities.refresh` (past tera-game-state): An abnormality on
    /// the player was refreshed.
    AbnormalityRefresh {
        /// The abnormality.
        id: u32,
        /// Its stacks.
        stacks: i32,
        /// How long it lasts from now, in milliseconds.
        duration: i64,
    },
    /// `me.abnormalities.end` (past tera-game-state): An abnormality on the
    /// player ended.
    AbnormalityEnd {
        /// The abnormality.
        id: u32,
    },
    /// `party.list`: The party's members changed.
    PartyList {
        /// The members, as [`Party::members`](crate::Party::members) now.
        members: Vec<PartyMember>,
    },
    /// `party.member_leave`: A member left.
    PartyMemberLeave(LeftMember),
    /// `party.member_kick`: A member was kicked.
    PartyMemberKick(LeftMember),
    /// `party.leave`: The player left the party.
    PartyLeave,
    /// `inventory.update`: A whole batch of item lists arrived.
    InventoryUpdate,
    /// `contract.begin`: A contract began.
    ContractBegin {
        /// Its type.
        kind: i32,
        /// Its id.
        id: i32,
    },
    /// `contract.end`: The contract ended.
    ContractEnd {
        /// How.
        how: ContractEnd,
    },
    /// `glyphs.change`: The known or enabled glyphs changed.
    GlyphsChange,
    /// `talents.change_perks`: The learned perks changed.
    ChangePerks {
        /// Why.
        how: PerkChange,
    },
    /// `position.correct` (past tera-game-state): The server moved the
    /// player (`S_INSTANT_MOVE`, `S_INSTANT_DASH`).
    PositionCorrected {
        /// Where.
        loc: Vec3,
        /// Heading.
        w: Angle,
    },
    /// `entities.spawn` (past tera-game-state): A creature, user or
    /// gathering node came into sight.
    Spawn {
        /// Its game id.
        game_id: u64,
        /// What it is.
        kind: EntityKind,
    },
    /// `entities.despawn` (past tera-game-state): It left sight.
    Despawn {
        /// Its game id.
        game_id: u64,
        /// What it was.
        kind: EntityKind,
    },
    /// `entities.hp` (past tera-game-state): An entity's HP as a packet
    /// said it (`S_CREATURE_CHANGE_HP`, `S_BOSS_GAGE_INFO`).
    Hp {
        /// Its game id.
        game_id: u64,
        /// Current HP.
        hp: i64,
        /// Maximum HP.
        max_hp: i64,
    },
    /// `entities.life` (past tera-game-state): An entity died or came back.
    Life {
        /// Its game id.
        game_id: u64,
        /// Alive now.
        alive: bool,
    },
}

impl GameEvent {
    /// The event's name in tera-game-state (`"enter_game"`,
    /// `"me.change_zone"`, `"party.list"`); past it, names of the same kind.
    #[must_use]
    pub fn name(&self) -> &'static str {
        match self {
            GameEvent::EnterCharacterLobby => "enter_character_lobby",
            GameEvent::LeaveCharacterLobby => "leave_character_lobby",
            GameEvent::EnterGame => "enter_game",
            GameEvent::LeaveGame => "leave_game",
            GameEvent::EnterLoadingScreen => "enter_loading_screen",
            GameEvent::LeaveLoadingScreen => "leave_loading_screen",
            GameEvent::ChangeTemplate { .. } => "me.change_template",
            GameEvent::ChangeZone { .. } => "me.change_zone",
            GameEvent::Die => "me.die",
            GameEvent::Resurrect => "me.resurrect",
            GameEvent::Mount { .. } => "me.mount",
            GameEvent::Dismount => "me.dismount",
            GameEvent::ChangeName { .. } => "me.change_name",
            GameEvent::ChangeLevel { .. } => "me.change_level",
            GameEvent::EnterCombat => "me.enter_combat",
            GameEvent::LeaveCombat => "me.leave_combat",
            GameEvent::StartPegasus => "me.start_pegasus",
            GameEvent::FinishPegasus => "me.finish_pegasus",
            GameEvent::AbnormalityBegin { .. } => "me.abnormalities.begin",
            GameEvent::AbnormalityRefresh { .. } => "me.abnormalities.refresh",
            GameEvent::AbnormalityEnd { .. } => "me.abnormalities.end",
            GameEvent::PartyList { .. } => "party.list",
            GameEvent::PartyMemberLeave(_) => "party.member_leave",
            GameEvent::PartyMemberKick(_) => "party.member_kick",
            GameEvent::PartyLeave => "party.leave",
            GameEvent::InventoryUpdate => "inventory.update",
            GameEvent::ContractBegin { .. } => "contract.begin",
            GameEvent::ContractEnd { .. } => "contract.end",
            GameEvent::GlyphsChange => "glyphs.change",
            GameEvent::ChangePerks { .. } => "talents.change_perks",
            GameEvent::PositionCorrected { .. } => "position.correct",
            GameEvent::Spawn { .. } => "entities.spawn",
            GameEvent::Despawn { .. } => "entities.despawn",
            GameEvent::Hp { .. } => "entities.hp",
            GameEvent::Life { .. } => "entities.life",
        }
    }
}
