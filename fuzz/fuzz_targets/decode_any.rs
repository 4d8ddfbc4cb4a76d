//! Arbitrary bytes decoded as any compiled-in packet type: an error is fine,
//! a panic, hang or leak is not. A decoded packet is also visited in full
//! (Debug formats every field, iterating every array and string) and
//! encoded as it is and as an owned copy, to the same bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((info, packet)) = tera_fuzz::split(data) else {
        return;
    };
    if let Ok(decoded) = tera_fuzz::decode(info, packet) {
        assert_eq!(
            (decoded.name(), decoded.version()),
            (info.name, info.version)
        );
        // A decode validated everything: visiting and copying cannot fail.
        let text = format!("{decoded:?}");
        assert!(!text.is_empty());
        let owned = decoded.clone().into_owned();
        assert_eq!(owned.encoded_len(), decoded.encoded_len());
        // A view's elements are copied from the packet, an owned value's
        // written from their fields: the same bytes.
        assert_eq!(owned.encode().ok(), decoded.encode().ok());
    }
});
