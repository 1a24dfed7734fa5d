"""Slot containers (sandbox.slots, sandbox.inside.jail) through the real engine: a slot keeps
every container limit, judges one submission after another, and is replaced after its N runs,
after a run the host stopped early, and after a jail that did not end cleanly; gVisor builds
its jails without a user namespace; a host that cannot build jails falls back to a container per
submission, saying so once."""

from __future__ import annotations

import json
import logging

import pytest

from judge.grading import grade
from judge.problems import Problem
from judge.results import Verdict
from sandbox import slots
from sandbox.docker_runner import LABEL, DockerSandbox
from sandbox.interface import Limits
from sandbox.slots import MEMORY_BOUND, PROFILE, SLOT_PROCESSES, Ready, parse_ready, seccomp_profile


def _slots(base: DockerSandbox, **options: object) -> DockerSandbox:
    return DockerSandbox(base.image, base.client, base.runtime, mode="slot", **options)  # type: ignore[arg-type]


def _gone(sandbox: DockerSandbox, container: str) -> bool:
    return container not in {c["Id"] for c in sandbox.client.api.containers(
        all=True, filters={"label": LABEL})}


def test_a_ready_record_is_read_strictly() -> None:
    ready = parse_ready(b'{"slot": "ready", "jail": 3, "built": true, "previous": 0, "memory": 1}')
    assert ready == Ready(3, True, 0, 1) and ready.problem is None
    assert Ready(1, True, None, None).problem is None
    assert Ready(1, False, None, None).problem == "its jail could not be built"
    assert Ready(2, True, 1, None).problem == "its last jail ended with status 1"
    assert Ready(2, True, 0, MEMORY_BOUND + 1).problem == "it holds 64 MB between submissions"
    for line in (b'{"kind": "test"}', b'{"slot": "ready", "jail": "1", "built": true, '
                 b'"previous": null, "memory": null}', b"[]"):
        with pytest.raises((ValueError, KeyError)):
            parse_ready(line)


def test_the_profile_is_dockers_default_plus_what_a_jail_needs() -> None:
    profile = json.loads(PROFILE.read_text())
    assert profile["defaultAction"] == "SCMP_ACT_ERRNO"
    allowed = {name for rule in profile["syscalls"] if rule["action"] == "SCMP_ACT_ALLOW"
               and not rule.get("args") and not rule.get("includes") for name in rule["names"]}
    assert {"unshare", "mount", "umount2"} <= allowed
    # Docker's default refuses these without CAP_SYS_ADMIN (and the rest): so does the slot's.
    assert not allowed & {"setns", "pivot_root", "bpf", "perf_event_open", "keyctl", "add_key",
                          "request_key", "init_module", "reboot", "syslog", "fsopen", "open_tree",
                          "move_mount", "kexec_load", "userfaultfd", "clone3"}
    [clone] = [rule for rule in profile["syscalls"] if rule["names"] == ["clone"]]
    assert clone["args"][0]["op"] == "SCMP_CMP_MASKED_EQ"  # never with a namespace flag
    assert json.loads(seccomp_profile()) == profile


@pytest.mark.docker
def test_a_slot_keeps_every_container_limit(secret_problem: Problem,
                                            docker_sandbox: DockerSandbox) -> None:
    sandbox = _slots(docker_sandbox)
    try:
        assert grade(secret_problem, secret_problem.reference, sandbox).verdict is Verdict.ACCEPTED
        [slot] = sandbox.held_slots()
        host = sandbox.client.api.inspect_container(slot)["HostConfig"]
        limits = Limits(memory_mb=secret_problem.limits.memory_mb)
        assert host["Memory"] == host["MemorySwap"] == limits.memory_mb * 2**20
        assert host["PidsLimit"] == limits.pids + SLOT_PROCESSES
        assert host["NanoCpus"] == int(limits.cpus * 1e9)
        assert host["ReadonlyRootfs"] is True and host["Privileged"] is False
        assert host["NetworkMode"] == "none" and host["IpcMode"] == "none"
        assert host["CapDrop"] == ["ALL"]
        assert sorted(cap.removeprefix("CAP_") for cap in host["CapAdd"]) == ["KILL", "SETGID", "SETUID"]
        assert "no-new-privileges" in host["SecurityOpt"]
        assert any(opt.startswith("seccomp=") for opt in host["SecurityOpt"])
        assert host["MaskedPaths"] == [] and host["ReadonlyPaths"] == []
    finally:
        sandbox.close()


