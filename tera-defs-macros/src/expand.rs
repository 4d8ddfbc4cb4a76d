//! The impls the derives write: `Wire`, `Block`, `Parts`, `IntoOwned` and
//! `Packet`, all by calling the impls of the field types.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Fields, GenericParam, Lifetime};

use crate::attrs::{StructAttrs, field_attrs, plain, span_of, struct_attrs};
use crate::layout::{FieldInfo, Item, Layout, assign_parts, layout, unsupported};

/// Which of the three reads of a block is being written.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ReadMode {
    /// `read`: every check, errors named after their field.
    Checked,
    /// `read_validated`: bytes validated before; the cursor ends where
    /// `read` leaves it.
    Validated,
    /// `read_validated_loose`: as `Validated`, the cursor left anywhere.
    Loose,
}

/// What is being derived.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Block,
    Packet,
}

struct Ctx {
    krate: TokenStream,
    lt: Lifetime,
    /// `impl<'a>` generics.
    impl_generics: TokenStream,
    /// `Name<'a>` or `Name`.
    self_ty: TokenStream,
    /// `Name<'static>` or `Name`.
    owned_ty: TokenStream,
    ident: syn::Ident,
    fields: Vec<FieldInfo>,
    layout: Layout,
    /// Whether the struct is a unit or tuple-less `{}` struct.
    unit: bool,
}

pub fn derive(input: DeriveInput, kind: Kind) -> syn::Result<TokenStream> {
    let sattrs = struct_attrs(&input.attrs)?;
    let ctx = context(&input, &sattrs)?;
    let mut out = TokenStream::new();
    out.extend(wire_impl(&ctx));
    out.extend(block_impl(&ctx));
    out.extend(owned_impl(&ctx));
    out.extend(visit_impl(&ctx));
    if ctx.layout.parts > 1 {
        out.extend(parts_impl(&ctx));
    }
    if kind == Kind::Packet {
        out.extend(packet_impl(&ctx, &sattrs, &input)?);
    }
    Ok(out)
}

