//! `tera-defs capture`: the sessions of a capture or a log as JSON lines,
//! or converted to another log format.

use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use clap::{Args, ValueEnum};
use tera_data::ProtocolMap;
use tera_sessions::capture::{CaptureBuilder, CaptureStats, OpcodeSet};
use tera_sessions::jsonl::write_line;
use tera_sessions::pkt::{PktOptions, Region};
use tera_sessions::teralog::TeraLogOptions;
use tera_sessions::{
    Event, Events, Format, Named, Namer, SessionId, Sink, SinkOptions, Start, Summary, VersionRule,
};

use crate::fail::{Fail, Outcome};
use crate::packets::{DefsArgs, Packets};
use crate::progress;

/// Arguments of `capture`.
#[derive(Debug, Args)]
pub struct CaptureArgs {
    /// The capture or log: pcap, pcapng, .TeraLog, .pkt or JSONL (told by
    /// its first bytes).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// A protocol.REV.map file that names every session's opcodes, whatever
    /// revision its client announces (default: the map of the announced
    /// revision among the compiled-in or loaded maps, else the highest).
    #[arg(long, value_name = "FILE")]
    pub map: Option<PathBuf>,
    /// Only packets of this name (repeatable); sessions' starts, ends and
    /// gaps are printed still.
    #[arg(long = "filter", value_name = "NAME")]
    pub filters: Vec<String>,
    /// Only the events of session N (numbered from 0 in the order they
    /// start).
    #[arg(long, value_name = "N")]
    pub session: Option<u32>,
    /// Add `hex`, the whole decrypted packet, header included: lines that
    /// read back as a JSONL log.
    #[arg(long)]
    pub hex: bool,
    /// Convert instead of printing: write the events to OUT, in the format
    /// of its extension (.TeraLog, .pkt, .jsonl).
    #[arg(long, value_name = "OUT")]
    pub write: Option<PathBuf>,
    /// The region a .pkt records (DE, FR, JP, KR, NA, RU, SE, TH, TW, UK),
    /// or the text of a .TeraLog's region block (default: the source's).
    #[arg(long, value_name = "REGION")]
    pub region: Option<String>,
    /// The client version a .pkt records (default: the source's).
    #[arg(long, value_name = "N")]
    pub client_version: Option<u32>,
    /// Store a .pkt's entries without deflate.
    #[arg(long)]
    pub uncompressed: bool,
    /// How each name's version is chosen: `fit`, per session, the version
    /// that fits every packet of the name exactly (a file is read twice, a
    /// pipe once, choosing over the packets seen so far; the summary lists
    /// each choice and its rivals), or `latest`, the highest version of the
    /// defs.
    #[arg(long, value_enum, default_value_t = Versions::Fit, value_name = "RULE")]
    pub versions: Versions,
    #[command(flatten)]
    pub defs: DefsArgs,
}

/// `--versions`: how each name's version is chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Versions {
    /// Per session, the version that fits its packets of the name exactly.
    Fit,
    /// The highest version of the defs.
    Latest,
}

