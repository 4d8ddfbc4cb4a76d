//! Prints one markdown table of every figure: ns per packet for (a) decode,
//! (b) decode + visit (every string decoded to a new `String`), (b2) the
//! same with every string decoded into one reused `String`
//! (`Str::decode_into`), (c) encode of the decoded value, (d) encode of an
//! owned value; (e) dynamic decode to a view (`Schema::view`: every value
//! in one vector), (e2) dynamic decode to a record (`Schema::decode`: a
//! vector per record and array), (e3) dynamic decode to a view in a buffer
//! kept from packet to packet (`Schema::view_in`: no allocation) and (f)
//! dynamic encode of that record (`tera-dynamic`, the def loaded at run
//! time), and dynamic/generated;
//! the hand-written codecs; generated/hand-written; the speed-up over the
//! JS reference timed in the same run; and the time to load the whole
//! corpus (defs and maps: parse, validate, plan) at run time.
//!
//! ```text
//! TERA_DATA_DIR=/work/shared/tera-data cargo bench --bench table
//! ```
//!
//! The JS figures come from `node $TERA_DATA_DIR/../bench/js/bench.js`, run
//! before the Rust figures (about 70 s), or from the JSON lines it wrote
//! earlier in the session, named by `TERA_JS_FIGURES` (`none`: no JS
//! columns). The table's first line says which.
//!
//! Each cell is the median of `TABLE_RUNS` runs (default 5), each run the
//! median of 15 batches of ~2 ms; the range over the runs follows in
//! brackets. Generated and hand-written code are timed side by side, packet
//! by packet, in every run; gen/hand is the median of the per-run ratios.

mod common;
mod handwritten;

#[cfg(not(tera_corpus))]
fn main() {
    eprintln!("benches/table: the crate was built without TERA_DATA_DIR; nothing to measure");
}

#[cfg(tera_corpus)]
fn main() {
    table::main();
}

#[cfg(tera_corpus)]
mod table {
    use std::hint::black_box;
    use std::time::{Duration, Instant};

    use crate::common::data::{self, BenchPacket};
    use crate::common::js::{self, Js};
    use crate::common::ops::{self, hand};
    use crate::common::types::{Family, with_family};
    use crate::handwritten::{Codec, Hand, with_hand};
    use tera_data::Packet;
    use tera_dynamic::{Catalog, Schema, ViewBuf};

    const BATCH: Duration = Duration::from_millis(2);
    /// A JS figure whose max is more than this times its min is flagged.
    const NOISY: f64 = 1.5;
    const BATCHES: usize = 15;

    /// ns per call of `f`: the median of `BATCHES` batches of ~`BATCH`.
    fn time<T>(mut f: impl FnMut() -> T) -> f64 {
        let mut n = 1u64;
        loop {
            let t = Instant::now();
            for _ in 0..n {
                black_box(f());
            }
            if t.elapsed() >= BATCH / 4 {
                break;
            }
            n *= 2;
        }
        n *= 4;
        let mut samples: Vec<f64> = (0..BATCHES)
            .map(|_| {
                let t = Instant::now();
                for _ in 0..n {
                    black_box(f());
                }
                t.elapsed().as_nanos() as f64 / n as f64
            })
            .collect();
        median(&mut samples)
    }

    fn median(xs: &mut [f64]) -> f64 {
        xs.sort_by(f64::total_cmp);
        let m = xs.len() / 2;
        if xs.len() % 2 == 1 {
            xs[m]
        } else {
            (xs[m - 1] + xs[m]) / 2.0
        }
    }

    /// One run's figures of one packet: gen (a) (b) (c) (d), hand (a) (b)
    /// (c), gen (b2), dynamic (e) (f) (e2) (e3).
    type Run = [Option<f64>; 12];

    fn generated<F: Family>(bytes: &[u8], run: &mut Run) {
        let mut buf = vec![0u8; 65536];
        let view = F::P::decode(bytes).expect("bench packet decodes");
        let owned = ops::owned::<F>(bytes).expect("bench packet decodes");
        // Same bytes back, or the figures would mean nothing.
        let n = view.encode_into(&mut buf).expect("encodes");
        assert_eq!(&buf[..n], bytes, "{}: encode differs", F::DEF);
        run[0] = Some(time(|| ops::decode::<F>(black_box(bytes))));
        run[1] = Some(time(|| ops::visit::<F>(black_box(bytes))));
        run[2] = Some(time(|| ops::encode::<F>(black_box(&view), &mut buf)));
        run[3] = Some(time(|| ops::encode_owned::<F>(black_box(&owned), &mut buf)));
        let mut text = String::with_capacity(1024);
        run[7] = Some(time(|| ops::visit_reused::<F>(black_box(bytes), &mut text)));
    }

