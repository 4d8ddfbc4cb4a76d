use tera_packets::{Array, Packet};

#[derive(Packet)]
#[tera(name = "S_TEST", version = 1)]
struct Test<'a> {
    id: u32,
    #[tera(refs_before(nosuchfield))]
    list: Array<'a, u32>,
}

fn main() {}
