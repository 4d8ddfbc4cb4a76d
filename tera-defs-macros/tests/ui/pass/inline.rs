//! `inline` changes how the read and write are inlined, not what they do:
//! a block and a packet with it read and write the same bytes as without.

use tera_packets::{Block, Packet, Reader};

#[derive(Debug, Clone, Copy, PartialEq, Block)]
#[tera(inline)]
struct Point {
    x: i32,
    y: i32,
}

#[derive(Debug, PartialEq, Packet)]
#[tera(name = "S_INLINED", version = 1, inline)]
struct Inlined<'a> {
    name: tera_packets::Str<'a>,
    at: Point,
}

fn main() {
    let value = Inlined { name: "here".into(), at: Point { x: -1, y: 2 } };
    let bytes = value.encode().unwrap();
    assert_eq!(Inlined::decode(&bytes).unwrap(), value);

    let mut block = Vec::new();
    block.resize(Point { x: 0, y: 0 }.block_len(), 0);
    let mut w = tera_packets::Writer::new(&mut block, 0);
    Point { x: 5, y: -6 }.write_block(&mut w);
    assert_eq!(block, [5, 0, 0, 0, 0xfa, 0xff, 0xff, 0xff]);
    assert_eq!(Point::read_block(&mut Reader::at(&block, 0)).unwrap(), Point { x: 5, y: -6 });
}
