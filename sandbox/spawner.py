"""The spawner: the only process that forks learner processes. Standard library only.

The supervisor forks it right after reading the start message, before any test's arguments or
any learner's output have been in its memory, and the spawner never receives either: it only
hears "spawn" and "wipe" over a socket, and hands back the supervisor's ends of the new
process's pipes. Every learner process is a fork of the spawner, so no learner process can find
another test's input, or another test's output, in the memory it inherits.

It never runs learner code itself: the learner side starts in ``sandbox.learner.main``, which
drops every privilege first.
"""

from __future__ import annotations

import os
import select
import socket
from dataclasses import dataclass, field

from sandbox import cleanup, learner
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
    while True:
        message = sock.recv(MESSAGE_CAP)
        if not message:
            return
        verb, *rest = message.decode().split()
        if verb == "spawn":
            _spawn(sock, Kind(rest[0]), int(rest[1]), start)
        elif verb == "wipe":
            _wipe(int(rest[0]))
            sock.send(b"wiped")


def _spawn(sock: socket.socket, kind: Kind, uid: int, start: Start) -> None:
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
            learner.main(kind, start, uid, args_r, out_w, claim_w)
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
