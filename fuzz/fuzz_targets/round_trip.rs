//! When arbitrary bytes decode as a packet, encoding the value and decoding
//! the result again gives the same value (compared by its bytes when it
//! holds a NaN, which is not equal to itself) and encoding that gives the
//! same bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tera_data::{ErrorKind, MAX_PACKET_LEN};

fuzz_target!(|data: &[u8]| {
    let Some((info, packet)) = tera_fuzz::split(data) else {
        return;
    };
    let Ok(first) = tera_fuzz::decode(info, packet) else {
        return;
    };
    let len = first.encoded_len();
    let bytes = match first.encode() {
        Ok(bytes) => bytes,
        // Elements that share bytes on the wire are written once each, so
        // the canonical encoding can outgrow the packet it came from.
        Err(e) => {
            assert!(
                matches!(e.kind(), ErrorKind::TooLarge { .. }),
                "{info:?}: {e}"
            );
            assert!(len > MAX_PACKET_LEN, "{info:?}: TooLarge at {len} bytes");
            return;
        }
    };
    assert_eq!(bytes.len(), len, "{info:?}: encoded_len");
    let second = match tera_fuzz::decode(info, &bytes) {
        Ok(p) => p,
        Err(e) => panic!("{info:?}: the encoding of a decoded packet does not decode: {e}"),
    };
    // A value holding NaN is not equal to itself: then only bytes compare.
    #[allow(clippy::eq_op)]
    let comparable = first == first;
    if comparable {
        assert_eq!(first, second, "{info:?}: value changed by a round trip");
    }
    let again = match second.encode() {
        Ok(b) => b,
        Err(e) => panic!("{info:?}: re-encoding failed: {e}"),
    };
    assert_eq!(bytes, again, "{info:?}: bytes not stable");
});
