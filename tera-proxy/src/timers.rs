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

/// The furthest a timer is set: a longer delay (`u64::MAX` ms, say) waits
/// this long instead of overflowing the clock. About 30 years, as tokio's
/// own "far future".
pub(crate) const FAR: Duration = Duration::from_secs(30 * 365 * 24 * 60 * 60);

/// `from + delay`, saturated at [`FAR`] from `from`: never past what the
/// clock and the runtime's timer can hold.
fn deadline(from: Instant, delay: Duration) -> Instant {
    from.checked_add(delay.min(FAR)).unwrap_or(from)
}

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
        let at = deadline(now, timer.delay);
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
    /// interval is queued again at its next due time after `now` (one
    /// period later, or, if it fell behind by more than a period, the first
    /// of its due times still ahead: the missed ones are skipped, so that
    /// it runs once in a pass).
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
                timer.at = next_after(at, every, now);
                self.queue.insert((timer.at, id));
            }
            None => {
                self.timers.remove(&id);
            }
        }
        Some(due)
    }
}

/// The first of `at + k * every` (k >= 1) after `now`: the next due time
/// of an interval last due at `at`.
fn next_after(at: Instant, every: Duration, now: Instant) -> Instant {
    let next = deadline(at, every);
    if next > now {
        return next;
    }
    let behind = now.saturating_duration_since(at).as_nanos();
    let periods = behind / every.as_nanos().max(1) + 1;
    let skip = u32::try_from(periods).map_or(FAR, |n| every.saturating_mul(n));
    deadline(at, skip).max(deadline(now, MIN_PERIOD))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::id::Owner;

    fn timer(id: u64, delay: Duration, every: Option<Duration>) -> NewTimer {
        NewTimer {
            id: TimerId(id),
            owner: Owner::Loose,
            key: Key(0),
            delay,
            every,
        }
    }

    /// Every timer due at `now`, as `fire_timers` takes them in one pass.
    fn pass(timers: &mut Timers, now: Instant) -> Vec<TimerId> {
        std::iter::from_fn(|| timers.pop_due(now).map(|due| due.id)).collect()
    }

    #[test]
    fn a_delay_past_the_clock_saturates() {
        let now = Instant::now();
        let mut timers = Timers::default();
        timers.add(timer(1, Duration::from_millis(u64::MAX), None), now);
        timers.add(timer(2, Duration::MAX, Some(Duration::MAX)), now);
        let next = timers.next().unwrap();
        assert_eq!(next, now + FAR);
        assert!(pass(&mut timers, now + Duration::from_secs(3600)).is_empty());
        assert_eq!(timers.len(), 2);
    }

    #[test]
    fn an_interval_that_fell_behind_runs_once_in_a_pass() {
        let start = Instant::now();
        let every = Duration::from_millis(10);
        let mut timers = Timers::default();
        timers.add(timer(1, every, Some(every)), start);
        // The task was held up 35 ms: due at 10, 20, 30; once now.
        let late = start + Duration::from_millis(35);
        assert_eq!(pass(&mut timers, late), vec![TimerId(1)]);
        assert_eq!(timers.next(), Some(start + Duration::from_millis(40)));
        // Exactly on a due time: once, and the next one period on.
        let on_time = start + Duration::from_millis(40);
        assert_eq!(pass(&mut timers, on_time), vec![TimerId(1)]);
        assert_eq!(timers.next(), Some(start + Duration::from_millis(50)));
        // Behind by exactly a period.
        let behind = start + Duration::from_millis(60);
        assert_eq!(pass(&mut timers, behind), vec![TimerId(1)]);
        assert_eq!(timers.next(), Some(start + Duration::from_millis(70)));
    }

    #[test]
    fn an_interval_of_the_longest_period_runs_once_and_waits() {
        let start = Instant::now();
        let mut timers = Timers::default();
        timers.add(timer(1, Duration::ZERO, Some(Duration::MAX)), start);
        assert_eq!(pass(&mut timers, start), vec![TimerId(1)]);
        assert_eq!(timers.next(), Some(start + FAR));
    }
}
