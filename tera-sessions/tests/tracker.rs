//! The tracker on scripted connections fed segment by segment: whole
//! sessions, both key generations, segments in order.

mod support;

use support::{Ends, packets_of, script, segments, track};
use tera_net::{Direction, KeyGeneration};
use tera_sessions::{EndReason, Event};

#[test]
fn a_whole_session_in_order_both_generations() {
    for generation in KeyGeneration::ALL {
        let s = script(7, generation, 300);
        let segs = segments(
            &s,
            Ends::new(1, 1000, 5000),
            1460,
            true,
            1_700_000_000_000_000_000,
        );
        let events = track(&segs);
        let Some(Event::Start(start)) = events.first() else {
            panic!("no start: {:?}", events.first());
        };
        assert_eq!(start.keys, Some(generation));
        assert_eq!(start.client, Some(Ends::new(1, 0, 0).client));
        for dir in [Direction::ClientToServer, Direction::ServerToClient] {
            assert_eq!(
                packets_of(&events, dir),
                s.sent(dir),
                "{generation:?} {dir}"
            );
        }
        assert!(!events.iter().any(|e| matches!(e, Event::Gap(_))));
        assert!(matches!(
            events.last(),
            Some(Event::End(e)) if e.reason == EndReason::Closed
        ));
    }
}
