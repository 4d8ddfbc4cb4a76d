//! Which way a packet travels, as its name says.

use tera_net::Direction;

/// The direction a packet's name says it travels: `C_` from the client to
/// the server; `S_` from the server to the client, and `I_` to the client
/// too. `None` for any other name: tera-toolbox's own `TTB_` packets, and
/// the two `M_` names of build 376012's map (`M_PDH_DATA`, `M_PONG`), whose
/// direction nothing says.
///
/// `I_` packets (`I_TELEPORT`, `I_INPUT_COMMAND`, ...) are commands the
/// client executes: tera-toolbox's `mod.send` writes them to the client as
/// it does `S_` packets, and client builds give them opcodes (build
/// 376012's map has `I_INPUT_COMMAND 19`).
pub fn direction_of(name: &str) -> Option<Direction> {
    if name.starts_with("C_") {
        Some(Direction::ClientToServer)
    } else if name.starts_with("S_") || name.starts_with("I_") {
        Some(Direction::ServerToClient)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_prefix_gives_the_direction() {
        assert_eq!(direction_of("C_CHAT"), Some(Direction::ClientToServer));
        assert_eq!(direction_of("S_CHAT"), Some(Direction::ServerToClient));
        assert_eq!(direction_of("I_TELEPORT"), Some(Direction::ServerToClient));
        assert_eq!(direction_of("TTB_S_CHANGE_HERO"), None);
        assert_eq!(direction_of("X_CHAT"), None);
        assert_eq!(direction_of("C"), None);
    }
}
