//! The messages of each side, dispatched on their id byte.

use tera_packets::{Block, Error, ErrorKind, Reader, Result, Writer};

use crate::compressed::{COMPRESSED_ID, Compressed};
use crate::field_table::FieldTable;
use crate::input_flags::InputFlags;
use crate::messages::*;
use crate::update::UpdateView;

/// Fails unless the cursor is at the end of the message.
#[inline]
pub(crate) fn check_end(r: &Reader<'_>) -> Result<()> {
    match r.remaining() {
        0 => Ok(()),
        n => Err(Error::new(
            ErrorKind::TrailingBytes {
                count: u32::try_from(n).unwrap_or(u32::MAX),
            },
            r.pos(),
        )),
    }
}

/// The id byte of `msg` and a reader after it.
#[inline]
fn open(msg: &[u8]) -> Result<(u8, Reader<'_>)> {
    match msg.first() {
        Some(&id) => Ok((id, Reader::at(msg, 1))),
        None => Err(Error::new(ErrorKind::UnexpectedEnd, 0)),
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

/// A message from the client to the server.
#[derive(Debug, Clone, PartialEq)]
pub enum Serverbound<'a> {
    /// 1: the keys held and the mouse; the joystick when the gamepad flag
    /// is set.
    Input {
        /// Flags and mouse.
        input: Input,
        /// Present exactly when `input.flags` has [`InputFlags::GAMEPAD`].
        joystick: Option<Joystick>,
    },
    /// 2: spawn with a name.
    Spawn(Spawn<'a>),
    /// 4: choose a tank.
    TankUpgrade(TankUpgrade),
    /// 5: keep-alive.
    Heartbeat(Heartbeat),
    /// 8: ready to respawn.
    ToRespawn(ToRespawn),
    /// 9: take the tank (sandbox).
    TakeTank(TakeTank),
}

impl<'a> Serverbound<'a> {
    /// The id byte.
    pub fn id(&self) -> u8 {
        match self {
            Serverbound::Input { .. } => 1,
            Serverbound::Spawn(_) => 2,
            Serverbound::TankUpgrade(_) => 4,
            Serverbound::Heartbeat(_) => 5,
            Serverbound::ToRespawn(_) => 8,
            Serverbound::TakeTank(_) => 9,
        }
    }

    /// The message's name.
    pub fn name(&self) -> &'static str {
        match self {
            Serverbound::Input { .. } => "Input",
            Serverbound::Spawn(_) => "Spawn",
            Serverbound::TankUpgrade(_) => "TankUpgrade",
            Serverbound::Heartbeat(_) => "Heartbeat",
            Serverbound::ToRespawn(_) => "ToRespawn",
            Serverbound::TakeTank(_) => "TakeTank",
        }
    }

    /// Decodes a whole message (id byte included). Strings borrow from
    /// `msg`; nothing is allocated. Strict: bytes after the last field are
    /// an error.
    // Inlined, the message is built where the caller reads it instead of
    // being stored through the returned `Result` and loaded back. Input is
    // nearly all of a client's traffic: its reader alone is inlined, so the
    // caller's loop does not carry the registers of the other messages.
    #[inline]
    pub fn decode(msg: &'a [u8]) -> Result<Self> {
        match msg.first() {
            Some(1) => Self::decode_input(msg),
            _ => Self::decode_other(msg),
        }
    }

    /// Decodes an Input message, whose id `msg` starts with.
    #[inline(always)]
    fn decode_input(msg: &'a [u8]) -> Result<Self> {
        let mut r = Reader::at(msg, 1);
        let input = Input::read_block(&mut r)?;
        let joystick = if input.flags.contains(InputFlags::GAMEPAD) {
            Some(Joystick::read_block(&mut r)?)
        } else {
            None
        };
        check_end(&r)?;
        Ok(Serverbound::Input { input, joystick })
    }

    /// Decodes a message other than Input.
    #[inline(never)]
    fn decode_other(msg: &'a [u8]) -> Result<Self> {
        let (id, mut r) = open(msg)?;
        let message = match id {
            1 => return Self::decode_input(msg),
            2 => Serverbound::Spawn(Spawn::read_block(&mut r)?),
            4 => Serverbound::TankUpgrade(TankUpgrade::read_block(&mut r)?),
            5 => Serverbound::Heartbeat(Heartbeat::read_block(&mut r)?),
            8 => Serverbound::ToRespawn(ToRespawn::read_block(&mut r)?),
            9 => Serverbound::TakeTank(TakeTank::read_block(&mut r)?),
            _ => return Err(Error::new(ErrorKind::UnknownId { id }, 0)),
        };
        check_end(&r)?;
        Ok(message)
    }

    /// The size of the encoded message, id byte included.
    pub fn encoded_len(&self) -> usize {
        1 + match self {
            Serverbound::Input { input, joystick } => {
                input.block_len() + joystick.as_ref().map_or(0, Block::block_len)
            }
            Serverbound::Spawn(m) => m.block_len(),
            Serverbound::TankUpgrade(m) => m.block_len(),
            Serverbound::Heartbeat(m) => m.block_len(),
            Serverbound::ToRespawn(m) => m.block_len(),
            Serverbound::TakeTank(m) => m.block_len(),
        }
    }

    fn check(&self) -> Result<()> {
        match self {
            Serverbound::Input { input, joystick }
                if input.flags.contains(InputFlags::GAMEPAD) != joystick.is_some() =>
            {
                Err(Error::new(ErrorKind::FlagMismatch, 1))
            }
            _ => Ok(()),
        }
    }

    fn write(&self, w: &mut Writer<'_>) {
        w.put_array([self.id()]);
        match self {
            Serverbound::Input { input, joystick } => {
                input.write_block(w);
                if let Some(j) = joystick {
                    j.write_block(w);
                }
            }
            Serverbound::Spawn(m) => m.write_block(w),
            Serverbound::TankUpgrade(m) => m.write_block(w),
            Serverbound::Heartbeat(m) => m.write_block(w),
            Serverbound::ToRespawn(m) => m.write_block(w),
            Serverbound::TakeTank(m) => m.write_block(w),
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

/// A message from the server to the client.
#[derive(Debug, Clone)]
pub enum Clientbound<'a> {
    /// 0: entity deletions, creations and updates (a validated view; build
    /// one with [`Update`](crate::Update)).
    Update(UpdateView<'a>),
    /// 1: the client is outdated.
    OutdatedClient(OutdatedClient<'a>),
    /// 2: another message, LZ4-compressed.
    Compressed(Compressed<'a>),
    /// 3: a notification.
    Notification(Notification<'a>),
    /// 4: the game mode and host.
    ServerInfo(ServerInfo<'a>),
    /// 5: keep-alive.
    Heartbeat(Heartbeat),
    /// 7: the connection is accepted.
    Accept(Accept),
    /// 10: the players online.
    PlayerCount(PlayerCount),
}

impl<'a> Clientbound<'a> {
    /// The id byte.
    pub fn id(&self) -> u8 {
        match self {
            Clientbound::Update(_) => 0,
            Clientbound::OutdatedClient(_) => 1,
            Clientbound::Compressed(_) => COMPRESSED_ID,
            Clientbound::Notification(_) => 3,
            Clientbound::ServerInfo(_) => 4,
            Clientbound::Heartbeat(_) => 5,
            Clientbound::Accept(_) => 7,
            Clientbound::PlayerCount(_) => 10,
        }
    }

    /// The message's name.
    pub fn name(&self) -> &'static str {
        match self {
            Clientbound::Update(_) => "Update",
            Clientbound::OutdatedClient(_) => "OutdatedClient",
            Clientbound::Compressed(_) => "Compressed",
            Clientbound::Notification(_) => "Notification",
            Clientbound::ServerInfo(_) => "ServerInfo",
            Clientbound::Heartbeat(_) => "Heartbeat",
            Clientbound::Accept(_) => "Accept",
            Clientbound::PlayerCount(_) => "PlayerCount",
        }
    }

    /// Decodes a whole message with this build's field table.
    pub fn decode(msg: &'a [u8]) -> Result<Self> {
        Self::decode_with(msg, FieldTable::builtin())
    }

    /// Decodes a whole message (id byte included), reading updates with
    /// `table`. Allocates nothing; strict: bytes after the last field are
    /// an error. A compressed message is returned as it came
    /// ([`Compressed::inflate`] gives the inner message).
    pub fn decode_with(msg: &'a [u8], table: &'a FieldTable) -> Result<Self> {
        let (id, mut r) = open(msg)?;
        let message = match id {
            0 => Clientbound::Update(UpdateView::read_body(&mut r, table)?),
            1 => Clientbound::OutdatedClient(OutdatedClient::read_block(&mut r)?),
            COMPRESSED_ID => return Ok(Clientbound::Compressed(Compressed::read(msg, 1)?)),
            3 => Clientbound::Notification(Notification::read_block(&mut r)?),
            4 => Clientbound::ServerInfo(ServerInfo::read_block(&mut r)?),
            5 => Clientbound::Heartbeat(Heartbeat::read_block(&mut r)?),
            7 => Clientbound::Accept(Accept::read_block(&mut r)?),
            10 => Clientbound::PlayerCount(PlayerCount::read_block(&mut r)?),
            _ => return Err(Error::new(ErrorKind::UnknownId { id }, 0)),
        };
        check_end(&r)?;
        Ok(message)
    }

    /// The size of the encoded message, id byte included.
    pub fn encoded_len(&self) -> usize {
        match self {
            Clientbound::Update(v) => v.as_bytes().len(),
            Clientbound::Compressed(c) => 1 + 4 + c.block().len(),
            Clientbound::OutdatedClient(m) => 1 + m.block_len(),
            Clientbound::Notification(m) => 1 + m.block_len(),
            Clientbound::ServerInfo(m) => 1 + m.block_len(),
            Clientbound::Heartbeat(m) => 1 + m.block_len(),
            Clientbound::Accept(m) => 1 + m.block_len(),
            Clientbound::PlayerCount(m) => 1 + m.block_len(),
        }
    }

    fn write(&self, w: &mut Writer<'_>) {
        match self {
            // Views were validated: their bytes are the message.
            Clientbound::Update(v) => w.put(v.as_bytes()),
            Clientbound::Compressed(c) => {
                w.put_array([COMPRESSED_ID]);
                w.put_array(c.declared_len().to_le_bytes());
                w.put(c.block());
            }
            other => {
                w.put_array([other.id()]);
                match other {
                    Clientbound::OutdatedClient(m) => m.write_block(w),
                    Clientbound::Notification(m) => m.write_block(w),
                    Clientbound::ServerInfo(m) => m.write_block(w),
                    Clientbound::Heartbeat(m) => m.write_block(w),
                    Clientbound::Accept(m) => m.write_block(w),
                    Clientbound::PlayerCount(m) => m.write_block(w),
                    Clientbound::Update(_) | Clientbound::Compressed(_) => {}
                }
            }
        }
    }

    /// Encodes the message into `out` (cleared first; its capacity is
    /// reused).
    pub fn encode_into(&self, out: &mut Vec<u8>) -> Result<()> {
        encode_with(out, self.encoded_len(), |w| self.write(w))
    }

    /// Encodes the message into the front of `buf`, returning its length.
    pub fn encode_to_slice(&self, buf: &mut [u8]) -> Result<usize> {
        encode_slice_with(buf, self.encoded_len(), |w| self.write(w))
    }

    /// Encodes the message into a new vector.
    pub fn encode(&self) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        self.encode_into(&mut out)?;
        Ok(out)
    }
}
