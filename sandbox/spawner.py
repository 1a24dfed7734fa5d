"""The spawner: the only process that forks learner processes. Standard library only.

The supervisor forks it right after reading the start message, before any test's arguments or
any learner's output have been in its memory, and the spawner never receives either: it only
hears "spawn" and "wipe" over a socket, and hands back the supervisor's ends of the new
process's pipes. Every learner process is a fork of the spawner, so no learner process can find
another test's input, or another test's output, in the memory it inherits.

It never runs learner code itself: the learner side starts in ``sandbox.learner.main``, which
drops every privilege first. What every learner process would otherwise redo is prepared here
once, before forking (``sandbox.learner.Ready``): the seccomp filter is built, and the learner's
module is compiled (parsed, not run) when the first test's process is spawned; each process then
only executes that code object anew. The objects that exist then are frozen out of the garbage
collector, so a learner process's collections do not walk (and copy) the spawner's memory.
"""

from __future__ import annotations

import gc
import os
import resource
import select
import socket
import types
import warnings
from dataclasses import dataclass, field, replace

from sandbox import cleanup, learner, syscall_filter
from sandbox.protocol import Kind, Start

MESSAGE_CAP = 64


@dataclass
class Child:
    """A learner process and the supervisor's ends of its pipes."""

    pid: int
    uid: int
    args_w: int | None
    out_r: int
    claim_r: int
    stdout: bytearray = field(default_factory=bytearray)
    claim: bytearray = field(default_factory=bytearray)


class Spawner:
    """The supervisor's handle on the spawner process."""

    def __init__(self, start: Start) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        pid = os.fork()
        if pid == 0:
            try:
                ours.close()
                _serve(theirs, start)
            finally:
                os._exit(0)
        theirs.close()
        self.sock, self.pid = ours, pid

    def spawn(self, kind: Kind, uid: int) -> Child:
        self.sock.send(f"spawn {kind.value} {uid}".encode())
        message, fds, _, _ = socket.recv_fds(self.sock, MESSAGE_CAP, 3)
        verb, pid = message.decode().split()
        if verb != "spawned":
            raise RuntimeError(f"the spawner answered {message!r}")
        args_w = fds.pop(0) if kind is Kind.TEST else None
        out_r, claim_r = fds
        for fd in (out_r, claim_r):
            os.set_blocking(fd, False)
        return Child(int(pid), uid, args_w, out_r, claim_r)

    def exit_status(self, timeout: float | None) -> int | None:
        """The wait status of the process spawned last, or None if it has not ended in time."""
        ready, _, _ = select.select([self.sock], [], [], timeout)
        if not ready:
            return None
        message = self.sock.recv(MESSAGE_CAP)
        verb, status = message.decode().split()
        if verb != "exit":
            raise RuntimeError(f"the spawner answered {message!r}")
        return int(status)

    def wipe(self, uid: int) -> None:
        """Remove uid's files from every place a learner process can write to."""
        self.sock.send(f"wipe {uid}".encode())
        if self.sock.recv(MESSAGE_CAP) != b"wiped":
            raise RuntimeError("the spawner did not wipe")


def _serve(sock: socket.socket, start: Start) -> None:
    # The host's channel stays with the supervisor alone; keep 0 and 1 taken, so that no pipe
    # made here gets a standard stream's number.
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    os.close(null)
    ready = learner.Ready(syscall_filter.Filter())
    compiled = False
    gc.freeze()
    while True:
        message = sock.recv(MESSAGE_CAP)
        if not message:
            return
        verb, *rest = message.decode().split()
        if verb == "spawn":
            kind = Kind(rest[0])
            if kind is Kind.TEST and not compiled:
                ready, compiled = replace(ready, code=_compile(start)), True
                gc.freeze()
            _spawn(sock, kind, int(rest[1]), start, ready)
        elif verb == "wipe":
            _wipe(int(rest[0]))
            sock.send(b"wiped")


def _compile(start: Start) -> types.CodeType | None:
    """The learner's module compiled once, for every test's process; None where a learner
    process must compile it itself, as the module-loading step's process did.

    By now that step's process has compiled the same source under the learner's limits. Here
    the address space gets the same cap while compiling; a warning counts as a failure, so that
    each process still prints it on its own output as before; anything that goes wrong (too
    deep, too large, a syntax error) leaves the compiling to each process.
    """
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    cap = start.memory_bytes if hard == resource.RLIM_INFINITY else min(start.memory_bytes, hard)
    try:
        resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            return learner.compile_solution(start.code)
    except BaseException:
        return None
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def _spawn(sock: socket.socket, kind: Kind, uid: int, start: Start, ready: learner.Ready) -> None:
    args_r, args_w = os.pipe() if kind is Kind.TEST else (None, None)
    out_r, out_w = os.pipe()
    claim_r, claim_w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the learner process: trusted code until learner.main drops privileges
        try:
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
    socket.send_fds(sock, [f"spawned {pid}".encode()], theirs)
    for fd in theirs:
        os.close(fd)
    _, status = os.waitpid(pid, 0)
    sock.send(f"exit {status}".encode())


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
