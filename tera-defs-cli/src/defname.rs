//! Def names on the command line: a `--def` value (`S_CHAT`, `S_CHAT.4`,
//! `S_CHAT.4.def`) and `--version` together.

use crate::fail::Fail;

/// The name and version a `--def` value and `--version` ask for.
pub fn spec_version(spec: &str, version: Option<u32>) -> Result<(String, Option<u32>), Fail> {
    let (name, spec_version) =
        tera_sessions::split_spec(spec).map_err(|e| Fail::Usage(e.to_string()))?;
    match (spec_version, version) {
        (Some(a), Some(b)) if a != b => Err(Fail::Usage(format!(
            "`{spec}` names version {a} but --version says {b}"
        ))),
        (a, b) => Ok((name, a.or(b))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_and_version_agree_or_fail() {
        let ok = |v: Option<u32>| ("S_CHAT".to_string(), v);
        assert_eq!(spec_version("S_CHAT", None).unwrap(), ok(None));
        assert_eq!(spec_version("S_CHAT.4", None).unwrap(), ok(Some(4)));
        assert_eq!(spec_version("S_CHAT.4.def", Some(4)).unwrap(), ok(Some(4)));
        assert_eq!(spec_version("S_CHAT", Some(2)).unwrap(), ok(Some(2)));
        assert!(spec_version("S_CHAT.4", Some(2)).is_err());
        assert!(spec_version("S_CHAT.x", None).is_err());
        assert!(spec_version("S_CHAT.4.console", None).is_err());
    }
}
