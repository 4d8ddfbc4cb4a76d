use tera_packets::{Packet, Str};

#[derive(Packet)]
#[tera(name = "S_TEST", version = 1)]
struct Test<'a> {
    #[tera(refs_before(name))]
    id: u32,
    #[tera(refs_before(name))]
    level: u16,
    name: Str<'a>,
}

fn main() {}
