//! The proxy's load run with game state on every connection (every
//! submodule, fed by its feeder mod) and without, side by side in one
//! process, alternating:
//!
//! ```text
//! cargo run --release -p tera-game-state --example load_with_game_state -- [connections] [packets] [rounds]
//! ```
//!
//! Defaults: 50 connections, 5,000 packets each way, 3 rounds. Two
//! scripts: `plain` (packets of opcodes no map names: game state looks
//! each up and reads nothing) and `typed` (every fixed-size packet of the
//! compiled-in defs, game state's among them, with a typed hook on each).
//! Prints packets/s of each run, the median of the rounds, and the wall
//! time game state adds per packet (the load's elapsed time over its
//! packets, with and without).

use std::sync::Arc;
use std::time::Duration;

use tera_game_state::{Game, GameConfig, Submodules};
use tera_proxy::ProxyConfig;
use tera_proxy::harness::load::{LoadConfig, LoadHooks, LoadSetup, run};

fn game_state() -> LoadSetup {
    LoadSetup(Arc::new(Game::setup(GameConfig {
        submodules: Submodules::all(),
        ..GameConfig::default()
    })))
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

#[tokio::main]
async fn main() {
    let args: Vec<u32> = std::env::args()
        .skip(1)
        .map(|a| {
            a.parse().unwrap_or_else(|e| {
                eprintln!("{a}: {e}");
                std::process::exit(2)
            })
        })
        .collect();
    let connections = args.first().copied().unwrap_or(50);
    let packets = args.get(1).copied().unwrap_or(5_000);
    let rounds = args.get(2).copied().unwrap_or(3);
    println!("{connections} connections x {packets} packets each way, {rounds} rounds");
    for (script, hooks) in [("plain", LoadHooks::None), ("typed", LoadHooks::Typed)] {
        // Seconds per packet, without and with game state.
        let mut per_packet = [Vec::new(), Vec::new()];
        for round in 0..rounds {
            for (with, setup) in [(0, None), (1, Some(game_state()))] {
                let config = LoadConfig {
                    connections,
                    packets,
                    hooks,
                    seed: 0x7e2a_5eed ^ u64::from(round),
                    queue_bytes: ProxyConfig::default().queue_bytes,
                    time_limit: Duration::from_secs(1800),
                    socket_buffer: Some(128 * 1024),
                    setup,
                };
                match run(&config).await {
                    Ok(report) => {
                        println!(
                            "{script} round {round} game state {}: {:.0} packets/s",
                            if with == 1 { "on " } else { "off" },
                            report.packets_per_second()
                        );
                        per_packet[with].push(report.elapsed.as_secs_f64() / report.packets as f64);
                    }
                    Err(e) => {
                        eprintln!("load run failed: {e}");
                        std::process::exit(1)
                    }
                }
            }
        }
        let [off, on] = per_packet.map(median);
        println!(
            "{script}: median {:.0} packets/s without game state, {:.0} with; game state adds {:.3} µs of wall time per packet",
            1.0 / off,
            1.0 / on,
            (on - off) * 1e6
        );
    }
}
