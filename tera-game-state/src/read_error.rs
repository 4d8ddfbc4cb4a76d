//! Why a packet game state reads did not change the state.

/// A packet that game state reads but could not read: its bytes do not
/// decode as the def chosen for it, or a def loaded at run time lacks a
/// field game state reads.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ReadError {
    /// The bytes do not decode as the compiled-in def.
    #[error("{0}")]
    Compiled(#[from] tera_packets::Error),
    /// The bytes do not decode as the def loaded at run time.
    #[error("{0}")]
    Loaded(#[from] tera_dynamic::DecodeError),
    /// The def loaded at run time has no field `field` of a type game
    /// state can read it as (`expected`).
    #[error("the loaded def has no field `{field}` readable as {expected}")]
    Field {
        /// The field's def name (a path for nested fields is not given:
        /// the innermost name).
        field: &'static str,
        /// What game state reads it as.
        expected: &'static str,
    },
}
