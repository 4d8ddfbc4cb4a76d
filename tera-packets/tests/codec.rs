//! A field type that implements only `Codec` (bytes at the cursor, no
//! metadata) is a field of a derived block through the blanket `Wire` impl,
//! beside TERA's own variable fields.

use tera_packets::{
    Block, Codec, Error, ErrorKind, IntoOwned, Packet, Reader, Result, Str, Visit, Visitor, Writer,
};

/// A length-prefixed run of bytes: `u8 len`, then `len` bytes.
#[derive(Debug, Clone, PartialEq)]
struct Short(Vec<u8>);

impl<'a> Codec<'a> for Short {
    const FIXED_SIZE: Option<usize> = None;
    const MIN_WIRE_LEN: usize = 1;

    fn read_at(r: &mut Reader<'a>) -> Result<Self> {
        let [len] = r.array()?;
        let at = r.pos();
        match r.take(usize::from(len)) {
            Some(bytes) => Ok(Short(bytes.to_vec())),
            None => Err(Error::new(ErrorKind::UnexpectedEnd, at)),
        }
    }

    fn byte_len(&self) -> usize {
        1 + self.0.len()
    }

    fn write_at(&self, w: &mut Writer<'_>) {
        w.put_array([u8::try_from(self.0.len()).unwrap_or(u8::MAX)]);
        w.put(&self.0);
    }
}

impl Visit for Short {
    fn visit<V: Visitor>(&self, v: &mut V) {
        v.bytes(&self.0);
    }
}

impl IntoOwned for Short {
    type Owned = Short;
    fn into_owned(self) -> Short {
        self
    }
}

#[derive(Debug, Clone, PartialEq, Packet)]
#[tera(name = "SYN_CODEC", version = 1)]
struct Root<'a> {
    head: u32,
    short: Short,
    name: Str<'a>,
    tail: u16,
}

#[derive(Debug, Clone, PartialEq, tera_packets::Block)]
struct AtCursor {
    a: u8,
    short: Short,
    b: f32,
}

#[test]
fn a_codec_field_sits_at_the_cursor_between_fixed_and_variable_fields() {
    let root = Root {
        head: 7,
        short: Short(vec![1, 2, 3]),
        name: Str::from("hi"),
        tail: 9,
    };
    let bytes = root.encode().unwrap();
    // header, the string's offset word, head, short (1 + 3), tail, "hi\0".
    assert_eq!(bytes.len(), 4 + 2 + 4 + 4 + 2 + 6);
    assert_eq!(&bytes[10..14], &[3, 1, 2, 3]);
    assert_eq!(Root::decode(&bytes).unwrap(), root);

    // Truncating the short run is an error at the run, named after the field.
    let mut cut = bytes[..12].to_vec();
    cut[0] = 12;
    let err = Root::decode(&cut).unwrap_err();
    assert_eq!(err.field(), Some("short"));
}

#[test]
fn a_block_of_codec_fields_has_no_metadata_and_reads_at_any_cursor() {
    assert_eq!(<AtCursor as tera_packets::Wire>::META_WORDS, 0);
    let value = AtCursor {
        a: 5,
        short: Short(vec![9; 4]),
        b: 1.5,
    };
    let mut buf = vec![0u8; 1 + value.block_len()];
    let mut w = Writer::new(&mut buf, 1);
    value.write_block(&mut w);
    assert_eq!(w.pos(), buf.len());
    let mut r = Reader::at(&buf, 1);
    assert_eq!(AtCursor::read_block(&mut r).unwrap(), value);
    assert_eq!(r.remaining(), 0);
}