    fn dynamic(schema: &Schema, bytes: &[u8], run: &mut Run) {
        let mut buf = vec![0u8; 65536];
        let value = schema
            .decode(bytes)
            .expect("bench packet decodes dynamically");
        let n = schema
            .encode_into(&value, 0, &mut buf)
            .expect("encodes dynamically");
        assert_eq!(
            &buf[..n],
            bytes,
            "{}: dynamic encode differs",
            schema.name()
        );
        run[8] = Some(time(|| {
            schema.view(black_box(bytes)).map(|v| v.record().len())
        }));
        run[10] = Some(time(|| schema.decode(black_box(bytes)).map(|v| v.len())));
        let mut kept = ViewBuf::new();
        run[11] = Some(time(|| {
            schema
                .view_in(black_box(bytes), &mut kept)
                .map(|v| v.record().len())
        }));
        run[9] = Some(time(|| schema.encode_into(black_box(&value), 0, &mut buf)));
    }

    /// Loading every def and map of the corpus at run time: the median and
    /// lowest ms of `times` loads.
    fn load_time(root: &std::path::Path, times: usize) -> (f64, f64, usize) {
        let mut ms = Vec::new();
        let mut defs = 0;
        for _ in 0..times {
            let t = Instant::now();
            let mut catalog = Catalog::new();
            catalog.load_dir(root);
            ms.push(t.elapsed().as_secs_f64() * 1e3);
            defs = black_box(catalog).len();
        }
        let lowest = ms.iter().copied().fold(f64::INFINITY, f64::min);
        (median(&mut ms), lowest, defs)
    }

    fn handwritten<H: Hand>(bytes: &[u8], run: &mut Run) {
        let mut buf = vec![0u8; 65536];
        let view = H::P::decode(bytes).expect("bench packet decodes by hand");
        let n = view.encode_into(&mut buf).expect("encodes by hand");
        assert_eq!(&buf[..n], bytes, "{}: hand-written encode differs", H::DEF);
        run[4] = Some(time(|| hand::decode::<H>(black_box(bytes))));
        run[5] = Some(time(|| hand::visit::<H>(black_box(bytes))));
        run[6] = Some(time(|| hand::encode::<H>(black_box(&view), &mut buf)));
    }

    fn geomean(xs: impl Iterator<Item = f64>) -> Option<f64> {
        let (sum, n) = xs.fold((0.0, 0), |(s, n), x| (s + x.ln(), n + 1));
        (n > 0).then(|| (sum / n as f64).exp())
    }

    fn ns(x: Option<f64>) -> String {
        match x {
            Some(x) if x < 100.0 => format!("{x:.1}"),
            Some(x) => format!("{x:.0}"),
            None => "–".into(),
        }
    }

    fn ratio(x: Option<f64>) -> String {
        x.map_or("–".into(), |x| format!("{x:.2}"))
    }

    /// One decimal below 100x, so that a ratio just under a target (11.6x
    /// against 12x) is not shown as meeting it.
    fn speedup(x: Option<f64>) -> String {
        match x {
            Some(x) if x < 100.0 => format!("{x:.1}x"),
            Some(x) => format!("{x:.0}x"),
            None => "–".into(),
        }
    }

