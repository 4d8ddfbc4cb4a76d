//! Which packets game state reads, in which def version for which patch,
//! and for which submodules; and the opcode table of a connection.

use std::collections::HashMap;

use tera_packets::ProtocolMap;

use crate::submodule::Submodules;

/// A packet game state reads, at one def version (`None`: by name only,
/// nothing decoded).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Kind {
    CLoginArbiter2,
    SLoginAccountInfo3,
    SGetUserList,
    SReturnToLobby,
    SExit,
    SSelectUser,
    STbaSelectUser,
    SLogin14,
    SLogin15,
    TtbSChangeHero1,
    SLoadTopo3,
    SSpawnMe3,
    SCreatureLife3,
    SMountVehicle2,
    SUnmountVehicle2,
    SUserChangeName1,
    SUserLevelup2,
    SUserStatus4,
    SAbnormalityBegin5,
    SAbnormalityRefresh1,
    SAbnormalityRefresh2,
    SAbnormalityEnd1,
    SPartyMemberList9,
    SLeavePartyMember2,
    SBanPartyMember1,
    SLeaveParty,
    SSpawnUser16,
    SSpawnUser17,
    SInvenUserdata2,
    SItemlist6,
    SItemlist7,
    SRequestContract2,
    SAcceptContract,
    SRejectContract,
    SCancelContract,
    SCrestInfo2,
    SCrestApply2,
    SLoadEpInfo3,
    SLearnEpPerk1,
    TtbSLoadEpPage1,
    SResetEpPerk1,
    CPlayerLocation5,
    CNotifyLocationInAction4,
    CNotifyLocationInDash4,
    SInstantMove3,
    SInstantDash3,
    SActionEnd5,
    SDespawnUser3,
    SUserLocation6,
    SSpawnNpc12,
    SDespawnNpc3,
    SNpcLocation3,
    SSpawnCollection4,
    SDespawnCollection2,
    SCreatureChangeHp6,
    SBossGageInfo3,
}

/// One row: the packet `name` at def `version` (0: by name only) is read
/// from patch `since` on, for the submodules `needs` (any of them).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Row {
    pub name: &'static str,
    pub version: u32,
    pub since: u32,
    pub needs: Submodules,
    pub kind: Kind,
}

const SESSION: Submodules = Submodules::SESSION;
const ME: Submodules = Submodules::ME;
const ABN: Submodules = Submodules::ABNORMALITIES;
const PARTY: Submodules = Submodules::PARTY;
const INV: Submodules = Submodules::INVENTORY;
const CONTRACT: Submodules = Submodules::CONTRACT;
const GLYPHS: Submodules = Submodules::GLYPHS;
const TALENTS: Submodules = Submodules::TALENTS;
const POS: Submodules = Submodules::POSITION;
const ENT: Submodules = Submodules::ENTITIES;

const fn row(name: &'static str, version: u32, since: u32, needs: Submodules, kind: Kind) -> Row {
    Row {
        name,
        version,
        since,
        needs,
        kind,
    }
}

