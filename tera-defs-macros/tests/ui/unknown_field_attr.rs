use tera_packets::{Block, Str};

#[derive(Block)]
struct Item<'a> {
    id: u32,
    #[tera(renamed = "itemName")]
    name: Str<'a>,
}

fn main() {}
