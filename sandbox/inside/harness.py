"""The sandbox's supervisor: PID 1 of the container, the only process that speaks to the host.
Standard library only. It never runs learner code, and learner code cannot reach it.

How the two are kept apart:

- The supervisor runs as root inside the container with three capabilities (SETUID, SETGID,
  KILL) and nothing else; every learner process (forked for it by the spawner) gives up uid 0,
  and with it every capability, before any learner code runs (``sandbox.inside.learner``). Each learner
  process gets a uid of its own (20000 and up), so none can signal, trace or read another's
  processes, nor trace the supervisor or open its ``/proc`` entries, file descriptors or memory.
- A learner process holds only its own pipes: stdin (/dev/null), stdout and stderr (a pipe this
  process reads and caps per test), the claim pipe and, for a process that serves every test,
  the pipe its tests' arguments come on. The container's stdin and stdout, the host's channel,
  stay with the supervisor.
- Learner processes are forked by a spawner (``sandbox.inside.spawner``) that was itself forked before
  any test's arguments or any learner's output reached the supervisor, so no learner process can
  find another process's tests in the memory it inherits.

Two isolations (``sandbox.inside.protocol.Isolation``, from the problem):

- ``shared`` (the default): one learner process loads the module and is called for each test in
  turn, its claims framed by their byte count. After each test the processes it started are
  killed (``_end_strays``). A test that ends it (an exit, a signal, a limit, a broken frame, or
  the host's FRESH frame after a claim the host refused) gets its record; its uid is cleared away
  and a fresh process, under the next uid, loads the module and takes the remaining tests.
- ``per_test``: each step (loading the module, then each test) gets a fresh process and uid;
  after each step every process of that uid is killed and its files are removed
  (``sandbox.inside.cleanup``), so nothing carries from one test to the next.

The supervisor reports what it saw from outside (``sandbox.inside.protocol.Step``); the learner's claim
is passed on in base64, unread. The host measures the time and decides every verdict. After the
host's "no more tests" every learner process is ended, and the supervisor waits for the host to
close the stream (``_linger``), so that the container's exit does not compete with the storing
of the verdict.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import select
import signal
import time

from sandbox.inside import cleanup, step_jail
from sandbox.inside.protocol import CLAIM_CAP, FRESH, Isolation, Kind, Start, Stop
from sandbox.inside.spawner import Child, Spawner

BASE_UID = 20000
STREAM_CLOSED = 64  # the exit status when the host closed the stream before a Start came
CGROUP = "/sys/fs/cgroup"
# Where a count is kept: the cgroup v2 file, then the cgroup v1 one (a controller's folder).
PIDS_CURRENT = (("pids.current", None), ("pids/pids.current", None))
OOM_KILLS = (("memory.events", "oom_kill"), ("memory/memory.oom_control", "oom_kill"))
HEADER_CAP = 12  # digits of a frame's length
FRAME_CAP = 256 * 1024 * 1024
CLAIM_STOPS = (Stop.CLAIM_TOO_LARGE, Stop.CLAIM_MALFORMED)  # a claim the host never sees
FRESH_FRAME = f'"{FRESH}"'.encode()
STALE_CAP = 1 << 20
SMALL_FRAME = 1 << 16  # bytes a shared process may leave between tests, read and dropped
READ_CHUNK = 1 << 16  # bytes of the host's stream read at once
STATE_POLLS, STATE_POLL_SECONDS = 200, 0.001  # waiting for a stop or a continue to take effect
RESUME_TRIES = 5


def _write_all(fd: int, data: bytes | memoryview) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def emit(record: dict[str, object]) -> None:
    try:
        _write_all(1, (json.dumps(record) + "\n").encode())
    except BrokenPipeError:
        os._exit(0)  # the host went away: end quietly


# What was read of the host's stream (fd 0) past the last frame header: a header is read with
# what follows it in one chunk, where a byte at a time cost a system call a digit.
_ahead = bytearray()


def _read_header(fd: int) -> int | None:
    """A frame's byte count, or None when the host has closed the stream."""
    while (newline := _ahead.find(b"\n")) < 0:
        if len(_ahead) > HEADER_CAP or (_ahead and not _ahead.isdigit()):
            raise SystemExit("the host sent a malformed frame header")
        chunk = os.read(fd, READ_CHUNK)
        if not chunk:
            return None
        _ahead.extend(chunk)
    digits = bytes(_ahead[:newline])
    del _ahead[:newline + 1]
    if len(digits) > HEADER_CAP or not digits.isdigit():
        raise SystemExit("the host sent a malformed frame header")
    return int(digits)


