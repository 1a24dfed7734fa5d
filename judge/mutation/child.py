"""What runs in the child forked for a job (``judge.mutation.forkserver``): apply the limits,
run the job, return one result. Whatever the mutant prints goes to a buffer, never to the result,
which travels on the job's own connection."""

from __future__ import annotations

import io
import resource
import signal
import sys
from typing import Any

from judge.mutation.calls import CallTimeout, on_alarm
from judge.mutation.equivalence import compare
from judge.mutation.runner import check_tests


def run(job: dict[str, Any]) -> dict[str, Any]:
    """Run the job under its limits: ``{"differs": ..., "detail": ...}``."""
    limit = job["memory_bytes"]
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    cpu = int(job["cpu_seconds"])
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 5))
    sys.setrecursionlimit(10_000)
    signal.signal(signal.SIGALRM, on_alarm)
    sys.stdout = sys.stderr = io.StringIO()  # whatever the code prints is not the result
    try:
        detail = (compare if job["kind"] == "fuzz" else check_tests)(job)
    except CallTimeout:
        detail = "timed out while loading the module"
    except BaseException as exc:  # the mutant failed to load, or broke the runner itself
        detail = f"crashed: {type(exc).__name__}: {str(exc)[:200]}"
    return {"differs": detail is not None, "detail": detail or ""}
