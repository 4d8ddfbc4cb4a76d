//! The sizes of a block: `META_WORDS`, `FIXED_SIZE`, `MIN_WIRE_LEN` and
//! `wire_len`, each a sum over the plan's steps.

use proc_macro2::TokenStream;
use quote::quote;
use tera_wire_plan::Step;

use crate::ctx::Ctx;

/// `Wire::META_WORDS` (of one part when `part` is given): the implicit
/// slots' words; an explicit layout's are inline.
pub fn meta_words(ctx: &Ctx, part: Option<usize>) -> TokenStream {
    let steps = ctx.plan.steps_of(part);
    let words = ctx
        .plan
        .meta_slots(&steps)
        .into_iter()
        .map(|(i, p)| ctx.slot_words(i, p));
    quote!(0 #(+ #words)*)
}

/// `Wire::FIXED_SIZE`: the sum of the fields' when all have one.
pub fn fixed_size(ctx: &Ctx) -> TokenStream {
    let krate = &ctx.krate;
    let sizes = (0..ctx.fields.len()).map(|i| {
        let t = ctx.ty(i);
        quote!(#t::FIXED_SIZE)
    });
    if ctx.plan.explicit() {
        // Explicit metadata is inline; such a block has variable fields.
        quote!(#krate::__private::sum_fixed(&[#(#sizes,)* None]))
    } else {
        quote!(#krate::__private::sum_fixed(&[#(#sizes),*]))
    }
}

/// `Wire::MIN_WIRE_LEN` (of one part when `part` is given): the sum of the
/// steps' minimums, as `wire_len` sums their lengths.
pub fn min_wire_len(ctx: &Ctx, part: Option<usize>) -> TokenStream {
    let krate = &ctx.krate;
    let terms = ctx.plan.steps_of(part).into_iter().map(|step| match step {
        Step::Ref(i) => {
            let t = ctx.ty(i);
            quote!(2 * #t::META_WORDS)
        }
        Step::Field(i) | Step::Repeat(i) => {
            let t = ctx.ty(i);
            quote!(#t::MIN_WIRE_LEN)
        }
        Step::Part { field, part } => {
            let t = ctx.parts_ty(field);
            quote!(#krate::__private::nth(#t::PART_MIN_WIRE_LEN, #part))
        }
    });
    quote!(0 #(+ #terms)*)
}

/// `Wire::wire_len` (of one part when `part` is given).
pub fn wire_len(ctx: &Ctx, part: Option<usize>) -> TokenStream {
    let terms = ctx.plan.steps_of(part).into_iter().map(|step| {
        let ident = &ctx.fields[step.field()].ident;
        match step {
            Step::Ref(i) => {
                let t = ctx.ty(i);
                quote!(2 * #t::META_WORDS)
            }
            Step::Field(i) | Step::Repeat(i) => {
                let t = ctx.ty(i);
                quote!(#t::wire_len(&self.#ident))
            }
            Step::Part { field, part } => {
                let t = ctx.parts_ty(field);
                quote!(#t::part_wire_len(&self.#ident, #part))
            }
        }
    });
    quote!(0 #(+ #terms)*)
}
