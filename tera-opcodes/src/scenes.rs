//! What the game does, as discovery knows it: the order in which a login
//! sends its packets, and the packets that follow from others. These are
//! facts of TERA's client and server, not of any one capture; like the
//! hand-written rules of the tools people use on a patch day, they only
//! add evidence, and a session that plays otherwise simply gets none.

/// The order of a login: each name's first packet after the first packet
/// of the names before it, as the 376012 session plays it from the
/// version check to the player standing in the world and the state sent
/// after (the client's
/// packets only where the server's answer or the next step waits for
/// them). Every server packet that session sends first in that stretch is
/// listed, whether or not a def set holds it: a place whose name has no
/// def takes any packet, so that the login lines up packet for packet.
/// The order is weighed over every way a session's first packets line up
/// with it (`login_alignment`), learning from the session how often its
/// build leaves a name out, sends one the list lacks or swaps two: a
/// session of this build names its places near certainly, one of a build
/// that drifted only the places its defs' fits pin down.
/// `S_JOIN_PRIVATE_CHANNEL` is left out: the recording's own proxy sent it.
const LOGIN_ORDER: &[&str] = &[
    "C_CHECK_VERSION",
    "C_LOGIN_ARBITER",
    "S_CHECK_VERSION",
    "S_LOADING_SCREEN_CONTROL_INFO",
    "S_SERVER_BUILD_INFO",
    "S_REMAIN_PLAY_TIME",
    "S_LOGIN_ARBITER",
    "C_SET_VISIBLE_RANGE",
    "C_GET_USER_LIST",
    "S_LOGIN_ACCOUNT_INFO",
    "S_GET_USER_LIST",
    "C_HARDWARE_INFO",
    "C_SELECT_USER",
    "S_LOAD_CLIENT_ACCOUNT_SETTING",
    "S_DECO_UI_INFO",
    "S_ACCOUNT_PACKAGE_LIST",
    "S_CONFIRM_INVITE_CODE_BUTTON",
    "S_UPDATE_CONTENTS_ON_OFF",
    "S_SELECT_USER",
    "S_BROCAST_GUILD_FLAG",
    "S_ACCOUNT_BENEFIT_LIST",
    "S_LOGIN",
    "S_INVEN_USERDATA",
    "S_CHANGE_POCKET_NAME",
    "S_ITEMLIST",
    "S_SKILL_LIST",
    "S_AVAILABLE_SOCIAL_LIST",
    "S_CLEAR_QUEST_INFO",
    "S_QUEST_INFO",
    "S_EVENT_QUEST_SUMMARY",
    "S_DAILY_QUEST_COMPLETE_COUNT",
    "S_COMPLETED_MISSION_INFO",
    "S_ARTISAN_SKILL_LIST",
    "S_CURRENT_ELECTION_STATE",
    "S_ARTISAN_RECIPE_LIST",
    "S_NPCGUILD_LIST",
    "S_PET_INCUBATOR_INFO_CHANGE",
    "S_VIRTUAL_LATENCY",
    "S_MOVE_DISTANCE_DELTA",
    "S_MY_DESCRIPTION",
    "S_F2P_PremiumUser_Permission",
    "S_START_COOLTIME_SERVANT_SKILL",
    "S_FIELD_POINT_REWARD_INFO_LIST",
    "S_USER_EXTERNAL_CHANGE",
    "S_USER_ITEM_EQUIP_CHANGER",
    "S_FESTIVAL_LIST",
    "S_LOAD_TOPO",
    "C_LOAD_TOPO_FIN",
    "S_LOAD_HINT",
    "S_SEND_USER_PLAY_TIME",
    "S_LOAD_EP_INFO",
    "S_FIELD_POINT_INFO",
    "S_UPDATE_EVENT_SYSTEM",
    "S_CARD_DATA",
    "S_VISITED_SECTION_LIST",
    "S_REQUEST_INVITE_GUILD_TAG",
    "S_USER_BLOCK_LIST",
    "S_FRIEND_GROUP_LIST",
    "S_FRIEND_LIST",
    "S_UPDATE_FRIEND_INFO",
    "S_LOAD_CLIENT_USER_SETTING",
    "S_TRADE_BROKER_CALC_NOTIFY",
    "S_SYSTEM_MESSAGE",
    "S_PARCEL_READ_RECV_STATUS",
    "S_EP_SYSTEM_DAILY_EVENT_EXP_ON_OFF",
    "S_HUNTING_ZONE_EVENT_LIST",
    "S_CURRENT_CHANNEL",
    "S_SPAWN_ME",
    // What the world around sends first, then the rest of the login's
    // state.
    "S_SPAWN_NPC",
    "S_SPAWN_USER",
    "S_ABNORMALITY_BEGIN",
    "S_CREST_INFO",
    "S_ITEM_CUSTOM_STRING",
    "S_LOAD_ACHIEVEMENT_LIST",
    "S_UPDATE_ACHIEVEMENT_PROGRESS",
    "S_PLAYER_STAT_UPDATE",
    "S_LOAD_SKILL_SCRIPT_LIST",
    "S_PLAYER_CHANGE_ALL_PROF",
    "S_USER_STATUS",
    "S_SKILL_PERIOD",
    "S_CLEAR_WORLD_QUEST_VILLAGER_INFO",
    "S_PVP_LEADER_BOARD_INFO",
    "S_PVE_LEADER_BOARD_INFO",
    "S_WORLD_QUEST_VILLAGER_INFO",
    "S_FATIGABILITY_POINT",
    "S_DUNGEON_UI_HIGHLIGHT",
    "S_CHANGE_CARD_PRESET",
    "S_GMEVENT_OFF_GUIDE_MESSAGE",
    "S_QUEST_VILLAGER_INFO",
    "S_ADMIN_HOLD_CHARACTER",
    "S_CHANGE_EP_EXP_DAILY_LIMIT",
    "S_COUPON_NOTIFY",
];

