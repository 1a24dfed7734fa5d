"""What a submission stores of its tests: a value once, as its text cut with a note; the
learner's output within a budget per submission; linear explanations of huge values."""

from __future__ import annotations

import random
import unicodedata
from typing import Any

import pytest

from judge.checkers import check_exact
from judge.explanations import explain, first_difference, string_hints
from judge.results import TestResult, TestStatus, Visibility, stored_tests
from judge.stored_values import (
    BUDGET_NOTE,
    LEARNER_FIELDS,
    RESULTS_BUDGET_BYTES,
    SHOWN_CHARS,
    Shown,
    learner_bytes,
    shown,
    stored_size,
)


def result(actual: Any = None, visibility: Visibility = Visibility.PUBLIC, **fields: Any) -> TestResult:
    return TestResult(name="t", visibility=visibility, status=TestStatus.WRONG_ANSWER,
                      category="c", args=["in"], kwargs={}, expected="out", actual=actual, **fields)


def test_a_large_value_is_stored_once_as_its_text_cut_to_the_stated_size_with_a_note() -> None:
    data = result("x" * 600_000).as_json()
    assert "actual" not in data  # no JSON copy beside the text
    assert data["actual_repr"] == "'" + "x" * (SHOWN_CHARS - 1)
    assert data["actual_note"] == "value of 600,002 characters, first 2,000 shown"
    assert stored_size(data) < 3 * SHOWN_CHARS


def test_a_small_value_is_stored_whole_without_a_note() -> None:
    data = result((1, 2.0, "a\x00")).as_json()
    assert data["actual_repr"] == "(1, 2.0, 'a\\x00')" and data["actual_note"] is None
    assert data["budget_note"] is None


def test_the_text_of_a_checked_large_value_stands_in_for_it() -> None:
    value = list(range(100_000))
    text = shown(value)
    assert text.note == f"value of {len(repr(value)):,} characters, first 2,000 shown"
    assert result(text).as_json() == result(value).as_json()
    # Two large values that differ only past the cut are still told apart (validation compares
    # a reference's two runs by repr).
    assert repr(shown(value)) != repr(shown([*value[:-1], 0]))
    assert isinstance(shown(text), Shown) and shown(text) is text


def test_a_submission_keeps_the_learners_output_within_its_budget_then_only_verdicts() -> None:
    tests = [result("v" * 10_000, stdout="p" * 8_192, explanation=f"e{i}") for i in range(200)]
    stored = stored_tests(tests)
    kept = [t for t in stored if t["budget_note"] is None]
    assert 0 < len(kept) < len(stored)
    assert stored[:len(kept)] == kept  # in run order: the first tests keep everything
    assert sum(learner_bytes(t) for t in stored) <= RESULTS_BUDGET_BYTES
    for test in stored[len(kept):]:
        assert test["budget_note"] == BUDGET_NOTE and "256 KiB" in BUDGET_NOTE
        assert all(test[key] is None for key in LEARNER_FIELDS)
        assert test["status"] == "wrong_answer" and test["category"] == "c"
        assert test["args"] == ["in"] and test["expected"] == "out"  # the problem's own inputs stay
    assert sum(map(stored_size, stored)) < RESULTS_BUDGET_BYTES + len(stored) * 1_000


def test_an_explanation_quoting_a_huge_key_is_cut() -> None:
    mismatch = check_exact({"a": 1}, {"a": 1, "k" * 1_000_000: 2})
    assert mismatch is not None and len(explain(mismatch)) > 1_000_000
    data = result(explanation=explain(mismatch)).as_json()
    assert len(data["explanation"]) < SHOWN_CHARS + 100
    assert data["explanation"].endswith("(1,000,019 characters, first 2,000 shown)")


