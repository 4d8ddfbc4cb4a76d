use tera_packets::Packet;

#[derive(Packet)]
#[tera(name = "S_TEST")]
struct Test {
    a: u32,
}

fn main() {}
