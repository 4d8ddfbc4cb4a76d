//! The commands on sheets folders: validate, pack sheets, unpack into
//! sheets, and write schemas only.

use std::io::{BufWriter, Write};
use std::process::ExitCode;

use tera_datacenter::sheets::{self, SheetsError};
use tera_datacenter::{DatKey, DataCenter, WriteOptions, pack_with, unpack as unpack_dat};

use super::args::{PackArgs, SchemaArgs, UnpackArgs, ValidateArgs, optional_key, write_options};
use super::errors::{data_error, error_chain};
use crate::fail::{DATA, Fail, Outcome};
use crate::{input, output, progress};

/// The failure of reading sheets: the problems on stderr, a data error.
fn sheets_failed(dir: &std::path::Path, e: SheetsError) -> Fail {
    match e {
        SheetsError::Invalid {
            diagnostics,
            rendered,
        } => {
            eprint!("{rendered}");
            Fail::Data(format!(
                "{}: {} problem(s) in the sheets",
                dir.display(),
                diagnostics.len()
            ))
        }
        SheetsError::Io { .. } => Fail::Usage(e.to_string()),
        e => data_error(dir, e),
    }
}

/// An error writing sheets or schemas: an output error when a file could
/// not be written.
fn writing_failed(input: &std::path::Path, e: SheetsError) -> Fail {
    match e {
        SheetsError::Io { path, source } => Fail::Output(std::io::Error::new(
            source.kind(),
            format!("{}: {source}", path.display()),
        )),
        e => data_error(input, e),
    }
}

/// `dc validate DIR`: diagnostics on stderr, the summary on stdout.
pub(super) fn validate(args: &ValidateArgs) -> Outcome {
    let bar = progress::bar(0, "files", None);
    let checked = sheets::validate_sheets(&args.dir, &|done, total| {
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
        Err(SheetsError::Invalid {
            diagnostics,
            rendered,
        }) => {
            eprint!("{rendered}");
            println!("{}: {} problem(s)", args.dir.display(), diagnostics.len());
            Ok(ExitCode::from(DATA))
        }
        Err(e) => Err(sheets_failed(&args.dir, e)),
    }
}

/// `dc pack DIR OUT`: the sheets of DIR, read and checked, as a `.dec` or
/// (with a key) a `.dat`.
pub(super) fn pack(args: &PackArgs) -> Outcome {
    let key = optional_key(&args.key)?;
    let options = write_options(WriteOptions::default(), Some(args.arch), &args.write);
    let bar = progress::bar(0, "files", Some(&args.output));
    let read = sheets::read_sheets(&args.input, &|done, total| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
    });
    bar.finish_and_clear();
    let read = read.map_err(|e| sheets_failed(&args.input, e))?;
    let (files, elements) = (read.file_count(), read.element_count());
    let spinner = progress::spinner(format!("writing {}", args.output.display()));
    let written = output::to(Some(&args.output), |out| {
        let mut out = BufWriter::with_capacity(1 << 20, out);
        match &key {
            None => read
                .write_dec(&options, &mut out)
                .map_err(|e| writing_failed(&args.input, e))?,
            Some(key) => {
                let dec = read
                    .into_dec(&options)
                    .map_err(|e| writing_failed(&args.input, e))?;
                let dat = pack_with(&dec, key, args.write.compression.into());
                drop(dec);
                out.write_all(&dat)?;
            }
        }
        out.flush()?;
        Ok(())
    });
    spinner.finish_and_clear();
    written?;
    println!(
        "packed {files} files, {elements} elements of {} into {} ({} bytes)",
        args.input.display(),
        args.output.display(),
        std::fs::metadata(&args.output).map_or(0, |m| m.len())
    );
    Ok(ExitCode::SUCCESS)
}

/// The `.dec` bytes of IN: read as they are, or unpacked with `key`.
fn dec_of(input: &std::path::Path, key: Option<&DatKey>) -> Result<Vec<u8>, Fail> {
    let bytes = input::file(input)?;
    match key {
        Some(key) => {
            let spinner = progress::spinner(format!("unpacking {}", input.display()));
            let dec = unpack_dat(&bytes, key);
            spinner.finish_and_clear();
            dec.map_err(|e| error_chain(input, &e))
        }
        None => Ok(bytes),
    }
}

/// `dc unpack IN DIR`: the tree of IN as sheets with inferred schemas.
pub(super) fn unpack(args: &UnpackArgs) -> Outcome {
    let key = optional_key(&args.key)?;
    let dec = dec_of(&args.input, key.as_ref())?;
    let dc = DataCenter::parse_as(&dec, args.arch.map(Into::into))
        .map_err(|e| data_error(&args.input, e))?;
    let bar = progress::bar(0, "elements", Some(&args.output));
    let stats = sheets::write_sheets(
        &dc,
        &args.output,
        args.keys_namespace.into(),
        &|done, total| {
            bar.set_length(total);
            bar.set_position(done);
        },
    );
    bar.finish_and_clear();
    let stats = stats.map_err(|e| writing_failed(&args.input, e))?;
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

/// `dc schema IN DIR`: only the schemas that unpacking would write.
pub(super) fn schema(args: &SchemaArgs) -> Outcome {
    let key = optional_key(&args.key)?;
    let dec = dec_of(&args.input, key.as_ref())?;
    let dc = DataCenter::parse_as(&dec, args.arch.map(Into::into))
        .map_err(|e| data_error(&args.input, e))?;
    let spinner = progress::spinner(format!("inferring schemas of {}", args.input.display()));
    let folders = sheets::write_schemas(&dc, &args.output, args.keys_namespace.into());
    spinner.finish_and_clear();
    let folders = folders.map_err(|e| writing_failed(&args.input, e))?;
    println!(
        "wrote the schemas of {} into {}: DataCenter.xsd and {folders} folder schemas",
        args.input.display(),
        args.output.display(),
    );
    Ok(ExitCode::SUCCESS)
}
