//! What every mod of a connection shares (as pingora's per-session `CTX`):
//! values put in once per connection by the proxy's
//! [`ConnectionSetup`](crate::ConnectionSetup)s, before any mod is
//! installed, and read by type from any mod's [`Setup`](crate::Setup) or
//! hook [`Event`](crate::Event).

use std::any::{Any, TypeId, type_name};
use std::collections::HashMap;

use crate::error::HookError;

/// A connection's shared values, one of each type: a game state handle, a
/// data center, anything a setup puts in for every mod of the connection.
///
/// The values are put in before the connection's first mod is installed
/// and do not change after (a value that changes is a handle with its own
/// lock, as a game state is).
///
/// ```
/// use tera_proxy::ConnectionContext;
///
/// #[derive(Clone, Debug, PartialEq)]
/// struct Region(&'static str);
///
/// let mut context = ConnectionContext::default();
/// context.insert(Region("EU"));
/// assert_eq!(context.get::<Region>(), Some(&Region("EU")));
/// assert_eq!(context.get::<u32>(), None);
/// ```
#[derive(Default)]
pub struct ConnectionContext {
    values: HashMap<TypeId, Box<dyn Any + Send + Sync>>,
}

impl core::fmt::Debug for ConnectionContext {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ConnectionContext")
            .field("values", &self.values.len())
            .finish()
    }
}

impl ConnectionContext {
    /// Puts `value` in; returns the value of its type it replaces.
    pub fn insert<T: Send + Sync + 'static>(&mut self, value: T) -> Option<T> {
        self.values
            .insert(TypeId::of::<T>(), Box::new(value))
            .and_then(|old| old.downcast().ok())
            .map(|old| *old)
    }

    /// The value of type `T`, if one was put in.
    #[must_use]
    pub fn get<T: 'static>(&self) -> Option<&T> {
        self.values
            .get(&TypeId::of::<T>())
            .and_then(|value| value.downcast_ref())
    }

    /// A clone of the value of type `T`, or
    /// [`HookError::MissingContext`] naming the type: what a mod's
    /// install asks for what it cannot do without.
    ///
    /// # Errors
    /// [`HookError::MissingContext`] when no value of type `T` was put in.
    pub fn need<T: Clone + 'static>(&self) -> Result<T, HookError> {
        self.get::<T>()
            .cloned()
            .ok_or(HookError::MissingContext(type_name::<T>()))
    }
}
