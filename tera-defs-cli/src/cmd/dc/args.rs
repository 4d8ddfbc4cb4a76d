//! The arguments of `tera-defs dc ...` and their conversion into the
//! library's values (layouts, formats, keys, write options).

use std::path::PathBuf;

use clap::{Args, Subcommand, ValueEnum};
use tera_datacenter::sheets::KeysNamespace;
use tera_datacenter::{Arch, Compression, DatKey, WriteOptions};

use crate::fail::Fail;

/// Arguments of `dc`.
#[derive(Debug, Args)]
pub struct DcArgs {
    #[command(subcommand)]
    pub command: DcCommand,
}

/// The `dc` subcommands.
#[derive(Debug, Subcommand)]
pub enum DcCommand {
    /// Run the strict checks and list every problem with its byte offset;
    /// print the file's SHA-256 and its node and attribute counts.
    ///
    /// FILE is a .dec, or a .dat with --key and --iv. The exit status is 1
    /// when a problem was found.
    Verify(VerifyArgs),
    /// Write the tree, or the elements at --path, as XML or JSON.
    #[command(after_help = "Examples:
  tera-defs dc export DataCenter.dec -o DataCenter.xml
  tera-defs dc export DataCenter.dat --key HEX --iv HEX --path AreaList/Area --format json --pretty")]
    Export(ExportArgs),
    /// Check every sheet of a sheets folder against its folder's schema.
    ///
    /// Each problem is shown on standard error with file:line:column and
    /// what was expected; the summary is on standard output. The exit status
    /// is 1 when there is a problem.
    Validate(ValidateArgs),
    /// Pack a sheets folder into a .dec (or a .dat with --key and --iv), or
    /// compress and encrypt a .dec into a .dat (after the strict checks).
    #[command(after_help = "Examples:
  tera-defs dc pack sheets/ DataCenter.dec
  tera-defs dc pack sheets/ DataCenter.dat --key HEX --iv HEX --revision 387463
  tera-defs dc pack DataCenter.dec DataCenter.dat --key HEX --iv HEX")]
    Pack(PackArgs),
    /// Write a .dec (or a .dat with --key and --iv) as a sheets folder with
    /// a schema per folder, or decrypt and inflate a .dat into a .dec.
    ///
    /// OUT is a sheets folder when it is an existing folder or its name has
    /// no extension; otherwise it is the .dec file to write.
    #[command(after_help = "Examples:
  tera-defs dc unpack DataCenter.dec sheets
  tera-defs dc unpack DataCenter.dat sheets --key HEX --iv HEX
  tera-defs dc unpack DataCenter.dat DataCenter.dec --key HEX --iv HEX")]
    Unpack(UnpackArgs),
    /// Write a data center again with another key, IV, element layout,
    /// revision, compression or deduplication, without sheets on disk.
    ///
    /// IN is a .dec, or a .dat with --key and --iv. OUT is a .dat when
    /// --out-key and --out-iv are given (or when it ends in .dat and IN was
    /// a .dat: then IN's key is kept); otherwise a .dec.
    #[command(after_help = "Examples:
  tera-defs dc repack DataCenter.dat DataCenter.x86.dat --key HEX --iv HEX --arch x86
  tera-defs dc repack DataCenter.dat DataCenter.dat.new --key HEX --iv HEX --out-key HEX --out-iv HEX
  tera-defs dc repack DataCenter.dec Small.dec --revision 387463")]
    Repack(RepackArgs),
    /// Write the schemas inferred from a data center (DataCenter.xsd and a
    /// NAME/NAME.xsd per folder), without writing sheets.
    #[command(after_help = "Example:
  tera-defs dc schema DataCenter.dat schemas --key HEX --iv HEX")]
    Schema(SchemaArgs),
}

/// `--key` and `--iv` of a file that may be a `.dat` or a `.dec`.
#[derive(Debug, Args)]
pub struct OptionalKey {
    /// AES-128 key of a .dat, 32 hex digits; without it FILE is a .dec.
    #[arg(long, value_name = "HEX", requires = "iv")]
    pub key: Option<String>,
    /// CFB initialization vector of a .dat, 32 hex digits.
    #[arg(long, value_name = "HEX", requires = "key")]
    pub iv: Option<String>,
}

