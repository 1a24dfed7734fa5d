"""What runs in the child forked for a job (``judge.mutation.forkserver``): apply the limits,
run the job (``check_tests`` for a tests job, ``compare`` for a fuzz job), return one result.
Whatever the mutant prints goes to a buffer, never to the result, which travels on the job's own
connection."""

from __future__ import annotations

import copy
import io
import resource
import signal
import sys
from typing import Any

from judge.mutation.calls import (
    Call,
    CallTimeout,
    call,
    changed_arguments,
    checker,
    decode_arguments,
    load_function,
    on_alarm,
    short,
)
from sandbox.interface import decode


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


def check_tests(job: dict[str, Any]) -> str | None:
    """In the child: the first test the mutant fails, in words; None when it passes them all."""
    spec = checker(job)
    function = load_function(job["source"], job["function"], job["seconds"])
    for case in job["cases"]:
        args, kwargs = decode_arguments(case)
        before_args, before_kwargs = copy.deepcopy(args), copy.deepcopy(kwargs)
        done = call(function, args, kwargs, job["seconds"])
        where = f"test {case['name']!r}"
        if done.timed_out:
            return f"{where}: timed out"
        if done.error is not None:
            if done.error == case["raises"]:
                continue
            return f"{where}: raised {done.error}: {done.message}"
        if case["raises"] is not None:
            return f"{where}: returned {short(done.value)} instead of raising {case['raises']}"
        expected = decode(case["expected"])
        if spec.check(expected, done.value):
            return f"{where}: expected {short(expected)}, got {short(done.value)}"
        if job["immutable"] and changed_arguments(done, before_args, before_kwargs):
            return f"{where}: changed an argument"
    return None


def _describe(done: Call) -> str:
    if done.timed_out:
        return "timed out"
    if done.error is not None:
        return f"raised {done.error}"
    return f"returned {short(done.value)}"


def compare(job: dict[str, Any]) -> str | None:
    """In the child: the first input where the mutant and the reference differ, in words; None if none."""
    spec = checker(job)
    reference = load_function(job["reference"], job["function"], job["seconds"])
    mutant = load_function(job["source"], job["function"], job["seconds"])
    for number, case in enumerate(job["cases"]):
        args, kwargs = decode_arguments(case)
        want = call(reference, copy.deepcopy(args), copy.deepcopy(kwargs), job["seconds"])
        if want.timed_out:
            continue  # no verdict without the reference's answer
        got = call(mutant, copy.deepcopy(args), copy.deepcopy(kwargs), job["seconds"])
        if want.error is not None or got.error is not None or got.timed_out:
            agree = want.error == got.error and not got.timed_out
        else:
            agree = repr(want.value) == repr(got.value) or spec.check(want.value, got.value) is None
        if agree and job["immutable"] and changed_arguments(got, args, kwargs):
            agree = False
        if not agree:
            shown = ", ".join([short(a) for a in args] + [f"{k}={short(v)}" for k, v in kwargs.items()])
            return f"fuzz input {number} ({shown}): reference {_describe(want)}, mutant {_describe(got)}"
    return None
