//! The error of writing a tree.

/// Why a tree could not be written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum WriteError {
    /// The root is not named `__root__`.
    #[error("the root element must be named __root__, not {0:?}")]
    RootName(String),
    /// The root has attributes.
    #[error("the root element cannot have attributes")]
    RootAttributes,
    /// More than 65535 distinct names.
    #[error("{0} distinct names: at most 65535 fit in a name index")]
    TooManyNames(usize),
    /// An element has more than 65535 children or attributes.
    #[error("element {name:?} has {count} {what}: at most 65535")]
    TooMany {
        /// The element's name.
        name: String,
        /// `"children"` or `"attributes"`.
        what: &'static str,
        /// How many.
        count: usize,
    },
    /// A string does not fit in one 65535-unit segment with its NUL.
    #[error("string of {0} UTF-16 units is too long (at most 65534)")]
    StringTooLong(usize),
    /// A string contains a NUL, which would end it early.
    #[error("string {0:?} contains a NUL character")]
    NulInString(String),
    /// Two attributes of one element share a name.
    #[error("element {element:?} has two attributes named {name:?}")]
    DuplicateAttribute {
        /// The element's name.
        element: String,
        /// The attribute's name.
        name: String,
    },
    /// `__value__` must be a string.
    #[error("attribute __value__ of element {0:?} is not a string")]
    ValueNotString(String),
    /// The tree needs more than 65535 segments in a region.
    #[error("the {0} region needs more than 65535 segments")]
    TooManySegments(&'static str),
    /// More than 4096 distinct key definitions.
    #[error("{0} key definitions: at most 4096")]
    TooManyKeys(usize),
}
