"""Markdown with LaTeX math (api/rendering.py): formulas become MathML, everything that is not a
formula stays what it was (currency, code, raw HTML escaped), and bad LaTeX never breaks a page."""

from __future__ import annotations

import re
from xml.etree import ElementTree

import pytest
from fastapi.testclient import TestClient

from api.rendering import MathError, latex_to_mathml, render_markdown
from tests.utils.service import bearer
from tests.utils.service_fixtures import Tokens, problem_files

MATHML = "http://www.w3.org/1998/Math/MathML"


def test_inline_math_becomes_inline_mathml() -> None:
    html = render_markdown("The penalty is $e^{1 - r/c}$ here.\n")
    assert html.startswith("<p>The penalty is <span class=\"math inline\"><math ")
    math = re.search(r"<math .*?</math>", html)
    assert math is not None
    root = ElementTree.fromstring(math[0])  # well-formed XML
    assert root.tag == f"{{{MATHML}}}math" and root.get("display") == "inline"
    assert root.find(f".//{{{MATHML}}}msup") is not None
    assert "<mo>\u2212</mo>" in math[0]  # the minus sign as a character, not a reference to decode twice


def test_display_math_on_its_own_lines_is_a_block() -> None:
    html = render_markdown("Before.\n\n$$\n\\frac{a}{b}\n$$\n\nAfter.\n")
    assert '<div class="math block">\n<math xmlns="http://www.w3.org/1998/Math/MathML" display="block">' in html
    assert "<mfrac>" in html and "<p>After.</p>" in html


def test_display_math_inside_a_paragraph_keeps_the_paragraph_whole() -> None:
    html = render_markdown("so $$x^2$$ holds\n")
    assert html.startswith('<p>so <span class="math display"><math ') and 'display="block"' in html
    assert "<div" not in html and html.endswith(" holds</p>\n")


@pytest.mark.parametrize("text", [
    "It costs $5 and $10 in total.",
    "From $a to $b and back.",
    "Pay $5, then $3 more.",
    "$5.",
    "A lone $ sign.",
    "between $5-$10",
])
def test_currency_stays_text(text: str) -> None:
    html = render_markdown(text)
    assert "<math" not in html and html == f"<p>{text}</p>\n"


@pytest.mark.parametrize(("text", "code"), [
    ("Use `$x$` literally.", "<code>$x$</code>"),
    ("Then `a$b` and `$`.", "<code>a$b</code>"),
    ("price $5 and `x$`", "<code>x$</code>"),  # the $ in the code span closes nothing
    ("```\n$x$ and $$y$$\n```\n", "<pre><code>$x$ and $$y$$\n</code></pre>"),
    ("    $x$ indented code\n", "<pre><code>$x$ indented code\n</code></pre>"),
])
def test_dollars_in_code_stay_code(text: str, code: str) -> None:
    html = render_markdown(text)
    assert code in html and "<math" not in html


def test_an_escaped_dollar_is_a_dollar() -> None:
    assert render_markdown("literal \\$x\\$ here") == "<p>literal $x$ here</p>\n"


def test_raw_html_stays_escaped_in_text_and_in_math() -> None:
    html = render_markdown('<script>alert(1)</script> and $\\text{<img src=x onerror=alert(1)>} & y$')
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert "<img" not in html and "<mtext>&lt;img\xa0src=x\xa0onerror=alert(1)&gt;</mtext>" in html
    assert "<mi>&amp;</mi>" in html


@pytest.mark.parametrize("latex", [
    "\\color{red}{x}", "\\href{javascript:alert(1)}{x}", "\\displaystyle \\sum_{i=1}^n x_i",
    "\\binom{n}{k}", "\\hspace{1em} x", "\\boxed{x}", "\\begin{cases} 1 & c \\ge r \\\\ 0 & c < r \\end{cases}",
])
def test_mathml_has_no_style_link_or_script_attribute(latex: str) -> None:
    mathml = latex_to_mathml(latex, display=True)
    root = ElementTree.fromstring(mathml)
    names = {name.lower() for element in root.iter() for name in element.attrib}
    assert not names & {"style", "href", "src", "class", "id"}
    assert not any(name.startswith("on") for name in names)


@pytest.mark.parametrize(("latex", "reason"), [
    ("\\frac{a}", "a command is missing an argument"),
    ("\\left( x", "extra left or missing right"),
    ("\\foo + 1", "unknown command \\foo"),
    ("x^", "missing super script or subscript"),
    ("{x", "a '{' is never closed"),
    ("x}", "a '}' at character 2 closes no '{'"),
    ("\\begin{matrix} x", "missing end"),
    ("\\sqrt", "no available tokens"),
    ("{" * 5000 + "x" + "}" * 5000, "maximum recursion depth"),  # refused, not a crash
])
def test_bad_latex_is_a_math_error(latex: str, reason: str) -> None:
    with pytest.raises(MathError, match=re.escape(reason)):
        latex_to_mathml(latex, display=False)


def test_bad_latex_renders_as_escaped_code_with_a_note() -> None:
    html = render_markdown("Fine $x$, broken $\\frac{<b>}$, fine again $y$.\n")
    assert ('<code class="math-error">$\\frac{&lt;b&gt;}$</code> <em class="math-error-note">(this formula '
            "could not be rendered: a command is missing an argument") in html
    assert html.count("<math ") == 2  # the formulas around it still render
    block = render_markdown("$$\n\\left( x\n$$\n")
    assert '<div class="math block">\n<code class="math-error">$$\\left( x$$</code>' in block


def test_tables_and_lists_still_render() -> None:
    html = render_markdown("| n | value |\n|---|---|\n| $n^2$ | $5 |\n\n- one $\\alpha$\n- two\n")
    assert "<table>" in html and "<td>$5</td>" in html and "<msup>" in html
    assert "<li>one <span class=\"math inline\"><math" in html


def test_the_problem_page_shows_math_as_mathml(client: TestClient, tokens: Tokens) -> None:
    slug = "fast_math_statement"
    statement = "Return $\\sqrt{x}$ for $x \\ge 0$; it costs $5 and $10.\n\n$$\\frac{1}{n}$$\n"
    hints = "## Nudge\n\nThink of $x^2$.\n\n## Closer\n\nAlmost there.\n"
    files = problem_files(slug, **{"statement.md": statement, "hints.md": hints,
                                   "editorial.md": "## Idea\n\nLook it up.\n"})
    created = client.post("/api/v1/problems", headers=bearer(tokens.instructor),
                          json={"slug": slug, "files": files})
    assert created.status_code == 201, created.text
    detail = client.get(f"/api/v1/problems/{slug}", headers=bearer(tokens.instructor)).json()
    assert detail["statement_markdown"] == statement
    html = detail["statement_html"]
    assert html.count("<math ") == 3 and 'display="block"' in html and "<msqrt>" in html
    assert "it costs $5 and $10." in html


def test_an_upload_with_a_bad_hints_file_names_it(client: TestClient, tokens: Tokens) -> None:
    files = problem_files("fast_bad_hints", **{"hints.md": "Intro first.\n\n## One\n\nbody\n"})
    response = client.post("/api/v1/problems", headers=bearer(tokens.instructor),
                           json={"slug": "fast_bad_hints", "files": files})
    assert response.status_code == 422, response.text
    assert ("fast_bad_hints/hints.md: line 1: text before the first '## ' heading"
            in response.json()["error"]["message"])
