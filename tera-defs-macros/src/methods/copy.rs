//! `Wire::copy_validated`: runs of fixed fields (and of explicit refs,
//! patched later by their fields) copied as bytes, the other fields by
//! their own `copy_validated`.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use tera_wire_plan::{Meta, Segment, Step};

use crate::ctx::Ctx;

/// The statements of `copy_validated`, or `None` for the plans that keep
/// the provided method (split objects, repeated fields, interleaved
/// arrays).
pub fn copy(ctx: &Ctx) -> Option<TokenStream> {
    let krate = &ctx.krate;
    let steps = ctx.plan.steps();
    let segments = ctx.plan.segments(steps);
    if segments.iter().any(|s| {
        matches!(
            s,
            Segment::Interleaved(_) | Segment::Single(Step::Part { .. } | Step::Repeat(_))
        )
    }) {
        return None;
    }
    let meta_out_var = |i: usize| format_ident!("__meta_out_{}", i);
    // Not every plan uses every parameter (a unit struct uses none).
    let mut out = quote!(let _ = (&r, &w, meta, meta_out););
    if !ctx.plan.explicit() {
        out.extend(ctx.meta_lets(steps));
        for (i, _) in ctx.plan.meta_slots(steps) {
            let (var, out_var) = (ctx.meta_var(i, 0), meta_out_var(i));
            out.extend(quote!(let #out_var = meta_out + (#var - meta);));
        }
    }
    for segment in &segments {
        match segment {
            Segment::Run(run) => {
                let layout = ctx.run_layout(run, None, "");
                let mut metas = TokenStream::new();
                // The copied bytes are written as the values read from them
                // would be (a `bool` byte of 2 as 1).
                let mut canonical = TokenStream::new();
                for (n, step) in run.iter().enumerate() {
                    let off = Ctx::offset("", n);
                    match *step {
                        Step::Ref(i) => {
                            let (var, out_var) = (ctx.meta_var(i, 0), meta_out_var(i));
                            metas.extend(quote! {
                                let #var = r.pos() + #off;
                                let #out_var = w.pos() + #off;
                            });
                        }
                        step => {
                            let ty = &ctx.fields[step.field()].ty;
                            canonical.extend(quote_spanned!(ty.span()=>
                                <#ty as #krate::__private::Fixed>::canonicalize(dst, #off);));
                        }
                    }
                }
                let offsets = &layout.offsets;
                let total = &layout.total;
                out.extend(quote! {
                    #offsets
                    #metas
                    let ::core::option::Option::Some(src) = r.take(#total) else {
                        return ::core::result::Result::Err(#krate::Error::new(
                            #krate::ErrorKind::UnexpectedEnd,
                            r.pos(),
                        ));
                    };
                    if let ::core::option::Option::Some(dst) = w.take(#total) {
                        dst.copy_from_slice(src);
                        #canonical
                    }
                });
            }
            Segment::Single(Step::Field(i)) => {
                let t = ctx.ty(*i);
                let (meta_in, meta_out) = match ctx.plan.meta_of(*i) {
                    Meta::AtCursor => (quote!(r.pos()), quote!(w.pos())),
                    Meta::Slot => {
                        let (var, out_var) = (ctx.meta_var(*i, 0), meta_out_var(*i));
                        (quote!(#var), quote!(#out_var))
                    }
                };
                out.extend(quote! {
                    let __at = (#meta_in, #meta_out);
                    #t::copy_validated(r, __at.0, w, __at.1)?;
                });
            }
            Segment::Single(_) | Segment::Interleaved(_) => {}
        }
    }
    Some(out)
}
