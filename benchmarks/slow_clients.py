"""Benchmark: the API's answers while many clients stall in their request's head (slowloris).

    python benchmarks/slow_clients.py [--stalled 1000] [--probes 200]

The server is ``judge api`` (production's API command: service/http_server.py) on SQLite in a
data folder of its own. First /healthz is asked ``--probes`` times, each on a new connection (as a
new client would), with nothing else going on. Then ``--stalled`` connections are opened at once,
each sending a request line and headers one byte a second, never finishing its head; while they
trickle, /healthz is asked again the same way, for as long as all of them are open. Prints
p50/p99/max of both series, and how long the server took to close the stalled connections (from
the moment each was opened); HEADER_TIMEOUT is the bound they are held to.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import selectors
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from service.http_server import HEADER_TIMEOUT  # noqa: E402

TRICKLE = b"GET /healthz HTTP/1.1\r\nHost: judge\r\nX-Slow: " + b"a" * 200


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def judge_api(data: Path) -> Iterator[str]:
    port = free_port()
    env = {**os.environ, "JUDGE_DATA_DIR": str(data), "JUDGE_DATABASE_URL": f"sqlite:///{data / 'judge.db'}",
           "JUDGE_PROBLEMS_DIR": str(ROOT / "tests" / "fixtures" / "problems")}
    judge = Path(sys.executable).with_name("judge")
    with (data / "api.log").open("wb") as log:
        process = subprocess.Popen([str(judge), "api", "--port", str(port)], env=env, stdout=log,
                                   stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            with contextlib.suppress(httpx.TransportError):
                if httpx.get(f"{base}/healthz", timeout=5).status_code == 200:
                    break
            if process.poll() is not None or time.monotonic() > deadline:
                log_text = (data / "api.log").read_text(errors="replace")
                raise SystemExit("judge api did not start:\n" + log_text)
            time.sleep(0.2)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=20)


def probe(base: str, count: int, until: float = float("inf")) -> list[float]:
    """Seconds for each /healthz, a new connection each (count of them, or as many as fit before
    the monotonic time until)."""
    took: list[float] = []
    while len(took) < count and time.monotonic() < until:
        started = time.monotonic()
        with httpx.Client(timeout=30) as http:
            assert http.get(f"{base}/healthz").status_code == 200
        took.append(time.monotonic() - started)
        time.sleep(0.01)
    return took


def stall(port: int, count: int, closed_after: list[float], stop: threading.Event) -> None:
    """Open count connections, trickle a byte a second on each, note when the server closes each."""
    chooser = selectors.DefaultSelector()
    opened: dict[socket.socket, float] = {}
    for _ in range(count):
        sock = socket.create_connection(("127.0.0.1", port))
        sock.setblocking(False)
        opened[sock] = time.monotonic()
        chooser.register(sock, selectors.EVENT_READ, sock)
    sent = 0
    next_byte = time.monotonic()
    while opened and not stop.is_set():
        if time.monotonic() >= next_byte and sent < len(TRICKLE):
            for sock in opened:
                with contextlib.suppress(OSError):
                    sock.send(TRICKLE[sent:sent + 1])
            sent += 1
            next_byte += 1.0
        for key, _ in chooser.select(timeout=0.05):
            ended: socket.socket = key.data
            with contextlib.suppress(OSError):
                if ended.recv(1024):
                    continue  # an answer would be a failure of the bound; it is counted as open
            closed_after.append(time.monotonic() - opened.pop(ended))
            chooser.unregister(ended)
            ended.close()
    for sock in opened:
        sock.close()


def figures(seconds: list[float]) -> str:
    ordered = sorted(seconds)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return f"{statistics.median(ordered) * 1000:.1f} / {p99 * 1000:.1f} / {ordered[-1] * 1000:.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--stalled", type=int, default=1000)
    parser.add_argument("--probes", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="slow-clients-") as folder, judge_api(Path(folder)) as base:
        idle = probe(base, args.probes)
        closed_after: list[float] = []
        stop = threading.Event()
        port = int(base.rsplit(":", 1)[1])
        staller = threading.Thread(target=stall, args=(port, args.stalled, closed_after, stop))
        staller.start()
        time.sleep(0.5)  # all connected and trickling
        # Only while they are all open: the first is closed HEADER_TIMEOUT after it was opened.
        attacked = probe(base, args.probes, until=time.monotonic() + HEADER_TIMEOUT - 1.5)
        staller.join(timeout=HEADER_TIMEOUT * 4)
        stop.set()
        staller.join()
    print(f"| /healthz, new connection each (p50 / p99 / max) | {args.probes} asked |")
    print("|---|---|")
    print(f"| nothing else going on | {figures(idle)} |")
    stalled_row = f"{args.stalled} connections stalled in their head ({len(attacked)} asked)"
    print(f"| {stalled_row} | {figures(attacked)} |")
    print(f"\nstalled connections closed by the server: {len(closed_after)} of {args.stalled}, after "
          f"{min(closed_after):.2f} / {statistics.median(closed_after):.2f} / {max(closed_after):.2f} s "
          f"(min / p50 / max; HEADER_TIMEOUT {HEADER_TIMEOUT} s)" if closed_after else "none closed")


if __name__ == "__main__":
    main()
