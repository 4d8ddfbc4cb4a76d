//! The player's position and heading (past tera-game-state).

use tera_packets::{Angle, Vec3};

use crate::event::GameEvent;

/// Where the player is and faces: from the client's own movement packets
/// (`C_PLAYER_LOCATION`, `C_NOTIFY_LOCATION_IN_ACTION`,
/// `C_NOTIFY_LOCATION_IN_DASH`) and the server's word (`S_LOAD_TOPO`,
/// `S_SPAWN_ME`, and its corrections `S_INSTANT_MOVE`, `S_INSTANT_DASH`,
/// `S_ACTION_END` of the player).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Position {
    loc: Option<Vec3>,
    w: Option<Angle>,
    dest: Option<Vec3>,
}

impl Position {
    /// The last known location.
    #[must_use]
    pub fn loc(&self) -> Option<Vec3> {
        self.loc
    }

    /// The last known heading.
    #[must_use]
    pub fn w(&self) -> Option<Angle> {
        self.w
    }

    /// Where the player was last heading to (`C_PLAYER_LOCATION`'s `dest`).
    #[must_use]
    pub fn dest(&self) -> Option<Vec3> {
        self.dest
    }

    /// The distance from the player to `to`, if the location is known.
    #[must_use]
    pub fn distance_to(&self, to: Vec3) -> Option<f32> {
        self.loc.map(|loc| distance(loc, to))
    }

    pub(crate) fn reset(&mut self) {
        *self = Position::default();
    }

    pub(crate) fn moved(&mut self, loc: Vec3, w: Option<Angle>, dest: Option<Vec3>) {
        self.loc = Some(loc);
        if w.is_some() {
            self.w = w;
        }
        self.dest = dest;
    }

    pub(crate) fn corrected(&mut self, loc: Vec3, w: Angle, events: &mut Vec<GameEvent>) {
        self.moved(loc, Some(w), None);
        events.push(GameEvent::PositionCorrected { loc, w });
    }
}

/// The distance between two points.
#[must_use]
pub fn distance(a: Vec3, b: Vec3) -> f32 {
    let (dx, dy, dz) = (a.x - b.x, a.y - b.y, a.z - b.z);
    (dx * dx + dy * dy + dz * dz).sqrt()
}