    pub fn main() {
        let packets = match data::load() {
            Ok(p) => p,
            Err(e) => {
                eprintln!("benches/table: no bench packets ({e}); nothing to measure");
                return;
            }
        };
        // `cargo bench` passes `--bench`; a filter argument is not supported.
        let runs: usize = std::env::var("TABLE_RUNS")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(5);
        // JS first: the Rust runs follow within minutes.
        let js = match (data::bench_dir(), data::defs_dir()) {
            (Some(bench), Some(defs)) => js::figures(&bench, &defs),
            _ => Err("TERA_DATA_DIR is not set".into()),
        };
        let notice = match &js {
            Ok(js) => js.source.clone(),
            Err(why) => format!("No JS figures ({why}): Rust columns only."),
        };
        eprintln!("benches/table: {notice}");
        let root = data::defs_dir().and_then(|d| d.parent().map(|p| p.to_path_buf()));
        let mut catalog = Catalog::new();
        if let Some(root) = &root {
            catalog.load_dir(root);
        }
        let mut all: Vec<Vec<Run>> = vec![Vec::new(); packets.len()];
        for r in 0..runs {
            eprintln!("run {}/{runs}", r + 1);
            for (p, runs_of_p) in packets.iter().zip(&mut all) {
                let mut run = [None; 12];
                with_family!(p.def.as_str(), F => generated::<F>(&p.bytes, &mut run), _ => ());
                with_hand!(p.def.as_str(), H => handwritten::<H>(&p.bytes, &mut run), _ => ());
                let (name, version) = p.def.rsplit_once('.').unwrap_or((p.def.as_str(), ""));
                if let Some(schema) = version.parse().ok().and_then(|v| catalog.get(name, v)) {
                    dynamic(schema, &p.bytes, &mut run);
                }
                runs_of_p.push(run);
            }
        }
        println!("{notice}\n");
        print_table(&packets, &all, js.as_ref().ok());
        if let Some(root) = &root {
            let (median, lowest, defs) = load_time(root, 2 * runs + 1);
            println!(
                "\nLoading the corpus at run time ({defs} defs and the maps of {}: read, parse, \
                 validate, plan): {median:.1} ms median, {lowest:.1} ms lowest of {} loads.",
                root.display(),
                2 * runs + 1
            );
        }
    }

    /// Median and range over the runs of column `k`.
    fn stats(runs: &[Run], k: usize) -> Option<(f64, f64, f64)> {
        let mut xs: Vec<f64> = runs.iter().filter_map(|r| r[k]).collect();
        if xs.is_empty() {
            return None;
        }
        let m = median(&mut xs);
        Some((m, xs[0], xs[xs.len() - 1]))
    }

    fn range(st: Option<(f64, f64, f64)>) -> String {
        match st {
            Some((m, lo, hi)) => format!("{} [{}–{}]", ns(Some(m)), ns(Some(lo)), ns(Some(hi))),
            None => "–".into(),
        }
    }

    /// A packet's row: the 12 medians, gen/hand for (a)-(c) and
    /// dynamic/generated for (e)/(a), (f)/(c), vs JS for (a), (b), (b2),
    /// (c), (d), (e), (e2), (e3), (f).
    type Row = ([Option<f64>; 12], [Option<f64>; 5], [Option<f64>; 9]);

    /// The columns of the table in order: index into `Run`.
    const SHOWN: [usize; 12] = [0, 1, 7, 2, 3, 8, 10, 11, 9, 4, 5, 6];

    /// The pairs timed side by side whose per-run ratio is shown: gen/hand
    /// (a), (b), (c); dyn/gen (e)/(a), (f)/(c).
    const RATIOS: [(usize, usize); 5] = [(0, 4), (1, 5), (2, 6), (8, 0), (9, 2)];

