"""A seccomp filter that refuses System V IPC to learner processes. Standard library only.

System V shared memory, semaphores and message queues outlive the process that made them, and
nothing in a file system shows them, so one test could leave state for the next. Under runc the
container's sysctls set their limits to zero; gVisor ignores those sysctls and has no
/proc/sysvipc to clean up from. Refusing the calls themselves closes the door under both, and a
learner's function has no use for them. Calls from another ABI (32-bit or x32 entry points on
x86-64) are refused whole, since they name System V IPC by other numbers.
"""

from __future__ import annotations

import ctypes
import errno
import os

_AUDIT_ARCH = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7}
# msgget msgsnd msgrcv msgctl semget semop semctl semtimedop shmget shmat shmctl shmdt
_SYSTEM_V = {
    "x86_64": (68, 69, 70, 71, 64, 65, 66, 220, 29, 30, 31, 67),
    "aarch64": (186, 189, 188, 187, 190, 193, 191, 192, 194, 196, 195, 197),
}
_X32_BIT = 0x40000000

_LOAD_WORD = 0x20  # BPF_LD | BPF_W | BPF_ABS
_JUMP_EQUAL = 0x15  # BPF_JMP | BPF_JEQ | BPF_K
_JUMP_AT_LEAST = 0x35  # BPF_JMP | BPF_JGE | BPF_K
_RETURN = 0x06  # BPF_RET | BPF_K
_ALLOW = 0x7FFF0000
_REFUSE = 0x00050000 | errno.EPERM  # SECCOMP_RET_ERRNO
_NR_OFFSET, _ARCH_OFFSET = 0, 4  # in struct seccomp_data
_PR_SET_NO_NEW_PRIVS, _PR_SET_SECCOMP, _SECCOMP_MODE_FILTER = 38, 22, 2


class _Instruction(ctypes.Structure):
    _fields_ = [("code", ctypes.c_ushort), ("jt", ctypes.c_ubyte), ("jf", ctypes.c_ubyte),
                ("k", ctypes.c_uint)]


class _Program(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(_Instruction))]


def program(machine: str) -> list[tuple[int, int, int, int]]:
    """The filter as (code, jump if true, jump if false, constant) for ``machine``."""
    numbers = _SYSTEM_V[machine]
    refuse_at = 3 + (1 if machine == "x86_64" else 0) + len(numbers) + 1  # index of the REFUSE
    steps: list[tuple[int, int, int, int]] = [
        (_LOAD_WORD, 0, 0, _ARCH_OFFSET),
        (_JUMP_EQUAL, 0, refuse_at - 2, _AUDIT_ARCH[machine]),
        (_LOAD_WORD, 0, 0, _NR_OFFSET),
    ]
    if machine == "x86_64":
        steps.append((_JUMP_AT_LEAST, refuse_at - len(steps) - 1, 0, _X32_BIT))
    for number in numbers:
        steps.append((_JUMP_EQUAL, refuse_at - len(steps) - 1, 0, number))
    steps += [(_RETURN, 0, 0, _ALLOW), (_RETURN, 0, 0, _REFUSE)]
    assert len(steps) == refuse_at + 1
    return steps


class Filter:
    """The filter, built once: installing it is then two system calls.

    Building it (ctypes structures, libc's handle) costs far more than installing it, so the
    spawner builds it before it forks any learner process, and each one only installs it.
    """

    def __init__(self, machine: str | None = None) -> None:
        machine = machine or os.uname().machine  # platform.machine(), without importing platform
        self.known = machine in _SYSTEM_V
        if not self.known:
            return
        steps = program(machine)
        instructions = (_Instruction * len(steps))(*(_Instruction(*step) for step in steps))
        self._program = _Program(len(steps), instructions)  # kept alive: the calls point into it
        self._prctl = ctypes.CDLL(None, use_errno=True).prctl
        self._calls = [tuple(ctypes.c_ulong(arg) for arg in call) for call in (
            (_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0),
            (_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.addressof(self._program), 0, 0))]

    def install(self) -> bool:
        """Install it on this process and its children; False on an architecture it does not
        know (the sysctls still apply there under runc). OSError when the kernel refuses."""
        if not self.known:
            return False
        for call in self._calls:
            if self._prctl(*call) != 0:
                raise OSError(ctypes.get_errno(), "prctl refused the System V IPC filter")
        return True


def refuse_system_v_ipc() -> bool:
    """Build the filter and install it on this process and its children (see ``Filter``)."""
    return Filter().install()