const LOGIN_ORDER_SOURCE: &str = "the first packet of each name in the login of the 376012 \
                                  session, in order";

/// Scenes the game plays in order wherever in a session, each name's
/// packet after the one before it, other packets among them (the world
/// goes on meanwhile).
const SCENES: &[&[&str]] = &[
    // Back to the lobby: the client asks, the server counts down and sends
    // the player back, and the lobby asks for the character list again.
    &[
        "C_RETURN_TO_LOBBY",
        "S_PREPARE_RETURN_TO_LOBBY",
        "S_RETURN_TO_LOBBY",
        "C_GET_USER_LIST",
        "S_GET_USER_LIST",
    ],
];

/// Packets that follow from another within a few packets, whatever their
/// names share: (the cause, what follows from it). A request answered by
/// its response is found by the names alone (`C_X` and `S_X`); these are
/// the consequences the names do not tell.
const CONSEQUENCES: &[(&str, &str)] = &[
    // The character chosen in the lobby logs in.
    ("C_SELECT_USER", "S_LOGIN"),
    // A skill used starts its cooldown, an item used its own.
    ("C_START_SKILL", "S_START_COOLTIME_SKILL"),
    ("C_USE_ITEM", "S_START_COOLTIME_ITEM"),
    // An item picked up leaves the ground.
    ("C_TRY_LOOT_DROPITEM", "S_DESPAWN_DROPITEM"),
    // A dungeon's camera is set as the player appears in it.
    ("S_SPAWN_ME", "S_DUNGEON_CAMERA_SET"),
    // Back to the lobby: the server prepares, then sends the player back.
    ("C_RETURN_TO_LOBBY", "S_PREPARE_RETURN_TO_LOBBY"),
    ("S_PREPARE_RETURN_TO_LOBBY", "S_RETURN_TO_LOBBY"),
];

const SCENES_SOURCE: &str = "tera-toolbox's tera-game-state module: C_RETURN_TO_LOBBY, \
                             S_PREPARE_RETURN_TO_LOBBY, S_RETURN_TO_LOBBY, then the lobby's \
                             C_GET_USER_LIST";

/// Where each of [`CONSEQUENCES`] comes from, in its order.
const CONSEQUENCES_SOURCES: &[&str] = &[
    "the login of the 376012 session (C_SELECT_USER, then S_LOGIN 54 ms later); \
     tera-game-state's login",
    "public skill-prediction modules for tera-proxy, which start a skill's cooldown on \
     C_START_SKILL and correct it from S_START_COOLTIME_SKILL",
    "public tera-proxy modules that track item cooldowns (C_USE_ITEM, S_START_COOLTIME_ITEM)",
    "public auto-loot modules for tera-proxy (C_TRY_LOOT_DROPITEM, then S_DESPAWN_DROPITEM)",
    "tera-game-state's dungeon handling (S_SPAWN_ME, then S_DUNGEON_CAMERA_SET)",
    "tera-game-state: C_RETURN_TO_LOBBY, then S_PREPARE_RETURN_TO_LOBBY",
    "tera-game-state: S_PREPARE_RETURN_TO_LOBBY, then S_RETURN_TO_LOBBY",
];

const KEEPALIVES_SOURCE: &str = "public ping modules for tera-proxy (C_REQUEST_GAMESTAT_PING \
                                 answered by S_RESPONSE_GAMESTAT_PONG; S_PING answered by \
                                 C_PONG)";

