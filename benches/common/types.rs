//! The corpus types of the bench packets (built only with `tera_corpus`).

use tera_data::packets;
use tera_data::{IntoOwned, Packet, Visit};

/// A packet type for every lifetime of its buffer: lets generic bench code
/// name `V15<'a>` for any `'a`.
pub trait Family: 'static {
    /// The def, `S_LOGIN.15`.
    const DEF: &'static str;
    /// The packet, borrowing from a buffer of lifetime `'a`.
    type P<'a>: Packet<'a> + Visit + IntoOwned<Owned = Self::P<'static>>;
}

macro_rules! families {
    ($($family:ident = $def:literal => $($ty:ident)::+;)*) => {$(
        #[doc = concat!("`", $def, "`.")]
        pub struct $family;
        impl Family for $family {
            const DEF: &'static str = $def;
            type P<'a> = packets::$($ty)::+<'a>;
        }
    )*};
}

families! {
    SLogin = "S_LOGIN.15" => s_login::V15;
    SSpawnUser = "S_SPAWN_USER.17" => s_spawn_user::V17;
    SChat = "S_CHAT.4" => s_chat::V4;
    SActionStage = "S_ACTION_STAGE.9" => s_action_stage::V9;
    SEachSkillResult = "S_EACH_SKILL_RESULT.15" => s_each_skill_result::V15;
    SItemlist = "S_ITEMLIST.7" => s_itemlist::V7;
    SAbnormalityBegin = "S_ABNORMALITY_BEGIN.5" => s_abnormality_begin::V5;
}

/// `C_PLAYER_LOCATION.5` borrows nothing: it has no lifetime.
pub struct CPlayerLocation;
impl Family for CPlayerLocation {
    const DEF: &'static str = "C_PLAYER_LOCATION.5";
    type P<'a> = packets::c_player_location::V5;
}

/// Calls `$body` with `$F` bound to the family of `$def` (a `&str`), or
/// evaluates `$other` for a def that is not a bench packet.
macro_rules! with_family {
    ($def:expr, $F:ident => $body:expr, _ => $other:expr) => {{
        use $crate::common::types::*;
        match $def {
            "S_LOGIN.15" => {
                type $F = SLogin;
                $body
            }
            "S_SPAWN_USER.17" => {
                type $F = SSpawnUser;
                $body
            }
            "S_CHAT.4" => {
                type $F = SChat;
                $body
            }
            "C_PLAYER_LOCATION.5" => {
                type $F = CPlayerLocation;
                $body
            }
            "S_ACTION_STAGE.9" => {
                type $F = SActionStage;
                $body
            }
            "S_EACH_SKILL_RESULT.15" => {
                type $F = SEachSkillResult;
                $body
            }
            "S_ITEMLIST.7" => {
                type $F = SItemlist;
                $body
            }
            "S_ABNORMALITY_BEGIN.5" => {
                type $F = SAbnormalityBegin;
                $body
            }
            _ => $other,
        }
    }};
}
pub(crate) use with_family;
