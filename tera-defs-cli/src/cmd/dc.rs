//! `tera-defs dc ...`: data center files (`.dat` encrypted and compressed,
//! `.dec` plain) and sheets (folders of XML files with XSD schemas). The
//! work is done by `tera_datacenter::cli`; this file parses the arguments,
//! maps errors to exit codes and draws progress.

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Subcommand, ValueEnum};
use tera_datacenter::cli::{self, CliError};
use tera_datacenter::sheets::SheetsError;
use tera_datacenter::{Arch, DatKey, ExportError, ExportOptions, Format, WriteOptions};

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
    /// Check every sheet of a sheets folder against its folder's schema.
    ///
    /// Each problem is shown with file:line:column and what was expected;
    /// the exit status is 1 when there is one.
    Validate(ValidateArgs),
    /// Pack a sheets folder into a .dec (or a .dat with --key and --iv), or
    /// compress and encrypt a .dec into a .dat (after the strict checks).
    #[command(after_help = "Examples:
  tera-defs dc pack sheets/ DataCenter.dec
  tera-defs dc pack sheets/ DataCenter.dat --key HEX --iv HEX
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
}

/// Runs a `dc` subcommand.
pub fn run(args: &DcArgs) -> Outcome {
    match &args.command {
        DcCommand::Verify(args) => verify(args),
        DcCommand::Export(args) => export(args),
        DcCommand::Validate(args) => validate(args),
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
        CliError::Sheets(SheetsError::Invalid {
            diagnostics,
            rendered,
        }) => {
            eprint!("{rendered}");
            Fail::Data(format!(
                "{}: {} problem(s) in the sheets",
                file.display(),
                diagnostics.len()
            ))
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

fn validate(args: &ValidateArgs) -> Outcome {
    let bar = progress::bar(0, "files", None);
    let checked = cli::validate_sheets(&args.dir, &|done, total| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
    });
    bar.finish_and_clear();
    match checked {
        Ok(stats) => {
            println!(
                "{}: {} folders, {} files, {} elements; 0 problems",
                args.dir.display(),
                stats.folders,
                stats.files,
                stats.elements
            );
            Ok(ExitCode::SUCCESS)
        }
        Err(CliError::Sheets(SheetsError::Invalid {
            diagnostics,
            rendered,
        })) => {
            print!("{rendered}");
            println!("{}: {} problem(s)", args.dir.display(), diagnostics.len());
            Ok(ExitCode::from(DATA))
        }
        Err(CliError::Sheets(e @ SheetsError::Io { .. })) => Err(Fail::Usage(e.to_string())),
        Err(e) => Err(fail(&args.dir, e)),
    }
}

/// The key of a `.dat` that must be given.
fn required_key(key: &OptionalKey, what: &str) -> Result<DatKey, Fail> {
    optional_key(key)?.ok_or_else(|| Fail::Usage(format!("{what} needs --key and --iv")))
}

fn pack(args: &PackArgs) -> Outcome {
    if args.input.is_dir() {
        return pack_sheets(args);
    }
    let key = required_key(&args.key, "packing a .dec into a .dat")?;
    let dec = input::file(&args.input)?;
    let spinner = progress::spinner(format!("packing {}", args.input.display()));
    let dat = cli::pack_file(&dec, &key, args.force);
    spinner.finish_and_clear();
    let dat = dat.map_err(|e| fail(&args.input, e))?;
    output::write_file(&args.output, &dat)?;
    println!(
        "packed {} ({} bytes) into {} ({} bytes)",
        args.input.display(),
        dec.len(),
        args.output.display(),
        dat.len()
    );
    Ok(ExitCode::SUCCESS)
}

fn pack_sheets(args: &PackArgs) -> Outcome {
    let key = optional_key(&args.key)?;
    let options = WriteOptions {
        arch: match args.arch {
            ArchArg::X64 => Arch::X64,
            ArchArg::X86 => Arch::X86,
        },
        ..WriteOptions::default()
    };
    let bar = progress::bar(0, "files", Some(&args.output));
    let mut writing = None;
    let packed = output::to(Some(&args.output), |out| {
        let mut out = BufWriter::with_capacity(1 << 20, out);
        let packed = cli::pack_sheets(
            &args.input,
            key.as_ref(),
            &options,
            &mut out,
            &|done, total| {
                bar.set_length(total as u64);
                bar.set_position(done as u64);
            },
            &mut || {
                bar.finish_and_clear();
                writing = Some(progress::spinner(format!(
                    "writing {}",
                    args.output.display()
                )));
            },
        )
        .map_err(|e| fail(&args.input, e))?;
        out.flush()?;
        Ok(packed)
    });
    bar.finish_and_clear();
    if let Some(spinner) = writing {
        spinner.finish_and_clear();
    }
    let packed = packed?;
    println!(
        "packed {} files, {} elements of {} into {} ({} bytes)",
        packed.files,
        packed.elements,
        args.input.display(),
        args.output.display(),
        std::fs::metadata(&args.output).map_or(0, |m| m.len())
    );
    Ok(ExitCode::SUCCESS)
}

/// Whether `dc unpack` writes sheets: OUT is a folder or has no extension.
fn is_folder(path: &Path) -> bool {
    path.is_dir() || path.extension().is_none()
}

fn unpack(args: &UnpackArgs) -> Outcome {
    if is_folder(&args.output) {
        return unpack_sheets(args);
    }
    let key = required_key(&args.key, "unpacking a .dat into a .dec")?;
    let dat = input::file(&args.input)?;
    let spinner = progress::spinner(format!("unpacking {}", args.input.display()));
    let dec = cli::unpack_file(&dat, &key);
    spinner.finish_and_clear();
    let dec = dec.map_err(|e| fail(&args.input, e))?;
    output::write_file(&args.output, &dec)?;
    println!(
        "unpacked {} ({} bytes) into {} ({} bytes)",
        args.input.display(),
        dat.len(),
        args.output.display(),
        dec.len()
    );
    Ok(ExitCode::SUCCESS)
}

fn unpack_sheets(args: &UnpackArgs) -> Outcome {
    let key = optional_key(&args.key)?;
    let bytes = input::file(&args.input)?;
    let bar = progress::bar(0, "elements", Some(&args.output));
    let stats = cli::unpack_sheets(
        &bytes,
        key.as_ref(),
        arch(args.arch),
        &args.output,
        &|done, total| {
            bar.set_length(total);
            bar.set_position(done);
        },
    );
    bar.finish_and_clear();
    let stats = stats.map_err(|e| match e {
        CliError::Sheets(SheetsError::Io { path, source }) => Fail::Output(std::io::Error::new(
            source.kind(),
            format!("{}: {source}", path.display()),
        )),
        e => fail(&args.input, e),
    })?;
    println!(
        "unpacked {} into {}: {} folders, {} files, {} elements",
        args.input.display(),
        args.output.display(),
        stats.folders,
        stats.files,
        stats.elements
    );
    Ok(ExitCode::SUCCESS)
}
