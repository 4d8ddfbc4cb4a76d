use tera_packets::{Block, Str};

#[derive(Block)]
struct Two<'a, 'b> {
    first: Str<'a>,
    second: Str<'b>,
}

fn main() {}
