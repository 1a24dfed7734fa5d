"""The sandbox through the real container: each test asserts what a learner would see."""

from __future__ import annotations

import contextlib
import dataclasses
import os
import socket
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import docker
import pytest

from judge.grading import grade
from judge.problems import Problem
from judge.results import Report, TestStatus, Verdict
from sandbox.docker_runner import LABEL, DockerSandbox, container_options
from sandbox.interface import Isolation, Limits

pytestmark = pytest.mark.docker


@pytest.fixture(autouse=True)
def no_leftovers(docker_sandbox: DockerSandbox) -> Iterator[None]:
    """Every container a test's submissions started is gone when the test ends, but a slot held
    for the next submission (it finished its last run cleanly)."""
    docker_sandbox.recent.clear()
    yield
    existing = {c["Id"] for c in docker_sandbox.client.api.containers(all=True, filters={"label": LABEL})}
    left = existing & set(docker_sandbox.recent) - docker_sandbox.held_slots()
    assert not left, "a sandbox container was left behind"


def judge(problem: Problem, sandbox: DockerSandbox, code: str) -> Report:
    return grade(problem, code, sandbox)


def statuses(report: Report) -> list[TestStatus]:
    return [t.status for t in report.tests]


def test_reference_is_accepted(secret_problem: Problem, docker_sandbox: DockerSandbox) -> None:
    report = judge(secret_problem, docker_sandbox, secret_problem.reference)
    assert report.verdict is Verdict.ACCEPTED
    assert report.score == 1.0


@pytest.mark.parametrize("wrong", ["guess", "spin"])
def test_wrong_solutions_get_their_verdict(
    secret_problem: Problem, docker_sandbox: DockerSandbox, wrong: str
) -> None:
    solution = next(w for w in secret_problem.wrong if w.name == wrong)
    assert judge(secret_problem, docker_sandbox, solution.code).verdict is solution.verdict


@pytest.mark.parametrize(
    "body",
    ["while True:\n        pass", "import time\n    time.sleep(1e6)"],
    ids=["busy-loop", "sleep"],
)
def test_endless_calls_hit_the_time_limit_in_time(
    secret_problem: Problem, docker_sandbox: DockerSandbox, body: str
) -> None:
    code = f"def lookup(key):\n    {body}\n"
    started = time.monotonic()
    report = judge(secret_problem, docker_sandbox, code)
    elapsed = time.monotonic() - started
    assert report.verdict is Verdict.TIME_LIMIT_EXCEEDED
    # The run stops at the first time-out: the rest are never sent.
    assert statuses(report) == [TestStatus.TIME_LIMIT_EXCEEDED] + [TestStatus.NOT_RUN] * 4
    assert "each test may take 1 s" in (report.tests[0].explanation or "")
    # One test at a 1 s limit, plus container start-up and a small margin.
    assert elapsed < 2 * 1.0 + 3


def test_signal_handlers_cannot_dodge_the_time_limit(
    secret_problem: Problem, docker_sandbox: DockerSandbox
) -> None:
    code = (
        "import signal\n"
        "for s in (signal.SIGALRM, signal.SIGTERM, signal.SIGINT):\n"
        "    signal.signal(s, signal.SIG_IGN)\n"
        "def lookup(key):\n    while True:\n        pass\n"
    )
    report = judge(secret_problem, docker_sandbox, code)
    assert report.verdict is Verdict.TIME_LIMIT_EXCEEDED


def test_huge_allocation_is_memory_limit_exceeded(
    secret_problem: Problem, docker_sandbox: DockerSandbox
) -> None:
    report = judge(secret_problem, docker_sandbox, "def lookup(key):\n    return bytearray(10**10)\n")
    assert report.verdict is Verdict.MEMORY_LIMIT_EXCEEDED


def test_growing_memory_is_memory_limit_exceeded(
    secret_problem: Problem, docker_sandbox: DockerSandbox
) -> None:
    code = "def lookup(key):\n    chunks = []\n    while True:\n        chunks.append(b'x' * 10**6)\n"
    report = judge(secret_problem, docker_sandbox, code)
    assert report.verdict is Verdict.MEMORY_LIMIT_EXCEEDED


