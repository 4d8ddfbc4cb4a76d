//! Hand-written decoders and encoders of four bench packets: plain structs,
//! fixed fields read at constant offsets of one checked run, the same
//! validation as the runtime and the same bytes out. The yardstick the
//! generated code is measured against.
#![allow(dead_code, unused_macros, unused_imports)] // each target uses a different part

pub mod s_chat;
pub mod s_each_skill_result;
pub mod s_itemlist;
pub mod s_login;
pub mod wire;

pub use s_chat::SChat;
pub use s_each_skill_result::SEachSkillResult;
pub use s_itemlist::SItemlist;
pub use s_login::SLogin;

use tera_data::Visitor;

/// What the four hand-written packets have in common, for the benches.
pub trait Codec<'a>: Sized {
    fn decode(packet: &'a [u8]) -> wire::Result<Self>;
    fn encode_into(&self, buf: &mut [u8]) -> wire::Result<usize>;
    fn visit<V: Visitor>(&self, v: &mut V);
}

/// A hand-written packet type for every lifetime of its buffer.
pub trait Hand: 'static {
    const DEF: &'static str;
    type P<'a>: Codec<'a>;
}

macro_rules! hands {
    ($($hand:ident = $def:literal => $ty:ident;)*) => {$(
        impl<'a> Codec<'a> for $ty<'a> {
            #[inline]
            fn decode(packet: &'a [u8]) -> wire::Result<Self> {
                $ty::decode(packet)
            }
            #[inline]
            fn encode_into(&self, buf: &mut [u8]) -> wire::Result<usize> {
                $ty::encode_into(self, buf)
            }
            #[inline]
            fn visit<V: Visitor>(&self, v: &mut V) {
                $ty::visit(self, v)
            }
        }

        pub struct $hand;
        impl Hand for $hand {
            const DEF: &'static str = $def;
            type P<'a> = $ty<'a>;
        }
    )*};
}

hands! {
    HandSLogin = "S_LOGIN.15" => SLogin;
    HandSChat = "S_CHAT.4" => SChat;
    HandSEachSkillResult = "S_EACH_SKILL_RESULT.15" => SEachSkillResult;
    HandSItemlist = "S_ITEMLIST.7" => SItemlist;
}

/// Calls `$body` with `$H` bound to the hand-written codec of `$def`, or
/// evaluates `$other` when there is none.
macro_rules! with_hand {
    ($def:expr, $H:ident => $body:expr, _ => $other:expr) => {{
        use $crate::handwritten::*;
        match $def {
            "S_LOGIN.15" => {
                type $H = HandSLogin;
                $body
            }
            "S_CHAT.4" => {
                type $H = HandSChat;
                $body
            }
            "S_EACH_SKILL_RESULT.15" => {
                type $H = HandSEachSkillResult;
                $body
            }
            "S_ITEMLIST.7" => {
                type $H = HandSItemlist;
                $body
            }
            _ => $other,
        }
    }};
}
pub(crate) use with_hand;
