//! What a hook answers, and which packets it is shown.

use crate::error::PacketError;

/// A hook's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Let the packet go on unchanged. Changes the hook made to its
    /// argument are dropped.
    Pass,
    /// Let the packet go on as the hook changed it: a typed hook's value is
    /// encoded in the packet's place, a raw hook's
    /// [`bytes_mut`](crate::RawPacket::bytes_mut) are sent (their length
    /// field is set from their size). A packet blocked by an earlier hook
    /// goes on again.
    Changed,
    /// Do not forward the packet. Later hooks see it only if their
    /// [`Filter::silenced`] admits blocked packets.
    Block,
}

/// What a hook call gave: its verdict and, when it changed the packet, the
/// new bytes (or why they cannot be sent).
pub(crate) type Outcome = (Verdict, Option<Result<Vec<u8>, PacketError>>);

/// Which packets a hook sees, as tera-toolbox's `fake`, `modified` and
/// `silenced` options: `Some(true)` only those, `Some(false)` none of
/// those, `None` both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Filter {
    /// Packets injected (by a hook, a timer or a handle) rather than read
    /// from the wire. Default `Some(false)`: real packets only.
    pub fake: Option<bool>,
    /// Packets changed by an earlier hook. Default `None`: both.
    pub modified: Option<bool>,
    /// Packets blocked by an earlier hook. Default `Some(false)`: not those.
    pub silenced: Option<bool>,
}

impl Default for Filter {
    fn default() -> Self {
        Filter {
            fake: Some(false),
            modified: None,
            silenced: Some(false),
        }
    }
}

impl Filter {
    /// Every packet: real or injected, changed or not, blocked or not.
    pub const ALL: Filter = Filter {
        fake: None,
        modified: None,
        silenced: None,
    };

    pub(crate) fn admits(&self, fake: bool, modified: bool, silenced: bool) -> bool {
        let ok = |want: Option<bool>, is: bool| want.is_none_or(|w| w == is);
        ok(self.fake, fake) && ok(self.modified, modified) && ok(self.silenced, silenced)
    }
}
