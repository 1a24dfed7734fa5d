"""LaTeX math in Markdown: the one reading of `$...$` and `$$...$$` that both the pages and
validation use.

``markdown_parser`` is the Markdown parser the pages render with (``api/rendering.py`` adds its
renderers); ``latex_to_mathml`` turns one formula into MathML or raises MathError saying why;
``formula_errors`` finds every formula of a text the way the parser does and lists those that do
not convert, so that a version whose statement, hints or editorial holds one is invalid instead
of showing learners a formula as escaped code. Here, not in ``api``, because validation is the
engine's and the engine may not import the API.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from xml.etree.ElementTree import Element, tostring

from latex2mathml.converter import Converter
from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token
from mdit_py_plugins.dollarmath import dollarmath_plugin
from mdit_py_plugins.dollarmath.index import math_inline_dollar

# Attributes that could carry a style (the CSP would refuse it anyway), a link or a script.
_DROPPED_ATTRIBUTES = {"style", "href", "src", "class", "id"}
# Elements whose children are the command's arguments: fewer means an argument is missing
# (latex2mathml turns `\frac{a}` into a one-child <mfrac> instead of failing).
_ARITY = {"mfrac": 2, "msub": 2, "msup": 2, "msubsup": 3, "mover": 2, "munder": 2,
          "munderover": 3, "mroot": 2}
_UNKNOWN_COMMAND = re.compile(r"^\\[A-Za-z]+")


class MathError(ValueError):
    """A formula that cannot be turned into MathML; the message says why, for the author."""


def _check_braces(latex: str) -> None:
    depth, i = 0, 0
    while i < len(latex):
        char = latex[i]
        if char == "\\":
            i += 2  # an escaped character, such as \{ or \}, is not a group
            continue
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth < 0:
                raise MathError(f"a '}}' at character {i + 1} closes no '{{'")
        i += 1
    if depth:
        raise MathError("a '{' is never closed")


def _reason(exc: Exception) -> str:
    """latex2mathml's exceptions carry no message; their class names say what went wrong."""
    if str(exc):
        return str(exc)
    words = re.findall(r"[A-Z][a-z]*", type(exc).__name__)
    return " ".join(w.lower() for w in words if w != "Error") or "not valid LaTeX"


def _clean(element: Element) -> None:
    """Decode latex2mathml's character references and drop unsafe attributes, in place.

    latex2mathml writes symbols as references ("&#x02212;") in the element text and unescapes
    its whole output, which would let `\\text{<b>}` through as markup; here the text is decoded
    once and serialised again by ElementTree, which escapes it.
    """
    unknown = _UNKNOWN_COMMAND.match(element.text or "")
    if unknown:  # latex2mathml keeps a command it does not know as the text "\\foo"
        raise MathError(f"unknown command {unknown[0]}")
    wanted = _ARITY.get(element.tag)
    if wanted is not None and len(element) != wanted:
        raise MathError(f"a command is missing an argument (<{element.tag}> needs {wanted})")
    if element.text:
        element.text = html.unescape(element.text)
    if element.tail:
        element.tail = html.unescape(element.tail)
    for name in list(element.attrib):
        lowered = name.lower()
        if lowered in _DROPPED_ATTRIBUTES or lowered.startswith("on") or ":" in name or "{" in name:
            del element.attrib[name]
    for child in element:
        _clean(child)


def latex_to_mathml(latex: str, display: bool) -> str:
    """One formula as a <math> element; MathError when it is not valid LaTeX."""
    _check_braces(latex)
    try:
        root = Converter(display="block" if display else "inline").convert_to_element(latex)
        _clean(root)
        return tostring(root, encoding="unicode")
    except MathError:
        raise
    except Exception as exc:  # a third-party parser (or a formula nested too deep to recurse
        raise MathError(_reason(exc)) from exc  # into): any exception means the input is bad


def _no_code_span_inside(
    rule: Callable[[StateInline, bool], bool],
) -> Callable[[StateInline, bool], bool]:
    """Refuse math whose closing $ lies inside a later code span (`$5 and `x$``): code stays code."""

    def guarded(state: StateInline, silent: bool) -> bool:
        start = state.pos
        if not rule(state, True):  # silent: moves state.pos past the match, pushes no token
            return False
        end, state.pos = state.pos, start
        if "`" in state.src[start:end]:
            return False
        return rule(state, silent)

    return guarded


MathRenderer = Callable[[str, dict[str, Any]], str]


def markdown_parser(render_math: MathRenderer | None = None) -> MarkdownIt:
    """CommonMark plus tables with dollar math; ``render_math(latex, options)`` draws a formula
    (None: parsing only, as ``formula_errors`` does)."""
    md = MarkdownIt("commonmark", {"html": False}).enable("table")  # raw HTML is escaped
    # No space inside the dollars and no digit right before the opening or after the closing
    # one, so "costs $5 and $10" stays text; no labels and no blank lines inside $$...$$.
    dollarmath_plugin(md, allow_labels=False, allow_space=False, allow_digits=False,
                      allow_blank_lines=False, double_inline=True, renderer=render_math)
    md.inline.ruler.at("math_inline", _no_code_span_inside(
        math_inline_dollar(allow_space=False, allow_digits=False, allow_double=True)))
    return md


_PARSER = markdown_parser()
_INLINE = {"math_inline": False, "math_inline_double": True}
_BLOCK = {"math_block", "math_block_label"}


@dataclass(frozen=True)
class FormulaError:
    """A formula that does not render: its line in the text (from 1), as written, and why."""

    line: int
    formula: str  # with its dollars, as the author wrote it
    reason: str


def _line_of(text_lines: list[str], block: Token, latex: str) -> int:
    """The line of the block holding the formula's first line (the block's first line if none
    does: a formula broken over lines by the parser's own joining)."""
    first, last = block.map or (0, 1)
    needle = latex.strip().splitlines()[0] if latex.strip() else latex
    for number in range(first, min(last, len(text_lines))):
        if needle in text_lines[number]:
            return number + 1
    return first + 1


def _failure(latex: str, display: bool) -> str | None:
    try:  # stripped, as the parser's renderers hand it over
        latex_to_mathml(latex.strip(), display)
    except MathError as exc:
        return str(exc)
    return None


def formula_errors(text: str) -> list[FormulaError]:
    """Every formula of the Markdown ``text`` that does not convert, in the order written."""
    lines = text.splitlines()
    found: list[FormulaError] = []
    for token in _PARSER.parse(text):
        if token.type in _BLOCK:
            why = _failure(token.content, True)
            if why is not None:
                found.append(FormulaError(_line_of(lines, token, token.content),
                                          f"$${token.content.strip()}$$", why))
        elif token.type == "inline":
            for child in token.children or []:
                if child.type not in _INLINE:
                    continue
                display = _INLINE[child.type]
                why = _failure(child.content, display)
                if why is not None:
                    marks = "$$" if display else "$"
                    found.append(FormulaError(_line_of(lines, token, child.content),
                                              f"{marks}{child.content.strip()}{marks}", why))
    return found
