"""A Unix-socket proxy in front of the Docker engine that a test can cut and restore, so that an
engine outage can be staged without restarting the machine's shared dockerd."""

from __future__ import annotations

import contextlib
import os
import socket
import threading
from pathlib import Path


class SocketProxy:
    def __init__(self, path: Path, upstream: str = "/var/run/docker.sock") -> None:
        self.path, self.upstream = path, upstream
        self.connections: list[socket.socket] = []
        self.lock = threading.Lock()
        self.listener: socket.socket | None = None
        self.restore()

    @property
    def url(self) -> str:
        return f"unix://{self.path}"

    def restore(self) -> None:
        """Accept connections again."""
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path)
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(str(self.path))
        listener.listen(64)
        self.listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def cut(self) -> None:
        """Refuse new connections and break every open one: the engine is gone."""
        if self.listener is not None:
            self.listener.close()
            self.listener = None
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path)
        with self.lock:
            for connection in self.connections:
                with contextlib.suppress(OSError):
                    connection.shutdown(socket.SHUT_RDWR)
                connection.close()
            self.connections.clear()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            engine = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                engine.connect(self.upstream)
            except OSError:
                client.close()
                continue
            with self.lock:
                self.connections += [client, engine]
            for source, target in ((client, engine), (engine, client)):
                threading.Thread(target=self._pump, args=(source, target), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, target: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                target.sendall(data)
        with contextlib.suppress(OSError):
            target.shutdown(socket.SHUT_WR)
