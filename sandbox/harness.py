"""The sandbox's supervisor: PID 1 of the container, the only process that speaks to the host.
Standard library only. It never runs learner code, and learner code cannot reach it.

How the two are kept apart:

- The supervisor runs as root inside the container with three capabilities (SETUID, SETGID,
  KILL) and nothing else; every learner process (forked for it by the spawner) gives up uid 0,
  and with it every capability, before any learner code runs (``sandbox.learner``). Each step
  gets a uid of its own (20000 + step), so a test's processes cannot signal, trace or read another
  test's, and none can trace the supervisor or open its ``/proc`` entries, file descriptors or
  memory.
- A learner process holds only its own pipes: stdin (arguments, then /dev/null), stdout and stderr
  (a pipe this process reads and caps) and the claim pipe. The container's stdin and stdout, the
  host's channel, stay with the supervisor.
- Learner processes are forked by a spawner (``sandbox.spawner``) that was itself forked before
  any test's arguments or any learner's output reached the supervisor, so no learner process can
  find another test's input or output in the memory it inherits.
- After each step every process of that step's uid is killed and its files are removed
  (``sandbox.cleanup``), so nothing carries from one test to the next.

The supervisor reports what it saw from outside (``sandbox.protocol.Step``); the learner's claim
is passed on in base64, unread. The host measures the time and decides every verdict.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import select
import signal
import sys
import time

if __package__ in (None, ""):
    # Run as a script under ``python -I``, which keeps the script's folder off sys.path.
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from sandbox import cleanup
from sandbox.protocol import CLAIM_CAP, Kind, Start, Stop
from sandbox.spawner import Child, Spawner

BASE_UID = 20000
CGROUP = "/sys/fs/cgroup"
# Where a count is kept: the cgroup v2 file, then the cgroup v1 one (a controller's folder).
PIDS_CURRENT = (("pids.current", None), ("pids/pids.current", None))
OOM_KILLS = (("memory.events", "oom_kill"), ("memory/memory.oom_control", "oom_kill"))
HEADER_CAP = 12  # digits of a frame's length
FRAME_CAP = 256 * 1024 * 1024


def _write_all(fd: int, data: bytes | memoryview) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _emit(record: dict[str, object]) -> None:
    _write_all(1, (json.dumps(record) + "\n").encode())


def _read_header(fd: int) -> int | None:
    """A frame's byte count, or None when the host has closed the stream."""
    digits = b""
    while True:
        byte = os.read(fd, 1)
        if not byte:
            return None
        if byte == b"\n":
            return int(digits)
        digits += byte
        if len(digits) > HEADER_CAP or not byte.isdigit():
            raise SystemExit("the host sent a malformed frame header")


def _read_body(fd: int, size: int, buffer: bytearray) -> memoryview:
    if size > FRAME_CAP:
        raise SystemExit("the host sent a frame larger than the cap")
    if size > len(buffer):
        buffer.extend(bytes(size - len(buffer)))
    view = memoryview(buffer)[:size]
    got = 0
    while got < size:
        n = os.readv(fd, [view[got:]])
        if n == 0:
            raise SystemExit("the host closed the stream inside a frame")
        got += n
    return view


class _Count:
    """A number the container's cgroup keeps, from the first of its places that exists: a file
    holding the number alone (key None), or the line that starts with key. The file is opened
    once and read again from its start for each count (a cgroup file is made afresh on every
    read); None where no place exists (gVisor) or a read fails."""

    def __init__(self, places: tuple[tuple[str, str | None], ...]) -> None:
        self.fd: int | None = None
        self.key: str | None = None
        for name, key in places:
            try:
                self.fd = os.open(f"{CGROUP}/{name}", os.O_RDONLY | os.O_CLOEXEC)
            except OSError:
                continue
            self.key = key
            return

    def read(self) -> int | None:
        if self.fd is None:
            return None
        try:
            text = os.pread(self.fd, 4096, 0).decode("ascii", "replace")
        except OSError:
            return None
        if self.key is None:
            return int(text.strip()) if text.strip().isdigit() else None
        for line in text.splitlines():
            parts = line.split()
            if len(parts) == 2 and parts[0] == self.key and parts[1].isdigit():
                return int(parts[1])
        return None


