//! `AnyPacket` and `PACKETS`: every compiled-in packet by name and version.
//!
//! One [`Entry`] per def, in `PACKETS` order; each part of the registry
//! (the table, the enum, its methods, serde, `Arbitrary`) is written from
//! the entries by a function of its own.

use proc_macro2::{Ident, Literal, TokenStream};
use quote::quote;

use super::module::generics;
use super::{EmitOptions, to_ident};
use crate::crate_names::CrateNames;

/// What the registry says about one def.
struct Entry {
    /// The `AnyPacket` variant.
    variant: Ident,
    /// The packet struct, with its lifetime (`s_login::V15<'a>`).
    ty: TokenStream,
    /// The packet struct with `'static` for its lifetime.
    ty_static: TokenStream,
    /// The def's file name, for the variant's doc.
    file: String,
    name: String,
    version: Literal,
    platform: Option<String>,
}

fn entries(crate_names: &CrateNames<'_>) -> Vec<Entry> {
    let mut entries = Vec::new();
    for packet in &crate_names.packets {
        let module = to_ident(&packet.module);
        for def_names in &packet.defs {
            let def = def_names.def;
            let v = to_ident(&def_names.version_type);
            let gen_a = generics(def);
            let ty_static = if gen_a.is_empty() {
                quote!(#module::#v)
            } else {
                quote!(#module::#v<'static>)
            };
            entries.push(Entry {
                variant: to_ident(&def_names.variant),
                ty: quote!(#module::#v #gen_a),
                ty_static,
                file: format!(" `{}`", def.file_name),
                name: def.name.clone(),
                version: Literal::u32_unsuffixed(def.version),
                platform: def.platform.clone(),
            });
        }
    }
    entries
}

/// The registry of a generated file: `PACKETS`, `AnyPacket` and its
/// methods, and its serde and `Arbitrary` code when asked for.
pub fn emit_registry(crate_names: &CrateNames<'_>, opts: &EmitOptions) -> TokenStream {
    let entries = entries(crate_names);
    // `AnyPacket<'a>` needs a use of `'a` when no packet borrows (a folder
    // of fixed-size defs, or none at all): a variant that cannot be built.
    let borrows = crate_names
        .packets
        .iter()
        .flat_map(|p| &p.defs)
        .any(|d| !generics(d.def).is_empty());
    let unused = Unused::new(borrows);
    let table = packets_table(&entries, opts);
    let any_packet = any_packet(&entries, &unused, opts);
    let serde = serde_impls(&entries, &unused, opts);
    let arbitrary = arbitrary_impl(&entries, opts);
    quote! {
        #table
        #any_packet
        #serde
        #arbitrary
    }
}

/// The variant that uses `'a` when no packet does, and its match arms.
struct Unused {
    variant: TokenStream,
    arm: TokenStream,
    arm_owned: TokenStream,
}

impl Unused {
    fn new(borrows: bool) -> Self {
        if borrows {
            return Unused {
                variant: quote!(),
                arm: quote!(),
                arm_owned: quote!(),
            };
        }
        Unused {
            variant: quote! {
                #[doc(hidden)]
                __Unused(::core::marker::PhantomData<&'a ()>, ::core::convert::Infallible),
            },
            arm: quote!(AnyPacket::__Unused(_, never) => match *never {},),
            arm_owned: quote!(AnyPacket::__Unused(_, never) => match never {},),
        }
    }
}

/// `PACKETS`: every def's name, version, platform and fixed length.
fn packets_table(entries: &[Entry], opts: &EmitOptions) -> TokenStream {
    let rt = &opts.runtime;
    let infos = entries.iter().map(|e| {
        let Entry {
            name,
            version,
            ty_static,
            ..
        } = e;
        let platform = match &e.platform {
            Some(p) => quote!(::core::option::Option::Some(#p)),
            None => quote!(::core::option::Option::None),
        };
        quote! {
            #rt::PacketInfo {
                name: #name,
                version: #version,
                platform: #platform,
                fixed_len: match <#ty_static as #rt::Wire<'static>>::FIXED_SIZE {
                    ::core::option::Option::Some(n) => ::core::option::Option::Some(n + #rt::HEADER_LEN),
                    ::core::option::Option::None => ::core::option::Option::None,
                },
            }
        }
    });
    quote! {
        /// Every compiled-in packet version, sorted by name and version.
        pub static PACKETS: &[#rt::PacketInfo] = &[#(#infos),*];
    }
}

/// `AnyPacket` and its methods.
fn any_packet(entries: &[Entry], unused: &Unused, opts: &EmitOptions) -> TokenStream {
    let rt = &opts.runtime;
    let variants = entries.iter().map(|e| {
        let (file, variant, ty) = (&e.file, &e.variant, &e.ty);
        quote!(#[doc = #file] #variant(#ty))
    });
    // Defs without a platform, by their position in `PACKETS`, which
    // `decode` finds by binary search.
    let decode_arms = entries
        .iter()
        .enumerate()
        .filter(|(_, e)| e.platform.is_none())
        .map(|(index, e)| {
            let index = Literal::usize_unsuffixed(index);
            let (variant, ty) = (&e.variant, &e.ty);
            quote! {
                ::core::result::Result::Ok(#index) => AnyPacket::#variant(<#ty as #rt::Packet<'a>>::decode(packet)?)
            }
        });
    let methods = delegating_methods(entries, unused, opts);
    let unused = &unused.variant;
    quote! {
        /// A packet of any compiled-in def.
        #[derive(Debug, Clone, PartialEq)]
        #[non_exhaustive]
        pub enum AnyPacket<'a> {
            #(#variants,)*
            #unused
        }

        impl<'a> AnyPacket<'a> {
            /// Decodes `packet` as version `version` of packet `name`.
            pub fn decode(name: &str, version: u32, packet: &'a [u8]) -> ::core::result::Result<Self, #rt::AnyError> {
                // `PACKETS` is sorted by name, version, then platform (none
                // first): a binary search finds the def, a jump table decodes.
                let index = PACKETS.binary_search_by(|p| {
                    (p.name, p.version, p.platform.is_some()).cmp(&(name, version, false))
                });
                ::core::result::Result::Ok(match index {
                    #(#decode_arms,)*
                    _ => return ::core::result::Result::Err(#rt::AnyError::unknown(name, version)),
                })
            }

            #methods

            /// Decodes a whole packet by the opcode in its header: `map`
            /// names it, `version` picks the def version (`None`: the
            /// highest compiled in).
            pub fn decode_opcode(
                map: &#rt::ProtocolMap,
                version: ::core::option::Option<u32>,
                packet: &'a [u8],
            ) -> ::core::result::Result<Self, #rt::AnyError> {
                let opcode = #rt::opcode_of(packet)?;
                let name = map.name(opcode).ok_or(#rt::AnyError::UnknownOpcode(opcode))?;
                let version = match version {
                    ::core::option::Option::Some(v) => v,
                    ::core::option::Option::None => #rt::latest_version(PACKETS, name)
                        .ok_or_else(|| #rt::AnyError::unknown(name, 0))?,
                };
                Self::decode(name, version, packet)
            }
        }
    }
}

/// `Serialize` for `AnyPacket` and `AnyPacket::deserialize_as`, under the
/// serde option; nothing without it.
fn serde_impls(entries: &[Entry], unused: &Unused, opts: &EmitOptions) -> TokenStream {
    let Some(cfg) = opts.serde_cfg() else {
        return quote!();
    };
    let variant_idents = entries.iter().map(|e| &e.variant);
    let deser_arms = entries.iter().filter(|e| e.platform.is_none()).map(|e| {
        let (name, version, variant) = (&e.name, &e.version, &e.variant);
        quote! {
            (#name, #version) => AnyPacket::#variant(::serde::Deserialize::deserialize(deserializer)?)
        }
    });
    let unused_arm = &unused.arm;
    quote! {
        #cfg
        impl ::serde::Serialize for AnyPacket<'_> {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> ::core::result::Result<S::Ok, S::Error> {
                match self {
                    #(AnyPacket::#variant_idents(p) => ::serde::Serialize::serialize(p, serializer),)*
                    #unused_arm
                }
            }
        }

        #cfg
        impl AnyPacket<'static> {
            /// Reads a packet value (the JSON encoding of tera-toolbox)
            /// as version `version` of packet `name`.
            pub fn deserialize_as<'de, D: ::serde::Deserializer<'de>>(
                name: &str,
                version: u32,
                deserializer: D,
            ) -> ::core::result::Result<Self, D::Error> {
                ::core::result::Result::Ok(match (name, version) {
                    #(#deser_arms,)*
                    _ => {
                        return ::core::result::Result::Err(<D::Error as ::serde::de::Error>::custom(
                            ::std::format!("unknown packet {name}.{version}"),
                        ));
                    }
                })
            }
        }
    }
}

/// `AnyPacket::arbitrary_as`, behind the same feature as the `Arbitrary`
/// derives (see `attrs::derives`); nothing without one.
fn arbitrary_impl(entries: &[Entry], opts: &EmitOptions) -> TokenStream {
    let Some(feature) = &opts.arbitrary else {
        return quote!();
    };
    let arms = entries.iter().filter(|e| e.platform.is_none()).map(|e| {
        let (name, version, variant) = (&e.name, &e.version, &e.variant);
        quote! {
            (#name, #version) => ::arbitrary::Arbitrary::arbitrary(u).map(AnyPacket::#variant)
        }
    });
    quote! {
        #[cfg(feature = #feature)]
        impl<'a> AnyPacket<'a> {
            /// A random value of version `version` of packet `name`, built
            /// from `u` (all its data owned); `None` when no such def is
            /// compiled in.
            pub fn arbitrary_as(
                name: &str,
                version: u32,
                u: &mut ::arbitrary::Unstructured<'a>,
            ) -> ::core::option::Option<::arbitrary::Result<Self>> {
                ::core::option::Option::Some(match (name, version) {
                    #(#arms,)*
                    _ => return ::core::option::Option::None,
                })
            }
        }
    }
}

/// The methods of `AnyPacket` that ask the packet inside: its name,
/// version, length, encoding and owned copy.
fn delegating_methods(entries: &[Entry], unused: &Unused, opts: &EmitOptions) -> TokenStream {
    let rt = &opts.runtime;
    let variant_idents: Vec<&Ident> = entries.iter().map(|e| &e.variant).collect();
    let names = entries.iter().map(|e| &e.name);
    let versions = entries.iter().map(|e| &e.version);
    let Unused {
        arm: unused_arm,
        arm_owned: unused_arm_owned,
        ..
    } = unused;
    quote! {
        /// The packet's name.
        pub fn name(&self) -> &'static str {
            match self {
                #(AnyPacket::#variant_idents(_) => #names,)*
                #unused_arm
            }
        }

        /// The packet's def version.
        pub fn version(&self) -> u32 {
            match self {
                #(AnyPacket::#variant_idents(_) => #versions,)*
                #unused_arm
            }
        }

        /// The exact size of the encoded packet, header included.
        pub fn encoded_len(&self) -> usize {
            match self {
                #(AnyPacket::#variant_idents(p) => #rt::Packet::encoded_len(p),)*
                #unused_arm
            }
        }

        /// Encodes the packet into the front of `buf` with `opcode` in
        /// its header and returns its length.
        pub fn encode_into_with_opcode(&self, opcode: u16, buf: &mut [u8]) -> #rt::Result<usize> {
            match self {
                #(AnyPacket::#variant_idents(p) => #rt::Packet::encode_into_with_opcode(p, opcode, buf),)*
                #unused_arm
            }
        }

        /// Encodes the packet into a new vector, opcode 0.
        pub fn encode(&self) -> #rt::Result<::std::vec::Vec<u8>> {
            match self {
                #(AnyPacket::#variant_idents(p) => #rt::Packet::encode(p),)*
                #unused_arm
            }
        }

        /// Copies whatever is borrowed from the packet's buffer.
        pub fn into_owned(self) -> AnyPacket<'static> {
            match self {
                #(AnyPacket::#variant_idents(p) => AnyPacket::#variant_idents(#rt::IntoOwned::into_owned(p)),)*
                #unused_arm_owned
            }
        }
    }
}
