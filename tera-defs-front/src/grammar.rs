//! The pest parser generated from `def.pest`.

// The derive generates an undocumented `Rule` enum.
#![allow(missing_docs)]

use pest_derive::Parser;

/// Parser of the `.def` language (grammar in `src/def.pest`).
#[derive(Parser)]
#[grammar = "def.pest"]
pub(crate) struct DefParser;

/// A human name for a grammar rule, used in "expected ..." messages.
pub(crate) fn rule_name(rule: Rule) -> &'static str {
    match rule {
        Rule::ident | Rule::name => "a name",
        Rule::type_name => "a type",
        Rule::path => "a field name",
        Rule::meta_kw | Rule::meta => "`ref`",
        Rule::subtype | Rule::lt => "`<`",
        Rule::flags | Rule::lbracket => "`[`",
        Rule::gt => "`>`",
        Rule::rbracket => "`]`",
        Rule::comma => "`,`",
        Rule::flag => "a flag",
        Rule::dash | Rule::depth => "`-`",
        Rule::entry | Rule::field => "a field",
        Rule::comment => "`#`",
        Rule::EOI => "end of line",
        Rule::good_line | Rule::bad_line | Rule::line | Rule::strict_line => {
            "a field, a `ref` line or a comment"
        }
        Rule::file => "a file",
        Rule::ws | Rule::lead | Rule::trail => "whitespace",
        Rule::bom => "a byte-order mark",
        Rule::eol | Rule::line_end => "end of line",
    }
}
