use tera_packets::{Block, Str};

#[derive(Default, Block)]
struct Split<'a> {
    b: u16,
    #[tera(part = 2)]
    s: Str<'a>,
}

fn main() {}
