use tera_packets::{Array, Packet};

#[derive(Packet)]
#[tera(name = "S_TEST", version = 1)]
struct Test<'a> {
    #[tera(interleaved)]
    targets: Array<'a, u32>,
    between: u16,
    #[tera(interleaved)]
    endpoints: Array<'a, u32>,
}

fn main() {}
