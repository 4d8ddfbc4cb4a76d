use std::path::Path;
fn main() {
    let dir = std::env::args().nth(1).unwrap();
    let out = std::env::args().nth(2).unwrap();
    let t = std::time::Instant::now();
    let s = match tera_datacenter::sheets::read_sheets(Path::new(&dir), &|_, _| {}) {
        Ok(s) => s,
        Err(tera_datacenter::sheets::SheetsError::Invalid {
            diagnostics,
            rendered,
        }) => {
            eprintln!("{} problems", diagnostics.len());
            print!("{}", &rendered[..rendered.len().min(6000)]);
            return;
        }
        Err(e) => panic!("{e}"),
    };
    eprintln!(
        "read {} files {} elements in {:?}",
        s.file_count(),
        s.element_count(),
        t.elapsed()
    );
    let dec = s.to_dec(&Default::default()).unwrap();
    drop(s);
    eprintln!("packed {} bytes in {:?}", dec.len(), t.elapsed());
    let dc = tera_datacenter::DataCenter::parse(&dec).unwrap();
    let t = std::time::Instant::now();
    let st = tera_datacenter::sheets::write_sheets(&dc, Path::new(&out), &|_, _| {}).unwrap();
    eprintln!("unpacked {st:?} in {:?}", t.elapsed());
    let s2 = match tera_datacenter::sheets::read_sheets(Path::new(&out), &|_, _| {}) {
        Ok(s) => s,
        Err(tera_datacenter::sheets::SheetsError::Invalid {
            diagnostics,
            rendered,
        }) => {
            eprintln!("{} problems", diagnostics.len());
            print!("{}", &rendered[..rendered.len().min(6000)]);
            return;
        }
        Err(e) => panic!("{e}"),
    };
    let dec2 = s2.to_dec(&Default::default()).unwrap();
    eprintln!("repacked equal bytes: {}", dec == dec2);
}
