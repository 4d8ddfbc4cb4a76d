//! The messages of each side, dispatched on their id byte: one table per
//! side (`message_table!`) gives the enum, the ids and names, and the
//! decode and encode dispatch; each message's body says how it is read,
//! sized and written (`Body`).

use tera_packets::{Block, Error, ErrorKind, Reader, Result, Writer};

use crate::compressed::{COMPRESSED_ID, Compressed};
use crate::error::{DiepErrorKind, check_end};
use crate::field_table::FieldTable;
use crate::input_flags::InputFlags;
use crate::messages::{
    Accept, Heartbeat, Input, Joystick, Notification, OutdatedClient, PlayerCount, ServerInfo,
    Spawn, TakeTank, TankUpgrade, ToRespawn,
};
use crate::update::UpdateView;

/// Which way a message goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    /// Client to server ([`Serverbound`]).
    Serverbound,
    /// Server to client ([`Clientbound`]).
    Clientbound,
}

impl Side {
    /// `serverbound` or `clientbound`.
    pub fn name(self) -> &'static str {
        match self {
            Side::Serverbound => "serverbound",
            Side::Clientbound => "clientbound",
        }
    }

    /// The side named `name`.
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "serverbound" => Some(Side::Serverbound),
            "clientbound" => Some(Side::Clientbound),
            _ => None,
        }
    }

    /// The id byte and name of every message of this side.
    pub fn messages(self) -> &'static [(u8, &'static str)] {
        match self {
            Side::Serverbound => Serverbound::MESSAGES,
            Side::Clientbound => Clientbound::MESSAGES,
        }
    }
}

/// Writes `id` and the blocks of `write` into `out` (cleared first), `len`
/// bytes in all.
#[inline]
fn encode_with(out: &mut Vec<u8>, len: usize, write: impl FnOnce(&mut Writer<'_>)) -> Result<()> {
    out.clear();
    out.resize(len, 0);
    encode_slice_with(out, len, write).map(drop)
}

#[inline]
fn encode_slice_with(
    buf: &mut [u8],
    len: usize,
    write: impl FnOnce(&mut Writer<'_>),
) -> Result<usize> {
    let needed = ErrorKind::BufferTooSmall {
        needed: u32::try_from(len).unwrap_or(u32::MAX),
    };
    let Some(dst) = buf.get_mut(..len) else {
        return Err(Error::new(needed, 0));
    };
    let mut w = Writer::new(dst, 0);
    write(&mut w);
    if w.pos() != len {
        return Err(Error::new(needed, w.pos()));
    }
    Ok(len)
}

/// A message's body, after its id byte: how a side's table reads, sizes,
/// checks and writes it. `Ctx` is what the side's decoding passes along
/// (the field table for clientbound updates).
pub(crate) trait Body<'a, Ctx>: Sized {
    /// Whether the side's `decode` reads this body inline (the others are
    /// read out of line, so that the caller's loop does not carry their
    /// registers).
    const HOT: bool = false;

    /// Reads the body of `msg` (id byte included) to the end of the message.
    fn decode_body(msg: &'a [u8], ctx: Ctx) -> Result<Self>;

    /// The size of the body.
    fn body_len(&self) -> usize;

    /// Refuses a value that would not encode as itself.
    #[inline]
    fn check(&self) -> Result<()> {
        Ok(())
    }

    /// Writes the body at the cursor.
    fn write_body(&self, w: &mut Writer<'_>);
}

/// A derived block is a whole body: strict, nothing may follow it.
impl<'a, Ctx, T: Block<'a>> Body<'a, Ctx> for T {
    #[inline]
    fn decode_body(msg: &'a [u8], _: Ctx) -> Result<Self> {
        let mut r = Reader::at(msg, 1);
        let body = T::read_block(&mut r)?;
        check_end(&r)?;
        Ok(body)
    }

    #[inline]
    fn body_len(&self) -> usize {
        self.block_len()
    }

    #[inline]
    fn write_body(&self, w: &mut Writer<'_>) {
        self.write_block(w);
    }
}

/// Serverbound 1, Input, whole: an [`Input`], then the [`Joystick`]
/// exactly when the input has [`InputFlags::GAMEPAD`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct InputMessage {
    /// Flags and mouse.
    pub input: Input,
    /// Present exactly when `input.flags` has [`InputFlags::GAMEPAD`].
    pub joystick: Option<Joystick>,
}

impl<Ctx> Body<'_, Ctx> for InputMessage {
    // Input is nearly all of a client's traffic.
    const HOT: bool = true;

    #[inline(always)]
    fn decode_body(msg: &[u8], _: Ctx) -> Result<Self> {
        let mut r = Reader::at(msg, 1);
        let input = Input::read_block(&mut r)?;
        let joystick = if input.flags.contains(InputFlags::GAMEPAD) {
            Some(Joystick::read_block(&mut r)?)
        } else {
            None
        };
        check_end(&r)?;
        Ok(InputMessage { input, joystick })
    }

    fn body_len(&self) -> usize {
        self.input.block_len() + self.joystick.as_ref().map_or(0, Block::block_len)
    }

    fn check(&self) -> Result<()> {
        if self.input.flags.contains(InputFlags::GAMEPAD) == self.joystick.is_some() {
            Ok(())
        } else {
            Err(DiepErrorKind::FlagMismatch.at(1))
        }
    }

    fn write_body(&self, w: &mut Writer<'_>) {
        self.input.write_block(w);
        if let Some(j) = &self.joystick {
            j.write_block(w);
        }
    }
}

