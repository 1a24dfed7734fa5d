"""A slot: one long-lived container whose PID 1 judges each submission in a fresh jail.
Standard library only (baked into the sandbox image).

PID 1 here is the *template*: it has imported the supervisor and the learner side once, reads
nothing from the host and runs no learner code. For each submission it forks a jail (always
from itself, never from an earlier jail):

1. the child unshares fresh user, mount, pid, ipc, uts, cgroup and network namespaces (the
   network one holds nothing but a loopback that is down);
2. the template maps that user namespace onto uids and gids never used before in this slot
   (``JAIL_UID_BASE`` + jail number * ``JAIL_UID_STRIDE``): namespace root, and the learner uids
   from ``harness.BASE_UID`` up;
3. the child forks the jail's PID 1, which mounts a fresh tmpfs on /tmp (the container's limits
   on size and inodes), a /proc of its own pid namespace with the same paths masked or read-only
   as Docker masks them, sets the System V and POSIX queue limits to zero as the container does,
   keeps only the supervisor's three capabilities (SETUID, SETGID, KILL) and becomes the
   supervisor (``sandbox.inside.harness.serve``) for one submission, whose frames it reads from
   the container's stdin as a fresh container's supervisor would;
4. when that supervisor ends, the kernel ends every process of its pid namespace and the jail's
   mounts go with it; the template writes one ``ready`` record on the container's stdout (how
   the jail ended, the container's memory now) and forks the next jail, which waits for the next
   Start message.

The host reads a ``ready`` record before it sends the next submission, and replaces the slot
after any jail that did not end cleanly (``sandbox.docker_runner``).
"""

from __future__ import annotations

import os
import signal

from sandbox.inside import harness, step_jail
from sandbox.inside.namespaces import (
    CLONE_NEWCGROUP,
    CLONE_NEWIPC,
    CLONE_NEWNET,
    CLONE_NEWNS,
    CLONE_NEWPID,
    CLONE_NEWUSER,
    CLONE_NEWUTS,
    HIDDEN,
    MS_BIND,
    MS_PRIVATE,
    MS_RDONLY,
    MS_REC,
    keep_only,
    mount,
    own_proc,
    unshare,
    write,
)

NAMESPACES = (CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWUTS
              | CLONE_NEWCGROUP | CLONE_NEWNET)
# capabilities
CAP_KILL, CAP_SETGID, CAP_SETUID = 5, 6, 7
SUPERVISOR_CAPABILITIES = (CAP_KILL, CAP_SETGID, CAP_SETUID)

JAIL_UID_BASE = 100_000
JAIL_UID_STRIDE = 65_536  # outer uids each jail gets: its root, then the learner uids
LEARNER_UIDS = JAIL_UID_STRIDE - 1
# How a jail ended, as its exit status says: served and ended cleanly, the host closed the
# stream before a Start came (the slot ends), or it could not be built.
JAIL_SERVED, JAIL_FAILED = 0, 75

# The container's own limits on System V IPC and POSIX queues (docker_runner's sysctls), which
# a fresh ipc namespace sets back to the kernel's defaults.
QUEUE_LIMITS = (("/proc/sys/kernel/msgmni", "0"), ("/proc/sys/kernel/shmmni", "0"),
                ("/proc/sys/kernel/sem", "0 0 0 0"), ("/proc/sys/fs/mqueue/queues_max", "0"))
# Where the container's memory in use is kept: cgroup v2, then v1.
MEMORY_USED = (("memory.current", None), ("memory/memory.usage_in_bytes", None))
# The slot's cgroup files count what every jail did (CPU used, the memory high-water mark, how
# often a limit refused something), and any uid may read them: a channel from one submission to
# the next. Each jail hides the whole folder under an empty tmpfs; the counters its supervisor
# reads are bound first into a folder only the jail's root may open.
PRIVATE = "/mnt"
PRIVATE_CGROUP = PRIVATE + "/cgroup"


