//! `tera-defs dc ...`: data center files (`.dat` encrypted and compressed,
//! `.dec` plain). The work is done by `tera_datacenter::cli`; this file
//! parses the arguments, maps errors to exit codes and draws progress.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Subcommand, ValueEnum};
use tera_datacenter::cli::{self, CliError};
use tera_datacenter::{Arch, DatKey, ExportError, ExportOptions, Format};

use crate::fail::{DATA, Fail, Outcome};
use crate::{input, output, progress};

/// Arguments of `dc`.
#[derive(Debug, Args)]
pub struct DcArgs {
    #[command(subcommand)]
    pub command: DcCommand,
}

/// The `dc` subcommands.
#[derive(Debug, Subcommand)]
pub enum DcCommand {
    /// Run the strict checks and list every problem with its byte offset.
    ///
    /// FILE is a .dec, or a .dat with --key and --iv. The exit status is 1
    /// when a problem was found.
    Verify(VerifyArgs),
    /// Write the tree, or the elements at --path, as XML or JSON.
    #[command(after_help = "Examples:
  tera-defs dc export DataCenter.dec -o DataCenter.xml
  tera-defs dc export DataCenter.dat --key HEX --iv HEX --path AreaList/Area --format json --pretty")]
    Export(ExportArgs),
    /// Compress and encrypt a .dec into a .dat (after the strict checks).
    Pack(PackArgs),
    /// Decrypt and inflate a .dat into a .dec.
    Unpack(UnpackArgs),
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

/// `--key` and `--iv` of a `.dat` to write or read.
#[derive(Debug, Args)]
pub struct RequiredKey {
    /// AES-128 key, 32 hex digits.
    #[arg(long, value_name = "HEX")]
    pub key: String,
    /// CFB initialization vector, 32 hex digits.
    #[arg(long, value_name = "HEX")]
    pub iv: String,
}

/// The element layout (`--arch`).
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ArchArg {
    /// 64-bit clients: 24-byte nodes, 12-byte attributes.
    X64,
    /// 32-bit clients: 16-byte nodes, 8-byte attributes.
    X86,
}

/// The export format (`--format`).
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum FormatArg {
    /// XML: attributes as XML attributes, `__value__` as text.
    Xml,
    /// JSON: `{"name", "attributes", "value", "children"}` per element.
    Json,
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

/// Arguments of `dc pack`.
#[derive(Debug, Args)]
pub struct PackArgs {
    /// The .dec file to pack.
    #[arg(value_name = "DEC")]
    pub dec: PathBuf,
    /// The .dat file to write.
    #[arg(value_name = "DAT")]
    pub dat: PathBuf,
    #[command(flatten)]
    pub key: RequiredKey,
    /// Pack even when the strict checks find problems.
    #[arg(long)]
    pub force: bool,
}

/// Arguments of `dc unpack`.
#[derive(Debug, Args)]
pub struct UnpackArgs {
    /// The .dat file to unpack.
    #[arg(value_name = "DAT")]
    pub dat: PathBuf,
    /// The .dec file to write.
    #[arg(value_name = "DEC")]
    pub dec: PathBuf,
    #[command(flatten)]
    pub key: RequiredKey,
}

/// Runs a `dc` subcommand.
pub fn run(args: &DcArgs) -> Outcome {
    match &args.command {
        DcCommand::Verify(args) => verify(args),
        DcCommand::Export(args) => export(args),
        DcCommand::Pack(args) => pack(args),
        DcCommand::Unpack(args) => unpack(args),
    }
}

/// A bad key or IV is a usage error: it comes from the command line.
fn dat_key(key: &str, iv: &str) -> Result<DatKey, Fail> {
    DatKey::from_hex(key, iv).map_err(|e| Fail::Usage(e.to_string()))
}

fn optional_key(key: &OptionalKey) -> Result<Option<DatKey>, Fail> {
    match (&key.key, &key.iv) {
        (Some(k), Some(iv)) => dat_key(k, iv).map(Some),
        // clap's `requires` sees to it that both or neither are given.
        _ => Ok(None),
    }
}

fn arch(arch: Option<ArchArg>) -> Option<Arch> {
    arch.map(|a| match a {
        ArchArg::X64 => Arch::X64,
        ArchArg::X86 => Arch::X86,
    })
}

/// The exit status and message of a library error about `file`.
fn fail(file: &Path, e: CliError) -> Fail {
    match e {
        CliError::Io(e) | CliError::Export(ExportError::Io(e)) => Fail::Output(e),
        CliError::NotValid(_) => {
            Fail::Data(format!("{}: {e}; --force packs it anyway", file.display()))
        }
        e => Fail::Data(format!("{}: {e}", file.display())),
    }
}

fn verify(args: &VerifyArgs) -> Outcome {
    let key = optional_key(&args.key)?;
    let bytes = input::file(&args.file)?;
    let spinner = progress::spinner(format!("verifying {}", args.file.display()));
    // The report is written once the spinner is gone: on a terminal, the
    // spinner's redraw would wipe a line printed under it.
    let mut text = Vec::new();
    let report = cli::verify_file(&bytes, key.as_ref(), arch(args.arch), &mut text)?;
    spinner.finish_and_clear();
    std::io::stdout().write_all(&text)?;
    Ok(if report.is_ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(DATA)
    })
}

fn export(args: &ExportArgs) -> Outcome {
    let key = optional_key(&args.key)?;
    let bytes = input::file(&args.file)?;
    let options = ExportOptions {
        format: match args.format {
            FormatArg::Xml => Format::Xml,
            FormatArg::Json => Format::Json,
        },
        pretty: args.pretty,
    };
    // Unpacking and opening report nothing: a spinner until the first
    // callback, which also tells the bar the node count (an upper bound of
    // what is written).
    let opening = progress::spinner(format!("opening {}", args.file.display()));
    let bar = progress::bar(0, "elements", args.output.as_deref());
    let stats = output::to(args.output.as_deref(), |out| {
        cli::export_file(
            &bytes,
            key.as_ref(),
            arch(args.arch),
            &args.path,
            options,
            out,
            &mut |done, total| {
                if !opening.is_finished() {
                    opening.finish_and_clear();
                }
                bar.set_length(total);
                bar.set_position(done);
            },
        )
        .map_err(|e| fail(&args.file, e))
    });
    opening.finish_and_clear();
    bar.finish_and_clear();
    let stats = stats?;
    if let Some(path) = &args.output {
        println!(
            "wrote {} elements, {} bytes to {}",
            stats.elements,
            stats.bytes,
            path.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn pack(args: &PackArgs) -> Outcome {
    let key = dat_key(&args.key.key, &args.key.iv)?;
    let dec = input::file(&args.dec)?;
    let spinner = progress::spinner(format!("packing {}", args.dec.display()));
    let dat = cli::pack_file(&dec, &key, args.force);
    spinner.finish_and_clear();
    let dat = dat.map_err(|e| fail(&args.dec, e))?;
    output::write_file(&args.dat, &dat)?;
    println!(
        "packed {} ({} bytes) into {} ({} bytes)",
        args.dec.display(),
        dec.len(),
        args.dat.display(),
        dat.len()
    );
    Ok(ExitCode::SUCCESS)
}

fn unpack(args: &UnpackArgs) -> Outcome {
    let key = dat_key(&args.key.key, &args.key.iv)?;
    let dat = input::file(&args.dat)?;
    let spinner = progress::spinner(format!("unpacking {}", args.dat.display()));
    let dec = cli::unpack_file(&dat, &key);
    spinner.finish_and_clear();
    let dec = dec.map_err(|e| fail(&args.dat, e))?;
    output::write_file(&args.dec, &dec)?;
    println!(
        "unpacked {} ({} bytes) into {} ({} bytes)",
        args.dat.display(),
        dat.len(),
        args.dec.display(),
        dec.len()
    );
    Ok(ExitCode::SUCCESS)
}
