//! One set of lookup rules over the compiled-in packets and over defs
//! loaded at run time: the same answers, the same JSON, the same errors.

use tera_data::{PACKETS, ProtocolMap};
use tera_dynamic::Catalog;
use tera_sessions::{CodecError, Compiled, Def, PacketSet, ResolveError, split_spec};

/// S_CHAT.2 as the project's own defs and the corpus hold it.
const CHAT2: &str = "uint32 channel\nuint64 authorID\nbool unk1\nbool gm\nbool founder\n\
                     string authorName\nstring message\n";

fn catalog() -> Catalog {
    let mut catalog = Catalog::new();
    catalog.add_def("S_CHAT.2.def", CHAT2).unwrap();
    catalog.add_def("S_CHAT.1.def", "uint32 channel\n").unwrap();
    catalog.add_def("S_PING.1.def", "").unwrap();
    catalog
        .add_def("S_PING.1.console.def", "int32 x\n")
        .unwrap();
    catalog
        .add_map(
            "protocol.7.map",
            "S_CHAT = 100\nS_PING = 101\nS_GONE = 102\n",
        )
        .unwrap();
    catalog
}

#[test]
fn specs_split_into_name_and_version() {
    assert_eq!(split_spec("S_CHAT").unwrap(), ("S_CHAT".into(), None));
    assert_eq!(split_spec("S_CHAT.4").unwrap(), ("S_CHAT".into(), Some(4)));
    assert_eq!(
        split_spec("S_CHAT.4.def").unwrap(),
        ("S_CHAT".into(), Some(4))
    );
    for bad in ["S_CHAT.x", "S_CHAT.4.console", "", "a.b.c.d"] {
        let e = split_spec(bad).unwrap_err();
        assert_eq!(e, ResolveError::NotADef(bad.into()));
        assert!(e.to_string().contains("expected NAME, NAME.VERSION"), "{e}");
    }
}

#[test]
fn loaded_defs_resolve_by_name_version_and_latest() {
    let set = catalog();
    assert_eq!(set.versions("S_CHAT"), [1, 2]);
    assert_eq!(set.lookup_latest("S_CHAT"), Some(Def::new("S_CHAT", 2)));
    assert_eq!(set.lookup("S_CHAT", 1), Some(Def::new("S_CHAT", 1)));
    assert_eq!(set.lookup("S_CHAT", 3), None);
    assert_eq!(
        set.resolve_spec("S_CHAT.1.def").unwrap().to_string(),
        "S_CHAT.1"
    );
    // Platform defs are listed but never taken for a plain lookup.
    assert_eq!(set.versions("S_PING"), [1]);
    assert_eq!(set.defs().len(), 4);
    assert_eq!(
        set.resolve("S_CHAT", Some(3)).unwrap_err().to_string(),
        "S_CHAT has no version 3; loaded: 1, 2"
    );
    assert_eq!(
        set.resolve("S_CAHT", None).unwrap_err().to_string(),
        "unknown packet `S_CAHT`: did you mean S_CHAT?"
    );
    assert_eq!(
        set.resolve("NOTHING_LIKE_IT", None)
            .unwrap_err()
            .to_string(),
        "unknown packet `NOTHING_LIKE_IT` (`tera-defs list --defs DIR` shows the loaded defs)"
    );
}

#[test]
fn loaded_defs_by_opcode_through_their_map() {
    let set = catalog();
    let maps = set.protocol_maps();
    assert_eq!(maps.len(), 1);
    let map = &maps[0];
    assert_eq!(map.revision(), Some(7));
    assert_eq!(
        set.lookup_opcode(map, 100, None).unwrap(),
        Def::new("S_CHAT", 2)
    );
    assert_eq!(
        set.lookup_opcode(map, 100, Some(1)).unwrap(),
        Def::new("S_CHAT", 1)
    );
    assert_eq!(
        set.lookup_opcode(map, 5, None).unwrap_err(),
        ResolveError::UnknownOpcode(5)
    );
    let gone = set.lookup_opcode(map, 102, None).unwrap_err().to_string();
    assert!(
        gone.starts_with("opcode 102 is S_GONE in the map, but unknown packet `S_GONE`"),
        "{gone}"
    );
}

