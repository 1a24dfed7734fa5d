"""Warm, single-use sandboxes: the pool's logic with stand-in items (no container), then the pool
through the real engine (marked docker): never a container twice, refilled, drained, a dead one
skipped, other limits cold, and the containers of a killed holder ending by themselves."""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import itertools
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import docker
import pytest

from judge.grading import build_payload, grade, run_order, sandbox_limits
from judge.problems import Problem
from judge.results import Verdict
from sandbox.docker_runner import (
    EXPIRES_LABEL,
    LABEL,
    LONGEST_RUN,
    WARM_LABEL,
    DockerSandbox,
    WarmContainer,
    container_limits,
    sweep_leftovers,
)
from sandbox.interface import Limits, Payload, SandboxRun, SandboxUnavailable
from sandbox.warm_pool import MAX_DEFERRED, MAX_IDLE, WarmPool

ROOT = Path(__file__).resolve().parents[2]

# ---------------------------------------------------------------------------------------------
# The pool alone, with stand-in items


class Items:
    """Numbered stand-ins; remembers what was discarded and forgotten."""

    def __init__(self, fail: int = 0) -> None:
        self.counter = itertools.count()
        self.fail = fail
        self.discarded: list[int] = []
        self.lock = threading.Lock()

    def make(self, key: str) -> int:
        with self.lock:
            if self.fail:
                self.fail -= 1
                raise RuntimeError("the engine is away")
            return next(self.counter)

    def discard(self, item: int) -> None:
        with self.lock:
            self.discarded.append(item)


def stand_in_pool(items: Items, size: int = 2, max_idle: float = 300.0) -> WarmPool[str, int]:
    return WarmPool(size, ["a", "b"], items.make, items.discard, lambda _: None, max_idle=max_idle)


def test_items_are_handed_out_once_and_refilled() -> None:
    items = Items()
    pool = stand_in_pool(items)
    try:
        assert pool.take("a", lambda _: True) is None  # the first take of a key is cold...
        assert pool.wait_filled(5) and pool.idle("a") == 2  # ...and starts filling it
        taken = []
        for _ in range(6):
            item = pool.take("a", lambda _: True)
            assert item is not None
            taken.append(item)
            assert pool.wait_filled(5)
        assert len(set(taken)) == 6
        assert pool.idle("b") == 0  # never asked for: never filled
        assert pool.take("other", lambda _: True) is None and pool.idle() == 2
    finally:
        assert pool.close() == 2
    assert pool.idle() == 0 and sorted(items.discarded) == sorted(set(range(8)) - set(taken))
    assert pool.take("a", lambda _: True) is None  # closed: the cold path from now on


def test_a_refused_item_is_discarded_and_the_next_one_tried() -> None:
    items = Items()
    pool = stand_in_pool(items)
    try:
        pool.prime("a")
        assert pool.wait_filled(5)
        first, second = pool.items()
        assert pool.take("a", lambda item: item != first) == second
        assert items.discarded == [first]
        assert pool.take("a", lambda _: False) is None  # whatever is idle now is refused too
    finally:
        pool.close()


def test_idle_items_are_replaced_after_their_maximum_age() -> None:
    items = Items()
    pool = stand_in_pool(items, max_idle=0.3)
    try:
        pool.prime("a")
        assert pool.wait_filled(5)
        old = set(pool.items())
        time.sleep(1.0)
        assert pool.wait_filled(5)
        assert old <= set(items.discarded) and not old & set(pool.items())
    finally:
        pool.close()


def test_a_failing_make_is_retried_after_a_pause() -> None:
    items = Items(fail=1)
    pool = stand_in_pool(items, size=1)
    try:
        pool.prime("a")
        started = time.monotonic()
        assert pool.wait_filled(10)
        assert pool.failures == 1 and time.monotonic() - started >= 0.9  # RETRY_FIRST
    finally:
        pool.close()


