//! What every method writer reads: the struct, its fields and its wire
//! plan, and the few names and expressions they share.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Ident, Lifetime, Type};
use tera_wire_plan::{Meta, Plan, Step};

/// A field of the struct.
pub struct Field {
    pub ident: Ident,
    pub ty: Type,
    /// The def's name, in errors and visitors.
    pub wire_name: String,
}

/// The struct being derived.
pub struct Ctx {
    pub krate: TokenStream,
    pub lt: Lifetime,
    /// `<'a>` for the impls.
    pub impl_generics: TokenStream,
    /// `Name<'a>` or `Name`.
    pub self_ty: TokenStream,
    /// `Name<'static>` or `Name`.
    pub owned_ty: TokenStream,
    /// `Name<'__tera_buf>` or `Name`: the struct over any buffer, for
    /// `PacketType::At`.
    pub at_ty: TokenStream,
    pub ident: Ident,
    pub fields: Vec<Field>,
    pub plan: Plan,
    /// Whether the struct has no braces (`struct S;`).
    pub unit: bool,
    /// `#[inline]`, or `#[inline(always)]` under `#[tera(inline)]`, on the
    /// checked read and the write.
    pub inline: TokenStream,
}

/// Which of the three reads of a block is being written.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum ReadMode {
    /// `read`: every check, errors named after their field.
    Checked,
    /// `read_validated`: bytes validated before; the cursor ends where
    /// `read` leaves it.
    Validated,
    /// `read_validated_loose`: as `Validated`, the cursor left anywhere.
    Loose,
}

/// Where a read puts the fields it reads.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum ReadInto {
    /// `__field_i` locals and deferred expressions; the struct is built at
    /// the end.
    Locals,
    /// Assignments to `self`'s fields: a later part of a split object, read
    /// into the object already built.
    SelfFields,
}

/// Whether a read or write covers the block's own metadata words too.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum BlockMeta {
    /// The caller reads or writes them (`Wire::read`, a part of an object).
    ByCaller,
    /// Not read or written yet (`read_block`, `write_block`): they join the
    /// first run of fixed fields, one bounds check for both.
    Lead,
}

/// A run of fixed pieces laid out from its first byte: the `let`s of each
/// piece's offset, and the run's total size.
pub struct RunLayout {
    pub offsets: TokenStream,
    pub total: TokenStream,
    /// Each piece's size and, for a field, its name in errors.
    pub pieces: Vec<(TokenStream, Option<String>)>,
}

