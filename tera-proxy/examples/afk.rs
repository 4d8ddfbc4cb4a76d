//! The `!afk on|off` mod on a proxy (the mod: `examples/mods/afk.rs`):
//!
//! ```text
//! cargo run -p tera-proxy --example afk -- <server-host:port> [listen-port]
//! ```

#[path = "mods/afk.rs"]
mod afk;
#[path = "mods/serve.rs"]
mod serve;

#[tokio::main]
async fn main() -> std::io::Result<()> {
    serve::serve(afk::Afk::default).await
}