class _Counts:
    """The container's process and OOM-kill counts; ``baseline``: how many processes it holds
    besides learner processes (the supervisor and its spawners), counted once they exist.
    Made after the spawners are forked, so that no learner process inherits these files."""

    def __init__(self) -> None:
        self.pids = _Count(PIDS_CURRENT)
        self.oom_kills = _Count(OOM_KILLS)
        self.baseline = self.pids.read()


def _drain(child: Child, fd: int, cap: int) -> bool:
    """Read what is there; False at end of stream. Stops reading at cap + 1 bytes."""
    target = child.stdout if fd == child.out_r else child.claim
    while len(target) <= cap:
        try:
            chunk = os.read(fd, 1 << 16)
        except BlockingIOError:
            return True
        if not chunk:
            return False
        target += chunk
    return True


def _supervise(child: Child, spawner: Spawner, start: Start, counts: _Counts
               ) -> tuple[Stop | None, int]:
    """Watch one learner process until it exits or breaks a limit; (stop, wait status)."""
    oom_before = counts.oom_kills.read()
    caps = {child.out_r: start.stdout_cap, child.claim_r: CLAIM_CAP}
    open_fds = [child.out_r, child.claim_r]
    deadline = time.monotonic() + start.time_limit
    stop: Stop | None = None
    status: int | None = None
    while status is None:
        if child.pid in spawner.exits:  # reported while the supervisor spawned the next one
            status = spawner.exits.pop(child.pid)
            break
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            stop = Stop.TIMEOUT
            break
        ready, _, _ = select.select([*open_fds, spawner.sock.fileno()], [], [], remaining)
        for fd in ready:
            if fd in open_fds and not _drain(child, fd, caps[fd]):
                open_fds.remove(fd)
        if len(child.stdout) > start.stdout_cap:
            stop = Stop.OUTPUT_LIMIT
            break
        if len(child.claim) > CLAIM_CAP:
            stop = Stop.CLAIM_TOO_LARGE
            break
        if spawner.sock.fileno() in ready:
            spawner.take_reports()
    if status is None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(child.pid, signal.SIGKILL)
        status = spawner.exit_status(child.pid, None)
        assert status is not None
    else:
        for fd in open_fds:  # what it wrote just before it exited
            _drain(child, fd, caps[fd])
    oom_after = counts.oom_kills.read()
    if (stop is None and os.WIFSIGNALED(status) and oom_before is not None
            and oom_after is not None and oom_after > oom_before):
        stop = Stop.MEMORY
    return stop, status


def _reap_zombies() -> None:
    """Collect orphans of learner processes, which the kernel gives to PID 1."""
    with contextlib.suppress(ChildProcessError):
        while os.waitpid(-1, os.WNOHANG)[0]:
            pass


