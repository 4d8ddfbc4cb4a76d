//! The container-level naming rule shared by the emitter, the derive and
//! serde: fields are snake_case in Rust and camelCase on the wire and in
//! JSON, so that a field needs a rename only where the rule does not give
//! its def name back.

/// The name `rename_all = "camelCase"` gives a snake_case field, spelled as
/// serde spells it: each `_` dropped and the letter after it upper-cased,
/// the first letter lower-cased.
pub fn camel_case_of_field(ident: &str) -> String {
    let ident = ident.strip_prefix("r#").unwrap_or(ident);
    let mut out = String::with_capacity(ident.len());
    let mut capitalize = false;
    for (n, ch) in ident.chars().enumerate() {
        if ch == '_' {
            capitalize = true;
        } else if capitalize {
            out.push(ch.to_ascii_uppercase());
            capitalize = false;
        } else if n == 0 {
            out.push(ch.to_ascii_lowercase());
        } else {
            out.push(ch);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::camel_case_of_field;

    #[test]
    fn matches_serde_camel_case() {
        assert_eq!(camel_case_of_field("game_id"), "gameId");
        assert_eq!(camel_case_of_field("r#type"), "type");
        assert_eq!(camel_case_of_field("unk1"), "unk1");
        assert_eq!(camel_case_of_field("hp"), "hp");
        assert_eq!(camel_case_of_field("a_b_c"), "aBC");
        assert_eq!(camel_case_of_field("x_2"), "x2");
    }
}
