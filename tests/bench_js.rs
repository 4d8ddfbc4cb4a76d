//! The bench table's reader of the JS reference's figures
//! (`benches/common/js.rs`): what `bench.js` prints is what it reads.

#[path = "../benches/common/js.rs"]
#[allow(dead_code)]
mod js;

#[test]
fn reads_the_lines_bench_js_prints() {
    let line = r#"{"def":"S_LOGIN.15","bytes":495,"read_ns":2024.1,"read_min":1653.8,"read_max":2221.4,"write_ns":571.9,"write_min":543.1,"write_max":680.9,"writer_same_bytes":true}"#;
    let by_def = js::parse(&format!("{line}\n\n")).expect("parses");
    let f = by_def["S_LOGIN.15"];
    assert_eq!(f.read, (2024.1, 1653.8, 2221.4));
    assert_eq!(f.write, (571.9, 543.1, 680.9));
    assert!(f.same_bytes);
}

#[test]
fn rejects_what_is_not_bench_js_output() {
    assert!(js::parse("").is_err());
    assert!(js::parse(r#"{"def":"S_LOGIN.15"}"#).is_err());
    assert!(js::parse("not json").is_err());
}