def test_nothing_is_made_while_a_run_is_in_progress() -> None:
    items = Items()
    pool = stand_in_pool(items)
    try:
        pool.prime("a")
        assert pool.wait_filled(5)
        with pool.running():  # making a container would compete with the run for the CPU
            assert pool.take("a", lambda _: True) is not None
            time.sleep(0.3)
            assert pool.idle("a") == 1
        assert pool.wait_filled(5) and pool.idle("a") == 2  # made once the run ended
    finally:
        pool.close()


def test_a_starved_pool_makes_several_at_once_even_during_runs() -> None:
    """Runs that outpace one maker (a take finds nothing) turn on the fast mode: makes overlap
    each other and the run in progress; once fed, the pool goes back to one make at a time."""
    items = Items()
    in_flight, most = [0], [0]
    lock = threading.Lock()

    def slow_make(key: str) -> int:
        with lock:
            in_flight[0] += 1
            most[0] = max(most[0], in_flight[0])
        time.sleep(0.3)
        with lock:
            in_flight[0] -= 1
        return items.make(key)

    pool: WarmPool[str, int] = WarmPool(2, ["a"], slow_make, items.discard, lambda _: None,
                                        makers=3)
    try:
        pool.prime("a")
        assert pool.wait_filled(5) and most[0] == 1  # fed: one at a time
        with pool.running():
            assert pool.take("a", lambda _: True) is not None
            assert pool.take("a", lambda _: True) is not None
            assert pool.take("a", lambda _: True) is None  # starved: this run goes cold
            deadline = time.monotonic() + 3
            while pool.idle("a") < 3 and time.monotonic() < deadline:
                time.sleep(0.02)
            assert pool.idle("a") == 3, "made during the run, up to one an item per maker"
        assert most[0] >= 2
    finally:
        pool.close()


def test_a_take_that_may_wait_gets_the_item_being_made() -> None:
    """With none idle, a take that may wait gets the item already being made (ready sooner
    than one its caller would start); with makes failing it gives up at once."""
    items = Items()

    def slow_make(key: str) -> int:
        time.sleep(0.3)
        return items.make(key)

    pool: WarmPool[str, int] = WarmPool(1, ["a"], slow_make, items.discard, lambda _: None)
    try:
        pool.prime("a")
        assert pool.wait_filled(5)
        first = pool.take("a", lambda _: True)
        started = time.monotonic()
        second = pool.take("a", lambda _: True, wait=5)
        assert first is not None and second is not None and second != first
        assert time.monotonic() - started < 2
    finally:
        pool.close()
    failing = Items(fail=100)
    pool = WarmPool(1, ["a"], failing.make, failing.discard, lambda _: None)
    try:
        pool.prime("a")
        time.sleep(0.2)  # its first make has failed: the next is a second away
        started = time.monotonic()
        assert pool.take("a", lambda _: True, wait=5) is None
        assert time.monotonic() - started < 0.5
    finally:
        pool.close()


def test_the_pool_stays_quiet_just_after_a_run() -> None:
    """Its owner stores and announces the verdict then: no make and no removal meanwhile."""
    items = Items()
    pool: WarmPool[str, int] = WarmPool(1, ["a"], items.make, items.discard, lambda _: None,
                                        after_run=0.5)
    made: list[float] = []
    original = pool._make

    def timed_make(key: str) -> int:
        made.append(time.monotonic())
        return original(key)

    pool._make = timed_make  # type: ignore[method-assign]
    try:
        pool.prime("a")
        assert pool.wait_filled(5)
        with pool.running():
            assert pool.take("a", lambda _: True) is not None
        ended = time.monotonic()
        assert pool.wait_filled(5)
        assert made[-1] - ended >= 0.45
    finally:
        pool.close()


def test_deferred_jobs_run_after_the_run_and_after_the_make_it_needs() -> None:
    """A run's clean-up (removing its container) waits for the run to end, and for the item
    that replaces the one it took."""
    order: list[str] = []
    items = Items()

    def make(key: str) -> int:
        order.append("make")
        return items.make(key)

    pool: WarmPool[str, int] = WarmPool(1, ["a"], make, items.discard, lambda _: None)
    try:
        pool.prime("a")
        assert pool.wait_filled(5)
        with pool.running():
            assert pool.take("a", lambda _: True) is not None
            assert pool.defer(lambda: order.append("removed"))
            time.sleep(0.2)
            assert order == ["make"]  # nothing while the run is in progress
        assert pool.wait_settled(5) and pool.wait_filled(5)
        assert order == ["make", "make", "removed"]
    finally:
        pool.close()


