"""A Unix-socket relay in front of a Docker engine that notes the id of every container created
through it.

The main engine is shared (other test runs on this machine start sandbox containers with the
same label), so its event stream cannot tell which sandboxes one worker made; a worker whose
DOCKER_HOST is this relay can be counted exactly.
"""

from __future__ import annotations

import contextlib
import re
import socket
import threading
from pathlib import Path

CREATED_ID = re.compile(rb'"Id"\s*:\s*"([0-9a-f]{64})"')
CREATE_REQUEST = re.compile(rb"^POST /[^ ]*/containers/create[ ?]", re.MULTILINE)
RESPONSE_LIMIT = 64 * 1024  # a create answer is a few hundred bytes; give up well past that


class _Connection:
    """One client connection. Docker's HTTP client waits for each answer before it sends the next
    request on a connection, so the answer after a create request is that create's answer."""

    def __init__(self) -> None:
        self.awaiting_create = False
        self.response = b""
        self.directions_open = 2


class EngineTap:
    def __init__(self, path: Path, upstream: str = "/var/run/docker.sock") -> None:
        self.path, self.upstream = path, upstream
        self.created: list[str] = []
        self.lock = threading.Lock()
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(str(path))
        self.listener.listen(64)
        self.open: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def url(self) -> str:
        return f"unix://{self.path}"

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.listener.close()
        with self.lock:
            for sock in self.open:
                with contextlib.suppress(OSError):
                    sock.close()
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            engine = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                engine.connect(self.upstream)
            except OSError:
                client.close()
                continue
            with self.lock:
                self.open += [client, engine]
            state = _Connection()
            threading.Thread(target=self._relay, args=(client, engine, state, True), daemon=True).start()
            threading.Thread(target=self._relay, args=(engine, client, state, False), daemon=True).start()

    def _relay(self, source: socket.socket, sink: socket.socket, state: _Connection, upward: bool) -> None:
        try:
            while data := source.recv(65536):
                if upward and CREATE_REQUEST.search(data):
                    state.awaiting_create, state.response = True, b""
                elif not upward and state.awaiting_create:
                    self._note(state, data)
                sink.sendall(data)
        except OSError:
            pass
        finally:
            # Half-close: an attach stream's end travels on while the other direction drains.
            with contextlib.suppress(OSError):
                sink.shutdown(socket.SHUT_WR)
            with self.lock:
                state.directions_open -= 1
                if state.directions_open == 0:
                    for sock in (source, sink):
                        sock.close()
                        if sock in self.open:
                            self.open.remove(sock)

    def _note(self, state: _Connection, data: bytes) -> None:
        state.response += data
        found = CREATED_ID.search(state.response)
        if found:
            with self.lock:
                self.created.append(found.group(1).decode())
        if found or len(state.response) > RESPONSE_LIMIT:
            state.awaiting_create, state.response = False, b""
