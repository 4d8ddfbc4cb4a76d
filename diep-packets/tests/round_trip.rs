//! Property tests: every encoding, random messages and random updates
//! decode to what was encoded.

use diep_packets::*;
use proptest::prelude::*;
use tera_packets::{Reader, Writer};

fn round_trip<'a, T: Codec<'a> + PartialEq + std::fmt::Debug>(v: &T, buf: &'a mut Vec<u8>) -> T {
    buf.clear();
    buf.resize(v.byte_len(), 0);
    let mut w = Writer::new(buf, 0);
    v.write_at(&mut w);
    assert_eq!(w.pos(), buf.len());
    let mut r = Reader::at(buf, 0);
    let back = T::read_at(&mut r).unwrap();
    assert_eq!(r.remaining(), 0);
    back
}

fn entid() -> impl Strategy<Value = EntId> {
    prop_oneof![
        Just(EntId::NONE),
        (1u32.., any::<u32>()).prop_map(|(h, i)| EntId::new(h, i))
    ]
}

fn text() -> impl Strategy<Value = String> {
    any::<String>().prop_map(|s| s.replace('\0', ""))
}

fn value(encoding: Encoding) -> BoxedStrategy<Value<'static>> {
    match encoding {
        Encoding::Vu => any::<u32>().prop_map(Value::Vu).boxed(),
        Encoding::Vi => any::<i32>().prop_map(Value::Vi).boxed(),
        Encoding::F32 => any::<u32>()
            .prop_map(|b| Value::F32(f32::from_bits(b)))
            .boxed(),
        Encoding::Fixed64 => any::<i32>()
            .prop_map(|s| Value::Fixed64(Fixed64::from_steps(s)))
            .boxed(),
        Encoding::StringNt => text()
            .prop_map(|s| Value::Str(StringNt::new(s).unwrap()))
            .boxed(),
        Encoding::EntId => entid().prop_map(Value::EntId).boxed(),
    }
}

/// A random creation or update of this build's table.
fn upcreate() -> impl Strategy<Value = Upcreate> {
    let table = FieldTable::builtin();
    let n_groups = table.groups().len();
    (
        entid(),
        any::<bool>(),
        proptest::collection::vec(any::<bool>(), n_groups),
        any::<u64>(),
    )
        .prop_flat_map(move |(entity, creation, pick, seed)| {
            let table = FieldTable::builtin();
            if creation {
                let groups: Vec<u32> = (0..n_groups as u32).filter(|g| pick[*g as usize]).collect();
                let fields: Vec<BoxedStrategy<FieldEntry>> = table
                    .order()
                    .iter()
                    .enumerate()
                    .filter(|(_, f)| groups.contains(&f.group()))
                    .map(|(i, f)| {
                        let enc = f.encoding();
                        match f.count() {
                            None => value(enc)
                                .prop_map(move |v| FieldEntry {
                                    index: i as u32,
                                    data: FieldData::One(v),
                                })
                                .boxed(),
                            Some(n) => proptest::collection::vec(value(enc), n as usize)
                                .prop_map(move |vs| FieldEntry {
                                    index: i as u32,
                                    data: FieldData::Elements(
                                        vs.into_iter()
                                            .enumerate()
                                            .map(|(k, v)| (k as u32, v))
                                            .collect(),
                                    ),
                                })
                                .boxed(),
                        }
                    })
                    .collect();
                (Just(entity), Just(groups), fields)
                    .prop_map(|(entity, groups, fields)| Upcreate {
                        entity,
                        kind: UpcreateKind::Creation,
                        groups,
                        fields,
                    })
                    .boxed()
            } else {
                // A pseudo-random subset of the fields, by the seed's bits.
                let fields: Vec<BoxedStrategy<FieldEntry>> = table
                    .order()
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| seed >> (i % 64) & 1 == 1)
                    .map(|(i, f)| {
                        let enc = f.update_encoding();
                        match f.count() {
                            None => value(enc)
                                .prop_map(move |v| FieldEntry {
                                    index: i as u32,
                                    data: FieldData::One(v),
                                })
                                .boxed(),
                            Some(n) => {
                                proptest::collection::btree_map(0..n, value(enc), 1..=n as usize)
                                    .prop_map(move |m| FieldEntry {
                                        index: i as u32,
                                        data: FieldData::Elements(m.into_iter().collect()),
                                    })
                                    .boxed()
                            }
                        }
                    })
                    .collect();
                (Just(entity), fields)
                    .prop_map(|(entity, fields)| Upcreate {
                        entity,
                        kind: UpcreateKind::Update,
                        groups: vec![],
                        fields,
                    })
                    .boxed()
            }
        })
}

