use tera_packets::{Packet, Str};

// Only objects can be split; a packet's fields are all in one block.
#[derive(Default, Packet)]
#[tera(name = "S_TEST", version = 1)]
struct Test<'a> {
    a: u16,
    #[tera(part = 1)]
    s: Str<'a>,
}

fn main() {}
