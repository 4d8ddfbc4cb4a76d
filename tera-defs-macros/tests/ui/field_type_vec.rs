use tera_packets::Block;

#[derive(Block)]
struct Item {
    id: u32,
    data: Vec<u8>,
}

fn main() {}
