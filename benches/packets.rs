//! Criterion benches of the eight bench packets: (a) zero-copy decode,
//! (b) decode and visit every field, (c) encode of the decoded value into a
//! reused buffer, (d) encode of an owned value; the four hand-written codecs
//! side by side (`hand_*`).
//!
//! `TERA_DATA_DIR=/work/shared/tera-data cargo bench --bench packets`
//! (without the corpus compiled in, prints a notice and measures nothing).

mod common;
mod handwritten;

#[cfg(not(tera_corpus))]
fn main() {
    eprintln!("benches/packets: the crate was built without TERA_DATA_DIR; nothing to measure");
}

#[cfg(tera_corpus)]
fn main() {
    use common::ops::{self, hand};
    use common::types::{Family, with_family};
    use criterion::{Criterion, Throughput};
    use handwritten::{Hand, with_hand};
    use std::hint::black_box;
    use tera_data::Packet;

    let packets = match common::data::load() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("benches/packets: no bench packets ({e}); nothing to measure");
            return;
        }
    };
    let mut c = Criterion::default().configure_from_args();

    fn generated<F: Family>(c: &mut Criterion, bytes: &[u8]) {
        let mut g = c.benchmark_group(F::DEF);
        g.throughput(Throughput::Bytes(bytes.len() as u64));
        let mut buf = vec![0u8; 65536];
        g.bench_function("a_decode", |b| {
            b.iter(|| ops::decode::<F>(black_box(bytes)))
        });
        g.bench_function("b_visit", |b| b.iter(|| ops::visit::<F>(black_box(bytes))));
        let Ok(view) = F::P::decode(bytes) else {
            panic!("{} does not decode", F::DEF);
        };
        g.bench_function("c_encode", |b| {
            b.iter(|| ops::encode::<F>(black_box(&view), &mut buf))
        });
        let owned = ops::owned::<F>(bytes).expect("decodes");
        g.bench_function("d_encode_owned", |b| {
            b.iter(|| ops::encode_owned::<F>(black_box(&owned), &mut buf))
        });
        g.finish();
    }

    fn handwritten<H: Hand>(c: &mut Criterion, bytes: &[u8]) {
        use handwritten::Codec;
        let mut g = c.benchmark_group(H::DEF);
        g.throughput(Throughput::Bytes(bytes.len() as u64));
        let mut buf = vec![0u8; 65536];
        g.bench_function("hand_a_decode", |b| {
            b.iter(|| hand::decode::<H>(black_box(bytes)))
        });
        g.bench_function("hand_b_visit", |b| {
            b.iter(|| hand::visit::<H>(black_box(bytes)))
        });
        let Ok(view) = H::P::decode(bytes) else {
            panic!("{} does not decode by hand", H::DEF);
        };
        g.bench_function("hand_c_encode", |b| {
            b.iter(|| hand::encode::<H>(black_box(&view), &mut buf))
        });
        g.finish();
    }

    for p in &packets {
        with_family!(p.def.as_str(), F => generated::<F>(&mut c, &p.bytes), _ => {
            eprintln!("benches/packets: {} is not a known bench packet", p.def)
        });
        with_hand!(p.def.as_str(), H => handwritten::<H>(&mut c, &p.bytes), _ => ());
    }
    c.final_summary();
}
