"""The spawner: the only process that forks learner processes. Standard library only.

The supervisor forks it before it reads the start message (the second of a ``per_test``
problem's right after), so before any test's arguments or any learner's output have been in its
memory; it gets the start message, as the host sent it, on a pipe of its own (``begin``), and
never receives test arguments or output: it only hears "spawn" and "wipe" over a socket, and
hands back the supervisor's ends of the new process's pipes. Every learner process is a fork of
the spawner, so no learner process can find another test's input, or another test's output, in
the memory it inherits.

It never runs learner code itself: the learner side starts in ``sandbox.inside.learner.main``, which
drops every privilege first. What every learner process would otherwise redo is prepared here
once, before forking (``sandbox.inside.learner.Ready``): the seccomp filter is built, and the learner's
module is compiled (parsed, not run) when the first test's process is spawned, and the standard
modules it names from ``learner.PRELOADABLE`` are imported; each process then only executes that
code object anew. The objects that exist then are frozen out of the garbage
collector, so a learner process's collections do not walk (and copy) the spawner's memory.
"""

from __future__ import annotations

import _socket  # not socket, whose import alone costs every container 14 ms of CPU (its enums)
import array
import contextlib
import gc
import importlib
import os
import resource
import select
import signal
import types
import warnings

from sandbox.inside import cleanup, learner, syscall_filter
from sandbox.inside.protocol import Isolation, Kind, Start
from sandbox.inside.records import Record

MESSAGE_CAP = 64


class Child(Record):
    """A learner process and the supervisor's ends of its pipes."""

    __slots__ = ("args_w", "claim", "claim_r", "out_r", "pid", "status_fd", "stdout", "uid")
    pid: int
    uid: int
    args_w: int | None
    out_r: int
    claim_r: int
    stdout: bytearray
    claim: bytearray
    status_fd: int | None  # its /proc status file, once a call's peak was read (harness._peak)

    def __init__(self, pid: int, uid: int, args_w: int | None, out_r: int, claim_r: int) -> None:
        self.pid, self.uid, self.args_w, self.out_r, self.claim_r = pid, uid, args_w, out_r, claim_r
        self.stdout, self.claim = bytearray(), bytearray()
        self.status_fd = None


def _send_fds(sock: _socket.socket, message: bytes, fds: list[int]) -> None:
    """One message with file descriptors attached (SCM_RIGHTS), as socket.send_fds sends it."""
    sock.sendmsg([message], [(_socket.SOL_SOCKET, _socket.SCM_RIGHTS, array.array("i", fds))])


def _recv_fds(sock: _socket.socket, size: int, most: int) -> tuple[bytes, list[int]]:
    """One message and the descriptors attached to it (at most ``most``), as socket.recv_fds."""
    fds = array.array("i")
    message, ancillary, _, _ = sock.recvmsg(size, _socket.CMSG_LEN(most * fds.itemsize))
    for level, kind, data in ancillary:
        if level == _socket.SOL_SOCKET and kind == _socket.SCM_RIGHTS:
            fds.frombytes(data[:len(data) - len(data) % fds.itemsize])
    return message, list(fds)


