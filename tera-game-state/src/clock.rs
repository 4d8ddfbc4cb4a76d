//! The wall clock game state reads (`Date.now()` in tera-game-state):
//! the system's, or one a test sets, so nothing has to sleep.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// Where game state reads the time, in milliseconds since the Unix epoch
/// (as JavaScript's `Date.now()`): the system clock by default, or a
/// [`ManualClock`].
#[derive(Debug, Clone, Default)]
pub struct Clock {
    manual: Option<Arc<AtomicI64>>,
}

impl Clock {
    /// The system's wall clock.
    #[must_use]
    pub fn system() -> Self {
        Clock { manual: None }
    }

    /// Milliseconds since the Unix epoch now (0 if the system clock is set
    /// before it).
    #[must_use]
    pub fn now_ms(&self) -> i64 {
        match &self.manual {
            Some(ms) => ms.load(Ordering::Relaxed),
            None => SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX)),
        }
    }
}

/// A clock that moves only when told: give [`ManualClock::clock`] to
/// [`GameConfig::clock`](crate::GameConfig::clock) and set the time
/// between packets.
///
/// ```
/// use tera_game_state::ManualClock;
///
/// let manual = ManualClock::new(1_700_000_000_000);
/// let clock = manual.clock();
/// manual.advance(1_500);
/// assert_eq!(clock.now_ms(), 1_700_000_001_500);
/// ```
#[derive(Debug, Clone)]
pub struct ManualClock {
    ms: Arc<AtomicI64>,
}

impl ManualClock {
    /// A clock at `ms` milliseconds since the Unix epoch.
    #[must_use]
    pub fn new(ms: i64) -> Self {
        ManualClock {
            ms: Arc::new(AtomicI64::new(ms)),
        }
    }

    /// The [`Clock`] that reads this one.
    #[must_use]
    pub fn clock(&self) -> Clock {
        Clock {
            manual: Some(Arc::clone(&self.ms)),
        }
    }

    /// Sets the time.
    pub fn set(&self, ms: i64) {
        self.ms.store(ms, Ordering::Relaxed);
    }

    /// Moves the time by `ms` (saturating).
    pub fn advance(&self, ms: i64) {
        let _ = self
            .ms
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |t| {
                Some(t.saturating_add(ms))
            });
    }
}
