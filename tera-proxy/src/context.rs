//! What every mod of a connection shares (as pingora's per-session `CTX`):
//! values put in once per connection by the proxy's
//! [`ConnectionSetup`]s, before any mod is installed, and read by type
//! from any mod's [`Setup`](crate::Setup) or hook [`Event`](crate::Event).

use std::any::{Any, TypeId, type_name};
use std::collections::HashMap;
use std::sync::Arc;

use crate::error::HookError;
use crate::relay::Connection;

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

/// What a proxy does on each new connection before its mods are installed:
/// put shared values in the connection's [`ConnectionContext`], then
/// install mods and hooks that serve every mod (a game state's feeder).
///
/// A closure `Fn(&mut ConnectionContext)` is a setup that only puts
/// values in.
///
/// ```
/// use std::sync::{Arc, Mutex};
/// use tera_proxy::{Connection, ConnectionContext, ConnectionSetup, ProxyConfig};
///
/// /// Lines said on the connection, shared by its mods.
/// #[derive(Clone, Default)]
/// struct Transcript(Arc<Mutex<Vec<String>>>);
///
/// let setup = |context: &mut ConnectionContext| {
///     context.insert(Transcript::default());
/// };
/// let connection = Connection::set_up(ProxyConfig::default(), &[&setup])?;
/// assert!(connection.context().get::<Transcript>().is_some());
/// # Ok::<(), tera_proxy::HookError>(())
/// ```
pub trait ConnectionSetup: Send + Sync + 'static {
    /// Puts this setup's values in the connection's context (before any
    /// mod is installed).
    fn context(&self, context: &mut ConnectionContext);

    /// Installs this setup's mods and hooks, the context complete. Default:
    /// none.
    ///
    /// # Errors
    /// A mod or hook that does not install; the proxy logs it and goes on
    /// with the connection.
    fn install(&self, connection: &Connection) -> Result<(), HookError> {
        let _ = connection;
        Ok(())
    }
}

impl<F: Fn(&mut ConnectionContext) + Send + Sync + 'static> ConnectionSetup for F {
    fn context(&self, context: &mut ConnectionContext) {
        self(context);
    }
}

/// A list of setups, as a proxy keeps them.
pub(crate) type Setups = Vec<Arc<dyn ConnectionSetup>>;