def test_a_try_stores_the_references_large_value_once_as_its_cut_text() -> None:
    big = result("y", visibility=Visibility.CUSTOM)
    big.expected = ["w"] * 100_000
    data = big.as_json()
    assert data["expected"] is None and len(data["expected_repr"]) == SHOWN_CHARS
    assert data["expected_note"] == f"value of {len(repr(big.expected)):,} characters, first 2,000 shown"
    small = result("y", visibility=Visibility.CUSTOM).as_json()
    assert small["expected"] == "out" and small["expected_note"] is None


def test_the_budget_counts_bytes_as_the_database_stores_them() -> None:
    """json.dumps escapes an astral character as two \\u escapes: 12 bytes for one character,
    so a cut text of 2,000 such characters costs 24,000 bytes of the budget, not 2,000."""
    stored = stored_tests([result("\U0001f600" * 3_000) for _ in range(40)])
    each = stored_size(stored[0]["actual_repr"]) + stored_size(stored[0]["actual_note"])
    assert each > 12 * 1_990
    kept = sum(t["budget_note"] is None for t in stored)
    assert kept * each <= RESULTS_BUDGET_BYTES < (kept + 1) * each


def test_first_difference_agrees_with_a_character_by_character_walk() -> None:
    rng = random.Random(3)
    for _ in range(300):
        size = rng.choice([0, 1, 5, 4095, 4096, 4097, 9000])
        a = "".join(rng.choice("ab") for _ in range(size))
        b = list(a + "".join(rng.choice("ab") for _ in range(rng.randrange(3))))
        if b and rng.random() < 0.7:
            b[rng.randrange(len(b))] = "c"
        other = "".join(b)
        naive = next((i for i, (x, y) in enumerate(zip(a, other, strict=False)) if x != y),
                     min(len(a), len(other)))
        assert first_difference(a, other) == naive


def test_text_that_is_not_stream_safe_is_never_normalized(monkeypatch: pytest.MonkeyPatch) -> None:
    """Normalizing a long run of combining marks takes time quadratic in its length (80,000
    marks: 5 s); such text gets no normalization hint instead."""
    normalized: list[int] = []
    normalize = unicodedata.normalize

    def recording(form: Any, text: str) -> str:
        normalized.append(len(text))
        return normalize(form, text)

    monkeypatch.setattr(unicodedata, "normalize", recording)  # the module judge.explanations uses
    marks = "a" + "\u0301\u0316" * 40_000
    assert string_hints(marks, "b" + marks[1:]) == []
    assert normalized == []
    # Stream-safe text still gets its hint.
    assert string_hints("e\u0301" * 3, "\u00e9" * 3) == [
        "they differ only in Unicode composition (equal after NFC normalization)"]
    assert normalized


def test_grading_checks_each_value_as_it_arrives_and_keeps_only_the_text_of_a_large_one(
        tmp_path: Any) -> None:
    from judge.grading import grade
    from judge.problems import load_problem
    from sandbox.inside.protocol import CallResult, Outcome
    from sandbox.interface import Payload, SandboxRun
    from tests.utils.fake_sandbox import returned
    from tests.utils.problem_factory import make_problem

    problem = load_problem(make_problem(tmp_path))
    runs: list[list[CallResult]] = []

    class Converses:  # calls on_result after each test, as sandbox.conversation does
        def check(self) -> None:
            """Always available."""

        def run(self, payload: Payload) -> SandboxRun:
            results = []
            for position, test in enumerate(payload.tests):
                results.append(returned(test, "z" * 100_000))
                assert payload.on_result is not None
                payload.on_result(position, results[-1])
            runs.append(results)
            return SandboxRun(CallResult(Outcome.RETURNED), results)

    report = grade(problem, "def mean(values):\n    return 0.0\n", Converses())
    assert report.verdict.value == "wrong_answer" and len(report.tests) > 1
    # Nothing holds a large value once it has been checked: the run drops it, the result keeps
    # its text.
    assert all(call.value is None and call.args_after is None for call in runs[0])
    assert all(isinstance(t.actual, Shown) for t in report.tests)
    assert all(t.explanation and "wrong type: expected float, got str" in t.explanation
               for t in report.tests)
