"""Nothing passes from one submission to the next: each gets a fresh jail in a slot (three
submissions back to back in the same slot container), or a fresh container.

The tests of one submission share a learner process (its module, its files, its /tmp), as in every
function judge; the wall that matters is between submissions. A first submission leaves behind
everything it can: files in every writable place, a moved inode counter, pid gaps, a child running
after setsid and a double fork, System V and POSIX IPC objects, an abstract unix socket listening,
a keyring entry, a lock on a file every jail can open, /tmp filled (memory and page cache) and
changed rlimits. A second one, probing, must find exactly what it finds after a clean one. The
same probe, run as the second test of the polluting submission itself, sees what the first test
could leave: the probe is able to find it.
"""

from __future__ import annotations

import dataclasses
import re

import pytest

from judge.grading import grade
from judge.problems import Problem
from sandbox.docker_runner import DockerSandbox
from sandbox.interface import Isolation

pytestmark = pytest.mark.docker

# A secret_lookup solution: the first test ("a") pollutes, or probes; every other test probes.
CODE = '''
import ctypes
import fcntl
import os
import resource
import socket
import time

POLLUTE = {pollute}
WRITABLE = ("/tmp", "/dev/shm", "/dev/mqueue")
SHARED_FILE = "/opt/judge/sandbox/inside/codec.py"  # in the image: every jail can open it
SOCKET_NAME = b"\\0left-behind"
IPC_CREAT, KEY = 0o1000, 0x5EED
O_CREAT, O_RDWR = 0o100, 0o2
_libc = ctypes.CDLL(None, use_errno=True)
_kept = []  # what the polluting test holds open while it lives


def _pollute():
    for root in WRITABLE:
        try:
            with open(os.path.join(root, "left-behind"), "w") as handle:
                handle.write("the first submission was here")
        except OSError:
            pass
    for i in range(300):  # the inode counter moves on, though these files are gone
        open(f"/tmp/churn-{{i}}", "w").close()
        os.unlink(f"/tmp/churn-{{i}}")
    try:  # /tmp nearly full: memory and page cache
        with open("/tmp/filler", "wb") as filler:
            for _ in range(12):
                filler.write(b"x" * (1 << 20))
    except OSError:
        pass
    _libc.shmget(KEY, 4096, IPC_CREAT | 0o666)
    _libc.msgget(KEY, IPC_CREAT | 0o666)
    _libc.mq_open(b"/left-behind", O_CREAT | O_RDWR, 0o666, None)
    _libc.syscall(248 if os.uname().machine == "x86_64" else 217, b"user", b"left-behind", b"x",
                  1, -2)  # add_key into the session keyring
    resource.setrlimit(resource.RLIMIT_NOFILE, (32, 32))
    for _ in range(200):  # pid gaps
        pid = os.fork()
        if pid == 0:
            os._exit(0)
        os.waitpid(pid, 0)
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            try:
                lock = open(SHARED_FILE, "rb")
                fcntl.flock(lock, fcntl.LOCK_EX)
                server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                server.bind(SOCKET_NAME)
                server.listen(1)
                _kept.extend([lock, server])
            except OSError:
                pass
            while True:
                time.sleep(0.01)
        os._exit(0)
    time.sleep(0.1)


def _running(pid):
    """Not a zombie (a child that ended and that its parent has not collected)."""
    try:
        with open(f"/proc/{{pid}}/stat") as stat:
            return stat.read().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return False


def _probe():
    found = []
    for root in WRITABLE:
        try:
            found += sorted(os.path.join(root, name) for name in os.listdir(root))
        except OSError:
            pass
    with open("/tmp/probe", "w"):
        pass
    found.append(f"inode {{os.stat('/tmp/probe').st_ino}}")
    os.unlink("/tmp/probe")
    found.append(f"free inodes {{os.statvfs('/tmp').f_ffree}}")
    found.append(f"free blocks {{os.statvfs('/tmp').f_bfree}}")
    found.append(f"pid {{os.getpid()}}")
    found.append(f"cgroup files {{len(os.listdir('/sys/fs/cgroup'))}}")
    found.append(f"shm {{_libc.shmget(KEY, 0, 0o666) >= 0}}, msg {{_libc.msgget(KEY, 0o666) >= 0}}")
    found.append(f"mqueue {{_libc.mq_open(b'/left-behind', O_RDWR) >= 0}}")
    found.append(f"rlimit {{resource.getrlimit(resource.RLIMIT_NOFILE)}}")
    try:
        with open(SHARED_FILE, "rb") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            found.append("lock free")
    except OSError as exc:
        found.append(f"lock {{exc.errno}}")
    client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        client.connect(SOCKET_NAME)
        found.append("socket answers")
    except OSError as exc:
        found.append(f"socket {{exc.errno}}")
    finally:
        client.close()
    mine = os.getpid()
    others = [pid for pid in os.listdir("/proc") if pid.isdigit() and int(pid) != mine
              and os.stat(f"/proc/{{pid}}").st_uid != 0 and _running(pid)]
    found.append(f"{{len(others)}} other learner processes")
    return "; ".join(found)


def lookup(key):
    if POLLUTE and key == "a":
        _pollute()
        return "polluted"
    return _probe()
'''


