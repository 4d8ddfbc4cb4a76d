//! `tera_corpus` when `tera-data` compiles the real corpus (`TERA_DATA_DIR`),
//! as `tera-data`'s own build script does: the examples and tests that name
//! generated packet types pick the types of the defs compiled in.

fn main() {
    println!("cargo:rerun-if-env-changed=TERA_DATA_DIR");
    println!("cargo::rustc-check-cfg=cfg(tera_corpus)");
    if std::env::var_os("TERA_DATA_DIR").is_some() {
        println!("cargo:rustc-cfg=tera_corpus");
    }
}
