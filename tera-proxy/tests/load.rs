//! The load harness, scaled down: the same checks as the full run
//! (`cargo run --release -p tera-proxy --example load`), with fewer
//! connections and packets so that it takes seconds.

use std::time::Duration;

use tera_net::Direction;
use tera_proxy::harness::load::{LoadConfig, LoadHooks, run};

fn config(hooks: LoadHooks) -> LoadConfig {
    LoadConfig {
        connections: 12,
        packets: 400,
        hooks,
        seed: 0x5eed_1234,
        queue_bytes: 64 * 1024,
        time_limit: Duration::from_secs(60),
        socket_buffer: Some(128 * 1024),
        setup: None,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_side_receives_exactly_the_expected_stream_under_mixed_hooks() {
    let cfg = config(LoadHooks::Mixed);
    let report = run(&cfg).await.unwrap_or_else(|e| panic!("{e}"));
    let relay = report.relay;
    for dir in [Direction::ClientToServer, Direction::ServerToClient] {
        let s = relay.dir(dir);
        let sent = u64::from(cfg.connections) * u64::from(cfg.packets);
        assert_eq!(s.packets_read, sent, "{dir}");
        // About 10% changed, 5% blocked and 5% injected (the exact counts
        // per connection were checked against the scripts).
        let pct = |n: u64| n as f64 * 100.0 / sent as f64;
        assert!(
            (7.0..13.0).contains(&pct(s.changed)),
            "{dir} changed {}",
            pct(s.changed)
        );
        assert!(
            (3.0..7.0).contains(&pct(s.blocked)),
            "{dir} blocked {}",
            pct(s.blocked)
        );
        assert!(
            (3.0..7.0).contains(&pct(s.injected)),
            "{dir} injected {}",
            pct(s.injected)
        );
        assert_eq!(s.packets_sent, s.packets_read - s.blocked + s.injected);
    }
    let total_sent = 2 * u64::from(cfg.connections) * u64::from(cfg.packets);
    assert_eq!(
        report.packets,
        total_sent - relay.client_to_server.blocked - relay.server_to_client.blocked
            + relay.client_to_server.injected
            + relay.server_to_client.injected
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn raw_and_typed_hooks_on_every_packet_pass_everything() {
    for hooks in [LoadHooks::None, LoadHooks::Raw, LoadHooks::Typed] {
        let cfg = LoadConfig {
            connections: 4,
            packets: 200,
            ..config(hooks)
        };
        let report = run(&cfg).await.unwrap_or_else(|e| panic!("{hooks:?}: {e}"));
        assert_eq!(report.packets, 2 * 4 * 200, "{hooks:?}");
        assert_eq!(report.relay.client_to_server.decode_errors, 0, "{hooks:?}");
    }
}
