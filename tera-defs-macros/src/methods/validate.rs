//! `Wire::validate`: the checks of `read` without building the values,
//! adding each piece's `wire_len` to `__size`.

use proc_macro2::TokenStream;
use quote::quote;
use tera_wire_plan::{Segment, Step};

use crate::ctx::Ctx;

/// The statements of `validate`, or `None` when the plan has parts of split
/// objects or repeated fields, which keep the provided `validate` (read,
/// then measure).
pub fn validate(ctx: &Ctx) -> Option<TokenStream> {
    let steps = ctx.plan.steps();
    if steps
        .iter()
        .any(|s| matches!(s, Step::Part { .. } | Step::Repeat(_)))
    {
        return None;
    }
    let mut out = ctx.meta_lets(steps);
    out.extend(quote!(let mut __size: usize = 0;));
    for segment in ctx.plan.segments(steps) {
        match &segment {
            Segment::Run(run) if run.len() >= 2 => out.extend(validate_run(ctx, run)),
            Segment::Run(run) => out.extend(run.iter().map(|&s| validate_step(ctx, s))),
            Segment::Single(step) => out.extend(validate_step(ctx, *step)),
            Segment::Interleaved(group) => {
                out.extend(ctx.read_interleaved(group, |i| validate_step(ctx, Step::Field(i))));
            }
        }
    }
    Some(out)
}

fn validate_step(ctx: &Ctx, step: Step) -> TokenStream {
    let krate = &ctx.krate;
    match step {
        Step::Ref(i) => {
            let read = ctx.read_ref(i);
            let t = ctx.ty(i);
            quote! {
                #read
                __size += 2 * #t::META_WORDS;
            }
        }
        Step::Field(i) => {
            let t = ctx.ty(i);
            let name = &ctx.fields[i].wire_name;
            // `read` asserts at compile time that a field without a ref has
            // no metadata: once is enough.
            let meta = ctx.meta_at(i, quote!(r.pos()));
            quote!(__size += #krate::__private::named(#t::validate(r, #meta), #name)?;)
        }
        Step::Part { .. } | Step::Repeat(_) => TokenStream::new(),
    }
}

/// A run checked with one bounds check, its bytes counted in `__size`.
fn validate_run(ctx: &Ctx, run: &[Step]) -> TokenStream {
    let layout = ctx.run_layout(run, None, "");
    let open = ctx.open_run(&layout, quote!(_), run, "", 0);
    let total = &layout.total;
    quote! {
        #open
        __size += #total;
    }
}
