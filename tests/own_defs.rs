//! The project's own defs (`defs/`, `maps/`) as generated packets: every
//! language feature, typed access, round trips, JSON and dispatch.
//!
//! These tests need the crate built from `defs/` (no `TERA_DATA_DIR`): with
//! the corpus compiled in (cfg `tera_corpus`) the file compiles to nothing.
//! CI runs both builds.
#![cfg(not(tera_corpus))]

use tera_data::packets::{
    c_edit_private_channel, c_join_private_channel, c_player_location, c_start_combo_skill, s_chat,
    s_itemlist, s_ping, s_skill_result, s_spawn_npc,
};
use tera_data::{
    Angle, AnyPacket, Array, Customize, ErrorKind, PACKETS, Packet, SkillId, SkillId32, Str, Vec3,
    Vec3fa,
};

fn round_trip<'a, P: Packet<'a> + PartialEq + std::fmt::Debug>(value: &P, bytes: &'a [u8]) {
    assert_eq!(bytes.len(), value.encoded_len());
    let decoded = P::decode(bytes).unwrap();
    assert_eq!(&decoded, value);
    assert_eq!(decoded.encode().unwrap(), bytes);
}

#[test]
fn join_private_channel_matches_the_protocol_document() {
    let join = c_join_private_channel::V1 {
        channel_name: Str::from("guild"),
        password: 1234,
    };
    let bytes = join.encode().unwrap();
    // len, opcode, name offset (6: right after its own slot), the name,
    // then the password after the name's data.
    let mut expected = vec![0x14, 0, 0, 0, 6, 0];
    for c in "guild".encode_utf16() {
        expected.extend_from_slice(&c.to_le_bytes());
    }
    expected.extend_from_slice(&[0, 0]);
    expected.extend_from_slice(&1234u16.to_le_bytes());
    assert_eq!(bytes, expected);
    round_trip(&join, &bytes);
}

#[test]
fn edit_private_channel_with_members() {
    let edit = c_edit_private_channel::V1 {
        members: vec![
            c_edit_private_channel::v1::Members { player_id: 7 },
            c_edit_private_channel::v1::Members { player_id: 9 },
        ]
        .into(),
        channel_name: "pals".into(),
        password: 0,
    };
    let bytes = edit.encode().unwrap();
    round_trip(&edit, &bytes);
    let decoded = c_edit_private_channel::V1::decode(&bytes).unwrap();
    let ids: Vec<u32> = decoded.members.iter().map(|m| m.player_id).collect();
    assert_eq!(ids, [7, 9]);
    assert_eq!(decoded.channel_name, "pals");
}

#[test]
fn versions_and_latest() {
    let v2 = s_chat::V2 {
        channel: 1,
        author_id: u64::MAX,
        gm: true,
        author_name: "Ann".into(),
        message: "héllo 世界".into(),
        ..Default::default()
    };
    let bytes = v2.encode().unwrap();
    round_trip(&v2, &bytes);
    assert_eq!(<s_chat::V2 as Packet>::VERSION, 2);
    assert_eq!(<s_chat::Latest as Packet>::VERSION, 4);
    assert_eq!(<s_chat::V1 as Packet>::NAME, "S_CHAT");
    // Version 1 has no flags: the same bytes are not a valid v1 packet
    // layout, but decoding must still end in Ok or Err, never a panic.
    let _ = s_chat::V1::decode(&bytes);
}

#[test]
fn every_value_type_and_nested_object() {
    let npc = s_spawn_npc::V1 {
        game_id: 42,
        loc: Vec3::new(1.5, -2.0, 3.25),
        w: Angle(-12345),
        rot: Vec3fa::from_raw(Vec3::new(100.0, 200.0, -300.0)),
        template_id: 1001,
        skill: SkillId::new(1200, 1, true, 77, 0),
        appearance: Customize::from_fields([1, 2, 3, 4, 5, 6, 7, 8]),
        status: s_spawn_npc::v1::Status {
            enraged: true,
            hp_level: 3,
            aggro: s_spawn_npc::v1::Aggro { target: 5 },
        },
        passives: vec![SkillId32(0x4400_1234), SkillId32(7)].into(),
        titles: vec![Str::from("Boss"), Str::from("")].into(),
        shape: vec![0xde, 0xad].into(),
    };
    let bytes = npc.encode().unwrap();
    round_trip(&npc, &bytes);
    let decoded = s_spawn_npc::V1::decode(&bytes).unwrap();
    assert_eq!(decoded.skill.hunting_zone_id(), 77);
    assert_eq!(decoded.appearance.voice(), 7);
    assert_eq!(&*decoded.shape, &[0xde, 0xad]);
    assert_eq!(decoded.titles.get(0).unwrap().to_string(), "Boss");
}