class Spawner:
    """The supervisor's handle on a spawner process.

    Learner processes may overlap: the next test's process is spawned (and waits for its
    arguments) while the current test runs. The supervisor keeps two spawners and takes them in
    turn, so that one forks the next test's process while the other is free to report the
    current one's end at once. A spawner reports each exit as it happens, by pid; exits that
    arrive while the supervisor waits for something else are kept in ``exits``.
    """

    def __init__(self) -> None:
        ours, theirs = _socket.socketpair(_socket.AF_UNIX, _socket.SOCK_SEQPACKET)
        start_r, start_w = os.pipe()
        pid = os.fork()
        if pid == 0:
            try:
                ours.close()
                os.close(start_w)
                _serve(theirs, start_r)
            finally:
                os._exit(0)
        theirs.close()
        os.close(start_r)
        self.sock, self.pid, self.start_w = ours, pid, start_w
        self.exits: dict[int, int] = {}  # pid -> wait status, not yet asked for
        # pid -> the process's resident high-water mark in bytes (its reaped children's
        # included), as the kernel's rusage says it at its end; taken with ``peak``.
        self.peaks: dict[int, int] = {}

    def begin(self, start: bytes) -> None:
        """Hand over the start message's body, as the host sent it; the spawner waits for it."""
        with contextlib.suppress(BrokenPipeError):  # it ended: its first answer says so
            view = memoryview(start)
            while view:
                view = view[os.write(self.start_w, view):]
        os.close(self.start_w)

    def _answer(self, verb: str, fds: int = 0) -> tuple[list[str], list[int]]:
        """The next answer of this verb, keeping every exit report that comes first."""
        while True:
            message, received = _recv_fds(self.sock, MESSAGE_CAP, fds)
            words = message.decode().split()
            if not words:
                raise RuntimeError("the spawner has ended")
            if words[0] == "exit" and verb != "exit":
                self._note_exit(words)
                continue
            if words[0] not in (verb, "failed"):
                raise RuntimeError(f"the spawner answered {message!r}")
            return words, received

    def request(self, kind: Kind, uid: int) -> None:
        """Ask for a new learner process; ``collect`` takes it. The spawner forks meanwhile."""
        self.sock.send(f"spawn {kind.value} {uid}".encode())

    def collect(self, kind: Kind, uid: int) -> Child | None:
        """The learner process last requested, waiting for its step; None when the kernel
        refused the fork (the container's process limit, while another test's processes still
        hold it)."""
        words, fds = self._answer("spawned", 3)
        if words[0] == "failed":
            return None
        args_w = fds.pop(0) if len(fds) == 3 else None
        out_r, claim_r = fds
        for fd in (out_r, claim_r):
            os.set_blocking(fd, False)
        return Child(int(words[1]), uid, args_w, out_r, claim_r)

    def spawn(self, kind: Kind, uid: int) -> Child | None:
        self.request(kind, uid)
        return self.collect(kind, uid)

    def take_reports(self) -> None:
        """Read the exit reports that are waiting, without blocking."""
        while select.select([self.sock], [], [], 0)[0]:
            words, _ = self._answer("exit")
            self._note_exit(words)

    def _note_exit(self, words: list[str]) -> None:
        pid = int(words[1])
        self.exits[pid] = int(words[2])
        self.peaks[pid] = int(words[3]) * 1024

    def peak(self, pid: int) -> int | None:
        """The resident high-water mark of ended learner process pid, in bytes, once."""
        return self.peaks.pop(pid, None)

    def exit_status(self, pid: int, timeout: float | None) -> int | None:
        """The wait status of learner process pid, or None if it has not ended in time."""
        if pid not in self.exits:
            self.take_reports()
        while pid not in self.exits:
            if not select.select([self.sock], [], [], timeout)[0]:
                return None
            self.take_reports()
        return self.exits.pop(pid)

    def wipe(self, uid: int) -> None:
        """Remove uid's files from every place a learner process can write to."""
        self.sock.send(f"wipe {uid}".encode())
        self._answer("wiped")


def _read_start(start_r: int) -> Start | None:
    """The start message from the supervisor's pipe; None when it ended without one."""
    chunks = []
    while chunk := os.read(start_r, 1 << 16):
        chunks.append(chunk)
    os.close(start_r)
    return Start.from_json(b"".join(chunks)) if chunks else None