    /// The column heads: the Rust columns, then the JS ones when its
    /// figures are there.
    fn heads(js: bool) -> Vec<&'static str> {
        let mut heads = vec![
            "packet",
            "bytes",
            "(a) decode",
            "(b) visit",
            "(b2) visit reused",
            "(c) encode",
            "(d) encode owned",
            "(e) dynamic decode (view)",
            "(e2) dynamic decode (record)",
            "(e3) dynamic decode (view, kept buffer)",
            "(f) dynamic encode",
            "hand (a)",
            "hand (b)",
            "hand (c)",
            "gen/hand (a)",
            "gen/hand (b)",
            "gen/hand (c)",
            "dyn/gen (e)/(a)",
            "dyn/gen (f)/(c)",
        ];
        if js {
            heads.extend([
                "JS read",
                "JS write",
                "vs JS (a)",
                "vs JS (b)",
                "vs JS (b2)",
                "vs JS (c)",
                "vs JS (d)",
                "vs JS (e)",
                "vs JS (e2)",
                "vs JS (e3)",
                "vs JS (f)",
            ]);
        }
        heads
    }

    /// The geometric means of the rows and, with JS, the lowest speed-up
    /// of each vs-JS column.
    fn print_summary(rows: &[Row], columns: usize, js: bool) {
        let g = |f: &dyn Fn(&Row) -> Option<f64>| geomean(rows.iter().filter_map(f));
        let mut cells = vec!["**geometric mean**".to_string(), String::new()];
        cells.extend(SHOWN.iter().map(|&k| ns(g(&|r| r.0[k]))));
        cells.extend((0..5).map(|k| ratio(g(&|r| r.1[k]))));
        if js {
            cells.extend([String::new(), String::new()]);
            cells.extend((0..9).map(|k| speedup(g(&|r| r.2[k]))));
            println!("| {} |", cells.join(" | "));
            let worst = |k: usize| {
                rows.iter()
                    .filter_map(|r| r.2[k])
                    .fold(None, |m: Option<f64>, x| Some(m.map_or(x, |m| m.min(x))))
            };
            let mut cells = vec!["**lowest vs JS**".to_string()];
            cells.extend((1..columns - 9).map(|_| String::new()));
            cells.extend((0..9).map(|k| speedup(worst(k))));
            println!("| {} |", cells.join(" | "));
        } else {
            println!("| {} |", cells.join(" | "));
        }
    }

    fn print_table(packets: &[BenchPacket], all: &[Vec<Run>], js: Option<&Js>) {
        let heads = heads(js.is_some());
        println!("| {} |", heads.join(" | "));
        println!("|---|{}", "--:|".repeat(heads.len() - 1));
        let mut rows: Vec<Row> = Vec::new();
        let mut mismatched: Vec<&str> = Vec::new();
        let mut noisy: Vec<&str> = Vec::new();
        for (p, runs) in packets.iter().zip(all) {
            let st: Vec<Option<(f64, f64, f64)>> = (0..12).map(|k| stats(runs, k)).collect();
            let med: [Option<f64>; 12] = std::array::from_fn(|k| st[k].map(|s| s.0));
            // Generated, hand-written and dynamic code are timed next to
            // each other in every run: the median of the per-run ratios is
            // steadier on a noisy machine than the ratio of the medians.
            let gen_hand: [Option<f64>; 5] = std::array::from_fn(|k| {
                let (a, b) = RATIOS[k];
                let mut ratios: Vec<f64> =
                    runs.iter().filter_map(|r| Some(r[a]? / r[b]?)).collect();
                (!ratios.is_empty()).then(|| median(&mut ratios))
            });
            let figures = js.and_then(|js| js.by_def.get(&p.def));
            if figures.is_some_and(|f| !f.same_bytes) {
                mismatched.push(&p.def);
            }
            let wide = |(_, lo, hi): (f64, f64, f64)| hi > NOISY * lo;
            if figures.is_some_and(|f| wide(f.read) || wide(f.write)) {
                noisy.push(&p.def);
            }
            // (a), (b), (b2), (e), (e2), (e3) against the JS read; (c),
            // (d), (f) against its write.
            let js_ns = figures.map(|f| {
                let (read, write) = (f.read.0, f.write.0);
                [read, read, read, write, write, read, read, read, write]
            });
            let gen_cols = [0, 1, 7, 2, 3, 8, 10, 11, 9];
            let vs_js: [Option<f64>; 9] =
                std::array::from_fn(|k| Some(js_ns?[k] / med[gen_cols[k]]?));
            let mut cells = vec![p.def.clone(), p.bytes.len().to_string()];
            cells.extend(SHOWN.iter().map(|&k| range(st[k])));
            cells.extend(gen_hand.iter().map(|&x| ratio(x)));
            if js.is_some() {
                cells.push(range(figures.map(|f| f.read)));
                cells.push(range(figures.map(|f| f.write)));
                cells.extend(vs_js.iter().map(|&x| speedup(x)));
            }
            println!("| {} |", cells.join(" | "));
            rows.push((med, gen_hand, vs_js));
        }
        print_summary(&rows, heads.len(), js.is_some());
        if !noisy.is_empty() {
            println!(
                "\nThe JS runs of {} spread over more than {NOISY}x (max/min): the machine \
                 was busy; their ratios are unreliable.",
                noisy.join(", ")
            );
        }
        if !mismatched.is_empty() {
            println!(
                "\nThe JS writer did not reproduce the bytes of: {}.",
                mismatched.join(", ")
            );
        }
    }
}