fn update() -> impl Strategy<Value = Update> {
    (
        any::<u32>(),
        proptest::collection::vec(entid(), 0..5),
        proptest::collection::vec(upcreate(), 0..4),
    )
        .prop_map(|(tick, deletes, upcreates)| Update {
            tick,
            deletes,
            upcreates,
        })
}

proptest! {
    #[test]
    fn encodings(u in any::<u32>(), i in any::<i32>(), bits in any::<u32>(), s in text(), e in entid()) {
        let mut buf = Vec::new();
        prop_assert_eq!(round_trip(&Vu(u), &mut buf), Vu(u));
        prop_assert_eq!(round_trip(&Vi(i), &mut buf), Vi(i));
        prop_assert_eq!(round_trip(&Vf(f32::from_bits(bits)), &mut buf).0.to_bits(), bits);
        prop_assert_eq!(round_trip(&Fixed64::from_steps(i), &mut buf), Fixed64::from_steps(i));
        prop_assert_eq!(round_trip(&Color::from_id(u), &mut buf), Color::from_id(u));
        prop_assert_eq!(round_trip(&Tank(i), &mut buf), Tank(i));
        prop_assert_eq!(round_trip(&InputFlags::from_bits_retain(u), &mut buf), InputFlags::from_bits_retain(u));
        prop_assert_eq!(round_trip(&e, &mut buf), e);
        prop_assert_eq!(round_trip(&u, &mut buf), u);
        prop_assert_eq!(round_trip(&f32::from_bits(bits), &mut buf).to_bits(), bits);
        let string = StringNt::new(s.clone()).unwrap();
        let mut sbuf = Vec::new();
        let back = round_trip(&string, &mut sbuf);
        prop_assert_eq!(back.as_str(), s.as_str());
    }

    #[test]
    fn jump_tables(indexes in proptest::collection::btree_set(0..u32::MAX, 0..20), values in proptest::collection::vec(any::<u32>(), 20)) {
        let entries: Vec<(u32, Vu)> = indexes.iter().zip(&values).map(|(i, v)| (*i, Vu(*v))).collect();
        let table = JumpTable::new(entries).unwrap();
        let mut buf = Vec::new();
        prop_assert_eq!(round_trip(&table, &mut buf), table);
    }

    #[test]
    fn serverbound_messages(flags in any::<u32>(), x in any::<u32>(), y in any::<u32>(), s in text(), t in any::<i32>()) {
        let flags = InputFlags::from_bits_retain(flags);
        let joystick = flags.contains(InputFlags::GAMEPAD).then_some(Joystick { x: Vf(f32::from_bits(y)), y: Vf(f32::from_bits(x)) });
        let input = Input { flags, mouse_x: Vf(f32::from_bits(x)), mouse_y: Vf(f32::from_bits(y)) };
        for m in [
            Serverbound::Input(InputMessage { input, joystick }),
            Serverbound::Spawn(Spawn { name: StringNt::new(s.as_str()).unwrap() }),
            Serverbound::TankUpgrade(TankUpgrade { tank: Vi(t) }),
            Serverbound::Heartbeat(Heartbeat),
        ] {
            let bytes = m.encode().unwrap();
            prop_assert_eq!(bytes.len(), m.encoded_len());
            prop_assert_eq!(Serverbound::decode(&bytes).unwrap(), m);
        }
    }

    #[test]
    fn clientbound_messages(c in any::<u32>(), d in any::<u32>(), s in text(), t in text()) {
        let n = Notification { text: StringNt::new(s.as_str()).unwrap(), color: c, duration: f32::from_bits(d), identifier: StringNt::new(t.as_str()).unwrap() };
        let bytes = Clientbound::Notification(n.clone()).encode().unwrap();
        let Clientbound::Notification(back) = Clientbound::decode(&bytes).unwrap() else { panic!("not a notification") };
        prop_assert_eq!(back.duration.to_bits(), d);
        prop_assert_eq!((back.text, back.color, back.identifier), (n.text, n.color, n.identifier));
        let count = Clientbound::PlayerCount(PlayerCount { count: Vu(c) }).encode().unwrap();
        let mut packed = Vec::new();
        compress_into(&count, &mut packed).unwrap();
        let Clientbound::Compressed(z) = Clientbound::decode(&packed).unwrap() else { panic!("not compressed") };
        prop_assert_eq!(z.inflate(DEFAULT_INFLATE_CAP).unwrap(), count);
    }

    #[test]
    fn updates(u in update()) {
        let table = FieldTable::builtin();
        let bytes = u.encode(table).unwrap();
        prop_assert_eq!(bytes.len(), u.encoded_len(table).unwrap());
        let view = UpdateView::decode(&bytes, table).unwrap();
        prop_assert_eq!(Update::from_view(&view), u);
    }
}

