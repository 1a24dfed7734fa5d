"""The janitor with stand-ins for the engine (no container): a removal that fails is tried again
until it succeeds, and the sweep comes on its timer with no run at all."""

from __future__ import annotations

import threading
import time

import pytest

from sandbox import janitor as janitor_module
from sandbox.janitor import Janitor


class Engine:
    """Fails every removal while down; counts connections, removals and sweeps."""

    def __init__(self) -> None:
        self.down = True
        self.removed: list[str] = []
        self.sweeps = 0
        self.lock = threading.Lock()

    def connect(self) -> object:
        if self.down:
            raise ConnectionError("no engine")
        return self

    def remove(self, _client: object, container_id: str) -> bool:
        with self.lock:
            if self.down:
                return False
            self.removed.append(container_id)
            return True

    def sweep(self, _client: object) -> int:
        with self.lock:
            self.sweeps += 1
        return 0


@pytest.fixture(autouse=True)
def quick_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(janitor_module, "RETRY_FIRST", 0.05)
    monkeypatch.setattr(janitor_module, "RETRY_MAX", 0.2)


def test_a_failed_removal_is_tried_again_until_it_succeeds() -> None:
    engine = Engine()
    janitor = Janitor(engine.connect, engine.remove, engine.sweep, sweep_every=0)
    try:
        assert not janitor.remove(engine, "c1") and not janitor.remove(engine, "c2")
        time.sleep(1.0)  # several tries, every one failing while the engine is away
        assert sorted(janitor.pending()) == ["c1", "c2"] and engine.removed == []
        engine.down = False
        assert janitor.wait_clear(5)
        assert sorted(engine.removed) == ["c1", "c2"]  # once each: gone means done
    finally:
        janitor.close()


def test_the_sweep_runs_on_its_timer_without_any_run() -> None:
    engine = Engine()
    engine.down = False
    janitor = Janitor(engine.connect, engine.remove, engine.sweep, sweep_every=0.1)
    try:
        time.sleep(1.0)
        assert engine.sweeps >= 5 and janitor.sweeps == engine.sweeps
    finally:
        janitor.close()


def test_an_engine_away_at_sweep_time_is_swept_when_it_answers() -> None:
    engine = Engine()
    janitor = Janitor(engine.connect, engine.remove, engine.sweep, sweep_every=0.1)
    try:
        time.sleep(0.5)
        assert engine.sweeps == 0
        engine.down = False
        deadline = time.monotonic() + 5
        while engine.sweeps == 0:
            assert time.monotonic() < deadline, "no sweep once the engine answered"
            time.sleep(0.05)
    finally:
        janitor.close()
