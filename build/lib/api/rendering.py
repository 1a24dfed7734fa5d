"""Markdown with LaTeX math, rendered to HTML on the server: statements, hints and editorials.

`$...$` is inline math and `$$...$$` display math; both become MathML (latex2mathml), which
Chromium renders natively, so the page needs no script and no inline style. Raw HTML in the
Markdown stays escaped. A formula that does not convert is shown as escaped code with a note,
never as an error page (validation makes such a version invalid: ``judge.math_text``, where
the parser and the conversion live, shared with it).
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token

from judge.math_text import MathError, latex_to_mathml, markdown_parser

__all__ = ["MathError", "latex_to_mathml", "render_markdown"]


def _render_math(latex: str, options: dict[str, Any]) -> str:
    display = bool(options.get("display_mode"))
    try:
        return latex_to_mathml(latex, display)
    except MathError as exc:
        marks = "$$" if display else "$"
        return (f'<code class="math-error">{html.escape(marks + latex + marks)}</code> '
                f'<em class="math-error-note">(this formula could not be rendered: '
                f"{html.escape(str(exc))})</em>")


def _display_in_paragraph(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    # `$$...$$` inside a paragraph: a <div> there would break the <p>; <math display="block">
    # is phrasing content, so a <span> holds it.
    mathml = _render_math(tokens[idx].content.strip(), {"display_mode": True})
    return f'<span class="math display">{mathml}</span>'


def _parser() -> MarkdownIt:
    md = markdown_parser(_render_math)
    md.add_render_rule("math_inline_double", _display_in_paragraph)
    return md


_MARKDOWN = _parser()


@lru_cache(maxsize=256)  # a pure function of the text; statements are rendered on every view
def render_markdown(text: str) -> str:
    """Markdown (CommonMark plus tables) with $...$ and $$...$$ math, as HTML with MathML."""
    html_text: str = _MARKDOWN.render(text)
    return html_text
