//! The namespace of the `dc:keys` attribute of schemas.

/// The XML namespace of the `keys` attribute that names a type's key
/// attributes. Schemas are read with either; unpacking writes the one asked
/// for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum KeysNamespace {
    /// `https://tera-arise.io/dc`, the namespace of the arise-data sheets.
    #[default]
    TeraArise,
    /// `https://vezel.dev/novadrop/dc`, the namespace Novadrop reads.
    Novadrop,
}

impl KeysNamespace {
    /// Every namespace schemas are read with.
    pub const ALL: [KeysNamespace; 2] = [KeysNamespace::TeraArise, KeysNamespace::Novadrop];

    /// The namespace URI.
    pub fn uri(self) -> &'static str {
        match self {
            KeysNamespace::TeraArise => "https://tera-arise.io/dc",
            KeysNamespace::Novadrop => "https://vezel.dev/novadrop/dc",
        }
    }

    /// The namespace of `uri`, if it is one of [`ALL`](Self::ALL).
    pub fn from_uri(uri: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|n| n.uri() == uri)
    }
}