/// A reader that counts the bytes read through it (for the progress bar).
struct Counting<R> {
    inner: R,
    count: Arc<AtomicU64>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// Opens `path` as events; the counter follows the bytes read. A capture
/// resynchronises after lost bytes on the opcodes of `maps`.
fn open(path: &Path, count: &Arc<AtomicU64>, maps: &[Arc<ProtocolMap>]) -> Result<Events, Fail> {
    let file = File::open(path)
        .map_err(|e| Fail::Usage(format!("cannot read {}: {e}", path.display())))?;
    let reader = Counting {
        inner: file,
        count: Arc::clone(count),
    };
    let mut capture = CaptureBuilder::default();
    if !maps.is_empty() {
        let known: OpcodeSet = maps
            .iter()
            .flat_map(|m| m.iter().map(|(_, code)| code))
            .collect();
        capture = capture.known_opcodes(known);
    }
    Events::from_reader_with(reader, capture)
        .map_err(|e| Fail::Data(format!("{}: {e}", path.display())))
}

/// Runs `capture`.
pub fn run(args: &CaptureArgs) -> Outcome {
    let packets = Packets::new(&args.defs, args.map.as_deref())?;
    let fixed = match &args.map {
        Some(path) => Some(packets.map(Some(path))?),
        None => None,
    };
    for name in &args.filters {
        packets
            .set()
            .resolve(name, None)
            .map_err(|e| Fail::Usage(format!("--filter: {e}")))?;
    }
    let maps = match &fixed {
        Some(map) => vec![Arc::clone(map)],
        None => packets.set().protocol_maps(),
    };
    let mut sink = open_sink(args, &maps)?;

    let count = Arc::new(AtomicU64::new(0));
    let mut events = open(&args.file, &count, &maps)?;
    let len = std::fs::metadata(&args.file).map_or(0, |m| m.len());
    let bar = progress::bar(len, "bytes", args.write.as_deref());
    let rule = match args.versions {
        Versions::Fit => VersionRule::Fit,
        Versions::Latest => VersionRule::Latest,
    };
    let mut namer = Namer::new(packets.set(), fixed).versions(rule).json(true);
    if rule == VersionRule::Fit {
        learn_versions(args, &maps, &mut namer)?;
    }
    let mut summary = Summary::new();
    let failure = pump(
        args,
        &mut events,
        &mut namer,
        &mut summary,
        sink.as_mut(),
        || bar.set_position(count.load(Ordering::Relaxed)),
    );
    bar.finish_and_clear();
    // Sessions the source never ended: their choices as they stand.
    let open: Vec<SessionId> = summary.listed.iter().map(|s| s.start.session).collect();
    for session in open {
        let choices = namer.choices(session);
        if !choices.is_empty() {
            summary.set_versions(session, choices);
        }
    }
    if let Some(stats) = events.capture_stats() {
        for &(session, bytes) in &stats.conflicts {
            summary.set_conflicting(session, bytes);
        }
    }
    if let Some(sink) = sink {
        let dropped = sink.gaps_dropped();
        sink.finish()
            .map_err(|e| Fail::Data(format!("{}: {e}", display(args.write.as_deref()))))?;
        if dropped > 0 {
            eprintln!("note: {dropped} gaps are not written: the format cannot hold them");
        }
    }
    if let Some(stats) = events.capture_stats() {
        eprint_capture(stats);
    }
    eprint!("{summary}");
    match failure? {
        Some(fail) => Err(fail),
        None => Ok(ExitCode::SUCCESS),
    }
}

/// The log `--write` converts to, opened; none without `--write`.
fn open_sink(
    args: &CaptureArgs,
    maps: &[Arc<ProtocolMap>],
) -> Result<Option<Sink<BufWriter<File>>>, Fail> {
    let Some(out) = &args.write else {
        return Ok(None);
    };
    let format = write_format(out)?;
    let options = sink_options(args)?;
    let starts = match format {
        Format::Pkt => first_pass_starts(args, maps)?,
        _ => Vec::new(),
    };
    let file = File::create(out)
        .map_err(|e| Fail::Usage(format!("cannot write {}: {e}", out.display())))?;
    let sink = Sink::new(
        format,
        BufWriter::with_capacity(1 << 16, file),
        &options,
        &starts,
    )
    .map_err(|e| Fail::Usage(format!("{}: {e}", out.display())))?;
    Ok(Some(sink))
}

/// Names each event, counts it, and prints it as a JSON line or writes it
/// to `sink`; stops at the first event that does not read. The outer error
/// is stdout's; the inner one is the stream's or the sink's, reported after
/// the summary.
fn pump(
    args: &CaptureArgs,
    events: &mut Events,
    namer: &mut Namer<'_>,
    summary: &mut Summary,
    mut sink: Option<&mut Sink<BufWriter<File>>>,
    progress: impl Fn(),
) -> Result<Option<Fail>, Fail> {
    let stdout = std::io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut line = Vec::new();
    for (n, result) in events.by_ref().enumerate() {
        let event = match result {
            Ok(event) => event,
            Err(e) => return Ok(Some(Fail::Data(format!("{}: {e}", args.file.display())))),
        };
        if n % 4096 == 0 {
            progress();
        }
        if args
            .session
            .is_some_and(|s| SessionId(s) != event.session())
        {
            continue;
        }
        if let Event::End(end) = &event
            && let Some(protocol) = namer.protocol(end.session)
        {
            summary.set_protocol(end.session, &protocol.clone());
        }
        if let Event::End(end) = &event {
            summary.set_versions(end.session, namer.choices(end.session));
        }
        let named = namer.name(&event);
        summary.add(&event, named.as_ref());
        if !passes(&args.filters, named.as_ref()) {
            continue;
        }
        match sink.as_deref_mut() {
            Some(sink) => {
                if let Err(e) = sink.write(&event, named.as_ref()) {
                    let out = display(args.write.as_deref());
                    return Ok(Some(Fail::Data(format!("{out}: {e}"))));
                }
            }
            None => {
                line.clear();
                write_line(&mut line, &event, named.as_ref(), args.hex);
                out.write_all(&line)?;
            }
        }
    }
    out.flush()?;
    Ok(None)
}

fn display(path: Option<&Path>) -> String {
    path.map_or_else(String::new, |p| p.display().to_string())
}

/// Whether a packet named `named` is printed under `--filter`.
fn passes(filters: &[String], named: Option<&Named>) -> bool {
    let Some(named) = named else {
        return true;
    };
    filters.is_empty()
        || named
            .def
            .as_ref()
            .is_some_and(|def| filters.iter().any(|f| f == def.name()))
}

/// The format `--write OUT` names by its extension.
fn write_format(out: &Path) -> Result<Format, Fail> {
    match Format::from_extension(out) {
        Some(f @ (Format::TeraLog | Format::Pkt | Format::Jsonl)) => Ok(f),
        Some(f) => Err(Fail::Usage(format!(
            "--write {}: {f} files are not written; write .TeraLog, .pkt or .jsonl",
            out.display()
        ))),
        None => Err(Fail::Usage(format!(
            "--write {}: the extension names no format (.TeraLog, .pkt, .jsonl)",
            out.display()
        ))),
    }
}

fn sink_options(args: &CaptureArgs) -> Result<SinkOptions, Fail> {
    let is_pkt = args
        .write
        .as_deref()
        .and_then(Format::from_extension)
        .is_some_and(|f| f == Format::Pkt);
    let pkt_region = match (&args.region, is_pkt) {
        (Some(text), true) => Some(
            text.parse::<Region>()
                .map_err(|e| Fail::Usage(format!("--region: {e}")))?,
        ),
        _ => None,
    };
    Ok(SinkOptions {
        teralog: TeraLogOptions {
            region: args.region.clone(),
        },
        pkt: PktOptions {
            region: pkt_region,
            client_version: args.client_version,
            uncompressed: args.uncompressed,
        },
    })
}

/// The first of two passes: every packet tried on the versions of its
/// name, so that the second reads each session's packets with the version
/// chosen over all of them. An event that does not read ends the pass; the
/// second pass reports it. A pipe cannot be read twice: its packets are
/// read with the versions chosen over those seen so far.
fn learn_versions(
    args: &CaptureArgs,
    maps: &[Arc<ProtocolMap>],
    namer: &mut Namer<'_>,
) -> Result<(), Fail> {
    if !std::fs::metadata(&args.file).is_ok_and(|m| m.is_file()) {
        return Ok(());
    }
    let events = open(&args.file, &Arc::new(AtomicU64::new(0)), maps)?;
    for event in events.map_while(Result::ok) {
        if args.session.is_none_or(|s| SessionId(s) == event.session()) {
            namer.learn(&event);
        }
    }
    Ok(())
}

/// The starts of the sessions to write, read ahead (a `.pkt` lists its
/// servers before its entries).
fn first_pass_starts(args: &CaptureArgs, maps: &[Arc<ProtocolMap>]) -> Result<Vec<Start>, Fail> {
    let mut starts = Vec::new();
    for result in open(&args.file, &Arc::new(AtomicU64::new(0)), maps)? {
        let event = result.map_err(|e| Fail::Data(format!("{}: {e}", args.file.display())))?;
        if let Event::Start(start) = event
            && args.session.is_none_or(|s| SessionId(s) == start.session)
        {
            starts.push(start);
        }
    }
    Ok(starts)
}

/// What a capture's reader saw besides the sessions.
fn eprint_capture(stats: &CaptureStats) {
    eprintln!(
        "capture: {} frames, {} TCP segments, {} connections started ({} not TERA, \
         {} handshakes lost, {} without C_CHECK_VERSION), {} whose start was not captured",
        stats.frames,
        stats.segments,
        stats.connections,
        stats.not_tera,
        stats.handshake_lost,
        stats.no_check_version,
        stats.unstarted
    );
}
