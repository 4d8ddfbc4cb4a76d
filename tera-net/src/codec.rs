//! [`tokio_util::codec`] integration: whole packets in, whole packets out,
//! optionally through the session cipher.

use bytes::BytesMut;
use tokio_util::codec::{Decoder, Encoder};

use crate::framing::{FrameError, HEADER_LEN, MAX_PACKET_LEN, packet_len};
use crate::pike::Pike;

/// Errors of [`PacketCodec`].
#[derive(Debug, thiserror::Error)]
pub enum CodecError {
    /// The underlying transport failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// The incoming stream has a bad packet header.
    #[error(transparent)]
    Frame(#[from] FrameError),
    /// A packet given to the encoder is malformed.
    #[error("cannot encode packet of {len} bytes: {reason}")]
    InvalidPacket {
        /// Length of the slice given.
        len: usize,
        /// What is wrong with it.
        reason: &'static str,
    },
}

/// Frames packets for [`tokio_util::codec::FramedRead`] /
/// [`FramedWrite`](tokio_util::codec::FramedWrite).
///
/// The decoder yields each whole packet (header included) as a
/// [`BytesMut`]; with a decrypting cipher it first decrypts the newly read
/// bytes in place, exactly once each. The encoder takes whole packets
/// (`&[u8]`, header included, length field matching), appends them and
/// encrypts them when it has a cipher.
#[derive(Clone, Debug, Default)]
pub struct PacketCodec {
    decrypt: Option<Pike>,
    encrypt: Option<Pike>,
    /// How many bytes at the front of the decoder's buffer are decrypted.
    decrypted: usize,
}

impl PacketCodec {
    /// A codec for plain-text packets.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// A codec that decrypts what it decodes with `decrypt` and encrypts what
    /// it encodes with `encrypt` (each optional).
    #[must_use]
    pub fn with_ciphers(decrypt: Option<Pike>, encrypt: Option<Pike>) -> Self {
        Self {
            decrypt,
            encrypt,
            decrypted: 0,
        }
    }
}

impl Decoder for PacketCodec {
    type Item = BytesMut;
    type Error = CodecError;

    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<BytesMut>, CodecError> {
        let done = self.decrypted.min(src.len());
        if let Some(cipher) = &mut self.decrypt
            && let Some(fresh) = src.get_mut(done..)
        {
            cipher.apply(fresh);
        }
        self.decrypted = src.len();

        let Some(len) = packet_len(src) else {
            return Ok(None);
        };
        let len = usize::from(len);
        if len < HEADER_LEN {
            return Err(FrameError::LengthTooShort {
                len: len as u16,
                offset: 0,
            }
            .into());
        }
        if src.len() < len {
            src.reserve(len - src.len());
            return Ok(None);
        }
        self.decrypted -= len;
        Ok(Some(src.split_to(len)))
    }
}

impl Encoder<&[u8]> for PacketCodec {
    type Error = CodecError;

    fn encode(&mut self, packet: &[u8], dst: &mut BytesMut) -> Result<(), CodecError> {
        let len = packet.len();
        let invalid = |reason| CodecError::InvalidPacket { len, reason };
        if len < HEADER_LEN {
            return Err(invalid("shorter than the 4-byte header"));
        }
        if len > MAX_PACKET_LEN {
            return Err(invalid("longer than 65535 bytes"));
        }
        if packet_len(packet).map(usize::from) != Some(len) {
            return Err(invalid("length field does not match the packet size"));
        }
        let start = dst.len();
        dst.extend_from_slice(packet);
        if let Some(cipher) = &mut self.encrypt
            && let Some(fresh) = dst.get_mut(start..)
        {
            cipher.apply(fresh);
        }
        Ok(())
    }
}
