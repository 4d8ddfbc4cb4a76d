use tera_packets::Block;

#[derive(Block)]
struct Pair(u32, u16);

fn main() {}
