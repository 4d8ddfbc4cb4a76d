//! The runtime's fixed-size field types, listed once: the emitter names
//! them in generated code and the derive recognises them in a struct.

/// Where a fixed-size type is named from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TypeHome {
    /// A Rust primitive (`u16`, `f32`, `bool`), named bare.
    Primitive,
    /// A value type of the runtime crate, named through it
    /// (`tera_packets::Vec3`).
    Runtime,
}

/// A fixed-size field type of the runtime: how a def and Rust spell it,
/// and its size on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FixedType {
    /// The def language's name (`uint16`, `vec3`).
    pub def_name: &'static str,
    /// The Rust type's name (`u16`, `Vec3`).
    pub rust_name: &'static str,
    /// Where the Rust type is named from.
    pub home: TypeHome,
    /// Its size in bytes.
    pub size: usize,
}

const fn fixed(
    def_name: &'static str,
    rust_name: &'static str,
    home: TypeHome,
    size: usize,
) -> FixedType {
    FixedType {
        def_name,
        rust_name,
        home,
        size,
    }
}

/// Every fixed-size field type, in the order of the def language's
/// description (simple types, then value types).
pub const FIXED_TYPES: [FixedType; 16] = [
    fixed("bool", "bool", TypeHome::Primitive, 1),
    fixed("byte", "u8", TypeHome::Primitive, 1),
    fixed("int16", "i16", TypeHome::Primitive, 2),
    fixed("uint16", "u16", TypeHome::Primitive, 2),
    fixed("int32", "i32", TypeHome::Primitive, 4),
    fixed("uint32", "u32", TypeHome::Primitive, 4),
    fixed("int64", "i64", TypeHome::Primitive, 8),
    fixed("uint64", "u64", TypeHome::Primitive, 8),
    fixed("float", "f32", TypeHome::Primitive, 4),
    fixed("double", "f64", TypeHome::Primitive, 8),
    fixed("vec3", "Vec3", TypeHome::Runtime, 12),
    fixed("vec3fa", "Vec3fa", TypeHome::Runtime, 12),
    fixed("angle", "Angle", TypeHome::Runtime, 2),
    fixed("skillid", "SkillId", TypeHome::Runtime, 8),
    fixed("skillid32", "SkillId32", TypeHome::Runtime, 4),
    fixed("customize", "Customize", TypeHome::Runtime, 8),
];

impl FixedType {
    /// The fixed type whose Rust name is `rust_name`, named from `home`.
    pub fn of_rust_name(rust_name: &str, home: TypeHome) -> Option<&'static FixedType> {
        FIXED_TYPES
            .iter()
            .find(|t| t.rust_name == rust_name && t.home == home)
    }
}
