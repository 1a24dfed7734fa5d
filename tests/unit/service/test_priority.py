"""The API raises the priority of every one of its threads, where it may (api.priority)."""

from __future__ import annotations

import logging
import os
import subprocess
import sys

import pytest

from api import priority

# Threads started before and after the call; every thread's niceness, read from /proc.
SCRIPT = """
import os, sys, threading
from api import priority
hold = threading.Event()
before = threading.Thread(target=hold.wait); before.start()
ok = priority.raise_to(int(sys.argv[1]))
after = threading.Thread(target=hold.wait); after.start()
nices = sorted({int(open(f"/proc/self/task/{t}/stat").read().rsplit(")", 1)[1].split()[16])
                for t in os.listdir("/proc/self/task")})
hold.set()
print(ok, nices)
"""


def run(niceness: int) -> str:
    return subprocess.run([sys.executable, "-c", SCRIPT, str(niceness)], capture_output=True,
                          text=True, check=True).stdout.strip()


NOW = os.getpriority(os.PRIO_PROCESS, 0)


@pytest.mark.skipif(os.geteuid() != 0, reason="raising a priority needs root")
def test_every_thread_is_raised_also_those_started_before() -> None:
    assert run(NOW - 3) == f"True [{NOW - 3}]"


def test_a_lower_priority_than_now_is_left_alone() -> None:
    assert run(NOW + 5) == f"True [{NOW}]"


def test_without_the_right_the_priority_stays_and_it_says_so(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    def refuse(*_: int) -> None:
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(os, "setpriority", refuse)
    with caplog.at_level(logging.INFO, logger="api.priority"):
        assert priority.raise_to(NOW - 3) is False
    assert os.getpriority(os.PRIO_PROCESS, 0) == NOW
    assert "needs root or CAP_SYS_NICE" in caplog.text


@pytest.mark.skipif(os.geteuid() != 0, reason="raising a priority needs root")
def test_judge_serves_children_keep_the_priority_it_started_with() -> None:
    """`judge serve` starts (and restarts) its broker and worker from a thread that the API
    has raised with every other: they get back the niceness `judge serve` started with."""
    script = """
import os, sys, time
from service.supervision import Supervised
child = Supervised("sleeper", ["sleep", "30"], say=lambda _: None)
os.setpriority(os.PRIO_PROCESS, 0, int(sys.argv[1]))  # the API raises this thread too
process = child.start()
print(open(f"/proc/{process.pid}/stat").read().rsplit(")", 1)[1].split()[16])
child.stop(5)
"""
    out = subprocess.run([sys.executable, "-c", script, str(NOW - 3)], capture_output=True,
                         text=True, check=True).stdout.split()
    assert out[-1] == str(NOW)
