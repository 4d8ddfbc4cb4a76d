//! The defs compiled into `tera-data`, loaded again at run time through
//! `tera-dynamic`: the same folders, picked by the same variables, read
//! when the fuzz targets were built.

use std::sync::LazyLock;

use tera_dynamic::Catalog;

static CATALOG: LazyLock<Catalog> = LazyLock::new(|| {
    let mut catalog = Catalog::new();
    match option_env!("TERA_DATA_DIR") {
        Some(root) => catalog.load_dir(root),
        None => catalog.load_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../defs")),
    };
    if let Some(extra) = option_env!("TERA_EXTRA_DEFS") {
        for dir in std::env::split_paths(extra) {
            catalog.load_dir(dir);
        }
    }
    let problems: Vec<String> = catalog.problems().iter().map(|r| r.render(false)).collect();
    assert!(
        problems.is_empty(),
        "the compiled-in defs load: {problems:?}"
    );
    catalog
});

/// The catalog of the compiled-in defs.
pub fn catalog() -> &'static Catalog {
    &CATALOG
}
