//! `rename_all = "camelCase"` names fields as serde's rule does; `rename`
//! overrides it where the rule does not give the def's name back.

use tera_packets::{Packet, Visit, Visitor};

#[derive(Debug, PartialEq, tera_packets::Packet)]
#[tera(name = "S_RENAMED", version = 1, rename_all = "camelCase")]
struct Renamed {
    game_id: u32,
    #[tera(rename = "HP")]
    hp: u16,
}

#[derive(Default)]
struct Names(Vec<&'static str>);

impl Visitor for Names {
    fn field<T: Visit + ?Sized>(&mut self, name: &'static str, _value: &T) {
        self.0.push(name);
    }
}

fn main() {
    let value = Renamed { game_id: 7, hp: 3 };
    let bytes = value.encode().unwrap();
    assert_eq!(Renamed::decode(&bytes).unwrap(), value);
    let mut names = Names::default();
    value.visit(&mut names);
    assert_eq!(names.0, ["gameId", "HP"]);
}
