"""What a submission may store of its tests, stated in one place (invariant 9: stored bytes per
submission are bounded).

- A returned value is stored once, as its text (``repr``), cut to ``SHOWN_CHARS`` characters with
  a note such as "value of 600,002 characters, first 2,000 shown". Its JSON form is not stored:
  it can be as large again, and for a large value it could not be cut and stay a value.
- A submission's tests may store ``RESULTS_BUDGET_BYTES`` of what the learner's code produced
  (``LEARNER_FIELDS``: returned values' text, printed output, explanations, which quote values),
  counted as the database stores them (JSON). From the first test that does not fit, tests keep
  their verdict (status, category, time) with a note, not those fields.

The problem's own arguments and expected values are not counted: they are the author's, the same
for every submission, and bounded by the problem's size.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from judge.text_safety import safe_text

SHOWN_CHARS = 2_000
RESULTS_BUDGET_BYTES = 256 * 1024
LEARNER_FIELDS = ("actual_repr", "actual_note", "stdout", "explanation")
BUDGET_NOTE = (f"not kept: this submission's earlier tests used the {RESULTS_BUDGET_BYTES // 1024} "
               "KiB a submission may store of returned values, printed text and explanations; "
               "this test's status stands")


@dataclass(frozen=True)
class Shown:
    """A value as it is stored and shown: its safe text cut to ``SHOWN_CHARS``, with the whole
    text's length and digest (two large values stay told apart, e.g. when a reference is run
    twice to prove it deterministic). Stands in for a large value once it has been checked, so
    that a judged submission does not hold every test's value at once."""

    text: str
    chars: int
    digest: str

    @property
    def note(self) -> str | None:
        if self.chars <= len(self.text):
            return None
        return f"value of {self.chars:,} characters, first {len(self.text):,} shown"

    def __repr__(self) -> str:
        return f"<a value of {self.chars:,} characters, sha256 {self.digest}>"


def shown(value: Any) -> Shown:
    """The value's text as stored: ``repr`` (which never calls learner code: values are built-ins
    or ``Opaque`` stand-ins), made safe, cut. Linear in the value's size."""
    if isinstance(value, Shown):
        return value
    whole = safe_text(repr(value))
    return Shown(whole[:SHOWN_CHARS], len(whole), hashlib.sha256(whole.encode()).hexdigest())


def cut(text: str | None, limit: int = SHOWN_CHARS) -> str | None:
    """A text of the judge's (an explanation quoting a learner's dict key, say) cut to ``limit``."""
    if text is None or len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text):,} characters, first {limit:,} shown)"


def stored_size(value: Any) -> int:
    """Bytes of a JSON value as the database stores it (SQLAlchemy's JSON type: ``json.dumps``)."""
    return len(json.dumps(value))


def learner_bytes(test: dict[str, Any]) -> int:
    return sum(stored_size(test[key]) for key in LEARNER_FIELDS if test.get(key) is not None)


def within_budget(tests: list[dict[str, Any]], budget: int = RESULTS_BUDGET_BYTES
                  ) -> list[dict[str, Any]]:
    """The tests' JSON (in run order, as ``TestResult.as_json`` made it) with the learner's
    fields kept while they fit ``budget``; from the first that does not, verdicts and a note."""
    left, spent = budget, False
    kept: list[dict[str, Any]] = []
    for test in tests:
        if not spent:
            cost = learner_bytes(test)
            if cost <= left:
                left -= cost
                kept.append(test)
                continue
            spent = True  # from here on every test keeps its verdict only
        kept.append({**test, **dict.fromkeys(LEARNER_FIELDS), "budget_note": BUDGET_NOTE})
    return kept
