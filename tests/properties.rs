//! Random values of every compiled-in packet type (`AnyPacket::arbitrary_as`,
//! feature `arbitrary`): each encodes, decodes back to the same value and
//! encodes to the same bytes again.
//!
//! Built from the real corpus (`TERA_DATA_DIR`) and the synthetic defs
//! (`TERA_EXTRA_DEFS`) this covers all 836 corpus types and the 9 synthetic
//! ones; otherwise the project's own defs. `PROPERTY_CASES` sets the number
//! of cases a type (default 60).

use std::path::PathBuf;

use arbitrary::Unstructured;
use tera_data::{AnyPacket, ErrorKind, MAX_PACKET_LEN, PACKETS, PacketInfo};

const DEFAULT_CASES: u64 = 60;

/// Input sizes for `Unstructured`, cycled through by case: from nothing
/// (all defaults) to enough for long arrays of long strings.
const SIZES: [usize; 5] = [0, 16, 96, 600, 4000];

/// Every `HUGE_EVERY`th case of a variable-size type gets `HUGE` bytes of
/// input, enough to build packets over the 65535-byte limit.
const HUGE_EVERY: u64 = 20;
const HUGE: usize = 100_000;

/// splitmix64: reproducible input bytes without a dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// The input of one case. `arbitrary` continues a list while the next byte
/// is odd, so uniform bytes give lists of about one element; the biased
/// cases set the low bit of most bytes to reach long lists and strings.
fn input(info: &PacketInfo, seed: u64, case: u64) -> Vec<u8> {
    let mut rng = Rng(seed ^ case.wrapping_mul(0x2545_f491_4f6c_dd1d));
    let huge = info.fixed_len.is_none() && case % HUGE_EVERY == HUGE_EVERY - 1;
    let (len, odd_per_16) = if huge {
        (HUGE, 15)
    } else {
        let len = SIZES[(case % SIZES.len() as u64) as usize];
        (len, [0, 12, 15][(case / SIZES.len() as u64 % 3) as usize])
    };
    let mut out = Vec::with_capacity(len + 4);
    while out.len() < len {
        // Four bytes from the low half, their bias from the high half.
        let [b0, b1, b2, b3, c0, c1, c2, c3] = rng.next().to_le_bytes();
        for (byte, coin) in [(b0, c0), (b1, c1), (b2, c2), (b3, c3)] {
            out.push(if coin % 16 < odd_per_16 {
                byte | 1
            } else {
                byte
            });
        }
    }
    out.truncate(len);
    out
}

#[derive(Default, Debug)]
struct Tally {
    types: usize,
    cases: u64,
    too_large: u64,
    with_nan: u64,
    max_len: usize,
}

/// One case of one type; `Err` describes the failure.
fn check(info: &PacketInfo, data: &[u8], tally: &mut Tally) -> Result<(), String> {
    let mut u = Unstructured::new(data);
    let value = match AnyPacket::arbitrary_as(info.name, info.version, &mut u) {
        Some(Ok(value)) => value,
        Some(Err(e)) => return Err(format!("arbitrary failed: {e}")),
        None => return Err("arbitrary_as does not know the type".into()),
    };
    let len = value.encoded_len();
    let bytes = match value.encode() {
        Ok(bytes) => bytes,
        Err(e) if matches!(e.kind(), ErrorKind::TooLarge { .. }) && len > MAX_PACKET_LEN => {
            tally.too_large += 1;
            return Ok(());
        }
        Err(e) => return Err(format!("encode ({len} bytes): {e}")),
    };
    if bytes.len() != len {
        return Err(format!("encoded_len {len}, encoded {}", bytes.len()));
    }
    tally.max_len = tally.max_len.max(len);
    let decoded = AnyPacket::decode(info.name, info.version, &bytes)
        .map_err(|e| format!("decode of our own encoding: {e}\nvalue: {value:?}"))?;
    // NaN is not equal to itself: such values compare by their bytes only.
    #[allow(clippy::eq_op)]
    if value == value {
        if decoded != value {
            return Err(format!(
                "round trip changed the value:\n{value:?}\n{decoded:?}"
            ));
        }
    } else {
        tally.with_nan += 1;
    }
    let again = decoded.encode().map_err(|e| format!("re-encode: {e}"))?;
    if again != bytes {
        return Err("re-encoding the decoded value changed the bytes".into());
    }
    Ok(())
}

#[test]
fn every_packet_type_round_trips_random_values() {
    let cases: u64 = std::env::var("PROPERTY_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(DEFAULT_CASES);
    let mut tally = Tally::default();
    let mut failures = Vec::new();
    for (index, info) in PACKETS.iter().enumerate() {
        if info.platform.is_some() {
            continue;
        }
        tally.types += 1;
        for case in 0..cases {
            let data = input(info, index as u64, case);
            tally.cases += 1;
            if let Err(e) = check(info, &data, &mut tally) {
                failures.push(format!("{}.{} case {case}: {e}", info.name, info.version));
                break;
            }
        }
    }
    eprintln!("{tally:?}");
    assert!(
        failures.is_empty(),
        "{} types fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // Large inputs must reach both ends: packets over the limit and NaN.
    if tally.types > 100 {
        assert!(tally.too_large > 0 && tally.with_nan > 0, "{tally:?}");
    }
    assert_eq!(tally.types, expected_types(), "types covered");
}

/// The number of defs the crate was built from: every `.def` file of the
/// corpus and the extra folders when `TERA_DATA_DIR` is set, else the
/// generated list itself (the own defs).
fn expected_types() -> usize {
    let Some(data) = std::env::var_os("TERA_DATA_DIR") else {
        eprintln!("TERA_DATA_DIR is not set: checked the project's own defs only");
        return PACKETS.len();
    };
    let mut dirs = vec![PathBuf::from(data).join("definitions")];
    if let Some(extra) = std::env::var_os("TERA_EXTRA_DEFS") {
        dirs.extend(std::env::split_paths(&extra));
    }
    dirs.iter()
        .flat_map(|dir| std::fs::read_dir(dir).unwrap())
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "def")
        })
        .count()
}

#[test]
fn arbitrary_as_knows_only_compiled_in_types() {
    let mut u = Unstructured::new(&[]);
    assert!(AnyPacket::arbitrary_as("NO_SUCH_PACKET", 1, &mut u).is_none());
    let info = PACKETS.first().expect("some packet is compiled in");
    assert!(AnyPacket::arbitrary_as(info.name, u32::MAX, &mut u).is_none());
    let value = AnyPacket::arbitrary_as(info.name, info.version, &mut u)
        .expect("known type")
        .expect("empty input gives the default value");
    assert_eq!((value.name(), value.version()), (info.name, info.version));
}
