//! What mods log (tera-toolbox's `mod.log` and `mod.warn`): `tracing`
//! events of target `tera_proxy::mods`, the mod's name in field `module`.

/// Logs `text` at INFO as `module`'s.
pub(crate) fn info(module: Option<&str>, text: &dyn core::fmt::Display) {
    tracing::info!(target: "tera_proxy::mods", module = module.unwrap_or_default(), "{text}");
}

/// Logs `text` at WARN as `module`'s.
pub(crate) fn warn(module: Option<&str>, text: &dyn core::fmt::Display) {
    tracing::warn!(target: "tera_proxy::mods", module = module.unwrap_or_default(), "{text}");
}
