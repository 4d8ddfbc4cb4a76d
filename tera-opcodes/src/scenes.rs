//! What the game does, as discovery knows it: the order in which a login
//! sends its packets, and the packets that follow from others. These are
//! facts of TERA's client and server, not of any one capture; like the
//! hand-written rules of the tools people use on a patch day, they only
//! add evidence, and a session that plays otherwise simply gets none.

/// The order of a login, as game clients and servers play it: each name's
/// first packet comes after the first packet of the names before it. After
/// `S_LOAD_TOPO` the server sends the character's whole state in one burst
/// (items, skills, the client's saved settings, lists, the EP screen)
/// before the client says the zone is loaded.
pub const LOGIN_ORDER: &[&str] = &[
    "C_CHECK_VERSION",
    "S_CHECK_VERSION",
    "C_LOGIN_ARBITER",
    "S_LOADING_SCREEN_CONTROL_INFO",
    "S_REMAIN_PLAY_TIME",
    "S_LOGIN_ARBITER",
    "S_LOGIN_ACCOUNT_INFO",
    "S_ACCOUNT_PACKAGE_LIST",
    "C_GET_USER_LIST",
    "S_GET_USER_LIST",
    "C_SELECT_USER",
    "S_LOGIN",
    "S_LOAD_TOPO",
    "S_ITEMLIST",
    "S_SKILL_LIST",
    "S_AVAILABLE_SOCIAL_LIST",
    "S_CREST_INFO",
    "S_F2P_PremiumUser_Permission",
    "S_LOAD_CLIENT_ACCOUNT_SETTING",
    "S_LOAD_CLIENT_USER_SETTING",
    "S_USER_BLOCK_LIST",
    "S_FRIEND_LIST",
    "S_LOAD_EP_INFO",
    "S_LOAD_ACHIEVEMENT_LIST",
    "S_DUNGEON_COOL_TIME_LIST",
    "S_LOAD_TELEPORT_TO_POS_LIST",
    "S_VILLAGE_LIST_TO_TELEPORT",
    "S_PREMIUM_SLOT_DATALIST",
    "S_FONT_SWAP_INFO",
    "S_SHOW_USER_EP_INFO",
    "S_PLAYER_STAT_UPDATE",
    "C_LOAD_TOPO_FIN",
    "S_SPAWN_ME",
    "S_CURRENT_CHANNEL",
    "C_VISIT_NEW_SECTION",
    "S_VISIT_NEW_SECTION",
];

/// Scenes the game plays in order wherever in a session, each name's
/// packet after the one before it, other packets among them (the world
/// goes on meanwhile).
pub const SCENES: &[&[&str]] = &[
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
pub const CONSEQUENCES: &[(&str, &str)] = &[
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

/// Keepalives: (request, response), both without a body, the request sent
/// again and again all session long and each answered at once. The
/// client measures its latency with one, the server checks the client is
/// there with the other; no other exchange of two empty packets repeats
/// through a session.
pub const KEEPALIVES: &[(&str, &str)] = &[
    ("C_REQUEST_GAMESTAT_PING", "S_RESPONSE_GAMESTAT_PONG"),
    ("S_PING", "C_PONG"),
];

/// Names whose text is a system message (`@`, its number, `\v` and its
/// arguments: the client looks the message up in its data center). Other
/// text (chat, names, descriptions) seldom reads so.
pub const SYSTEM_MESSAGE_TEXT: &[&str] = &["S_SYSTEM_MESSAGE"];

/// Whether a name ends the life of the entity it names (`S_DESPAWN_NPC`,
/// `S_DESPAWN_USER`): the game uses an entity's id for no other, so after
/// its despawn most of its ids are seen no more.
pub(crate) fn ends_a_life(name: &str) -> bool {
    name.split('_').any(|w| w == "DESPAWN")
}
