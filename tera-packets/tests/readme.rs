//! The example of README.md, compiled and run here; `readme_holds_this_code`
//! checks that the README shows exactly the code between the markers.

// README BEGIN
use tera_packets::{Array, Block, Bytes, ErrorKind, Packet, Str};

/// `uint32 playerId; string name; array items { uint32 id; uint16 amount }; bytes blob`
#[derive(Debug, PartialEq, Packet)]
#[tera(name = "S_EXAMPLE", version = 1)]
struct Example<'a> {
    #[tera(rename = "playerId")]
    player_id: u32,
    name: Str<'a>,
    items: Array<'a, Item>,
    blob: Bytes<'a>,
}

#[derive(Debug, Clone, PartialEq, Block)]
struct Item {
    id: u32,
    amount: u16,
}

fn main() -> Result<(), tera_packets::Error> {
    // A value that owns its data, encoded into a reused buffer.
    let packet = Example {
        player_id: 7,
        name: "Elin".into(),
        items: vec![Item { id: 1, amount: 2 }, Item { id: 3, amount: 4 }].into(),
        blob: vec![0xde, 0xad].into(),
    };
    let mut buf = [0u8; 256];
    let len = packet.encode_into(&mut buf)?;
    let bytes = &buf[..len];
    assert_eq!(len, packet.encoded_len());

    // Decoding validates everything and borrows from `bytes`.
    let decoded = Example::decode(bytes)?;
    assert_eq!(decoded.name, "Elin");
    let total: u32 = decoded.items.iter().map(|i| u32::from(i.amount)).sum();
    assert_eq!((decoded.items.len(), total), (2, 6));
    assert_eq!(&*decoded.blob, &[0xde, 0xad]);
    assert_eq!(decoded, packet);

    // Hostile bytes give an error that says where, never a panic.
    let mut bad = bytes.to_vec();
    bad[4..6].copy_from_slice(&0xffffu16.to_le_bytes()); // the name's offset
    let err = Example::decode(&bad).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::OffsetOutOfBounds);
    assert_eq!((err.offset(), err.field()), (4, Some("name")));
    assert_eq!(
        err.to_string(),
        "offset points past the end of the packet at byte 4 (field `name`)"
    );
    Ok(())
}
// README END

#[test]
fn readme_example_runs() {
    main().unwrap();
}

#[test]
fn readme_holds_this_code() {
    let this = include_str!("readme.rs").replace("\r\n", "\n");
    let code = this
        .split("// README BEGIN\n")
        .nth(1)
        .and_then(|rest| rest.split("// README END").next())
        .unwrap();
    let readme = include_str!("../README.md").replace("\r\n", "\n");
    assert!(
        readme.contains(&format!("```rust\n{code}```")),
        "README.md does not hold the example of tests/readme.rs; copy it over"
    );
}
