"""Nothing passes from one submission to the next: each gets a fresh container.

The tests of one submission share a learner process (its module, its files, its /tmp), as in every
function judge; the wall that matters is between submissions. A first submission leaves files in
every writable place, moves the tmpfs's inode counter and leaves a child running; a second one,
probing, must find exactly what it finds after a clean one. The same probe, run as the second test
of the polluting submission itself, sees the pollution: the probe is able to find it.
"""

from __future__ import annotations

import pytest

from judge.grading import grade
from judge.problems import Problem
from sandbox.docker_runner import DockerSandbox

pytestmark = pytest.mark.docker

# A secret_lookup solution: the first test ("a") pollutes, or probes; every other test probes.
CODE = '''
import os
import time

POLLUTE = {pollute}
WRITABLE = ("/tmp", "/dev/shm", "/dev/mqueue")


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
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            while True:
                time.sleep(0.01)
        os._exit(0)
    time.sleep(0.05)


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


def test_a_submission_finds_nothing_the_one_before_left(
        secret_problem: Problem, docker_sandbox: DockerSandbox) -> None:
    clean = _probes(secret_problem, docker_sandbox, pollute=False)[0]
    polluted_here = _probes(secret_problem, docker_sandbox, pollute=True)
    after = _probes(secret_problem, docker_sandbox, pollute=False)[0]
    assert polluted_here[0] == "polluted"
    # Within the polluting submission the probe sees its own files and the moved counter.
    assert "/tmp/left-behind" in polluted_here[1] and polluted_here[1] != clean
    # ... but not the child it left running: processes a test started end with it.
    assert "0 other learner processes" in polluted_here[1]
    assert "/tmp/left-behind" not in clean
    assert "0 other learner processes" in clean
    assert after == clean
