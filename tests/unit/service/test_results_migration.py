"""Migration 0005 brings stored results to the rules of judge.stored_values: each value once, as
its cut text; explanations cut; each submission's learner output within its budget."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from alembic import command
from sqlalchemy import create_engine, text

from judge.stored_values import RESULTS_BUDGET_BYTES, SHOWN_CHARS, learner_bytes
from service.db.migrate import alembic_config


def old_row(actual: Any, stdout: str = "", explanation: str = "e") -> dict[str, Any]:
    """A test as 0004's code stored it: the value twice, in full."""
    return {"name": "t", "visibility": "public", "status": "wrong_answer", "category": "c",
            "seconds": 0.1, "args": ["a"], "kwargs": {}, "expected": "b", "actual": actual,
            "expected_repr": "'b'", "actual_repr": repr(actual), "stdout": stdout,
            "explanation": explanation, "note": None}


def test_old_rows_keep_each_value_once_and_within_the_budget(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    config = alembic_config(url)
    command.upgrade(config, "0004")
    engine = create_engine(url)
    rows = [(1, 0, old_row("x" * 600_000, explanation="k" * 50_000)), (1, 1, old_row([1, 2]))]
    rows += [(2, i, old_row("y" * 1_500, stdout="p" * 8_000)) for i in range(60)]
    try:
        with engine.begin() as connection:
            for submission, position, data in rows:
                connection.execute(text(
                    "INSERT INTO test_results (submission_id, position, name, visibility, status, data)"
                    " VALUES (:s, :p, 't', 'public', 'wrong_answer', :d)"),
                    {"s": submission, "p": position, "d": json.dumps(data)})
        command.upgrade(config, "head")
        with engine.connect() as connection:
            stored = {(s, p): json.loads(d) for s, p, d in connection.execute(text(
                "SELECT submission_id, position, data FROM test_results"))}
        big, small = stored[(1, 0)], stored[(1, 1)]
        assert "actual" not in big and "actual" not in small
        assert big["actual_repr"] == "'" + "x" * (SHOWN_CHARS - 1)
        assert big["actual_note"] == "value of 600,002 characters, first 2,000 shown"
        assert len(big["explanation"]) < SHOWN_CHARS + 100
        assert small["actual_repr"] == "[1, 2]" and small["actual_note"] is None
        many = [stored[(2, i)] for i in range(60)]
        assert sum(learner_bytes(t) for t in many) <= RESULTS_BUDGET_BYTES
        assert many[0]["budget_note"] is None and many[-1]["budget_note"]
        assert many[-1]["status"] == "wrong_answer" and many[-1]["stdout"] is None
        command.downgrade(config, "0004")
        with engine.connect() as connection:
            back = [json.loads(d) for (d,) in connection.execute(text("SELECT data FROM test_results"))]
        assert all("actual" in t and t["actual"] is None for t in back)
    finally:
        engine.dispose()
