use tera_packets::Block;

#[derive(Block)]
struct Generic<'a, T> {
    value: T,
    name: tera_packets::Str<'a>,
}

fn main() {}