def _read_body(fd: int, size: int, buffer: bytearray) -> memoryview:
    if size > FRAME_CAP:
        raise SystemExit("the host sent a frame larger than the cap")
    if size > len(buffer):
        buffer.extend(bytes(size - len(buffer)))
    view = memoryview(buffer)[:size]
    got = min(size, len(_ahead))
    view[:got] = _ahead[:got]
    del _ahead[:got]
    while got < size:
        n = os.readv(fd, [view[got:]])
        if n == 0:
            raise SystemExit("the host closed the stream inside a frame")
        got += n
    return view


class Count:
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
        self.pids = Count(PIDS_CURRENT)
        self.oom_kills = Count(OOM_KILLS)
        self.baseline = self.pids.read()


def _drain(child: Child, fd: int, cap: int) -> bool:
    """Read what is there; False at end of stream. Stops reading at cap + 1 bytes, and after a
    read shorter than asked: the pipe was empty then, and a read more would only fail (a system
    call of every test's); what comes later wakes the caller's select again."""
    target = child.stdout if fd == child.out_r else child.claim
    while len(target) <= cap:
        try:
            chunk = os.read(fd, READ_CHUNK)
        except BlockingIOError:
            return True
        if not chunk:
            return False
        target += chunk
        if len(chunk) < READ_CHUNK:
            return True
    return True


def _claim_frame(claim: bytearray) -> tuple[Stop | None, bytes | None]:
    """A shared process's claim, framed as its byte count on a line and then the JSON: (None,
    the JSON) once complete, (None, None) while incomplete, (the stop, None) when broken. More
    than one claim for one call is broken too."""
    newline = claim.find(b"\n", 0, HEADER_CAP + 1)
    if newline < 0:
        digits = bytes(claim)
        broken = len(digits) > HEADER_CAP or (digits and not digits.isdigit())
        return (Stop.CLAIM_MALFORMED if broken else None), None
    digits = bytes(claim[:newline])
    if not digits.isdigit():
        return Stop.CLAIM_MALFORMED, None
    size = int(digits)
    if size > CLAIM_CAP:
        return Stop.CLAIM_TOO_LARGE, None
    end = newline + 1 + size
    if len(claim) < end:
        return None, None
    if len(claim) > end:
        return Stop.CLAIM_MALFORMED, None
    return None, bytes(claim[newline + 1:end])