def _serve(sock: _socket.socket, start_r: int) -> None:
    # The host's channel stays with the supervisor alone; keep 0 and 1 taken, so that no pipe
    # made here gets a standard stream's number.
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    os.close(null)
    # A learner process's end wakes the loop below through this pipe.
    wake_r, wake_w = os.pipe()
    for fd in (wake_r, wake_w):
        os.set_blocking(fd, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    ready = learner.Ready(syscall_filter.Filter())
    compiled = False
    gc.freeze()
    start = _read_start(start_r)  # all of the above is done while the supervisor waits for it
    if start is None:
        return
    while True:
        readable, _, _ = select.select([sock.fileno(), wake_r], [], [])
        if wake_r in readable:
            with contextlib.suppress(BlockingIOError):
                while os.read(wake_r, 512):
                    pass
            _report_exits(sock)
        if sock.fileno() not in readable:
            continue
        message = sock.recv(MESSAGE_CAP)
        if not message:
            return
        verb, *rest = message.decode().split()
        if verb == "spawn":
            kind = Kind(rest[0])
            if kind is Kind.TEST and not compiled:
                ready, compiled = learner.Ready(ready.learner_filter, _compile(start)), True
                gc.freeze()
            _spawn(sock, kind, int(rest[1]), start, ready)
        elif verb == "wipe":
            _wipe(int(rest[0]))
            sock.send(b"wiped")


def _report_exits(sock: _socket.socket) -> None:
    while True:
        try:
            pid, status, usage = os.wait4(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        sock.send(f"exit {pid} {status} {usage.ru_maxrss}".encode())  # kilobytes


def _compile(start: Start) -> types.CodeType | None:
    """The learner's module compiled once, for every test's process; None where a learner
    process must compile it itself, as the module-loading step's process did. The standard
    modules it imports that may be loaded ahead (``learner.PRELOADABLE``) are imported here too.

    By now that step's process has compiled the same source under the learner's limits. Here
    the address space gets the same cap while compiling; a warning counts as a failure, so that
    each process still prints it on its own output as before; anything that goes wrong (too
    deep, too large, a syntax error) leaves the compiling to each process. A module that fails
    to import is left for each process to import itself.
    """
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    cap = start.memory_bytes if hard == resource.RLIM_INFINITY else min(start.memory_bytes, hard)
    try:
        resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            code = learner.compile_solution(start.code)
        with contextlib.suppress(Exception):  # loading ahead only saves time; never needed
            for name in learner.preloadable_imports(start.code):
                with contextlib.suppress(Exception):
                    importlib.import_module(name)
        return code
    except BaseException:
        return None
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def _spawn(sock: _socket.socket, kind: Kind, uid: int, start: Start, ready: learner.Ready) -> None:
    """Fork a learner process and hand the supervisor its pipes; its exit is reported later."""
    made: list[int] = []
    args_r: int | None = None
    args_w: int | None = None
    try:
        if kind is Kind.TEST or start.isolation is Isolation.SHARED:  # a shared one gets tests
            args_r, args_w = os.pipe()
            made += [args_r, args_w]
        out_r, out_w = os.pipe()
        made += [out_r, out_w]
        claim_r, claim_w = os.pipe()
        made += [claim_r, claim_w]
        pid = os.fork()
    except OSError as exc:  # out of processes or descriptors: the supervisor tries again later
        for made_fd in made:
            os.close(made_fd)
        sock.send(f"failed {exc.errno}".encode())
        return
    if pid == 0:  # the learner process: trusted code until learner.main drops privileges
        try:
            signal.set_wakeup_fd(-1)
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            sock.close()
            for fd in (args_w, out_r, claim_r):
                if fd is not None:
                    os.close(fd)
            learner.main(kind, start, ready, uid, args_r, out_w, claim_w)
        finally:
            os._exit(70)
    for fd in (args_r, out_w, claim_w):
        if fd is not None:
            os.close(fd)
    theirs = [fd for fd in (args_w, out_r, claim_r) if fd is not None]
    _send_fds(sock, f"spawned {pid}".encode(), theirs)
    for fd in theirs:
        os.close(fd)


def _wipe(uid: int) -> None:
    pid = os.fork()
    if pid == 0:
        try:
            os.setgroups([])
            os.setgid(uid)
            os.setuid(uid)
            cleanup.wipe_as(uid)
        finally:
            os._exit(0)
    os.waitpid(pid, 0)
