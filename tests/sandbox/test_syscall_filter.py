"""The learner's seccomp filter, on this machine's kernel: System V IPC, namespaces, mounts and the
larger kernel surfaces are refused with EPERM, and everything a metric needs still works, threads
included. (Inside the sandbox, under runc and gVisor alike, the attacks ``state_sysv_ipc`` and
``escape_namespaces`` hold the same.)"""

from __future__ import annotations

import ctypes
import errno
import os
import platform

import pytest

from sandbox.inside.syscall_filter import _NUMBERS, install_learner_filter, program, refused

IPC_PRIVATE, IPC_CREAT, IPC_RMID = 0, 0o1000, 0


def _in_child(body: str) -> list[str]:
    """Run ``body`` in a forked child (a filter is for life) and return what it reported."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        os.close(read)
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            scope = {"libc": libc, "ctypes": ctypes, "refuse": install_learner_filter, "out": []}
            exec(body, scope)
            os.write(write, "\n".join(scope["out"]).encode())
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read) as pipe:
        lines = pipe.read().splitlines()
    os.waitpid(pid, 0)
    return lines


@pytest.mark.skipif(platform.machine() not in _NUMBERS, reason="no System V numbers for this machine")
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


@pytest.mark.skipif(platform.machine() not in _NUMBERS, reason="no System V numbers for this machine")
def test_without_the_filter_the_calls_work_here() -> None:
    """The other half of the proof: on this kernel the same call succeeds unfiltered."""
    lines = _in_child(
        f"shmid = libc.shmget({IPC_PRIVATE}, 4096, {IPC_CREAT} | 0o600)\n"
        "out.append(str(shmid >= 0))\n"
        f"libc.shmctl(shmid, {IPC_RMID}, None)\n"
    )
    assert lines == ["True"]


CLONE_NEWUSER, CLONE_NEWNET, SIGCHLD = 0x10000000, 0x40000000, 17


@pytest.mark.skipif(platform.machine() not in _NUMBERS, reason="no numbers for this machine")
def test_namespaces_mounts_and_kernel_surfaces_are_refused_and_threads_still_work() -> None:
    numbers = refused(platform.machine())
    lines = _in_child(
        "import os, threading, errno as e\n"
        "assert refuse()\n"
        "syscall = libc.syscall\n"
        "syscall.restype = ctypes.c_long\n"
        "def call(number, *args):\n"
        "    ctypes.set_errno(0)\n"
        "    result = syscall(ctypes.c_long(number), *[ctypes.c_long(a) for a in args])\n"
        "    return f'{result} {ctypes.get_errno()}'\n"
        f"out.append('unshare ' + call({numbers['unshare']}, {CLONE_NEWUSER}))\n"
        f"out.append('setns ' + call({numbers['setns']}, 0, 0))\n"
        f"out.append('mount ' + call({numbers['mount']}, 0, 0, 0, 0, 0))\n"
        f"out.append('keyctl ' + call({numbers['keyctl']}, 0, 0))\n"
        f"out.append('io_uring ' + call({numbers['io_uring_setup']}, 1, 0))\n"
        f"out.append('ptrace ' + call({numbers['ptrace']}, 0, 0, 0, 0))\n"
        f"out.append('bpf ' + call({numbers['bpf']}, 0, 0, 0))\n"
        # clone with a namespace flag is refused; fork and threads (clone3 falls back) work
        f"out.append('clone ' + call({56 if platform.machine() == 'x86_64' else 220}, "
        f"{CLONE_NEWNET | SIGCHLD}, 0, 0, 0, 0))\n"
        "pid = os.fork()\n"
        "if pid == 0: os._exit(7)\n"
        "out.append('fork ' + str(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])))\n"
        "seen = []\n"
        "worker = threading.Thread(target=lambda: seen.append(1)); worker.start(); worker.join()\n"
        "out.append('thread ' + str(seen))\n"
    )
    refused_line = f"-1 {errno.EPERM}"
    assert lines == [f"{name} {refused_line}" for name in (
        "unshare", "setns", "mount", "keyctl", "io_uring", "ptrace", "bpf", "clone")] + [
        "fork 7", "thread [1]"]


@pytest.mark.parametrize("machine", sorted(_NUMBERS))
def test_every_jump_goes_forward_to_a_check_or_a_return(machine: str) -> None:
    steps = program(machine)
    assert steps[-1][0] == steps[-2][0] == steps[-3][0] == 0x06
    for index, (code, if_true, if_false, _) in enumerate(steps):
        if code in (0x15, 0x35, 0x45):
            for offset in (if_true, if_false):
                assert index + 1 + offset < len(steps)
    assert set(refused(machine)) >= {"unshare", "setns", "mount", "umount2", "pivot_root", "keyctl",
                                     "io_uring_setup", "bpf", "userfaultfd", "perf_event_open",
                                     "ptrace", "shmget"}