def test_deferred_jobs_are_bounded_and_run_by_close() -> None:
    done: list[int] = []
    pool = stand_in_pool(Items())

    def failing() -> None:
        raise RuntimeError("the engine is away")

    with pool.running():  # the thread runs nothing meanwhile
        assert pool.defer(failing)  # logged; the others still run
        for number in range(MAX_DEFERRED - 1):
            assert pool.defer(functools.partial(done.append, number))
        assert not pool.defer(lambda: done.append(99))  # full: the caller runs its own
        pool.close()
    assert done == list(range(MAX_DEFERRED - 1))
    assert not pool.defer(lambda: done.append(99))  # closed
    assert pool.wait_settled(1)


def test_the_observer_is_told_every_idle_count() -> None:
    seen: list[int] = []
    pool = stand_in_pool(Items())
    pool.observer = seen.append  # the workers' judge_warm_pool_containers gauge
    pool.prime("a")
    assert pool.wait_filled(5)
    assert pool.take("a", lambda _: True) is not None
    assert pool.wait_filled(5)
    pool.close()
    assert seen == [1, 2, 1, 2, 0]


def test_an_item_made_while_closing_is_discarded() -> None:
    release = threading.Event()
    discarded: list[int] = []

    def slow_make(_: str) -> int:
        release.wait(5)
        return 7

    pool: WarmPool[str, int] = WarmPool(1, ["a"], slow_make, discarded.append, lambda _: None)
    pool.prime("a")
    time.sleep(0.1)  # the thread is inside slow_make
    closer = threading.Thread(target=pool.close)
    closer.start()
    time.sleep(0.1)
    release.set()
    closer.join(10)
    assert discarded == [7] and pool.idle() == 0


def test_without_an_engine_a_pooled_sandbox_is_still_unavailable(
        monkeypatch: pytest.MonkeyPatch, secret_problem: Problem) -> None:
    """The pool cannot fill and the cold path cannot create: SandboxUnavailable, as without it."""
    from sandbox import docker_runner

    def no_engine() -> docker.DockerClient:
        raise SandboxUnavailable("no Docker engine answers")

    monkeypatch.setattr(docker_runner, "connect", no_engine)
    gone = docker.DockerClient(base_url="unix:///nonexistent/docker.sock", version="1.41", timeout=2)
    sandbox = DockerSandbox("no-image", gone, warm_pool_size=2, warm_limits=[Limits()])
    payload = build_payload(secret_problem, secret_problem.reference, secret_problem.public_tests)
    payload = dataclasses.replace(payload, limits=Limits())  # a key the pool serves
    try:
        for _ in range(2):
            with pytest.raises(SandboxUnavailable, match="could not create"):
                sandbox.run(payload)
        with pytest.raises(SandboxUnavailable):
            sandbox.check()
        assert sandbox.pool is not None and sandbox.warm_runs == 0
        deadline = time.monotonic() + 5
        while sandbox.pool.failures == 0:  # the thread tried, failed and waits to try again
            assert time.monotonic() < deadline
            time.sleep(0.05)
    finally:
        sandbox.close()
    assert sandbox.pool.idle() == 0


# ---------------------------------------------------------------------------------------------
# Through the real engine


