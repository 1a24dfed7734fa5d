"""The child process's entry point: apply the limits, run one job, print one JSON line.

``runner.run_child`` starts ``python -S -c "from judge.mutation.child import main; main()"`` and
sends the job on stdin. Whatever the mutant prints goes to a buffer, so the last stdout line is ours.
"""

from __future__ import annotations

import io
import json
import resource
import signal
import sys

from judge.mutation.calls import CallTimeout, on_alarm
from judge.mutation.equivalence import compare
from judge.mutation.runner import check_tests


def main() -> None:
    """Read a job (JSON) on stdin, print ``{"differs": ..., "detail": ...}`` on stdout."""
    job = json.loads(sys.stdin.read())
    limit = job["memory_bytes"]
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    cpu = int(job["cpu_seconds"])
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 5))
    sys.setrecursionlimit(10_000)
    signal.signal(signal.SIGALRM, on_alarm)
    real_stdout = sys.stdout
    sys.stdout = sys.stderr = io.StringIO()  # whatever the code prints is not the result
    try:
        run = compare if job["kind"] == "fuzz" else check_tests
        detail = run(job)
    except CallTimeout:
        detail = "timed out while loading the module"
    except BaseException as exc:  # the mutant failed to load, or broke the runner itself
        detail = f"crashed: {type(exc).__name__}: {str(exc)[:200]}"
    real_stdout.write(json.dumps({"differs": detail is not None, "detail": detail or ""}) + "\n")
    real_stdout.flush()
