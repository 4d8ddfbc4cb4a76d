//! A mod's value on a connection and what identifies it.

use std::any::{Any, TypeId};

use crate::id::ModId;

/// A mod installed on a connection, as its hooks know it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ModInfo {
    pub(crate) id: ModId,
    pub(crate) name: &'static str,
    pub(crate) state_type: TypeId,
}

/// A mod's value on a connection, with what its hooks check.
pub(crate) struct ModSlot {
    pub(crate) info: ModInfo,
    pub(crate) state: Box<dyn Any + Send>,
}

impl ModSlot {
    /// The slot of `state`, a mod of type `M` named `name`.
    pub(crate) fn new<M: Any + Send>(id: ModId, name: &'static str, state: M) -> ModSlot {
        ModSlot {
            info: ModInfo {
                id,
                name,
                state_type: TypeId::of::<M>(),
            },
            state: Box::new(state),
        }
    }
}