def _probes(problem: Problem, sandbox: DockerSandbox, pollute: bool) -> list[str]:
    """What the probe returned in each test of one submission (first public test first)."""
    report = grade(problem, CODE.format(pollute=pollute), sandbox, include_hidden=False)
    return [str(test.actual) for test in report.tests]


@pytest.fixture(params=["slot", "container"])
def sandbox(request: pytest.FixtureRequest, docker_sandbox: DockerSandbox) -> DockerSandbox:
    if request.param == docker_sandbox.mode:
        return docker_sandbox
    return DockerSandbox(docker_sandbox.image, docker_sandbox.client, docker_sandbox.runtime,
                         mode=request.param)


def test_a_submission_finds_nothing_the_one_before_left(
        secret_problem: Problem, sandbox: DockerSandbox) -> None:
    clean = _probes(secret_problem, sandbox, pollute=False)[0]
    first = sandbox.recent[-1]
    polluted_here = _probes(secret_problem, sandbox, pollute=True)
    after = _probes(secret_problem, sandbox, pollute=False)[0]
    if sandbox.mode == "slot":  # the three ran back to back in one slot container
        assert sandbox.recent[-1] == first
        assert sandbox.recent.count(first) >= 3
        # The slot's cgroup counts every jail's CPU and memory: no jail sees it.
        assert "cgroup files 0" in clean
    assert polluted_here[0] == "polluted"
    # Within the polluting submission the probe sees its own files and the moved counter.
    assert "/tmp/left-behind" in polluted_here[1] and polluted_here[1] != clean
    assert "/tmp/filler" in polluted_here[1]
    # ... but not the child it left running: processes a test started end with it, and with
    # them its lock and its socket.
    assert "0 other learner processes" in polluted_here[1]
    assert "lock free" in polluted_here[1] and "socket 111" in polluted_here[1]
    assert "/tmp/left-behind" not in clean
    assert "0 other learner processes" in clean
    if sandbox.mode == "container":  # a fresh pid namespace each time, but how many processes
        # came before the learner's in it depends on the engine: no submission moves it
        clean, after = (re.sub(r"pid \d+", "pid", text) for text in (clean, after))
    assert after == clean


def test_a_per_test_step_finds_nothing_the_step_before_left(
        secret_problem: Problem, docker_sandbox: DockerSandbox) -> None:
    """In a slot each step of a per_test problem gets a jail of its own (sandbox.inside.step_jail):
    the test after the polluting one finds exactly what a test after a clean one finds, pid and
    /tmp's inode counter included, the two counters a fresh process alone still shared."""
    if docker_sandbox.mode != "slot":
        pytest.skip("steps get jails of their own in slots only")
    problem = dataclasses.replace(secret_problem, isolation=Isolation.PER_TEST)
    clean = _probes(problem, docker_sandbox, pollute=False)
    polluted = _probes(problem, docker_sandbox, pollute=True)
    assert polluted[0] == "polluted"
    assert polluted[1] == clean[1] == clean[0]
    # The learner process is pid 2 of its step's namespace (its init, not the learner's, is 1),
    # and /tmp is a fresh tmpfs whose first file is inode 2.
    assert "pid 2;" in clean[0] and "inode 2;" in clean[0]
    assert "1 other learner processes" in clean[0]  # the init, which holds nothing of the step's


def test_under_gvisor_a_submission_finds_nothing_the_one_before_left(
        secret_problem: Problem, docker_sandbox: DockerSandbox) -> None:
    """The same three submissions in one gVisor slot, whose jails have no user namespace. Time
    limits are scaled: the polluting test's 200 forks are dear under gVisor's ptrace platform."""
    if "runsc" not in (docker_sandbox.client.info().get("Runtimes") or {}):
        pytest.skip("gVisor (runsc) is not installed")
    limits = secret_problem.limits
    problem = dataclasses.replace(secret_problem, limits=dataclasses.replace(
        limits, time_per_test=limits.time_per_test * 10,
        time_per_submission=limits.time_per_submission * 10))
    sandbox = DockerSandbox(docker_sandbox.image, docker_sandbox.client, "runsc", mode="slot")
    try:
        clean = _probes(problem, sandbox, pollute=False)[0]
        first = sandbox.recent[-1]
        polluted_here = _probes(problem, sandbox, pollute=True)
        after = _probes(problem, sandbox, pollute=False)[0]
        assert sandbox.mode == "slot" and sandbox.recent.count(first) >= 3
        assert polluted_here[0] == "polluted"
        assert "/tmp/left-behind" in polluted_here[1] and "/tmp/left-behind" not in clean
        assert "0 other learner processes" in clean
        assert after == clean
    finally:
        sandbox.close()
