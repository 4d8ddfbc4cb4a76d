use tera_packets::Block;

#[derive(Block)]
enum Kind {
    A,
    B,
}

fn main() {}
