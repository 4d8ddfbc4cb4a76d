//! `tera-defs dc ...`: data center files (`.dat` encrypted and compressed,
//! `.dec` plain) and sheets (folders of XML files with XSD schemas). This
//! module dispatches the arguments (`args`); `file` and `sheets` call the library's
//! operations, draw progress and print the results.

mod args;
mod errors;
mod file;
mod sheets;

use std::path::Path;

pub use args::{DcArgs, DcCommand};

use crate::fail::Outcome;

/// Runs a `dc` subcommand.
pub fn run(args: &DcArgs) -> Outcome {
    match &args.command {
        DcCommand::Verify(args) => file::verify(args),
        DcCommand::Export(args) => file::export(args),
        DcCommand::Validate(args) => sheets::validate(args),
        DcCommand::Pack(args) if args.input.is_dir() => sheets::pack(args),
        DcCommand::Pack(args) => file::pack(args),
        DcCommand::Unpack(args) if is_folder(&args.output) => sheets::unpack(args),
        DcCommand::Unpack(args) => file::unpack(args),
        DcCommand::Repack(args) => file::repack(args),
        DcCommand::Schema(args) => sheets::schema(args),
    }
}

/// Whether `dc unpack` writes sheets: OUT is a folder or has no extension.
fn is_folder(path: &Path) -> bool {
    path.is_dir() || path.extension().is_none()
}
