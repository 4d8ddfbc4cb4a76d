use tera_packets::{Packet, Str};

#[derive(Packet)]
#[tera(name = "S_TEST", version = 1)]
struct Test<'a> {
    name: Str<'a>,
    #[tera(refs_before(name))]
    id: u32,
}

fn main() {}
