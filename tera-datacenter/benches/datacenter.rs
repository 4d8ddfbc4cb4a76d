//! Elements read per second on a generated file of 1,001,001 elements,
//! opening cost, and export throughput (MB/s of output).

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tera_datacenter::{
    DataCenter, ExportOptions, Format, WriteOptions, bench_tree, export, walk_all, write_dec,
};

fn benches(c: &mut Criterion) {
    let bytes = write_dec(&bench_tree(1000, 1000), &WriteOptions::default()).expect("writes");
    let dc = DataCenter::parse(&bytes).expect("opens");
    let (elements, _) = walk_all(dc.root());
    assert_eq!(elements, 1_001_001);

    let mut g = c.benchmark_group("datacenter");
    g.sample_size(10)
        .measurement_time(Duration::from_secs(8))
        .warm_up_time(Duration::from_secs(1));
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.bench_function("open (checks every record)", |b| {
        b.iter(|| DataCenter::parse(black_box(&bytes)).unwrap())
    });
    g.throughput(Throughput::Elements(elements as u64));
    g.bench_function("walk: name + all attribute values", |b| {
        b.iter(|| walk_all(black_box(dc.root())))
    });
    for (name, format) in [("export xml", Format::Xml), ("export json", Format::Json)] {
        let options = ExportOptions {
            format,
            pretty: true,
        };
        let out = export(&dc.root(), &mut std::io::sink(), options, &mut |_| {}).unwrap();
        g.throughput(Throughput::Bytes(out.bytes));
        g.bench_function(name, |b| {
            b.iter(|| export(&dc.root(), &mut std::io::sink(), options, &mut |_| {}).unwrap())
        });
    }
    g.finish();
}

criterion_group!(group, benches);
criterion_main!(group);
