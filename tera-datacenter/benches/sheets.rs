//! Sheets and `.dat` files: validating, packing and unpacking the shared
//! sheets subset (`../shared/dc-sheets/sheets`, or `TERA_DC_SHEETS`; the
//! whole arise-data set can be named there too), and compressing (at each
//! level) and decrypting the `.dat` of what they pack to. Without the
//! sheets it prints a notice and measures nothing.

#[path = "../tests/common/shared_sheets.rs"]
mod shared_sheets_dir;

use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use shared_sheets_dir::shared_sheets;
use tera_datacenter::sheets::{KeysNamespace, read_sheets, validate_sheets, write_sheets};
use tera_datacenter::{Compression, DatKey, DataCenter, WriteOptions, pack_with, unpack};

/// Bytes of the `.xml` and `.xsd` files below `dir`.
fn xml_bytes(dir: &Path) -> u64 {
    let mut total = 0;
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("a readable folder").flatten() {
            let path = e.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                total += e.metadata().map_or(0, |m| m.len());
            }
        }
    }
    total
}

fn benches(c: &mut Criterion) {
    let Some(dir) = shared_sheets("the sheets and .dat benches") else {
        return;
    };
    let nothing = |_: usize, _: usize| {};
    let dec = read_sheets(&dir, &nothing)
        .expect("the sheets read")
        .into_dec(&WriteOptions::default())
        .expect("the sheets pack");

    let mut g = c.benchmark_group("sheets");
    g.sample_size(10)
        .measurement_time(Duration::from_secs(10))
        .warm_up_time(Duration::from_secs(1));
    g.throughput(Throughput::Bytes(xml_bytes(&dir)));
    g.bench_function("validate", |b| {
        b.iter(|| validate_sheets(black_box(&dir), &nothing).unwrap())
    });
    g.bench_function("pack (read, check, lay out, serialize)", |b| {
        b.iter(|| {
            read_sheets(black_box(&dir), &nothing)
                .unwrap()
                .into_dec(&WriteOptions::default())
                .unwrap()
        })
    });
    let dc = DataCenter::parse(&dec).expect("opens");
    let out = tempfile::tempdir().expect("a temporary folder");
    g.bench_function("unpack (infer schemas, write sheets)", |b| {
        b.iter(|| write_sheets(&dc, out.path(), KeysNamespace::default(), &|_, _| {}).unwrap())
    });
    g.finish();

    let key = DatKey {
        key: *b"bench-key-16byte",
        iv: *b"bench-iv-16bytes",
    };
    let mut g = c.benchmark_group("dat");
    g.sample_size(10)
        .measurement_time(Duration::from_secs(10))
        .warm_up_time(Duration::from_secs(1));
    g.throughput(Throughput::Bytes(dec.len() as u64));
    for (name, compression) in [
        ("compress and encrypt: fastest", Compression::Fastest),
        ("compress and encrypt: default", Compression::Default),
        ("compress and encrypt: best", Compression::Best),
    ] {
        g.bench_function(name, |b| {
            b.iter(|| pack_with(black_box(&dec), &key, compression))
        });
    }
    let dat = pack_with(&dec, &key, Compression::Default);
    g.bench_function("decrypt and inflate", |b| {
        b.iter(|| unpack(black_box(&dat), &key).unwrap())
    });
    g.finish();
}

criterion_group!(group, benches);
criterion_main!(group);