/// The element layout (`--arch`).
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ArchArg {
    /// 64-bit clients: 24-byte nodes, 12-byte attributes.
    X64,
    /// 32-bit clients: 16-byte nodes, 8-byte attributes.
    X86,
}

impl From<ArchArg> for Arch {
    fn from(a: ArchArg) -> Arch {
        match a {
            ArchArg::X64 => Arch::X64,
            ArchArg::X86 => Arch::X86,
        }
    }
}

/// The export format (`--format`).
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum FormatArg {
    /// XML: attributes as XML attributes, `__value__` as text.
    Xml,
    /// JSON: `{"name", "attributes", "value", "children"}` per element.
    Json,
}

/// How hard a `.dat` is compressed (`--compression`).
#[derive(Debug, Clone, Copy, ValueEnum, Default)]
pub enum CompressionArg {
    /// zlib level 1.
    Fastest,
    /// zlib level 6 (as Novadrop).
    #[default]
    Default,
    /// zlib level 9.
    Best,
}

impl From<CompressionArg> for Compression {
    fn from(c: CompressionArg) -> Compression {
        match c {
            CompressionArg::Fastest => Compression::Fastest,
            CompressionArg::Default => Compression::Default,
            CompressionArg::Best => Compression::Best,
        }
    }
}

/// The namespace of `dc:keys` in written schemas (`--keys-namespace`).
#[derive(Debug, Clone, Copy, ValueEnum, Default)]
pub enum KeysNamespaceArg {
    /// https://tera-arise.io/dc (the arise-data sheets).
    #[default]
    TeraArise,
    /// https://vezel.dev/novadrop/dc (Novadrop).
    Novadrop,
}

impl From<KeysNamespaceArg> for KeysNamespace {
    fn from(k: KeysNamespaceArg) -> KeysNamespace {
        match k {
            KeysNamespaceArg::TeraArise => KeysNamespace::TeraArise,
            KeysNamespaceArg::Novadrop => KeysNamespace::Novadrop,
        }
    }
}

/// How a data center is written: `--revision`, `--compression`,
/// `--no-dedup`.
#[derive(Debug, Args)]
pub struct WriteArgs {
    /// The data revision written in the header (the client's version).
    #[arg(long, value_name = "N")]
    pub revision: Option<u32>,
    /// How hard a .dat is compressed.
    #[arg(long, value_enum, default_value = "default")]
    pub compression: CompressionArg,
    /// Store every attribute run and child run, even identical ones (by
    /// default identical runs are stored once, as in the official files).
    #[arg(long)]
    pub no_dedup: bool,
}

/// Arguments of `dc verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// The .dec file (or .dat with --key and --iv).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    #[command(flatten)]
    pub key: OptionalKey,
    /// The element layout (detected when left out).
    #[arg(long, value_enum)]
    pub arch: Option<ArchArg>,
}

/// Arguments of `dc export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The .dec file (or .dat with --key and --iv).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    #[command(flatten)]
    pub key: OptionalKey,
    /// The element layout (detected when left out).
    #[arg(long, value_enum)]
    pub arch: Option<ArchArg>,
    /// Export only the elements at this path of names below the root, such
    /// as AreaList/Area (several are wrapped in <__export__> or a JSON
    /// array).
    #[arg(long, value_name = "PATH", default_value = "")]
    pub path: String,
    /// The output format.
    #[arg(long, value_enum, default_value = "xml")]
    pub format: FormatArg,
    /// Indent two spaces per level.
    #[arg(long)]
    pub pretty: bool,
    /// Write to this file instead of stdout (removed again if the export
    /// fails).
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,
}

/// Arguments of `dc validate`.
#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// The sheets folder (a folder per root element name, each with its
    /// NAME.xsd).
    #[arg(value_name = "SHEETS_DIR")]
    pub dir: PathBuf,
}

