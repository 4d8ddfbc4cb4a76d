//! Which protocol map a connection uses: a given one, or the one of the
//! revision the client announces in `C_CHECK_VERSION`, read from a folder of
//! `protocol.REV.map` files.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use tera_data::ProtocolMap;
use tera_sessions::RevisionError;

use crate::sysmsg::{SysmsgMap, sysmsg_of};

/// The opcode of `C_CHECK_VERSION` in every client build's protocol map: it
/// must not change, since it is read before the map is known.
pub use tera_sessions::C_CHECK_VERSION_OPCODE;

/// Why a connection has no protocol map.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum MapLoadError {
    /// The client's first packet was not `C_CHECK_VERSION`.
    #[error(
        "the client's first packet has opcode {0}, not C_CHECK_VERSION ({C_CHECK_VERSION_OPCODE})"
    )]
    NoCheckVersion(u16),
    /// `C_CHECK_VERSION` did not decode.
    #[error("C_CHECK_VERSION does not decode")]
    BadCheckVersion(#[source] tera_packets::Error),
    /// `C_CHECK_VERSION` has no version entry of index 0.
    #[error("C_CHECK_VERSION has no version entry of index 0")]
    NoRevision,
    /// The revision in `C_CHECK_VERSION` is negative.
    #[error("C_CHECK_VERSION announces a negative revision, {0}")]
    NegativeRevision(i32),
    /// The map file could not be read.
    #[error("{path}: cannot read it")]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error (shared: the error is kept by each connection).
        #[source]
        source: Arc<std::io::Error>,
    },
    /// The map file is refused (not a protocol map). A line that makes no
    /// entry only leaves it out, with a warning logged.
    #[error("{path}: {report}")]
    Parse {
        /// The file.
        path: PathBuf,
        /// Every diagnostic of the file, as the def front end renders them.
        report: String,
    },
}

/// The protocol revision announced by a `C_CHECK_VERSION` packet (whole,
/// header included): the value of the entry of index 0.
///
/// # Errors
/// [`MapLoadError::BadCheckVersion`] when it does not decode,
/// [`NoRevision`](MapLoadError::NoRevision) without an entry of index 0,
/// [`NegativeRevision`](MapLoadError::NegativeRevision).
pub fn announced_revision(packet: &[u8]) -> Result<u32, MapLoadError> {
    tera_sessions::announced_revision(packet).map_err(|e| match e {
        RevisionError::Decode(source) => MapLoadError::BadCheckVersion(source),
        RevisionError::Negative(value) => MapLoadError::NegativeRevision(value),
        _ => MapLoadError::NoRevision,
    })
}

/// A folder of `protocol.REV.map` files, each read once.
#[derive(Debug)]
pub struct MapFolder {
    dir: PathBuf,
    loaded: Mutex<HashMap<u32, Arc<ProtocolMap>>>,
    sysmsg: Mutex<HashMap<u32, Option<Arc<SysmsgMap>>>>,
}

impl MapFolder {
    /// The folder `dir` (nothing is read yet).
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        MapFolder {
            dir: dir.into(),
            loaded: Mutex::default(),
            sysmsg: Mutex::default(),
        }
    }

    /// The folder.
    #[must_use]
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The file of `revision`.
    #[must_use]
    pub fn path_of(&self, revision: u32) -> PathBuf {
        self.dir.join(format!("protocol.{revision}.map"))
    }

    /// The sysmsg map of `revision`: `sysmsg.REV.map`, or the newest older
    /// one in the folder (tera-data renews its sysmsg maps less often
    /// than its protocol maps); read on first use. `None` when the folder
    /// has none (or it does not load: logged).
    #[must_use]
    pub fn sysmsg(&self, revision: u32) -> Option<Arc<SysmsgMap>> {
        let mut cache = self.sysmsg.lock().unwrap_or_else(PoisonError::into_inner);
        cache
            .entry(revision)
            .or_insert_with(|| match sysmsg_of(&self.dir, revision)? {
                Ok(map) => Some(Arc::new(map)),
                Err(e) => {
                    tracing::warn!(error = %e, "a sysmsg map did not load");
                    None
                }
            })
            .clone()
    }

    /// The map of `revision`, read and parsed on first use (see
    /// `tera_dynamic::load_protocol_map`: lines that make no entry are left
    /// out and logged).
    ///
    /// # Errors
    /// [`MapLoadError::Read`]. A bad line is logged and skipped, the
    /// first use of a name or an opcode kept (real maps hold typo'd alias
    /// lines that repeat another name's opcode).
    pub async fn load(&self, revision: u32) -> Result<Arc<ProtocolMap>, MapLoadError> {
        let cached = self
            .loaded
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&revision)
            .cloned();
        if let Some(map) = cached {
            return Ok(map);
        }
        let path = self.path_of(revision);
        let text = tokio::fs::read_to_string(&path)
            .await
            .map_err(|e| MapLoadError::Read {
                path: path.clone(),
                source: Arc::new(e),
            })?;
        let file_name = format!("protocol.{revision}.map");
        let loaded = tera_dynamic::parse_protocol_map(&file_name, &text).map_err(|report| {
            MapLoadError::Parse {
                path: path.clone(),
                report: report.render(false),
            }
        })?;
        if !loaded.is_whole() {
            // As tera-data-parser does: the lines left out are reported,
            // the others make the map.
            tracing::warn!(
                path = %path.display(),
                report = %loaded.report.render(false),
                "protocol map lines left out"
            );
        }
        let map = Arc::new(loaded.map);
        self.loaded
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(revision, Arc::clone(&map));
        Ok(map)
    }
}

