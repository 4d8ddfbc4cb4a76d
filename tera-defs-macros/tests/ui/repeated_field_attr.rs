use tera_packets::{Array, Block, Str};

#[derive(Block)]
struct Item<'a> {
    #[tera(rename = "itemId", rename = "id")]
    id: u32,
    #[tera(interleaved)]
    #[tera(interleaved)]
    a: Array<'a, u32>,
    #[tera(interleaved)]
    b: Array<'a, u32>,
    name: Str<'a>,
}

fn main() {}
