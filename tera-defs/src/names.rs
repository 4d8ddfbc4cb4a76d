//! Conversion of def names to Rust names: the words of a name, their
//! snake_case and PascalCase spellings, Rust keywords and raw identifiers,
//! and [`Scope`], a namespace that hands each name out once.
//!
//! Word boundaries (used by both [`snake_case`] and [`pascal_case`]):
//!
//! * an underscore separates words (runs of underscores count as one);
//! * an upper-case letter starts a new word when the character before it is a
//!   lower-case letter (`templateId` -> `template`, `id`);
//! * an upper-case letter also starts a new word when the character before it
//!   is an upper-case letter or a digit *and* the character after it is a
//!   lower-case letter (`HTTPServer` -> `http`, `server`;
//!   `hp2Max` -> `hp2`, `max`);
//! * digits never start a word by themselves (`unk1` stays `unk1`, `F2P` is one
//!   word `f2p`).

/// Splits a def name into lower-case words (see the module doc).
fn words(name: &str) -> Vec<String> {
    let chars: Vec<char> = name.chars().collect();
    let mut words = Vec::new();
    let mut current = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if c == '_' {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            continue;
        }
        if c.is_uppercase() && !current.is_empty() {
            let prev = i.checked_sub(1).and_then(|p| chars.get(p)).copied();
            let next = chars.get(i + 1).copied();
            let prev_lower = prev.is_some_and(char::is_lowercase);
            let prev_upper_or_digit = prev.is_some_and(|p| p.is_uppercase() || p.is_ascii_digit());
            let next_lower = next.is_some_and(char::is_lowercase);
            if prev_lower || (prev_upper_or_digit && next_lower) {
                words.push(std::mem::take(&mut current));
            }
        }
        current.extend(c.to_lowercase());
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
}

/// Converts a def name to `snake_case`.
///
/// `huntingZoneId` -> `hunting_zone_id`, `templateId` -> `template_id`,
/// `S_F2P_PremiumUser_Permission` -> `s_f2p_premium_user_permission`,
/// `unk1` -> `unk1`, `hp2Max` -> `hp2_max` (a digit followed by a capitalised
/// word ends the word before it), `HTTPServer` -> `http_server`.
///
/// The result is not necessarily a valid Rust identifier (it may be a
/// keyword): pass it through [`rust_ident`].
pub fn snake_case(name: &str) -> String {
    words(name).join("_")
}

/// Converts a def name to `PascalCase`: each word (see the module doc)
/// starts with a capital, the rest is lower case.
///
/// `servants` -> `Servants`, `randomReward` -> `RandomReward`,
/// `hp2Max` -> `Hp2Max`, `S_LOGIN` -> `SLogin`.
pub fn pascal_case(name: &str) -> String {
    let mut out = String::new();
    for word in words(name) {
        let mut chars = word.chars();
        if let Some(first) = chars.next() {
            out.extend(first.to_uppercase());
            out.push_str(chars.as_str());
        }
    }
    out
}

/// Rust keywords (strict and reserved, edition 2024) that can be written as
/// raw identifiers.
const RAW_KEYWORDS: &[&str] = &[
    "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "do", "dyn",
    "else", "enum", "extern", "false", "final", "fn", "for", "gen", "if", "impl", "in", "let",
    "loop", "macro", "match", "mod", "move", "mut", "override", "priv", "pub", "ref", "return",
    "static", "struct", "trait", "true", "try", "type", "typeof", "unsafe", "unsized", "use",
    "virtual", "where", "while", "yield",
];

/// Keywords that cannot be raw identifiers.
const NON_RAW_KEYWORDS: &[&str] = &["self", "Self", "super", "crate", "_"];

/// Makes `name` usable as a Rust identifier: keywords become raw identifiers
/// (`type` -> `r#type`), the keywords that cannot be raw (`self`, `Self`,
/// `super`, `crate`, `_`) get a trailing underscore (`self` -> `self_`), an
/// empty name becomes `_empty`, and a name that starts with a digit gets a
/// leading underscore. Other names are returned unchanged.
pub fn rust_ident(name: &str) -> String {
    if name.is_empty() {
        return "_empty".to_string();
    }
    if NON_RAW_KEYWORDS.contains(&name) {
        return format!("{name}_");
    }
    if RAW_KEYWORDS.contains(&name) {
        return format!("r#{name}");
    }
    if name.starts_with(|c: char| c.is_ascii_digit()) {
        return format!("_{name}");
    }
    name.to_string()
}

