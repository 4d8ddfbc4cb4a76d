//! What a proxy runs on each new connection before its mods: the setups
//! that fill the connection's [`ConnectionContext`] and install the mods
//! every other mod relies on.

use std::sync::Arc;

use crate::config::ProxyConfig;
use crate::context::ConnectionContext;
use crate::error::HookError;
use crate::relay::Connection;

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

impl Connection {
    /// A connection set up by `setups`, in order: each puts its values in
    /// the context, then each installs its mods and hooks (as a
    /// [`Proxy::with_setup`](crate::Proxy::with_setup) does on every
    /// connection).
    ///
    /// # Errors
    /// The first setup that fails to install.
    pub fn set_up(
        config: ProxyConfig,
        setups: &[&dyn ConnectionSetup],
    ) -> Result<Connection, HookError> {
        let mut context = ConnectionContext::default();
        for setup in setups {
            setup.context(&mut context);
        }
        let connection = Connection::with_context(config, context);
        for setup in setups {
            setup.install(&connection)?;
        }
        Ok(connection)
    }
}