fn context(input: &DeriveInput, sattrs: &StructAttrs) -> syn::Result<Ctx> {
    let krate = match &sattrs.krate {
        Some(path) => quote!(#path),
        None => quote!(::tera_packets),
    };
    let mut lifetimes = Vec::new();
    for param in &input.generics.params {
        match param {
            GenericParam::Lifetime(l) => lifetimes.push(l.lifetime.clone()),
            other => {
                return Err(unsupported(
                    other.span(),
                    "tera derives take at most one lifetime parameter and no type or const parameters",
                ));
            }
        }
    }
    if lifetimes.len() > 1 {
        return Err(unsupported(
            input.generics.span(),
            "tera derives take at most one lifetime parameter (the packet's buffer)",
        ));
    }
    let ident = input.ident.clone();
    let (lt, self_ty, owned_ty) = match lifetimes.first() {
        Some(lt) => (lt.clone(), quote!(#ident<#lt>), quote!(#ident<'static>)),
        None => (
            Lifetime::new("'__tera", Span::call_site()),
            quote!(#ident),
            quote!(#ident),
        ),
    };
    let impl_generics = quote!(<#lt>);

    let data = match &input.data {
        Data::Struct(s) => s,
        Data::Enum(e) => {
            return Err(unsupported(
                e.enum_token.span,
                "tera derives take structs with named fields, not enums",
            ));
        }
        Data::Union(u) => {
            return Err(unsupported(
                u.union_token.span,
                "tera derives take structs with named fields, not unions",
            ));
        }
    };
    let (named, unit) = match &data.fields {
        Fields::Named(n) => (n.named.iter().collect::<Vec<_>>(), false),
        Fields::Unit => (Vec::new(), true),
        Fields::Unnamed(u) => {
            return Err(unsupported(
                u.span(),
                "tera derives take structs with named fields: the def's field names",
            ));
        }
    };
    let mut fields = Vec::new();
    for f in named {
        let Some(ident) = f.ident.clone() else {
            continue;
        };
        let attrs = field_attrs(&f.attrs)?;
        let wire_name = attrs
            .rename
            .as_ref()
            .map_or_else(|| plain(&ident), |r| r.value());
        fields.push(FieldInfo {
            ident,
            ty: f.ty.clone(),
            attrs,
            wire_name,
            part: 0,
        });
    }
    assign_parts(&mut fields)?;
    check_interleaved(&fields)?;
    let layout = layout(&fields)?;
    if layout.explicit && layout.parts > 1 {
        return Err(unsupported(
            span_of(&input.attrs, input.ident.span()),
            "a split object cannot place its metadata with `refs_before`",
        ));
    }
    Ok(Ctx {
        krate,
        lt,
        impl_generics,
        self_ty,
        owned_ty,
        ident,
        fields,
        layout,
        unit,
    })
}

/// `interleaved` fields must be next to each other.
fn check_interleaved(fields: &[FieldInfo]) -> syn::Result<()> {
    let marked: Vec<usize> = (0..fields.len())
        .filter(|&i| fields[i].attrs.interleaved)
        .collect();
    if let (Some(&first), Some(&last)) = (marked.first(), marked.last())
        && last - first + 1 != marked.len()
    {
        let gap = (first..=last)
            .find(|i| !fields[*i].attrs.interleaved)
            .unwrap_or(first);
        return Err(syn::Error::new(
            fields[gap].ident.span(),
            "`interleaved` arrays must be consecutive fields: this field separates them",
        ));
    }
    Ok(())
}

impl Ctx {
    fn ty(&self, i: usize) -> TokenStream {
        let ty = &self.fields[i].ty;
        let span = ty.span();
        let krate = &self.krate;
        let lt = &self.lt;
        quote_spanned!(span=> <#ty as #krate::Wire<#lt>>)
    }

    fn parts_ty(&self, i: usize) -> TokenStream {
        let ty = &self.fields[i].ty;
        let span = ty.span();
        let krate = &self.krate;
        let lt = &self.lt;
        quote_spanned!(span=> <#ty as #krate::Parts<#lt>>)
    }

    fn meta_var(&self, i: usize, part: usize) -> syn::Ident {
        format_ident!("__meta_{}_{}", i, part)
    }

    fn value_var(&self, i: usize) -> syn::Ident {
        format_ident!("__field_{}", i)
    }

    /// The metadata words of an item (0 for explicit refs' fields, which
    /// are placed by `Ref` items).
    fn item_meta_words(&self, item: Item) -> TokenStream {
        match item {
            Item::Ref(_) | Item::Again(_) => quote!(0),
            Item::Field(i) => {
                let t = self.ty(i);
                quote!(#t::META_WORDS)
            }
            Item::Part(i, p) => {
                let t = self.parts_ty(i);
                let krate = &self.krate;
                quote!(#krate::__private::nth(#t::PART_META_WORDS, #p))
            }
        }
    }

    /// Items restricted to one part of a split object (all items otherwise).
    fn items_of_part(&self, part: Option<usize>) -> Vec<Item> {
        self.layout
            .items
            .iter()
            .copied()
            .filter(|item| match (part, item) {
                (None, _) => true,
                (Some(p), Item::Field(i) | Item::Ref(i) | Item::Part(i, _) | Item::Again(i)) => {
                    self.fields[*i].part == p
                }
            })
            .collect()
    }

    /// `let __meta_i_p = ...;` for every item, implicit layout: the words
    /// follow each other from `meta`.
    fn implicit_meta_lets(&self, items: &[Item]) -> TokenStream {
        let mut out = quote!(let mut __meta = meta;);
        for &item in items {
            let (i, p) = match item {
                Item::Field(i) => (i, 0),
                Item::Part(i, p) => (i, p),
                Item::Ref(_) | Item::Again(_) => continue,
            };
            let var = self.meta_var(i, p);
            let words = self.item_meta_words(item);
            out.extend(quote! {
                let #var = __meta;
                __meta += 2 * #words;
            });
        }
        out.extend(quote!(let _ = __meta;));
        out
    }

    fn const_fixed_size(&self) -> TokenStream {
        let krate = &self.krate;
        let sizes = (0..self.fields.len()).map(|i| {
            let t = self.ty(i);
            quote!(#t::FIXED_SIZE)
        });
        if self.layout.explicit {
            // Explicit metadata is inline; such a block has variable fields.
            quote!(#krate::__private::sum_fixed(&[#(#sizes,)* None]))
        } else {
            quote!(#krate::__private::sum_fixed(&[#(#sizes),*]))
        }
    }

    fn const_meta_words(&self, part: Option<usize>) -> TokenStream {
        if self.layout.explicit {
            return quote!(0);
        }
        let words = self
            .items_of_part(part)
            .into_iter()
            .map(|item| self.item_meta_words(item));
        quote!(0 #(+ #words)*)
    }

    /// Whether anything after `items[k]` reads at the cursor: a constant
    /// expression (`None` when it is plainly `true`).
    fn cursor_read_after(&self, items: &[Item], k: usize) -> Option<TokenStream> {
        let mut terms = Vec::new();
        for item in items.iter().skip(k + 1) {
            match *item {
                Item::Field(j)
                    if !self.fields[j].attrs.interleaved && !is_fixed_type(&self.fields[j].ty) =>
                {
                    let t = self.ty(j);
                    terms.push(quote!(#t::READS_AT_CURSOR));
                }
                _ => return None,
            }
        }
        Some(quote!(false #(|| #terms)*))
    }

    /// Statements reading `items`; values go into `__field_i` locals, or
    /// into `self.field` when `into_self`. In the validated modes each field
    /// is read with `read_validated` (no error can occur, so none is named),
    /// or, in `ReadMode::Loose`, with `read_validated_loose` when nothing
    /// after it reads at the cursor.
    fn read_stmts(&self, items: &[Item], into_self: bool, mode: ReadMode) -> TokenStream {
        self.read_stmts_deferred(items, into_self, mode, false).0
    }

    /// `read_stmts`, and for each field read from a run of fixed fields the
    /// expression that reads it from its run: the struct is built with them
    /// at the end, so that the values need not be held (spilled) while the
    /// variable fields after them are read. Other fields are in `__field_i`.
    fn read_stmts_deferred(
        &self,
        items: &[Item],
        into_self: bool,
        mode: ReadMode,
        lead: bool,
    ) -> (TokenStream, Vec<Option<TokenStream>>) {
        let mut deferred = vec![None; self.fields.len()];
        let validated = mode != ReadMode::Checked;
        // The block's metadata words, not skipped yet (`read_block`): read
        // with the first run of fixed fields, one bounds check for both.
        let mut lead = (lead && !self.layout.explicit).then(|| {
            let krate = &self.krate;
            quote!(2 * <Self as #krate::Wire<'_>>::META_WORDS)
        });
        let krate = &self.krate;
        let mut out = if self.layout.explicit {
            quote!(let _ = meta;)
        } else {
            self.implicit_meta_lets(items)
        };
        let interleaved_at = |k: usize| match items.get(k) {
            Some(Item::Field(j)) => self.fields[*j].attrs.interleaved,
            _ => false,
        };
        let mut run_end = 0;
        for (k, &item) in items.iter().enumerate() {
            if k < run_end {
                continue; // read by the run below
            }
            let run = self.fixed_run(items, k);
            if run.len() >= 2 || (lead.is_some() && !run.is_empty()) {
                run_end = k + run.len();
                out.extend(self.read_run(&run, into_self, k, &mut deferred, lead.take()));
                continue;
            }
            if let Some(words) = lead.take() {
                out.extend(quote!(r.skip(#words)?;));
            }
            // A run of interleaved arrays ends where the writer's cursor
            // ends: after the last element written, the furthest one.
            let grouped = interleaved_at(k);
            if grouped && (k == 0 || !interleaved_at(k - 1)) {
                out.extend(quote!(let mut __interleaved_end = r.pos();));
            }
            out.extend(match item {
                Item::Ref(i) => {
                    let var = self.meta_var(i, 0);
                    let t = self.ty(i);
                    quote! {
                        let #var = r.pos();
                        r.skip(2 * #t::META_WORDS)?;
                    }
                }
                Item::Field(i) => {
                    let t = self.ty(i);
                    let name = &self.fields[i].wire_name;
                    let meta = if validated {
                        // `read` asserts that the field has no metadata: once is enough.
                        self.field_meta_unchecked(i)
                    } else {
                        self.field_meta_for_read(i)
                    };
                    let loose = match self.cursor_read_after(items, k) {
                        Some(after) if mode == ReadMode::Loose && !self.fields[i].attrs.interleaved => {
                            Some(after)
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
                    if into_self {
                        let ident = &self.fields[i].ident;
                        quote!(self.#ident = #value;)
                    } else if self.fields[i].attrs.again_after.is_some() {
                        let var = self.value_var(i);
                        quote!(let mut #var = #value;)
                    } else {
                        let var = self.value_var(i);
                        quote!(let #var = #value;)
                    }
                }
                Item::Again(i) => {
                    let t = self.ty(i);
                    let name = &self.fields[i].wire_name;
                    let value = if validated {
                        quote!(#t::read_validated(r, 0)?)
                    } else {
                        quote!(#krate::__private::named(#t::read(r, 0), #name)?)
                    };
                    if into_self {
                        let ident = &self.fields[i].ident;
                        quote!(self.#ident = #value;)
                    } else {
                        let var = self.value_var(i);
                        quote!(#var = #value;)
                    }
                }
                Item::Part(i, p) => {
                    let t = self.parts_ty(i);
                    let name = &self.fields[i].wire_name;
                    let meta = self.meta_var(i, p);
                    let target = if into_self {
                        let ident = &self.fields[i].ident;
                        quote!(self.#ident)
                    } else {
                        let var = self.value_var(i);
                        quote!(#var)
                    };
                    let init = if p == 0 && !into_self {
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
            });
            if grouped {
                out.extend(quote! {
                    __interleaved_end = ::core::cmp::Ord::max(__interleaved_end, r.pos());
                });
                if !interleaved_at(k + 1) {
                    out.extend(quote!(r.set_pos(__interleaved_end);));
                }
            }
        }
        if let Some(words) = lead {
            out.extend(quote!(r.skip(#words)?;));
        }
        (out, deferred)
    }

    /// Statements of `Wire::validate`: the checks of `read_stmts` without
    /// building the values, adding each piece's `wire_len` to `__size`.
    /// `None` when the items include parts of split objects or repeated
    /// fields, which keep the provided `validate` (read, then measure).
    fn validate_stmts(&self, items: &[Item]) -> Option<TokenStream> {
        let krate = &self.krate;
        if items
            .iter()
            .any(|item| matches!(item, Item::Part(..) | Item::Again(_)))
        {
            return None;
        }
        let mut out = if self.layout.explicit {
            quote!(let _ = meta;)
        } else {
            self.implicit_meta_lets(items)
        };
        out.extend(quote!(let mut __size: usize = 0;));
        let interleaved_at = |k: usize| match items.get(k) {
            Some(Item::Field(j)) => self.fields[*j].attrs.interleaved,
            _ => false,
        };
        let mut run_end = 0;
        for (k, &item) in items.iter().enumerate() {
            if k < run_end {
                continue;
            }
            let run = self.fixed_run(items, k);
            if run.len() >= 2 {
                run_end = k + run.len();
                out.extend(self.validate_run(&run));
                continue;
            }
            let grouped = interleaved_at(k);
            if grouped && (k == 0 || !interleaved_at(k - 1)) {
                out.extend(quote!(let mut __interleaved_end = r.pos();));
            }
            out.extend(match item {
                Item::Ref(i) => {
                    let var = self.meta_var(i, 0);
                    let t = self.ty(i);
                    quote! {
                        let #var = r.pos();
                        r.skip(2 * #t::META_WORDS)?;
                        __size += 2 * #t::META_WORDS;
                    }
                }
                Item::Field(i) => {
                    let t = self.ty(i);
                    let name = &self.fields[i].wire_name;
                    // `read` asserts at compile time that a field without
                    // a ref has no metadata: once is enough.
                    let meta = if self.layout.explicit && !self.layout.items.contains(&Item::Ref(i))
                    {
                        quote!(r.pos())
                    } else {
                        let var = self.meta_var(i, 0);
                        quote!(#var)
                    };
                    quote!(__size += #krate::__private::named(#t::validate(r, #meta), #name)?;)
                }
                Item::Again(_) | Item::Part(..) => return None,
            });
            if grouped {
                out.extend(quote! {
                    __interleaved_end = ::core::cmp::Ord::max(__interleaved_end, r.pos());
                });
                if !interleaved_at(k + 1) {
                    out.extend(quote!(r.set_pos(__interleaved_end);));
                }
            }
        }
        Some(out)
    }

    /// A run checked with one bounds check, its bytes counted in `__size`.
    fn validate_run(&self, run: &[Item]) -> TokenStream {
        let krate = &self.krate;
        let sizes = self.run_sizes(run);
        let (offsets, total) = Self::run_offsets(&sizes);
        let pieces = sizes.iter().map(|(size, name)| match name {
            Some(name) => quote!((#size, ::core::option::Option::Some(#name))),
            None => quote!((#size, ::core::option::Option::None)),
        });
        let mut metas = TokenStream::new();
        for (n, item) in run.iter().enumerate() {
            if let Item::Ref(i) = *item {
                let off = format_ident!("__off_{}", n);
                let var = self.meta_var(i, 0);
                metas.extend(quote!(let #var = __run_start + #off;));
            }
        }
        quote! {
            #offsets
            let __run_start = r.pos();
            if r.take(#total).is_none() {
                return ::core::result::Result::Err(
                    #krate::__private::run_error(r.pos(), r.buf().len(), &[#(#pieces),*]),
                );
            }
            let _ = __run_start;
            #metas
            __size += #total;
        }
    }

    /// The run of fixed pieces starting at `items[k]`: explicit refs and
    /// fields of the runtime's fixed-size types, which are read and written
    /// with one bounds check for the whole run (empty if `items[k]` is
    /// neither).
    fn fixed_run(&self, items: &[Item], k: usize) -> Vec<Item> {
        items
            .iter()
            .skip(k)
            .take_while(|item| match item {
                Item::Ref(_) => true,
                Item::Field(i) => {
                    !self.fields[*i].attrs.interleaved && is_fixed_type(&self.fields[*i].ty)
                }
                Item::Again(_) | Item::Part(..) => false,
            })
            .copied()
            .collect()
    }

    /// Each piece of a run: its size and, for a field, its name in errors.
    fn run_sizes(&self, run: &[Item]) -> Vec<(TokenStream, Option<String>)> {
        let krate = &self.krate;
        run.iter()
            .map(|item| match *item {
                Item::Ref(i) => {
                    let t = self.ty(i);
                    (quote!(2 * #t::META_WORDS), None)
                }
                Item::Field(i) | Item::Again(i) | Item::Part(i, _) => {
                    let ty = &self.fields[i].ty;
                    (
                        quote_spanned!(ty.span()=> <#ty as #krate::__private::Fixed>::SIZE),
                        Some(self.fields[i].wire_name.clone()),
                    )
                }
            })
            .collect()
    }

    /// `let __off_n = ...;`: the offset of each piece in the run (constants
    /// once the sizes are known; lets keep the code linear in the run).
    fn run_offsets(sizes: &[(TokenStream, Option<String>)]) -> (TokenStream, TokenStream) {
        let mut lets = TokenStream::new();
        let mut prev = quote!(0usize);
        for (n, (size, _)) in sizes.iter().enumerate() {
            let off = format_ident!("__off_{}", n);
            lets.extend(quote!(let #off: usize = #prev;));
            prev = quote!(#off + #size);
        }
        (lets, prev)
    }

    /// Reads a run of fixed pieces with one bounds check. Fields assigned to
    /// `self` are read at once; the others are left in `deferred` as reads
    /// from the run (its slice and offsets are named after `id`, unique in
    /// the function, so that they are still in scope when the struct is
    /// built).
    /// `run_offsets` with names unique to run `id` (`__off_{id}_{n}`).
    fn run_offsets_named(
        sizes: &[(TokenStream, Option<String>)],
        id: usize,
    ) -> (TokenStream, TokenStream) {
        let mut lets = TokenStream::new();
        let mut prev = quote!(0usize);
        for (n, (size, _)) in sizes.iter().enumerate() {
            let off = format_ident!("__off_{}_{}", id, n);
            lets.extend(quote!(let #off: usize = #prev;));
            prev = quote!(#off + #size);
        }
        (lets, prev)
    }

    fn read_run(
        &self,
        run: &[Item],
        into_self: bool,
        id: usize,
        deferred: &mut [Option<TokenStream>],
        lead: Option<TokenStream>,
    ) -> TokenStream {
        let krate = &self.krate;
        let mut sizes = self.run_sizes(run);
        if let Some(lead) = &lead {
            sizes.insert(0, (lead.clone(), None));
        }
        let (offsets, total) = Self::run_offsets_named(&sizes, id);
        let run: Vec<Option<Item>> = lead
            .iter()
            .map(|_| None)
            .chain(run.iter().copied().map(Some))
            .collect();
        let run_var = format_ident!("__run_{}", id);
        let pieces = sizes.iter().map(|(size, name)| match name {
            Some(name) => quote!((#size, ::core::option::Option::Some(#name))),
            None => quote!((#size, ::core::option::Option::None)),
        });
        let mut body = TokenStream::new();
        for (n, item) in run.iter().enumerate() {
            let off = format_ident!("__off_{}_{}", id, n);
            match *item {
                None => {}
                Some(Item::Ref(i)) => {
                    let var = self.meta_var(i, 0);
                    body.extend(quote!(let #var = __run_start + #off;));
                }
                Some(item @ (Item::Field(i) | Item::Again(i) | Item::Part(i, _))) => {
                    let ty = &self.fields[i].ty;
                    let value = quote_spanned!(ty.span()=>
                        <#ty as #krate::__private::Fixed>::get(#run_var, #off));
                    let var = self.value_var(i);
                    let ident = &self.fields[i].ident;
                    if into_self {
                        body.extend(quote!(self.#ident = #value;));
                    } else if self.fields[i].attrs.again_after.is_some()
                        || matches!(item, Item::Again(_))
                    {
                        body.extend(quote!(let mut #var = #value;));
                    } else if let Some(slot) = deferred.get_mut(i) {
                        *slot = Some(value);
                    }
                }
            }
        }
        quote! {
            #offsets
            let __run_start = r.pos();
            let #run_var: &[u8] = match r.take(#total) {
                ::core::option::Option::Some(run) => run,
                ::core::option::Option::None => {
                    return ::core::result::Result::Err(
                        #krate::__private::run_error(r.pos(), r.buf().len(), &[#(#pieces),*]),
                    );
                }
            };
            let _ = __run_start;
            #body
        }
    }

    /// Writes a run of fixed pieces with one bounds check, after `lead`
    /// zero bytes (the block's metadata words) if given.
    fn write_run(&self, run: &[Item], lead: Option<TokenStream>) -> TokenStream {
        let krate = &self.krate;
        let mut sizes = self.run_sizes(run);
        if let Some(lead) = &lead {
            sizes.insert(0, (lead.clone(), None));
        }
        let (offsets, total) = Self::run_offsets(&sizes);
        let run: Vec<Option<Item>> = lead
            .iter()
            .map(|_| None)
            .chain(run.iter().copied().map(Some))
            .collect();
        let mut metas = TokenStream::new();
        let mut body = TokenStream::new();
        for (n, item) in run.iter().enumerate() {
            let off = format_ident!("__off_{}", n);
            let size = &sizes[n].0;
            match *item {
                None => {
                    body.extend(quote! {
                        if let ::core::option::Option::Some(slot) = __run.get_mut(#off..#off + #size) {
                            slot.fill(0);
                        }
                    });
                }
                Some(Item::Ref(i)) => {
                    let var = self.meta_var(i, 0);
                    metas.extend(quote!(let #var = __run_start + #off;));
                    body.extend(quote! {
                        if let ::core::option::Option::Some(slot) = __run.get_mut(#off..#off + #size) {
                            slot.fill(0);
                        }
                    });
                }
                Some(Item::Field(i) | Item::Again(i) | Item::Part(i, _)) => {
                    let ty = &self.fields[i].ty;
                    let ident = &self.fields[i].ident;
                    body.extend(quote_spanned!(ty.span()=>
                        <#ty as #krate::__private::Fixed>::put(&self.#ident, __run, #off);));
                }
            }
        }
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

    /// The metadata position a field is read with.
    fn field_meta_for_read(&self, i: usize) -> TokenStream {
        if self.layout.explicit && !self.layout.items.contains(&Item::Ref(i)) {
            // A field without a ref must have no metadata; checked when the
            // impl is compiled.
            let t = self.ty(i);
            let name = &self.fields[i].wire_name;
            let msg = format!("field `{name}` has metadata but no `refs_before` places it");
            quote!({
                const { assert!(#t::META_WORDS == 0, #msg) };
                r.pos()
            })
        } else {
            let var = self.meta_var(i, 0);
            quote!(#var)
        }
    }

    /// The metadata position of `field_meta_for_read`, without its assertion.
    fn field_meta_unchecked(&self, i: usize) -> TokenStream {
        if self.layout.explicit && !self.layout.items.contains(&Item::Ref(i)) {
            quote!(r.pos())
        } else {
            let var = self.meta_var(i, 0);
            quote!(#var)
        }
    }

    fn field_meta_for_write(&self, i: usize) -> TokenStream {
        if self.layout.explicit && !self.layout.items.contains(&Item::Ref(i)) {
            quote!(w.pos())
        } else {
            let var = self.meta_var(i, 0);
            quote!(#var)
        }
    }

    /// Statements writing `items`. `lead`: the block's metadata words (an
    /// implicit layout's, at `meta`) are not written yet: they are zeroed at
    /// the front of the first run of fixed fields, one bounds check for both
    /// (`write_block`), or on their own if the block does not start with one.
    fn write_stmts(&self, items: &[Item], lead: bool) -> TokenStream {
        let krate = &self.krate;
        let mut out = if self.layout.explicit {
            quote!(let _ = meta;)
        } else {
            self.implicit_meta_lets(items)
        };
        let mut lead = (lead && !self.layout.explicit)
            .then(|| quote!(2 * <Self as #krate::Wire<'_>>::META_WORDS));
        let mut k = 0;
        while k < items.len() {
            let item = items[k];
            let run = self.fixed_run(items, k);
            if run.len() >= 2 || (lead.is_some() && !run.is_empty()) {
                out.extend(self.write_run(&run, lead.take()));
                k += run.len();
                continue;
            }
            if let Some(words) = lead.take() {
                out.extend(quote!(w.zeros(#words);));
            }
            match item {
                Item::Ref(i) => {
                    let var = self.meta_var(i, 0);
                    let t = self.ty(i);
                    out.extend(quote! {
                        let #var = w.pos();
                        w.zeros(2 * #t::META_WORDS);
                    });
                }
                Item::Field(i) if self.fields[i].attrs.interleaved => {
                    // The run of interleaved arrays starting here.
                    let mut group = vec![i];
                    while let Some(Item::Field(j)) = items.get(k + 1) {
                        if !self.fields[*j].attrs.interleaved {
                            break;
                        }
                        group.push(*j);
                        k += 1;
                    }
                    out.extend(self.interleaved_write(&group));
                }
                Item::Field(i) => {
                    let t = self.ty(i);
                    let ident = &self.fields[i].ident;
                    let meta = self.field_meta_for_write(i);
                    out.extend(quote!(#t::write(&self.#ident, w, #meta);));
                }
                Item::Again(i) => {
                    let t = self.ty(i);
                    let ident = &self.fields[i].ident;
                    out.extend(quote!(#t::write(&self.#ident, w, 0);));
                }
                Item::Part(i, p) => {
                    let t = self.parts_ty(i);
                    let ident = &self.fields[i].ident;
                    let meta = self.meta_var(i, p);
                    out.extend(quote!(#t::write_part(&self.#ident, #p, w, #meta);));
                }
            }
            k += 1;
        }
        if let Some(words) = lead {
            out.extend(quote!(w.zeros(#words);));
        }
        let _ = krate;
        out
    }

    fn interleaved_write(&self, group: &[usize]) -> TokenStream {
        let krate = &self.krate;
        let mut setup = TokenStream::new();
        let mut step = TokenStream::new();
        for &i in group {
            let ident = &self.fields[i].ident;
            let meta = self.field_meta_for_write(i);
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

    /// Statements of `Wire::copy_validated`: runs of fixed fields (and of
    /// explicit refs, patched later by their fields) copied as bytes, the
    /// other fields by their own `copy_validated`. `None` for the layouts
    /// that keep the provided method (split objects, repeated fields,
    /// interleaved arrays).
    fn copy_stmts(&self) -> Option<TokenStream> {
        let krate = &self.krate;
        let items = &self.layout.items;
        let supported = |item: &Item| match item {
            Item::Field(i) => !self.fields[*i].attrs.interleaved,
            Item::Ref(_) => true,
            Item::Part(..) | Item::Again(_) => false,
        };
        if !items.iter().all(supported) {
            return None;
        }
        let meta_out_var = |i: usize| format_ident!("__meta_out_{}", i);
        // Not every layout uses every parameter (a unit struct uses none).
        let mut out = quote!(let _ = (&r, &w, meta, meta_out););
        if !self.layout.explicit {
            out.extend(self.implicit_meta_lets(items));
            for item in items {
                if let Item::Field(i) = *item {
                    let (var, out_var) = (self.meta_var(i, 0), meta_out_var(i));
                    out.extend(quote!(let #out_var = meta_out + (#var - meta);));
                }
            }
        }
        let mut k = 0;
        while k < items.len() {
            let run = self.fixed_run(items, k);
            if !run.is_empty() {
                let (offsets, total) = Self::run_offsets(&self.run_sizes(&run));
                let mut metas = TokenStream::new();
                // The copied bytes are written as the values read from them
                // would be (a `bool` byte of 2 as 1).
                let mut canonical = TokenStream::new();
                for (n, item) in run.iter().enumerate() {
                    let off = format_ident!("__off_{}", n);
                    match *item {
                        Item::Ref(i) => {
                            let (var, out_var) = (self.meta_var(i, 0), meta_out_var(i));
                            metas.extend(quote! {
                                let #var = r.pos() + #off;
                                let #out_var = w.pos() + #off;
                            });
                        }
                        Item::Field(i) => {
                            let ty = &self.fields[i].ty;
                            canonical.extend(quote_spanned!(ty.span()=>
                                <#ty as #krate::__private::Fixed>::canonicalize(dst, #off);));
                        }
                        Item::Part(..) | Item::Again(_) => {}
                    }
                }
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
                k += run.len();
                continue;
            }
            if let Item::Field(i) = items[k] {
                let t = self.ty(i);
                let (meta_in, meta_out) = if self.layout.explicit && !items.contains(&Item::Ref(i))
                {
                    (quote!(r.pos()), quote!(w.pos()))
                } else {
                    let (var, out_var) = (self.meta_var(i, 0), meta_out_var(i));
                    (quote!(#var), quote!(#out_var))
                };
                out.extend(quote! {
                    let __at = (#meta_in, #meta_out);
                    #t::copy_validated(r, __at.0, w, __at.1)?;
                });
            }
            k += 1;
        }
        Some(out)
    }

    /// `Wire::MIN_WIRE_LEN` (of one part when `part` is given): the sum of
    /// the items' minimums, as `wire_len_expr` sums their lengths.
    fn min_wire_len_expr(&self, part: Option<usize>) -> TokenStream {
        let krate = &self.krate;
        let terms = self.items_of_part(part).into_iter().map(|item| match item {
            Item::Ref(i) => {
                let t = self.ty(i);
                quote!(2 * #t::META_WORDS)
            }
            Item::Field(i) | Item::Again(i) => {
                let t = self.ty(i);
                quote!(#t::MIN_WIRE_LEN)
            }
            Item::Part(i, p) => {
                let t = self.parts_ty(i);
                quote!(#krate::__private::nth(#t::PART_MIN_WIRE_LEN, #p))
            }
        });
        quote!(0 #(+ #terms)*)
    }

    fn wire_len_expr(&self, part: Option<usize>) -> TokenStream {
        let mut terms = Vec::new();
        for item in self.items_of_part(part) {
            terms.push(match item {
                Item::Ref(i) => {
                    let t = self.ty(i);
                    quote!(2 * #t::META_WORDS)
                }
                Item::Field(i) | Item::Again(i) => {
                    let t = self.ty(i);
                    let ident = &self.fields[i].ident;
                    quote!(#t::wire_len(&self.#ident))
                }
                Item::Part(i, p) => {
                    let t = self.parts_ty(i);
                    let ident = &self.fields[i].ident;
                    quote!(#t::part_wire_len(&self.#ident, #p))
                }
            });
        }
        quote!(0 #(+ #terms)*)
    }

    /// The statements of a read of the whole block and the struct they build.
    fn read_body(&self, mode: ReadMode) -> (TokenStream, TokenStream) {
        self.read_body_lead(mode, false)
    }

    /// `read_body`; `lead`: of a whole block, its metadata words included.
    fn read_body_lead(&self, mode: ReadMode, lead: bool) -> (TokenStream, TokenStream) {
        let (stmts, deferred) = self.read_stmts_deferred(&self.layout.items, false, mode, lead);
        (stmts, self.construct(&deferred))
    }

    /// The struct, from the `__field_i` locals and the `deferred` reads.
    fn construct(&self, deferred: &[Option<TokenStream>]) -> TokenStream {
        let ident = &self.ident;
        if self.unit {
            return quote!(#ident);
        }
        let inits = self.fields.iter().enumerate().map(|(i, f)| {
            let name = &f.ident;
            match deferred.get(i) {
                Some(Some(value)) => quote!(#name: #value),
                _ => {
                    let var = self.value_var(i);
                    quote!(#name: #var)
                }
            }
        });
        quote!(#ident { #(#inits),* })
    }
}

fn wire_impl(ctx: &Ctx) -> TokenStream {
    let krate = &ctx.krate;
    let lt = &ctx.lt;
    let impl_generics = &ctx.impl_generics;
    let self_ty = &ctx.self_ty;
    let meta_words = ctx.const_meta_words(None);
    let fixed = ctx.const_fixed_size();
    let (read, construct) = ctx.read_body(ReadMode::Checked);
    let (read_validated, construct_validated) = ctx.read_body(ReadMode::Validated);
    let (read_loose, construct_loose) = ctx.read_body(ReadMode::Loose);
    let wire_len = ctx.wire_len_expr(None);
    let min_wire_len = ctx.min_wire_len_expr(None);
    let write = ctx.write_stmts(&ctx.layout.items, false);
    let copy = ctx.copy_stmts().map(|stmts| {
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
    let validate = ctx.validate_stmts(&ctx.layout.items).map(|stmts| {
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

            #[inline]
            fn read(r: &mut #krate::Reader<#lt>, meta: usize) -> #krate::Result<Self> {
                #read
                ::core::result::Result::Ok(#construct)
            }

            // Called once per element of a view, where its result would
            // otherwise be copied out through memory.
            #[inline(always)]
            fn read_validated(r: &mut #krate::Reader<#lt>, meta: usize) -> #krate::Result<Self> {
                #read_validated
                ::core::result::Result::Ok(#construct_validated)
            }

            #[inline(always)]
            fn read_validated_loose(r: &mut #krate::Reader<#lt>, meta: usize) -> #krate::Result<Self> {
                #read_loose
                ::core::result::Result::Ok(#construct_loose)
            }

            #validate

            #copy

            #[inline]
            fn wire_len(&self) -> usize {
                #wire_len
            }

            #[inline]
            fn write(&self, w: &mut #krate::Writer<'_>, meta: usize) {
                #write
            }
        }
    }
}

fn block_impl(ctx: &Ctx) -> TokenStream {
    let krate = &ctx.krate;
    let lt = &ctx.lt;
    let impl_generics = &ctx.impl_generics;
    let self_ty = &ctx.self_ty;
    if ctx.layout.explicit || ctx.layout.parts > 1 {
        return quote! {
            impl #impl_generics #krate::Block<#lt> for #self_ty {}
        };
    }
    let write = ctx.write_stmts(&ctx.layout.items, true);
    let (read, construct) = ctx.read_body_lead(ReadMode::Checked, true);
    let (read_loose, construct_loose) = ctx.read_body_lead(ReadMode::Loose, true);
    quote! {
        impl #impl_generics #krate::Block<#lt> for #self_ty {
            #[inline]
            fn read_block(r: &mut #krate::Reader<#lt>) -> #krate::Result<Self> {
                let meta = r.pos();
                #read
                ::core::result::Result::Ok(#construct)
            }

            #[inline(always)]
            fn read_block_validated_loose(r: &mut #krate::Reader<#lt>) -> #krate::Result<Self> {
                let meta = r.pos();
                #read_loose
                ::core::result::Result::Ok(#construct_loose)
            }

            #[inline]
            fn write_block(&self, w: &mut #krate::Writer<'_>) {
                let meta = w.pos();
                #write
            }
        }
    }
}

fn owned_impl(ctx: &Ctx) -> TokenStream {
    let krate = &ctx.krate;
    let self_ty = &ctx.self_ty;
    let owned_ty = &ctx.owned_ty;
    let lt = &ctx.lt;
    let ident = &ctx.ident;
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

fn visit_impl(ctx: &Ctx) -> TokenStream {
    let krate = &ctx.krate;
    let self_ty = &ctx.self_ty;
    let lt = &ctx.lt;
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

fn parts_impl(ctx: &Ctx) -> TokenStream {
    let krate = &ctx.krate;
    let lt = &ctx.lt;
    let impl_generics = &ctx.impl_generics;
    let self_ty = &ctx.self_ty;
    let n = ctx.layout.parts;
    let words = (0..n).map(|p| ctx.const_meta_words(Some(p)));
    let reads = (0..n).map(|p| {
        let stmts = ctx.read_stmts(&ctx.items_of_part(Some(p)), true, ReadMode::Checked);
        quote!(#p => { #stmts })
    });
    let reads_validated = (0..n).map(|p| {
        let stmts = ctx.read_stmts(&ctx.items_of_part(Some(p)), true, ReadMode::Validated);
        quote!(#p => { #stmts })
    });
    let mins = (0..n).map(|p| ctx.min_wire_len_expr(Some(p)));
    let lens = (0..n).map(|p| {
        let e = ctx.wire_len_expr(Some(p));
        quote!(#p => #e,)
    });
    let writes = (0..n).map(|p| {
        let stmts = ctx.write_stmts(&ctx.items_of_part(Some(p)), false);
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

fn packet_impl(ctx: &Ctx, sattrs: &StructAttrs, input: &DeriveInput) -> syn::Result<TokenStream> {
    let span = span_of(&input.attrs, input.ident.span());
    let Some(name) = &sattrs.name else {
        return Err(syn::Error::new(
            span,
            "a packet needs `#[tera(name = \"S_NAME\", version = N)]`",
        ));
    };
    let Some(version) = &sattrs.version else {
        return Err(syn::Error::new(
            span,
            "a packet needs `#[tera(version = N)]`, the def's version",
        ));
    };
    if ctx.layout.parts > 1 {
        return Err(syn::Error::new(
            span,
            "a packet cannot be split in parts; only objects can",
        ));
    }
    let krate = &ctx.krate;
    let lt = &ctx.lt;
    let impl_generics = &ctx.impl_generics;
    let self_ty = &ctx.self_ty;
    Ok(quote! {
        impl #impl_generics #krate::Packet<#lt> for #self_ty {
            const NAME: &'static str = #name;
            const VERSION: u32 = #version;
        }
    })
}

/// Whether `ty` names one of the runtime's fixed-size types by a name the
/// derive can trust: a primitive, or a value type spelled
/// `tera_packets::Vec3` (as the emitter writes it). Anything else goes
/// through its `Wire` impl; a wrong guess is a compile error (`Fixed` not
/// implemented), never wrong bytes.
fn is_fixed_type(ty: &syn::Type) -> bool {
    let syn::Type::Path(tp) = ty else {
        return false;
    };
    if tp.qself.is_some() {
        return false;
    }
    let segments = &tp.path.segments;
    let Some(last) = segments.last() else {
        return false;
    };
    if !matches!(last.arguments, syn::PathArguments::None) {
        return false;
    }
    let name = last.ident.to_string();
    if segments.len() == 1 && tp.path.leading_colon.is_none() {
        matches!(
            name.as_str(),
            "u8" | "i16" | "u16" | "i32" | "u32" | "i64" | "u64" | "f32" | "f64" | "bool"
        )
    } else {
        let parent = segments.iter().rev().nth(1);
        matches!(
            name.as_str(),
            "Vec3" | "Vec3fa" | "Angle" | "SkillId" | "SkillId32" | "Customize"
        ) && parent.is_some_and(|p| p.ident == "tera_packets")
    }
}