def outer_base(jail: int) -> int:
    """The first outer uid (and gid) of jail number ``jail``: its namespace root."""
    return JAIL_UID_BASE + jail * JAIL_UID_STRIDE


def id_map(jail: int) -> str:
    """The jail's uid_map and gid_map: its root, and the learner uids, on outer ids no other
    jail of the slot ever had."""
    base = outer_base(jail)
    return f"0 {base} 1\n{harness.BASE_UID} {base + 1} {LEARNER_UIDS}\n"


def _furnish(tmpfs_options: str, plain: bool) -> None:
    """In the jail's PID 1, as its namespace root: its own mounts, then the supervisor's
    privileges only. ``plain`` (gVisor, no user namespace): gVisor's mounts propagate nowhere
    and it refuses a change of propagation; its IPC sysctls are not there to set."""
    if not plain:
        mount(None, "/", None, MS_REC | MS_PRIVATE)  # nothing here reaches the container's mounts
    mount("tmpfs", "/tmp", "tmpfs", HIDDEN, tmpfs_options)
    own_proc(() if plain else QUEUE_LIMITS, read_only=not plain)
    _hide_cgroup()
    keep_only(SUPERVISOR_CAPABILITIES)


def _hide_cgroup() -> None:
    """See PRIVATE: the supervisor's counters move to PRIVATE_CGROUP (``harness.CGROUP`` then
    names it), and /sys/fs/cgroup shows nothing. A /proc of the jail's without masks waits
    there too, for the jails of a ``per_test`` problem's steps (``step_jail.VISIBLE_PROC``)."""
    mount("tmpfs", PRIVATE, "tmpfs", HIDDEN, "size=64k,mode=0700")
    os.mkdir(step_jail.VISIBLE_PROC, 0o500)
    mount("proc", step_jail.VISIBLE_PROC, "proc", HIDDEN)
    for name, _ in (*harness.PIDS_CURRENT, *harness.OOM_KILLS):
        source = f"{harness.CGROUP}/{name}"
        if not os.path.exists(source):
            continue
        target = f"{PRIVATE_CGROUP}/{name}"
        os.makedirs(os.path.dirname(target), exist_ok=True)
        os.close(os.open(target, os.O_CREAT | os.O_WRONLY, 0o400))
        mount(source, target, None, MS_BIND)
    if os.path.isdir(harness.CGROUP):
        mount("tmpfs", harness.CGROUP, "tmpfs", MS_RDONLY | HIDDEN, "size=0")
    harness.CGROUP = PRIVATE_CGROUP


def _jail(mapped_r: int, unshared_w: int, furnished_w: int, tmpfs_options: str,
          plain: bool) -> None:
    """The forked child: never returns."""
    try:
        unshare(NAMESPACES & ~CLONE_NEWUSER if plain else NAMESPACES)
        os.write(unshared_w, b"u")
        os.close(unshared_w)
        if os.read(mapped_r, 1) != b"m":
            os._exit(JAIL_FAILED)
        os.close(mapped_r)
        os.setresgid(0, 0, 0)
        os.setresuid(0, 0, 0)
        supervisor = os.fork()  # PID 1 of the new pid namespace
        if supervisor == 0:
            _supervise(furnished_w, tmpfs_options, plain)
        os.close(furnished_w)
        _, status = os.waitpid(supervisor, 0)
        os._exit(exit_code(status))
    except BaseException as exc:  # said on stderr, and the host replaces the slot
        try:
            os.write(2, f"the jail could not be built: {exc}\n".encode())
        finally:
            os._exit(JAIL_FAILED)