impl Ctx {
    /// `<T as Wire<'a>>` of field `i`.
    pub fn ty(&self, i: usize) -> TokenStream {
        let ty = &self.fields[i].ty;
        let (krate, lt) = (&self.krate, &self.lt);
        quote_spanned!(ty.span()=> <#ty as #krate::Wire<#lt>>)
    }

    /// `<T as Parts<'a>>` of split object `i`.
    pub fn parts_ty(&self, i: usize) -> TokenStream {
        let ty = &self.fields[i].ty;
        let (krate, lt) = (&self.krate, &self.lt);
        quote_spanned!(ty.span()=> <#ty as #krate::Parts<#lt>>)
    }

    /// The local holding the metadata position of part `part` of field `i`.
    pub fn meta_var(&self, i: usize, part: usize) -> Ident {
        format_ident!("__meta_{}_{}", i, part)
    }

    /// The local holding the value of field `i`.
    pub fn value_var(&self, i: usize) -> Ident {
        format_ident!("__field_{}", i)
    }

    /// The metadata words a step has in its implicit slot.
    pub fn slot_words(&self, i: usize, part: usize) -> TokenStream {
        if self.plan.field(i).parts_after.is_empty() {
            let t = self.ty(i);
            quote!(#t::META_WORDS)
        } else {
            let t = self.parts_ty(i);
            let krate = &self.krate;
            quote!(#krate::__private::nth(#t::PART_META_WORDS, #part))
        }
    }

    /// `let __meta_i_p = ...;` for each implicit slot of `steps` (the words
    /// follow each other from `meta`), or nothing for an explicit layout,
    /// whose refs bind them where they sit.
    pub fn meta_lets(&self, steps: &[Step]) -> TokenStream {
        if self.plan.explicit() {
            return quote!(let _ = meta;);
        }
        let mut out = quote!(let mut __meta = meta;);
        for (i, p) in self.plan.meta_slots(steps) {
            let var = self.meta_var(i, p);
            let words = self.slot_words(i, p);
            out.extend(quote! {
                let #var = __meta;
                __meta += 2 * #words;
            });
        }
        out.extend(quote!(let _ = __meta;));
        out
    }

    /// Where field `i`'s metadata is: its slot, or `cursor` (`r.pos()` or
    /// `w.pos()`) for a field without one.
    pub fn meta_at(&self, i: usize, cursor: TokenStream) -> TokenStream {
        match self.plan.meta_of(i) {
            Meta::Slot => {
                let var = self.meta_var(i, 0);
                quote!(#var)
            }
            Meta::AtCursor => cursor,
        }
    }

    /// The size of each piece of a run, after `lead` bytes (the block's
    /// metadata words) when given, and their offsets named `__off_{id}_{n}`.
    pub fn run_layout(&self, run: &[Step], lead: Option<&TokenStream>, id: &str) -> RunLayout {
        let krate = &self.krate;
        let mut pieces: Vec<(TokenStream, Option<String>)> =
            lead.map(|l| (l.clone(), None)).into_iter().collect();
        for step in run {
            pieces.push(match *step {
                Step::Ref(i) => {
                    let t = self.ty(i);
                    (quote!(2 * #t::META_WORDS), None)
                }
                _ => {
                    let field = &self.fields[step.field()];
                    let ty = &field.ty;
                    (
                        quote_spanned!(ty.span()=> <#ty as #krate::__private::Fixed>::SIZE),
                        Some(field.wire_name.clone()),
                    )
                }
            });
        }
        let mut offsets = TokenStream::new();
        let mut total = quote!(0usize);
        for (n, (size, _)) in pieces.iter().enumerate() {
            let off = Self::offset(id, n);
            offsets.extend(quote!(let #off: usize = #total;));
            total = quote!(#off + #size);
        }
        RunLayout {
            offsets,
            total,
            pieces,
        }
    }

    /// The name of piece `n`'s offset in run `id`.
    pub fn offset(id: &str, n: usize) -> Ident {
        format_ident!("__off{}_{}", id, n)
    }

    /// Opens a run at the cursor: its offsets, `__run_start`, and its bytes
    /// taken with one bounds check and bound to `binding` (a run that does
    /// not fit returns the run's error); then the metadata position of each
    /// ref of `run` (`first`: the pieces laid out before its steps).
    pub fn open_run(
        &self,
        layout: &RunLayout,
        binding: TokenStream,
        run: &[Step],
        id: &str,
        first: usize,
    ) -> TokenStream {
        let (offsets, total) = (&layout.offsets, &layout.total);
        let error = self.run_error(layout);
        let metas = run.iter().enumerate().filter_map(|(n, step)| match *step {
            Step::Ref(i) => {
                let (var, off) = (self.meta_var(i, 0), Self::offset(id, n + first));
                Some(quote!(let #var = __run_start + #off;))
            }
            _ => None,
        });
        quote! {
            #offsets
            let __run_start = r.pos();
            let #binding: &[u8] = match r.take(#total) {
                ::core::option::Option::Some(run) => run,
                ::core::option::Option::None => {
                    return #error;
                }
            };
            let _ = __run_start;
            #(#metas)*
        }
    }

    /// The error of a run that does not fit: which piece ends past the end.
    fn run_error(&self, layout: &RunLayout) -> TokenStream {
        let krate = &self.krate;
        let pieces = layout.pieces.iter().map(|(size, name)| match name {
            Some(name) => quote!((#size, ::core::option::Option::Some(#name))),
            None => quote!((#size, ::core::option::Option::None)),
        });
        quote! {
            ::core::result::Result::Err(
                #krate::__private::run_error(r.pos(), r.buf().len(), &[#(#pieces),*]),
            )
        }
    }

    /// The metadata words of the block as a whole (for `lead`).
    pub fn own_meta_bytes(&self) -> TokenStream {
        let krate = &self.krate;
        quote!(2 * <Self as #krate::Wire<'_>>::META_WORDS)
    }

    /// Binds the metadata position of field `i` where its explicit ref sits
    /// and moves the reader past the ref's words.
    pub fn read_ref(&self, i: usize) -> TokenStream {
        let var = self.meta_var(i, 0);
        let t = self.ty(i);
        quote! {
            let #var = r.pos();
            r.skip(2 * #t::META_WORDS)?;
        }
    }

    /// Reads a group of interleaved arrays with `each`: the group ends
    /// where the writer's cursor ends, after the last element written (the
    /// furthest one).
    pub fn read_interleaved(
        &self,
        group: &[usize],
        each: impl Fn(usize) -> TokenStream,
    ) -> TokenStream {
        let mut out = quote!(let mut __interleaved_end = r.pos(););
        for &i in group {
            out.extend(each(i));
            out.extend(quote! {
                __interleaved_end = ::core::cmp::Ord::max(__interleaved_end, r.pos());
            });
        }
        out.extend(quote!(r.set_pos(__interleaved_end);));
        out
    }
}