def _supervise(child: Child, spawner: Spawner, start: Start, counts: _Counts, framed: bool
               ) -> tuple[Stop | None, int | None, bytes | None]:
    """Watch one learner process until it exits, breaks a limit or (``framed``: a process that
    serves every test) has sent a whole claim; (stop, wait status, claim). The status is None
    only for a framed process that answered and goes on."""
    oom_before = counts.oom_kills.read()
    claim_cap = CLAIM_CAP + HEADER_CAP + 1 if framed else CLAIM_CAP
    caps = {child.out_r: start.stdout_cap, child.claim_r: claim_cap}
    open_fds = [child.out_r, child.claim_r]
    deadline = time.monotonic() + start.time_limit
    stop: Stop | None = None
    status: int | None = None
    body: bytes | None = None
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
        if len(child.claim) > claim_cap:
            stop = Stop.CLAIM_TOO_LARGE
            break
        if framed and child.claim_r in ready:
            stop, body = _claim_frame(child.claim)
            if stop is not None:
                break
            if body is not None:
                _drain(child, child.out_r, start.stdout_cap)  # what it printed before its claim
                if len(child.stdout) <= start.stdout_cap:
                    return None, None, body
                stop, body = Stop.OUTPUT_LIMIT, None
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
        if framed and child.claim:
            stop, body = _claim_frame(child.claim)
            if stop is None and body is None:  # it ended inside its claim
                stop = Stop.CLAIM_MALFORMED
    if not framed and stop is not Stop.CLAIM_TOO_LARGE and child.claim:
        body = bytes(child.claim)
    if stop is None and os.WIFSIGNALED(status) and oom_before is not None:
        oom_after = counts.oom_kills.read()  # read only when it can matter: once a test
        if oom_after is not None and oom_after > oom_before:
            stop = Stop.MEMORY
    return stop, status, body


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
    ended meanwhile can never pass for a process of uid's that is left. Steps in jails of their
    own (``step_jail``) are always looked for by uid: a spare's jail is built while the count is
    read, so its number of processes is not known."""
    _reap_zombies()
    count = counts.pids.read()
    baseline = counts.baseline
    if (baseline is None or step_jail.TMPFS_OPTIONS is not None
            or count != baseline + (spare is not None)
            or (spare is not None and not _exists(spare.pid))):
        cleanup.kill_uid(uid)
        _reap_zombies()
    if cleanup.leftovers_possible():
        spawner.wipe(uid)


def _peak(child: Child, spawner: Spawner, status: int | None) -> int | None:
    """The learner process's resident high-water mark in bytes: read from /proc while it lives
    (a shared process between two calls: its peak so far), from the rusage of its end once
    ended."""
    if status is not None:
        return spawner.peak(child.pid)
    if child.status_fd is None:
        child.status_fd = cleanup.open_status(child.pid)
    return cleanup.high_water(child.status_fd)


def _emit_step(kind: Kind, seq: int | None, stop: Stop | None, status: int | None,
               stdout: bytearray, start: Start, claim: bytes | None, memory: int | None) -> None:
    """The step's record; ``status`` None for a process that answered and goes on."""
    exit_code = signal_number = None
    if status is not None:
        exit_code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else None
        signal_number = os.WTERMSIG(status) if os.WIFSIGNALED(status) else None
    emit({
        "kind": kind.value, "seq": seq, "stop": stop.value if stop else None,
        "exit": exit_code, "signal": signal_number,
        "stdout": stdout[: start.stdout_cap].decode("utf-8", "replace"),
        "claim": None if stop in CLAIM_STOPS or claim is None else base64.b64encode(claim).decode(),
        "memory": memory,
    })


def _finish(child: Child, spawner: Spawner, kind: Kind, seq: int | None, start: Start,
            counts: _Counts, ahead: Spawner | None = None) -> Child | None:
    """Supervise one step, clear its uid away and send its record. ``ahead``: the spawner that
    was asked for the next test's process, which is taken (and returned) before the clearing
    counts the container's processes."""
    stop, status, claim = _supervise(child, spawner, start, counts, framed=False)
    assert status is not None
    spare = ahead.collect(Kind.TEST, child.uid + 1) if ahead is not None else None
    for fd in (child.out_r, child.claim_r):
        os.close(fd)
    memory = _peak(child, spawner, status)
    _clear_uid(child.uid, spawner, counts, spare)
    _emit_step(kind, seq, stop, status, child.stdout, start, claim, memory)
    return spare


def _close_ends(child: Child) -> None:
    """Close the supervisor's ends of a process's pipes, and its status file."""
    for fd in (child.args_w, child.out_r, child.claim_r, child.status_fd):
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


def _start_message() -> bytes:
    """The Start frame's body, as the host sent it."""
    size = _read_header(0)
    if size is None:
        raise SystemExit(STREAM_CLOSED)
    return bytes(_read_body(0, size, bytearray()))


