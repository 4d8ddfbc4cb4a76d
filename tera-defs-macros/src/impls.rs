//! The impls the derives write: `Wire`, `Block`, `Parts`, `IntoOwned`,
//! `Visit` and `Packet`, their bodies from the method writers.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use crate::ctx::{BlockMeta, Ctx, ReadInto, ReadMode};
use crate::methods::{copy, len, read, validate, write};

/// `read` of the whole block in `mode`: statements, then the struct.
fn read_all(ctx: &Ctx, mode: ReadMode, meta: BlockMeta) -> TokenStream {
    let r = read::read(ctx, ctx.plan.steps(), ReadInto::Locals, mode, meta);
    let stmts = r.stmts;
    let construct = read::construct(ctx, &r.deferred);
    quote! {
        #stmts
        ::core::result::Result::Ok(#construct)
    }
}

pub fn wire_impl(ctx: &Ctx) -> TokenStream {
    let (krate, lt) = (&ctx.krate, &ctx.lt);
    let (impl_generics, self_ty, inline) = (&ctx.impl_generics, &ctx.self_ty, &ctx.inline);
    let meta_words = len::meta_words(ctx, None);
    let fixed = len::fixed_size(ctx);
    let min_wire_len = len::min_wire_len(ctx, None);
    let wire_len = len::wire_len(ctx, None);
    let read = read_all(ctx, ReadMode::Checked, BlockMeta::ByCaller);
    let read_validated = read_all(ctx, ReadMode::Validated, BlockMeta::ByCaller);
    let read_loose = read_all(ctx, ReadMode::Loose, BlockMeta::ByCaller);
    let write = write::write(ctx, ctx.plan.steps(), BlockMeta::ByCaller);
    let copy = copy::copy(ctx).map(|stmts| {
        quote! {
            #[inline]
            fn copy_validated(
                r: &mut #krate::Reader<#lt>,
                meta: usize,
                w: &mut #krate::Writer<'_>,
                meta_out: usize,
            ) -> #krate::Result<()> {
                #stmts
                ::core::result::Result::Ok(())
            }
        }
    });
    let validate = validate::validate(ctx).map(|stmts| {
        quote! {
            #[inline]
            fn validate(r: &mut #krate::Reader<#lt>, meta: usize) -> #krate::Result<usize> {
                #stmts
                ::core::result::Result::Ok(__size)
            }
        }
    });
    quote! {
        impl #impl_generics #krate::Wire<#lt> for #self_ty {
            const META_WORDS: usize = #meta_words;
            const FIXED_SIZE: ::core::option::Option<usize> = #fixed;
            const MIN_WIRE_LEN: usize = #min_wire_len;

            #inline
            fn read(r: &mut #krate::Reader<#lt>, meta: usize) -> #krate::Result<Self> {
                #read
            }

            // Called once per element of a view, where its result would
            // otherwise be copied out through memory.
            #[inline(always)]
            fn read_validated(r: &mut #krate::Reader<#lt>, meta: usize) -> #krate::Result<Self> {
                #read_validated
            }

            #[inline(always)]
            fn read_validated_loose(r: &mut #krate::Reader<#lt>, meta: usize) -> #krate::Result<Self> {
                #read_loose
            }

            #validate

            #copy

            #[inline]
            fn wire_len(&self) -> usize {
                #wire_len
            }

            #inline
            fn write(&self, w: &mut #krate::Writer<'_>, meta: usize) {
                #write
            }
        }
    }
}

pub fn block_impl(ctx: &Ctx) -> TokenStream {
    let (krate, lt) = (&ctx.krate, &ctx.lt);
    let (impl_generics, self_ty, inline) = (&ctx.impl_generics, &ctx.self_ty, &ctx.inline);
    if ctx.plan.explicit() || ctx.plan.parts() > 1 {
        return quote! {
            impl #impl_generics #krate::Block<#lt> for #self_ty {}
        };
    }
    let read = read_all(ctx, ReadMode::Checked, BlockMeta::Lead);
    let read_loose = read_all(ctx, ReadMode::Loose, BlockMeta::Lead);
    let write = write::write(ctx, ctx.plan.steps(), BlockMeta::Lead);
    quote! {
        impl #impl_generics #krate::Block<#lt> for #self_ty {
            #inline
            fn read_block(r: &mut #krate::Reader<#lt>) -> #krate::Result<Self> {
                let meta = r.pos();
                #read
            }

            #[inline(always)]
            fn read_block_validated_loose(r: &mut #krate::Reader<#lt>) -> #krate::Result<Self> {
                let meta = r.pos();
                #read_loose
            }

            #inline
            fn write_block(&self, w: &mut #krate::Writer<'_>) {
                let meta = w.pos();
                #write
            }
        }
    }
}

