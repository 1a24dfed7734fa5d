"""The host's side of slot containers: long-lived containers that judge each submission in a
fresh jail (``sandbox.inside.jail``), so that a submission costs a fork and a few namespaces
instead of a container's life.

A slot container has every limit a single-use container has (``docker_runner.container_options``)
and three differences, all here: its command makes PID 1 the jail template; its seccomp profile
is ``slot-seccomp.json`` (Docker's default plus unshare, mount and umount2, which building a jail
needs); and Docker's masks on /proc are off, because a pid namespace's own /proc can only be
mounted where the container's is fully visible; every jail puts the same masks back on its own
/proc before it runs anything (``namespaces.MASKED``, ``namespaces.READ_ONLY``).

Before each submission the template writes one ``ready`` record: the jail waiting for the Start
message is built, the one before it ended cleanly, and the container's memory came back under a
bound. The host sends a Start only after such a record (``ready``); anything else retires the
slot.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from sandbox.inside import step_jail
from sandbox.interface import Limits

PROFILE = Path(__file__).with_name("slot-seccomp.json")
# Processes of a slot besides a jail's own: the template, and the jail's parent outside it, and
# for a per_test problem the two that each step's jail adds (step_jail.PROCESSES), for the step
# that runs and the one spawned ahead (the container's pids limit grows by these, so a
# submission's processes get the same room).
SLOT_PROCESSES = 2 + 2 * step_jail.PROCESSES
# Memory the container may hold between two submissions: the template and a waiting jail need
# about 25 MB; more means something outlived its jail.
MEMORY_BOUND = 64 * 1024 * 1024
# The longest a slot lives, from its creation; the host retires it earlier (``Slot.expires``).
MAX_AGE = 3600.0


@cache
def seccomp_profile() -> str:
    """The profile's JSON, as Docker's API takes it (the text, not a path)."""
    return json.dumps(json.loads(PROFILE.read_text(encoding="utf-8")), separators=(",", ":"))


def slot_options(options: dict[str, Any], limits: Limits, lifetime: float) -> dict[str, Any]:
    """``container_options`` made a slot's: see the module's docstring. Under gVisor the jails
    are built without a user namespace (``jail.main``'s ``plain``), so the template holds
    CAP_SYS_ADMIN (for the namespaces and mounts) and CAP_SETPCAP (to drop capabilities from the
    bounding set), which gVisor's own kernel checks and the host never sees; every jail drops
    both before anything else runs there."""
    slot = dict(options)
    slot["command"] = ["slot", str(int(lifetime)), str(limits.tmpfs_mb), str(limits.tmpfs_inodes)]
    if options["runtime"] == "runsc":
        slot["command"].append("plain")
        slot["cap_add"] = [*options["cap_add"], "SYS_ADMIN", "SETPCAP"]
    slot["security_opt"] = [*options["security_opt"], f"seccomp={seccomp_profile()}"]
    slot["pids_limit"] = options["pids_limit"] + SLOT_PROCESSES
    slot["system_paths"] = "unconfined"
    return slot


@dataclass(frozen=True)
class Ready:
    """The template's record before a Start: see ``sandbox.inside.jail.main``."""

    jail: int
    built: bool
    previous: int | None
    memory: int | None

    @property
    def problem(self) -> str | None:
        """Why the slot must not take a submission now; None when it may."""
        if not self.built:
            return "its jail could not be built"
        if self.previous not in (None, 0):
            return f"its last jail ended with status {self.previous}"
        if self.memory is not None and self.memory > MEMORY_BOUND:
            return f"it holds {self.memory // 2**20} MB between submissions"
        return None


def parse_ready(line: bytes) -> Ready:
    """A ready record; ValueError for anything else."""
    raw = json.loads(line)
    if not isinstance(raw, dict) or raw.get("slot") != "ready":
        raise ValueError(f"not a ready record: {line[:200]!r}")
    jail, built, previous, memory = raw["jail"], raw["built"], raw["previous"], raw["memory"]
    if (not isinstance(jail, int) or not isinstance(built, bool)
            or not (previous is None or isinstance(previous, int))
            or not (memory is None or isinstance(memory, int))):
        raise ValueError(f"a malformed ready record: {line[:200]!r}")
    return Ready(jail, built, previous, memory)