/// `rust_ident(snake_case(name))`: the Rust name of a field.
pub fn field_ident(name: &str) -> String {
    rust_ident(&snake_case(name))
}

/// `rust_ident(pascal_case(name))`: the Rust name of a nested type before
/// disambiguation (see [`crate::nested`]).
pub fn type_ident(name: &str) -> String {
    rust_ident(&pascal_case(name))
}

/// One namespace of emitted Rust names (the items of a module, the
/// variants of an enum, the fields of a struct): a name is handed out at
/// most once. Every emitted name is reserved in its scope through one of
/// these, so that two def names that differ only in case (`S_ITEM_LIST`,
/// `S_ItemList`) cannot end up as one Rust name. See
/// `tera_defs::crate_names` for the scopes of a generated file.
#[derive(Debug, Clone, Default)]
pub struct Scope {
    taken: std::collections::HashSet<String>,
}

impl Scope {
    /// An empty scope.
    pub fn new() -> Self {
        Scope::default()
    }

    /// Whether `name` is already handed out.
    pub fn is_taken(&self, name: &str) -> bool {
        self.taken.contains(name)
    }

    /// Reserves `name`; `false` (and nothing reserved) when it is taken.
    pub fn try_reserve(&mut self, name: &str) -> bool {
        if self.is_taken(name) {
            return false;
        }
        self.taken.insert(name.to_string())
    }

    /// Reserves the first free name of `candidate(1)`, `candidate(2)`, ...
    /// and returns it. `candidate` must give distinct names for distinct
    /// numbers, so that a free one is found.
    pub fn reserve_first(&mut self, candidate: impl Fn(usize) -> String) -> String {
        let mut n = 1;
        loop {
            let name = candidate(n);
            if self.try_reserve(&name) {
                return name;
            }
            n += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snake() {
        assert_eq!(snake_case("huntingZoneId"), "hunting_zone_id");
        assert_eq!(snake_case("templateId"), "template_id");
        assert_eq!(
            snake_case("S_F2P_PremiumUser_Permission"),
            "s_f2p_premium_user_permission"
        );
        assert_eq!(snake_case("unk1"), "unk1");
        assert_eq!(snake_case("hp2Max"), "hp2_max");
        assert_eq!(snake_case("HTTPServer"), "http_server");
        assert_eq!(snake_case("gameId"), "game_id");
        assert_eq!(snake_case("x"), "x");
        assert_eq!(snake_case("__a__b"), "a_b");
        assert_eq!(snake_case("S_LOGIN"), "s_login");
        assert_eq!(snake_case("isPkServer"), "is_pk_server");
    }

    #[test]
    fn pascal() {
        assert_eq!(pascal_case("servants"), "Servants");
        assert_eq!(pascal_case("randomReward"), "RandomReward");
        assert_eq!(pascal_case("hp2Max"), "Hp2Max");
        assert_eq!(pascal_case("S_LOGIN"), "SLogin");
        assert_eq!(pascal_case("animSeq"), "AnimSeq");
    }

    #[test]
    fn idents() {
        assert_eq!(rust_ident("type"), "r#type");
        assert_eq!(rust_ident("gen"), "r#gen");
        assert_eq!(rust_ident("self"), "self_");
        assert_eq!(rust_ident("Self"), "Self_");
        assert_eq!(rust_ident("super"), "super_");
        assert_eq!(rust_ident("crate"), "crate_");
        assert_eq!(rust_ident("_"), "__");
        assert_eq!(rust_ident("union"), "union");
        assert_eq!(rust_ident("name"), "name");
        assert_eq!(rust_ident(""), "_empty");
        assert_eq!(field_ident("type"), "r#type");
        assert_eq!(field_ident("_"), "_empty");
        assert_eq!(type_ident("self"), "Self_");
    }

    #[test]
    fn scopes_hand_out_each_name_once() {
        let mut scope = Scope::new();
        assert!(scope.try_reserve("s_item_list"));
        assert!(!scope.try_reserve("s_item_list"));
        assert!(scope.is_taken("s_item_list"));
        let numbered = |n: usize| match n {
            1 => "s_item_list".to_string(),
            n => format!("s_item_list_{n}"),
        };
        assert_eq!(scope.reserve_first(numbered), "s_item_list_2");
        assert_eq!(scope.reserve_first(numbered), "s_item_list_3");
    }
}
