"""A fork server for mutant runs: one single-threaded interpreter that has imported the child's
modules forks a fresh child for each job.

A fresh ``python -c`` per mutant paid about 120 ms of start-up and imports, most of the
mutation suite's time; a fork of a ready interpreter costs a few milliseconds. The server is
single-threaded, so forking it is safe whatever threads the caller runs (the analysis's pool).

The server listens on a Unix socket in a private folder. Each job is one connection: the child
forked for it sends its pid (so that the caller can kill it at its wall clock), reads the job
(one JSON line) and sends the result (one JSON line). The server ends when its standard input
closes, that is when the process that started it is gone.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

_ROOT = str(Path(__file__).resolve().parents[2])


def serve(path: str) -> None:
    """The server's loop (in its own interpreter): accept, fork, repeat."""
    from judge.mutation.child import run  # imported once, before the first fork

    listener = socket.socket(socket.AF_UNIX)
    listener.bind(path)
    listener.listen(64)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # the kernel reaps the children
    sys.stdout.write("ready\n")
    sys.stdout.flush()
    while True:
        readable, _, _ = select.select([listener, sys.stdin], [], [])
        if sys.stdin in readable:
            return  # the caller is gone
        connection, _ = listener.accept()
        if os.fork() == 0:
            listener.close()
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            _child(connection, run)
        connection.close()


def _child(connection: socket.socket, run: Any) -> None:
    stream = connection.makefile("rwb")
    try:
        stream.write(f"{os.getpid()}\n".encode())
        stream.flush()
        result = run(json.loads(stream.readline()))
        stream.write(json.dumps(result).encode() + b"\n")
        stream.flush()
    finally:
        os._exit(0)  # never back into the server's loop, whatever happened


class ForkServer:
    """The caller's side: starts the server once per process and runs jobs through it."""

    def __init__(self) -> None:
        self.path = str(Path(tempfile.mkdtemp(prefix="judge-mutants-")) / "server")
        path = os.pathsep.join(filter(None, [_ROOT, os.environ.get("PYTHONPATH")]))
        # -S skips site-packages (a faster start); the child needs only the standard library,
        # judge and sandbox.
        command = f"from judge.mutation.forkserver import serve; serve({self.path!r})"
        self.process = subprocess.Popen([sys.executable, "-S", "-c", command], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, env={**os.environ, "PYTHONPATH": path})
        atexit.register(self.close)
        assert self.process.stdout is not None
        if self.process.stdout.readline() != b"ready\n":
            raise RuntimeError("the mutants' fork server did not start")

    def close(self) -> None:
        """End the server (its standard input closes) and remove its folder."""
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(timeout=10)
        shutil.rmtree(Path(self.path).parent, ignore_errors=True)

    def run(self, job: dict[str, Any], wall_seconds: float) -> dict[str, Any] | str:
        """The job's result, or why there is none (a time-out, a crash)."""
        with socket.socket(socket.AF_UNIX) as connection:
            connection.connect(self.path)
            connection.settimeout(wall_seconds)
            stream = connection.makefile("rwb")
            pid = 0
            try:
                pid = int(stream.readline())
                stream.write(json.dumps(job).encode() + b"\n")
                stream.flush()
                line = stream.readline()
            except (TimeoutError, OSError, ValueError):
                if pid:
                    _kill(pid)
                return f"timed out after {wall_seconds:.0f} s"
            if not line:
                return "crashed: the process ended without a result"
            result: dict[str, Any] = json.loads(line)
            return result


def _kill(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):  # it ended on its own meanwhile
        os.kill(pid, signal.SIGKILL)


_servers: dict[int, ForkServer] = {}
_starting = threading.Lock()


def server() -> ForkServer:
    """This process's fork server (a forked process, such as a test worker, starts its own)."""
    with _starting:
        if os.getpid() not in _servers:
            _servers[os.getpid()] = ForkServer()
        return _servers[os.getpid()]
