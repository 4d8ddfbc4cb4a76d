//! `tera_corpus` when `tera-data` compiles the real corpus (`TERA_DATA_DIR`),
//! as `tera-data`'s own build script does: the corpus no longer holds the
//! def versions of builds before patch 105 that the project's own defs
//! hold, so game state compiles those routes only without it.

fn main() {
    println!("cargo:rerun-if-env-changed=TERA_DATA_DIR");
    println!("cargo::rustc-check-cfg=cfg(tera_corpus)");
    if std::env::var_os("TERA_DATA_DIR").is_some() {
        println!("cargo:rustc-cfg=tera_corpus");
    }
}
