//! Why a connection stopped, and why a hook or an injection was refused.

use tera_net::handshake::HandshakeStep;
use tera_net::{Direction, HandshakeError};

use crate::hooks::HookId;

/// Why a relayed connection stopped.
#[derive(Debug, thiserror::Error)]
pub enum ProxyError {
    /// Reading from or writing to one side failed.
    #[error("{dir} relay I/O: {source}")]
    Io {
        /// The direction being relayed (during the handshake: the sender).
        dir: Direction,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// A handshake message was invalid.
    #[error("handshake: {0}")]
    Handshake(#[from] HandshakeError),
    /// A side closed its stream before the handshake was complete.
    #[error("handshake: {sender} closed the connection during {step:?}")]
    HandshakeClosed {
        /// The step whose message was cut.
        step: HandshakeStep,
        /// Who was sending it.
        sender: Direction,
    },
    /// The handshake did not complete within the configured time.
    #[error("handshake: not complete after {0:?}")]
    HandshakeTimeout(std::time::Duration),
    /// A decrypted stream had a packet length below the 4-byte header.
    #[error("{dir} stream: {source}")]
    Frame {
        /// The direction of the bad stream.
        dir: Direction,
        /// The framing error.
        #[source]
        source: tera_net::FrameError,
    },
    /// A side closed its stream in the middle of a packet.
    #[error("{dir} stream ended inside a packet ({buffered} bytes pending)")]
    Truncated {
        /// The direction that was cut.
        dir: Direction,
        /// Bytes of the incomplete packet.
        buffered: usize,
    },
    /// A hook panicked; the connection is closed, others go on.
    #[error("hook {hook} ({target}) panicked on a {dir} packet: {message}")]
    HookPanicked {
        /// The hook.
        hook: HookId,
        /// What it was registered for (`S_CHAT.2`, `*`).
        target: String,
        /// The packet's direction.
        dir: Direction,
        /// The panic message.
        message: String,
    },
    /// A hook answered with a packet that cannot be sent.
    #[error("hook {hook} ({target}) changed a {dir} packet into one that cannot be sent: {reason}")]
    BadChange {
        /// The hook.
        hook: HookId,
        /// What it was registered for.
        target: String,
        /// The packet's direction.
        dir: Direction,
        /// Why.
        reason: PacketError,
    },
    /// A hook failed on a packet injected through a
    /// [`ConnectionHandle`](crate::ConnectionHandle); the handle's caller got
    /// the error, the connection ends with its message.
    #[error("a hook failed on a packet injected through a handle: {0}")]
    InjectedPacketHook(String),
    /// Hooks kept injecting packets in answer to injected packets.
    #[error("injected packets nested deeper than {0} (hooks answering their own injections?)")]
    InjectionLoop(usize),
}

/// A packet that cannot be sent.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PacketError {
    /// Shorter than the 4-byte header or longer than 65535 bytes.
    #[error("a packet of {0} bytes (must be 4 to 65535)")]
    BadLength(usize),
    /// The connection has no protocol map yet (or none for its version).
    #[error("no protocol map: cannot find the opcode of {0}")]
    NoMap(&'static str),
    /// The protocol map has no opcode for the packet.
    #[error("the protocol map has no opcode for {0}")]
    NoOpcode(&'static str),
    /// The typed packet does not encode (too large for the `u16` length).
    #[error("encoding {name}: {source}")]
    Encode {
        /// The packet.
        name: &'static str,
        /// The encoder's error.
        #[source]
        source: tera_packets::Error,
    },
}

/// Why [`ConnectionHandle::send`](crate::ConnectionHandle::send) failed.
#[derive(Debug, thiserror::Error)]
pub enum SendError {
    /// The packet cannot be sent.
    #[error(transparent)]
    Packet(#[from] PacketError),
    /// The hooks that saw the injected packet failed (the connection ends).
    #[error(transparent)]
    Hook(#[from] ProxyError),
    /// That direction of the connection is closed.
    #[error("the {0} stream is closed")]
    Closed(Direction),
}

/// Why a hook could not be registered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HookError {
    /// No def of that name and version is compiled in.
    #[error("no packet {name}.{version} is compiled in (see tera_data::PACKETS)")]
    UnknownPacket {
        /// The name asked for.
        name: String,
        /// The version asked for (0: the latest was asked and none exists).
        version: u32,
    },
}
