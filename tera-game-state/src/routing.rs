//! Game state's routing table ([`ROUTES`]) read for one connection: its
//! patch, submodules, defs loaded at run time and map.

use tera_packets::ProtocolMap;

use crate::game::GameState;
use crate::routes::ROUTES;
use crate::table::{self, Entry, OpcodeTable};

impl GameState {
    /// The opcode table of `map`.
    pub(crate) fn opcode_table(&self, map: &ProtocolMap) -> OpcodeTable<GameState> {
        OpcodeTable::new(ROUTES, map, self.patch, self.enabled, self.defs.as_deref())
    }

    /// How the packet `name` is read, if its submodules are on.
    pub(crate) fn entry_named(&self, name: &str) -> Option<Entry<GameState>> {
        table::route(ROUTES, name)
            .filter(|route| route.needs.intersects(self.enabled))
            .and_then(|route| table::entry(route, self.patch, self.defs.as_deref()))
    }

    /// The packets game state cannot read at its patch.
    pub(crate) fn unsupported_names(&self) -> Vec<&'static str> {
        table::unsupported(ROUTES, self.patch, self.defs.as_deref())
    }
}
