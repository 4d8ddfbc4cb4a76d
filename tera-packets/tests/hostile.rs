//! The catalogue of hostile packets (`hostile/catalogue.rs`), run on the
//! derived types. `tera-dynamic`'s tests run the same file and check that
//! the dynamic decoder rejects each packet in the same way.

#[path = "hostile/catalogue.rs"]
mod catalogue;

/// Here only the derived types are under test.
fn also_rejects(_name: &str, _bytes: &[u8], _generated: &tera_packets::Error) {}
