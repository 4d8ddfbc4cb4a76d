//! Capture reading speed, side by side in one run: reading the file alone,
//! capture to decrypted packets, capture to decoded JSON lines (named by
//! each session's map and decoded by the compiled-in packets, as
//! `tera-defs capture` prints them), and tshark on the same file: following
//! one TCP stream (it dissects every packet and tracks every connection's
//! sequence numbers, and reassembles that stream: the least it does to
//! reassemble) and following every stream in one pass (one `-z follow` per
//! stream, each a display filter over every packet). Each runs in a process of its own, so that its peak RSS
//! is its own; the table gives wall time, CPU time, MB/s (file bytes per
//! wall second, one core) and peak RSS.
//!
//! ```text
//! cargo run --release -p tera-sessions --example gen_capture -- /work/data/capture-1g.pcap
//! TERA_CAPTURE_BENCH=/work/data/capture-1g.pcap cargo bench -p tera-sessions --bench capture
//! ```
//!
//! Without `TERA_CAPTURE_BENCH` it prints how to make the file and
//! measures nothing. `TERA_CAPTURE_BENCH_TSHARK=0` leaves tshark out,
//! `=one` runs only its one-stream row (following every stream takes many
//! minutes on a gigabyte).

use std::fs::File;
use std::io::Read;
use std::process::{Command, ExitCode};
use std::time::Instant;

use tera_sessions::capture::Capture;
use tera_sessions::jsonl::write_line;
use tera_sessions::{Compiled, Event, Namer};

/// Peak resident memory of this process, in MiB (`VmHWM`).
fn peak_rss_mib() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(f64::NAN, |kb| kb / 1024.0)
}

/// CPU seconds (user + system) this process used.
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the command's closing parenthesis; utime and stime are
    // the 12th and 13th of them.
    let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    (ticks(11) + ticks(12)) / 100.0
}

/// One measurement in this process: prints `wall cpu rss detail`.
fn child(mode: &str, path: &str) -> ExitCode {
    let start = Instant::now();
    let detail = match mode {
        "read" => {
            let mut file = File::open(path).expect("the capture");
            let mut buf = vec![0u8; 1 << 20];
            let mut total = 0u64;
            loop {
                let n = file.read(&mut buf).expect("reading");
                if n == 0 {
                    break;
                }
                total += n as u64;
            }
            format!("{total} bytes")
        }
        "packets" => {
            let mut capture = Capture::open(path).expect("the capture");
            let (mut packets, mut bytes, mut gaps) = ([0u64; 2], 0u64, 0u64);
            for event in &mut capture {
                match event.expect("a readable capture") {
                    Event::Packet(p) => {
                        packets[usize::from(p.direction == tera_net::Direction::ServerToClient)] +=
                            1;
                        bytes += p.bytes.len() as u64;
                    }
                    Event::Gap(_) => gaps += 1,
                    _ => {}
                }
            }
            let stats = capture.stats();
            format!(
                "sessions {} client_packets {} server_packets {} packet_bytes {bytes} gaps {gaps}",
                stats.sessions, packets[0], packets[1]
            )
        }
        "jsonl" => {
            // The CLI's `capture` without its printing: each packet named
            // by its session's map, decoded and written as a JSON line
            // (to memory, cleared per line).
            let set = Compiled::new();
            let mut namer = Namer::new(&set, None).json(true);
            let mut capture = Capture::open(path).expect("the capture");
            let (mut lines, mut json_bytes, mut errors) = (0u64, 0u64, 0u64);
            let mut line = Vec::new();
            for event in &mut capture {
                let event = event.expect("a readable capture");
                let named = namer.name(&event);
                if named.as_ref().is_some_and(|n| n.value.is_err()) {
                    errors += 1;
                }
                line.clear();
                write_line(&mut line, &event, named.as_ref(), false);
                lines += 1;
                json_bytes += line.len() as u64;
            }
            format!("lines {lines} json_bytes {json_bytes} undecoded {errors}")
        }
        _ => return ExitCode::from(2),
    };
    println!(
        "{:.3} {:.2} {:.1} {detail}",
        start.elapsed().as_secs_f64(),
        cpu_seconds(),
        peak_rss_mib()
    );
    ExitCode::SUCCESS
}

struct Row {
    what: String,
    wall: f64,
    cpu: f64,
    rss: f64,
    detail: String,
}