impl<'a> Body<'a, &'a FieldTable> for UpdateView<'a> {
    fn decode_body(msg: &'a [u8], table: &'a FieldTable) -> Result<Self> {
        let mut r = Reader::at(msg, 1);
        let view = UpdateView::read_body(&mut r, table)?;
        check_end(&r)?;
        Ok(view)
    }

    fn body_len(&self) -> usize {
        self.as_bytes().len().saturating_sub(1)
    }

    // Views were validated: their bytes after the id are the body.
    fn write_body(&self, w: &mut Writer<'_>) {
        w.put(self.as_bytes().get(1..).unwrap_or_default());
    }
}

/// A compressed message is returned as it came ([`Compressed::inflate`]
/// gives the inner message).
impl<'a, Ctx> Body<'a, Ctx> for Compressed<'a> {
    fn decode_body(msg: &'a [u8], _: Ctx) -> Result<Self> {
        Compressed::read(msg, 1)
    }

    fn body_len(&self) -> usize {
        4 + self.block().len()
    }

    fn write_body(&self, w: &mut Writer<'_>) {
        w.put_array(self.declared_len().to_le_bytes());
        w.put(self.block());
    }
}

/// The messages of one side from one table: each row is the variant
/// (named as the message), its [`Body`] and its id byte. Gives the enum, its
/// `SIDE`, `MESSAGES`, `id`, `name`, `id_of`, `name_of`, the decoding by id
/// (unknown ids refused) and `encoded_len` / `encode_into` /
/// `encode_to_slice` / `encode`.
macro_rules! message_table {
    (
        $(#[$attr:meta])*
        pub enum $Messages:ident<$lt:lifetime>: $side:expr, read with $Ctx:ty {
            $( $(#[$doc:meta])* $Variant:ident($Body:ty) = $id:tt, )*
        }
    ) => {
        $(#[$attr])*
        pub enum $Messages<$lt> {
            $( $(#[$doc])* $Variant($Body), )*
        }

        impl<$lt> $Messages<$lt> {
            /// The side these messages go.
            pub const SIDE: Side = $side;

            /// The id byte and name of every message of this side.
            pub const MESSAGES: &'static [(u8, &'static str)] =
                &[$(($id, stringify!($Variant))),*];

            /// The id byte.
            pub fn id(&self) -> u8 {
                match self {
                    $( Self::$Variant(_) => $id, )*
                }
            }

            /// The message's name.
            pub fn name(&self) -> &'static str {
                match self {
                    $( Self::$Variant(_) => stringify!($Variant), )*
                }
            }

            /// The id of the message named `name`.
            pub fn id_of(name: &str) -> Option<u8> {
                Self::MESSAGES.iter().find(|(_, n)| *n == name).map(|&(id, _)| id)
            }

            /// The name of the message with id `id`.
            pub fn name_of(id: u8) -> Option<&'static str> {
                Self::MESSAGES.iter().find(|(i, _)| *i == id).map(|&(_, n)| n)
            }

            // Inlined, a hot message is built where the caller reads it
            // instead of being stored through the returned `Result` and
            // loaded back.
            #[inline]
            fn decode_by_id(msg: &$lt [u8], ctx: $Ctx) -> Result<Self> {
                match msg.first() {
                    $(
                        Some(&$id) if <$Body as Body<$lt, $Ctx>>::HOT => {
                            <$Body as Body<$lt, $Ctx>>::decode_body(msg, ctx).map(Self::$Variant)
                        }
                    )*
                    _ => Self::decode_cold(msg, ctx),
                }
            }

            #[inline(never)]
            fn decode_cold(msg: &$lt [u8], ctx: $Ctx) -> Result<Self> {
                match msg.first() {
                    $(
                        Some(&$id) => {
                            <$Body as Body<$lt, $Ctx>>::decode_body(msg, ctx).map(Self::$Variant)
                        }
                    )*
                    Some(&id) => Err(DiepErrorKind::UnknownId { id }.at(0)),
                    None => Err(Error::new(ErrorKind::UnexpectedEnd, 0)),
                }
            }

            /// The size of the encoded message, id byte included.
            pub fn encoded_len(&self) -> usize {
                1 + match self {
                    $( Self::$Variant(m) => <$Body as Body<$lt, $Ctx>>::body_len(m), )*
                }
            }

            fn check(&self) -> Result<()> {
                match self {
                    $( Self::$Variant(m) => <$Body as Body<$lt, $Ctx>>::check(m), )*
                }
            }

            fn write(&self, w: &mut Writer<'_>) {
                w.put_array([self.id()]);
                match self {
                    $( Self::$Variant(m) => <$Body as Body<$lt, $Ctx>>::write_body(m, w), )*
                }
            }

            /// Encodes the message into `out` (cleared first; its capacity is
            /// reused).
            pub fn encode_into(&self, out: &mut Vec<u8>) -> Result<()> {
                self.check()?;
                encode_with(out, self.encoded_len(), |w| self.write(w))
            }

            /// Encodes the message into the front of `buf`, returning its length.
            pub fn encode_to_slice(&self, buf: &mut [u8]) -> Result<usize> {
                self.check()?;
                encode_slice_with(buf, self.encoded_len(), |w| self.write(w))
            }

            /// Encodes the message into a new vector.
            pub fn encode(&self) -> Result<Vec<u8>> {
                let mut out = Vec::new();
                self.encode_into(&mut out)?;
                Ok(out)
            }
        }
    };
}

message_table! {
    /// A message from the client to the server.
    #[derive(Debug, Clone, PartialEq)]
    pub enum Serverbound<'a>: Side::Serverbound, read with () {
        /// 1: the keys held and the mouse; the joystick when the gamepad
        /// flag is set.
        Input(InputMessage) = 1,
        /// 2: spawn with a name.
        Spawn(Spawn<'a>) = 2,
        /// 4: choose a tank.
        TankUpgrade(TankUpgrade) = 4,
        /// 5: keep-alive.
        Heartbeat(Heartbeat) = 5,
        /// 8: ready to respawn.
        ToRespawn(ToRespawn) = 8,
        /// 9: take the tank (sandbox).
        TakeTank(TakeTank) = 9,
    }
}

impl<'a> Serverbound<'a> {
    /// Decodes a whole message (id byte included). Strings borrow from
    /// `msg`; nothing is allocated. Strict: bytes after the last field are
    /// an error.
    #[inline]
    pub fn decode(msg: &'a [u8]) -> Result<Self> {
        Self::decode_by_id(msg, ())
    }
}

message_table! {
    /// A message from the server to the client.
    #[derive(Debug, Clone)]
    pub enum Clientbound<'a>: Side::Clientbound, read with &'a FieldTable {
        /// 0: entity deletions, creations and updates (a validated view;
        /// build one with [`Update`](crate::Update)).
        Update(UpdateView<'a>) = 0,
        /// 1: the client is outdated.
        OutdatedClient(OutdatedClient<'a>) = 1,
        /// 2: another message, LZ4-compressed.
        Compressed(Compressed<'a>) = COMPRESSED_ID,
        /// 3: a notification.
        Notification(Notification<'a>) = 3,
        /// 4: the game mode and host.
        ServerInfo(ServerInfo<'a>) = 4,
        /// 5: keep-alive.
        Heartbeat(Heartbeat) = 5,
        /// 7: the connection is accepted.
        Accept(Accept) = 7,
        /// 10: the players online.
        PlayerCount(PlayerCount) = 10,
    }
}

impl<'a> Clientbound<'a> {
    /// Decodes a whole message with this build's field table.
    pub fn decode(msg: &'a [u8]) -> Result<Self> {
        Self::decode_with(msg, FieldTable::builtin())
    }

    /// Decodes a whole message (id byte included), reading updates with
    /// `table`. Allocates nothing; strict: bytes after the last field are
    /// an error. A compressed message is returned as it came
    /// ([`Compressed::inflate`] gives the inner message).
    pub fn decode_with(msg: &'a [u8], table: &'a FieldTable) -> Result<Self> {
        Self::decode_by_id(msg, table)
    }
}
