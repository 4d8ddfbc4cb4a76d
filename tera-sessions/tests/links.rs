//! Captures of every link type this reader takes, over IPv4 and IPv6,
//! written as pcap files and read back through [`Capture`].

mod support;

use std::io::Cursor;

use support::{Ends, packets_of, script, segments};
use tera_net::{Direction, KeyGeneration};
use tera_sessions::Event;
use tera_sessions::capture::{Capture, CaptureError, LinkKind, PcapWriter};

fn capture(link: LinkKind, ipv6: bool, generation: KeyGeneration) -> (Vec<u8>, support::Script) {
    let s = script(11, generation, 60);
    let mut ends = Ends::new(3, 0xffff_ff00, 77);
    if ipv6 {
        ends.client = "[fd00::2]:50003".parse().unwrap();
        ends.server = "[fd00::1]:7804".parse().unwrap();
    }
    let mut writer = PcapWriter::new(Vec::new(), link).unwrap();
    for seg in segments(&s, ends, 1400, true, 1_700_000_000_123_456_789) {
        writer.write_segment(&seg.segment()).unwrap();
    }
    (writer.into_inner().unwrap(), s)
}

#[test]
fn every_link_type_over_ipv4_and_ipv6() {
    let links = [
        LinkKind::Ethernet,
        LinkKind::LinuxCooked,
        LinkKind::LinuxCookedV2,
        LinkKind::RawIp,
        LinkKind::BsdLoopback,
    ];
    for link in links {
        for ipv6 in [false, true] {
            let (file, s) = capture(link, ipv6, KeyGeneration::Old);
            let mut capture = Capture::new(Cursor::new(file)).unwrap();
            let events: Vec<Event> = capture.by_ref().collect::<Result<_, _>>().unwrap();
            for dir in [Direction::ClientToServer, Direction::ServerToClient] {
                assert_eq!(
                    packets_of(&events, dir),
                    s.sent(dir),
                    "{link:?} v6 {ipv6} {dir}"
                );
            }
            let Some(Event::Start(start)) = events.first() else {
                panic!("{link:?}: no start");
            };
            assert_eq!(start.keys, Some(KeyGeneration::Old));
            assert_eq!(start.time.0, 1_700_000_000_123_456_789, "nanoseconds kept");
            assert_eq!(capture.stats().sessions, 1);
            assert_eq!(capture.stats().bad_frames, 0);
        }
    }
}

#[test]
fn a_capture_cut_short_ends_its_sessions_after_an_error() {
    let (file, _) = capture(LinkKind::Ethernet, false, KeyGeneration::Current);
    let cut = &file[..file.len() - 30];
    let results: Vec<_> = Capture::new(Cursor::new(cut)).unwrap().collect();
    let error = results.iter().position(Result::is_err).expect("an error");
    assert!(matches!(
        results[error],
        Err(CaptureError::Truncated { .. })
    ));
    assert!(matches!(results.last(), Some(Ok(Event::End(_)))));
}

#[test]
fn not_a_capture() {
    let err = Capture::new(Cursor::new(
        b"hello, this is not a capture file at all....".to_vec(),
    ))
    .unwrap_err();
    assert!(matches!(err, CaptureError::NotACapture(_)), "{err}");
    assert!(err.to_string().contains("not a pcap or pcapng file"));
}

/// The same file with every header field byte-swapped: a pcap written on a
/// big-endian machine.
fn big_endian(file: &[u8]) -> Vec<u8> {
    let swap32 = |b: &[u8]| [b[3], b[2], b[1], b[0]];
    let mut out = Vec::with_capacity(file.len());
    out.extend_from_slice(&swap32(&file[0..4]));
    out.extend_from_slice(&[file[5], file[4], file[7], file[6]]);
    for field in file[8..24].chunks(4) {
        out.extend_from_slice(&swap32(field));
    }
    let mut rest = &file[24..];
    while rest.len() >= 16 {
        let len = u32::from_le_bytes(rest[8..12].try_into().unwrap()) as usize;
        for field in rest[..16].chunks(4) {
            out.extend_from_slice(&swap32(field));
        }
        out.extend_from_slice(&rest[16..16 + len]);
        rest = &rest[16 + len..];
    }
    out
}

#[test]
fn a_big_endian_pcap() {
    let (file, s) = capture(LinkKind::RawIp, false, KeyGeneration::Current);
    let events: Vec<Event> = Capture::new(Cursor::new(big_endian(&file)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    for dir in [Direction::ClientToServer, Direction::ServerToClient] {
        assert_eq!(packets_of(&events, dir), s.sent(dir), "{dir}");
    }
    assert_eq!(events[0].time().0, 1_700_000_000_123_456_789);
}
