"""The learner's own seccomp filter, installed after the learner process has given up its uid
and before any learner code runs. Standard library only.

It refuses (EPERM) what a metric function never needs and what could let one submission, or one
test, reach past its jail:

- **System V IPC.** Shared memory, semaphores and message queues outlive the process that made
  them and no file system shows them, so one test could leave state for the next. Under runc the
  container's sysctls set their limits to zero; gVisor ignores those sysctls.
- **New namespaces and mounts** (unshare, setns, clone with a namespace flag, mount and the new
  mount calls, pivot_root): a slot container's profile allows them for building jails; a
  learner never builds one.
- **The kernel's larger attack surfaces:** keyrings (keyctl, add_key, request_key), io_uring,
  bpf, userfaultfd, perf_event_open and ptrace.
- **Other ABIs:** a call from a 32-bit or x32 entry point on x86-64 is refused whole, since it
  names every call above by other numbers.

clone3 answers ENOSYS, as Docker's profile does without CAP_SYS_ADMIN: its flags sit in memory a
filter cannot read, and the C library then falls back to clone, whose flags it can.
"""

from __future__ import annotations

import ctypes
import errno
import os

_AUDIT_ARCH = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7}
_REFUSED_NAMES = (
    "msgget", "msgsnd", "msgrcv", "msgctl", "semget", "semop", "semctl", "semtimedop", "shmget",
    "shmat", "shmctl", "shmdt",
    "unshare", "setns", "mount", "umount2", "pivot_root", "open_tree", "move_mount", "fsopen",
    "fsconfig", "fsmount", "fspick", "mount_setattr",
    "keyctl", "add_key", "request_key", "io_uring_setup", "io_uring_enter", "io_uring_register",
    "bpf", "userfaultfd", "perf_event_open", "ptrace",
)
# Each name's number on each machine, in _REFUSED_NAMES's order.
_NUMBERS = {
    "x86_64": (68, 69, 70, 71, 64, 65, 66, 220, 29, 30, 31, 67,
               272, 308, 165, 166, 155, 428, 429, 430, 431, 432, 433, 442,
               250, 248, 249, 425, 426, 427,
               321, 323, 298, 101),
    "aarch64": (186, 189, 188, 187, 190, 193, 191, 192, 194, 196, 195, 197,
                97, 268, 40, 39, 41, 428, 429, 430, 431, 432, 433, 442,
                219, 217, 218, 425, 426, 427,
                280, 282, 241, 117),
}
_CLONE = {"x86_64": 56, "aarch64": 220}
_CLONE3 = 435
# CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET and NEWTIME
_NAMESPACE_FLAGS = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 \
    | 0x20000000 | 0x40000000 | 0x00000080
_X32_BIT = 0x40000000

_LOAD_WORD = 0x20  # BPF_LD | BPF_W | BPF_ABS
_JUMP_EQUAL = 0x15  # BPF_JMP | BPF_JEQ | BPF_K
_JUMP_AT_LEAST = 0x35  # BPF_JMP | BPF_JGE | BPF_K
_JUMP_ANY_BIT = 0x45  # BPF_JMP | BPF_JSET | BPF_K
_RETURN = 0x06  # BPF_RET | BPF_K
_ALLOW = 0x7FFF0000
_REFUSE = 0x00050000 | errno.EPERM  # SECCOMP_RET_ERRNO
_UNIMPLEMENTED = 0x00050000 | errno.ENOSYS
# In struct seccomp_data: the call's number, the architecture, then the arguments (8 bytes
# each); the low half of the first argument on a little-endian machine.
_NR_OFFSET, _ARCH_OFFSET, _FIRST_ARGUMENT_LOW = 0, 4, 16
_PR_SET_NO_NEW_PRIVS, _PR_SET_SECCOMP, _SECCOMP_MODE_FILTER = 38, 22, 2

Step = tuple[int, int, int, int]


class _Instruction(ctypes.Structure):
    _fields_ = [("code", ctypes.c_ushort), ("jt", ctypes.c_ubyte), ("jf", ctypes.c_ubyte),
                ("k", ctypes.c_uint)]


class _Program(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(_Instruction))]


def refused(machine: str) -> dict[str, int]:
    """The calls refused by name, with their numbers on ``machine``."""
    return dict(zip(_REFUSED_NAMES, _NUMBERS[machine], strict=True))


def program(machine: str) -> list[Step]:
    """The filter as (code, jump if true, jump if false, constant) for ``machine``: the checks,
    then allow, the clone flags' test, refuse and unimplemented (every jump goes forward)."""
    refuse_calls = [(_JUMP_EQUAL, "refuse", None, number) for number in _NUMBERS[machine]]
    labelled: list[tuple[int, str | None, str | None, int]] = [
        (_LOAD_WORD, None, None, _ARCH_OFFSET),
        (_JUMP_EQUAL, None, "refuse", _AUDIT_ARCH[machine]),
        (_LOAD_WORD, None, None, _NR_OFFSET),
        *([(_JUMP_AT_LEAST, "refuse", None, _X32_BIT)] if machine == "x86_64" else []),
        (_JUMP_EQUAL, "clone", None, _CLONE[machine]),
        (_JUMP_EQUAL, "unimplemented", None, _CLONE3),
        *refuse_calls,
        (_RETURN, None, None, _ALLOW),
        (_LOAD_WORD, None, None, _FIRST_ARGUMENT_LOW),  # clone: its flags
        (_JUMP_ANY_BIT, "refuse", None, _NAMESPACE_FLAGS),
        (_RETURN, None, None, _ALLOW),
        (_RETURN, None, None, _REFUSE),
        (_RETURN, None, None, _UNIMPLEMENTED),
    ]
    end = len(labelled)
    at = {"clone": end - 5, "refuse": end - 2, "unimplemented": end - 1}
    return [(code, at[true] - index - 1 if true else 0, at[false] - index - 1 if false else 0,
             constant) for index, (code, true, false, constant) in enumerate(labelled)]


class Filter:
    """The filter, built once: installing it is then two system calls.

    Building it (ctypes structures, libc's handle) costs far more than installing it, so the
    spawner builds it before it forks any learner process, and each one only installs it.
    """

    def __init__(self, machine: str | None = None) -> None:
        machine = machine or os.uname().machine  # platform.machine(), without importing platform
        self.known = machine in _NUMBERS
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
        know (the container's own profile and sysctls still apply there). OSError when the
        kernel refuses."""
        if not self.known:
            return False
        for call in self._calls:
            if self._prctl(*call) != 0:
                raise OSError(ctypes.get_errno(), "prctl refused the learner's seccomp filter")
        return True


def install_learner_filter() -> bool:
    """Build the filter and install it on this process and its children (see ``Filter``)."""
    return Filter().install()