@pytest.mark.parametrize("isolation", [Isolation.SHARED, Isolation.PER_TEST])
def test_each_test_reports_the_memory_its_process_reached(
    secret_problem: Problem, docker_sandbox: DockerSandbox, isolation: Isolation
) -> None:
    """The first test holds 80 MB for a moment; the report's counts say so. A process per test
    starts low again; a process that serves every test keeps its high-water mark."""
    code = ("HELD = []\n"
            "def lookup(key):\n"
            "    if key == 'a':\n"
            "        block = bytearray(80 * 10**6)\n"
            "        block[::4096] = b'x' * len(block[::4096])\n"
            "    return 'no'\n")
    problem = dataclasses.replace(secret_problem, isolation=isolation)
    report = grade(problem, code, docker_sandbox, include_hidden=False)
    first, second = (t.memory_bytes for t in report.tests[:2])
    assert first is not None and second is not None
    assert first > 80 * 10**6
    if isolation is Isolation.PER_TEST:
        assert second < 40 * 10**6
    else:
        assert second >= first
    assert report.as_json()["peak_memory_bytes"] == max(first, second)


def test_print_flood_is_output_limit_exceeded(
    secret_problem: Problem, docker_sandbox: DockerSandbox
) -> None:
    code = "def lookup(key):\n    while True:\n        print('spam' * 100)\n"
    report = judge(secret_problem, docker_sandbox, code)
    assert report.verdict is Verdict.OUTPUT_LIMIT_EXCEEDED


def test_fork_bomb_is_contained(secret_problem: Problem, docker_sandbox: DockerSandbox) -> None:
    code = (
        "import os\n"
        "def lookup(key):\n"
        "    while True:\n"
        "        try:\n"
        "            os.fork()\n"
        "        except OSError:\n"
        "            pass\n"
    )
    started = time.monotonic()
    report = judge(secret_problem, docker_sandbox, code)
    assert report.verdict is not Verdict.ACCEPTED
    assert time.monotonic() - started < 40
    # The engine is still usable afterwards: the next submission is judged normally.
    assert judge(secret_problem, docker_sandbox, secret_problem.reference).verdict is Verdict.ACCEPTED


def _probe(problem: Problem, sandbox: DockerSandbox, body: str, seconds: float | None = None) -> str:
    """Run code whose public-test return value is a probe's finding, and read that finding.
    ``seconds``: a longer limit per test, for a probe that reads much (what it finds is the point,
    not how fast)."""
    code = "def lookup(key):\n" + "\n".join("    " + line for line in body.splitlines()) + "\n"
    if seconds is not None:
        problem = dataclasses.replace(
            problem, limits=dataclasses.replace(problem.limits, time_per_test=seconds))
    report = judge(problem, sandbox, code)
    actual = report.tests[0].actual
    assert isinstance(actual, str), report.tests[0].explanation
    return actual


def test_network_is_unreachable(secret_problem: Problem, docker_sandbox: DockerSandbox) -> None:
    found = _probe(secret_problem, docker_sandbox, (
        "import socket\n"
        "results = []\n"
        "for host, port in (('1.1.1.1', 53), ('8.8.8.8', 443), ('127.0.0.1', 5432)):\n"
        "    s = socket.socket()\n"
        "    s.settimeout(0.5)\n"
        "    try:\n"
        "        s.connect((host, port))\n"
        "        results.append('connected')\n"
        "    except OSError as exc:\n"
        "        results.append(type(exc).__name__)\n"
        "names = [n for _, n in socket.if_nameindex()]\n"
        "return ','.join(results) + '|' + ','.join(names)\n"
    ))
    attempts, interfaces = found.split("|")
    assert "connected" not in attempts
    assert interfaces == "lo"


def test_writes_outside_tmp_fail_and_tmp_is_noexec(
    secret_problem: Problem, docker_sandbox: DockerSandbox
) -> None:
    found = _probe(secret_problem, docker_sandbox, (
        "import os, subprocess\n"
        "out = []\n"
        "for path in ('/etc/judge', '/opt/judge/sandbox/inside/x.py', '/home/x', '/x'):\n"
        "    try:\n"
        "        open(path, 'w').write('x')\n"
        "        out.append('wrote ' + path)\n"
        "    except OSError as exc:\n"
        "        out.append(type(exc).__name__)\n"
        "open('/tmp/run.sh', 'w').write('#!/bin/sh\\necho hi\\n')\n"
        "os.chmod('/tmp/run.sh', 0o755)\n"
        "try:\n"
        "    subprocess.run(['/tmp/run.sh'], check=True)\n"
        "    out.append('executed')\n"
        "except OSError as exc:\n"
        "    out.append('noexec ' + type(exc).__name__)\n"
        "out.append('uid=%d' % os.getuid())\n"
        "return ';'.join(out)\n"
    ))
    assert "wrote" not in found
    assert "executed" not in found and "noexec PermissionError" in found
    assert "uid=20000" in found  # the submission's learner process's own uid, never root


