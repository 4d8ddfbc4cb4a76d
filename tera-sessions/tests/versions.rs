//! The version of each name, chosen per session by exact fit over its
//! packets: a def folder holds every version a packet ever had, and a
//! session of an older build plays an older one.

use tera_dynamic::Catalog;
use tera_sessions::{
    Def, Direction, End, EndReason, Event, Named, Namer, Packet, SessionId, Start, Timestamp,
    VersionRule, check_version_packet,
};

fn catalog() -> Catalog {
    let mut catalog = Catalog::new();
    // Version 2 is shorter than the packets of an older build: it decodes
    // them with two bytes to spare.
    catalog
        .add_def("S_SPAWN.1.def", "int32 id\nint16 kind\n")
        .unwrap();
    catalog.add_def("S_SPAWN.2.def", "int32 id\n").unwrap();
    // Versions 1 and 3 read 8-byte bodies alike; 2 wants a string.
    catalog
        .add_def("S_HIT.1.def", "int32 target\nint32 damage\n")
        .unwrap();
    catalog
        .add_def("S_HIT.2.def", "string who\nint32 damage\n")
        .unwrap();
    catalog
        .add_def("S_HIT.3.def", "uint32 target\nuint32 damage\n")
        .unwrap();
    catalog
        .add_def("S_MOVE.1.def", "int32 x\nbyte flag\n")
        .unwrap();
    catalog
        .add_def("S_MOVE.2.def", "int32 x\nbool flag\n")
        .unwrap();
    catalog
        .add_def(
            "C_CHECK_VERSION.1.def",
            "array version\n- int32 index\n- int32 value\n",
        )
        .unwrap();
    catalog
        .add_map(
            "protocol.7.map",
            "S_SPAWN = 100\nS_HIT = 200\nS_MOVE = 300\n",
        )
        .unwrap();
    catalog
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

fn end(session: u32) -> Event {
    Event::End(End {
        session: SessionId(session),
        time: Timestamp(0),
        reason: EndReason::Closed,
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

fn server(bytes: Vec<u8>) -> Event {
    packet(0, Direction::ServerToClient, bytes)
}

/// S_SPAWN of an older build: id and kind, 10 bytes.
fn spawn(id: u8) -> Vec<u8> {
    vec![10, 0, 100, 0, id, 0, 0, 0, 3, 0]
}

/// S_HIT: target and damage.
fn hit(damage: u8) -> Vec<u8> {
    vec![12, 0, 200, 0, 9, 0, 0, 0, damage, 0, 0, 0]
}

/// A session's events: its start, its C_CHECK_VERSION, `packets`, end.
fn session(packets: Vec<Vec<u8>>) -> Vec<Event> {
    let mut events = vec![
        start(0),
        packet(0, Direction::ClientToServer, check_version_packet(7)),
    ];
    events.extend(packets.into_iter().map(server));
    events.push(end(0));
    events
}

fn named(namer: &mut Namer<'_>, events: &[Event]) -> Vec<Named> {
    events
        .iter()
        .filter_map(|e| namer.name(e))
        .skip(1)
        .collect()
}

#[test]
fn a_version_that_leaves_bytes_over_is_not_chosen() {
    let set = catalog();
    let events = session(vec![spawn(1), spawn(2)]);
    // The latest decodes with two bytes unread: the id is right by luck,
    // the kind is lost.
    let latest = named(
        &mut Namer::new(&set, None).versions(VersionRule::Latest),
        &events,
    );
    assert_eq!(latest[0].def, Some(Def::new("S_SPAWN", 2)));
    assert_eq!(latest[0].exact, None);
    let mut namer = Namer::new(&set, None);
    let fit = named(&mut namer, &events[..4]);
    assert_eq!(fit[0].def, Some(Def::new("S_SPAWN", 1)));
    assert_eq!(fit[0].exact, Some(true));
    assert_eq!(fit[1].record().unwrap().i16("kind").unwrap(), 3);
    assert_eq!(fit[1].record().unwrap().i32("id").unwrap(), 2);
    let choices = namer.choices(SessionId(0));
    assert_eq!(choices.len(), 1);
    assert_eq!(
        choices[0].to_string(),
        "S_SPAWN.1 (2 packets; rivals: .2 misfits 2: 2 of its 10 bytes are left after the def's fields)"
    );
}

#[test]
fn the_highest_version_that_fits_is_chosen_and_its_rivals_reported() {
    let set = catalog();
    let events = session(vec![hit(5), hit(6), hit(7)]);
    let mut namer = Namer::new(&set, None);
    let read = named(&mut namer, &events[..5]);
    assert!(read.iter().all(|n| n.def == Some(Def::new("S_HIT", 3))));
    assert_eq!(read[2].record().unwrap().u32("damage").unwrap(), 7);
    let choice = namer.choices(SessionId(0))[0].clone();
    assert_eq!(choice.chosen(), Some(3));
    assert!(choice.exact());
    assert_eq!(choice.packets, 3);
    let rivals: Vec<(u32, u64)> = choice.rivals().map(|t| (t.version, t.misfits)).collect();
    assert_eq!(rivals, [(2, 3), (1, 0)]);
    assert!(choice.to_string().contains(".1 fits too"), "{choice}");
    // A typo names the packet and the field.
    assert_eq!(
        read[0]
            .record()
            .unwrap()
            .u32("damge")
            .unwrap_err()
            .to_string(),
        "S_HIT.3 has no field `damge`: did you mean `damage`?"
    );
}

#[test]
fn a_first_pass_chooses_over_the_whole_session() {
    let set = catalog();
    // S_MOVE.2 reads a bool where .1 reads a byte: a flag of 1 fits both,
    // a flag of 2 only .1 (a bool of 2 encodes back as 1).
    let moved = |flag: u8| vec![9, 0, 44, 1, 4, 0, 0, 0, flag];
    let events = session(vec![moved(1), moved(2), moved(1)]);
    // Streaming, the first is read with .2, the highest that fits so far.
    let mut streaming = Namer::new(&set, None);
    let read = named(&mut streaming, &events);
    let versions: Vec<u32> = read
        .iter()
        .map(|n| n.def.as_ref().unwrap().version())
        .collect();
    assert_eq!(versions, [2, 1, 1]);
    assert!(read.iter().all(|n| n.exact == Some(true)));

    // Learned first, every packet is read with the version chosen over all.
    let mut learned = Namer::new(&set, None);
    for event in &events {
        learned.learn(event);
    }
    let read = named(&mut learned, &events);
    let versions: Vec<u32> = read
        .iter()
        .map(|n| n.def.as_ref().unwrap().version())
        .collect();
    assert_eq!(versions, [1, 1, 1]);
    assert_eq!(read[1].record().unwrap().u8("flag").unwrap(), 2);
}

#[test]
fn when_no_version_fits_every_packet_the_closest_is_said_so() {
    let set = catalog();
    // Two S_SPAWN of the old layout, one of the new.
    let events = session(vec![spawn(1), spawn(2), vec![8, 0, 100, 0, 4, 0, 0, 0]]);
    let mut namer = Namer::new(&set, None);
    let read = named(&mut namer, &events[..5]);
    assert_eq!(read[2].def, Some(Def::new("S_SPAWN", 1)));
    assert_eq!(read[2].exact, Some(false));
    assert!(read[2].value.is_err());
    let choice = namer.choices(SessionId(0))[0];
    assert!(!choice.exact());
    assert!(
        choice.to_string().contains("none fits them all: 1 misfit"),
        "{choice}"
    );
}

#[test]
fn json_on_request_is_the_json_of_the_value() {
    let set = catalog();
    let events = session(vec![hit(5)]);
    let values = named(&mut Namer::new(&set, None), &events);
    let json = named(&mut Namer::new(&set, None).json(true), &events);
    assert_eq!(json[0].to_json().unwrap(), values[0].to_json().unwrap());
    assert_eq!(
        String::from_utf8(json[0].to_json().unwrap()).unwrap(),
        r#"{"target":9,"damage":5}"#
    );
    assert!(json[0].record().is_err());
}

#[test]
fn compiled_packets_fit_and_read_as_typed_packets() {
    use tera_sessions::{Compiled, PacketSet, PacketValue};
    let set = Compiled::new();
    let def = Def::new("S_ABNORMALITY_END", 1);
    // target 7, id 9.
    let packet = vec![16, 0, 1, 0, 7, 0, 0, 0, 0, 0, 0, 0, 9, 0, 0, 0];
    assert_eq!(set.fit(&def, &packet), Ok(()));
    let mut long = packet.clone();
    long.extend([0, 0]);
    long[0] = 18;
    assert!(
        set.read(&def, &long).is_ok(),
        "decoding accepts bytes to spare"
    );
    assert_eq!(
        set.fit(&def, &long).unwrap_err(),
        "2 of its 18 bytes are left after the def's fields"
    );
    let value = set.read(&def, &packet).unwrap();
    assert!(matches!(value, PacketValue::Typed(_)));
    assert!(value.typed().is_some() && value.record().is_none());
}
