"""Where the suite's minutes go: with ``JUDGE_TEST_TIMINGS=FILE`` every phase of every test
(set-up, call, tear-down) is written to FILE as one JSON line, with the run's wall clock at the
end. Under pytest-xdist the reports of every worker arrive at the controller, so one file holds
the whole run. ``scripts/suite-timings`` runs the suite with it and prints the table that
docs/testing.md shows."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import IO

import pytest

_sink: IO[str] | None = None
_started = 0.0


def pytest_configure(config: pytest.Config) -> None:
    global _sink, _started
    if hasattr(config, "workerinput"):
        return  # only the controller writes: every worker's reports reach it, each once
    # Taken out of the environment: a pytest that a test runs (a collection, say) is not this run.
    path = os.environ.pop("JUDGE_TEST_TIMINGS", None)
    if path:
        _sink = Path(path).open("a", encoding="utf-8")  # noqa: SIM115 - open for the whole run
        _started = time.monotonic()


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if _sink is not None:
        _sink.write(json.dumps({"test": report.nodeid, "phase": report.when,
                                "seconds": round(report.duration, 3), "outcome": report.outcome}) + "\n")


def pytest_unconfigure(config: pytest.Config) -> None:
    global _sink
    if _sink is not None:
        workers = getattr(config.option, "numprocesses", None) or 0
        _sink.write(json.dumps({"wall": round(time.monotonic() - _started, 1),
                                "workers": workers, "args": config.invocation_params.args}) + "\n")
        _sink.close()
        _sink = None