/// Every packet game state reads. The patch boundaries are tera-game-state's
/// (`majorPatchVersion`) where it switches versions; a packet whose first
/// row starts after the connection's patch is not read (see
/// [`GameState::unsupported`](crate::GameState::unsupported)).
pub(crate) const ROWS: &[Row] = &[
    row("C_LOGIN_ARBITER", 2, 0, SESSION, Kind::CLoginArbiter2),
    row(
        "S_LOGIN_ACCOUNT_INFO",
        3,
        100,
        SESSION,
        Kind::SLoginAccountInfo3,
    ),
    row("S_GET_USER_LIST", 0, 0, SESSION, Kind::SGetUserList),
    row("S_RETURN_TO_LOBBY", 0, 0, SESSION, Kind::SReturnToLobby),
    row("S_EXIT", 0, 0, SESSION, Kind::SExit),
    row("S_SELECT_USER", 0, 99, SESSION, Kind::SSelectUser),
    row("S_TBA_SELECT_USER", 0, 99, SESSION, Kind::STbaSelectUser),
    row("S_LOGIN", 14, 86, SESSION, Kind::SLogin14),
    row("S_LOGIN", 15, 114, SESSION, Kind::SLogin15),
    row("TTB_S_CHANGE_HERO", 1, 99, ME, Kind::TtbSChangeHero1),
    row("S_LOAD_TOPO", 3, 0, SESSION, Kind::SLoadTopo3),
    row("S_SPAWN_ME", 3, 0, SESSION, Kind::SSpawnMe3),
    row("S_CREATURE_LIFE", 3, 0, ME.union(ENT), Kind::SCreatureLife3),
    row("S_MOUNT_VEHICLE", 2, 0, ME, Kind::SMountVehicle2),
    row("S_UNMOUNT_VEHICLE", 2, 0, ME, Kind::SUnmountVehicle2),
    row("S_USER_CHANGE_NAME", 1, 0, ME, Kind::SUserChangeName1),
    row("S_USER_LEVELUP", 2, 0, ME, Kind::SUserLevelup2),
    row("S_USER_STATUS", 4, 108, ME, Kind::SUserStatus4),
    row("S_ABNORMALITY_BEGIN", 5, 107, ABN, Kind::SAbnormalityBegin5),
    row(
        "S_ABNORMALITY_REFRESH",
        1,
        0,
        ABN,
        Kind::SAbnormalityRefresh1,
    ),
    row(
        "S_ABNORMALITY_REFRESH",
        2,
        107,
        ABN,
        Kind::SAbnormalityRefresh2,
    ),
    row("S_ABNORMALITY_END", 1, 0, ABN, Kind::SAbnormalityEnd1),
    row(
        "S_PARTY_MEMBER_LIST",
        9,
        106,
        PARTY,
        Kind::SPartyMemberList9,
    ),
    row(
        "S_LEAVE_PARTY_MEMBER",
        2,
        0,
        PARTY,
        Kind::SLeavePartyMember2,
    ),
    row("S_BAN_PARTY_MEMBER", 1, 0, PARTY, Kind::SBanPartyMember1),
    row("S_LEAVE_PARTY", 0, 0, PARTY, Kind::SLeaveParty),
    row("S_SPAWN_USER", 16, 96, PARTY.union(ENT), Kind::SSpawnUser16),
    row(
        "S_SPAWN_USER",
        17,
        101,
        PARTY.union(ENT),
        Kind::SSpawnUser17,
    ),
    row("S_INVEN_USERDATA", 2, 0, INV, Kind::SInvenUserdata2),
    row("S_ITEMLIST", 6, 109, INV, Kind::SItemlist6),
    row("S_ITEMLIST", 7, 114, INV, Kind::SItemlist7),
    row(
        "S_REQUEST_CONTRACT",
        2,
        108,
        CONTRACT,
        Kind::SRequestContract2,
    ),
    row("S_ACCEPT_CONTRACT", 0, 0, CONTRACT, Kind::SAcceptContract),
    row("S_REJECT_CONTRACT", 0, 0, CONTRACT, Kind::SRejectContract),
    row("S_CANCEL_CONTRACT", 0, 0, CONTRACT, Kind::SCancelContract),
    row("S_CREST_INFO", 2, 0, GLYPHS, Kind::SCrestInfo2),
    row("S_CREST_APPLY", 2, 0, GLYPHS, Kind::SCrestApply2),
    row("S_LOAD_EP_INFO", 3, 105, TALENTS, Kind::SLoadEpInfo3),
    row("S_LEARN_EP_PERK", 1, 0, TALENTS, Kind::SLearnEpPerk1),
    row("TTB_S_LOAD_EP_PAGE", 1, 96, TALENTS, Kind::TtbSLoadEpPage1),
    row("S_RESET_EP_PERK", 1, 0, TALENTS, Kind::SResetEpPerk1),
    row("C_PLAYER_LOCATION", 5, 0, POS, Kind::CPlayerLocation5),
    row(
        "C_NOTIFY_LOCATION_IN_ACTION",
        4,
        0,
        POS,
        Kind::CNotifyLocationInAction4,
    ),
    row(
        "C_NOTIFY_LOCATION_IN_DASH",
        4,
        0,
        POS,
        Kind::CNotifyLocationInDash4,
    ),
    row("S_INSTANT_MOVE", 3, 0, POS.union(ENT), Kind::SInstantMove3),
    row("S_INSTANT_DASH", 3, 0, POS.union(ENT), Kind::SInstantDash3),
    row("S_ACTION_END", 5, 0, POS.union(ENT), Kind::SActionEnd5),
    row("S_DESPAWN_USER", 3, 0, ENT, Kind::SDespawnUser3),
    row("S_USER_LOCATION", 6, 0, ENT, Kind::SUserLocation6),
    row("S_SPAWN_NPC", 12, 101, ENT, Kind::SSpawnNpc12),
    row("S_DESPAWN_NPC", 3, 0, ENT, Kind::SDespawnNpc3),
    row("S_NPC_LOCATION", 3, 0, ENT, Kind::SNpcLocation3),
    row("S_SPAWN_COLLECTION", 4, 0, ENT, Kind::SSpawnCollection4),
    row("S_DESPAWN_COLLECTION", 2, 0, ENT, Kind::SDespawnCollection2),
    row("S_CREATURE_CHANGE_HP", 6, 0, ENT, Kind::SCreatureChangeHp6),
    row("S_BOSS_GAGE_INFO", 3, 0, ENT, Kind::SBossGageInfo3),
];

/// The row of `name` for `patch` (`None`: the newest).
pub(crate) fn choose(name: &str, patch: Option<u32>) -> Option<&'static Row> {
    ROWS.iter()
        .filter(|r| r.name == name && patch.is_none_or(|p| r.since <= p))
        .max_by_key(|r| r.since)
}

/// The names game state reads none of at `patch`: their only defs are of
/// later patches.
pub(crate) fn unsupported(patch: Option<u32>) -> Vec<&'static str> {
    let mut names: Vec<&'static str> = ROWS
        .iter()
        .map(|r| r.name)
        .filter(|name| choose(name, patch).is_none())
        .collect();
    names.dedup();
    names
}

/// Opcode -> what to read, for one connection's map, patch and submodules.
#[derive(Debug, Default, Clone)]
pub(crate) struct OpcodeTable {
    kinds: HashMap<u16, Kind, foldhash::fast::FixedState>,
}

impl OpcodeTable {
    /// The table of `map`: each name game state reads at `patch` for
    /// `enabled`, where the map has it.
    pub(crate) fn new(map: &ProtocolMap, patch: Option<u32>, enabled: Submodules) -> Self {
        let mut kinds = HashMap::with_hasher(foldhash::fast::FixedState::default());
        for row in ROWS {
            if !row.needs.intersects(enabled) {
                continue;
            }
            let Some(chosen) = choose(row.name, patch) else {
                continue;
            };
            if chosen.kind != row.kind {
                continue;
            }
            if let Some(code) = map.code(row.name) {
                kinds.insert(code, row.kind);
            }
        }
        OpcodeTable { kinds }
    }

    /// What to read of a packet of `opcode`.
    #[inline]
    pub(crate) fn get(&self, opcode: u16) -> Option<Kind> {
        self.kinds.get(&opcode).copied()
    }

    /// How many opcodes are read.
    pub(crate) fn len(&self) -> usize {
        self.kinds.len()
    }
}
