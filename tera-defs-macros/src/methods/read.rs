//! The reads of a block (`read`, `read_validated`, `read_validated_loose`,
//! a split object's parts): a walk over the plan's segments.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use tera_wire_plan::{CursorReadsAfter, Segment, Step};

use crate::ctx::{BlockMeta, Ctx, ReadInto, ReadMode};

/// The statements of a read and, for each field read from a run of fixed
/// fields, the expression that reads it from its run: the struct is built
/// with them at the end, so that the values need not be held (spilled)
/// while the variable fields after them are read. Other fields are in
/// `__field_i` locals, or assigned to `self` (see [`ReadInto`]).
pub struct Read {
    pub stmts: TokenStream,
    pub deferred: Vec<Option<TokenStream>>,
}

/// Reads `steps` into `into`; `meta` says whether the block's own metadata
/// words are read here (see [`BlockMeta`]).
pub fn read(ctx: &Ctx, steps: &[Step], into: ReadInto, mode: ReadMode, meta: BlockMeta) -> Read {
    let mut deferred = vec![None; ctx.fields.len()];
    let mut lead = (meta == BlockMeta::Lead && !ctx.plan.explicit()).then(|| ctx.own_meta_bytes());
    let mut out = ctx.meta_lets(steps);
    let segments = ctx.plan.segments(steps);
    for (k, segment) in segments.iter().enumerate() {
        match segment {
            Segment::Run(run) if run.len() >= 2 || lead.is_some() => {
                let id = format!("_{k}");
                out.extend(read_run(ctx, run, into, &id, &mut deferred, lead.take()));
                continue;
            }
            _ => {}
        }
        if let Some(words) = lead.take() {
            out.extend(quote!(r.skip(#words)?;));
        }
        match segment {
            Segment::Run(run) => {
                for &step in run {
                    out.extend(read_step(ctx, &segments, k, step, into, mode));
                }
            }
            Segment::Single(step) => out.extend(read_step(ctx, &segments, k, *step, into, mode)),
            Segment::Interleaved(group) => out.extend(ctx.read_interleaved(group, |i| {
                read_step(ctx, &segments, k, Step::Field(i), into, mode)
            })),
        }
    }
    if let Some(words) = lead {
        out.extend(quote!(r.skip(#words)?;));
    }
    Read {
        stmts: out,
        deferred,
    }
}

/// Reads one step at the cursor.
fn read_step(
    ctx: &Ctx,
    segments: &[Segment],
    k: usize,
    step: Step,
    into: ReadInto,
    mode: ReadMode,
) -> TokenStream {
    let krate = &ctx.krate;
    let validated = mode != ReadMode::Checked;
    let i = step.field();
    let field = &ctx.fields[i];
    let name = &field.wire_name;
    let ident = &field.ident;
    let var = ctx.value_var(i);
    match step {
        Step::Ref(i) => ctx.read_ref(i),
        Step::Field(i) => read_field(ctx, segments, k, i, into, mode),
        Step::Repeat(i) => {
            let t = ctx.ty(i);
            let value = if validated {
                quote!(#t::read_validated(r, 0)?)
            } else {
                quote!(#krate::__private::named(#t::read(r, 0), #name)?)
            };
            if into == ReadInto::SelfFields {
                quote!(self.#ident = #value;)
            } else {
                quote!(#var = #value;)
            }
        }
        Step::Part { field: i, part: p } => {
            let t = ctx.parts_ty(i);
            let meta = ctx.meta_var(i, p);
            let target = if into == ReadInto::SelfFields {
                quote!(self.#ident)
            } else {
                quote!(#var)
            };
            let init = if p == 0 && into == ReadInto::Locals {
                quote!(let mut #target = ::core::default::Default::default();)
            } else {
                quote!()
            };
            let read = if validated {
                quote!(#t::read_part_validated(&mut #target, #p, r, #meta)?;)
            } else {
                quote!(#krate::__private::named(#t::read_part(&mut #target, #p, r, #meta), #name)?;)
            };
            quote! {
                #init
                #read
            }
        }
    }
}

/// Reads field `i` at the cursor (step `k` of `segments`): through its
/// metadata slot, checked or validated, loosely where nothing after it
/// reads at the cursor.
fn read_field(
    ctx: &Ctx,
    segments: &[Segment],
    k: usize,
    i: usize,
    into: ReadInto,
    mode: ReadMode,
) -> TokenStream {
    let krate = &ctx.krate;
    let validated = mode != ReadMode::Checked;
    let field = &ctx.fields[i];
    let name = &field.wire_name;
    let ident = &field.ident;
    let var = ctx.value_var(i);
    let t = ctx.ty(i);
    let meta = if validated || ctx.plan.meta_of(i) == tera_wire_plan::Meta::Slot {
        // `read` asserts that the field has no metadata: once is enough.
        ctx.meta_at(i, quote!(r.pos()))
    } else {
        let msg = format!(
            "field `{name}` has metadata but no `{}` places it",
            crate::attrs::names::REFS_BEFORE
        );
        quote!({
            const { assert!(#t::META_WORDS == 0, #msg) };
            r.pos()
        })
    };
    let loose = match ctx.plan.cursor_reads_after(segments, k) {
        CursorReadsAfter::IfAnyOf(after)
            if mode == ReadMode::Loose && !ctx.plan.field(i).interleaved =>
        {
            let terms = after.iter().map(|&j| {
                let t = ctx.ty(j);
                quote!(#t::READS_AT_CURSOR)
            });
            Some(quote!(false #(|| #terms)*))
        }
        _ => None,
    };
    let value = if let Some(after) = loose {
        quote! {
            if #after {
                #t::read_validated(r, #meta)?
            } else {
                #t::read_validated_loose(r, #meta)?
            }
        }
    } else if validated {
        quote!(#t::read_validated(r, #meta)?)
    } else {
        quote!(#krate::__private::named(#t::read(r, #meta), #name)?)
    };
    if into == ReadInto::SelfFields {
        quote!(self.#ident = #value;)
    } else if ctx.plan.field(i).again_after.is_some() {
        quote!(let mut #var = #value;)
    } else {
        quote!(let #var = #value;)
    }
}

/// Reads a run of fixed pieces with one bounds check. Fields assigned to
/// `self` are read at once; the others are left in `deferred` as reads from
/// the run (its slice and offsets are named after `id`, unique in the
/// function, so that they are still in scope when the struct is built).
fn read_run(
    ctx: &Ctx,
    run: &[Step],
    into: ReadInto,
    id: &str,
    deferred: &mut [Option<TokenStream>],
    lead: Option<TokenStream>,
) -> TokenStream {
    let krate = &ctx.krate;
    let layout = ctx.run_layout(run, lead.as_ref(), id);
    let first = usize::from(lead.is_some());
    let run_var = format_ident!("__run{}", id);
    let mut body = TokenStream::new();
    for (n, &step) in run.iter().enumerate() {
        let off = Ctx::offset(id, n + first);
        let i = step.field();
        if let Step::Ref(_) = step {
            continue;
        }
        let field = &ctx.fields[i];
        let ty = &field.ty;
        let value = quote_spanned!(ty.span()=>
            <#ty as #krate::__private::Fixed>::get(#run_var, #off));
        let (var, ident) = (ctx.value_var(i), &field.ident);
        if into == ReadInto::SelfFields {
            body.extend(quote!(self.#ident = #value;));
        } else if ctx.plan.field(i).again_after.is_some() || matches!(step, Step::Repeat(_)) {
            body.extend(quote!(let mut #var = #value;));
        } else if let Some(slot) = deferred.get_mut(i) {
            *slot = Some(value);
        }
    }
    let open = ctx.open_run(&layout, quote!(#run_var), run, id, first);
    quote! {
        #open
        #body
    }
}

/// The struct, from the `__field_i` locals and the `deferred` reads.
pub fn construct(ctx: &Ctx, deferred: &[Option<TokenStream>]) -> TokenStream {
    let ident = &ctx.ident;
    if ctx.unit {
        return quote!(#ident);
    }
    let inits = ctx.fields.iter().enumerate().map(|(i, f)| {
        let name = &f.ident;
        match deferred.get(i) {
            Some(Some(value)) => quote!(#name: #value),
            _ => {
                let var = ctx.value_var(i);
                quote!(#name: #var)
            }
        }
    });
    quote!(#ident { #(#inits),* })
}