class Recording(DockerSandbox):
    """A pooled DockerSandbox that remembers every run and every container its pool made."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        self.runs: list[SandboxRun] = []
        self.made: list[str] = []
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    def run(self, payload: Payload) -> SandboxRun:
        run = super().run(payload)
        self.runs.append(run)
        return run

    def _make_warm(self, key: Limits) -> WarmContainer:
        warm = super()._make_warm(key)
        self.made.append(warm.id)
        return warm


def _exists(sandbox: DockerSandbox, container_id: str, running_only: bool = False) -> bool:
    return bool(sandbox.client.api.containers(all=not running_only, filters={"id": container_id}))


def _problem_limits(problem: Problem) -> Limits:
    return sandbox_limits(problem, len(problem.tests()))


@pytest.fixture
def pooled(docker_sandbox: DockerSandbox, secret_problem: Problem) -> Iterator[Recording]:
    """A pool of 2 for the fixture problem's limits; afterwards nothing it made is left."""
    sandbox = Recording(docker_sandbox.image, docker_sandbox.client, docker_sandbox.runtime,
                        warm_pool_size=2, warm_limits=[_problem_limits(secret_problem)])
    try:
        yield sandbox
    finally:
        sandbox.close()
        assert sandbox.pool is not None and sandbox.pool.idle() == 0
        left = [c for c in sandbox.made + list(sandbox.recent) if _exists(sandbox, c)]
        assert not left, f"{len(left)} containers of the pool were left behind"


def _fill(sandbox: DockerSandbox, problem: Problem) -> list[str]:
    sandbox.prime(_problem_limits(problem))
    assert sandbox.pool is not None and sandbox.pool.wait_filled(60)
    return [warm.id for warm in sandbox.pool.items()]


@pytest.mark.docker
def test_no_container_serves_two_submissions(pooled: Recording, secret_problem: Problem) -> None:
    _fill(pooled, secret_problem)
    for _ in range(6):
        report = grade(secret_problem, secret_problem.reference, pooled)
        assert report.verdict is Verdict.ACCEPTED, report.message
        assert pooled.runs[-1].finished  # so its removal was left to the pool's thread...
        assert pooled.pool is not None and pooled.pool.wait_settled(60)
        assert not _exists(pooled, pooled.runs[-1].container), "a used container was not removed"
        assert pooled.pool.wait_filled(60)
    served = [run.container for run in pooled.runs]
    assert len(set(served)) == 6 and all(served)
    assert pooled.warm_runs == 6 and set(served) <= set(pooled.made)


# Accepted, and leaves behind what it can: a thread that never ends and a child process of its
# own session that sleeps on.
LINGERING = ("import os, threading, time\n"
             "threading.Thread(target=lambda: time.sleep(3600), daemon=False).start()\n"
             "if os.fork() == 0:\n    os.setsid()\n    time.sleep(3600)\n    os._exit(0)\n")


@pytest.mark.docker
def test_a_finished_container_waits_for_its_removal_with_no_learner_process_left(
        pooled: Recording, secret_problem: Problem) -> None:
    """Its exit (the engine's work) is put off until the verdict is stored, but nothing of the
    learner's runs meanwhile: the supervisor ended every process of the learner's uids when the
    host said there were no more tests."""
    _fill(pooled, secret_problem)
    assert pooled.pool is not None
    with pooled.pool.running():  # holds the pool's thread, as a worker storing its verdict does
        report = grade(secret_problem, LINGERING + secret_problem.reference, pooled)
        assert report.verdict is Verdict.ACCEPTED, report.message
        container = pooled.runs[-1].container
        assert pooled.runs[-1].finished and _exists(pooled, container, running_only=True)
        # The host's "no more tests" goes as the host returns, and the supervisor ends the
        # learner's processes as it reads it: a moment later, under a loaded machine a few
        # milliseconds, none is left, while the container waits for its removal.
        deadline = time.monotonic() + 5
        while True:
            top = pooled.client.api.top(container, ps_args="-eo uid,pid,args")
            uids = {int(row[top["Titles"].index("UID")]) for row in top["Processes"]}
            if uids and all(uid < 20000 for uid in uids):  # 20000 up: learners' uids
                break
            assert time.monotonic() < deadline, top
            time.sleep(0.05)
        assert _exists(pooled, container, running_only=True)
    assert pooled.pool.wait_settled(60)
    assert not _exists(pooled, container)