def test_hidden_expected_values_are_nowhere_in_the_sandbox(
    secret_problem: Problem, docker_sandbox: DockerSandbox
) -> None:
    """Search the file system, the stack frames and every tracked object for the markers."""
    found = _probe(secret_problem, docker_sandbox, (
        "import gc, os, re, sys\n"
        "pattern = re.compile('zq' + '-secret-' + '[0-9]+')\n"
        "hits = set()\n"
        "def scan(text):\n"
        "    if isinstance(text, bytes):\n"
        "        text = text.decode('latin-1')\n"
        "    if isinstance(text, str):\n"
        "        hits.update(pattern.findall(text))\n"
        "for obj in gc.get_objects():\n"
        "    if isinstance(obj, dict):\n"
        "        for k, v in list(obj.items()):\n"
        "            scan(k); scan(v)\n"
        "    elif isinstance(obj, (list, tuple, set)):\n"
        "        for v in list(obj):\n"
        "            scan(v)\n"
        "frame = sys._getframe()\n"
        "while frame is not None:\n"
        "    for v in list(frame.f_locals.values()) + list(frame.f_globals.values()):\n"
        "        scan(v); scan(repr(v)[:100000])\n"
        "    frame = frame.f_back\n"
        "for root, dirs, files in os.walk('/'):\n"
        "    if root.startswith(('/proc', '/sys', '/dev')):\n"
        "        dirs[:] = []\n"
        "        continue\n"
        "    for name in files:\n"
        "        try:\n"
        "            with open(os.path.join(root, name), 'rb') as f:\n"
        "                scan(f.read(2000000))\n"
        "        except OSError:\n"
        "            pass\n"
        "for pid in os.listdir('/proc'):\n"
        "    for part in ('cmdline', 'environ'):\n"
        "        try:\n"
        "            scan(open(f'/proc/{pid}/{part}', 'rb').read())\n"
        "        except OSError:\n"
        "            pass\n"
        "return ','.join(sorted(hits))\n"
    ), seconds=10)  # it reads every file: after an image build, from a cold page cache
    assert found == ""


def test_object_whose_eq_is_always_true_is_not_accepted(
    secret_problem: Problem, docker_sandbox: DockerSandbox
) -> None:
    code = (
        "class Anything(str):\n"
        "    def __eq__(self, other):\n        return True\n"
        "    def __ne__(self, other):\n        return False\n"
        "    __hash__ = str.__hash__\n"
        "def lookup(key):\n    return Anything('x')\n"
    )
    report = judge(secret_problem, docker_sandbox, code)
    assert report.verdict is Verdict.WRONG_ANSWER
    assert "wrong type: expected str, got solution.Anything" in (report.tests[0].explanation or "")


@pytest.mark.parametrize("ending", ["import os\n        os._exit(0)", "raise SystemExit(0)"],
                         ids=["os-exit", "system-exit"])
def test_ending_the_process_after_the_first_test_fails_the_rest(
    secret_problem: Problem, docker_sandbox: DockerSandbox, ending: str
) -> None:
    code = (
        "def lookup(key):\n"
        "    if key == 'a':\n        return 'zq-secret-101'\n"
        f"    else:\n        {ending}\n"
    )
    report = judge(secret_problem, docker_sandbox, code)
    assert report.tests[0].status is TestStatus.PASSED
    # Each test has a process of its own: ending one fails that test alone.
    assert all(t.status is TestStatus.RUNTIME_ERROR for t in report.tests[1:])
    assert report.verdict is Verdict.RUNTIME_ERROR
    assert report.score == pytest.approx(1 / 5)


def test_exit_while_loading_fails_every_test(
    secret_problem: Problem, docker_sandbox: DockerSandbox
) -> None:
    report = judge(secret_problem, docker_sandbox, "import os\nos._exit(0)\ndef lookup(key): ...\n")
    assert report.verdict is Verdict.RUNTIME_ERROR
    assert report.score == 0.0


