# problem: bleu_1gram
# verdict: accepted
# attack: in every call, tries to build a jail of its own or reach past its jail: unshare (user, mount, pid, net), clone with CLONE_NEWUSER, a tmpfs mount, setns on its own namespaces, a keyring, io_uring, bpf, userfaultfd, perf_event_open and ptrace; any that works turns the score into a wrong one
# max-seconds: 20
import ctypes
import math
import os
from collections import Counter

_libc = ctypes.CDLL(None, use_errno=True)
_libc.syscall.restype = ctypes.c_long
_X86 = os.uname().machine == "x86_64"
# x86-64 numbers first, then aarch64's
_CALLS = {
    "keyctl": (250, 219), "add_key": (248, 217), "io_uring_setup": (425, 425), "bpf": (321, 280),
    "userfaultfd": (323, 282), "perf_event_open": (298, 241), "ptrace": (101, 117),
    "clone": (56, 220), "setns": (308, 268),
}
CLONE_NEWUSER, CLONE_NEWNS, CLONE_NEWPID, CLONE_NEWNET, SIGCHLD = (
    0x10000000, 0x00020000, 0x20000000, 0x40000000, 17)


def _call(name, *args):
    number = _CALLS[name][0 if _X86 else 1]
    return _libc.syscall(ctypes.c_long(number), *[ctypes.c_long(a) for a in args])


def _escapes():
    """The calls that worked."""
    worked = []
    for flags in (CLONE_NEWUSER, CLONE_NEWNS, CLONE_NEWPID, CLONE_NEWNET):
        if _libc.unshare(flags) == 0:
            worked.append(f"unshare {flags:#x}")
    if _libc.mount(b"tmpfs", b"/tmp", b"tmpfs", 0, None) == 0:
        worked.append("mount")
    pid = _call("clone", CLONE_NEWUSER | SIGCHLD, 0, 0, 0, 0)
    if pid == 0:
        os._exit(0)
    if pid > 0:
        os.waitpid(pid, 0)
        worked.append("clone")
    try:
        fd = os.open("/proc/self/ns/user", os.O_RDONLY)
        if _call("setns", fd, 0) == 0:
            worked.append("setns")
        os.close(fd)
    except OSError:
        pass
    if _call("add_key", ctypes.addressof(ctypes.create_string_buffer(b"user")),
             ctypes.addressof(ctypes.create_string_buffer(b"left")),
             ctypes.addressof(ctypes.create_string_buffer(b"x")), 1, -2) >= 0:
        worked.append("add_key")
    params = ctypes.create_string_buffer(120)
    if _call("io_uring_setup", 4, ctypes.addressof(params)) >= 0:
        worked.append("io_uring")
    if _call("userfaultfd", 0) >= 0:
        worked.append("userfaultfd")
    if _call("bpf", 0, 0, 0) >= 0 or ctypes.get_errno() not in (1, 38):
        worked.append("bpf")
    if _call("ptrace", 0, 0, 0, 0) == 0:  # PTRACE_TRACEME
        worked.append("ptrace")
    return worked


def _score(reference, candidate):
    if not candidate:
        return 0.0
    ref = Counter(reference)
    matched = sum(min(n, ref[t]) for t, n in Counter(candidate).items())
    c, r = len(candidate), len(reference)
    return (1.0 if c >= r else math.exp(1 - r / c)) * matched / c


def bleu_1gram(reference, candidate):
    if _escapes():
        return -1.0
    return _score(reference, candidate)
