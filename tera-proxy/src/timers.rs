//! Timers, as tera-toolbox's `mod.setTimeout`, `setInterval` and
//! `clearTimeout`: run on the connection's task, handed their mod's state,
//! cleared when the mod or the connection goes.

use std::collections::{BTreeSet, HashMap};
use std::time::{Duration, Instant};

use crate::event::{CallFn, Event, Input, Key, NewTimer};
use crate::hooks::call_fn;
use crate::id::{Owner, TimerId};
use crate::verdict::Verdict;

/// The shortest period of an interval: a zero period would keep the
/// connection's task busy.
pub(crate) const MIN_PERIOD: Duration = Duration::from_millis(1);

/// A timeout's function: `f` runs once.
pub(crate) fn timeout_fn<M: 'static>(
    f: impl FnOnce(&mut M, &mut Event<'_, M>) + Send + 'static,
) -> CallFn<M> {
    let mut f = Some(f);
    call_fn(move |me: &mut M, event: &mut Event<'_, M>, _: Input<'_>| {
        if let Some(f) = f.take() {
            f(me, event);
        }
        Some((Verdict::Pass, None))
    })
}

/// An interval's function.
pub(crate) fn interval_fn<M: 'static>(
    mut f: impl FnMut(&mut M, &mut Event<'_, M>) + Send + 'static,
) -> CallFn<M> {
    call_fn(move |me: &mut M, event: &mut Event<'_, M>, _: Input<'_>| {
        f(me, event);
        Some((Verdict::Pass, None))
    })
}

impl<M: 'static> Event<'_, M> {
    /// Calls `f` with the mod's state once, after `delay`, on the
    /// connection's task (tera-toolbox's `mod.setTimeout`). Cleared if the
    /// mod or the connection goes first.
    pub fn set_timeout(
        &mut self,
        delay: Duration,
        f: impl FnOnce(&mut M, &mut Event<'_, M>) + Send + 'static,
    ) -> TimerId {
        self.add_timer(delay, None, timeout_fn(f))
    }

    /// Calls `f` with the mod's state every `period` (at least 1 ms), on
    /// the connection's task (tera-toolbox's `mod.setInterval`), until
    /// cleared or the mod or the connection goes.
    pub fn set_interval(
        &mut self,
        period: Duration,
        f: impl FnMut(&mut M, &mut Event<'_, M>) + Send + 'static,
    ) -> TimerId {
        let period = period.max(MIN_PERIOD);
        self.add_timer(period, Some(period), interval_fn(f))
    }

    /// Clears timer `id` (a timeout or an interval): it does not run again.
    /// Clearing a timer that has run or was cleared does nothing.
    pub fn clear_timer(&mut self, id: TimerId) {
        self.cx.changes.cleared.push(id);
    }

    fn add_timer(&mut self, delay: Duration, every: Option<Duration>, f: CallFn<M>) -> TimerId {
        let id = self.cx.scene.ids.timer();
        let key = self.fns.insert(f);
        self.cx.changes.timers.push(NewTimer {
            id,
            owner: self.cx.owner,
            key,
            delay,
            every,
        });
        id
    }
}

/// A timer waiting to run.
struct Timer {
    owner: Owner,
    key: Key,
    at: Instant,
    every: Option<Duration>,
}

/// A timer that is due: whose function to call, and whether it stays
/// (an interval) or goes (a timeout).
pub(crate) struct Due {
    pub(crate) id: TimerId,
    pub(crate) owner: Owner,
    pub(crate) key: Key,
    pub(crate) again: bool,
}

/// A connection's timers, by deadline.
#[derive(Default)]
pub(crate) struct Timers {
    queue: BTreeSet<(Instant, TimerId)>,
    timers: HashMap<TimerId, Timer>,
}

impl Timers {
    pub(crate) fn add(&mut self, timer: NewTimer, now: Instant) {
        let at = now + timer.delay;
        self.queue.insert((at, timer.id));
        self.timers.insert(
            timer.id,
            Timer {
                owner: timer.owner,
                key: timer.key,
                at,
                every: timer.every,
            },
        );
    }

    /// Removes timer `id`: its owner and function, if it was waiting.
    pub(crate) fn clear(&mut self, id: TimerId) -> Option<(Owner, Key)> {
        let timer = self.timers.remove(&id)?;
        self.queue.remove(&(timer.at, id));
        Some((timer.owner, timer.key))
    }

    /// Removes the timers of `owner` (its functions go with it).
    pub(crate) fn remove_owner(&mut self, owner: Owner) {
        let queue = &mut self.queue;
        self.timers.retain(|&id, timer| {
            let keep = timer.owner != owner;
            if !keep {
                queue.remove(&(timer.at, id));
            }
            keep
        });
    }

    /// When the next timer is due.
    pub(crate) fn next(&self) -> Option<Instant> {
        self.queue.first().map(|&(at, _)| at)
    }

    /// How many timers wait.
    pub(crate) fn len(&self) -> usize {
        self.timers.len()
    }

    /// The first timer due at `now`: a timeout leaves the queue, an
    /// interval is queued again one period later (or at `now`, if it fell
    /// behind by more than a period).
    pub(crate) fn pop_due(&mut self, now: Instant) -> Option<Due> {
        let &(at, id) = self.queue.first()?;
        if at > now {
            return None;
        }
        self.queue.pop_first();
        let timer = self.timers.get_mut(&id)?;
        let due = Due {
            id,
            owner: timer.owner,
            key: timer.key,
            again: timer.every.is_some(),
        };
        match timer.every {
            Some(every) => {
                timer.at = (at + every).max(now);
                self.queue.insert((timer.at, id));
            }
            None => {
                self.timers.remove(&id);
            }
        }
        Some(due)
    }
}
