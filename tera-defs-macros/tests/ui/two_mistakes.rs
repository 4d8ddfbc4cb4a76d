use tera_packets::{Array, Str};

#[derive(tera_packets::Block)]
struct Element {
    value: u8,
}

// Two mistakes in one struct: both are reported, each at its own span.
#[derive(tera_packets::Packet)]
#[tera(name = "S_TWO", version = 1)]
struct TwoMistakes<'a> {
    #[tera(refs_before(missing))]
    name: Str<'a>,
    #[tera(interleaved)]
    first: Array<'a, Element>,
    gap: u32,
    #[tera(interleaved, colour = "red")]
    second: Array<'a, Element>,
}

fn main() {}
