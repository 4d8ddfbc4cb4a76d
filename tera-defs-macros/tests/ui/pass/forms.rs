//! Valid forms of the derives compile and work.

use tera_packets::{Array, Block, Packet, Str};

/// A packet with no fields: just the header.
#[derive(Debug, PartialEq, Packet)]
#[tera(name = "C_EMPTY", version = 1)]
struct Empty;

/// A packet with only fixed fields needs no lifetime.
#[derive(Debug, PartialEq, Packet)]
#[tera(name = "C_FIXED", version = 2)]
struct Fixed {
    a: u16,
    b: i64,
}

/// The runtime under another path: `crate = "..."`.
mod renamed {
    pub use tera_packets as runtime;
}

#[derive(Debug, PartialEq, renamed::runtime::Packet)]
#[tera(crate = "renamed::runtime", name = "S_ELSEWHERE", version = 3)]
struct Elsewhere<'a> {
    name: renamed::runtime::Str<'a>,
}

/// Keywords as field names: raw identifiers, also inside attributes.
#[derive(Debug, PartialEq, Packet)]
#[tera(name = "S_KEYWORDS", version = 1)]
struct Keywords<'a> {
    #[tera(refs_before(r#type, r#loop))]
    r#type: Str<'a>,
    r#loop: Array<'a, Item>,
    r#in: u8,
}

/// A block with a named lifetime other than `'a`, and `rename`.
#[derive(Debug, Clone, PartialEq, Block)]
struct Item {
    #[tera(rename = "itemId")]
    item_id: u32,
}

#[derive(Debug, Clone, PartialEq, Block)]
struct Named<'buf> {
    text: Str<'buf>,
}

fn main() {
    let bytes = Empty.encode().unwrap();
    assert_eq!(bytes, [4, 0, 0, 0]);
    assert_eq!(Empty::decode(&bytes).unwrap(), Empty);
    assert_eq!((Empty::NAME, Empty::VERSION), ("C_EMPTY", 1));

    let fixed = Fixed { a: 1, b: -1 };
    assert_eq!(Fixed::decode(&fixed.encode().unwrap()).unwrap(), fixed);
    assert_eq!(Fixed::VERSION, 2);

    let e = Elsewhere { name: "x".into() };
    assert_eq!(Elsewhere::decode(&e.encode().unwrap()).unwrap(), e);

    let k = Keywords {
        r#type: "t".into(),
        r#loop: vec![Item { item_id: 9 }].into(),
        r#in: 1,
    };
    let bytes = k.encode().unwrap();
    assert_eq!(Keywords::decode(&bytes).unwrap(), k);
    // An error names the field without `r#`.
    let mut bad = bytes.clone();
    bad[4] = 1; // the ref of `type` (first) now points into the header
    bad[5] = 0;
    let err = Keywords::decode(&bad).unwrap_err();
    assert_eq!(err.field(), Some("type"));

    let _ = Named { text: "n".into() };
}
