//! The Rust type of each def type.

use proc_macro2::TokenStream;
use quote::quote;

use crate::model::{Block, ElemType, FieldType, Scalar};

/// Whether values of a block borrow from the packet (it holds a string,
/// bytes or array, directly or through objects).
pub fn block_borrows(block: &Block) -> bool {
    block.fields().any(|f| match &f.ty {
        FieldType::Object(inner) => block_borrows(inner),
        other => other.is_variable(),
    })
}

/// The Rust type of a scalar.
pub fn scalar(s: Scalar, rt: &syn::Path) -> TokenStream {
    match s {
        Scalar::Bool => quote!(bool),
        Scalar::Byte => quote!(u8),
        Scalar::Int16 => quote!(i16),
        Scalar::UInt16 => quote!(u16),
        Scalar::Int32 => quote!(i32),
        Scalar::UInt32 => quote!(u32),
        Scalar::Int64 => quote!(i64),
        Scalar::UInt64 => quote!(u64),
        Scalar::Float => quote!(f32),
        Scalar::Double => quote!(f64),
        Scalar::Vec3 => quote!(#rt::Vec3),
        Scalar::Vec3fa => quote!(#rt::Vec3fa),
        Scalar::Angle => quote!(#rt::Angle),
        Scalar::SkillId => quote!(#rt::SkillId),
        Scalar::SkillId32 => quote!(#rt::SkillId32),
        Scalar::Customize => quote!(#rt::Customize),
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
