//! Elements read again from a validated view: the sizes their nested
//! arrays keep (summed while walking, not measured from values) and the
//! fields after those arrays must match the owned elements.

use tera_packets::{Array, Block, IntoOwned, Packet, Str, Wire};

#[derive(Debug, Clone, PartialEq, Packet)]
#[tera(name = "SYN_NESTED_VIEWS", version = 1)]
struct Root<'a> {
    items: Array<'a, Item<'a>>,
}

/// A fixed field after a nested array is read after that array's data.
#[derive(Debug, Clone, PartialEq, Block)]
struct Item<'a> {
    name: Str<'a>,
    subs: Array<'a, Sub<'a>>,
    after: u32,
}

#[derive(Debug, Clone, PartialEq, Block)]
struct Sub<'a> {
    ints: Array<'a, i32>,
    tail: u16,
}

fn sample() -> Root<'static> {
    let item = |n: u32| Item {
        name: Str::from(format!("item {n}")),
        subs: (0..n)
            .map(|k| Sub {
                ints: (0..k as i32).collect(),
                tail: k as u16 + 7,
            })
            .collect(),
        after: 1000 + n,
    };
    Root {
        items: (0..5).map(item).collect(),
    }
}

#[test]
fn iterated_elements_match_the_owned_ones() {
    let owned = sample();
    let bytes = owned.encode().expect("encodes");
    let view = Root::decode(&bytes).expect("decodes");
    assert_eq!(view.encoded_len(), bytes.len());
    for (seen, want) in view.items.iter().zip(owned.items.iter()) {
        assert_eq!(*seen, *want);
        assert_eq!(seen.after, want.after);
        assert_eq!(seen.block_len(), want.block_len());
        assert_eq!(seen.subs.wire_len(), want.subs.wire_len());
        for (s, w) in seen.subs.iter().zip(want.subs.iter()) {
            assert_eq!(s.tail, w.tail);
            assert_eq!(s.ints.wire_len(), w.ints.wire_len());
        }
        assert_eq!(seen.clone().into_owned(), *want);
    }
    assert_eq!(view.encode().expect("re-encodes"), bytes);
}

/// Elements whose last fields are variable: read from a view without
/// following their lists to the end (nothing after them reads at the
/// cursor), which must not change what they hold or measure.
#[derive(Debug, Clone, PartialEq, Packet)]
#[tera(name = "SYN_LOOSE_TAIL", version = 1)]
struct Tail<'a> {
    rows: Array<'a, Row<'a>>,
    end: u8,
}

#[derive(Debug, Clone, PartialEq, Block)]
struct Row<'a> {
    id: u32,
    cells: Array<'a, Sub<'a>>,
    label: Str<'a>,
    more: Array<'a, i32>,
}

#[test]
fn elements_ending_in_lists_match_the_owned_ones() {
    let owned = Tail {
        rows: (0..4u32)
            .map(|n| Row {
                id: n,
                cells: (0..n)
                    .map(|k| Sub {
                        ints: (0..k as i32 + 1).collect(),
                        tail: k as u16,
                    })
                    .collect(),
                label: Str::from(format!("row {n}")),
                more: (0..n as i32 * 2).collect(),
            })
            .collect(),
        end: 9,
    };
    let bytes = owned.encode().expect("encodes");
    let view = Tail::decode(&bytes).expect("decodes");
    assert_eq!(view.end, 9);
    assert_eq!(view, owned);
    for (seen, want) in view.rows.iter().zip(owned.rows.iter()) {
        assert_eq!(seen.block_len(), want.block_len());
        assert_eq!(seen.cells.wire_len(), want.cells.wire_len());
        assert_eq!(seen.more.wire_len(), want.more.wire_len());
        assert_eq!(seen.more.to_vec(), want.more.to_vec());
    }
    assert_eq!(view.encode().expect("re-encodes"), bytes);
    assert_eq!(view.into_owned(), owned);
}

/// Elements with a `bool` among their fixed fields.
#[derive(Debug, Clone, PartialEq, Packet)]
#[tera(name = "SYN_FLAGS", version = 1)]
struct Flags<'a> {
    list: Array<'a, Flag>,
}

#[derive(Debug, Clone, PartialEq, Block)]
struct Flag {
    on: bool,
    x: u16,
}

#[test]
fn copied_elements_write_true_as_one() {
    // One element whose `bool` byte is 2: read as `true`, which a view's
    // copy writes as 1, exactly as the owned copy does.
    let bytes = [
        15, 0, 0, 0, // header
        1, 0, 8, 0, // count 1, offset 8
        8, 0, 0, 0, // here 8, next 0
        2, 0x34, 0x12, // on = 2, x = 0x1234
    ];
    let view = Flags::decode(&bytes).expect("decodes");
    assert_eq!(
        view.list.to_vec(),
        [Flag {
            on: true,
            x: 0x1234
        }]
    );
    let copied = view.encode().expect("encodes");
    assert_eq!(copied[12], 1);
    assert_eq!(copied, view.into_owned().encode().expect("encodes"));
}
