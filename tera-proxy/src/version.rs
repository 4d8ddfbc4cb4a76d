//! Which protocol map a connection uses: a given one, or the one of the
//! revision the client announces in `C_CHECK_VERSION`, read from a folder of
//! `protocol.REV.map` files.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use tera_data::ProtocolMap;
use tera_sessions::RevisionError;

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
}

impl MapFolder {
    /// The folder `dir` (nothing is read yet).
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        MapFolder {
            dir: dir.into(),
            loaded: Mutex::default(),
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

    /// The map of `revision`, read and parsed on first use (see
    /// `tera_dynamic::load_protocol_map`: lines that make no entry are left
    /// out and logged).
    ///
    /// # Errors
    /// [`MapLoadError::Read`] or [`MapLoadError::Parse`].
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
    /// The highest compiled-in map (`tera_data::protocol_map`), or none.
    #[must_use]
    pub fn compiled_in() -> MapSource {
        tera_data::protocol_map().map_or(MapSource::None, |m| MapSource::Fixed(Arc::new(m)))
    }

    /// A folder of `protocol.REV.map` files.
    pub fn folder(dir: impl Into<PathBuf>) -> MapSource {
        MapSource::Folder(Arc::new(MapFolder::new(dir)))
    }
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
