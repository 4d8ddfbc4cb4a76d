//! Tree generators and a test-side reader of the file layout.
#![allow(dead_code)]

use tera_datacenter::{Arch, OwnedElement, OwnedValue, Version, WriteOptions};

/// xorshift64*: deterministic and dependency-free.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

pub const WORDS: &[&str] = &[
    "",
    "a",
    "Area",
    "Velika",
    "Élan",
    "Ñandú",
    "ÿÿ",
    "東京",
    "Пример",
    "😀🎉",
    "x y & <z> \"q\"",
    "line\nbreak",
    "tab\t",
];

pub fn value(rng: &mut Rng) -> OwnedValue {
    match rng.below(4) {
        0 => OwnedValue::Int(rng.next() as i32),
        1 => OwnedValue::Bool(rng.below(2) == 1),
        2 => OwnedValue::Float(f32::from_bits(rng.next() as u32 & 0x7f7f_ffff)),
        _ => {
            let mut s = String::new();
            for _ in 0..rng.below(4) {
                s.push_str(WORDS[rng.below(WORDS.len() as u64) as usize]);
            }
            OwnedValue::Str(s)
        }
    }
}

/// A random tree of about `n` elements below the root, names from a small
/// set so that siblings share names.
pub fn tree(seed: u64, n: usize) -> OwnedElement {
    let mut rng = Rng(seed | 1);
    let mut flat: Vec<OwnedElement> = Vec::with_capacity(n);
    for i in 0..n {
        let mut e = OwnedElement::new(format!("E{}", rng.below(12)));
        for a in 0..rng.below(5) {
            e.attributes
                .push((format!("attr{a}_{}", rng.below(3)), value(&mut rng)));
        }
        e.attributes.dedup_by(|a, b| a.0 == b.0);
        if rng.below(4) == 0 {
            e.attributes
                .push(("__value__".into(), OwnedValue::Str(format!("text {i} ÄÖ"))));
        }
        flat.push(e);
    }
    // Attach each element to an earlier one (or the root): random shapes.
    let mut parents: Vec<Option<usize>> = (0..n)
        .map(|i| {
            if i == 0 {
                None
            } else {
                Some(rng.below(i as u64 + 1) as usize)
            }
        })
        .collect();
    for p in parents.iter_mut() {
        if rng.below(5) == 0 {
            *p = None;
        }
    }
    let mut kids: Vec<Vec<OwnedElement>> = (0..n).map(|_| Vec::new()).collect();
    let mut roots = Vec::new();
    for i in (0..n).rev() {
        let mut e = std::mem::take(&mut flat[i]);
        e.children = std::mem::take(&mut kids[i]);
        e.children.reverse();
        match parents[i] {
            Some(p) if p < i => kids[p].push(e),
            _ => roots.push(e),
        }
    }
    roots.reverse();
    OwnedElement::root(roots)
}

pub fn all_options() -> Vec<WriteOptions> {
    let mut v = Vec::new();
    for arch in [Arch::X64, Arch::X86] {
        for version in [Version::V6, Version::V3] {
            for dedup in [true, false] {
                v.push(WriteOptions {
                    arch,
                    version,
                    revision: 387463,
                    timestamp: -1.0,
                    dedup,
                });
            }
        }
    }
    v
}

/// Offsets of a string table, read independently of the crate.
pub struct TableAt {
    pub buckets: Vec<(usize, usize)>,
    pub addresses: usize,
}

pub struct LayoutAt {
    pub values: TableAt,
    pub names: TableAt,
    pub footer: usize,
}

fn u32_at(b: &[u8], o: usize) -> usize {
    u32::from_le_bytes(b[o..o + 4].try_into().unwrap()) as usize
}

pub fn layout(b: &[u8], arch: Arch) -> LayoutAt {
    let mut o = if u32_at(b, 0) == 6 { 32 } else { 28 };
    o += 4 + 8 * u32_at(b, o);
    let (asz, nsz) = if arch == Arch::X64 { (12, 24) } else { (8, 16) };
    for size in [asz, nsz] {
        let n = u32_at(b, o);
        o += 4;
        for _ in 0..n {
            o += 8 + size * u32_at(b, o);
        }
    }
    let mut table = |count: usize| {
        let n = u32_at(b, o);
        o += 4;
        for _ in 0..n {
            o += 8 + 2 * u32_at(b, o);
        }
        let mut buckets = Vec::new();
        for _ in 0..count {
            let n = u32_at(b, o);
            buckets.push((o + 4, n));
            o += 4 + 16 * n;
        }
        let addresses = o;
        o += 4 + 4 * (u32_at(b, o) - 1);
        TableAt { buckets, addresses }
    };
    let values = table(1024);
    let names = table(512);
    LayoutAt {
        values,
        names,
        footer: o,
    }
}
