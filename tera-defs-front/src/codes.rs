//! The codes of all diagnostics, shown as `error[E010]: ...`.
//!
//! Errors start with `E`, warnings with `W`. `E032` and `E033` (Rust name
//! collisions) are no longer the front end's: the Rust emitter, `tera-defs`,
//! resolves them and warns with `W032` and `W033`.

/// Syntax error: a line that the grammar does not accept.
pub const SYNTAX: &str = "E001";
/// A def or map file name that does not have the expected form.
pub const FILE_NAME: &str = "E002";
/// A file that could not be read.
pub const IO: &str = "E003";
/// An unknown field type.
pub const UNKNOWN_TYPE: &str = "E010";
/// An unknown or unusable element type in `array<T>`.
pub const UNKNOWN_SUBTYPE: &str = "E011";
/// A `<subtype>` on a type other than `array`.
pub const UNEXPECTED_SUBTYPE: &str = "E012";
/// An unknown flag in `[...]`.
pub const UNKNOWN_FLAG: &str = "E013";
/// A flag on a field that cannot have it (`[interleaved]` on a non-array).
pub const MISPLACED_FLAG: &str = "E014";
/// A line nested more than one level deeper than the line above.
pub const NESTED_TOO_DEEP: &str = "E020";
/// Nested lines under a field that is not `array` or `object`.
pub const UNEXPECTED_CHILDREN: &str = "E021";
/// Nested lines under a `ref`, `offset` or `count` line.
pub const META_CHILDREN: &str = "E022";
/// `[interleaved]` arrays of one block that are not consecutive fields.
pub const INTERLEAVED_NOT_CONSECUTIVE: &str = "E030";
/// Two fields of one block with the same name (other than a split object).
pub const DUPLICATE_FIELD: &str = "E031";
/// In a def with explicit refs: a variable field without a `ref` line.
pub const MISSING_REF: &str = "E040";
/// A `ref` to a field that does not exist in the block.
pub const UNKNOWN_REF: &str = "E041";
/// A `ref` to a field that is not a string, bytes or array.
pub const REF_NOT_VARIABLE: &str = "E042";
/// Two `ref` lines for one field.
pub const DUPLICATE_REF: &str = "E043";
/// A `ref` line after the field it refers to.
pub const REF_AFTER_FIELD: &str = "E044";
/// A `ref` line inside an object (it belongs in the enclosing block, with a
/// dotted path).
pub const REF_IN_OBJECT: &str = "E045";
/// A map line that is not `NAME = CODE` or `NAME CODE`.
pub const MAP_SYNTAX: &str = "E050";
/// A name that appears twice in a map.
pub const MAP_DUPLICATE_NAME: &str = "E051";
/// A code that does not fit the map's code type (u16 for protocol maps, u32
/// for sysmsg maps).
pub const MAP_CODE_RANGE: &str = "E053";

/// An `object` or `array` without fields.
pub const EMPTY_CONTAINER: &str = "W001";
/// A fixed field after a variable field in the same block (the JS reader
/// reads it at a different place than the JS writer writes it).
pub const FIXED_AFTER_VARIABLE: &str = "W002";
/// A flag given twice.
pub const DUPLICATE_FLAG: &str = "W003";
/// Two fixed-size fields of one block with the same name (the corpus has
/// one: C_MOVE_WARE_POS.1 `unk3`): one field at both places, whose last
/// copy is kept when read (as the JS reader does) and whose value is
/// written twice.
pub const DUPLICATE_FIXED_FIELD: &str = "W004";
/// A legacy `count` or `offset` line: `offset X` is read as `ref X`, which
/// turns implicit metadata off for the whole def; `count X` is ignored.
pub const LEGACY_META: &str = "W005";
/// A def whose packet name a protocol map checked with it lacks
/// ([`crate::MapFile::missing_def`]): no opcode in that client build.
pub const MISSING_FROM_MAP: &str = "W006";
/// A code that appears twice in a map: the later name is an alias (real maps
/// have typo'd ones, build 376012's `C_CANCEL_SKILL_STRICTLYY`), left out;
/// the first name keeps the code. It was error `E052`.
pub const MAP_DUPLICATE_CODE: &str = "W007";

/// Every code above, errors first.
pub const ALL: &[&str] = &[
    SYNTAX,
    FILE_NAME,
    IO,
    UNKNOWN_TYPE,
    UNKNOWN_SUBTYPE,
    UNEXPECTED_SUBTYPE,
    UNKNOWN_FLAG,
    MISPLACED_FLAG,
    NESTED_TOO_DEEP,
    UNEXPECTED_CHILDREN,
    META_CHILDREN,
    INTERLEAVED_NOT_CONSECUTIVE,
    DUPLICATE_FIELD,
    MISSING_REF,
    UNKNOWN_REF,
    REF_NOT_VARIABLE,
    DUPLICATE_REF,
    REF_AFTER_FIELD,
    REF_IN_OBJECT,
    MAP_SYNTAX,
    MAP_DUPLICATE_NAME,
    MAP_CODE_RANGE,
    EMPTY_CONTAINER,
    FIXED_AFTER_VARIABLE,
    DUPLICATE_FLAG,
    DUPLICATE_FIXED_FIELD,
    LEGACY_META,
    MISSING_FROM_MAP,
    MAP_DUPLICATE_CODE,
];
