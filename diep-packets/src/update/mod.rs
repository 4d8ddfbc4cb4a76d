//! The Update message (clientbound id 0): deletions, creations and
//! updates of entities, driven by a [`FieldTable`](crate::FieldTable).

mod owned;
mod value;
mod view;

pub use owned::{FieldData, FieldEntry, Upcreate, Update};
pub use value::Value;
pub use view::{FieldValue, Fields, UpcreateKind, UpcreateView, Upcreates, UpdateView};
