"""The README and the pages in docs/ hold together: every relative link names a file that exists
(and, for a Markdown page, a heading it has), every page is reachable from the README, and the
README stays short enough to be what a newcomer reads first.

Read from the Markdown text itself, without services, so a page renamed or a heading reworded
fails here rather than in a reader's browser.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"
PAGES = [README, *sorted(DOCS.glob("*.md"))]
README_MAX_LINES = 220  # what a newcomer reads first; the rest belongs in docs/

FENCE = re.compile(r"^\s*(```|~~~)")
CODE_SPAN = re.compile(r"(`+).*?\1")
# An inline link or image: [text](target) or [text](target "title"); text may hold brackets
# one level deep, as in [`x`](y) or [a [b] c](d).
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
EXTERNAL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")  # https:, mailto:, ...


@dataclass(frozen=True)
class Link:
    page: Path
    line: int
    target: str


def prose_lines(text: str) -> list[tuple[int, str]]:
    """The lines outside fenced code blocks, with their numbers."""
    lines: list[tuple[int, str]] = []
    fenced = False
    for number, line in enumerate(text.splitlines(), start=1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            lines.append((number, line))
    return lines


def links(page: Path, text: str) -> list[Link]:
    # Code spans are blanked first: a link shown as code is not one.
    return [Link(page, number, match.group(1))
            for number, line in prose_lines(text)
            for match in LINK.finditer(CODE_SPAN.sub("", line))]


def anchors(text: str) -> set[str]:
    """The fragment ids a Markdown renderer such as GitHub's gives the headings: lower case,
    punctuation dropped, spaces to hyphens, a repeated id numbered from 1."""
    seen: dict[str, int] = {}
    ids: set[str] = set()
    for _, line in prose_lines(text):
        match = HEADING.match(line)
        if match is None:
            continue
        title = re.sub(r"[*_]{1,2}([^*_]+)[*_]{1,2}", r"\1", match.group(2)).replace("`", "")
        slug = re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        ids.add(slug if count == 0 else f"{slug}-{count}")
    return ids


def broken(link: Link, root: Path = ROOT) -> str | None:
    """Why a relative link leads nowhere, or None when it resolves."""
    if EXTERNAL.match(link.target):
        return None
    path_part, _, fragment = link.target.partition("#")
    target = (link.page.parent / path_part).resolve() if path_part else link.page
    where = f"{link.page.relative_to(root)}:{link.line}: {link.target}"
    if root not in target.parents and target != root:
        return f"{where} leaves the repository"
    if not target.exists():
        return f"{where}: no such file"
    if fragment and target.suffix == ".md" and fragment not in anchors(target.read_text()):
        return f"{where}: {target.name} has no heading #{fragment}"
    return None


def test_the_checker_finds_what_it_should(tmp_path: Path) -> None:
    # The test below is only as good as the parser: hold it to a page with known answers.
    (tmp_path / "there.md").write_text("# Here we are\n\n## The `x` (optional)\n")
    page = tmp_path.resolve() / "page.md"
    page.write_text(
        "[fine](there.md#here-we-are) and [also](there.md#the-x-optional), ![img](there.md)\n"
        "[gone](missing.md) [bad anchor](there.md#nowhere) [web](https://example.org/x)\n"
        "[out](../../elsewhere.md)\n"
        "`[shown as code](missing.md)`\n```\n[in a fence](missing.md)\n```\n")
    found = links(page, page.read_text())
    assert [link.target for link in found] == [
        "there.md#here-we-are", "there.md#the-x-optional", "there.md", "missing.md",
        "there.md#nowhere", "https://example.org/x", "../../elsewhere.md"]
    problems = [reason for link in found if (reason := broken(link, tmp_path.resolve()))]
    assert len(problems) == 3, problems
    assert "no such file" in problems[0] and "has no heading #nowhere" in problems[1]
    assert "leaves the repository" in problems[2]


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_every_relative_link_resolves(page: Path) -> None:
    problems = [reason for link in links(page, page.read_text()) if (reason := broken(link))]
    assert not problems, "\n".join(problems)


def test_every_page_in_docs_is_linked_from_the_readme() -> None:
    linked = {(ROOT / link.target.partition("#")[0]).resolve()
              for link in links(README, README.read_text()) if not EXTERNAL.match(link.target)}
    unlinked = [p.name for p in sorted(DOCS.glob("*.md")) if p.resolve() not in linked]
    assert not unlinked, f"docs pages no reader of the README can find: {unlinked}"


def test_the_readme_is_short() -> None:
    lines = len(README.read_text().splitlines())
    assert lines <= README_MAX_LINES, (
        f"README.md has {lines} lines (at most {README_MAX_LINES}): move detail into docs/")
