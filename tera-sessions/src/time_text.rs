//! A [`Timestamp`] as RFC 3339 text in UTC (`2026-11-27T22:28:21.5Z`),
//! as JSONL holds it.

use std::fmt;

use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::event::Timestamp;

impl Timestamp {
    /// Reads RFC 3339 text (any offset, any number of fraction digits up
    /// to nanoseconds).
    ///
    /// # Errors
    /// The text is not RFC 3339, or is outside the years 1678 to 2261
    /// that a `Timestamp` holds.
    pub fn parse_rfc3339(text: &str) -> Result<Timestamp, String> {
        let time = OffsetDateTime::parse(text, &Rfc3339)
            .map_err(|e| format!("`{text}` is not an RFC 3339 time: {e}"))?;
        i64::try_from(time.unix_timestamp_nanos())
            .map(Timestamp)
            .map_err(|_| format!("`{text}` is too far from 1970"))
    }
}

impl fmt::Display for Timestamp {
    /// RFC 3339 in UTC, with the fraction digits the time needs.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Ok(time) = OffsetDateTime::from_unix_timestamp_nanos(i128::from(self.0)) else {
            return write!(f, "{}ns", self.0);
        };
        match time.format(&Rfc3339) {
            Ok(text) => f.write_str(&text),
            Err(_) => write!(f, "{}ns", self.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trips_to_the_nanosecond() {
        for ns in [
            0,
            1,
            1_764_282_501_123_000_000,
            1_764_282_501_123_456_789,
            -5_000_000_123,
        ] {
            let text = Timestamp(ns).to_string();
            assert_eq!(Timestamp::parse_rfc3339(&text), Ok(Timestamp(ns)), "{text}");
        }
        assert_eq!(Timestamp(0).to_string(), "1970-01-01T00:00:00Z");
        assert_eq!(
            Timestamp(1_500_000_000).to_string(),
            "1970-01-01T00:00:01.5Z"
        );
        assert_eq!(
            Timestamp::parse_rfc3339("2026-11-27T23:28:21.5+01:00"),
            Timestamp::parse_rfc3339("2026-11-27T22:28:21.500Z")
        );
        assert!(Timestamp::parse_rfc3339("yesterday").is_err());
    }
}
