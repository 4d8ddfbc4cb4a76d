//! How values are spelled in XML, the same in exports, sheets and schemas.

use std::fmt::Write as _;

/// Appends `chars` escaped for XML text or a double-quoted attribute value:
/// the five markup characters as entities and every control character
/// (tab and line breaks too, which attribute values would otherwise lose)
/// as a character reference.
pub(crate) fn escape_into(out: &mut String, chars: impl Iterator<Item = char>) {
    for c in chars {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "&#{};", c as u32);
            }
            c => out.push(c),
        }
    }
}

/// An `xsd:float` that reads back as the same `f32` and is not mistaken for
/// an integer: `1.0`, `-1.5e-7`, `NaN`, `INF`, `-INF`.
pub(crate) fn float_text(v: f32) -> String {
    if v.is_nan() {
        "NaN".into()
    } else if v.is_infinite() {
        if v > 0.0 { "INF" } else { "-INF" }.into()
    } else {
        format!("{v:?}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_and_controls_are_escaped() {
        let mut out = String::new();
        escape_into(&mut out, "a&<b>\"c'\t\n\u{1}é".chars());
        assert_eq!(out, "a&amp;&lt;b&gt;&quot;c'&#9;&#10;&#1;é");
    }

    #[test]
    fn floats_read_back_as_xsd_floats() {
        assert_eq!(float_text(1.0), "1.0");
        assert_eq!(float_text(-1.5e-7), "-1.5e-7");
        assert_eq!(float_text(f32::NAN), "NaN");
        assert_eq!(float_text(f32::INFINITY), "INF");
        assert_eq!(float_text(f32::NEG_INFINITY), "-INF");
        assert_eq!(float_text(0.1).parse::<f32>(), Ok(0.1));
    }
}
