//! The names the client's data center gives classes, races, genders and
//! zones' channel types, and the player template convention.

use std::fmt;

macro_rules! dc_names {
    ($(#[$doc:meta])* $name:ident { $($(#[$vdoc:meta])* $variant:ident = $text:literal,)* }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum $name {
            $($(#[$vdoc])* $variant,)*
        }

        impl $name {
            /// Every value, in the client's index order.
            pub const ALL: &'static [$name] = &[$($name::$variant,)*];

            /// The data center's name (`UserData`, `ContinentData`).
            #[must_use]
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)*
                }
            }

            /// The value of a data center name, if it is one of these.
            #[must_use]
            pub fn from_dc_name(name: &str) -> Option<Self> {
                match name {
                    $($text => Some($name::$variant),)*
                    _ => None,
                }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

dc_names! {
    /// A class, by the data center's name (`fighter` is the brawler).
    Class {
        /// Warrior.
        Warrior = "warrior",
        /// Lancer.
        Lancer = "lancer",
        /// Slayer.
        Slayer = "slayer",
        /// Berserker.
        Berserker = "berserker",
        /// Sorcerer.
        Sorcerer = "sorcerer",
        /// Archer.
        Archer = "archer",
        /// Priest.
        Priest = "priest",
        /// Mystic.
        Elementalist = "elementalist",
        /// Reaper.
        Soulless = "soulless",
        /// Gunner.
        Engineer = "engineer",
        /// Brawler.
        Fighter = "fighter",
        /// Ninja.
        Assassin = "assassin",
        /// Valkyrie.
        Glaiver = "glaiver",
    }
}

dc_names! {
    /// A race, by the data center's name (`popori` females are elins).
    Race {
        /// Human.
        Human = "human",
        /// High elf.
        HighElf = "highelf",
        /// Aman.
        Aman = "aman",
        /// Castanic.
        Castanic = "castanic",
        /// Popori (and elin).
        Popori = "popori",
        /// Baraka.
        Baraka = "baraka",
    }
}

dc_names! {
    /// A gender, by the data center's name.
    Gender {
        /// Male.
        Male = "male",
        /// Female.
        Female = "female",
    }
}

dc_names! {
    /// The channel type of a zone (`ContinentData/Continent@channelType`).
    ChannelType {
        /// No channels (open world).
        None = "none",
        /// A field (open world).
        Field = "field",
        /// A channelled zone (open world).
        ChannelingZone = "channelingZone",
        /// A dungeon.
        Dungeon = "dungeon",
        /// A battleground.
        BattleField = "battleField",
        /// Civil unrest.
        CityWar = "citywar",
    }
}

impl Class {
    /// The class of index `index` (as in `S_PARTY_MEMBER_LIST`'s `class`).
    #[must_use]
    pub fn from_index(index: u32) -> Option<Class> {
        Class::ALL.get(usize::try_from(index).ok()?).copied()
    }
}

/// Class, race and gender of a player template.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Template {
    /// The class.
    pub class: Option<Class>,
    /// The race.
    pub race: Option<Race>,
    /// The gender.
    pub gender: Option<Gender>,
}

impl Template {
    /// The client's convention for player templates, `1XXYY`: `XX - 1` is
    /// `race * 2 + gender`, `YY - 1` the class index (every template of
    /// `UserData` follows it; heroes of `HeroData` need not).
    #[must_use]
    pub fn from_convention(template_id: i32) -> Option<Template> {
        if !(10_000..20_000).contains(&template_id) {
            return None;
        }
        let class = Class::from_index(u32::try_from(template_id % 100 - 1).ok()?)?;
        let race_gender = usize::try_from((template_id / 100) % 100 - 1).ok()?;
        let race = *Race::ALL.get(race_gender / 2)?;
        let gender = *Gender::ALL.get(race_gender % 2)?;
        Some(Template {
            class: Some(class),
            race: Some(race),
            gender: Some(gender),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for class in Class::ALL {
            assert_eq!(Class::from_dc_name(class.as_str()), Some(*class));
        }
        assert_eq!(
            ChannelType::from_dc_name("battleField"),
            Some(ChannelType::BattleField)
        );
        assert_eq!(Class::from_dc_name("brawler"), None);
    }

    #[test]
    fn template_convention() {
        let t = Template::from_convention(10101).unwrap();
        assert_eq!(
            (t.class, t.race, t.gender),
            (Some(Class::Warrior), Some(Race::Human), Some(Gender::Male))
        );
        let t = Template::from_convention(11011).unwrap();
        assert_eq!(
            (t.class, t.race, t.gender),
            (
                Some(Class::Fighter),
                Some(Race::Popori),
                Some(Gender::Female)
            )
        );
        assert_eq!(Template::from_convention(10114), None);
        assert_eq!(Template::from_convention(9999), None);
        assert_eq!(Template::from_convention(11301), None);
    }
}
