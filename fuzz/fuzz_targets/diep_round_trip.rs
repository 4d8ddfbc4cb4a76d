//! A decoded diep.io message (input as for `diep_decode`) encodes again,
//! and what it encodes to decodes to the same value and encodes to the same
//! bytes (the input itself may differ: a varint may be longer than needed).
//! Updates go through their owned form.
#![no_main]

use diep_packets::{Clientbound, FieldTable, Serverbound, Update, UpdateView};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&side, msg)) = data.split_first() else {
        return;
    };
    let table = FieldTable::builtin();
    if side & 1 == 0 {
        let Ok(m) = Serverbound::decode(msg) else {
            return;
        };
        let bytes = m.encode().expect("a decoded message encodes");
        assert_eq!(bytes.len(), m.encoded_len());
        let again = Serverbound::decode(&bytes).expect("an encoded message decodes");
        assert_eq!(again, m);
        assert_eq!(again.encode().expect("encodes"), bytes);
    } else {
        match Clientbound::decode_with(msg, table) {
            Ok(Clientbound::Update(view)) => {
                let owned = Update::from_view(&view);
                let bytes = owned.encode(table).expect("a decoded update encodes");
                let again = UpdateView::decode(&bytes, table).expect("an encoded update decodes");
                assert_eq!(Update::from_view(&again), owned);
                assert_eq!(owned.encode(table).expect("encodes"), bytes);
            }
            Ok(m) => {
                let bytes = m.encode().expect("a decoded message encodes");
                let again = Clientbound::decode_with(&bytes, table).expect("decodes");
                assert_eq!(again.encode().expect("encodes"), bytes);
                if !matches!(m, Clientbound::Compressed(_)) {
                    // Fixed-layout messages: bytes after a decode are canonical
                    // up to varint lengths, so only the values are compared.
                    assert_eq!(format!("{again:?}"), format!("{m:?}"));
                }
            }
            Err(_) => {}
        }
    }
});
