"""A proxy a test can cut and restore, to stage an outage of one dependency without touching the
machine's shared server: a Unix socket in front of the Docker engine, or a TCP port in front of
Redis for one client alone."""

from __future__ import annotations

import contextlib
import os
import socket
import threading
from pathlib import Path

from tests.utils.service_fixtures import free_port


class SocketProxy:
    """Listens on a Unix socket at ``path`` (or, without one, on a free TCP port of 127.0.0.1)
    and forwards to ``upstream``: a Unix socket path, or (host, port)."""

    def __init__(self, path: Path | None = None,
                 upstream: str | tuple[str, int] = "/var/run/docker.sock") -> None:
        self.path, self.upstream = path, upstream
        self.port = 0 if path else free_port()
        self.connections: list[socket.socket] = []
        self.lock = threading.Lock()
        self.listener: socket.socket | None = None
        self.restore()

    @property
    def url(self) -> str:
        return f"unix://{self.path}"

    def _unlink(self) -> None:
        if self.path:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.path)

    def restore(self) -> None:
        """Accept connections again."""
        self._unlink()
        if self.path:
            listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            listener.bind(str(self.path))
        else:
            listener = socket.socket()
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            listener.bind(("127.0.0.1", self.port))
        listener.listen(64)
        self.listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def cut(self) -> None:
        """Refuse new connections and break every open one: the dependency is gone."""
        if self.listener is not None:
            self.listener.close()
            self.listener = None
        self._unlink()
        with self.lock:
            for connection in self.connections:
                with contextlib.suppress(OSError):
                    connection.shutdown(socket.SHUT_RDWR)
                connection.close()
            self.connections.clear()

    def _connect_upstream(self) -> socket.socket:
        if isinstance(self.upstream, str):
            server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                server.connect(self.upstream)
            except OSError:
                server.close()
                raise
            return server
        server = socket.create_connection(self.upstream, timeout=5)
        server.settimeout(None)
        return server

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            try:
                server = self._connect_upstream()
            except OSError:
                client.close()
                continue
            with self.lock:
                self.connections += [client, server]
            for source, target in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(source, target), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, target: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                target.sendall(data)
        with contextlib.suppress(OSError):
            target.shutdown(socket.SHUT_WR)
