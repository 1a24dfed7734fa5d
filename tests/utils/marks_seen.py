"""A pytest plugin for tests/test_suite_shape.py: prints, for every collected test, whether
``-m`` kept it and the markers it carried when ``-m`` decided, one line each:
``kept|dropped <node id> <marker,marker,...>``. Run with ``--collect-only -s``."""

from __future__ import annotations

import pytest


def _line(verdict: str, item: pytest.Item) -> str:
    return f"{verdict} {item.nodeid} {','.join(sorted({mark.name for mark in item.iter_markers()}))}"


def pytest_deselected(items: list[pytest.Item]) -> None:
    for item in items:  # called by -m with the items it drops, as they were when it decided
        print(_line("dropped", item))


def pytest_collection_finish(session: pytest.Session) -> None:
    for item in session.items:
        print(_line("kept", item))
