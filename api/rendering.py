"""Markdown with LaTeX math, rendered to HTML on the server: statements, hints and editorials.

`$...$` is inline math and `$$...$$` display math; both become MathML (latex2mathml), which
Chromium renders natively, so the page needs no script and no inline style. Raw HTML in the
Markdown stays escaped. A formula that does not convert is shown as escaped code with a note,
never as an error page.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Sequence
from functools import lru_cache
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


def _render_math(latex: str, options: dict[str, Any]) -> str:
    display = bool(options.get("display_mode"))
    try:
        return latex_to_mathml(latex, display)
    except MathError as exc:
        marks = "$$" if display else "$"
        return (f'<code class="math-error">{html.escape(marks + latex + marks)}</code> '
                f'<em class="math-error-note">(this formula could not be rendered: '
                f"{html.escape(str(exc))})</em>")


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


def _display_in_paragraph(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    # `$$...$$` inside a paragraph: a <div> there would break the <p>; <math display="block">
    # is phrasing content, so a <span> holds it.
    mathml = _render_math(tokens[idx].content.strip(), {"display_mode": True})
    return f'<span class="math display">{mathml}</span>'


def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False}).enable("table")  # raw HTML is escaped
    # No space inside the dollars and no digit right before the opening or after the closing
    # one, so "costs $5 and $10" stays text; no labels and no blank lines inside $$...$$.
    dollarmath_plugin(md, allow_labels=False, allow_space=False, allow_digits=False,
                      allow_blank_lines=False, double_inline=True, renderer=_render_math)
    md.inline.ruler.at("math_inline", _no_code_span_inside(
        math_inline_dollar(allow_space=False, allow_digits=False, allow_double=True)))
    md.add_render_rule("math_inline_double", _display_in_paragraph)
    return md


_MARKDOWN = _parser()


@lru_cache(maxsize=256)  # a pure function of the text; statements are rendered on every view
def render_markdown(text: str) -> str:
    """Markdown (CommonMark plus tables) with $...$ and $$...$$ math, as HTML with MathML."""
    html_text: str = _MARKDOWN.render(text)
    return html_text