/// Where a connection's protocol map comes from.
#[derive(Debug, Clone, Default)]
pub enum MapSource {
    /// No map: only `*` raw hooks run.
    #[default]
    None,
    /// This map (with its revision, if known), from the start.
    Fixed(Arc<ProtocolMap>),
    /// The folder's map of the revision in the client's `C_CHECK_VERSION`.
    Folder(Arc<MapFolder>),
}

impl MapSource {
    /// The project's made-up test map (`maps/protocol.1.map`, compiled
    /// in as `tera_data::protocol_map`; built with `TERA_DATA_DIR`, that
    /// checkout's newest map): opcodes for the compiled-in packets, for
    /// tests and examples against the scripted peers. No game client
    /// speaks the made-up map: a real proxy takes the map of the revision the
    /// client announces ([`MapSource::folder`], or
    /// [`MapSource::tera_data`] on a tera-data checkout).
    #[must_use]
    pub fn test_map() -> MapSource {
        tera_data::protocol_map().map_or(MapSource::None, |m| MapSource::Fixed(Arc::new(m)))
    }

    /// The made-up test map with made-up opcodes for `names` too (the
    /// first free ones from 40000): to test a mod that ships the defs of
    /// packets the test map lacks ([`PacketDef`](crate::PacketDef)). A
    /// name the map has keeps its opcode.
    ///
    /// ```
    /// use tera_proxy::MapSource;
    ///
    /// let MapSource::Fixed(map) = MapSource::test_map_with(&["S_MY_MOD_NOTICE", "S_CHAT"]) else {
    ///     unreachable!()
    /// };
    /// // No map has the mod's own name: it gets a free opcode from 40000.
    /// let code = map.code("S_MY_MOD_NOTICE").unwrap();
    /// assert!(code >= 40000);
    /// assert_eq!(map.name(code), Some("S_MY_MOD_NOTICE"));
    /// assert_eq!(map.code("S_CHAT"), tera_data::protocol_map().and_then(|m| m.code("S_CHAT")));
    /// ```
    #[must_use]
    pub fn test_map_with(names: &[&str]) -> MapSource {
        let test = tera_data::protocol_map().unwrap_or_default();
        let mut free = (40_000..=u16::MAX).filter(|code| test.name(*code).is_none());
        let added: Vec<(&str, u16)> = names
            .iter()
            .filter(|name| test.code(name).is_none())
            .filter_map(|name| Some((*name, free.next()?)))
            .collect();
        let entries = test.iter().chain(added);
        MapSource::Fixed(Arc::new(ProtocolMap::from_entries(
            test.revision(),
            entries,
        )))
    }

    /// The made-up test map, under its old name.
    #[deprecated(
        note = "the made-up test map: use MapSource::test_map, or MapSource::tera_data for a real client"
    )]
    #[must_use]
    pub fn compiled_in() -> MapSource {
        MapSource::test_map()
    }

    /// A folder of `protocol.REV.map` files.
    pub fn folder(dir: impl Into<PathBuf>) -> MapSource {
        MapSource::Folder(Arc::new(MapFolder::new(dir)))
    }

    /// The maps of a tera-data checkout, as tera-toolbox reads them: each
    /// connection takes `protocol.REV.map` of the revision its client
    /// announces in `C_CHECK_VERSION` (and `sysmsg.REV.map`, for system
    /// messages), from the checkout's `map` folder (`maps` when it has
    /// that one instead).
    ///
    /// ```
    /// use tera_proxy::{DefSource, MapSource, ProxyConfig};
    ///
    /// # fn config(checkout: &std::path::Path) -> Result<ProxyConfig, tera_proxy::DefsError> {
    /// let config = ProxyConfig {
    ///     maps: MapSource::tera_data(checkout),
    ///     // Its defs too, read at run time (dynamic hooks).
    ///     defs: DefSource::tera_data(checkout)?,
    ///     ..ProxyConfig::default()
    /// };
    /// # Ok(config)
    /// # }
    /// ```
    pub fn tera_data(checkout: impl AsRef<Path>) -> MapSource {
        MapSource::folder(checkout_folder(checkout.as_ref(), &["map", "maps"]))
    }
}

/// The first of `names` that is a folder of `checkout`, else the checkout
/// itself.
pub(crate) fn checkout_folder(checkout: &Path, names: &[&str]) -> PathBuf {
    names
        .iter()
        .map(|name| checkout.join(name))
        .find(|dir| dir.is_dir())
        .unwrap_or_else(|| checkout.to_owned())
}

/// A `C_CHECK_VERSION` packet with these `(index, value)` entries.
#[cfg(any(test, feature = "harness"))]
pub(crate) fn check_version_packet(entries: &[(i32, i32)]) -> Vec<u8> {
    tera_sessions::check_version_packet_of(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_version(entries: &[(i32, i32)]) -> Vec<u8> {
        check_version_packet(entries)
    }

    #[test]
    fn revision_is_the_value_of_index_0() {
        assert_eq!(
            announced_revision(&check_version(&[(1, 7), (0, 365100)])).ok(),
            Some(365100)
        );
        assert!(matches!(
            announced_revision(&check_version(&[(1, 7)])),
            Err(MapLoadError::NoRevision)
        ));
        assert!(matches!(
            announced_revision(&check_version(&[(0, -1)])),
            Err(MapLoadError::NegativeRevision(-1))
        ));
        assert!(matches!(
            announced_revision(&[9, 0, 0xbc, 0x4d, 1, 0, 200, 0, 0]),
            Err(MapLoadError::BadCheckVersion(_))
        ));
    }
}
