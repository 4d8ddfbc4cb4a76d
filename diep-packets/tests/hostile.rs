//! The hostile catalogue: malformed messages of every kind the reader must
//! refuse, each an `Err` that says what and at which byte, none a panic.
//! Prints `hostile catalogue: N cases, N rejected, 0 accepted`.

mod common;

use diep_packets::{
    Clientbound, Compressed, DiepErrorKind, ErrorKind, FieldTable, Serverbound, compress_into,
};

/// Decodes `msg` on `side` (`true` = serverbound).
fn decode(serverbound: bool, msg: &[u8]) -> Result<(), diep_packets::Error> {
    if serverbound {
        Serverbound::decode(msg).map(drop)
    } else {
        match Clientbound::decode(msg)? {
            Clientbound::Compressed(c) => inflate_and_decode(&c),
            _ => Ok(()),
        }
    }
}

fn inflate_and_decode(c: &Compressed<'_>) -> Result<(), diep_packets::Error> {
    let inner = c.inflate(diep_packets::DEFAULT_INFLATE_CAP)?;
    Clientbound::decode(&inner).map(drop)
}

struct Catalogue {
    cases: usize,
    rejected: usize,
    wrong: Vec<String>,
}

impl Catalogue {
    /// A case that must fail with `kind` at byte `at` (`None`: any kind or
    /// offset, as long as the offset is inside the message or at its end).
    fn expect(
        &mut self,
        what: &str,
        serverbound: bool,
        msg: &[u8],
        want: Option<(ErrorKind, usize)>,
    ) {
        self.cases += 1;
        match decode(serverbound, msg) {
            Ok(()) => self.wrong.push(format!("{what}: accepted {msg:02x?}")),
            Err(e) => {
                self.rejected += 1;
                let ok = match want {
                    Some((kind, at)) => e.kind() == kind && e.offset() == at,
                    None => e.offset() <= msg.len(),
                };
                if !ok {
                    self.wrong.push(format!(
                        "{what}: {e} ({:?}) for {msg:02x?}, want {want:?}",
                        e.kind()
                    ));
                }
            }
        }
    }
}

fn valid_messages() -> Vec<(bool, Vec<u8>)> {
    let mut all: Vec<(bool, Vec<u8>)> = common::vector_messages()
        .into_iter()
        .map(|(side, _, bytes)| (side == "serverbound", bytes))
        .collect();
    all.push((
        true,
        vec![
            0x01, 0x99, 0x10, 0x88, 0x81, 0x85, 0x02, 0x8a, 0xa7, 0x81, 0x0f,
        ],
    ));
    // An Input with the gamepad flag and its joystick.
    all.push((true, vec![0x01, 0x80, 0x04, 0x00, 0x00, 0x02, 0x01]));
    all.push((
        false,
        common::sample_update()
            .encode(FieldTable::builtin())
            .unwrap(),
    ));
    all
}

/// A whole Update message with one upcreate: entity (1, 1), then `body`.
fn update_with(body: &[u8]) -> Vec<u8> {
    let mut m = vec![0x00, 0x00, 0x00, 0x01, 0x01, 0x01];
    m.extend_from_slice(body);
    m
}

