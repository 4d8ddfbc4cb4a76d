//! Chat links in a chat line (an item, a quest, a place the player
//! shift-clicked into the line), as the client writes them:
//! `<ChatLinkAction param="TYPE#####ID@MORE@...">&lt;Name&gt;</ChatLinkAction>`.

/// One chat link of a chat line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatLink {
    /// The link's kind: the number before `#####` in its `param` (`1` an
    /// item, in the client's links).
    pub kind: u32,
    /// The fields after `#####`, split at `@` (an item's: its id, its
    /// database id, its owner's name).
    pub fields: Vec<String>,
    /// The text shown, entities read (`<Pie>`).
    pub text: String,
    /// The `param` attribute as written.
    pub param: String,
}

impl ChatLink {
    /// The first field as a number: an item link's item id.
    #[must_use]
    pub fn id(&self) -> Option<u64> {
        self.fields.first().and_then(|f| f.parse().ok())
    }

    /// Every chat link of `line`, in order; markup that is not a
    /// well-formed link is skipped.
    ///
    /// ```
    /// use tera_proxy::commands::ChatLink;
    ///
    /// let line = r#"add <ChatLinkAction param="1#####169747@3345@Ann">&lt;Pie&gt;</ChatLinkAction>"#;
    /// let links = ChatLink::find_all(line);
    /// assert_eq!((links[0].kind, links[0].id(), links[0].text.as_str()), (1, Some(169747), "<Pie>"));
    /// ```
    #[must_use]
    pub fn find_all(line: &str) -> Vec<ChatLink> {
        let mut links = Vec::new();
        let mut rest = line;
        while let Some(start) = rest.find("<ChatLinkAction") {
            let Some(after) = rest.get(start..) else {
                break;
            };
            let Some(end) = after.find("</ChatLinkAction>") else {
                break;
            };
            if let Some(link) = after.get(..end).and_then(ChatLink::parse) {
                links.push(link);
            }
            rest = after
                .get(end + "</ChatLinkAction>".len()..)
                .unwrap_or_default();
        }
        links
    }

    /// A link from `<ChatLinkAction ...>text` (its closing tag cut off).
    fn parse(open: &str) -> Option<ChatLink> {
        let tag_end = open.find('>')?;
        let tag = open.get(..tag_end)?;
        let text = open.get(tag_end + 1..)?;
        let param = attribute(tag, "param")?;
        let (kind, rest) = param.split_once("#####")?;
        Some(ChatLink {
            kind: kind.trim().parse().ok()?,
            fields: rest.split('@').map(str::to_owned).collect(),
            text: read_entities(text),
            param: param.to_owned(),
        })
    }
}

/// The value of attribute `name` in a tag (`name="value"`).
fn attribute<'t>(tag: &'t str, name: &str) -> Option<&'t str> {
    let at = tag.find(&format!("{name}=\""))? + name.len() + 2;
    let value = tag.get(at..)?;
    value.get(..value.find('"')?)
}

/// `&lt;` and the other entities the client writes, read.
pub(crate) fn read_entities(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&amp;", "&")
}

/// `line` split at spaces outside tags: a chat link, spaces in its
/// markup or text, is one piece.
pub(crate) fn split_outside_tags(line: &str) -> Vec<&str> {
    let mut pieces = Vec::new();
    let mut depth = 0usize;
    let mut in_tag = false;
    let mut start = None;
    for (at, c) in line.char_indices() {
        match c {
            '<' => {
                in_tag = true;
                if line.get(at..).is_some_and(|t| t.starts_with("</")) {
                    depth = depth.saturating_sub(1);
                } else {
                    depth += 1;
                }
            }
            '>' if in_tag => in_tag = false,
            _ => {}
        }
        if c.is_whitespace() && depth == 0 && !in_tag {
            if let Some(from) = start.take() {
                pieces.extend(line.get(from..at));
            }
        } else if start.is_none() {
            start = Some(at);
        }
    }
    if let Some(from) = start {
        pieces.extend(line.get(from..));
    }
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINK: &str =
        r#"<ChatLinkAction param="1#####169747@3345@Ann Bee">&lt;Fish Pie&gt;</ChatLinkAction>"#;

    #[test]
    fn a_link_is_one_argument() {
        let line = format!("loot add {LINK} now");
        assert_eq!(split_outside_tags(&line), ["loot", "add", LINK, "now"]);
        assert_eq!(split_outside_tags("  a  b "), ["a", "b"]);
    }

    #[test]
    fn links_are_read() {
        let links = ChatLink::find_all(&format!("x {LINK} {LINK}"));
        assert_eq!(links.len(), 2);
        assert_eq!(links[0].kind, 1);
        assert_eq!(links[0].fields, ["169747", "3345", "Ann Bee"]);
        assert_eq!(links[0].id(), Some(169747));
        assert_eq!(links[0].text, "<Fish Pie>");
        assert!(ChatLink::find_all("<ChatLinkAction param=\"x\">y").is_empty());
        assert!(ChatLink::find_all("<ChatLinkAction>y</ChatLinkAction>").is_empty());
    }
}
