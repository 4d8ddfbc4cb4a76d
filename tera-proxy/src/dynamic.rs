//! Packets whose defs are read at run time (`tera_dynamic`): a
//! connection's def source, a packet as a dynamic value, and hooks that
//! read and change its fields by name. A proxy keeps working on patch day
//! with the new defs in a folder, without a rebuild.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use tera_dynamic::{Catalog, DecodeError, Schema};

/// Where a connection's runtime defs come from.
#[derive(Debug, Clone, Default)]
pub enum DefSource {
    /// None: only the compiled-in packets are typed.
    #[default]
    None,
    /// These defs.
    Catalog(Arc<Catalog>),
}

/// Why a folder of defs gave no def source.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DefsError {
    /// The folder holds no def that loads.
    #[error("{path}: no def loaded ({problems} with problems)")]
    NoDefs {
        /// The folder.
        path: PathBuf,
        /// Defs that did not load.
        problems: usize,
    },
}

impl DefSource {
    /// The defs of a folder (a tera-data checkout or any folder of `.def`
    /// files, read as `tera_dynamic::Catalog::load_dir` reads it). Defs
    /// with problems are left out and logged; see
    /// [`catalog`](DefSource::catalog)`.problems()`.
    ///
    /// # Errors
    /// [`DefsError::NoDefs`] when no def loads.
    pub fn folder(dir: impl AsRef<Path>) -> Result<DefSource, DefsError> {
        let mut catalog = Catalog::new();
        let loaded = catalog.load_dir(dir.as_ref());
        for problem in catalog.problems() {
            tracing::warn!(problem = %problem.render(false), "a runtime def did not load");
        }
        if loaded == 0 {
            return Err(DefsError::NoDefs {
                path: dir.as_ref().to_owned(),
                problems: catalog.problems().len(),
            });
        }
        Ok(DefSource::Catalog(Arc::new(catalog)))
    }

    /// The defs of a tera-data checkout: its `definitions` folder (the
    /// checkout itself when it has none).
    ///
    /// # Errors
    /// As [`folder`](DefSource::folder).
    pub fn tera_data(checkout: impl AsRef<Path>) -> Result<DefSource, DefsError> {
        DefSource::folder(crate::version::checkout_folder(
            checkout.as_ref(),
            &["definitions"],
        ))
    }

    /// The defs, if any.
    #[must_use]
    pub fn catalog(&self) -> Option<&Catalog> {
        match self {
            DefSource::None => None,
            DefSource::Catalog(catalog) => Some(catalog),
        }
    }
}

/// Why a packet has no dynamic value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DynamicError {
    /// The connection has no runtime defs ([`ProxyConfig::defs`](crate::ProxyConfig::defs)).
    #[error("the connection has no runtime defs")]
    NoDefs,
    /// The connection's map does not name the packet's opcode.
    #[error("the protocol map does not name opcode {0}")]
    NoName(u16),
    /// The runtime defs have no such def.
    #[error("no runtime def {name}.{}", version.map_or_else(|| "latest".to_owned(), |v| v.to_string()))]
    NoDef {
        /// The packet's name.
        name: String,
        /// The version asked for (`None`: the latest).
        version: Option<u32>,
    },
    /// The bytes do not decode as the def.
    #[error(transparent)]
    Decode(#[from] DecodeError),
}

/// The def of `name` in `catalog`: version `version`, or the latest.
pub(crate) fn schema_of(
    catalog: Option<&Catalog>,
    name: &str,
    version: Option<u32>,
) -> Result<Arc<Schema>, DynamicError> {
    let catalog = catalog.ok_or(DynamicError::NoDefs)?;
    let schema = match version {
        Some(v) => catalog.get(name, v),
        None => catalog.latest(name),
    };
    schema.cloned().ok_or_else(|| DynamicError::NoDef {
        name: name.to_owned(),
        version,
    })
}