#[test]
fn an_update_through_another_builds_table() {
    // The same groups in another field order: the bytes differ, the
    // values do not.
    let text = r#"{"build": "test", "groups": [
        {"id": 0, "name": "A", "used": true, "fields": [{"name": "x", "encoding": "vi"}, {"name": "s", "encoding": "stringNT"}]},
        {"id": 1, "name": "B", "used": true, "fields": [{"name": "n", "encoding": "vu", "count": 3}]}],
        "order": ["B.n", "A.s", "A.x"]}"#;
    let table = FieldTable::from_json(text).unwrap();
    assert_eq!(table.build(), "test");
    let u = Update {
        tick: 1,
        deletes: vec![],
        upcreates: vec![Upcreate {
            entity: EntId::new(1, 2),
            kind: UpcreateKind::Update,
            groups: vec![],
            fields: vec![
                FieldEntry {
                    index: 0,
                    data: FieldData::Elements(vec![(2, Value::Vu(9))]),
                },
                FieldEntry {
                    index: 2,
                    data: FieldData::One(Value::Vi(-1)),
                },
            ],
        }],
    };
    let bytes = u.encode(&table).unwrap();
    // id, tick, 0 deletes, 1 upcreate, entity, 00 01, jump to 0 (00),
    // element jump to 2 (02) 09, close, jump +2 (03) vi(-1)=01, close.
    assert_eq!(
        bytes,
        [
            0x00, 0x01, 0x00, 0x01, 0x01, 0x02, 0x00, 0x01, 0x00, 0x02, 0x09, 0x01, 0x03, 0x01,
            0x01
        ]
    );
    let view = UpdateView::decode(&bytes, &table).unwrap();
    let names: Vec<String> = view
        .upcreates()
        .flat_map(|u| {
            u.fields()
                .map(|f| f.field.name().to_owned())
                .collect::<Vec<_>>()
        })
        .collect();
    assert_eq!(names, ["B.n", "A.x"]);
    // A field of the wrong kind is refused on encode.
    let mut wrong = u.clone();
    wrong.upcreates[0].fields[1].data = FieldData::One(Value::Vu(1));
    assert_eq!(
        wrong.encode(&table).unwrap_err().kind(),
        DiepErrorKind::FieldMismatch { index: 2 }.into()
    );
}
