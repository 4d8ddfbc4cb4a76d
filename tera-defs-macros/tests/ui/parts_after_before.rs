use tera_packets::{Block, Packet, Str};

#[derive(Packet)]
#[tera(name = "S_TEST", version = 1)]
struct Test<'a> {
    a: i32,
    #[tera(parts_after(a))]
    o: Split<'a>,
    e: i16,
}

#[derive(Default, Block)]
struct Split<'a> {
    b: u16,
    #[tera(part = 1)]
    s: Str<'a>,
}

fn main() {}
