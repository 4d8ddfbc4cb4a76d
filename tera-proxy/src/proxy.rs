//! A proxy server: listens, connects each client to its server, installs
//! the mods on the connection and relays it, until stopped.

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;

use tokio::net::{TcpListener, TcpStream, ToSocketAddrs};
use tokio::task::JoinSet;

use crate::config::ProxyConfig;
use crate::context::ConnectionContext;
use crate::error::{HookError, ProxyError};
use crate::handle::ConnectionHandle;
use crate::mods::Mod;
use crate::relay::Connection;
use crate::setup::{ConnectionSetup, Setups};
use crate::stats::RelayStats;

type Install = Arc<dyn Fn(&Connection) -> Result<(), HookError> + Send + Sync>;
type OnConnection = Arc<dyn Fn(u64, &Connection) + Send + Sync>;
type OnClose = Arc<dyn Fn(u64, &ConnectionHandle, Result<RelayStats, ProxyError>) + Send + Sync>;

/// A proxy server: every client that connects is relayed to `server`
/// through a [`Connection`] with a new value of each mod.
///
/// ```no_run
/// use tera_data::packets::s_chat;
/// use tera_proxy::{MapSource, Mod, Proxy, ProxyConfig, Setup, Verdict};
///
/// #[derive(Default)]
/// struct Shout;
///
/// impl Mod for Shout {
///     const NAME: &'static str = "shout";
///     fn install(&mut self, setup: &mut Setup<Self>) -> Result<(), tera_proxy::HookError> {
///         setup.hook(Self::on::<s_chat::V4>(|_, _, chat| {
///             chat.message = chat.message.to_string().to_uppercase().into();
///             Verdict::Changed
///         }));
///         Ok(())
///     }
/// }
///
/// # async fn example() -> std::io::Result<()> {
/// let proxy = Proxy::new("127.0.0.1:9251")
///     .config(ProxyConfig { maps: MapSource::tera_data("tera-data"), ..ProxyConfig::default() })
///     .with_mod(Shout::default)
///     .bind("127.0.0.1:9250")
///     .await?;
/// proxy.run_until(std::future::pending()).await
/// # }
/// ```
#[derive(Clone)]
pub struct Proxy {
    server: String,
    config: ProxyConfig,
    setups: Setups,
    mods: Vec<Install>,
    on_connection: Option<OnConnection>,
    on_close: Option<OnClose>,
}

impl core::fmt::Debug for Proxy {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Proxy")
            .field("server", &self.server)
            .field("config", &self.config)
            .field("setups", &self.setups.len())
            .field("mods", &self.mods.len())
            .finish_non_exhaustive()
    }
}

impl Proxy {
    /// A proxy to the game server at `server` (`host:port`), with the
    /// default [`ProxyConfig`] and no mods.
    pub fn new(server: impl Into<String>) -> Proxy {
        Proxy {
            server: server.into(),
            config: ProxyConfig::default(),
            setups: Vec::new(),
            mods: Vec::new(),
            on_connection: None,
            on_close: None,
        }
    }

    /// How each connection is relayed.
    #[must_use]
    pub fn config(mut self, config: ProxyConfig) -> Proxy {
        self.config = config;
        self
    }

    /// Runs `setup` on each connection before its mods are installed: the
    /// values it puts in the connection's [`ConnectionContext`] are
    /// every mod's (`setup.need::<T>()` at install, `event.context::<T>()`
    /// in hooks), and the mods it installs come first. Setups run in the
    /// order they were added.
    #[must_use]
    pub fn with_setup(mut self, setup: impl ConnectionSetup) -> Proxy {
        self.setups.push(Arc::new(setup));
        self
    }

    /// Installs a new value of a mod, made by `factory`, on each
    /// connection. A mod that fails to install is logged and left out;
    /// the connection goes on.
    #[must_use]
    pub fn with_mod<M: Mod>(mut self, factory: impl Fn() -> M + Send + Sync + 'static) -> Proxy {
        self.mods.push(Arc::new(move |connection: &Connection| {
            connection.add_mod(factory()).map(drop)
        }));
        self
    }

