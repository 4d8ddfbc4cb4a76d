use tera_packets::Packet;

#[derive(Packet)]
struct Test {
    a: u32,
}

fn main() {}
