//! The full load run, on demand:
//!
//! ```text
//! cargo run --release -p tera-proxy --example load -- [connections] [packets] [none|raw|typed|mixed]
//! ```
//!
//! Defaults: 200 connections, 10,000 packets each way, `mixed` hooks
//! (10% changed, 5% blocked, 5% injected), sockets with 128 KiB kernel
//! buffers (see `LoadConfig::socket_buffer`). Every packet is checked on
//! arrival (order, nothing lost or duplicated, the hooks' changes) and the
//! relays' counters against the scripts. Prints packets/s, MB/s and the
//! peak memory of the process (`VmHWM` of /proc/self/status: relays, peers
//! and kernel-side buffers are not all in it; the peers' share is small).

use std::time::Duration;

use tera_proxy::ProxyConfig;
use tera_proxy::harness::load::{LoadConfig, LoadHooks, run};

fn peak_memory() -> String {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .map(|l| l[6..].trim().to_owned())
        })
        .unwrap_or_else(|| "unknown (no /proc/self/status)".to_owned())
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize, default: u32| {
        args.get(i).map_or(default, |a| {
            a.parse().unwrap_or_else(|e| {
                eprintln!("argument {}: {e}", i + 1);
                std::process::exit(2)
            })
        })
    };
    let hooks = match args.get(2).map(String::as_str) {
        None | Some("mixed") => LoadHooks::Mixed,
        Some("none") => LoadHooks::None,
        Some("raw") => LoadHooks::Raw,
        Some("typed") => LoadHooks::Typed,
        Some(other) => {
            eprintln!("hooks: none, raw, typed or mixed, not {other}");
            std::process::exit(2)
        }
    };
    let config = LoadConfig {
        connections: number(0, 200),
        packets: number(1, 10_000),
        hooks,
        seed: 0x7e2a_5eed,
        queue_bytes: ProxyConfig::default().queue_bytes,
        time_limit: Duration::from_secs(1800),
        socket_buffer: Some(128 * 1024),
        setup: None,
    };
    println!(
        "{} connections x {} packets each way, hooks {:?}",
        config.connections, config.packets, config.hooks
    );
    match run(&config).await {
        Ok(report) => {
            let r = &report.relay;
            println!("all streams checked: every packet arrived once, in order, as expected");
            println!(
                "received {} packets, {:.1} MB in {:.2} s: {:.0} packets/s, {:.1} MB/s",
                report.packets,
                report.bytes as f64 / 1e6,
                report.elapsed.as_secs_f64(),
                report.packets_per_second(),
                report.megabytes_per_second()
            );
            for (name, d) in [("C->S", &r.client_to_server), ("S->C", &r.server_to_client)] {
                println!(
                    "{name}: read {} packets, sent {}, changed {}, blocked {}, injected {}",
                    d.packets_read, d.packets_sent, d.changed, d.blocked, d.injected
                );
            }
            println!("peak memory (VmHWM): {}", peak_memory());
        }
        Err(e) => {
            eprintln!("load run failed: {e}");
            std::process::exit(1);
        }
    }
}
