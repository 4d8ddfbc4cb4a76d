//! TERA Arise world data: ZGD geometry (the walkable volumes of each cell of
//! a zone) and APD path graphs (nodes with up to 8 edges, indexed by square).
//!
//! Both formats are little-endian and Brotli-compressed. [`Zgd`] and [`Apd`]
//! read and write them; reading then writing gives the same decompressed
//! bytes.
//!
//! ```
//! use tera_world::{Apd, ApdNode, ApdZone};
//!
//! // Three nodes in a row: 0 -> 1 -> 2 (edges in direction slots 4 and 0).
//! let node = |x: f32, edges: &[(u8, u32)]| ApdNode::new([x, 0.0, 0.0], edges);
//! let apd = Apd::new(
//!     vec![node(0.0, &[(4, 1)]), node(16.0, &[(0, 0), (4, 2)]), node(32.0, &[(0, 1)])],
//!     vec![ApdZone::empty(0, 0)],
//! );
//! let bytes = apd.write(5);
//! let back = Apd::read(&bytes).unwrap();
//! assert_eq!(back, apd);
//! assert_eq!(back.find_path(0, 2).unwrap().nodes, vec![0, 1, 2]);
//! ```
#![warn(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

mod apd;
mod brotli_io;
mod error;
#[cfg(feature = "json")]
#[cfg_attr(docsrs, doc(cfg(feature = "json")))]
pub mod json;
mod path;
mod zgd;

pub use apd::{Apd, ApdNode, ApdZone, Square};
pub use brotli_io::{MAX_DECOMPRESSED, compress, decompress};
pub use error::WorldError;
pub use path::Path;
pub use zgd::{Volume, Zgd, ZoneId};

/// Squares along each side of a zone.
pub const SQUARES: usize = 120;
/// Cells along each side of a square.
pub const CELLS: usize = 8;
/// Width of a cell in game units.
pub const CELL_SIZE: f32 = 16.0;
/// Width of a zone in game units (120 squares of 8 cells of 16 units).
pub const ZONE_SIZE: f32 = (SQUARES * CELLS) as f32 * CELL_SIZE;
/// Game units per metre.
pub const UNITS_PER_METRE: f32 = 25.0;

/// Reads arbitrary bytes as a compressed ZGD and APD: must never panic.
pub fn fuzz_open(bytes: &[u8]) {
    if let Ok(z) = Zgd::from_decompressed(bytes) {
        let _ = z.volumes_at(100.0, 200.0);
        let _ = z.to_decompressed();
    }
    if let Ok(a) = Apd::from_decompressed(bytes) {
        let _ = a.to_decompressed();
        if a.nodes().len() > 1 {
            let _ = a.find_path(0, a.nodes().len() as u32 - 1);
        }
        for z in 0..a.zones().len() {
            let _ = a.nodes_in_square(z, 3, 4);
        }
    }
    let _ = Zgd::read(bytes);
    let _ = Apd::read(bytes);
}
