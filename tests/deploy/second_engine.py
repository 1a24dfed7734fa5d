"""A second Docker engine on this machine, standing in for a second worker host.

Its own socket, data root, exec root (and so its own containerd), pid file and configuration,
a bridge of its own and no iptables or forwarding changes: it never touches the main engine's
networking, and the sandbox needs none (it runs with --network none). Not --bridge=none: a
dockerd told so deletes the host's docker0, the main engine's, and every later build or
container on the default network fails. Stopped and removed with everything it made (its bridge
too), whatever happened in between.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import docker
from docker.errors import DockerException


class SecondEngine:
    """``start()`` it, ``load()`` images into it from the main engine, ``stop()`` it."""

    def __init__(self, runtimes: dict[str, Any] | None = None) -> None:
        # Short and under /tmp: containerd's sockets live under the exec root, and a Unix
        # socket's path may not exceed 107 bytes.
        self.folder = Path(tempfile.mkdtemp(prefix="judge-engine2-", dir="/tmp"))
        self.socket = self.folder / "docker.sock"
        self.url = f"unix://{self.socket}"
        self.log = self.folder / "dockerd.log"
        self.runtimes = runtimes or {}
        self.process: subprocess.Popen[bytes] | None = None
        self._client: docker.DockerClient | None = None
        self.bridge = f"judge2-{self.folder.name[-6:]}"[:15]  # an interface name: 15 bytes at most

    @property
    def client(self) -> docker.DockerClient:
        if self._client is None:
            raise RuntimeError("the second engine is not started")
        return self._client

    def start(self, timeout: float = 60) -> docker.DockerClient:
        config = self.folder / "daemon.json"
        # A file of its own, so the machine's /etc/docker/daemon.json (the main engine's) is not
        # read; runtimes other than runc only when the sandbox is set to use one.
        config.write_text(json.dumps({"runtimes": self.runtimes} if self.runtimes else {}))
        if not Path(f"/sys/class/net/{self.bridge}").exists():
            # An address from the test-net range of RFC 5737: routed nowhere, clashing with nothing.
            for step in (["link", "add", "name", self.bridge, "type", "bridge"],
                         ["addr", "add", "192.0.2.1/24", "dev", self.bridge]):
                subprocess.run(["ip", *step], check=True, capture_output=True)
        command = [
            "dockerd", "--config-file", str(config), "--host", self.url,
            "--data-root", str(self.folder / "data"), "--exec-root", str(self.folder / "exec"),
            "--pidfile", str(self.folder / "dockerd.pid"),
            f"--bridge={self.bridge}", "--iptables=false", "--ip6tables=false", "--ip-forward=false",
            "--ip-masq=false", "--log-level=warn",
        ]
        with self.log.open("wb") as sink:
            # A session of its own: the containerd it starts goes with it if it has to be killed.
            self.process = subprocess.Popen(command, stdout=sink, stderr=subprocess.STDOUT,
                                            start_new_session=True)
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"the second dockerd exited ({self.process.returncode}):\n"
                                   + self.log.read_text(errors="replace")[-3000:])
            with contextlib.suppress(DockerException, OSError):
                if self.socket.exists():
                    client = docker.DockerClient(base_url=self.url, timeout=60)
                    client.ping()
                    self._client = client
                    return client
            if time.monotonic() > deadline:
                raise RuntimeError("the second dockerd did not answer:\n"
                                   + self.log.read_text(errors="replace")[-3000:])
            time.sleep(0.2)

    def load(self, tag: str) -> None:
        """Copy an image from the main engine: `docker save` piped into this engine's load."""
        with subprocess.Popen(["docker", "save", tag], stdout=subprocess.PIPE) as save:
            loaded = subprocess.run(["docker", "--host", self.url, "load", "--quiet"], stdin=save.stdout,
                                    capture_output=True, text=True, check=False)
            assert save.stdout is not None
            save.stdout.close()
        if save.returncode != 0 or loaded.returncode != 0:
            raise RuntimeError(f"loading {tag} into the second engine failed: {loaded.stderr.strip()}")

    def restart(self) -> None:
        """Restart the daemon as an operator does: SIGTERM (it stops its containers first, up to
        10 s, while clients that hold a connection are still served), then start it again on the
        same data root, with every container it kept."""
        assert self.process is not None
        if self._client is not None:
            self._client.close()
            self._client = None
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=60)
        self.start()

    def stop(self) -> None:
        """Stop the daemon (and its containerd), then remove its folder and anything mounted there."""
        if self._client is not None:
            self._client.close()
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        # A dockerd that died or was killed leaves its containerd (and shims) behind: they are
        # the processes whose command line names this engine's folder.
        for pid in self._leftover_pids():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        for mount in reversed(self._mounts()):  # innermost first
            subprocess.run(["umount", "-l", mount], check=False, capture_output=True)
        shutil.rmtree(self.folder, ignore_errors=True)
        subprocess.run(["ip", "link", "del", self.bridge], check=False, capture_output=True)

    def _leftover_pids(self) -> list[int]:
        found = []
        for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
            with contextlib.suppress(OSError):
                if str(self.folder).encode() in cmdline.read_bytes():
                    found.append(int(cmdline.parent.name))
        return found

    def _mounts(self) -> list[str]:
        prefix = str(self.folder) + "/"
        with open("/proc/self/mountinfo") as mounts:
            points = [line.split()[4] for line in mounts]
        return sorted(point for point in points if point.startswith(prefix))
