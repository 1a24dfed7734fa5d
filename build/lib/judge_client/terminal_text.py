"""Text from the judge made inert before it reaches a terminal.

Everything the judge sends is someone else's text: a learner's stdout and exception messages are
stored as sent (they are the learner's evidence), and a hostile or impersonated server may send
anything in any field. A terminal obeys what it is sent: ESC and C1 controls (U+009B is CSI)
move the cursor, clear the screen, retitle the window, write the clipboard (OSC 52) or make
links; bidi controls (U+202E, U+2066 to U+2069) reorder what is shown; zero-width and other
format characters hide text. So every such character is shown as its Python escape (ESC as the
four characters ``\\x1b``), never emitted, and no server text is ever read as Rich markup: the
client prints ``Text`` objects built here, not markup strings.
"""

from __future__ import annotations

import json
import unicodedata

from rich.text import Text

# Control (C0, DEL, C1), format (bidi controls, zero-width characters, soft hyphen, tags),
# surrogate (a lone one cannot even be encoded to stdout) and the line and paragraph separators
# (which some terminals break lines at). Categories rather than a list of code points, so that a
# format character added to Unicode is covered as soon as Python knows it.
UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})


def unsafe(char: str) -> bool:
    """Whether a terminal could act on ``char`` rather than show it."""
    return unicodedata.category(char) in UNSAFE_CATEGORIES


SHORT_ESCAPES = {0x09: "\\t", 0x0A: "\\n", 0x0D: "\\r"}


def escaped(code: int) -> str:
    """The character as Python writes it in a string literal, as the judge's own escapes are."""
    if code in SHORT_ESCAPES:
        return SHORT_ESCAPES[code]
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def json_escaped(code: int) -> str:
    """The character as a JSON string escape (a surrogate pair beyond the BMP)."""
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


class _Escapes(dict[int, str]):
    """A ``str.translate`` table filled on first sight of each character: the lookups of a long
    stdout then run in C, and the Unicode database is asked once per distinct character."""

    def __init__(self, kept: str, *, as_json: bool = False) -> None:
        super().__init__()
        self.kept = frozenset(map(ord, kept))
        self.as_json = as_json

    def __missing__(self, code: int) -> str:
        char = chr(code)
        if code in self.kept or not unsafe(char):
            shown = char
        else:
            shown = json_escaped(code) if self.as_json else escaped(code)
        self[code] = shown
        return shown


_ONE_LINE = _Escapes("")
# Newline and tab are how stdout and a statement are laid out; carriage return is not kept,
# since it lets a line overwrite itself ("accepted\rwrong_answer" would show only one of them).
_MULTILINE = _Escapes("\n\t")
# Raw newlines in json.dumps's output are its indentation (a newline inside a string is \n).
_JSON = _Escapes("\n", as_json=True)


def inert(text: str, *, multiline: bool = False) -> str:
    """``text`` with every character a terminal could act on written as its escape.

    A backslash is left as it is: a literal ``\\x1b`` in the text then looks like an escaped
    ESC, which misleads no terminal, and doubling every backslash would garble Windows paths and
    regular expressions in a learner's output."""
    return text.translate(_MULTILINE if multiline else _ONE_LINE)


def text(value: object, style: str = "", *, multiline: bool = False) -> Text:
    """A Rich ``Text`` of any value the judge sent, inert, never parsed as markup."""
    return Text(inert(str(value), multiline=multiline), style=style)


def json_text(data: object) -> str:
    """``data`` as indented JSON that is inert on a terminal and the same JSON value.

    json.dumps escapes C0 controls but, with ensure_ascii=False, passes DEL, C1, bidi and format
    characters through raw, so ``--json`` piped to a terminal would obey them. ensure_ascii=True
    would fix that too, but would also write every accented letter or non-Latin title as
    \\uXXXX; escaping only the unsafe characters keeps the text readable and the value equal."""
    return json.dumps(data, indent=2, ensure_ascii=False).translate(_JSON)
