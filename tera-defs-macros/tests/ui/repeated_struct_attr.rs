use tera_packets::Packet;

#[derive(Packet)]
#[tera(name = "S_TEST", version = 1)]
#[tera(version = 2, inline, inline)]
struct Test {
    id: u32,
}

fn main() {}