    /// Installs a mod made by `factory` from each connection's context
    /// (after the setups filled it): a mod that keeps a value of the
    /// context, such as the connection's game state, gets it when made,
    /// with no placeholder to replace at install. A factory's error (a
    /// value missing, [`ConnectionContext::need`]) is an install that
    /// failed: logged, the mod left out.
    ///
    /// ```no_run
    /// use tera_proxy::{ConnectionContext, HookError, Mod, Proxy, Setup};
    ///
    /// #[derive(Clone)]
    /// struct Greeting(String);
    ///
    /// struct Greeter {
    ///     greeting: Greeting,
    /// }
    ///
    /// impl Mod for Greeter {
    ///     const NAME: &'static str = "greeter";
    ///     fn install(&mut self, _: &mut Setup<Self>) -> Result<(), HookError> {
    ///         Ok(())
    ///     }
    /// }
    ///
    /// let proxy = Proxy::new("127.0.0.1:9251")
    ///     .with_setup(|context: &mut ConnectionContext| {
    ///         context.insert(Greeting("hi".into()));
    ///     })
    ///     .with_mod_from(|context| Ok(Greeter { greeting: context.need()? }));
    /// # let _ = proxy;
    /// ```
    #[must_use]
    pub fn with_mod_from<M: Mod>(
        mut self,
        factory: impl Fn(&ConnectionContext) -> Result<M, HookError> + Send + Sync + 'static,
    ) -> Proxy {
        self.mods.push(Arc::new(move |connection: &Connection| {
            connection.add_mod(factory(connection.context())?).map(drop)
        }));
        self
    }

    /// Calls `f` with each new connection (its number from 1, and the
    /// connection, mods installed) before it is relayed: to add hooks of
    /// its own.
    #[must_use]
    pub fn on_connection(mut self, f: impl Fn(u64, &Connection) + Send + Sync + 'static) -> Proxy {
        self.on_connection = Some(Arc::new(f));
        self
    }

    /// Calls `f` when a connection ends, with how it ended (by default the
    /// end is logged).
    #[must_use]
    pub fn on_close(
        mut self,
        f: impl Fn(u64, &ConnectionHandle, Result<RelayStats, ProxyError>) + Send + Sync + 'static,
    ) -> Proxy {
        self.on_close = Some(Arc::new(f));
        self
    }

    /// Listens on `addr`.
    ///
    /// # Errors
    /// The error of binding.
    pub async fn bind(self, addr: impl ToSocketAddrs) -> io::Result<Listening> {
        Ok(Listening {
            listener: TcpListener::bind(addr).await?,
            proxy: Arc::new(self),
        })
    }

    async fn relay(&self, number: u64, client: TcpStream) {
        let server = match TcpStream::connect(&self.server).await {
            Ok(server) => server,
            Err(e) => {
                tracing::warn!(connection = number, server = %self.server, error = %e, "cannot connect to the server");
                return;
            }
        };
        let mut context = ConnectionContext::default();
        for setup in &self.setups {
            setup.context(&mut context);
        }
        let connection = Connection::with_context(self.config.clone(), context);
        for setup in &self.setups {
            if let Err(e) = setup.install(&connection) {
                tracing::warn!(connection = number, error = %e, "a connection setup did not install");
            }
        }
        for install in &self.mods {
            if let Err(e) = install(&connection) {
                tracing::warn!(connection = number, error = %e, "a mod was not installed");
            }
        }
        if let Some(f) = &self.on_connection {
            f(number, &connection);
        }
        let handle = connection.handle();
        let result = connection.run(client, server).await;
        match &self.on_close {
            Some(f) => f(number, &handle, result),
            None => match result {
                Ok(stats) => tracing::info!(connection = number, ?stats, "connection closed"),
                Err(e) => tracing::warn!(connection = number, error = %e, "connection failed"),
            },
        }
    }
}

/// A [`Proxy`] bound to its address.
#[derive(Debug)]
pub struct Listening {
    listener: TcpListener,
    proxy: Arc<Proxy>,
}

impl Listening {
    /// The address it listens on.
    ///
    /// # Errors
    /// The socket's error.
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Accepts and relays clients until `stop` completes; then stops
    /// accepting and ends the connections still open.
    ///
    /// # Errors
    /// An error of accepting.
    pub async fn run_until(self, stop: impl Future<Output = ()>) -> io::Result<()> {
        let mut connections = JoinSet::new();
        let mut number = 0;
        tokio::pin!(stop);
        loop {
            tokio::select! {
                () = &mut stop => break,
                accepted = self.listener.accept() => {
                    let (client, _) = accepted?;
                    number += 1;
                    let proxy = Arc::clone(&self.proxy);
                    connections.spawn(async move { proxy.relay(number, client).await });
                }
                Some(_) = connections.join_next(), if !connections.is_empty() => {}
            }
        }
        connections.shutdown().await;
        Ok(())
    }
}