def _end_of_lease(_signum: int, _frame: object) -> None:
    os._exit(3)  # the host is gone or wedged: the container must not outlive its lease


def _end_strays(child: Child, counts: _Counts) -> None:
    """Kill every process a shared learner process started, keeping the process itself. It is
    stopped meanwhile (all its threads), so that none of them forks anew while its children
    are killed; nothing to do when the count holds only it besides the baseline or, where no
    count exists (gVisor), when /proc shows no other process of its uid: an honest process is
    never stopped, and never depends on a stop and a continue following each other."""
    _reap_zombies()
    if counts.baseline is not None:
        if counts.pids.read() == counts.baseline + 1:
            return
    elif not [pid for pid in cleanup.processes_of(child.uid) if pid != child.pid]:
        return
    with contextlib.suppress(ProcessLookupError):
        os.kill(child.pid, signal.SIGSTOP)
        try:
            _await_state(child.pid, stopped=True)
            cleanup.kill_uid(child.uid, keep=child.pid)
        finally:
            _resume(child.pid)
    _reap_zombies()


def _await_state(pid: int, stopped: bool) -> bool:
    """Wait (a bounded while) until pid is stopped, or until it is not; whether it got there.
    A stop takes effect a moment after the signal is sent, so a continue sent in that moment
    may come before it: under gVisor the process then stayed stopped for good."""
    for _ in range(STATE_POLLS):
        state = cleanup.stopped(pid)
        if state is None or state is stopped:  # an ended process is neither
            return True
        time.sleep(STATE_POLL_SECONDS)
    return False


def _resume(pid: int) -> None:
    """Continue a stopped process and see that it runs (sent again while it shows stopped)."""
    for _ in range(RESUME_TRIES):
        os.kill(pid, signal.SIGCONT)
        if _await_state(pid, stopped=False):
            return


def _drop_stale(child: Child) -> None:
    """What a shared process wrote between two calls (a thread of its own, say) belongs to no
    test: read and dropped before the next test's arguments are sent. One poll says whether
    there is any (there seldom is), where a read of each pipe cost two system calls a test."""
    waiting = select.poll()
    for fd in (child.out_r, child.claim_r):
        waiting.register(fd, select.POLLIN)
    for fd, _ in waiting.poll(0):
        with contextlib.suppress(BlockingIOError, OSError):
            for _ in range(STALE_CAP >> 16):
                if not os.read(fd, 1 << 16):
                    break
    child.stdout.clear()
    child.claim.clear()


def _retire(child: Child, spawner: Spawner, counts: _Counts, status: int | None = None) -> None:
    """End a shared process (unless it has ended: ``status``) and clear its uid away: its
    processes killed, its files removed, so that the fresh one that follows starts clean."""
    if status is None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(child.pid, signal.SIGKILL)
        spawner.exit_status(child.pid, None)
    _close_ends(child)
    _clear_uid(child.uid, spawner, counts, None)


def _shared_step(child: Child, spawner: Spawner, kind: Kind, seq: int | None, start: Start,
                 counts: _Counts) -> Child | None:
    """Supervise one call of a shared process and send its record; the process, if it goes
    on (the processes it started are ended first), else None (its uid is cleared away)."""
    stop, status, claim = _supervise(child, spawner, start, counts, framed=True)
    if status is None:
        _end_strays(child, counts)
        _emit_step(kind, seq, None, None, child.stdout, start, claim, _peak(child, spawner, None))
        child.stdout.clear()
        child.claim.clear()
        return child
    memory = _peak(child, spawner, status)
    _retire(child, spawner, counts, status)
    _emit_step(kind, seq, stop, status, child.stdout, start, claim, memory)
    return None


