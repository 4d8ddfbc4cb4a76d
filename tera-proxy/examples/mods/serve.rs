//! Runs a proxy with one mod, for the mod examples:
//! `<server-host:port> [listen-port] [settings-dir]`, the compiled-in
//! protocol map; the mod's settings in `settings-dir` (default: none kept).

use std::net::{Ipv4Addr, SocketAddr};

use tera_proxy::{MapSource, Mod, Proxy, ProxyConfig};

/// Relays each client to the server with a new value of the mod until
/// Ctrl-C.
pub async fn serve<M: Mod>(factory: fn() -> M) -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(server), port) = (args.first(), args.get(1).map(|p| p.parse::<u16>())) else {
        eprintln!("usage: <server-host:port> [listen-port] [settings-dir]");
        std::process::exit(2);
    };
    let port = port.unwrap_or(Ok(0)).map_err(std::io::Error::other)?;
    let proxy = Proxy::new(server.clone())
        .config(ProxyConfig {
            maps: MapSource::test_map(),
            settings_dir: args.get(2).map(std::path::PathBuf::from),
            ..ProxyConfig::default()
        })
        .with_mod(factory)
        .on_close(|conn, handle, result| {
            println!("#{conn} closed: {result:?}");
            for fault in handle.faults() {
                eprintln!("#{conn} {fault}");
            }
        })
        .bind(SocketAddr::from((Ipv4Addr::LOCALHOST, port)))
        .await?;
    println!(
        "{} on {}, relaying to {server}",
        M::NAME,
        proxy.local_addr()?
    );
    proxy
        .run_until(async {
            tokio::signal::ctrl_c().await.ok();
        })
        .await
}
