use tera_packets::Packet;

#[derive(Packet)]
#[tera(name = "S_TEST", version = 1, opcode = 17)]
struct Test {
    a: u32,
}

fn main() {}