def test_runtime_error_names_exception_and_line(
    secret_problem: Problem, docker_sandbox: DockerSandbox
) -> None:
    report = judge(secret_problem, docker_sandbox, "def lookup(key):\n    x = 1\n    return {}[key]\n")
    assert report.verdict is Verdict.RUNTIME_ERROR
    assert report.tests[0].explanation == "KeyError at line 3: 'a'"


def test_stdout_is_captured_per_test(
    secret_problem: Problem, docker_sandbox: DockerSandbox
) -> None:
    report = judge(secret_problem, docker_sandbox, "def lookup(key):\n    print('k', key)\n    return key\n")
    assert report.tests[0].stdout == "k a\n"
    assert report.tests[1].stdout == "k b\n"


def test_every_limit_is_set_on_the_container() -> None:
    limits = Limits(memory_mb=128, pids=32, cpus=0.5, file_size_bytes=1000, open_files=20)
    options = container_options(limits, expires=0)
    assert options["network_mode"] == "none" and options["network_disabled"] is True
    assert options["read_only"] is True
    assert "noexec" in options["tmpfs"]["/tmp"]
    assert options["user"] == "0:0"  # the supervisor; learner processes drop to their own uids
    assert options["cap_drop"] == ["ALL"] and options["cap_add"] == ["SETUID", "SETGID", "KILL"]
    assert options["log_config"]["Type"] == "none"
    assert options["security_opt"] == ["no-new-privileges"]
    assert options["pids_limit"] == 32
    assert options["mem_limit"] == options["memswap_limit"] == "128m"
    assert options["nano_cpus"] == 500_000_000
    ulimits = {u["Name"]: u["Soft"] for u in options["ulimits"]}
    assert ulimits["fsize"] == 1000 and ulimits["nofile"] == 20


def test_limits_hold_inside_a_running_container(
    secret_problem: Problem, docker_sandbox: DockerSandbox
) -> None:
    """Read the limits back from inside: what the kernel enforces, not what we asked for."""
    found = _probe(secret_problem, docker_sandbox, (
        "import os, resource\n"
        "caps = [l for l in open('/proc/self/status') if l.startswith(('CapEff', 'NoNewPrivs'))]\n"
        "fsize = resource.getrlimit(resource.RLIMIT_FSIZE)[0]\n"
        "nofile = resource.getrlimit(resource.RLIMIT_NOFILE)[0]\n"
        "ro = 'ro' in [l.split()[3].split(',') for l in open('/proc/mounts') if l.split()[1] == '/'][0]\n"
        "return ' '.join(c.split()[1] for c in caps) + f' {fsize} {nofile} {ro}'\n"
    ))
    cap_eff, no_new_privs, fsize, nofile, read_only = found.split()
    assert int(cap_eff, 16) == 0
    assert no_new_privs == "1"
    assert int(fsize) == Limits().file_size_bytes and int(nofile) == Limits().open_files
    assert read_only == "True"


def test_host_wall_clock_stops_a_hanging_load(docker_sandbox: DockerSandbox) -> None:
    """The per-submission wall clock ends the run even before the first test."""
    from judge.grading import build_payload

    problem_code = "import time\ntime.sleep(1e6)\ndef lookup(key): ...\n"  # hangs while loading
    from judge.problems import load_problem
    from tests.conftest import FIXTURES

    problem = load_problem(FIXTURES / "problems" / "secret_lookup")
    payload = build_payload(problem, problem_code, problem.public_tests)
    payload = dataclasses.replace(payload, limits=dataclasses.replace(payload.limits,
                                                                      time_per_submission=3.0))
    started = time.monotonic()
    run = docker_sandbox.run(payload)
    assert run.loaded.outcome.value == "timeout" and run.results == []
    assert time.monotonic() - started < 3.0 + 3


