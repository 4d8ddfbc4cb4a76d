//! tera-toolbox-mods' `skill-resets` on a proxy (the mod:
//! `examples/mods/skill_resets.rs`):
//!
//! ```text
//! cargo run -p tera-proxy --example skill_resets -- <server-host:port> [listen-port]
//! ```

#[path = "mods/serve.rs"]
mod serve;
#[path = "mods/skill_resets.rs"]
mod skill_resets;

#[tokio::main]
async fn main() -> std::io::Result<()> {
    serve::serve(skill_resets::SkillResets::default).await
}
