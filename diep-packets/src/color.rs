//! Net color ids (a `vu`).

use tera_packets::{Codec, Reader, Result, Visit, Visitor, Writer};

use crate::varint::{read_vu, vu_len, write_vu};

macro_rules! colors {
    ($($(#[$doc:meta])* $name:ident = $id:expr),* $(,)?) => {
        /// A net color id: the 18 documented ids by name, any other kept as
        /// it came (a later build may add colors).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Color {
            $($(#[$doc])* $name,)*
            /// An id this build does not document.
            Unknown(u32),
        }

        impl Color {
            /// The color of net id `id`.
            pub const fn from_id(id: u32) -> Self {
                match id {
                    $($id => Color::$name,)*
                    other => Color::Unknown(other),
                }
            }

            /// The net id.
            pub const fn id(self) -> u32 {
                match self {
                    $(Color::$name => $id,)*
                    Color::Unknown(id) => id,
                }
            }
        }
    };
}

colors! {
    /// 0: borders.
    Border = 0,
    /// 1: barrels.
    Barrel = 1,
    /// 2: the player's own tank.
    Tank = 2,
    /// 3: the blue team.
    TeamBlue = 3,
    /// 4: the red team.
    TeamRed = 4,
    /// 5: the purple team.
    TeamPurple = 5,
    /// 6: the green team.
    TeamGreen = 6,
    /// 7: shiny shapes.
    Shiny = 7,
    /// 8: squares.
    EnemySquare = 8,
    /// 9: triangles.
    EnemyTriangle = 9,
    /// 10: pentagons.
    EnemyPentagon = 10,
    /// 11: crashers.
    EnemyCrasher = 11,
    /// 12: neutral (arena closers, dominators uncaptured).
    Neutral = 12,
    /// 13: the scoreboard's bars.
    ScoreboardBar = 13,
    /// 14: the maze's walls.
    Box = 14,
    /// 15: enemy tanks.
    EnemyTank = 15,
    /// 16: a necromancer's squares.
    NecromancerSquare = 16,
    /// 17: fallen bosses.
    Fallen = 17,
}

impl<'a> Codec<'a> for Color {
    const FIXED_SIZE: Option<usize> = None;
    const MIN_WIRE_LEN: usize = 1;

    #[inline]
    fn read_at(r: &mut Reader<'a>) -> Result<Self> {
        read_vu(r).map(Color::from_id)
    }

    #[inline]
    fn byte_len(&self) -> usize {
        vu_len(self.id())
    }

    #[inline]
    fn write_at(&self, w: &mut Writer<'_>) {
        write_vu(w, self.id());
    }
}

impl Visit for Color {
    fn visit<V: Visitor>(&self, v: &mut V) {
        v.unsigned(u64::from(self.id()));
    }
}

crate::owned_is_self!(Color);

#[cfg(test)]
mod tests {
    use super::Color;

    #[test]
    fn ids_round_trip_and_unknown_ids_are_kept() {
        for id in 0..40 {
            assert_eq!(Color::from_id(id).id(), id);
        }
        assert_eq!(Color::from_id(13), Color::ScoreboardBar);
        assert_eq!(Color::from_id(18), Color::Unknown(18));
    }
}
