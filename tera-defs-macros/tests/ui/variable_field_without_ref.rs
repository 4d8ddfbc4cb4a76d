use tera_packets::{Packet, Str};

// With explicit refs, every variable field needs one (the JS parser would
// silently drop `b`'s data).
#[derive(Packet)]
#[tera(name = "S_TEST", version = 1)]
struct Test<'a> {
    #[tera(refs_before(a))]
    a: Str<'a>,
    b: Str<'a>,
}

fn main() {
    let _ = Test::decode(&[]);
}