def _linger(body: memoryview | None) -> None:
    """After the host's "no more tests" (every learner process is gone by now): stay, idle,
    until the host closes the stream, so that the container's exit, Docker's work, comes when
    the host removes it after storing the verdict rather than while it does. The lease's alarm
    still ends it. A stream that simply ended (``body`` None) ends the supervisor at once."""
    if body is None:
        return
    with contextlib.suppress(OSError):
        while os.read(0, READ_CHUNK):
            pass


def _serve_shared(start: Start, spawner: Spawner, counts: _Counts, linger: bool) -> None:
    """``Isolation.SHARED``: one learner process loads the module and is called for each test in
    turn; after a test that ended it (or a host's FRESH frame), a fresh one with a uid of its
    own, which loads the module again, takes the remaining tests."""
    uid = BASE_UID
    loader = spawner.spawn(Kind.IMPORT, uid)
    if loader is None:
        raise SystemExit("the container could not start a process")
    child = _shared_step(loader, spawner, Kind.IMPORT, None, start, counts)
    buffer = bytearray()
    seq = 0
    while True:
        size = _read_header(0)
        body = _read_body(0, size, buffer) if size is not None else None
        if body is None or (size == 4 and body.tobytes() == b"null"):  # no more tests
            if child is not None:
                _retire(child, spawner, counts)
            if linger:
                _linger(body)
            return
        fresh = size == len(FRESH_FRAME) and body.tobytes() == FRESH_FRAME
        if child is not None:
            spawner.take_reports()
            if child.pid in spawner.exits:  # it ended between two tests
                _retire(child, spawner, counts, spawner.exits.pop(child.pid))
                child = None
            elif fresh:
                _retire(child, spawner, counts)
                child = None
            else:
                _drop_stale(child)
        if fresh:
            body.release()
            continue
        if child is None:
            uid += 1
            child = spawner.spawn(Kind.TEST, uid)
            if child is None:
                raise SystemExit("the container could not start a process")
        assert child.args_w is not None
        assert size is not None
        with contextlib.suppress(BrokenPipeError):  # it ended: _shared_step sees how
            header = str(size).encode() + b"\n"
            if size < SMALL_FRAME:  # one write, so that the process wakes once
                _write_all(child.args_w, header + body.tobytes())
            else:
                _write_all(child.args_w, header)
                _write_all(child.args_w, body)
        body.release()  # so that the buffer may grow for a larger frame
        child = _shared_step(child, spawner, Kind.TEST, seq, start, counts)
        seq += 1


def serve(linger: bool) -> None:
    """Serve one submission: its Start message, then its tests. ``linger``: after the host's
    "no more tests", wait for the host to close the stream (a container's supervisor) rather
    than end at once (a jail's)."""
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # the host went away: end quietly
    # Forked while this process waits for the Start (in a slot, before the jail says it is
    # ready), not after: its fork, its start and its seccomp filter then cost no submission
    # any time (about 2 ms at a learner's pace). It is given the Start as sent.
    first = Spawner()
    raw = _start_message()
    first.begin(raw)
    start = Start.from_json(raw)
    # PID 1 ignores signals that have no handler, so the lease needs one.
    signal.signal(signal.SIGALRM, _end_of_lease)
    signal.alarm(max(1, int(start.lifetime)))
    if start.isolation is Isolation.SHARED:
        # A shared process may close its end of the pipe its tests come on: the write must fail
        # (EPIPE, its test then sees how the process ended), not end PID 1, which gVisor, unlike
        # runc's kernel, does not shield from a signal it has no handler for.
        signal.signal(signal.SIGPIPE, signal.SIG_IGN)
        _serve_shared(start, first, _Counts(), linger)
        return
    second = Spawner()  # before any test data or learner output exists in this process
    second.begin(raw)
    _serve_per_test(start, (first, second), linger)


def _serve_per_test(start: Start, spawners: tuple[Spawner, Spawner], linger: bool) -> None:
    """``Isolation.PER_TEST``: a fresh learner process and uid for every step."""
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
            if linger:
                _linger(body)
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
