"""What building a jail takes from the kernel: unshare, mount and capabilities through libc, and
Docker's masks on /proc put back on a submission jail's own /proc. Standard library only (baked
into the sandbox image); used by a slot's jail per submission (``sandbox.inside.jail``) and by
the jail of each step of a ``per_test`` problem (``sandbox.inside.step_jail``).
"""

from __future__ import annotations

import ctypes
import errno
import os

# unshare(2) flags
CLONE_NEWNS, CLONE_NEWCGROUP, CLONE_NEWUTS = 0x00020000, 0x02000000, 0x04000000
CLONE_NEWIPC, CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET = (0x08000000, 0x10000000, 0x20000000,
                                                           0x40000000)
# mount(2) flags
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 1, 2, 4, 8
MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 32, 4096, 16384, 1 << 18
HIDDEN = MS_NOSUID | MS_NODEV | MS_NOEXEC  # the flags of every mount a jail makes
PR_SET_DUMPABLE, PR_CAPBSET_DROP = 4, 24
CAPABILITY_VERSION_3 = 0x20080522

# Docker's masks for /proc and /sys: a slot container runs without them (a pid namespace's own
# /proc can only be mounted where a /proc is fully visible), so each jail puts them back on its
# own /proc before anything else runs there.
MASKED = ("/proc/asound", "/proc/acpi", "/proc/interrupts", "/proc/kcore", "/proc/keys",
          "/proc/latency_stats", "/proc/timer_list", "/proc/timer_stats", "/proc/sched_debug",
          "/proc/scsi", "/sys/firmware", "/sys/devices/virtual/powercap")
READ_ONLY = ("/proc/bus", "/proc/fs", "/proc/irq", "/proc/sys", "/proc/sysrq-trigger")

_libc = ctypes.CDLL(None, use_errno=True)


class JailError(OSError):
    pass


def check(result: int, what: str) -> None:
    if result != 0:
        number = ctypes.get_errno()
        raise JailError(number, f"{what}: {os.strerror(number)}")


def unshare(flags: int) -> None:
    check(_libc.unshare(flags), "unshare")


def set_dumpable(dumpable: bool) -> None:
    """A process that gave up uid 0 is not dumpable: its /proc files belong to root, its own
    uid_map included, until this says otherwise."""
    check(_libc.prctl(PR_SET_DUMPABLE, ctypes.c_ulong(int(dumpable)), 0, 0, 0), "prctl")


def mount(source: str | None, target: str, kind: str | None, flags: int,
          options: str | None = None) -> None:
    check(_libc.mount(source and source.encode(), target.encode(), kind and kind.encode(),
                      ctypes.c_ulong(flags), options and options.encode()), f"mount {target}")


def write(path: str, text: str) -> None:
    with open(path, "w", encoding="ascii") as file:
        file.write(text)


def own_proc(settings: tuple[tuple[str, str], ...] = (), read_only: bool = True) -> None:
    """Mount a /proc of the calling process's pid namespace, write ``settings`` (path, value)
    into it, then put Docker's masks and (``read_only``) read-only paths on it. gVisor's /proc
    has none of the masked files and refuses a bind of /proc/sys; its own kernel keeps
    /proc/sys from a writer without capabilities."""
    mount("proc", "/proc", "proc", HIDDEN)
    for path, value in settings:
        write(path, value)
    for path in MASKED:
        if os.path.isdir(path):
            mount("tmpfs", path, "tmpfs", MS_RDONLY | HIDDEN, "size=0")
        elif os.path.exists(path):
            mount("/dev/null", path, None, MS_BIND)
    for path in READ_ONLY if read_only else ():
        if os.path.exists(path):
            mount(path, path, None, MS_BIND | MS_REC)
            mount(None, path, None, MS_REMOUNT | MS_BIND | MS_RDONLY | HIDDEN)


class _Header(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _Data(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32),
                ("inheritable", ctypes.c_uint32)]


def drop_all() -> None:
    """Clear the effective, permitted and inheritable sets (the ambient set goes with them). The
    bounding set stays: it only bounds what an execve could gain, and no_new_privs (every
    sandbox container's) already lets an execve gain nothing."""
    data = (_Data * 2)(_Data(0, 0, 0), _Data(0, 0, 0))
    check(_libc.capset(ctypes.byref(_Header(CAPABILITY_VERSION_3, 0)), data), "capset")


def keep_only(capabilities: tuple[int, ...]) -> None:
    """Drop every capability but these, from the bounding set too. Where /proc does not say
    which is the last capability (gVisor), up to the first number the kernel does not know."""
    try:
        with open("/proc/sys/kernel/cap_last_cap", "rb") as last_file:
            last = int(last_file.read())
    except OSError:
        last = 63
    for number in range(last + 1):
        if number in capabilities:
            continue
        if _libc.prctl(PR_CAPBSET_DROP, ctypes.c_ulong(number), 0, 0, 0) != 0:
            if ctypes.get_errno() == errno.EINVAL and number > 0:
                break  # past the last capability this kernel has
            check(-1, f"dropping capability {number}")
    mask = sum(1 << number for number in capabilities)
    data = (_Data * 2)(_Data(mask, mask, 0), _Data(0, 0, 0))
    check(_libc.capset(ctypes.byref(_Header(CAPABILITY_VERSION_3, 0)), data), "capset")