#[test]
fn hostile_catalogue() {
    let mut c = Catalogue {
        cases: 0,
        rejected: 0,
        wrong: Vec::new(),
    };
    let table = FieldTable::builtin();
    let valid = valid_messages();
    for (serverbound, msg) in &valid {
        assert!(
            decode(*serverbound, msg).is_ok(),
            "valid message refused: {msg:02x?}"
        );
        // Every truncation.
        for cut in 0..msg.len() {
            c.expect("truncated", *serverbound, &msg[..cut], None);
        }
        // A byte after the last field.
        let mut longer = msg.clone();
        longer.push(0);
        c.expect(
            "trailing byte",
            *serverbound,
            &longer,
            Some((DiepErrorKind::TrailingBytes { count: 1 }.into(), msg.len())),
        );
    }

    // Varints: longer than 5 bytes, a 5th byte above 0x0f.
    c.expect(
        "overlong varint",
        true,
        &[0x01, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00, 0x00, 0x00],
        Some((DiepErrorKind::OverlongVarint.into(), 5)),
    );
    c.expect(
        "overlong varint",
        false,
        &[0x0a, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01],
        Some((DiepErrorKind::OverlongVarint.into(), 5)),
    );
    for fifth in [0x10u8, 0x1f, 0x7f] {
        c.expect(
            "5th byte > 0x0f",
            false,
            &[0x0a, 0xff, 0xff, 0xff, 0xff, fifth],
            Some((DiepErrorKind::VarintOverflow { byte: fifth }.into(), 5)),
        );
        c.expect(
            "5th byte > 0x0f",
            true,
            &[0x04, 0x80, 0x80, 0x80, 0x80, fifth],
            Some((DiepErrorKind::VarintOverflow { byte: fifth }.into(), 5)),
        );
    }

    // Strings: invalid UTF-8, no NUL.
    for (bytes, at) in [
        (&[0x02, 0xff, 0x00][..], 1),
        (&[0x02, 0x61, 0xc3, 0x28, 0x00], 2),
        (&[0x02, 0xed, 0xa0, 0x80, 0x00], 1),
        (&[0x02, 0x61, 0xf0, 0x9f, 0x00], 2),
    ] {
        c.expect(
            "invalid UTF-8",
            true,
            bytes,
            Some((DiepErrorKind::InvalidUtf8.into(), at)),
        );
    }
    c.expect(
        "no NUL",
        true,
        &[0x02, 0x61, 0x62],
        Some((ErrorKind::UnterminatedString, 1)),
    );
    c.expect(
        "no NUL",
        false,
        &[0x04, 0x61, 0x00, 0x62],
        Some((ErrorKind::UnterminatedString, 3)),
    );

    // Huge counts, backed by no bytes: they fail at the first missing one.
    c.expect(
        "4294967295 deletions",
        false,
        &[0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0x0f],
        Some((ErrorKind::UnexpectedEnd, 7)),
    );
    c.expect(
        "4294967295 upcreates",
        false,
        &[0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0x0f],
        Some((ErrorKind::UnexpectedEnd, 8)),
    );

    // Indexes past the table or the array.
    let fields = table.order().len() as u32;
    c.expect(
        "field index past the table",
        false,
        &update_with(&[0x00, 0x01, (fields + 1) as u8 ^ 1, 0x00, 0x01]),
        Some((
            DiepErrorKind::IndexPastTable {
                index: fields,
                len: fields,
            }
            .into(),
            8,
        )),
    );
    c.expect(
        "field index overflows u32",
        false,
        &update_with(&[0x00, 0x01, 0xff, 0xff, 0xff, 0xff, 0x0f]),
        Some((
            DiepErrorKind::IndexPastTable {
                index: 0xffff_fffd,
                len: fields,
            }
            .into(),
            8,
        )),
    );
    let names = table.index_of("Arena.scoreboardNames").unwrap();
    let mut past_array = vec![0x00, 0x01, (names + 1) as u8 ^ 1, 11 ^ 1];
    past_array.extend_from_slice(&[0x00, 0x01, 0x01]);
    c.expect(
        "element index past the array",
        false,
        &update_with(&past_array),
        Some((
            DiepErrorKind::IndexPastTable { index: 10, len: 10 }.into(),
            9,
        )),
    );
    let groups = table.groups().len() as u32;
    c.expect(
        "group id past the table",
        false,
        &update_with(&[0x01, (groups + 1) as u8 ^ 1, 0x01]),
        Some((
            DiepErrorKind::IndexPastTable {
                index: groups,
                len: groups,
            }
            .into(),
            7,
        )),
    );
    c.expect(
        "empty array update",
        false,
        &update_with(&[0x00, 0x01, (names + 1) as u8 ^ 1, 0x01, 0x01]),
        Some((DiepErrorKind::EmptyArrayUpdate.into(), 9)),
    );

    // Unknown ids.
    for id in 0..=255u8 {
        if ![1, 2, 4, 5, 8, 9].contains(&id) {
            c.expect(
                "unknown serverbound id",
                true,
                &[id, 0, 0, 0, 0],
                Some((DiepErrorKind::UnknownId { id }.into(), 0)),
            );
        }
        if ![0, 1, 2, 3, 4, 5, 7, 10].contains(&id) {
            c.expect(
                "unknown clientbound id",
                false,
                &[id, 0, 0, 0, 0],
                Some((DiepErrorKind::UnknownId { id }.into(), 0)),
            );
        }
    }

    // Bad upcreate markers.
    c.expect(
        "bad marker",
        false,
        &update_with(&[0x02]),
        Some((DiepErrorKind::BadUpcreateMarker { byte: 2 }.into(), 6)),
    );
    c.expect(
        "bad marker",
        false,
        &update_with(&[0x00, 0x00]),
        Some((DiepErrorKind::BadUpcreateMarker { byte: 0 }.into(), 7)),
    );
    c.expect(
        "bad marker",
        false,
        &update_with(&[0x00, 0x02, 0x01]),
        Some((DiepErrorKind::BadUpcreateMarker { byte: 2 }.into(), 7)),
    );
    c.expect(
        "bad marker",
        false,
        &update_with(&[0xff]),
        Some((DiepErrorKind::BadUpcreateMarker { byte: 0xff }.into(), 6)),
    );

    // The gamepad flag without its joystick.
    c.expect(
        "gamepad without joystick",
        true,
        &[0x01, 0x80, 0x04, 0x00, 0x00],
        Some((ErrorKind::UnexpectedEnd, 5)),
    );

    // Compressed messages: past the cap, past what the block can hold,
    // a malformed block, a length that does not match.
    let mut inner = Vec::new();
    compress_into(&[0x05], &mut inner).unwrap();
    let mut lies = inner.clone();
    lies[1..5].copy_from_slice(&2u32.to_le_bytes());
    c.expect(
        "compressed: wrong declared length",
        false,
        &lies,
        Some((DiepErrorKind::BadCompression.into(), 5)),
    );
    c.expect(
        "compressed: past the cap",
        false,
        &[0x02, 0xff, 0xff, 0xff, 0x7f, 0x10, 0x05],
        Some((
            DiepErrorKind::CompressedTooLarge {
                declared: 0x7fff_ffff,
                cap: diep_packets::DEFAULT_INFLATE_CAP,
            }
            .into(),
            1,
        )),
    );
    c.expect(
        "compressed: more than the block can hold",
        false,
        &[0x02, 0x00, 0x00, 0x01, 0x00, 0x10, 0x05],
        Some((DiepErrorKind::BadCompression.into(), 1)),
    );
    c.expect(
        "compressed: malformed block",
        false,
        &[0x02, 0x04, 0x00, 0x00, 0x00, 0xf0, 0x05],
        Some((DiepErrorKind::BadCompression.into(), 5)),
    );
    let mut bad_inner = Vec::new();
    compress_into(&[0x06, 0x00], &mut bad_inner).unwrap();
    c.expect(
        "compressed: unknown inner id",
        false,
        &bad_inner,
        Some((DiepErrorKind::UnknownId { id: 6 }.into(), 0)),
    );

    println!(
        "hostile catalogue: {} cases, {} rejected, {} accepted",
        c.cases,
        c.rejected,
        c.cases - c.rejected
    );
    for w in c.wrong.iter().take(20) {
        println!("{w}");
    }
    assert!(c.wrong.is_empty(), "{} cases went wrong", c.wrong.len());
}