pub fn parts_impl(ctx: &Ctx) -> TokenStream {
    let (krate, lt) = (&ctx.krate, &ctx.lt);
    let (impl_generics, self_ty) = (&ctx.impl_generics, &ctx.self_ty);
    let n = ctx.plan.parts();
    let words = (0..n).map(|p| len::meta_words(ctx, Some(p)));
    let mins = (0..n).map(|p| len::min_wire_len(ctx, Some(p)));
    let part_read = |mode| {
        (0..n).map(move |p| {
            let stmts = read::read(
                ctx,
                &ctx.plan.steps_of(Some(p)),
                ReadInto::SelfFields,
                mode,
                BlockMeta::ByCaller,
            )
            .stmts;
            quote!(#p => { #stmts })
        })
    };
    let reads = part_read(ReadMode::Checked);
    let reads_validated = part_read(ReadMode::Validated);
    let lens = (0..n).map(|p| {
        let e = len::wire_len(ctx, Some(p));
        quote!(#p => #e,)
    });
    let writes = (0..n).map(|p| {
        let stmts = write::write(ctx, &ctx.plan.steps_of(Some(p)), BlockMeta::ByCaller);
        quote!(#p => { #stmts })
    });
    quote! {
        impl #impl_generics #krate::Parts<#lt> for #self_ty {
            const PARTS: usize = #n;
            const PART_META_WORDS: &'static [usize] = &[#(#words),*];
            const PART_MIN_WIRE_LEN: &'static [usize] = &[#(#mins),*];

            // `part` is a constant at every call: inlined, the match folds away.
            #[inline(always)]
            fn read_part(&mut self, part: usize, r: &mut #krate::Reader<#lt>, meta: usize) -> #krate::Result<()> {
                match part {
                    #(#reads)*
                    _ => {}
                }
                ::core::result::Result::Ok(())
            }

            #[inline(always)]
            fn read_part_validated(&mut self, part: usize, r: &mut #krate::Reader<#lt>, meta: usize) -> #krate::Result<()> {
                match part {
                    #(#reads_validated)*
                    _ => {}
                }
                ::core::result::Result::Ok(())
            }

            #[inline(always)]
            fn part_wire_len(&self, part: usize) -> usize {
                match part {
                    #(#lens)*
                    _ => 0,
                }
            }

            #[inline(always)]
            fn write_part(&self, part: usize, w: &mut #krate::Writer<'_>, meta: usize) {
                match part {
                    #(#writes)*
                    _ => {}
                }
            }
        }
    }
}

pub fn owned_impl(ctx: &Ctx) -> TokenStream {
    let (krate, lt, ident) = (&ctx.krate, &ctx.lt, &ctx.ident);
    let (self_ty, owned_ty) = (&ctx.self_ty, &ctx.owned_ty);
    let body = if ctx.unit {
        quote!(#ident)
    } else {
        let inits = ctx.fields.iter().map(|f| {
            let name = &f.ident;
            quote!(#name: #krate::IntoOwned::into_owned(self.#name))
        });
        quote!(#ident { #(#inits),* })
    };
    quote! {
        impl<#lt> #krate::IntoOwned for #self_ty {
            type Owned = #owned_ty;
            fn into_owned(self) -> #owned_ty {
                #body
            }
        }
    }
}

pub fn visit_impl(ctx: &Ctx) -> TokenStream {
    let (krate, lt, self_ty) = (&ctx.krate, &ctx.lt, &ctx.self_ty);
    let fields = ctx.fields.iter().map(|f| {
        let ident = &f.ident;
        let name = &f.wire_name;
        // Spanned so that a field type without `Visit` is reported at the field.
        quote_spanned!(f.ty.span()=> #krate::Visitor::field(v, #name, &self.#ident);)
    });
    quote! {
        impl<#lt> #krate::Visit for #self_ty {
            #[inline]
            fn visit<__V: #krate::Visitor>(&self, v: &mut __V) {
                let _ = &v;
                #(#fields)*
            }
        }
    }
}

/// `Packet`: the name and version checked by the front end.
pub fn packet_impl(ctx: &Ctx, name: &syn::LitStr, version: &syn::LitInt) -> TokenStream {
    let (krate, lt) = (&ctx.krate, &ctx.lt);
    let (impl_generics, self_ty) = (&ctx.impl_generics, &ctx.self_ty);
    let at = &ctx.at_ty;
    quote! {
        impl #impl_generics #krate::Packet<#lt> for #self_ty {
            const NAME: &'static str = #name;
            const VERSION: u32 = #version;
        }

        impl #impl_generics #krate::PacketType for #self_ty {
            type At<'__tera_buf> = #at;
        }
    }
}
