//! Rust source from validated defs: plain struct declarations carrying the
//! `tera_packets` derives (the derive writes all wire code), grouped in one
//! module per packet name, plus a registry (`AnyPacket`, `PACKETS`) and the
//! compiled-in opcode maps.
//!
//! Parsing and validation happen before (`tera_defs_front::parse_def`);
//! this module only turns a [`Def`] into tokens and formats them.

mod attrs;
mod block;
mod maps;
mod module;
mod registry;
mod types;

use proc_macro2::TokenStream;
use quote::quote;

use tera_defs_front::map::MapFile;
use tera_defs_front::model::Def;

use crate::crate_names::CrateNames;

/// How serde derives are emitted (default: not at all, so that generated
/// code assumes nothing of the crate that includes it).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Serde {
    /// No serde derives.
    #[default]
    Off,
    /// Always derive `Serialize`/`Deserialize` (the crate depends on serde).
    On,
    /// Derive them behind `#[cfg(feature = "...")]` of the generated crate.
    Feature(String),
}

impl Serde {
    /// Behind the generated crate's `serde` feature.
    pub fn feature() -> Self {
        Serde::Feature("serde".to_string())
    }
}

/// Options of the emitter. The default emits no serde and no `Arbitrary`
/// code: the generated code needs only `tera-packets`.
#[derive(Clone)]
pub struct EmitOptions {
    /// The path of the runtime crate in generated code, e.g. `::tera_packets`.
    pub runtime: syn::Path,
    /// Serde derives.
    pub serde: Serde,
    /// The feature of the generated crate behind which `Arbitrary` is
    /// derived (`None`: not at all).
    pub arbitrary: Option<String>,
}

impl Default for EmitOptions {
    fn default() -> Self {
        EmitOptions {
            runtime: syn::parse_quote!(::tera_packets),
            serde: Serde::Off,
            arbitrary: None,
        }
    }
}

impl std::fmt::Debug for EmitOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let runtime = &self.runtime;
        f.debug_struct("EmitOptions")
            .field("runtime", &quote!(#runtime).to_string())
            .field("serde", &self.serde)
            .field("arbitrary", &self.arbitrary)
            .finish()
    }
}

impl EmitOptions {
    /// Wraps serde attributes (`derive(..)`, `serde(..)`) for the chosen mode;
    /// nothing when serde is off.
    pub(crate) fn serde_attr(&self, inner: TokenStream) -> TokenStream {
        match &self.serde {
            Serde::Off => quote!(),
            Serde::On => quote!(#[#inner]),
            Serde::Feature(name) => quote!(#[cfg_attr(feature = #name, #inner)]),
        }
    }

    /// A `#[cfg(...)]` for items that exist only with serde; `None` when
    /// serde is off.
    pub(crate) fn serde_cfg(&self) -> Option<TokenStream> {
        match &self.serde {
            Serde::Off => None,
            Serde::On => Some(quote!()),
            Serde::Feature(name) => Some(quote!(#[cfg(feature = #name)])),
        }
    }
}

/// An identifier from a name that `crate::names` made valid: `r#type`
/// becomes a raw identifier.
pub(crate) fn to_ident(name: &str) -> proc_macro2::Ident {
    let span = proc_macro2::Span::call_site();
    match name.strip_prefix("r#") {
        Some(raw) => proc_macro2::Ident::new_raw(raw, span),
        None => proc_macro2::Ident::new(name, span),
    }
}

/// The tokens of the whole generated file: packet modules, registry, maps.
/// `defs` need not be sorted; versions of one packet are grouped. Every
/// name comes from [`CrateNames`].
pub fn emit_file(defs: &[Def], maps: &[MapFile], opts: &EmitOptions) -> TokenStream {
    let names = CrateNames::new(defs);
    let modules = names.packets.iter().map(|p| module::emit_module(p, opts));
    let registry = registry::emit_registry(&names, opts);
    let maps = maps::emit_maps(maps, opts);
    quote! {
        #(#modules)*
        #registry
        #maps
    }
}

/// Formats tokens as a Rust source file (prettyplease).
pub fn format(tokens: TokenStream) -> Result<String, syn::Error> {
    let file: syn::File = syn::parse2(tokens)?;
    Ok(prettyplease::unparse(&file))
}
