"""Between two tests: every process of the finished test's uid is killed and its files removed
(a shared learner process keeps itself and its files; only the processes it started are killed).
Standard library only (baked into the sandbox image)."""

from __future__ import annotations

import contextlib
import os
import signal

# Places a learner process can write to (which exist depends on the runtime).
WRITABLE = ("/tmp", "/dev/shm", "/dev/mqueue")
MAX_OPERATIONS = 100_000  # far above what the tmpfs's inode cap allows


def processes_of(uid: int) -> list[int]:
    """Live (not zombie) processes whose real uid is uid, read from /proc.

    Read as bytes: a learner chooses its process's name, which need not be valid UTF-8.
    """
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/status", "rb") as status:
                lines = status.read().splitlines()
        except OSError:
            continue  # it ended while we looked
        fields = {key: value.strip() for key, _, value in (line.partition(b":") for line in lines)}
        uids = fields.get(b"Uid", b"").split()
        if uids and uids[0] == str(uid).encode() and not fields.get(b"State", b"").startswith(b"Z"):
            found.append(int(name))
    return found


def open_status(pid: int) -> int | None:
    """A descriptor on live process pid's status file, read again with ``high_water`` after each
    of its calls (one system call a read, where opening the file anew took six); None when it has
    ended. Its reads fail once that process has ended, whatever process gets its pid next."""
    try:
        return os.open(f"/proc/{pid}/status", os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None


def high_water(status_fd: int | None) -> int | None:
    """The resident high-water mark in bytes (VmHWM) of the live process whose status file is
    open on status_fd (``open_status``); None when it has ended or the runtime does not keep one.
    The kernel escapes the process's name in that file, so no line of the learner's making can
    pose as the count."""
    if status_fd is None:
        return None
    try:
        lines = os.pread(status_fd, 1 << 16, 0).splitlines()
    except OSError:
        return None
    for line in lines:
        if line.startswith(b"VmHWM:"):
            words = line.split()
            if len(words) == 3 and words[1].isdigit() and words[2] == b"kB":
                return int(words[1]) * 1024
    return None


def stopped(pid: int) -> bool | None:
    """Whether pid is stopped (by a signal, or traced); None once it has ended or is a zombie."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            text = stat.read()
    except OSError:
        return None
    # The name, in parentheses, may hold anything: the state is the field after its last ")".
    state = text[text.rfind(b")") + 2:][:1]
    return None if state in (b"Z", b"X", b"") else state in (b"T", b"t")


def kill_uid(uid: int, keep: int | None = None) -> None:
    """SIGKILL every process of uid but ``keep`` (needs CAP_KILL). Nothing is reaped meanwhile,
    so a fork bomb never gets a freed pid back; the caller collects the zombies afterwards."""
    for _ in range(1000):
        alive = [pid for pid in processes_of(uid) if pid != keep]
        if not alive:
            return
        for pid in alive:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def _wipe(root: str, uid: int) -> None:
    """Remove every entry of uid under root, however deep, with one open descriptor at a time:
    walking by chdir keeps neither descriptors nor path length growing with the depth."""
    os.chdir(root)
    stack: list[str] = []
    skipped: set[tuple[int, str]] = set()  # (depth, name) of entries that are not ours
    for _ in range(MAX_OPERATIONS):
        entry = None
        with os.scandir(".") as entries:
            for candidate in entries:
                if (len(stack), candidate.name) not in skipped:
                    entry = candidate
                    break
        if entry is None:
            if not stack:
                return
            os.chdir("..")
            name = stack.pop()
            try:
                os.rmdir(name)
            except OSError:
                skipped.add((len(stack), name))
            continue
        try:
            if entry.stat(follow_symlinks=False).st_uid != uid:
                skipped.add((len(stack), entry.name))
            elif entry.is_dir(follow_symlinks=False):
                os.chmod(entry.name, 0o700)  # the owner may always open its own folder again
                os.chdir(entry.name)
                stack.append(entry.name)
            else:
                os.unlink(entry.name)
        except OSError:
            skipped.add((len(stack), entry.name))


def _occupied() -> list[str]:
    """The places a learner can write to that hold something now."""
    found = []
    for root in WRITABLE:
        with contextlib.suppress(OSError):
            if os.path.isdir(root) and os.listdir(root):
                found.append(root)
    return found


def wipe_as(uid: int) -> None:
    """In a process that has become uid (only uid may delete uid's files in a sticky folder)."""
    for root in _occupied():
        with contextlib.suppress(OSError):
            _wipe(root, uid)


def leftovers_possible() -> bool:
    """Whether any place a learner can write to holds something."""
    return bool(_occupied())
