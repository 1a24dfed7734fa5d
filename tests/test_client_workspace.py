"""`judge-client fetch` writes only the problem asked for, only into its own folder, and only
files of a sane size, whatever the server answers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from judge_client.workspace import PUBLIC_TESTS_CAP, STARTER_CAP, STATEMENT_CAP
from tests.utils.hostile_judge import answer, hostile_judge, run_client


def problem(**changes: Any) -> dict[str, Any]:
    return {"slug": "bleu_1gram", "title": "BLEU-1", "function": "bleu_1gram", "version": "v1",
            "statement_markdown": "# BLEU-1\n", "starter": "def bleu_1gram(reference, candidate):\n    pass\n",
            "public_tests": [{"name": "seed", "args": [["a"], ["a"]], "expected": 1.0}], **changes}


def test_an_answer_for_another_problem_writes_nothing(tmp_path: Path) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "README.md").write_text("my notes\n")
    routes = {"/api/v1/problems/bleu_1gram": answer(problem(slug="notes", function="notes"))}
    with hostile_judge(routes) as judge:
        done = run_client(judge, "fetch", "bleu_1gram", "--dir", str(tmp_path), home=tmp_path / "home")
    assert done.exit_code == 2, done.output
    assert "asked for the problem 'bleu_1gram'" in done.stderr and "'notes'" in done.stderr
    assert (notes / "README.md").read_text() == "my notes\n"
    assert [path.name for path in notes.iterdir()] == ["README.md"]
    assert [path.name for path in tmp_path.iterdir()] == ["notes"]


@pytest.mark.parametrize("field, size, what", [
    ("statement_markdown", STATEMENT_CAP + 1, "a statement"),
    ("starter", STARTER_CAP + 1, "a starter"),
    ("public_tests", PUBLIC_TESTS_CAP, "public tests"),  # its JSON adds quotes and indentation
])
def test_a_file_past_its_cap_is_not_written(tmp_path: Path, field: str, size: int, what: str) -> None:
    value: Any = [{"name": "big", "args": ["a" * size], "expected": 0}] if field == "public_tests" else "a" * size
    with hostile_judge({"/api/v1/problems/bleu_1gram": answer(problem(**{field: value}))}) as judge:
        done = run_client(judge, "fetch", "bleu_1gram", "--dir", str(tmp_path), home=tmp_path / "home")
    assert done.exit_code == 2, done.output
    assert f"the judge sent {what} of" in done.stderr and "MiB that fetch writes: nothing written" in done.stderr
    assert not (tmp_path / "bleu_1gram").exists()


def test_a_lone_surrogate_is_written_as_its_escape(tmp_path: Path) -> None:
    routes = {"/api/v1/problems/bleu_1gram": answer(problem(statement_markdown="# BLEU \ud800\n"))}
    with hostile_judge(routes) as judge:
        done = run_client(judge, "fetch", "bleu_1gram", "--dir", str(tmp_path), home=tmp_path / "home")
    assert done.exit_code == 0, done.output
    assert (tmp_path / "bleu_1gram" / "README.md").read_text() == "# BLEU \\ud800\n"
