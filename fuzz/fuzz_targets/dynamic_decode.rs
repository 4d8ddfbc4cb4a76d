//! Differential: arbitrary bytes decoded as a compiled-in packet type and
//! through `tera-dynamic` with the same def loaded at run time. Both accept
//! or both reject (with the same error kind at the same byte); an accepted
//! packet gives the same JSON (the dynamic record's, view's and view's in a
//! buffer kept from input to input) and encodes to the same bytes both ways.
#![no_main]

use std::cell::RefCell;

use libfuzzer_sys::fuzz_target;
use tera_dynamic::ViewBuf;

thread_local! {
    static KEPT: RefCell<ViewBuf> = RefCell::new(ViewBuf::new());
}

fuzz_target!(|data: &[u8]| {
    let Some((info, packet)) = tera_fuzz::split(data) else {
        return;
    };
    let catalog = tera_fuzz::dynamic::catalog();
    let schema = match info.platform {
        Some(platform) => catalog.get_platform(info.name, info.version, platform),
        None => catalog.get(info.name, info.version),
    };
    let Some(schema) = schema else {
        panic!("{info:?} is compiled in but did not load at run time");
    };
    let compiled = tera_fuzz::decode(info, packet);
    let dynamic = schema.decode(packet);
    // A view in a buffer kept from packet to packet reads the same.
    KEPT.with_borrow_mut(|kept| {
        let view = schema
            .view_in(packet, kept)
            .map(|v| serde_json::to_value(&v).ok());
        let record = dynamic.as_ref().map(|d| serde_json::to_value(d).ok());
        assert_eq!(
            view,
            record.map_err(Clone::clone),
            "{info:?}: view_in differs"
        );
    });
    match (&compiled, &dynamic) {
        (Ok(c), Ok(d)) => {
            let (c_json, d_json) = (serde_json::to_value(c), serde_json::to_value(d));
            assert_eq!(
                c_json.ok(),
                d_json.as_ref().ok().cloned(),
                "{info:?}: the values differ"
            );
            let view = schema.view(packet).map(|v| serde_json::to_value(&v).ok());
            assert_eq!(view, Ok(d_json.ok()), "{info:?}: the view differs");
            let c_bytes = c.encode().map_err(|e| e.kind());
            let d_bytes = schema.encode(d, 0).map_err(|e| match e.into_kind() {
                tera_dynamic::EncodeErrorKind::Wire(e) => e.kind(),
                other => panic!("{info:?}: a decoded value does not fit its def: {other}"),
            });
            assert_eq!(c_bytes, d_bytes, "{info:?}: the encodings differ");
        }
        (Err(c), Err(d)) => {
            let tera_data::AnyError::Decode(c) = c else {
                panic!("{info:?}: {c}");
            };
            assert_eq!((c.kind(), c.offset()), (d.kind(), d.offset()), "{info:?}");
        }
        _ => panic!(
            "{info:?}: compiled {:?}, dynamic {:?}",
            compiled.as_ref().map(|_| "Ok"),
            dynamic.as_ref().map(|_| "Ok")
        ),
    }
});
