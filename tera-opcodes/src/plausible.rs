//! How a value reads under a def, in bits: the log-odds that bytes a def
//! calls a float (or text) are one, against their being something else
//! (an integer, an id, part of a wider field) that the def misreads.
//!
//! Game floats are coordinates, speeds, rates and scales: zero, or between
//! 1e-4 and 1e7 in size. Other data read as a float is mostly a denormal
//! (a small integer's bits) or far out of that range: about one time in
//! ten it lands inside. So a float inside the range is about log2(0.95 /
//! 0.1) = 3 bits for the def, and one outside about log2(0.05 / 0.9) = -4.

/// Bits for a float the def reads.
pub(crate) fn float(v: f64) -> f64 {
    if v == 0.0 {
        0.0
    } else if (1e-4..=1e7).contains(&v.abs()) {
        3.0
    } else {
        -4.0
    }
}

/// Bits for a string the def reads: nothing for text, -2 a unit that no
/// game text holds (controls, private use, noncharacters), at most -16.
pub(crate) fn text(units: impl Iterator<Item = u16>) -> f64 {
    let odd = units
        .filter(|&u| matches!(u, 0x0001..=0x0008 | 0x000e..=0x001f | 0x007f..=0x009f | 0xe000..=0xf8ff | 0xfffe | 0xffff))
        .take(8)
        .count();
    -2.0 * odd as f64
}