#[test]
fn explicit_refs_nested_arrays() {
    let item = |id: i32, name: &str| s_itemlist::v1::Items {
        id,
        dbid: -1,
        amount: 3,
        durability: 0.5,
        price: 12.75,
        crystals: vec![1u32, 2, 3].into(),
        name: name.into(),
        stats: vec![s_itemlist::v1::Stats {
            r#type: 1,
            value: 500,
            grade: 2,
        }]
        .into(),
    };
    let list = s_itemlist::V1 {
        game_id: 1,
        container: 14,
        owner: "me".into(),
        items: vec![item(1, "Sword"), item(2, "Shield")].into(),
    };
    let bytes = list.encode().unwrap();
    round_trip(&list, &bytes);
    // Explicit refs: `ref items` (count, offset) then `ref owner` come first.
    assert_eq!(u16::from_le_bytes([bytes[4], bytes[5]]), 2);
}

#[test]
fn interleaved_arrays_alternate() {
    let combo = c_start_combo_skill::V1 {
        skill: SkillId::new(10100, 1, false, 0, 0),
        loc: Vec3::default(),
        w: Angle(0),
        targets: vec![
            c_start_combo_skill::v1::Targets { game_id: 1, unk: 0 },
            c_start_combo_skill::v1::Targets { game_id: 2, unk: 0 },
        ]
        .into(),
        endpoints: vec![Vec3::new(1.0, 1.0, 1.0)].into(),
    };
    let bytes = combo.encode().unwrap();
    round_trip(&combo, &bytes);
    // Elements alternate: targets[0] right after the fixed part, then
    // endpoints[0], then targets[1].
    let targets_first = usize::from(u16::from_le_bytes([bytes[6], bytes[7]]));
    let endpoints_first = usize::from(u16::from_le_bytes([bytes[10], bytes[11]]));
    assert_eq!(endpoints_first, targets_first + 4 + 12);
}

#[test]
fn split_object_and_array_of_angles() {
    let hit = s_skill_result::V1 {
        source: 1,
        target: 2,
        value: -300,
        reaction: s_skill_result::v1::Reaction {
            enable: true,
            push: false,
            loc: Vec3::new(0.0, 1.0, 2.0),
            w: Angle(100),
            turns: vec![Angle(1), Angle(-1)].into(),
        },
        damage_type: 2,
    };
    let bytes = hit.encode().unwrap();
    round_trip(&hit, &bytes);
    // The damage type sits between the two parts of `reaction`.
    let fixed = 4 + 4 + 8 + 8 + 8; // header, turns meta, source, target, value
    assert_eq!(&bytes[fixed..fixed + 2], &[1, 0]); // enable, push
    assert_eq!(&bytes[fixed + 2..fixed + 4], &2i16.to_le_bytes());
}

#[test]
fn empty_and_fixed_packets() {
    let ping = s_ping::V1 {};
    assert_eq!(ping.encode().unwrap(), [4, 0, 0, 0]);
    let info = PACKETS
        .iter()
        .find(|p| p.name == "C_PLAYER_LOCATION")
        .unwrap();
    assert_eq!(info.fixed_len, Some(4 + 12 + 2 + 2 + 12 + 4 + 2 + 1 + 4));
    let loc = c_player_location::V1 {
        jump_distance: -5,
        in_shuttle: true,
        ..Default::default()
    };
    assert_eq!(loc.encode().unwrap().len(), info.fixed_len.unwrap());
}

#[test]
fn any_packet_dispatch_by_name_and_opcode() {
    let map = tera_data::protocol_map().expect("maps/protocol.1.map is compiled in");
    assert_eq!(map.code("S_CHAT"), Some(19503));
    let chat = s_chat::V2 {
        message: "hi".into(),
        ..Default::default()
    };
    let mut buf = [0u8; 256];
    let len = chat.encode_into(&mut buf).unwrap();
    tera_data::set_opcode(&mut buf[..len], 19503);
    let any = AnyPacket::decode_opcode(&map, Some(2), &buf[..len]).unwrap();
    assert_eq!((any.name(), any.version()), ("S_CHAT", 2));
    let v1 = AnyPacket::decode("S_CHAT", 1, &buf[..len]).unwrap();
    assert_eq!(v1.version(), 1);
    assert!(matches!(
        AnyPacket::decode("S_NOPE", 1, &buf[..len]),
        Err(tera_data::AnyError::UnknownPacket { .. })
    ));
    let owned = any.into_owned();
    assert_eq!(owned.encode().unwrap(), {
        let mut v = buf[..len].to_vec();
        tera_data::set_opcode(&mut v, 0);
        v
    });
}

#[test]
fn json_uses_def_names() {
    let chat = s_chat::V2 {
        author_id: 18_446_744_073_709_551_615,
        author_name: "Ann".into(),
        ..Default::default()
    };
    let json = serde_json::to_value(&chat).unwrap();
    assert_eq!(json["authorID"], "18446744073709551615");
    assert_eq!(json["authorName"], "Ann");
    let back: s_chat::V2 = serde_json::from_value(json).unwrap();
    assert_eq!(back, chat);
}

#[test]
fn hostile_bytes_are_errors() {
    let chat = s_chat::V2 {
        message: "hello".into(),
        ..Default::default()
    };
    let mut bytes = chat.encode().unwrap();
    let end = bytes.len();
    bytes[end - 2] = b'!'; // the message's NUL is gone
    let err = s_chat::V2::decode(&bytes).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnterminatedString);
    assert_eq!(err.field(), Some("message"));
    assert_eq!(Array::<'_, u8>::default().len(), 0);
}
