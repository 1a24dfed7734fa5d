"""hints.md and editorial.md: how they load, what is refused with a message naming file and line,
and that they are part of the problem's version."""

from __future__ import annotations

import io
import tarfile
from pathlib import Path

import pytest

from judge.archives import files_from_archive
from judge.engine_settings import ROOT
from judge.errors import ProblemError
from judge.problems import load_problem
from service.catalog import folder_files, problem_from_files
from tests.utils.problem_factory import make_problem

HINTS = """\
## A nudge

Think about **counts**, not positions.

## Closer

Clip each count:

```python
## not a heading: this is code
min(a, b)
```

## Nearly there
Divide by $n$.
"""


def test_hints_are_the_section_bodies_in_order(tmp_path: Path) -> None:
    folder = make_problem(tmp_path)
    (folder / "hints.md").write_text(HINTS)
    problem = load_problem(folder)
    assert problem.hints == (
        "Think about **counts**, not positions.\n",
        "Clip each count:\n\n```python\n## not a heading: this is code\nmin(a, b)\n```\n",
        "Divide by $n$.\n",
    )


def test_hints_and_editorial_are_optional(tmp_path: Path) -> None:
    problem = load_problem(make_problem(tmp_path))
    assert problem.hints == () and problem.editorial is None


def test_editorial_is_kept_as_written(tmp_path: Path) -> None:
    folder = make_problem(tmp_path)
    (folder / "editorial.md").write_text("## Idea\n\nAdd up, divide by $n$.\n")
    assert load_problem(folder).editorial == "## Idea\n\nAdd up, divide by $n$.\n"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("# Hints\n\n## One\n\nbody\n", r"hints.md: line 1: text before the first '## ' heading"),
        ("\n\nintro\n## One\nbody\n", r"hints.md: line 3: text before the first '## ' heading"),
        ("## One\n\nbody\n\n## Two\n\n   \n## Three\nbody\n", r"hints.md: line 5: hint 'Two' is empty"),
        ("## One\nbody\n##\n", r"hints.md: line 3: hint is empty"),
        ("", r"hints.md: holds no hint; start each hint with a '## ' heading line"),
        ("### Too deep\nbody\n", r"hints.md: line 1: text before the first '## ' heading"),
        ("##No space is not a heading\nbody\n", r"hints.md: line 1: text before"),
    ],
)
def test_bad_hints_name_the_file_and_line(tmp_path: Path, text: str, message: str) -> None:
    folder = make_problem(tmp_path)
    (folder / "hints.md").write_text(text)
    with pytest.raises(ProblemError, match=message) as info:
        load_problem(folder)
    assert str(folder / "hints.md") in str(info.value)


def test_a_heading_inside_a_tilde_fence_is_code(tmp_path: Path) -> None:
    folder = make_problem(tmp_path)
    (folder / "hints.md").write_text("## Only\n~~~~\n## code\n~~~\n## still code\n~~~~\nafter\n")
    assert load_problem(folder).hints == ("~~~~\n## code\n~~~\n## still code\n~~~~\nafter\n",)


def test_an_empty_editorial_is_refused(tmp_path: Path) -> None:
    folder = make_problem(tmp_path)
    (folder / "editorial.md").write_text("\n  \n")
    with pytest.raises(ProblemError, match=r"editorial.md: is empty"):
        load_problem(folder)


def test_hints_that_are_not_utf8_are_refused(tmp_path: Path) -> None:
    folder = make_problem(tmp_path)
    (folder / "hints.md").write_bytes(b"## One\n\xff\n")
    with pytest.raises(ProblemError, match=r"hints.md: not valid UTF-8"):
        load_problem(folder)


def test_hints_and_editorial_change_the_version(tmp_path: Path) -> None:
    folder = make_problem(tmp_path)
    bare = load_problem(folder).version
    (folder / "hints.md").write_text("## One\nfirst\n")
    with_hint = load_problem(folder).version
    (folder / "hints.md").write_text("## One\nfirst, reworded\n")
    reworded = load_problem(folder).version
    (folder / "editorial.md").write_text("## Idea\nmean\n")
    with_editorial = load_problem(folder).version
    assert len({bare, with_hint, reworded, with_editorial}) == 4


def test_uploaded_files_carry_hints_and_editorial(tmp_path: Path) -> None:
    """An upload (JSON or archive) goes through problem_from_files, exactly like a stored version."""
    folder = make_problem(tmp_path)
    (folder / "hints.md").write_text(HINTS)
    (folder / "editorial.md").write_text("## Idea\nmean\n")
    problem = problem_from_files(folder_files(folder), "mean")
    assert len(problem.hints) == 3 and problem.editorial == "## Idea\nmean\n"
    files = folder_files(folder) | {"hints.md": "intro\n## One\nbody\n"}
    # The message names the file as the author knows it, not by the scratch folder.
    with pytest.raises(ProblemError, match=r"^mean/hints.md: line 1: text before the first"):
        problem_from_files(files, "mean")


def test_an_archive_of_a_shipped_problem_keeps_its_hints_and_editorial(tmp_path: Path) -> None:
    """A .tar.gz of problems/bleu_1gram (as `tar -C problems -czf x.tgz bleu_1gram` makes it) loads
    with the same hints, editorial and version as the folder."""
    folder = ROOT / "problems" / "bleu_1gram"
    shipped = load_problem(folder)
    assert shipped.hints and shipped.editorial
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        tar.add(folder, arcname="bleu_1gram", filter=lambda m: None if "__pycache__" in m.name else m)
    buffer.seek(0)
    uploaded = problem_from_files(files_from_archive(buffer, "bleu_1gram.tar.gz"), "bleu_1gram")
    assert (uploaded.hints, uploaded.editorial, uploaded.version) == (
        shipped.hints, shipped.editorial, shipped.version)


def test_a_hint_names_the_public_tests_it_is_about(tmp_path: Path) -> None:
    folder = make_problem(tmp_path)
    (folder / "hints.md").write_text("## Start\n\nAdd them up.\n\n## Divide {tests: two}\n\nBy how many?\n")
    problem = load_problem(folder)
    assert problem.hints == ("Add them up.\n", "By how many?\n")  # the heading is not part of the body
    assert problem.hint_tests == ((), ("two",))


@pytest.mark.parametrize(("heading", "words"), [
    ("## Divide {tests: one}", "hint 1 is about test 'one', which is not a public test (tests/public.json has two)"),
    ("## Divide {tests: }", "line 1: '{tests: ...}' names the public tests"),
    ("## Divide {tests: two,}", "line 1: '{tests: ...}' names the public tests"),
])
def test_a_hint_about_an_unknown_test_is_refused(tmp_path: Path, heading: str, words: str) -> None:
    folder = make_problem(tmp_path)
    (folder / "hints.md").write_text(f"{heading}\n\nBy how many?\n")
    with pytest.raises(ProblemError, match="hints.md") as refused:
        load_problem(folder)
    assert words in str(refused.value)
