//! `PacketCodec` through `tokio_util::codec::{Decoder, Encoder}`.

mod common;

use bytes::BytesMut;
use common::{field, key, unhex, vectors};
use tera_net::codec::{CodecError, PacketCodec};
use tera_net::framing::FrameError;
use tera_net::{Direction, Session, SessionKeys};
use tokio_util::codec::{Decoder, Encoder};

fn packet(len: u16, op: u16, fill: u8) -> Vec<u8> {
    let mut p = len.to_le_bytes().to_vec();
    p.extend_from_slice(&op.to_le_bytes());
    p.resize(usize::from(len), fill);
    p
}

fn keys() -> SessionKeys {
    SessionKeys {
        client_key1: [1; 128],
        server_key1: [2; 128],
        client_key2: [3; 128],
        server_key2: [4; 128],
    }
}

/// Feeds `wire` in pieces of `step` bytes and collects decoded packets.
fn decode_in_steps(codec: &mut PacketCodec, wire: &[u8], step: usize) -> Vec<Vec<u8>> {
    let mut buf = BytesMut::new();
    let mut out = Vec::new();
    for chunk in wire.chunks(step) {
        buf.extend_from_slice(chunk);
        while let Some(p) = codec.decode(&mut buf).unwrap() {
            out.push(p.to_vec());
        }
    }
    assert!(buf.is_empty());
    out
}

#[test]
fn plain_round_trip() {
    let packets = [
        packet(4, 1, 0),
        packet(10, 2, 0xaa),
        packet(65535, 3, 0x55),
        packet(5, 4, 9),
    ];
    let mut enc = PacketCodec::new();
    let mut wire = BytesMut::new();
    for p in &packets {
        enc.encode(p.as_slice(), &mut wire).unwrap();
    }
    for step in [1, 3, 4096, 1 << 20] {
        assert_eq!(
            decode_in_steps(&mut PacketCodec::new(), &wire, step),
            packets,
            "step {step}"
        );
    }
}

#[test]
fn encrypted_round_trip() {
    let packets: Vec<_> = (0..20u16).map(|i| packet(4 + i * 37, i, i as u8)).collect();
    let (a, _) = Session::new(&keys()).into_ciphers();
    let mut enc = PacketCodec::with_ciphers(None, Some(a.clone()));
    let mut wire = BytesMut::new();
    for p in &packets {
        enc.encode(p.as_slice(), &mut wire).unwrap();
    }
    // The wire is the plain concatenation encrypted as one stream.
    let mut expected: Vec<u8> = packets.concat();
    Session::new(&keys()).apply(Direction::ClientToServer, &mut expected);
    assert_eq!(&wire[..], &expected[..]);

    for step in [1, 2, 5, 333, 100_000] {
        let mut dec = PacketCodec::with_ciphers(Some(a.clone()), None);
        assert_eq!(
            decode_in_steps(&mut dec, &wire, step),
            packets,
            "step {step}"
        );
    }
}

#[test]
fn decoder_rejects_short_length() {
    let mut buf = BytesMut::from(&[3u8, 0, 0, 0][..]);
    let err = PacketCodec::new().decode(&mut buf).unwrap_err();
    assert!(matches!(
        err,
        CodecError::Frame(FrameError::LengthTooShort { len: 3, .. })
    ));
}

#[test]
fn encoder_rejects_bad_packets() {
    let mut codec = PacketCodec::new();
    let mut dst = BytesMut::new();
    for bad in [
        &[][..],
        &[4, 0, 0][..],
        &[5, 0, 0, 0][..],
        &[4, 0, 0, 0, 0][..],
    ] {
        assert!(matches!(
            codec.encode(bad, &mut dst),
            Err(CodecError::InvalidPacket { .. })
        ));
    }
    let too_long = vec![0u8; 65536];
    assert!(codec.encode(too_long.as_slice(), &mut dst).is_err());
    assert!(dst.is_empty());
}

#[test]
fn decodes_real_client_stream() {
    let Some(v) = vectors("decodes_real_client_stream") else {
        return;
    };
    let s = &v["session_real"];
    let keys = SessionKeys {
        client_key1: key(field(s, "client_key1")),
        server_key1: key(field(s, "server_key1")),
        client_key2: key(field(s, "client_key2")),
        server_key2: key(field(s, "server_key2")),
    };
    let wire = unhex(field(s, "client_to_server_encrypted"));
    let plain = unhex(field(s, "client_to_server_plain"));
    for step in [1, 7, 32, 133] {
        let (a, _) = Session::new(&keys).into_ciphers();
        let got = decode_in_steps(&mut PacketCodec::with_ciphers(Some(a), None), &wire, step);
        assert_eq!(got.iter().map(Vec::len).collect::<Vec<_>>(), [32, 101]);
        assert_eq!(got.concat(), plain);
    }
    // Re-encrypting the decoded packets gives the original wire bytes.
    let (a, _) = Session::new(&keys).into_ciphers();
    let mut enc = PacketCodec::with_ciphers(None, Some(a));
    let mut out = BytesMut::new();
    for p in plain.chunks(32).take(1).chain([&plain[32..]]) {
        enc.encode(p, &mut out).unwrap();
    }
    assert_eq!(&out[..], &wire[..]);
}