def test_cgroup_limits_as_the_kernel_sees_them(
    secret_problem: Problem, docker_sandbox: DockerSandbox
) -> None:
    """Memory without swap, the pids cap and the CPU quota, read from the container's cgroup (a
    jail sees no cgroup file: tests/sandbox/test_slots.py reads a slot's limits from outside)."""
    containers = DockerSandbox(docker_sandbox.image, docker_sandbox.client, mode="container")
    found = _probe(secret_problem, containers, (
        "def read(*paths):\n"
        "    for p in paths:\n"
        "        try:\n"
        "            return open(p).read().split()[0]\n"
        "        except OSError:\n"
        "            pass\n"
        "    return '?'\n"
        "mem = read('/sys/fs/cgroup/memory.max', '/sys/fs/cgroup/memory/memory.limit_in_bytes')\n"
        "swap = read('/sys/fs/cgroup/memory.swap.max', '/sys/fs/cgroup/memory/memory.memsw.limit_in_bytes')\n"
        "pids = read('/sys/fs/cgroup/pids.max', '/sys/fs/cgroup/pids/pids.max')\n"
        "cpu = read('/sys/fs/cgroup/cpu.max', '/sys/fs/cgroup/cpu/cpu.cfs_quota_us')\n"
        "return ' '.join([mem, swap, pids, cpu])\n"
    ))
    memory, swap, pids, cpu = found.split()
    assert int(memory) == secret_problem.limits.memory_mb * 2**20
    # cgroup v2 reports extra swap (0); v1 reports memory plus swap, equal to memory.
    assert swap in ("0", memory, "?")
    assert int(pids) == Limits().pids
    assert int(cpu) == 100_000  # one CPU: all of each 100 ms period


def test_sweep_removes_only_expired_leftovers(docker_sandbox: DockerSandbox) -> None:
    from sandbox.docker_runner import sweep_leftovers

    client = docker_sandbox.client
    expired = client.containers.create(docker_sandbox.image, **container_options(Limits(), expires=1))
    alive = client.containers.create(docker_sandbox.image,
                                     **container_options(Limits(), expires=time.time() + 600))
    try:
        # Not its count: another test worker's janitor sweeps expired containers of any
        # deployment on a timer, and took this one first once (CI: 0 >= 1).
        sweep_leftovers(client)
        ids = {c.id for c in client.containers.list(all=True, sparse=True, filters={"label": LABEL})}
        assert expired.id not in ids and alive.id in ids
    finally:
        alive.remove(force=True)


def test_sweep_leaves_another_deployments_containers_until_they_expire(docker_sandbox: DockerSandbox) -> None:
    """Two judges on one engine: each takes its own abandoned leftovers, and anyone's expired
    ones, never the other's that are merely waiting (created, not started: abandoned at once
    with abandoned_after=0, had they been its own)."""
    from sandbox.docker_runner import sweep_leftovers

    client = docker_sandbox.client
    later = time.time() + 600

    def made(deployment: str, expires: float) -> str:
        options = container_options(Limits(), expires=expires, deployment=deployment)
        return str(client.containers.create(docker_sandbox.image, **options).id)

    ours, theirs = made("sweep-ours", later), made("sweep-theirs", later)
    theirs_expired = made("sweep-theirs", 1)
    try:
        sweep_leftovers(client, abandoned_after=0, deployment="sweep-ours")
        ids = {c.id for c in client.containers.list(all=True, sparse=True, filters={"label": LABEL})}
        assert ours not in ids and theirs_expired not in ids
        assert theirs in ids
        sweep_leftovers(client, abandoned_after=0, deployment="sweep-theirs")
        assert theirs not in {c.id for c in client.containers.list(all=True, sparse=True, filters={"label": LABEL})}
    finally:
        for ident in (ours, theirs, theirs_expired):
            with contextlib.suppress(docker.errors.NotFound):
                client.api.remove_container(ident, force=True)


