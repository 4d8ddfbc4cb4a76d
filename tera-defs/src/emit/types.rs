//! The Rust type of each def type.

use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;
use tera_wire_plan::TypeHome;

use tera_defs_front::model::{Block, ElemType, FieldType, Scalar};

/// Whether values of a block borrow from the packet (it holds a string,
/// bytes or array, directly or through objects).
pub fn block_borrows(block: &Block) -> bool {
    block.fields().any(|f| match &f.ty {
        FieldType::Object(inner) => block_borrows(inner),
        other => other.is_variable(),
    })
}

/// The Rust type of a scalar: the runtime's fixed type that holds it.
pub fn scalar(s: Scalar, rt: &syn::Path) -> TokenStream {
    let fixed = s.fixed_type();
    let name = Ident::new(fixed.rust_name, Span::call_site());
    match fixed.home {
        TypeHome::Primitive => quote!(#name),
        TypeHome::Runtime => quote!(#rt::#name),
    }
}

/// Whether a scalar is a 64-bit integer (a decimal string in JSON).
pub fn is_int64(s: Scalar) -> bool {
    matches!(s, Scalar::Int64 | Scalar::UInt64)
}

/// The Rust type of a field. `nested` is the path to the nested type (for
/// arrays and objects), already resolved by the caller.
pub fn field_type(ty: &FieldType, nested: Option<TokenStream>, rt: &syn::Path) -> TokenStream {
    match ty {
        FieldType::Scalar(s) => scalar(*s, rt),
        FieldType::String => quote!(#rt::Str<'a>),
        FieldType::Bytes => quote!(#rt::Bytes<'a>),
        FieldType::ArrayOf(ElemType::Scalar(s)) => {
            let elem = scalar(*s, rt);
            quote!(#rt::Array<'a, #elem>)
        }
        FieldType::ArrayOf(ElemType::String) => quote!(#rt::Array<'a, #rt::Str<'a>>),
        FieldType::Array(_) => quote!(#rt::Array<'a, #nested>),
        FieldType::Object(_) => quote!(#nested),
    }
}