@pytest.mark.docker
def test_a_run_that_stopped_early_removes_its_container_at_once(
        pooled: Recording, secret_problem: Problem) -> None:
    """Its last learner process may still be running: no deferring then."""
    _fill(pooled, secret_problem)
    spin = next(w for w in secret_problem.wrong if w.name == "spin")
    assert grade(secret_problem, spin.code, pooled).verdict is spin.verdict
    assert not pooled.runs[-1].finished and pooled.warm_runs == 1
    assert not _exists(pooled, pooled.runs[-1].container)


@pytest.mark.docker
def test_the_pool_refills_to_its_size_and_drains_to_zero(
        pooled: Recording, secret_problem: Problem) -> None:
    first = _fill(pooled, secret_problem)
    sweep_leftovers(pooled.client)  # what every worker runs once a minute: idle ones stay
    assert len(first) == 2 and all(_exists(pooled, c, running_only=True) for c in first)
    for container_id in first:  # the label covers the longest idle time and the longest run
        expires = pooled.client.api.inspect_container(container_id)["Config"]["Labels"][EXPIRES_LABEL]
        assert int(expires) >= time.time() + MAX_IDLE + LONGEST_RUN
    assert grade(secret_problem, secret_problem.reference, pooled).verdict is Verdict.ACCEPTED
    assert pooled.pool is not None and pooled.pool.wait_filled(60)
    now = [warm.id for warm in pooled.pool.items()]
    assert len(now) == 2 and len(set(first) | set(now)) == 3  # one taken, one made for it
    assert pooled.pool.close() == 2
    assert pooled.pool.idle() == 0
    assert not any(_exists(pooled, c) for c in pooled.made)


@pytest.mark.docker
def test_a_warm_container_that_dies_just_after_it_is_taken_gives_way_to_a_cold_one(
        pooled: Recording, secret_problem: Problem, monkeypatch: pytest.MonkeyPatch) -> None:
    """The take trusts the open attach stream; one that dies between that check and its Start
    (no record came) is not the learner's failure: the run starts again in a cold container."""
    _fill(pooled, secret_problem)
    taken: list[str] = []
    check = pooled._usable

    def dies_after_the_check(warm: WarmContainer, limits: Limits) -> bool:
        usable = check(warm, limits)
        if usable and not taken:
            taken.append(warm.id)
            pooled.client.api.kill(warm.id)
            pooled.client.api.wait(warm.id, timeout=10)
        return usable

    monkeypatch.setattr(pooled, "_usable", dies_after_the_check)
    report = grade(secret_problem, secret_problem.reference, pooled)
    assert report.verdict is Verdict.ACCEPTED, report.message
    assert taken and pooled.runs[-1].container not in taken
    assert not _exists(pooled, taken[0])


@pytest.mark.docker
def test_a_warm_container_killed_while_idle_is_not_used(
        pooled: Recording, secret_problem: Problem) -> None:
    killed = _fill(pooled, secret_problem)
    for container_id in killed:
        pooled.client.api.kill(container_id)
    report = grade(secret_problem, secret_problem.reference, pooled)
    assert report.verdict is Verdict.ACCEPTED, report.message
    assert pooled.runs[-1].container not in killed
    assert not any(_exists(pooled, c) for c in killed)  # discarded when found dead
    wrong = next(w for w in secret_problem.wrong if w.name == "guess")
    assert grade(secret_problem, wrong.code, pooled).verdict is wrong.verdict