def test_a_dead_owners_stopped_containers_are_swept_at_once(docker_sandbox: DockerSandbox) -> None:
    """A worker killed and restarted (its processes get the same pids again) sweeps what its
    predecessor left as soon as it starts, not a minute later: the owner's start time tells."""
    from sandbox.docker_runner import OWNER_LABEL, OWNER_STARTED_LABEL, _started, sweep_leftovers

    client = docker_sandbox.client
    gone = subprocess.Popen(["sleep", "30"])
    dead_owner = {OWNER_LABEL: f"{socket.gethostname()}:{gone.pid}", OWNER_STARTED_LABEL: _started(gone.pid) or ""}
    gone.kill()
    gone.wait()
    # The same pid with another start time is someone else: the owner is gone all the same.
    reused = {OWNER_LABEL: f"{socket.gethostname()}:{os.getpid()}", OWNER_STARTED_LABEL: "1"}
    alive = {OWNER_LABEL: f"{socket.gethostname()}:{os.getpid()}", OWNER_STARTED_LABEL: _started(os.getpid()) or ""}

    def stopped(owner: dict[str, str]) -> str:
        options = container_options(Limits(), expires=time.time() + 600, deployment="owner-test")
        options["labels"].update(owner)
        made = client.containers.create(docker_sandbox.image, **options)
        made.start()
        made.kill()  # stopped, as a sandbox is once its owner's attachment is gone
        made.wait(timeout=30)
        return str(made.id)

    ids = {name: stopped(owner) for name, owner in (("dead", dead_owner), ("reused", reused), ("alive", alive))}
    try:
        sweep_leftovers(client, abandoned_after=3600, deployment="owner-test")
        left = {c.id for c in client.containers.list(all=True, sparse=True, filters={"label": LABEL})}
        assert ids["dead"] not in left and ids["reused"] not in left
        assert ids["alive"] in left  # its maker may still remove it: the minute's rule decides
    finally:
        for ident in ids.values():
            with contextlib.suppress(docker.errors.NotFound):
                client.api.remove_container(ident, force=True)


def test_an_image_goes_only_once_no_deployment_claims_it(docker_sandbox: DockerSandbox) -> None:
    """Tags of a repository of the test's own, all naming the real sandbox image (a tag is
    removed by name: the image itself stays while any tag does)."""
    from sandbox.image import claim_image

    client = docker_sandbox.client
    repository = f"metrics-judge-claims-test-{uuid.uuid4().hex[:8]}"
    image = client.images.get(docker_sandbox.image)
    for tag in ("old1", "old1.alpha", "old2", "cur"):
        image.tag(repository, tag)

    def tags() -> set[str]:
        return {t.rpartition(":")[2] for i in client.images.list(name=repository) for t in i.tags
                if t.startswith(f"{repository}:")}

    try:
        claim_image(client, f"{repository}:cur", "beta")
        # old2 was nobody's: gone; old1 is alpha's: kept; cur is beta's now.
        assert tags() == {"old1", "old1.alpha", "cur", "cur.beta"}
        claim_image(client, f"{repository}:cur", "alpha")
        assert tags() == {"cur", "cur.alpha", "cur.beta"}
    finally:
        for tag in tags():
            client.images.remove(f"{repository}:{tag}")
    assert client.images.get(docker_sandbox.image).id == image.id  # the real image untouched


def test_hidden_inputs_are_not_in_the_container_while_public_tests_run(
    secret_problem: Problem, docker_sandbox: DockerSandbox
) -> None:
    """A public test's value is shown to the learner, so it must not be able to carry a hidden
    test's arguments out: those are sent only after every public test has answered."""
    code = (
        "import gc, re, sys\n"
        "def lookup(key):\n"
        "    pattern = re.compile('hidden' + '-key-' + '[a-z]')\n"
        "    seen = set()\n"
        "    for obj in gc.get_objects():\n"
        "        if isinstance(obj, (dict, list, tuple)):\n"
        "            seen.update(pattern.findall(repr(obj)[:100000]))\n"
        "    try:\n"
        "        seen.add(sys.stdin.read())\n"
        "    except Exception:\n"
        "        pass\n"
        "    return ','.join(sorted(s for s in seen if s))\n"
    )
    report = judge(secret_problem, docker_sandbox, code)
    public = [t for t in report.tests if t.visibility.value == "public"]
    assert [t.actual for t in public] == ["", ""]


def test_a_changed_argument_is_caught_through_the_container(
    tmp_path: Path, docker_sandbox: DockerSandbox
) -> None:
    """The learner side sends back only the arguments the call changed (the rest as "sent"):
    a sort in place still fails with the change named, a pure function still passes."""
    from judge.problems import load_problem
    from tests.utils.problem_factory import REFERENCE, make_problem

    problem = load_problem(make_problem(tmp_path, public=[
        {"name": "unsorted", "args": [[3.0, 1.0, 2.0]], "expected": 2.0}]))
    assert judge(problem, docker_sandbox, REFERENCE).verdict is Verdict.ACCEPTED
    sorts = "def mean(values):\n    values.sort()\n    return sum(values) / len(values)\n"
    report = judge(problem, docker_sandbox, sorts)
    assert report.verdict is Verdict.WRONG_ANSWER
    assert "changed its argument 'values'" in (report.tests[0].explanation or "")
