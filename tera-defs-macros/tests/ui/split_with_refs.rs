use tera_packets::{Array, Block, Str};

#[derive(Default, Block)]
#[tera(crate = "tera_packets")]
struct Split<'a> {
    #[tera(refs_before(s))]
    b: u16,
    s: Str<'a>,
    #[tera(part = 1)]
    arr: Array<'a, u8>,
}

fn main() {}