const SYSTEM_MESSAGE_SOURCE: &str = "tera-data's sysmsg maps and tera-toolbox's \
                                     parseSystemMessage (`@` and the message's number, then \
                                     `\\v`-separated arguments); the 376012 session's \
                                     S_SYSTEM_MESSAGE reads `@2849\\vAccountBenefitName...`";

/// Keepalives: (request, response), both without a body, the request sent
/// again and again all session long and each answered at once. The
/// client measures its latency with one, the server checks the client is
/// there with the other; no other exchange of two empty packets repeats
/// through a session.
const KEEPALIVES: &[(&str, &str)] = &[
    ("C_REQUEST_GAMESTAT_PING", "S_RESPONSE_GAMESTAT_PONG"),
    ("S_PING", "C_PONG"),
];

/// Names whose text is a system message (`@`, its number, `\v` and its
/// arguments: the client looks the message up in its data center). Other
/// text (chat, names, descriptions) seldom reads so.
const SYSTEM_MESSAGE_TEXT: &[&str] = &["S_SYSTEM_MESSAGE"];

/// Whether a name ends the life of the entity it names (`S_DESPAWN_NPC`,
/// `S_DESPAWN_USER`): the game uses an entity's id for no other, so after
/// its despawn most of its ids are seen no more.
pub(crate) fn ends_a_life(name: &str) -> bool {
    name.split('_').any(|w| w == "DESPAWN")
}

/// One rule of the game and where it comes from: a recorded session of
/// the live game or a public protocol source, so that a reader can check
/// it and a rule that strays can be found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cited<T> {
    /// The rule.
    pub rule: T,
    /// Where it comes from.
    pub source: String,
}

impl<T> Cited<T> {
    /// `rule`, citing `source`.
    pub fn new(rule: T, source: impl Into<String>) -> Self {
        Cited {
            rule,
            source: source.into(),
        }
    }
}

/// What discovery knows of how the game plays, as data: the order of a
/// login, scenes played in order, consequences, keepalives and the names
/// whose text is a system message. Each rule only adds evidence where a
/// session follows it; a session that plays otherwise gets nothing from
/// it, never evidence against. [`GameRules::none`] switches them all off
/// (discovery then reads fit, values and value links only).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GameRules {
    /// The login: each name's first packet after those of the names
    /// before it.
    pub login_order: Option<Cited<Vec<String>>>,
    /// Scenes played in order anywhere in a session.
    pub scenes: Vec<Cited<Vec<String>>>,
    /// (cause, what follows from it within a few packets).
    pub consequences: Vec<Cited<(String, String)>>,
    /// (request, response): empty packets exchanged all session long.
    pub keepalives: Vec<Cited<(String, String)>>,
    /// Names whose text is a system message (`@` and its number).
    pub system_message_text: Vec<Cited<String>>,
}

/// The public session the rules that cite "the 376012 session" were
/// checked against.
const REAL_376012: &str = "a live login of client 376012 (v100.02, TERA Europe Classic+), \
                           CatAnnaDev/tera-rs bot_log.txt at 9669fa04, named by lemestwo/temp's \
                           protocol.376012.map";

fn owned(names: &[&str]) -> Vec<String> {
    names.iter().map(|n| (*n).to_owned()).collect()
}

fn pair((a, b): &(&str, &str)) -> (String, String) {
    ((*a).to_owned(), (*b).to_owned())
}

impl GameRules {
    /// No rules: fit, values and value links only.
    pub fn none() -> Self {
        GameRules::default()
    }

    /// The rules this crate knows, each with its source.
    pub fn standard() -> Self {
        GameRules {
            login_order: Some(Cited::new(
                owned(LOGIN_ORDER),
                format!("{LOGIN_ORDER_SOURCE} ({REAL_376012})"),
            )),
            scenes: SCENES
                .iter()
                .map(|s| Cited::new(owned(s), SCENES_SOURCE))
                .collect(),
            consequences: CONSEQUENCES
                .iter()
                .zip(CONSEQUENCES_SOURCES)
                .map(|(p, source)| Cited::new(pair(p), *source))
                .collect(),
            keepalives: KEEPALIVES
                .iter()
                .map(|p| Cited::new(pair(p), KEEPALIVES_SOURCE))
                .collect(),
            system_message_text: SYSTEM_MESSAGE_TEXT
                .iter()
                .map(|n| Cited::new((*n).to_owned(), SYSTEM_MESSAGE_SOURCE))
                .collect(),
        }
    }

    /// Whether no rule is set.
    pub fn is_empty(&self) -> bool {
        self.login_order.is_none()
            && self.scenes.is_empty()
            && self.consequences.is_empty()
            && self.keepalives.is_empty()
            && self.system_message_text.is_empty()
    }
}
