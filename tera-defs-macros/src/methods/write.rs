//! `Wire::write`, `Block::write_block` and a split object's parts: a walk
//! over the plan's segments.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use tera_wire_plan::{Segment, Step};

use crate::ctx::{BlockMeta, Ctx};

/// Writes `steps`. With [`BlockMeta::Lead`] the block's metadata words (an
/// implicit layout's, at `meta`) are not written yet: they are zeroed at
/// the front of the first run of fixed fields, one bounds check for both
/// (`write_block`), or on their own if the block does not start with one.
pub fn write(ctx: &Ctx, steps: &[Step], meta: BlockMeta) -> TokenStream {
    let mut out = ctx.meta_lets(steps);
    let mut lead = (meta == BlockMeta::Lead && !ctx.plan.explicit()).then(|| ctx.own_meta_bytes());
    for segment in ctx.plan.segments(steps) {
        if let Segment::Run(run) = &segment
            && (run.len() >= 2 || lead.is_some())
        {
            out.extend(write_run(ctx, run, lead.take()));
            continue;
        }
        if let Some(words) = lead.take() {
            out.extend(quote!(w.zeros(#words);));
        }
        match &segment {
            Segment::Run(run) => out.extend(run.iter().map(|&s| write_step(ctx, s))),
            Segment::Single(step) => out.extend(write_step(ctx, *step)),
            Segment::Interleaved(group) => out.extend(write_interleaved(ctx, group)),
        }
    }
    if let Some(words) = lead {
        out.extend(quote!(w.zeros(#words);));
    }
    out
}

fn write_step(ctx: &Ctx, step: Step) -> TokenStream {
    let i = step.field();
    let ident = &ctx.fields[i].ident;
    match step {
        Step::Ref(i) => {
            let var = ctx.meta_var(i, 0);
            let t = ctx.ty(i);
            quote! {
                let #var = w.pos();
                w.zeros(2 * #t::META_WORDS);
            }
        }
        Step::Field(i) => {
            let t = ctx.ty(i);
            let meta = ctx.meta_at(i, quote!(w.pos()));
            quote!(#t::write(&self.#ident, w, #meta);)
        }
        Step::Repeat(i) => {
            let t = ctx.ty(i);
            quote!(#t::write(&self.#ident, w, 0);)
        }
        Step::Part { field: i, part: p } => {
            let t = ctx.parts_ty(i);
            let meta = ctx.meta_var(i, p);
            quote!(#t::write_part(&self.#ident, #p, w, #meta);)
        }
    }
}

/// Writes a run of fixed pieces with one bounds check, after `lead` zero
/// bytes (the block's metadata words) if given.
fn write_run(ctx: &Ctx, run: &[Step], lead: Option<TokenStream>) -> TokenStream {
    let krate = &ctx.krate;
    let layout = ctx.run_layout(run, lead.as_ref(), "");
    let first = usize::from(lead.is_some());
    let zero = |n: usize| {
        let off = Ctx::offset("", n);
        let size = &layout.pieces[n].0;
        quote! {
            if let ::core::option::Option::Some(slot) = __run.get_mut(#off..#off + #size) {
                slot.fill(0);
            }
        }
    };
    let mut metas = TokenStream::new();
    let mut body = TokenStream::new();
    if lead.is_some() {
        body.extend(zero(0));
    }
    for (n, &step) in run.iter().enumerate() {
        let off = Ctx::offset("", n + first);
        match step {
            Step::Ref(i) => {
                let var = ctx.meta_var(i, 0);
                metas.extend(quote!(let #var = __run_start + #off;));
                body.extend(zero(n + first));
            }
            _ => {
                let field = &ctx.fields[step.field()];
                let (ty, ident) = (&field.ty, &field.ident);
                body.extend(quote_spanned!(ty.span()=>
                    <#ty as #krate::__private::Fixed>::put(&self.#ident, __run, #off);));
            }
        }
    }
    let offsets = &layout.offsets;
    let total = &layout.total;
    quote! {
        #offsets
        let __run_start = w.pos();
        let _ = __run_start;
        #metas
        if let ::core::option::Option::Some(__run) = w.take(#total) {
            #body
        }
    }
}

/// Writes a group of interleaved arrays: their elements alternate.
fn write_interleaved(ctx: &Ctx, group: &[usize]) -> TokenStream {
    let krate = &ctx.krate;
    let mut setup = TokenStream::new();
    let mut step = TokenStream::new();
    for &i in group {
        let ident = &ctx.fields[i].ident;
        let meta = ctx.meta_at(i, quote!(w.pos()));
        let chain = format_ident!("__chain_{}", i);
        let iter = format_ident!("__iter_{}", i);
        setup.extend(quote! {
            let mut #chain = #krate::Chain::start(w, #meta, self.#ident.len());
            let mut #iter = self.#ident.iter();
        });
        step.extend(quote! {
            if let ::core::option::Option::Some(e) = #iter.next() {
                #chain.push(w, &*e);
                more = true;
            }
        });
    }
    quote! {{
        #setup
        loop {
            let mut more = false;
            #step
            if !more {
                break;
            }
        }
    }}
}
