"""The learner's seccomp filter, on this machine's kernel: System V IPC is refused with EPERM and
everything else still works. (Inside the sandbox, under runc and gVisor alike, the attack
``state_sysv_ipc`` holds the same.)"""

from __future__ import annotations

import ctypes
import errno
import os
import platform

import pytest

from sandbox.inside.syscall_filter import _SYSTEM_V, program, refuse_system_v_ipc

IPC_PRIVATE, IPC_CREAT, IPC_RMID = 0, 0o1000, 0


def _in_child(body: str) -> list[str]:
    """Run ``body`` in a forked child (a filter is for life) and return what it reported."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        os.close(read)
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            scope = {"libc": libc, "ctypes": ctypes, "refuse": refuse_system_v_ipc, "out": []}
            exec(body, scope)
            os.write(write, "\n".join(scope["out"]).encode())
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read) as pipe:
        lines = pipe.read().splitlines()
    os.waitpid(pid, 0)
    return lines


@pytest.mark.skipif(platform.machine() not in _SYSTEM_V, reason="no System V numbers for this machine")
def test_system_v_ipc_is_refused_and_the_rest_still_works() -> None:
    lines = _in_child(
        "assert refuse()\n"
        f"for make in (lambda: libc.shmget({IPC_PRIVATE}, 4096, {IPC_CREAT} | 0o600),\n"
        f"             lambda: libc.msgget({IPC_PRIVATE}, {IPC_CREAT} | 0o600),\n"
        f"             lambda: libc.semget({IPC_PRIVATE}, 1, {IPC_CREAT} | 0o600)):\n"
        "    out.append(f'{make()} {ctypes.get_errno()}')\n"
        "out.append(str(len(open('/proc/self/status').read()) > 0))\n"
    )
    assert lines == [f"-1 {errno.EPERM}"] * 3 + ["True"]


@pytest.mark.skipif(platform.machine() not in _SYSTEM_V, reason="no System V numbers for this machine")
def test_without_the_filter_the_calls_work_here() -> None:
    """The other half of the proof: on this kernel the same call succeeds unfiltered."""
    lines = _in_child(
        f"shmid = libc.shmget({IPC_PRIVATE}, 4096, {IPC_CREAT} | 0o600)\n"
        "out.append(str(shmid >= 0))\n"
        f"libc.shmctl(shmid, {IPC_RMID}, None)\n"
    )
    assert lines == ["True"]


@pytest.mark.parametrize("machine", sorted(_SYSTEM_V))
def test_every_jump_lands_on_a_return(machine: str) -> None:
    steps = program(machine)
    returns = {index for index, step in enumerate(steps) if step[0] == 0x06}
    assert returns == {len(steps) - 2, len(steps) - 1}
    for index, (code, if_true, if_false, _) in enumerate(steps):
        if code in (0x15, 0x35):
            for offset in (if_true, if_false):
                target = index + 1 + offset
                assert target in returns or offset == 0
