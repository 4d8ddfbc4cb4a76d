//! The commands on one data center file: verify, export, pack a `.dec`
//! into a `.dat`, unpack a `.dat` into a `.dec`, repack.

use std::borrow::Cow;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use sha2::{Digest, Sha256};
use tera_datacenter::{
    DatKey, DataCenter, ExportError, ExportOptions, Format, Version, WriteOptions, export_all,
    pack_with, repack as repack_tree, unpack as unpack_dat, verify as verify_dec, verify_dat,
};

use super::args::{
    ExportArgs, FormatArg, PackArgs, RepackArgs, UnpackArgs, VerifyArgs, dat_key, optional_key,
    required_key, write_options,
};
use super::errors::{data_error, error_chain};
use crate::fail::{DATA, Fail, Outcome};
use crate::{input, output, progress};

/// The `.dec` bytes of a file: as they are, or decrypted and inflated with
/// `key` for a `.dat`.
fn decrypted<'b>(
    file: &Path,
    bytes: &'b [u8],
    key: Option<&DatKey>,
) -> Result<Cow<'b, [u8]>, Fail> {
    Ok(match key {
        Some(key) => Cow::Owned(unpack_dat(bytes, key).map_err(|e| error_chain(file, &e))?),
        None => Cow::Borrowed(bytes),
    })
}

pub(super) fn verify(args: &VerifyArgs) -> Outcome {
    let key = optional_key(&args.key)?;
    let bytes = input::file(&args.file)?;
    let spinner = progress::spinner(format!("verifying {}", args.file.display()));
    let arch = args.arch.map(Into::into);
    let report = match &key {
        Some(key) => verify_dat(&bytes, key, arch),
        None => Ok(verify_dec(&bytes, arch)),
    };
    let report = report.map_err(|e| {
        spinner.finish_and_clear();
        error_chain(&args.file, &e)
    })?;
    let sha256 = Sha256::digest(&bytes);
    // The report is printed once the spinner is gone: on a terminal, the
    // spinner's redraw would wipe a line printed under it.
    spinner.finish_and_clear();
    let layout = match (report.arch, report.version) {
        (Some(a), Some(v)) => format!("{a:?} v{}", v.number()),
        _ => "unreadable".into(),
    };
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{layout}: {} nodes, {} attributes reached; {} problem(s)",
        report.nodes,
        report.attributes,
        report.problems.len()
    )?;
    writeln!(
        out,
        "records: {} nodes, {} attributes",
        report.node_records, report.attribute_records
    )?;
    writeln!(out, "sha256: {sha256:x}")?;
    for p in &report.problems {
        writeln!(out, "  {p}")?;
    }
    Ok(if report.is_ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(DATA)
    })
}

pub(super) fn export(args: &ExportArgs) -> Outcome {
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
    let dec =
        decrypted(&args.file, &bytes, key.as_ref()).inspect_err(|_| opening.finish_and_clear())?;
    let dc = DataCenter::parse_as(&dec, args.arch.map(Into::into)).map_err(|e| {
        opening.finish_and_clear();
        data_error(&args.file, e)
    })?;
    let roots = dc.root().select(&args.path);
    if roots.is_empty() {
        opening.finish_and_clear();
        return Err(data_error(
            &args.file,
            format!("no element at path {:?}", args.path),
        ));
    }
    let total = dc.node_count() as u64;
    let bar = progress::bar(0, "elements", args.output.as_deref());
    let stats = output::to(args.output.as_deref(), |out| {
        export_all(&roots, out, options, &mut |done| {
            if !opening.is_finished() {
                opening.finish_and_clear();
            }
            bar.set_length(total);
            bar.set_position(done);
        })
        .map_err(|e| match e {
            ExportError::Io(e) => Fail::Output(e),
            e => data_error(&args.file, e),
        })
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

/// `dc pack FILE.dec OUT.dat`: compresses and encrypts a `.dec` after
/// checking it with the strict verifier (unless `--force`).
pub(super) fn pack(args: &PackArgs) -> Outcome {
    let key = required_key(&args.key, "packing a .dec into a .dat")?;
    let dec = input::file(&args.input)?;
    let spinner = progress::spinner(format!("packing {}", args.input.display()));
    if !args.force {
        let report = verify_dec(&dec, None);
        if !report.is_ok() {
            spinner.finish_and_clear();
            return Err(data_error(
                &args.input,
                format!(
                    "{} problems: not packing (verify for the list); --force packs it anyway",
                    report.problems.len()
                ),
            ));
        }
    }
    let dat = pack_with(&dec, &key, args.write.compression.into());
    spinner.finish_and_clear();
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

/// `dc unpack FILE.dat OUT.dec`: decrypts and inflates.
pub(super) fn unpack(args: &UnpackArgs) -> Outcome {
    let key = required_key(&args.key, "unpacking a .dat into a .dec")?;
    let dat = input::file(&args.input)?;
    let spinner = progress::spinner(format!("unpacking {}", args.input.display()));
    let dec = unpack_dat(&dat, &key);
    spinner.finish_and_clear();
    let dec = dec.map_err(|e| error_chain(&args.input, &e))?;
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

/// `dc repack IN OUT`: the tree of IN laid out again and written as a
/// `.dat` or a `.dec`.
pub(super) fn repack(args: &RepackArgs) -> Outcome {
    let in_key = optional_key(&args.key)?;
    let out_key = match (&args.out_key, &args.out_iv) {
        (Some(k), Some(iv)) => Some(dat_key(k, iv)?),
        _ if args.output.extension().is_some_and(|e| e == "dat") => in_key.clone(),
        _ => None,
    };
    let bytes = input::file(&args.input)?;
    let spinner = progress::spinner(format!("repacking {}", args.input.display()));
    let written = repacked(args, &bytes, in_key.as_ref(), out_key.as_ref());
    spinner.finish_and_clear();
    let written = written?;
    output::write_file(&args.output, &written)?;
    println!(
        "repacked {} ({} bytes) into {} ({} bytes, {})",
        args.input.display(),
        bytes.len(),
        args.output.display(),
        written.len(),
        if out_key.is_some() { ".dat" } else { ".dec" }
    );
    Ok(ExitCode::SUCCESS)
}

fn repacked(
    args: &RepackArgs,
    bytes: &[u8],
    in_key: Option<&DatKey>,
    out_key: Option<&DatKey>,
) -> Result<Vec<u8>, Fail> {
    let dec = decrypted(&args.input, bytes, in_key)?;
    let dc = DataCenter::parse_as(&dec, args.in_arch.map(Into::into))
        .map_err(|e| data_error(&args.input, e))?;
    let header = dc.header();
    let base = WriteOptions {
        arch: dc.arch(),
        version: header.version,
        revision: header.revision.unwrap_or(0),
        timestamp: header.timestamp,
        dedup: true,
    };
    let mut options = write_options(base, args.arch, &args.write);
    if args.write.revision.is_some() {
        // Only version 6 headers have a revision.
        options.version = Version::V6;
    }
    let dec = repack_tree(&dc, &options).map_err(|e| data_error(&args.input, e))?;
    Ok(match out_key {
        Some(key) => pack_with(&dec, key, args.write.compression.into()),
        None => dec,
    })
}
