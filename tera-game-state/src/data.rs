//! What game state reads from the client's data center: the class, race
//! and gender of each template and the channel type of each zone.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use tera_datacenter::{DatKey, DataCenter, WriteOptions};

use crate::class::{ChannelType, Class, Gender, Race, Template};
use crate::rows::{self, AbnormalityData, ItemData, children, int};

/// Where the data center comes from.
#[derive(Debug, Clone)]
pub enum DataCenterSource {
    /// The game's `.dat`, with its key and IV.
    Dat {
        /// The file.
        path: PathBuf,
        /// Its key and IV.
        key: DatKey,
    },
    /// A decrypted, inflated `.dec`.
    Dec(PathBuf),
    /// A folder of XML sheets with their schemas (Novadrop's or
    /// arise-data's layout).
    Sheets(PathBuf),
}

/// Why the data center could not be read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DataError {
    /// The file could not be read.
    #[error("{path}: cannot read it")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The `.dat` does not decrypt and inflate with its key.
    #[error("{path}: cannot decrypt it")]
    Dat {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: tera_datacenter::DatError,
    },
    /// The `.dec` (or what the `.dat` holds) is not a valid data center.
    #[error("{path}: not a data center")]
    DataCenter {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: tera_datacenter::Problem,
    },
    /// The sheets could not be read or packed.
    #[error("{path}: the sheets cannot be read")]
    Sheets {
        /// The folder.
        path: PathBuf,
        /// Why.
        #[source]
        source: tera_datacenter::sheets::SheetsError,
    },
}

/// Where game state's data came from, which says what is known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DataOrigin {
    /// A data center: every template and zone it holds is known.
    DataCenter,
    /// No data center: class, race and gender come from the player
    /// template convention (`1XXYY`), which heroes need not follow, and no
    /// zone's channel type is known.
    None,
}

/// The client's data game state reads (tera-game-state's `mod.game.data`
/// users and continents).
#[derive(Debug, Clone)]
pub struct GameData {
    templates: HashMap<i32, Template>,
    channels: HashMap<i32, ChannelType>,
    items: HashMap<i32, Arc<ItemData>>,
    abnormalities: HashMap<i32, Arc<AbnormalityData>>,
    origin: DataOrigin,
}

impl Default for GameData {
    fn default() -> Self {
        GameData::none()
    }
}

impl GameData {
    /// No data center (see [`DataOrigin::None`]).
    #[must_use]
    pub fn none() -> Self {
        GameData {
            templates: HashMap::new(),
            channels: HashMap::new(),
            items: HashMap::new(),
            abnormalities: HashMap::new(),
            origin: DataOrigin::None,
        }
    }

    /// Reads `UserData/Template` and `HeroData/Template` (`id`, `class`,
    /// `race`, `gender`), `ContinentData/Continent` (`id`, `channelType`),
    /// and the item and abnormality rows with their names (`ItemData`,
    /// `StrSheet_Item`, `Abnormality`, `StrSheet_Abnormality`) of an open
    /// data center.
    #[must_use]
    pub fn from_data_center(dc: &DataCenter<'_>) -> Self {
        let root = dc.root();
        let mut templates = HashMap::new();
        for sheet in ["UserData", "HeroData"] {
            for template in children(root, sheet, "Template") {
                let Some(id) = int(template, "id") else {
                    continue;
                };
                let text = |name| {
                    template
                        .attribute(name)
                        .and_then(|v| v.as_str())
                        .map(|s| s.to_string_lossy())
                };
                templates.insert(
                    id,
                    Template {
                        class: text("class").and_then(|s| Class::from_dc_name(&s)),
                        race: text("race").and_then(|s| Race::from_dc_name(&s)),
                        gender: text("gender").and_then(|s| Gender::from_dc_name(&s)),
                    },
                );
            }
        }
        let mut channels = HashMap::new();
        for continent in children(root, "ContinentData", "Continent") {
            let channel = continent
                .attribute("channelType")
                .and_then(|v| v.as_str())
                .and_then(|s| ChannelType::from_dc_name(&s.to_string_lossy()));
            if let (Some(id), Some(channel)) = (int(continent, "id"), channel) {
                channels.insert(id, channel);
            }
        }
        GameData {
            templates,
            channels,
            items: rows::items(root),
            abnormalities: rows::abnormalities(root),
            origin: DataOrigin::DataCenter,
        }
    }

    /// Reads the data center `source` names.
    ///
    /// # Errors
    /// [`DataError`]: the file or folder cannot be read, or is not a data
    /// center.
    pub fn load(source: &DataCenterSource) -> Result<Self, DataError> {
        let (path, dec) = match source {
            DataCenterSource::Dat { path, key } => {
                let dat = read(path)?;
                let dec = tera_datacenter::unpack(&dat, key).map_err(|source| DataError::Dat {
                    path: path.clone(),
                    source,
                })?;
                (path, dec)
            }
            DataCenterSource::Dec(path) => (path, read(path)?),
            DataCenterSource::Sheets(dir) => {
                let sheets_error = |source| DataError::Sheets {
                    path: dir.clone(),
                    source,
                };
                let sheets =
                    tera_datacenter::sheets::read_sheets(dir, &|_, _| {}).map_err(sheets_error)?;
                (
                    dir,
                    sheets
                        .into_dec(&WriteOptions::default())
                        .map_err(sheets_error)?,
                )
            }
        };
        let dc = DataCenter::parse(&dec).map_err(|source| DataError::DataCenter {
            path: path.clone(),
            source,
        })?;
        Ok(GameData::from_data_center(&dc))
    }

    /// Where the data came from.
    #[must_use]
    pub fn origin(&self) -> DataOrigin {
        self.origin
    }

    /// What is unknown without a data center, in words (empty with one).
    #[must_use]
    pub fn unknown(&self) -> &'static [&'static str] {
        match self.origin {
            DataOrigin::DataCenter => &[],
            DataOrigin::None => &[
                "class, race and gender of templates outside the player convention 1XXYY (heroes)",
                "the zone's channel type: inOpenWorld, inDungeon, inBattleground, inCivilUnrest",
            ],
        }
    }

    /// Class, race and gender of a template: from the data center, or
    /// without one from the player template convention.
    #[must_use]
    pub fn template(&self, template_id: i32) -> Option<Template> {
        match self.origin {
            DataOrigin::DataCenter => self.templates.get(&template_id).copied(),
            DataOrigin::None => Template::from_convention(template_id),
        }
    }

    /// The channel type of a zone, if the data center says it.
    #[must_use]
    pub fn channel_type(&self, zone: i32) -> Option<ChannelType> {
        self.channels.get(&zone).copied()
    }

    /// The data center's row of item `id` (toolbox's
    /// `game.data.items.get(id)`); `None` without a data center.
    #[must_use]
    pub fn item(&self, id: i32) -> Option<&Arc<ItemData>> {
        self.items.get(&id)
    }

    /// The data center's row of abnormality `id`
    /// (`game.data.abnormalities.get(id)`); `None` without a data center.
    #[must_use]
    pub fn abnormality(&self, id: u32) -> Option<&Arc<AbnormalityData>> {
        self.abnormalities.get(&i32::try_from(id).ok()?)
    }

    /// How many templates and zones are known.
    #[must_use]
    pub fn counts(&self) -> (usize, usize) {
        (self.templates.len(), self.channels.len())
    }
}

fn read(path: &Path) -> Result<Vec<u8>, DataError> {
    std::fs::read(path).map_err(|source| DataError::Read {
        path: path.to_owned(),
        source,
    })
}