/// Arguments of `dc pack`.
#[derive(Debug, Args)]
pub struct PackArgs {
    /// A sheets folder, or a .dec file.
    #[arg(value_name = "IN")]
    pub input: PathBuf,
    /// The .dec to write from sheets, or the .dat to write (with --key and
    /// --iv).
    #[arg(value_name = "OUT")]
    pub output: PathBuf,
    #[command(flatten)]
    pub key: OptionalKey,
    /// The element layout written from sheets.
    #[arg(long, value_enum, default_value = "x64")]
    pub arch: ArchArg,
    #[command(flatten)]
    pub write: WriteArgs,
    /// Pack a .dec even when the strict checks find problems.
    #[arg(long)]
    pub force: bool,
}

/// Arguments of `dc unpack`.
#[derive(Debug, Args)]
pub struct UnpackArgs {
    /// The .dat file (with --key and --iv), or a .dec when OUT is a folder.
    #[arg(value_name = "IN")]
    pub input: PathBuf,
    /// The sheets folder or the .dec file to write.
    #[arg(value_name = "OUT")]
    pub output: PathBuf,
    #[command(flatten)]
    pub key: OptionalKey,
    /// The element layout of IN (detected when left out).
    #[arg(long, value_enum)]
    pub arch: Option<ArchArg>,
    /// The namespace of `dc:keys` in the schemas written.
    #[arg(long, value_enum, default_value = "tera-arise")]
    pub keys_namespace: KeysNamespaceArg,
}

/// Arguments of `dc repack`.
#[derive(Debug, Args)]
pub struct RepackArgs {
    /// The .dec file (or .dat with --key and --iv).
    #[arg(value_name = "IN")]
    pub input: PathBuf,
    /// The .dat or .dec file to write.
    #[arg(value_name = "OUT")]
    pub output: PathBuf,
    #[command(flatten)]
    pub key: OptionalKey,
    /// AES-128 key of OUT, 32 hex digits.
    #[arg(long, value_name = "HEX", requires = "out_iv")]
    pub out_key: Option<String>,
    /// CFB initialization vector of OUT, 32 hex digits.
    #[arg(long, value_name = "HEX", requires = "out_key")]
    pub out_iv: Option<String>,
    /// The element layout of IN (detected when left out).
    #[arg(long, value_enum)]
    pub in_arch: Option<ArchArg>,
    /// The element layout of OUT (IN's when left out).
    #[arg(long, value_enum)]
    pub arch: Option<ArchArg>,
    #[command(flatten)]
    pub write: WriteArgs,
}

/// Arguments of `dc schema`.
#[derive(Debug, Args)]
pub struct SchemaArgs {
    /// The .dec file (or .dat with --key and --iv).
    #[arg(value_name = "IN")]
    pub input: PathBuf,
    /// The folder to write the schemas into.
    #[arg(value_name = "OUT_DIR")]
    pub output: PathBuf,
    #[command(flatten)]
    pub key: OptionalKey,
    /// The element layout of IN (detected when left out).
    #[arg(long, value_enum)]
    pub arch: Option<ArchArg>,
    /// The namespace of `dc:keys` in the schemas written.
    #[arg(long, value_enum, default_value = "tera-arise")]
    pub keys_namespace: KeysNamespaceArg,
}

/// A bad key or IV is a usage error: it comes from the command line.
pub(super) fn dat_key(key: &str, iv: &str) -> Result<DatKey, Fail> {
    DatKey::from_hex(key, iv).map_err(|e| Fail::Usage(e.to_string()))
}

pub(super) fn optional_key(key: &OptionalKey) -> Result<Option<DatKey>, Fail> {
    match (&key.key, &key.iv) {
        (Some(k), Some(iv)) => dat_key(k, iv).map(Some),
        // clap's `requires` sees to it that both or neither are given.
        _ => Ok(None),
    }
}

/// The key of a `.dat` that must be given.
pub(super) fn required_key(key: &OptionalKey, what: &str) -> Result<DatKey, Fail> {
    optional_key(key)?.ok_or_else(|| Fail::Usage(format!("{what} needs --key and --iv")))
}

/// The write options of `--arch`, `--revision` and `--no-dedup`, over
/// `base` (what the input had, or the defaults).
pub(super) fn write_options(
    base: WriteOptions,
    arch: Option<ArchArg>,
    write: &WriteArgs,
) -> WriteOptions {
    WriteOptions {
        arch: arch.map_or(base.arch, Arch::from),
        revision: write.revision.unwrap_or(base.revision),
        dedup: !write.no_dedup,
        ..base
    }
}