#[test]
fn loaded_defs_read_and_write_json() {
    let set = catalog();
    let def = Def::new("S_CHAT", 1);
    let mut packet = Vec::new();
    set.encode_json(&def, 100, r#"{"channel":7}"#, &mut packet)
        .unwrap();
    assert_eq!(packet, [8, 0, 100, 0, 7, 0, 0, 0]);
    let mut json = b"prefix ".to_vec();
    set.write_json(&def, &packet, false, &mut json).unwrap();
    assert_eq!(json, br#"prefix {"channel":7}"#);
    let mut pretty = Vec::new();
    set.write_json(&def, &packet, true, &mut pretty).unwrap();
    assert_eq!(pretty, b"{\n  \"channel\": 7\n}");

    let short = set.write_json(&def, &packet[..6], false, &mut json);
    assert!(
        matches!(&short, Err(CodecError::Decode { def: d, .. }) if *d == def),
        "{short:?}"
    );
    assert!(
        short
            .unwrap_err()
            .to_string()
            .starts_with("S_CHAT.1 does not decode: "),
    );
    let bad = set
        .encode_json(&def, 0, r#"{"channel":"x"}"#, &mut packet)
        .unwrap_err();
    assert!(
        bad.to_string()
            .starts_with("the JSON is not a value of S_CHAT.1"),
        "{bad}"
    );
    let unknown = set
        .write_json(&Def::new("S_NONE", 1), &packet, false, &mut json)
        .unwrap_err();
    assert_eq!(unknown.to_string(), "S_NONE.1 is not in the packet set");
}

#[test]
fn compiled_in_packets_follow_the_same_rules() {
    let set = Compiled::new();
    assert_eq!(set.defs().len(), PACKETS.len());
    // S_CHAT is in the project's own defs and in the corpus.
    let versions = set.versions("S_CHAT");
    assert!(!versions.is_empty());
    assert!(versions.windows(2).all(|w| w[0] < w[1]));
    let latest = set.lookup_latest("S_CHAT").unwrap();
    assert_eq!(latest.version(), *versions.last().unwrap());
    assert_eq!(set.resolve("S_CHAT", None).unwrap(), latest);
    let e = set.resolve("S_CHAT", Some(9999)).unwrap_err().to_string();
    assert!(
        e.starts_with("S_CHAT has no version 9999; compiled in: "),
        "{e}"
    );
    assert_eq!(
        set.resolve("S_CAHT", None).unwrap_err().to_string(),
        "unknown packet `S_CAHT`: did you mean S_CHAT?"
    );
    assert!(set.versions("NO_SUCH_PACKET").is_empty());
    // Every compiled-in def resolves by name and version.
    for info in PACKETS.iter().filter(|p| p.platform.is_none()) {
        assert!(set.lookup(info.name, info.version).is_some(), "{info:?}");
    }
}

#[test]
fn compiled_and_loaded_give_the_same_json_and_bytes() {
    let compiled = Compiled::new();
    let loaded = catalog();
    let def = Def::new("S_CHAT", 2);
    if compiled.lookup("S_CHAT", 2).is_none() {
        eprintln!("skipping: S_CHAT.2 is not compiled in");
        return;
    }
    let json = r#"{"channel":3,"authorID":"123456789012","unk1":false,"gm":true,"founder":false,"authorName":"Ann","message":"hi <b>"}"#;
    let (mut a, mut b) = (Vec::new(), Vec::new());
    compiled.encode_json(&def, 9, json, &mut a).unwrap();
    loaded.encode_json(&def, 9, json, &mut b).unwrap();
    assert_eq!(a, b);
    let (mut ja, mut jb) = (Vec::new(), Vec::new());
    compiled.write_json(&def, &a, false, &mut ja).unwrap();
    loaded.write_json(&def, &a, false, &mut jb).unwrap();
    assert_eq!(String::from_utf8(ja).unwrap(), json);
    assert_eq!(String::from_utf8(jb).unwrap(), json);
}

#[test]
fn compiled_maps_name_compiled_packets() {
    let set = Compiled::new();
    for map in set.protocol_maps() {
        let map: &ProtocolMap = &map;
        assert!(map.revision().is_some());
        for (name, code) in map.iter() {
            if let Some(latest) = set.lookup_latest(name) {
                assert_eq!(set.lookup_opcode(map, code, None).unwrap(), latest);
            }
        }
    }
}