@pytest.mark.docker
def test_other_limits_take_the_cold_path(docker_sandbox: DockerSandbox,
                                         secret_problem: Problem) -> None:
    # Kept warm for the default limits; the fixture problem asks for 128 MB.
    assert container_limits(_problem_limits(secret_problem)) != container_limits(Limits())
    sandbox = Recording(docker_sandbox.image, docker_sandbox.client, docker_sandbox.runtime,
                        warm_pool_size=2)
    try:
        sandbox.prime()
        assert sandbox.pool is not None and sandbox.pool.wait_filled(60)
        warm = {w.id for w in sandbox.pool.items()}
        assert grade(secret_problem, secret_problem.reference, sandbox).verdict is Verdict.ACCEPTED
        wrong = next(w for w in secret_problem.wrong if w.name == "guess")
        assert grade(secret_problem, wrong.code, sandbox).verdict is wrong.verdict
        assert sandbox.warm_runs == 0 and not {r.container for r in sandbox.runs} & warm
        assert {w.id for w in sandbox.pool.items()} == warm  # untouched
        memory = sandbox.client.api.inspect_container(next(iter(warm)))["HostConfig"]["Memory"]
        assert memory == Limits().memory_mb * 1024 * 1024
    finally:
        sandbox.close()
    assert not any(_exists(sandbox, c) for c in sandbox.made + list(sandbox.recent))


@pytest.mark.docker
def test_the_run_clock_starts_when_the_container_is_taken(
        pooled: Recording, secret_problem: Problem) -> None:
    """A container idle longer than the run's wall clock still has the whole wall clock."""
    _fill(pooled, secret_problem)
    payload = build_payload(secret_problem, secret_problem.reference,
                            run_order(secret_problem, include_hidden=True))
    payload = dataclasses.replace(
        payload, limits=dataclasses.replace(payload.limits, time_per_submission=4.0))
    time.sleep(5.0)
    run = pooled.run(payload)
    assert pooled.warm_runs == 1
    assert run.loaded.outcome.value == "returned"
    assert len(run.results) == len(payload.tests)
    assert all(r.outcome.value == "returned" for r in run.results)


HOLDER = """
import json, sys, time
from sandbox.docker_runner import DockerSandbox
from sandbox.interface import Limits
sandbox = DockerSandbox(sys.argv[1], warm_pool_size=2)
sandbox.prime(Limits())
assert sandbox.pool.wait_filled(60)
print(json.dumps([warm.id for warm in sandbox.pool.items()]), flush=True)
sys.stdin.readline()  # until the test says: then exit normally, through atexit
"""
ORPHANS_END_WITHIN = 20.0


@pytest.mark.docker
@pytest.mark.parametrize("ending", ["kill-9", "exit"])
def test_the_containers_of_a_holder_end_with_it(docker_sandbox: DockerSandbox, ending: str) -> None:
    """Killed: its idle containers end by themselves (nothing attached, stdin closes), and a
    sweep removes them (at once, now that their owner is known dead). Exiting: atexit removes them."""
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, docker_sandbox.image], cwd=ROOT,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=os.environ.copy())
    api = docker_sandbox.client.api
    ids: list[str] = []
    try:
        assert holder.stdout is not None and holder.stdin is not None
        ids = json.loads(holder.stdout.readline() or "[]")
        assert len(ids) == 2
        assert all(api.containers(filters={"id": c}) for c in ids)  # running, waiting
        if ending == "kill-9":
            holder.send_signal(signal.SIGKILL)
        else:
            holder.stdin.close()
        holder.wait(30)
        deadline = time.monotonic() + ORPHANS_END_WITHIN
        while running := [c for c in ids if api.containers(filters={"id": c})]:
            assert time.monotonic() < deadline, f"{len(running)} orphans still run"
            time.sleep(0.2)
        if ending == "exit":
            assert not any(api.containers(all=True, filters={"id": c}) for c in ids)
            return
        for container_id in ids:  # ended by themselves, quietly: nothing was ever sent
            try:
                info = api.inspect_container(container_id)
            except docker.errors.NotFound:
                continue  # already swept: any worker's sweep on this host takes a dead owner's at once
            if info["State"]["Status"] == "removing":
                continue
            assert info["State"]["Status"] == "exited" and info["State"]["ExitCode"] == 0
            assert LABEL in info["Config"]["Labels"]  # so the sweep finds it
            assert WARM_LABEL in info["Config"]["Labels"]
    finally:
        if holder.poll() is None:
            holder.kill()
            holder.wait()
        for container_id in ids:
            with contextlib.suppress(docker.errors.NotFound, docker.errors.APIError):  # gone, or going
                api.remove_container(container_id, force=True)
