//! Mistakes collected across a whole struct, reported together (as serde's
//! `Ctxt` does), each at its own span.

/// The mistakes found so far.
#[derive(Default)]
pub struct Errors {
    first: Option<syn::Error>,
}

impl Errors {
    /// Records a mistake.
    pub fn push(&mut self, error: syn::Error) {
        match &mut self.first {
            Some(first) => first.combine(error),
            None => self.first = Some(error),
        }
    }

    /// Records every mistake of `other`.
    pub fn append(&mut self, other: Errors) {
        if let Some(error) = other.first {
            self.push(error);
        }
    }

    /// Records the mistake of `result`, if any, and gives its value.
    pub fn take<T>(&mut self, result: syn::Result<T>) -> Option<T> {
        result.map_err(|e| self.push(e)).ok()
    }

    /// Every mistake as one error, or `Ok` when there were none.
    pub fn finish(self) -> syn::Result<()> {
        self.first.map_or(Ok(()), Err)
    }
}
