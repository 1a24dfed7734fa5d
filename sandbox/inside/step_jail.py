"""A jail for each step of a ``per_test`` problem in a slot: its own pid namespace and a fresh
tmpfs on /tmp. Standard library only (baked into the sandbox image).

Within one submission a fresh process per step already keeps each test's memory and files
apart (``sandbox.inside.harness``); two counters were still shared: the pid a new process gets
and the inode numbers of /tmp, through which a test could leave a number for the next one. In a
slot's jail (``sandbox.inside.jail`` sets ``TMPFS_OPTIONS``) every step's learner process is
built here instead, once it has given up uid 0 and every capability:

1. it unshares user, mount and pid namespaces, the user one mapping only its own uid and gid
   onto themselves (nothing else exists in it, root included);
2. it forks the namespace's init, which mounts a fresh /tmp (the container's size and inode
   caps), a /proc of the new pid namespace that holds its processes and nothing else
   (``subset=pid``: none of the kernel's own files, so none needs Docker's masks, and one mount
   where masking took twenty), and an empty tmpfs over the jail's private folder; then forks the
   learner process (pid 2), keeps nothing of the step's (every descriptor closed), and waits;
3. the learner process drops the namespace's capabilities and goes on to run the learner's
   code, under its filter (which refuses namespaces and mounts from then on).

When the learner process ends, its init hands its wait status to the process the spawner
forked, and ends: the kernel takes every process of the namespace with it, and the mounts go.
That first process then ends as the learner process did (the same exit code or signal), so the
supervisor sees the step as before. A mount of a pid namespace's /proc is allowed only where a
/proc is fully visible: the jail keeps one, unmasked, at ``VISIBLE_PROC`` under its private
folder, which no learner uid may enter and which the step's init covers.
"""

from __future__ import annotations

import os
import signal

from sandbox.inside.namespaces import (
    CLONE_NEWNS,
    CLONE_NEWPID,
    CLONE_NEWUSER,
    HIDDEN,
    MS_RDONLY,
    drop_all,
    mount,
    set_dumpable,
    unshare,
    write,
)

# The slot jail's tmpfs options; None outside a slot (a container per submission has no room
# for namespaces: its profile refuses them), where a step runs as a plain fresh process.
TMPFS_OPTIONS: str | None = None
PRIVATE = "/mnt"  # the slot jail's private folder (sandbox.inside.jail.PRIVATE)
VISIBLE_PROC = PRIVATE + "/proc"
# Processes a step's jail adds to its learner process: the one the spawner forked, and init.
PROCESSES = 2
RELAY_FAILED = 70  # the status of a step whose init ended without a word


def enter(uid: int, tmpfs_options: str) -> None:
    """Put the calling process (uid ``uid``, no capabilities, single-threaded) into a step jail.
    Returns only in the learner process, pid 2 of the fresh pid namespace, with no capability;
    the calling process itself waits and ends as that one does."""
    unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID)
    set_dumpable(True)  # for the moment it takes to write its own maps
    write("/proc/self/setgroups", "deny")
    write("/proc/self/uid_map", f"{uid} {uid} 1\n")
    write("/proc/self/gid_map", f"{uid} {uid} 1\n")
    set_dumpable(False)
    status_r, status_w = os.pipe()
    init = os.fork()
    if init != 0:
        os.close(status_w)
        _relay(init, status_r)
    os.close(status_r)
    mount("tmpfs", "/tmp", "tmpfs", HIDDEN, tmpfs_options)
    mount("proc", "/proc", "proc", HIDDEN, "subset=pid")  # see the module's docstring
    mount("tmpfs", PRIVATE, "tmpfs", MS_RDONLY | HIDDEN, "size=0")
    learner = os.fork()
    if learner == 0:
        os.close(status_w)
        drop_all()
        return
    _init(learner, status_w)


def _init(learner: int, status_w: int) -> None:
    """PID 1 of the step's namespace: reap until the learner process ends, hand on its status;
    never returns. Its end ends every other process of the namespace."""
    try:
        os.closerange(0, status_w)
        os.closerange(status_w + 1, 1 << 16)
        while True:
            pid, status = os.waitpid(-1, 0)
            if pid == learner:
                os.write(status_w, str(status).encode())
                break
    finally:
        os._exit(0)


def _relay(init: int, status_r: int) -> None:
    """The process the spawner forked: wait for the step's init, then end as its learner
    process did; never returns."""
    try:
        os.closerange(0, status_r)
        os.closerange(status_r + 1, 1 << 16)
        _, own = os.waitpid(init, 0)
        told = os.read(status_r, 32)
        status = int(told) if told.isdigit() else own
        if os.WIFSIGNALED(status):
            number = os.WTERMSIG(status)
            signal.pthread_sigmask(signal.SIG_UNBLOCK, [number])
            if number not in (signal.SIGKILL, signal.SIGSTOP):
                signal.signal(number, signal.SIG_DFL)
            os.kill(os.getpid(), number)
            os._exit(128 + number)
        os._exit(os.waitstatus_to_exitcode(status) if told else RELAY_FAILED)
    finally:
        os._exit(RELAY_FAILED)
