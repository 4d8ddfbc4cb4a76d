//! Signals: typed values one part of a connection emits (game state's
//! events, say) and mods subscribe to, each subscriber called with its own
//! mod's state, as a hook is.

use std::sync::{Arc, Mutex, PoisonError};

use crate::event::{Call, Delivery, Event, Input};
use crate::hooks::{Hook, call_fn};
use crate::id::SignalId;
use crate::meta::{HookKind, HookMeta};
use crate::verdict::Verdict;

/// Values a connection's hooks emit, by connection: each emission is handed
/// to the subscribers of that connection only.
type Current<E> = Mutex<Vec<(u64, Arc<E>)>>;

/// A kind of value that hooks emit and mods subscribe to, with their
/// state: the way a crate built on the proxy (game state) gives mods events
/// of its own. The subscribers are hooks ([`Signal::hook`]), added as any
/// other hook of their mod, run by [order](Hook::order) once the hook that
/// emitted the value has returned, before the packet's next hook; a
/// subscriber that panics disables its mod, as a hook does.
///
/// One `Signal` may serve every connection (a `static` or a clone in each
/// mod): a value emitted on a connection reaches that connection's
/// subscribers only.
///
/// ```
/// use tera_data::packets::s_chat;
/// use tera_proxy::{HookError, Mod, Setup, Signal, Verdict};
///
/// /// Emits every chat line's author.
/// struct Authors {
///     spoke: Signal<String>,
/// }
///
/// impl Mod for Authors {
///     const NAME: &'static str = "authors";
///     fn install(&mut self, setup: &mut Setup<Self>) -> Result<(), HookError> {
///         setup.hook(Self::on::<s_chat::V4>(|me, event, chat| {
///             me.spoke.emit(event, chat.name.to_string());
///             Verdict::Pass
///         }).order(-10));
///         Ok(())
///     }
/// }
///
/// /// Counts them, in a mod of its own.
/// struct Count {
///     spoke: Signal<String>,
///     lines: u32,
/// }
///
/// impl Mod for Count {
///     const NAME: &'static str = "count";
///     fn install(&mut self, setup: &mut Setup<Self>) -> Result<(), HookError> {
///         setup.hook(self.spoke.hook(|me: &mut Count, _, author| {
///             me.lines += 1;
///             println!("{author} spoke ({} lines)", me.lines);
///         }));
///         Ok(())
///     }
/// }
///
/// let spoke = Signal::new();
/// let authors = Authors { spoke: spoke.clone() };
/// let count = Count { spoke, lines: 0 };
/// ```
pub struct Signal<E> {
    id: SignalId,
    current: Arc<Current<E>>,
}

impl<E> Clone for Signal<E> {
    fn clone(&self) -> Self {
        Signal {
            id: self.id,
            current: Arc::clone(&self.current),
        }
    }
}

impl<E> core::fmt::Debug for Signal<E> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Signal").field("id", &self.id).finish()
    }
}

impl<E: Send + Sync + 'static> Default for Signal<E> {
    fn default() -> Self {
        Signal::new()
    }
}

impl<E: Send + Sync + 'static> Signal<E> {
    /// A new signal, with no subscribers.
    #[must_use]
    pub fn new() -> Self {
        Signal {
            id: SignalId::next(),
            current: Arc::default(),
        }
    }

    /// The signal's id.
    #[must_use]
    pub fn id(&self) -> SignalId {
        self.id
    }

    /// Emits `value` to the connection's subscribers: they run once the
    /// calling hook has returned, before the packet's next hook, in their
    /// order. Their event is of the same packet.
    pub fn emit<M>(&self, event: &mut Event<'_, M>, value: E) {
        let delivery = Pending {
            current: Arc::clone(&self.current),
            connection: event.cx.scene.ids.connection(),
            value: Some(Arc::new(value)),
        };
        event.cx.changes.calls.push_back(Call::Signal {
            signal: self.id,
            value: Box::new(delivery),
        });
    }

    /// A subscriber of mod `M` (`()`: outside any mod): `f` gets the mod's
    /// state, the event of the packet whose hook emitted, and the value.
    /// Add it as any hook ([`Setup::hook`](crate::Setup::hook),
    /// [`Event::add_hook`], [`Connection::add_hook`](crate::Connection::add_hook));
    /// its [order](Hook::order) places it among the signal's subscribers.
    pub fn hook<M: 'static>(
        &self,
        mut f: impl FnMut(&mut M, &mut Event<'_, M>, &E) + Send + 'static,
    ) -> Hook<M> {
        let current = Arc::clone(&self.current);
        let call = call_fn(move |me: &mut M, event: &mut Event<'_, M>, _: Input<'_>| {
            let connection = event.cx.scene.ids.connection();
            let value = lock(&current)
                .iter()
                .find(|(c, _)| *c == connection)
                .map(|(_, value)| Arc::clone(value));
            if let Some(value) = value {
                f(me, event, &value);
            }
            Some((Verdict::Pass, None))
        });
        Hook::from_parts(HookMeta::new(None, HookKind::Signal(self.id)), call)
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// An emitted value on its way.
struct Pending<E> {
    current: Arc<Current<E>>,
    connection: u64,
    value: Option<Arc<E>>,
}

impl<E: Send + Sync> Delivery for Pending<E> {
    fn set(&mut self) {
        if let Some(value) = self.value.take() {
            let mut current = lock(&self.current);
            current.retain(|(c, _)| *c != self.connection);
            current.push((self.connection, value));
        }
    }

    fn clear(&mut self) {
        lock(&self.current).retain(|(c, _)| *c != self.connection);
    }
}