def _supervise(furnished_w: int, tmpfs_options: str, plain: bool) -> None:
    """The jail's PID 1: furnish the jail, say so, then serve one submission; never returns."""
    try:
        _furnish(tmpfs_options, plain)
        if not plain:  # a per_test problem's steps get jails too (they need a user namespace)
            step_jail.TMPFS_OPTIONS = tmpfs_options
        os.write(furnished_w, b"f")
        os.close(furnished_w)
    except BaseException as exc:  # said on stderr, and the host replaces the slot
        os.write(2, f"the jail could not be built: {exc}\n".encode())
        os._exit(JAIL_FAILED)
    status = JAIL_SERVED
    try:
        harness.serve(linger=False)
    except SystemExit as exc:
        status = exc.code if isinstance(exc.code, int) else 1
        if isinstance(exc.code, str):
            os.write(2, (exc.code + "\n").encode())
    except BaseException:
        status = 1
    os._exit(status)


def exit_code(status: int) -> int:
    """A wait status as a shell says it: the exit code, or 128 + the signal that killed it."""
    code = os.waitstatus_to_exitcode(status)
    return code if code >= 0 else 128 - code


def build_jail(number: int, tmpfs_options: str, plain: bool = False) -> int | None:
    """Fork jail ``number`` and wait until it is furnished: its pid (its PID 1 then waits for a
    Start message), or None when it could not be built (it has ended by then). ``plain``: no
    user namespace (gVisor), so no ids to map: its learners take the outer uids the mapping
    would have given them, which no other jail of the slot had either."""
    unshared_r, unshared_w = os.pipe()
    mapped_r, mapped_w = os.pipe()
    furnished_r, furnished_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        for fd in (unshared_r, mapped_w, furnished_r):
            os.close(fd)
        if plain:
            harness.BASE_UID = outer_base(number) + 1
        _jail(mapped_r, unshared_w, furnished_w, tmpfs_options, plain)
    for fd in (unshared_w, mapped_r, furnished_w):
        os.close(fd)
    try:
        if os.read(unshared_r, 1) == b"u":
            if not plain:
                mapping = id_map(number)
                write(f"/proc/{pid}/uid_map", mapping)
                write(f"/proc/{pid}/gid_map", mapping)
            os.write(mapped_w, b"m")
    except OSError as exc:
        os.write(2, f"the jail's ids could not be mapped: {exc}\n".encode())
    finally:
        os.close(unshared_r)
        os.close(mapped_w)
    furnished = os.read(furnished_r, 1) == b"f"  # end of file: every holder has ended
    os.close(furnished_r)
    if furnished:
        return pid
    os.waitpid(pid, 0)
    return None


def _end_of_life(_signum: int, _frame: object) -> None:
    os._exit(0)  # the slot's label runs out: the host stops using it before, the sweep after


def main(arguments: list[str]) -> None:
    """PID 1 of a slot container: ``slot LIFETIME TMPFS_MB TMPFS_INODES [plain]``; ``plain``
    under gVisor, whose own kernel refuses mounts in a user namespace: its jails have none, the
    template holds CAP_SYS_ADMIN instead, and gVisor's tmpfs takes no inode cap (the size cap and
    the sandbox's memory bound it).

    Before each jail takes its Start message, one ``ready`` record says that it is built, how
    the jail before it ended (its exit code; None for the first) and the container's memory in
    use once that one was gone (None where no cgroup file says it).
    """
    lifetime, tmpfs_mb, tmpfs_inodes = float(arguments[0]), int(arguments[1]), int(arguments[2])
    plain = arguments[3:4] == ["plain"]
    signal.signal(signal.SIGALRM, _end_of_life)
    signal.alarm(max(1, int(lifetime)))
    inodes = "" if plain else f"nr_inodes={tmpfs_inodes},"
    options = f"size={tmpfs_mb}m,{inodes}mode=1777"
    memory = harness.Count(MEMORY_USED)
    previous: int | None = None
    number = 1
    while True:
        pid = build_jail(number, options, plain)
        harness.emit({"slot": "ready", "jail": number, "built": pid is not None,
                      "previous": previous, "memory": memory.read()})
        if pid is None:
            return
        _, status = os.waitpid(pid, 0)
        previous = exit_code(status)
        if previous == harness.STREAM_CLOSED:
            return
        number += 1
