//! Arbitrary bytes decoded as a diep.io message: the first byte's low bit
//! picks the side (0 serverbound, 1 clientbound), the rest is the message.
//! An error is fine (it must point inside the message or at its end); a
//! panic, hang or leak is not. A decoded message is walked in full (every
//! update field, a compressed message inflated under a small cap) and
//! printed as JSON.
#![no_main]

use diep_packets::Side;
use diep_packets::json;
use diep_packets::{Clientbound, FieldTable, Serverbound};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&side, msg)) = data.split_first() else {
        return;
    };
    let table = FieldTable::builtin();
    if side & 1 == 0 {
        match Serverbound::decode(msg) {
            Ok(m) => assert!(!json::serverbound_to_json(&m).is_null()),
            Err(e) => assert!(e.offset() <= msg.len()),
        }
    } else {
        match Clientbound::decode_with(msg, table) {
            Ok(Clientbound::Update(view)) => {
                let mut fields = 0usize;
                for u in view.upcreates() {
                    fields += u.fields().count();
                }
                assert!(fields < msg.len().max(1) * 10);
                assert_eq!(view.deletes().count(), view.delete_count() as usize);
            }
            Ok(Clientbound::Compressed(c)) => {
                if let Ok(inner) = c.inflate(1 << 16) {
                    let _ = json::decode(Side::Clientbound, &inner, table);
                }
            }
            Ok(_) => {}
            Err(e) => assert!(e.offset() <= msg.len()),
        }
        let _ = json::decode(Side::Clientbound, msg, table);
    }
});
