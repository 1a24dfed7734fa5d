"""The embedded default's broker: a private redis-server that `judge serve` starts and stops.

It listens only on a Unix socket under the data folder (no TCP port, socket mode 0700), keeps
nothing on disk (a lost message costs a delay: the recovery beat sends queued submissions
again), and is supervised like the worker. Unlike kombu's file-system transport it takes any
number of concurrent writers.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import redis

from service.supervision import Supervised

SOCKET_NAME = "redis.sock"
MAX_SOCKET_PATH = 100  # a Unix socket's path must fit in 108 bytes


def redis_binary() -> str | None:
    return shutil.which("redis-server")


def socket_folder(data_dir: Path) -> Path:
    """data_dir/redis, or a folder of our own under the temporary folder when that path would be
    too long for a socket."""
    folder = data_dir.resolve() / "redis"
    if len(os.fsencode(folder / SOCKET_NAME)) <= MAX_SOCKET_PATH:
        return folder
    digest = hashlib.sha256(os.fsencode(data_dir.resolve())).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"judge-redis-{os.getuid()}-{digest}"


class PrivateRedis:
    def __init__(self, binary: str, data_dir: Path, say: Callable[[str], None]) -> None:
        self.binary, self.data_dir, self.say = binary, data_dir, say
        self.folder = socket_folder(data_dir)
        self.socket = self.folder / SOCKET_NAME
        self.log = self.folder / "redis.log"
        self.child: Supervised | None = None

    @property
    def url(self) -> str:
        return f"redis+socket://{self.socket}"

    def command(self) -> list[str]:
        return [self.binary, "--port", "0", "--unixsocket", str(self.socket), "--unixsocketperm", "700",
                "--save", "", "--appendonly", "no", "--dir", str(self.folder),
                "--logfile", str(self.log), "--loglevel", "warning"]

    def answers(self) -> bool:
        client = redis.Redis(unix_socket_path=str(self.socket), socket_timeout=1,
                             socket_connect_timeout=1)
        try:
            return bool(client.ping())
        except (redis.RedisError, OSError):
            return False
        finally:
            client.close()

    def _prepare_folder(self) -> None:
        self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = self.folder.lstat()
        if not self.folder.is_dir() or self.folder.is_symlink() or info.st_uid != os.getuid():
            raise RuntimeError(f"{self.folder} is not a folder of this user's")
        os.chmod(self.folder, 0o700)

    def start(self, timeout: float = 15) -> Supervised:
        self._prepare_folder()
        if self.answers():
            raise RuntimeError(f"a redis-server already answers on {self.socket}: is another "
                               f"`judge serve` running on {self.data_dir}?")
        self.child = Supervised("redis-server", self.command(), self.say)
        process = self.child.start()
        deadline = time.monotonic() + timeout
        while not self.answers():
            if process.poll() is not None or time.monotonic() > deadline:
                self.child.stop(timeout=5)
                tail = self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""
                raise RuntimeError(f"the private redis-server did not start:\n{tail}")
            time.sleep(0.05)
        return self.child

    def stop(self, timeout: float = 10) -> None:
        if self.child is not None:  # else start() found another server on the socket: not ours
            self.child.stop(timeout)
            self.socket.unlink(missing_ok=True)  # redis removes it on a clean exit; not on SIGKILL
