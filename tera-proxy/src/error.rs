//! Why a connection stopped, and why a hook or an injection was refused.

use tera_net::handshake::HandshakeStep;
use tera_net::{Direction, HandshakeError};

use crate::faults::Fault;
use crate::id::HookId;

/// Why a relayed connection stopped.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
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
    /// A hook failed on a packet read from a side.
    #[error(transparent)]
    Hook(#[from] HookFailure),
    /// A hook failed on a packet injected through a
    /// [`ConnectionHandle`](crate::ConnectionHandle); the handle's caller got
    /// the error too.
    #[error("a hook failed on a packet injected through a handle")]
    InjectedPacketHook(#[source] HookFailure),
}

/// How hooks failed on a packet, ending the connection.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum HookFailure {
    /// A hook panicked under
    /// [`FaultPolicy::CloseConnection`](crate::FaultPolicy::CloseConnection).
    #[error(transparent)]
    Panicked(Fault),
    /// A hook answered with a packet that cannot be sent.
    #[error("hook {hook} ({target}) changed a {dir} packet into one that cannot be sent")]
    BadChange {
        /// The hook.
        hook: HookId,
        /// What it was registered for.
        target: String,
        /// The packet's direction.
        dir: Direction,
        /// Why.
        #[source]
        reason: PacketError,
    },
    /// Hooks kept injecting packets in answer to injected packets.
    #[error("injected packets nested deeper than {0} (hooks answering their own injections?)")]
    InjectionLoop(usize),
    /// One call led to more than this many commands and signal deliveries
    /// (a subscriber emitting what it subscribes to?).
    #[error(
        "one call led to more than {0} commands and signal deliveries (a subscriber emitting what it subscribes to?)"
    )]
    CallLoop(usize),
}

/// A packet that cannot be sent.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
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
    /// The connection's map (or its lack of one) has no opcode for a
    /// packet of a def a mod ships.
    #[error("the connection's protocol map has no opcode for {0}")]
    NoOpcodeFor(String),
    /// The packet's name says no direction (`C_`, `S_` or `I_`): send it
    /// with an explicit one.
    #[error("{0}: the name does not say a direction (C_, S_ or I_)")]
    NoDirection(String),
    /// A dynamic value does not encode as its runtime def.
    #[error("encoding {name} by its runtime def")]
    Dynamic {
        /// The packet.
        name: String,
        /// The encoder's error.
        #[source]
        source: tera_dynamic::EncodeError,
    },
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
#[non_exhaustive]
pub enum SendError {
    /// The packet cannot be sent.
    #[error(transparent)]
    Packet(#[from] PacketError),
    /// The hooks that saw the injected packet failed (the connection ends).
    #[error(transparent)]
    Hook(#[from] HookFailure),
    /// That direction of the connection is closed.
    #[error("the {0} stream is closed")]
    Closed(Direction),
}

/// Why a hook could not be registered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum HookError {
    /// No def of that name and version is compiled in.
    #[error("no packet {name}.{version} is compiled in (see tera_data::PACKETS)")]
    UnknownPacket {
        /// The name asked for.
        name: String,
        /// The version asked for (0: the latest was asked and none exists).
        version: u32,
    },
    /// A dynamic hook's def is not in the connection's runtime defs.
    #[error(transparent)]
    RuntimeDef(#[from] crate::DynamicError),
    /// The connection's protocol map has no packet of that name: the hook
    /// would never run.
    #[error("the protocol map{} has no packet {name}", revision.map(|r| format!(" of revision {r}")).unwrap_or_default())]
    NotInMap {
        /// The name asked for.
        name: String,
        /// The map's revision, if known.
        revision: Option<u32>,
    },
    /// A mod needs a value of this type in its connection's context
    /// ([`ConnectionContext::need`](crate::ConnectionContext::need)), and
    /// no setup put one in.
    #[error(
        "the connection's context has no {0}: add the setup that puts it in (Proxy::with_setup)"
    )]
    MissingContext(&'static str),
    /// A def a mod ships does not read.
    #[error("{def}: {report}")]
    BadDef {
        /// The def (`NAME.VERSION.def`).
        def: String,
        /// What is wrong, and where.
        report: String,
    },
}
