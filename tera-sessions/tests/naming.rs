//! Each session is named by the map of the revision its C_CHECK_VERSION
//! announces, as the proxy chooses it.

use std::sync::Arc;

use tera_data::ProtocolMap;
use tera_dynamic::Catalog;
use tera_sessions::{
    Def, Direction, Event, Namer, Packet, SessionId, Start, Timestamp, check_version_packet,
};

fn catalog() -> Catalog {
    let mut catalog = Catalog::new();
    catalog.add_def("S_A.1.def", "int32 a\n").unwrap();
    catalog.add_def("S_B.1.def", "int16 b\n").unwrap();
    catalog.add_def("S_B.2.def", "int16 b\nint16 c\n").unwrap();
    catalog
        .add_def(
            "C_CHECK_VERSION.1.def",
            "array version\n- int32 index\n- int32 value\n",
        )
        .unwrap();
    catalog
        .add_map("protocol.7.map", "S_A = 100\nS_B = 200\n")
        .unwrap();
    catalog
}

fn map8() -> Arc<ProtocolMap> {
    Arc::new(ProtocolMap::from_entries(
        Some(8),
        [("S_B", 100), ("S_A", 200)],
    ))
}

fn start(session: u32) -> Event {
    Event::Start(Start {
        session: SessionId(session),
        time: Timestamp(0),
        client: None,
        server: None,
        keys: None,
        region: None,
        client_version: None,
    })
}

fn packet(session: u32, direction: Direction, bytes: Vec<u8>) -> Event {
    Event::Packet(Packet {
        session: SessionId(session),
        time: Timestamp(0),
        direction,
        bytes,
    })
}

/// Opcode 100 with four body bytes (`S_A`: a = 1; `S_B.2`: b = 1, c = 0).
fn op100() -> Vec<u8> {
    vec![8, 0, 100, 0, 1, 0, 0, 0]
}

fn name_of(namer: &mut Namer<'_>, event: &Event) -> (Option<Def>, Result<String, String>) {
    let named = namer.name(event).expect("a packet is named");
    let data = named.to_json().map(|json| String::from_utf8(json).unwrap());
    (named.def, data)
}

#[test]
fn each_session_takes_the_map_of_its_revision() {
    let set = catalog();
    let mut namer = Namer::new(&set, None).with_maps([map8()]);
    let c2s = Direction::ClientToServer;
    // Sessions 0 and 1 interleave, announcing 7 and 8.
    namer.name(&start(0));
    namer.name(&start(1));
    let (def, data) = name_of(&mut namer, &packet(0, c2s, check_version_packet(7)));
    assert_eq!(def, Some(Def::new("C_CHECK_VERSION", 1)), "{data:?}");
    let _ = name_of(&mut namer, &packet(1, c2s, check_version_packet(8)));
    assert_eq!(namer.protocol(SessionId(0)).unwrap().revision, Some(7));
    assert_eq!(
        namer
            .protocol(SessionId(1))
            .unwrap()
            .map
            .as_ref()
            .unwrap()
            .revision(),
        Some(8)
    );
    let s2c = Direction::ServerToClient;
    assert_eq!(
        name_of(&mut namer, &packet(0, s2c, op100())),
        (Some(Def::new("S_A", 1)), Ok(r#"{"a":1}"#.to_owned()))
    );
    assert_eq!(
        name_of(&mut namer, &packet(1, s2c, op100())),
        (Some(Def::new("S_B", 2)), Ok(r#"{"b":1,"c":0}"#.to_owned()))
    );

    // A revision no map has: nothing is named (another revision's map
    // would name the opcodes wrongly).
    namer.name(&start(2));
    let _ = name_of(&mut namer, &packet(2, c2s, check_version_packet(9)));
    let (def, data) = name_of(&mut namer, &packet(2, s2c, op100()));
    assert_eq!(def, None);
    assert_eq!(
        data.unwrap_err(),
        "no protocol map of revision 9 is known (give one with --map FILE)"
    );

    // No C_CHECK_VERSION first: the highest map, marked as a fallback.
    namer.name(&start(3));
    let _ = name_of(&mut namer, &packet(3, c2s, op100()));
    let protocol = namer.protocol(SessionId(3)).unwrap().clone();
    assert!(protocol.fallback);
    assert_eq!(protocol.map.unwrap().revision(), Some(8));
    assert!(protocol.problem.unwrap().contains("not C_CHECK_VERSION"));

    // Bytes that do not decode, an opcode no map names.
    let (def, data) = name_of(&mut namer, &packet(0, s2c, vec![6, 0, 100, 0, 1, 0]));
    assert_eq!(def, Some(Def::new("S_A", 1)));
    assert!(data.unwrap_err().starts_with("S_A.1 does not decode"));
    let (_, data) = name_of(&mut namer, &packet(0, s2c, vec![4, 0, 5, 0]));
    assert_eq!(
        data.unwrap_err(),
        "opcode 5 is not in the protocol map (protocol.7.map)"
    );
}

#[test]
fn a_fixed_map_names_every_session() {
    let set = catalog();
    let mut namer = Namer::new(&set, Some(map8()));
    namer.name(&start(0));
    let _ = name_of(
        &mut namer,
        &packet(0, Direction::ClientToServer, check_version_packet(7)),
    );
    let protocol = namer.protocol(SessionId(0)).unwrap();
    assert_eq!((protocol.revision, protocol.fallback), (Some(7), false));
    let (def, _) = name_of(&mut namer, &packet(0, Direction::ServerToClient, op100()));
    assert_eq!(def, Some(Def::new("S_B", 2)));
}