fn ours(mode: &str, path: &str) -> Row {
    let out = Command::new(std::env::current_exe().expect("this bench"))
        .args(["child", mode, path])
        .output()
        .expect("running the measurement");
    let text = String::from_utf8_lossy(&out.stdout);
    let mut fields = text.split_whitespace();
    let mut num = || {
        fields
            .next()
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(f64::NAN)
    };
    let (wall, cpu, rss) = (num(), num(), num());
    let detail = text.splitn(4, ' ').nth(3).unwrap_or("").trim().to_owned();
    Row {
        what: mode.to_owned(),
        wall,
        cpu,
        rss,
        detail,
    }
}

/// tshark following every TCP stream (one `-z follow` per stream), in one
/// pass, its output thrown away; timed by `/usr/bin/time`.
fn tshark(path: &str, streams: u64) -> Option<Row> {
    let mut args = vec![
        "-f".to_owned(),
        "%e %U %S %M".to_owned(),
        "tshark".to_owned(),
        "-r".to_owned(),
        path.to_owned(),
        "-q".to_owned(),
    ];
    for s in 0..streams {
        args.push("-z".to_owned());
        args.push(format!("follow,tcp,raw,{s}"));
    }
    let out = Command::new("/usr/bin/time")
        .args(&args)
        .stdout(std::process::Stdio::null())
        .output()
        .ok()?;
    let err = String::from_utf8_lossy(&out.stderr);
    let line = err
        .lines()
        .rev()
        .find(|l| l.split_whitespace().count() == 4)?;
    let v: Vec<f64> = line
        .split_whitespace()
        .filter_map(|f| f.parse().ok())
        .collect();
    let [wall, user, sys, rss_kb] = v[..] else {
        return None;
    };
    Some(Row {
        what: if streams <= 1 {
            "tshark, follow 1 TCP stream".to_owned()
        } else {
            format!("tshark, follow all {streams} TCP streams")
        },
        wall,
        cpu: user + sys,
        rss: rss_kb / 1024.0,
        detail: String::new(),
    })
}

fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .unwrap_or_default()
        .trim()
        .to_owned()
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [first, mode, path, ..] = args.as_slice()
        && first == "child"
    {
        return child(mode, path);
    }
    let Some(path) = std::env::var_os("TERA_CAPTURE_BENCH") else {
        eprintln!(
            "capture bench: TERA_CAPTURE_BENCH is not set; make a capture with\n  \
             cargo run --release -p tera-sessions --example gen_capture -- /work/data/capture-1g.pcap\n\
             and set TERA_CAPTURE_BENCH to its path"
        );
        return ExitCode::SUCCESS;
    };
    let path = path.to_string_lossy().into_owned();
    let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0) as f64;
    let counts = std::fs::read_to_string(format!("{path}.counts")).unwrap_or_default();
    let count = |name: &str| {
        counts
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.trim().parse::<u64>().ok())
    };
    println!(
        "capture bench: {path} ({:.0} MB), load {}",
        size / 1e6,
        loadavg()
    );
    let mut rows = vec![
        ours("read", &path),
        ours("packets", &path),
        ours("jsonl", &path),
    ];
    let packets = &rows[1];
    for name in ["sessions", "client_packets", "server_packets"] {
        let found = packets
            .detail
            .split_whitespace()
            .skip_while(|w| *w != name)
            .nth(1);
        if let (Some(want), Some(found)) = (count(name), found) {
            println!("{name}: {found}/{want}");
        }
    }
    let tshark_runs = std::env::var("TERA_CAPTURE_BENCH_TSHARK").unwrap_or_default();
    if tshark_runs != "0" {
        // tshark numbers streams by connection, from 0; `one` leaves out
        // following them all (a long run).
        let all = count("sessions").unwrap_or(1);
        let streams: &[u64] = if tshark_runs == "one" {
            &[1]
        } else {
            &[1, all]
        };
        for &n in streams {
            match tshark(&path, n) {
                Some(row) => rows.push(row),
                None => println!("tshark: not run (is it installed?)"),
            }
        }
    }
    println!("\n| what | wall s | CPU s | MB/s (wall) | MB/s (CPU) | peak RSS MiB |");
    println!("|---|---|---|---|---|---|");
    for r in &rows {
        println!(
            "| {} | {:.2} | {:.2} | {:.0} | {:.0} | {:.1} |",
            r.what,
            r.wall,
            r.cpu,
            size / 1e6 / r.wall,
            size / 1e6 / r.cpu,
            r.rss
        );
    }
    if let Some(ours) = rows.get(1) {
        for theirs in rows.iter().skip(3) {
            println!(
                "packets vs {}: {:.1}x (wall), {:.1}x (CPU)",
                theirs.what,
                theirs.wall / ours.wall,
                theirs.cpu / ours.cpu
            );
        }
    }
    println!("load after: {}", loadavg());
    ExitCode::SUCCESS
}
