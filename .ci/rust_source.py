"""Reading the workspace's Rust sources for the structure checks of .ci/.

Shared by `.ci/import-cycles` and `.ci/long-functions`: which crates the
workspace has, which files make up each crate's module tree, and a lexer
pass that blanks comments, string and char literals (keeping every newline,
so line numbers stay true) so that the checks can scan code with simple
patterns without being fooled by a `use crate::` in a doc comment.
"""

import os
import re
import tomllib

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def workspace_crates():
    """(name, folder) of every member of the workspace, in Cargo.toml's order."""
    with open(os.path.join(ROOT, "Cargo.toml"), "rb") as f:
        members = tomllib.load(f)["workspace"]["members"]
    crates = []
    for member in members:
        folder = os.path.normpath(os.path.join(ROOT, member))
        with open(os.path.join(folder, "Cargo.toml"), "rb") as f:
            name = tomllib.load(f)["package"]["name"]
        crates.append((name, folder))
    return crates


def crate_roots(folder):
    """The root files of a crate's library and binaries (each its own module tree)."""
    roots = []
    for rel in ("src/lib.rs", "src/main.rs"):
        path = os.path.join(folder, rel)
        if os.path.exists(path):
            roots.append(path)
    bin_dir = os.path.join(folder, "src", "bin")
    if os.path.isdir(bin_dir):
        for entry in sorted(os.listdir(bin_dir)):
            full = os.path.join(bin_dir, entry)
            if entry.endswith(".rs"):
                roots.append(full)
            elif os.path.exists(os.path.join(full, "main.rs")):
                roots.append(os.path.join(full, "main.rs"))
    return roots


def blank_literals(text):
    """`text` with comments, strings and char literals replaced by spaces.

    Newlines are kept (also inside block comments and strings), so a line
    number in the result is the line number in the source. Lifetimes
    (`'a`) are kept; char literals (`'a'`, `'\\n'`, `'{'`) are blanked.
    """
    out = []
    i, n = 0, len(text)

    def blank(segment):
        return "".join(c if c == "\n" else " " for c in segment)

    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(blank(text[i:j]))
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(blank(text[i:j]))
            i = j
        elif (m := re.compile(r'b?r(#*)"').match(text, i)) and not _ident_char_before(text, i):
            close = '"' + m.group(1)
            j = text.find(close, m.end())
            j = n if j < 0 else j + len(close)
            out.append(blank(text[i:j]))
            i = j
        elif c == '"' or (c == "b" and text.startswith('b"', i) and not _ident_char_before(text, i)):
            j = i + (2 if c == "b" else 1)
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(blank(text[i : j + 1]))
            i = j + 1
        elif c == "'":
            m = re.compile(r"'(\\(x[0-9a-fA-F]{2}|u\{[0-9a-fA-F_]+\}|.)|[^\\'\n])'").match(text, i)
            if m:
                out.append(blank(m.group(0)))
                i = m.end()
            else:  # a lifetime or a label
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _ident_char_before(text, i):
    return i > 0 and (text[i - 1].isalnum() or text[i - 1] == "_")


def line_of(text, offset):
    return text.count("\n", 0, offset) + 1


def matching_brace(code, open_at):
    """Offset of the `}` closing the `{` at `open_at` (len(code) when unclosed)."""
    depth = 0
    for j in range(open_at, len(code)):
        if code[j] == "{":
            depth += 1
        elif code[j] == "}":
            depth -= 1
            if depth == 0:
                return j
    return len(code)


CFG_TEST = re.compile(r"#\s*\[\s*cfg\s*\(\s*test\s*\)\s*\]")
TEST_ATTR = re.compile(r"#\s*\[\s*(tokio::)?test\b[^\]]*\]")


def test_spans(code):
    """(start, end) offsets of code that only tests compile: `#[cfg(test)]`
    items and `#[test]` functions (the item's braces included)."""
    spans = []
    for m in list(CFG_TEST.finditer(code)) + list(TEST_ATTR.finditer(code)):
        j = m.end()
        # The item the attribute applies to: up to its first `;` or `{`
        # (then the braces).
        while j < len(code) and code[j] not in ";{":
            j += 1
        if j < len(code) and code[j] == "{":
            j = matching_brace(code, j)
        spans.append((m.start(), j + 1))
    return spans


def in_spans(offset, spans):
    return any(start <= offset < end for start, end in spans)
