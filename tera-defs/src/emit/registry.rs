//! `AnyPacket` and `PACKETS`: every compiled-in packet by name and version.

use proc_macro2::TokenStream;
use quote::quote;

use super::module::generics;
use super::{EmitOptions, to_ident};
use crate::crate_names::CrateNames;

pub fn emit_registry(crate_names: &CrateNames<'_>, opts: &EmitOptions) -> TokenStream {
    let rt = &opts.runtime;
    let mut variants = Vec::new();
    let mut infos = Vec::new();
    let mut decode_arms = Vec::new();
    let mut deser_arms = Vec::new();
    let mut arbitrary_arms = Vec::new();
    let mut names = Vec::new();
    for packet in &crate_names.packets {
        let module = to_ident(&packet.module);
        for def_names in &packet.defs {
            let def = def_names.def;
            let v = to_ident(&def_names.version_type);
            let variant = to_ident(&def_names.variant);
            let gen_a = generics(def);
            let ty = quote!(#module::#v #gen_a);
            let ty_static = if gen_a.is_empty() {
                quote!(#module::#v)
            } else {
                quote!(#module::#v<'static>)
            };
            let file = format!(" `{}`", def.file_name);
            let name = &def.name;
            let version = proc_macro2::Literal::u32_unsuffixed(def.version);
            let platform = match &def.platform {
                Some(p) => quote!(::core::option::Option::Some(#p)),
                None => quote!(::core::option::Option::None),
            };
            variants.push(quote!(#[doc = #file] #variant(#ty)));
            infos.push(quote! {
                #rt::PacketInfo {
                    name: #name,
                    version: #version,
                    platform: #platform,
                    fixed_len: match <#ty_static as #rt::Wire<'static>>::FIXED_SIZE {
                        ::core::option::Option::Some(n) => ::core::option::Option::Some(n + #rt::HEADER_LEN),
                        ::core::option::Option::None => ::core::option::Option::None,
                    },
                }
            });
            if def.platform.is_none() {
                // The position in `PACKETS`, which `decode` finds by binary search.
                let index = proc_macro2::Literal::usize_unsuffixed(infos.len() - 1);
                decode_arms.push(quote! {
                    ::core::result::Result::Ok(#index) => AnyPacket::#variant(<#ty as #rt::Packet<'a>>::decode(packet)?)
                });
                deser_arms.push(quote! {
                    (#name, #version) => AnyPacket::#variant(::serde::Deserialize::deserialize(deserializer)?)
                });
                arbitrary_arms.push(quote! {
                    (#name, #version) => ::arbitrary::Arbitrary::arbitrary(u).map(AnyPacket::#variant)
                });
            }
            names.push((variant, name.clone(), version.clone()));
        }
    }
    let variant_idents: Vec<_> = names.iter().map(|(v, _, _)| v).collect();
    // `AnyPacket<'a>` needs a use of `'a` when no packet borrows (a folder
    // of fixed-size defs, or none at all): a variant that cannot be built.
    let borrows = crate_names
        .packets
        .iter()
        .flat_map(|p| &p.defs)
        .any(|d| !generics(d.def).is_empty());
    let (unused, unused_arm, unused_arm_owned) = if borrows {
        (quote!(), quote!(), quote!())
    } else {
        (
            quote! {
                #[doc(hidden)]
                __Unused(::core::marker::PhantomData<&'a ()>, ::core::convert::Infallible),
            },
            quote!(AnyPacket::__Unused(_, never) => match *never {},),
            quote!(AnyPacket::__Unused(_, never) => match never {},),
        )
    };
    let name_strs: Vec<_> = names.iter().map(|(_, n, _)| n).collect();
    let versions: Vec<_> = names.iter().map(|(_, _, v)| v).collect();

    let serde = match opts.serde_cfg() {
        None => quote!(),
        Some(cfg) => quote! {
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
        },
    };

    // Behind the same feature as the `Arbitrary` derives (see `attrs::derives`).
    let arbitrary = match &opts.arbitrary {
        None => quote!(),
        Some(feature) => quote! {
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
                    #(#arbitrary_arms,)*
                    _ => return ::core::option::Option::None,
                })
            }
        }
        },
    };

    quote! {
        /// Every compiled-in packet version, sorted by name and version.
        pub static PACKETS: &[#rt::PacketInfo] = &[#(#infos),*];

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

            /// The packet's name.
            pub fn name(&self) -> &'static str {
                match self {
                    #(AnyPacket::#variant_idents(_) => #name_strs,)*
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

        #serde

        #arbitrary
    }
}
