"""Whose a sandbox container is, from its owner label (``host:pid`` of the process that made it):
tests that kill or count containers touch only their own session's, since parallel workers of
the suite (and their stack workers) run containers of their own on the same engine."""

from __future__ import annotations

import os
import socket
from typing import Any

from sandbox.docker_runner import OWNER_LABEL
from tests.utils.service_fixtures import process_tree


def _owner(summary: dict[str, Any]) -> int | None:
    host, _, pid = ((summary.get("Labels") or {}).get(OWNER_LABEL) or "").rpartition(":")
    return int(pid) if host == socket.gethostname() and pid.isdigit() else None


def held_by_a_live_process(summary: dict[str, Any]) -> bool:
    pid = _owner(summary)
    if pid is None:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def this_sessions(containers: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The containers made by this test process or a process it started (a stack worker's)."""
    mine = {os.getpid(), *process_tree(os.getpid())}
    return [c for c in containers if _owner(c) in mine]
