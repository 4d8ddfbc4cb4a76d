//! The messages of build 6f59094d with fixed layouts: structs whose
//! fields' types carry the encodings, read and written by the derive.
//!
//! Each struct's wire code comes from `tera_packets::Block` (no metadata:
//! every field is read at the cursor); field names in errors are the wire
//! names of the protocol notes.

use crate::float::Vf;
use crate::input_flags::InputFlags;
use crate::string_nt::StringNt;
use crate::varint::{Vi, Vu};

/// Serverbound 1, Input: the keys held and where the mouse is. When
/// [`InputFlags::GAMEPAD`] is set a [`Joystick`] follows (see
/// [`Serverbound::Input`](crate::Serverbound::Input)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, tera_packets::Block)]
#[tera(inline)]
pub struct Input {
    /// The keys and modes.
    pub flags: InputFlags,
    /// The mouse's x.
    #[tera(rename = "mouseX")]
    pub mouse_x: Vf,
    /// The mouse's y.
    #[tera(rename = "mouseY")]
    pub mouse_y: Vf,
}

/// The joystick's position, after an [`Input`] with the gamepad flag.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, tera_packets::Block)]
#[tera(inline)]
pub struct Joystick {
    /// The joystick's x.
    #[tera(rename = "joystickX")]
    pub x: Vf,
    /// The joystick's y.
    #[tera(rename = "joystickY")]
    pub y: Vf,
}

/// Serverbound 2, Spawn: the name to spawn with.
#[derive(Debug, Clone, PartialEq, Eq, Default, tera_packets::Block)]
pub struct Spawn<'a> {
    /// The name.
    pub name: StringNt<'a>,
}

/// Serverbound 4, TankUpgrade: the tank chosen, as sent (XOR-ed with a
/// per-build constant; kept raw).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, tera_packets::Block)]
pub struct TankUpgrade {
    /// The raw value.
    pub tank: Vi,
}

/// Heartbeat (serverbound 5 and clientbound 5): no body.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, tera_packets::Block)]
pub struct Heartbeat;

/// Serverbound 8, ToRespawn: no body.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, tera_packets::Block)]
pub struct ToRespawn;

/// Serverbound 9, TakeTank: no body.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, tera_packets::Block)]
pub struct TakeTank;

/// Clientbound 1, OutdatedClient: the build the server speaks.
#[derive(Debug, Clone, PartialEq, Eq, Default, tera_packets::Block)]
pub struct OutdatedClient<'a> {
    /// The build.
    pub build: StringNt<'a>,
}

/// Clientbound 3, Notification: a message shown to the player.
#[derive(Debug, Clone, PartialEq, Default, tera_packets::Block)]
pub struct Notification<'a> {
    /// The text.
    pub text: StringNt<'a>,
    /// The color, `u32` little-endian (0xRRGGBB).
    pub color: u32,
    /// How long it shows, `f32` little-endian.
    pub duration: f32,
    /// An identifier (a later notification with it replaces this one).
    pub identifier: StringNt<'a>,
}

/// Clientbound 4, ServerInfo: the game mode and the host.
#[derive(Debug, Clone, PartialEq, Eq, Default, tera_packets::Block)]
pub struct ServerInfo<'a> {
    /// The game mode (`ffa`, `teams`, ...).
    pub gamemode: StringNt<'a>,
    /// The host.
    pub host: StringNt<'a>,
}

/// Clientbound 7, Accept: the connection is accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, tera_packets::Block)]
pub struct Accept {
    /// The access level.
    #[tera(rename = "accessLevel")]
    pub access_level: Vi,
}

/// Clientbound 10, PlayerCount: the players online.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, tera_packets::Block)]
pub struct PlayerCount {
    /// The count.
    pub count: Vu,
}
