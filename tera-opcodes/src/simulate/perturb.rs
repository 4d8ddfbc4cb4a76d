//! How far a simulated session strays from what discovery's rules and
//! evidence expect, as real sessions do: values drawn without looking at
//! the field names the evidence reads, bursts in another order,
//! consequences that happen only some of the time, packets no rule knows
//! among the others, and defs the patch changed (stale).

use std::collections::BTreeSet;

use rand::RngExt;
use serde_json::{Value as Json, json};
use tera_defs_front::Scalar;

use super::world::World;

/// How a session strays. [`Perturbation::none`] plays the rules as they
/// are written; [`Perturbation::real_like`] strays as real sessions do.
#[derive(Debug, Clone, PartialEq)]
pub struct Perturbation {
    /// Fields a scene does not set get values drawn without their names:
    /// the session's ids land in any field, floats span their type's range.
    pub independent_values: bool,
    /// The packets of a burst (the login's, entering a zone) come in an
    /// order shuffled within the burst.
    pub shuffle_bursts: bool,
    /// How often a consequence follows its cause (1 always).
    pub consequence_rate: f64,
    /// How often a scene is followed by a packet of a name no scene plays.
    pub unknown_packets: f64,
    /// Names whose packets the patch changed: each carries four bytes more
    /// than its def, so the def that was true does not fit.
    pub stale: BTreeSet<String>,
}

impl Perturbation {
    /// The rules as written.
    pub fn none() -> Self {
        Perturbation {
            independent_values: false,
            shuffle_bursts: false,
            consequence_rate: 1.0,
            unknown_packets: 0.0,
            stale: BTreeSet::new(),
        }
    }

    /// As real sessions stray: independent values, shuffled bursts,
    /// consequences 60% of the time, an unknown packet after one scene in
    /// three, and `stale` names.
    pub fn real_like(stale: BTreeSet<String>) -> Self {
        Perturbation {
            independent_values: true,
            shuffle_bursts: true,
            consequence_rate: 0.6,
            unknown_packets: 0.35,
            stale,
        }
    }
}

impl Default for Perturbation {
    fn default() -> Self {
        Perturbation::none()
    }
}

/// A scalar drawn without its field's name: zero often, small numbers,
/// any 32-bit value, or one of the session's ids (which real packets
/// carry in fields of every name).
pub(crate) fn scalar(s: Scalar, world: &mut World) -> Json {
    match s {
        Scalar::Bool => json!(world.rng.random_bool(0.3)),
        Scalar::Byte => json!(world.rng.random_range(0..=255u8)),
        Scalar::Int16 | Scalar::UInt16 => match world.rng.random_range(0..4) {
            0 | 1 => json!(0),
            2 => json!(world.rng.random_range(1..100u16)),
            _ => json!(world.rng.random_range(0..0x7fffu16)),
        },
        // Below 2^31: an `int32` field holds it too.
        Scalar::Int32 | Scalar::UInt32 => json!(int32(world) & 0x7fff_ffff),
        Scalar::Int64 | Scalar::UInt64 => {
            let v = match world.rng.random_range(0..10) {
                0..=2 => 0,
                3..=5 => world.someone(),
                6 => world.item_dbid(),
                7 => u64::from(int32(world)),
                _ => world.rng.random::<u64>() >> 1,
            };
            Json::String(v.to_string())
        }
        Scalar::Float | Scalar::Double => json!(float(world)),
        Scalar::Vec3 => {
            if world.rng.random_bool(0.3) {
                world.near_me(300.0)
            } else {
                json!({"x": float(world), "y": float(world), "z": float(world)})
            }
        }
        Scalar::Vec3fa => json!({"x": float(world), "y": float(world), "z": float(world)}),
        Scalar::Angle => json!(f64::from(world.rng.random_range(-3141..3141i32)) / 1000.0),
        Scalar::SkillId => json!({"raw": (world.rng.random::<u64>() >> 36).to_string()}),
        Scalar::SkillId32 => json!({"raw": (world.rng.random::<u32>() & 0x0fff_ffff).to_string()}),
        Scalar::Customize => json!({"raw": world.rng.random::<u64>().to_string()}),
    }
}

/// A 32-bit value: zero, small, any, or one of the session's ids.
fn int32(world: &mut World) -> u32 {
    match world.rng.random_range(0..10) {
        0..=3 => 0,
        4..=5 => world.rng.random_range(1..100),
        6 => world.rng.random_range(100..100_000),
        7 => world.me.player_id,
        8 => world.someone() as u32,
        _ => world.rng.random::<u32>() >> 1,
    }
}

/// A float over its type's range: zero, a game-sized value, or any finite
/// `f32` (a log-uniform magnitude from 1e-38 to 1e38, either sign).
fn float(world: &mut World) -> f64 {
    match world.rng.random_range(0..10) {
        0..=2 => 0.0,
        3..=5 => f64::from(world.rng.random_range(1..100_000u32)) / 100.0,
        _ => {
            let exponent = world.rng.random_range(-38.0..38.0f64);
            let sign = if world.rng.random_bool(0.5) {
                1.0
            } else {
                -1.0
            };
            // Rounded to an f32 as the wire holds it.
            f64::from((sign * 10f64.powf(exponent)) as f32)
        }
    }
}

/// Four bytes more than a stale def: the field the patch added at the end,
/// and the length header that counts it.
pub(crate) fn stale(bytes: &mut Vec<u8>, world: &mut World) {
    bytes.extend_from_slice(&(world.rng.random::<u32>() | 1).to_le_bytes());
    let len = u16::try_from(bytes.len()).unwrap_or(u16::MAX);
    bytes[..2].copy_from_slice(&len.to_le_bytes());
}

/// What a patch changed besides the opcodes: names whose def changed
/// (stale: the def discovery holds no longer fits) and names new in this
/// version (discovery holds no def for them), each a few of the names the
/// scenes play, drawn from `seed`.
#[derive(Debug, Clone, Default)]
pub struct PatchChanges {
    /// Names whose packets carry a field the def lacks.
    pub stale: BTreeSet<String>,
    /// Names discovery has no def for.
    pub new: BTreeSet<String>,
}

impl PatchChanges {
    /// `stale` and `new` names drawn from the names the scenes play (the
    /// fixed opcodes aside).
    pub fn draw(seed: u64, stale: usize, new: usize) -> PatchChanges {
        use rand::SeedableRng;
        use rand::seq::SliceRandom;
        let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(seed ^ 0x5eed_cafe);
        let mut names: Vec<&str> = super::script::PLAYED
            .iter()
            .copied()
            .filter(|n| !n.ends_with("CHECK_VERSION"))
            .collect();
        names.shuffle(&mut rng);
        let mut it = names.into_iter().map(str::to_owned);
        PatchChanges {
            stale: it.by_ref().take(stale).collect(),
            new: it.take(new).collect(),
        }
    }
}