@pytest.mark.docker
def test_a_slot_judges_in_turn_and_is_replaced_after_its_runs(
        secret_problem: Problem, docker_sandbox: DockerSandbox) -> None:
    sandbox = _slots(docker_sandbox, slot_runs=3)
    try:
        used = []
        for _ in range(4):
            assert grade(secret_problem, secret_problem.reference, sandbox).verdict is Verdict.ACCEPTED
            used.append(sandbox.recent[-1])
        assert used[0] == used[1] == used[2] != used[3]
        assert sandbox.slot_runs_served == 2
        sandbox.janitor.close()  # let the removals it deferred finish
        assert _gone(sandbox, used[0])
    finally:
        sandbox.close()


@pytest.mark.docker
def test_a_slot_whose_run_was_stopped_early_is_replaced(
        secret_problem: Problem, docker_sandbox: DockerSandbox) -> None:
    sandbox = _slots(docker_sandbox)
    try:
        grade(secret_problem, secret_problem.reference, sandbox)
        first = sandbox.recent[-1]
        spin = "def lookup(key):\n    while True:\n        pass\n"
        assert grade(secret_problem, spin, sandbox).verdict is Verdict.TIME_LIMIT_EXCEEDED
        assert sandbox.held_slots() == set()
        assert grade(secret_problem, secret_problem.reference, sandbox).verdict is Verdict.ACCEPTED
        assert sandbox.recent[-1] != first
    finally:
        sandbox.close()


@pytest.mark.docker
def test_a_host_that_cannot_build_jails_judges_in_containers(
        secret_problem: Problem, docker_sandbox: DockerSandbox,
        caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    """A host whose kernel refuses what a jail needs (here Docker's own profile, which refuses
    unshare to a container without CAP_SYS_ADMIN, as a kernel without user namespaces would)."""
    profile = json.loads(PROFILE.read_text(encoding="utf-8"))
    for rule in profile["syscalls"]:
        rule["names"] = [name for name in rule["names"] if name not in ("unshare", "mount", "umount2")]
    monkeypatch.setattr(slots, "seccomp_profile", lambda: json.dumps(profile))
    sandbox = _slots(docker_sandbox)
    try:
        with caplog.at_level(logging.WARNING, logger="sandbox.docker_runner"):
            for _ in range(2):
                assert grade(secret_problem, secret_problem.reference, sandbox).verdict is Verdict.ACCEPTED
        assert sandbox.mode == "container"
        said = [r.getMessage() for r in caplog.records if "cannot build sandbox jails" in r.getMessage()]
        assert len(said) == 1 and "unshare" in said[0]
        assert sandbox.recent[-1] != sandbox.recent[-2]
    finally:
        sandbox.close()


@pytest.mark.docker
def test_gvisor_judges_one_submission_after_another_in_one_slot(
        secret_problem: Problem, docker_sandbox: DockerSandbox) -> None:
    """gVisor's kernel refuses mounts in a user namespace, so its jails have none: the slot's
    template holds CAP_SYS_ADMIN inside gVisor and every jail drops it (sandbox.slots)."""
    runtimes = docker_sandbox.client.info().get("Runtimes") or {}
    if "runsc" not in runtimes:
        pytest.skip("gVisor (runsc) is not installed")
    sandbox = DockerSandbox(docker_sandbox.image, docker_sandbox.client, "runsc", mode="slot")
    try:
        wrong = next(w for w in secret_problem.wrong if w.name == "guess")
        verdicts = [grade(secret_problem, code, sandbox).verdict
                    for code in (secret_problem.reference, wrong.code, secret_problem.reference)]
        assert verdicts == [Verdict.ACCEPTED, wrong.verdict, Verdict.ACCEPTED]
        assert sandbox.mode == "slot" and len(set(list(sandbox.recent)[-3:])) == 1
        inside = sandbox.client.api.inspect_container(sandbox.recent[-1])
        assert "SYS_ADMIN" in inside["HostConfig"]["CapAdd"] and inside["HostConfig"]["Runtime"] == "runsc"
    finally:
        sandbox.close()