def _exists(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def _clear_uid(uid: int, spawner: Spawner, counts: _Counts, spare: Child | None) -> None:
    """Kill every process of uid and remove its files, unless nothing is left. ``spare``: the
    next test's process, spawned ahead, which the count holds too as long as it exists, even
    ended (its spawner has not collected it yet): checked after the count, so that a spare that
    ended meanwhile can never pass for a process of uid's that is left."""
    _reap_zombies()
    count = counts.pids.read()
    baseline = counts.baseline
    if (baseline is None or count != baseline + (spare is not None)
            or (spare is not None and not _exists(spare.pid))):
        cleanup.kill_uid(uid)
        _reap_zombies()
    if cleanup.leftovers_possible():
        spawner.wipe(uid)


def _finish(child: Child, spawner: Spawner, kind: Kind, seq: int | None, start: Start,
            counts: _Counts, ahead: Spawner | None = None) -> Child | None:
    """Supervise one step, clear its uid away and send its record. ``ahead``: the spawner that
    was asked for the next test's process, which is taken (and returned) before the clearing
    counts the container's processes."""
    stop, status = _supervise(child, spawner, start, counts)
    spare = ahead.collect(Kind.TEST, child.uid + 1) if ahead is not None else None
    for fd in (child.out_r, child.claim_r):
        os.close(fd)
    _clear_uid(child.uid, spawner, counts, spare)
    claim = None if stop is Stop.CLAIM_TOO_LARGE or not child.claim else (
        base64.b64encode(child.claim).decode())
    _emit({
        "kind": kind.value, "seq": seq, "stop": stop.value if stop else None,
        "exit": os.WEXITSTATUS(status) if os.WIFEXITED(status) else None,
        "signal": os.WTERMSIG(status) if os.WIFSIGNALED(status) else None,
        "stdout": child.stdout[: start.stdout_cap].decode("utf-8", "replace"),
        "claim": claim,
    })
    return spare


def _close_ends(child: Child) -> None:
    """Close the supervisor's ends of the pipes of a process that never got its step."""
    for fd in (child.args_w, child.out_r, child.claim_r):
        if fd is not None:
            os.close(fd)


def _discard(child: Child | None, spawner: Spawner) -> None:
    """End a learner process that never got its step."""
    if child is None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.kill(child.pid, signal.SIGKILL)
    spawner.exit_status(child.pid, None)
    _close_ends(child)


def _waiting(child: Child | None, spawner: Spawner) -> Child | None:
    """The process spawned ahead for a test, if it still waits for its arguments: one the
    kernel took meanwhile (the OOM killer, while the test before used too much memory) is no
    process of that test's, and is replaced rather than blamed."""
    if child is None:
        return None
    spawner.take_reports()
    if child.pid in spawner.exits:
        spawner.exits.pop(child.pid)
        _close_ends(child)
        return None
    return child


def _start_message() -> Start:
    size = _read_header(0)
    if size is None:
        raise SystemExit(0)
    buffer = bytearray()
    raw = json.loads(bytes(_read_body(0, size, buffer)))
    return Start(str(raw["code"]), str(raw["function"]), float(raw["time_limit"]),
                 int(raw["memory_bytes"]), int(raw["stdout_cap"]), float(raw["lifetime"]))


def _end_of_lease(_signum: int, _frame: object) -> None:
    os._exit(3)  # the host is gone or wedged: the container must not outlive its lease


def main() -> None:
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # the host went away: end quietly
    start = _start_message()
    # PID 1 ignores signals that have no handler, so the lease needs one.
    signal.signal(signal.SIGALRM, _end_of_lease)
    signal.alarm(max(1, int(start.lifetime)))
    # Both before any test data or learner output exists in this process.
    spawners = (Spawner(start), Spawner(start))
    counts = _Counts()
    loader = spawners[0].spawn(Kind.IMPORT, BASE_UID)
    if loader is None:
        raise SystemExit("the container could not start a process")
    _finish(loader, spawners[0], Kind.IMPORT, None, start, counts)
    buffer = bytearray()
    seq = 0
    # Each test's process is spawned ahead, while the test before it runs (the fork costs no
    # test any time), by a spawner, which never holds test data; it runs no learner code until
    # it has its arguments, and those are sent only once the test before it has been cleared
    # away. A spawn the kernel refuses then (the process limit, reached by the running test) is
    # made again after the clearing. Test n's process comes from spawners[n % 2].
    child = spawners[0].spawn(Kind.TEST, BASE_UID + 1)
    while True:
        spawner, other = spawners[seq % 2], spawners[(seq + 1) % 2]
        size = _read_header(0)
        body = _read_body(0, size, buffer) if size is not None else None
        if body is None or (size == 4 and body.tobytes() == b"null"):  # no more tests
            _discard(child, spawner)
            return
        child = _waiting(child, spawner) or spawner.spawn(Kind.TEST, BASE_UID + 1 + seq)
        if child is None:
            raise SystemExit("the container could not start a process")
        assert child.args_w is not None
        with contextlib.suppress(BrokenPipeError):
            _write_all(child.args_w, body)
        os.close(child.args_w)
        body.release()  # so that the buffer may grow for a larger frame
        other.request(Kind.TEST, child.uid + 1)
        child = _finish(child, spawner, Kind.TEST, seq, start, counts, other)
        seq += 1


if __name__ == "__main__":
    main()
