use tera_packets::Packet;

#[derive(Packet)]
#[tera(name = "S_CHAT", version = 4)]
struct Chat {
    channel: u32,
    message: String,
}

fn main() {}
