//! A hand-written `Wire` impl whose `wire_len` disagrees with what its
//! `write` writes: encoding reports it as an error instead of panicking or
//! returning a packet with unwritten bytes.

use tera_packets::{
    Block, ErrorKind, IntoOwned, Packet, Reader, Result, Visit, Visitor, Wire, Writer,
};

/// Writes `written` bytes but claims `claimed`; optionally patches a
/// metadata word at an absolute offset.
#[derive(Debug, Clone, Default, PartialEq)]
struct Liar {
    claimed: usize,
    written: usize,
    patch_at: Option<usize>,
}

impl<'a> Wire<'a> for Liar {
    const META_WORDS: usize = 0;
    const FIXED_SIZE: Option<usize> = None;

    fn read(_r: &mut Reader<'a>, _meta: usize) -> Result<Self> {
        Ok(Liar::default())
    }

    fn wire_len(&self) -> usize {
        self.claimed
    }

    fn write(&self, w: &mut Writer<'_>, _meta: usize) {
        w.zeros(self.written);
        if let Some(at) = self.patch_at {
            w.patch_u16(at, 0xabcd);
        }
    }
}

impl Visit for Liar {
    fn visit<V: Visitor>(&self, _v: &mut V) {}
}

impl IntoOwned for Liar {
    type Owned = Liar;
    fn into_owned(self) -> Liar {
        self
    }
}

impl Block<'_> for Liar {}

#[derive(Debug, Clone, Default, PartialEq, Packet)]
#[tera(name = "SYN_LIAR", version = 1)]
struct Root {
    head: u32,
    liar: Liar,
    tail: u16,
}

fn encode(liar: Liar) -> Result<usize> {
    let root = Root {
        head: 1,
        liar,
        tail: 2,
    };
    let mut buf = [0xeeu8; 256];
    root.encode_into(&mut buf)
}

fn needed(claimed: usize) -> ErrorKind {
    ErrorKind::BufferTooSmall {
        needed: u32::try_from(4 + 4 + claimed + 2).unwrap(),
    }
}

#[test]
fn writing_more_than_claimed_is_an_error() {
    let e = encode(Liar {
        claimed: 3,
        written: 9,
        patch_at: None,
    })
    .unwrap_err();
    assert_eq!(e.kind(), needed(3));
}

#[test]
fn writing_less_than_claimed_is_an_error() {
    let e = encode(Liar {
        claimed: 9,
        written: 3,
        patch_at: None,
    })
    .unwrap_err();
    assert_eq!(e.kind(), needed(9));
}

#[test]
fn patching_outside_the_packet_is_an_error() {
    for at in [19, 1000, usize::MAX - 1, usize::MAX] {
        let e = encode(Liar {
            claimed: 5,
            written: 5,
            patch_at: Some(at),
        })
        .unwrap_err();
        assert_eq!(e.kind(), needed(5), "patch at {at}");
    }
}

#[test]
fn an_honest_value_encodes() {
    let n = encode(Liar {
        claimed: 5,
        written: 5,
        patch_at: Some(8),
    })
    .unwrap();
    assert_eq!(n, 4 + 4 + 5 + 2);
}
