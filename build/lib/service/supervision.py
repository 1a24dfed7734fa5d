"""Child processes that `judge serve` keeps running: the Celery worker and the private Redis.

Each child runs in a process group of its own, so that stopping or replacing it also ends
whatever it started (Celery's pool processes and its beat), and a Ctrl-C in the terminal reaches
only `judge serve`, which then stops the children in order. A child that exits while it should be
running is started again after a pause that grows while it keeps failing fast.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import os
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from typing import IO

PR_SET_PDEATHSIG = 1  # from <sys/prctl.h>
FIRST_DELAY, MAX_DELAY, STABLE_AFTER = 1.0, 30.0, 60.0
_libc = ctypes.CDLL("libc.so.6", use_errno=True)  # loaded before any fork


def _prepare_child(niceness: int) -> None:
    """Runs in the child before exec: the kernel sends it SIGTERM when the thread that started
    it ends, however `judge serve` ends (even by SIGKILL). That thread lives until the child has
    been stopped (see Supervised._watch). The child also gets back the niceness `judge serve`
    started with: the API raises the priority of every thread of the process (api.priority),
    and the broker and the worker must not inherit it."""
    _libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    with contextlib.suppress(OSError):
        os.setpriority(os.PRIO_PROCESS, 0, niceness)


class Supervised:
    """One child process, started again whenever it exits until `stop` is called."""

    def __init__(self, name: str, command: list[str], say: Callable[[str], None],
                 stdout: IO[bytes] | None = None) -> None:
        self.name, self.command, self.say, self.stdout = name, command, say, stdout
        self.process: subprocess.Popen[bytes] | None = None
        self.restarts = 0
        self._started_at = 0.0
        self._lock = threading.Lock()
        self._stopping = threading.Event()  # no more restarts
        self._stopped = threading.Event()  # the child is gone: the watching thread may end
        self._spawned = threading.Event()
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._watch, daemon=True, name=f"supervise-{name}")
        self._niceness = os.getpriority(os.PRIO_PROCESS, 0)  # before the API raises its own

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process else None

    def start(self) -> subprocess.Popen[bytes]:
        """Start the child (from the watching thread, which it is tied to) and return it."""
        self._thread.start()
        self._spawned.wait()
        if self._error is not None:
            raise self._error
        if self.process is None:
            raise RuntimeError(f"{self.name} was stopped before it started")
        return self.process

    def _spawn(self) -> None:
        self.process = subprocess.Popen(self.command, stdout=self.stdout, stderr=self.stdout,
                                        start_new_session=True,
                                        preexec_fn=functools.partial(_prepare_child, self._niceness))
        self._started_at = time.monotonic()

    def _watch(self) -> None:
        try:
            with self._lock:
                if not self._stopping.is_set():
                    self._spawn()
        except BaseException as exc:
            self._error = exc
            self._stopped.set()
            return
        finally:
            self._spawned.set()
        delay = FIRST_DELAY
        while not self._stopping.wait(0.25):
            with self._lock:
                process = self.process
                assert process is not None
                code = process.poll()
                if code is None or self._stopping.is_set():
                    continue
                _kill_group(process.pid)  # its pool processes and beat must not outlive it
            lived = time.monotonic() - self._started_at
            delay = FIRST_DELAY if lived > STABLE_AFTER else delay
            self.say(f"{self.name} (pid {process.pid}) exited with {_describe(code)}; "
                     f"starting it again in {delay:g} s")
            if self._stopping.wait(delay):
                break
            with self._lock:
                if self._stopping.is_set():
                    break
                try:
                    self._spawn()
                    self.restarts += 1
                    self.say(f"{self.name} started again (pid {self.pid})")
                except OSError as exc:
                    self.say(f"{self.name} could not be started again: {exc}")
            delay = min(MAX_DELAY, delay * 2)
        self._stopped.wait()  # children die with this thread: it outlives them

    def stop(self, timeout: float, hurry: threading.Event | None = None) -> int | None:
        """SIGTERM, then SIGKILL after `timeout` seconds (or as soon as `hurry` is set); the
        child's exit status."""
        self._stopping.set()
        try:
            with self._lock:  # no restart can begin now
                return self._end(timeout, hurry)
        finally:
            self._stopped.set()
            if self._thread.is_alive():
                self._thread.join(timeout=5)

    def _end(self, timeout: float, hurry: threading.Event | None) -> int | None:
        process = self.process
        if process is None:
            return None
        try:
            if process.poll() is None:
                process.terminate()
                deadline = time.monotonic() + timeout
                while process.poll() is None and time.monotonic() < deadline:
                    if hurry is not None and hurry.is_set():
                        break
                    time.sleep(0.1)
            if process.poll() is None:
                self.say(f"{self.name} (pid {process.pid}) did not stop; killing it")
                process.kill()
                process.wait()
            return process.returncode
        finally:
            _kill_group(process.pid)


def _kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def _describe(code: int) -> str:
    if code < 0:
        try:
            return signal.Signals(-code).name
        except ValueError:
            return f"signal {-code}"
    return f"status {code}"
