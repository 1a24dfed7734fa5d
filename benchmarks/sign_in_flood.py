"""Benchmark: the API's other answers while failed sign-ins arrive as fast as 80 clients send them.

    python benchmarks/sign_in_flood.py [--backend embedded|postgres] [--attackers 80] [--seconds 20]

The server is uvicorn with the API alone (sign-ins need no worker), at the API's default priority
(``JUDGE_API_NICENESS``), on a data folder of its own: SQLite (the embedded default) or, with
``--backend postgres``, a throw-away PostgreSQL database (127.0.0.1:5432, trust auth), removed
afterwards. A prober process at the API's priority asks ``/healthz`` and ``GET /api/v1/me`` (with
a token) in turn, 20 ms apart, on kept-alive connections, and reports how long each answer took:
first with nothing else going on, then while the attackers run. The attackers are threads in a
process of their own at niceness 10 (standing in for clients on other machines, as in
tests/faults/test_load.py), each sending failed sign-ins back to back, every one at a new name
from a new address (``X-Forwarded-For``, which uvicorn takes from 127.0.0.1): the rate limit never
stops them, only the hashing pool does. Then, as a control, the same attackers ask ``/healthz``
back to back: what a flood of requests costs the other answers when nothing is hashed. Prints
p50/p99/max of both routes in the three phases, the attackers' answers by status and code, and the
server's own counts of argon2 runs and of refusals (``/metrics``).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
PG_ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres"
API_NICENESS = -10  # service.settings.Settings.api_niceness's default

PROBE = """
import signal, sys, time, httpx
signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
base, token = sys.argv[1], sys.argv[2]
with httpx.Client(base_url=base, timeout=60) as health, \\
        httpx.Client(base_url=base, timeout=60, headers={"Authorization": f"Bearer {token}"}) as me:
    while True:
        for route, http, path in (("healthz", health, "/healthz"), ("me", me, "/api/v1/me")):
            started = time.monotonic()
            assert http.get(path).status_code == 200, path
            print(route, time.monotonic() - started, flush=True)
            time.sleep(0.02)
"""

ATTACK = """
import collections, json, os, random, sys, threading, time, uuid, httpx
base, threads, seconds, control = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4] == "control"
os.nice(10)
answers = collections.Counter()
lock = threading.Lock()
deadline = time.monotonic() + seconds

def attack():
    with httpx.Client(base_url=base, timeout=120) as http:
        while time.monotonic() < deadline:
            address = ".".join(str(random.randrange(1, 255)) for _ in range(4))
            guess = {"name": f"flood-{uuid.uuid4().hex[:12]}", "password": "a wrong password"}
            if control:
                response = http.get("/healthz")
            else:
                response = http.post("/api/v1/auth/sign-in", headers={"X-Forwarded-For": address}, json=guess)
            code = response.json().get("error", {}).get("code") if response.status_code >= 400 else None
            with lock:
                answers[f"{response.status_code} {code}"] += 1

workers = [threading.Thread(target=attack) for _ in range(threads)]
for worker in workers:
    worker.start()
for worker in workers:
    worker.join()
print(json.dumps(answers))
"""


def say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def at_api_priority() -> None:
    with contextlib.suppress(PermissionError):
        os.setpriority(os.PRIO_PROCESS, 0, API_NICENESS)


@contextlib.contextmanager
def database(kind: str) -> Iterator[dict[str, str]]:
    """The server's database settings: SQLite under its data folder, or a throw-away PostgreSQL."""
    if kind == "embedded":
        yield {}
        return
    import psycopg

    name = f"judge_bench_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(PG_ADMIN_URL, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    try:
        yield {"JUDGE_DATABASE_URL": f"postgresql+psycopg://postgres@127.0.0.1:5432/{name}"}
    finally:
        with psycopg.connect(PG_ADMIN_URL, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextlib.contextmanager
def api(env: dict[str, str], data: Path) -> Iterator[str]:
    port = free_port()
    log = data / "api.log"
    environment = {**os.environ, **env}
    environment.pop("JUDGE_API_NICENESS", None)  # the default, as deployed
    with log.open("wb") as sink:
        process = subprocess.Popen([sys.executable, "-m", "uvicorn", "api.main:app", "--port", str(port),
                                    "--log-level", "warning", "--timeout-graceful-shutdown", "5"],
                                   cwd=ROOT, env=environment, stdout=sink, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the API did not start:\n" + log.read_text(errors="replace"))
            with contextlib.suppress(httpx.TransportError):
                if httpx.get(f"{base}/healthz").status_code == 200:
                    break
            time.sleep(0.2)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()


def make_token(env: dict[str, str]) -> str:
    """A learner's token, made in the server's database by a process with its settings."""
    code = ("import uuid\nfrom service.db.models import Role\n"
            "from service.db.session import session_scope\n"
            "from service.users import create_user\n"
            "with session_scope() as s:\n"
            "    print(create_user(s, 'bench-' + uuid.uuid4().hex[:8], Role.LEARNER)[1])\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={**os.environ, **env},
                          check=True, capture_output=True, text=True)
    return done.stdout.strip().splitlines()[-1]


def probe(base: str, token: str, seconds: float,
          attack: tuple[int, str] | None) -> tuple[dict[str, list[float]], str]:
    """Answer times by route while idle for ``seconds``, or while ``attack`` (attackers, and
    ``sign-in`` or ``control``) runs as long; and the attackers' answers by status and code."""
    prober = subprocess.Popen([sys.executable, "-c", PROBE, base, token], stdout=subprocess.PIPE, text=True,
                              preexec_fn=at_api_priority)
    answers = ""
    try:
        if attack is None:
            time.sleep(seconds)
        else:
            threads, kind = attack
            answers = subprocess.run([sys.executable, "-c", ATTACK, base, str(threads), str(seconds), kind],
                                     check=True, capture_output=True, text=True).stdout
    finally:
        prober.terminate()
    times: dict[str, list[float]] = {"healthz": [], "me": []}
    for line in prober.communicate(timeout=30)[0].splitlines():
        route, _, value = line.partition(" ")
        times[route].append(float(value))
    return times, answers


def metric(base: str, name: str) -> float:
    found = re.search(rf"^{re.escape(name)} (\S+)$", httpx.get(f"{base}/metrics").text, re.MULTILINE)
    return float(found.group(1)) if found else 0.0


def quantile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def row(label: str, values: list[float]) -> str:
    ms = [v * 1000 for v in values]
    return (f"| {label} | {len(ms)} | {statistics.median(ms):.1f} | {quantile(ms, 0.99):.1f} | "
            f"{max(ms):.1f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backend", choices=["embedded", "postgres"], default="embedded")
    parser.add_argument("--attackers", type=int, default=80)
    parser.add_argument("--seconds", type=float, default=20.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="judge-bench-") as folder, database(args.backend) as db:
        data = Path(folder)
        env = {"JUDGE_DATA_DIR": str(data), "PROMETHEUS_MULTIPROC_DIR": str(data / "metrics"), **db}
        for name in ("JUDGE_DATABASE_URL", "PROMETHEUS_MULTIPROC_DIR"):
            os.environ.pop(name, None)
        with api(env, data) as base:
            token = make_token(env)
            say(f"idle for {args.seconds:.0f} s")
            idle, _ = probe(base, token, args.seconds, None)
            say(f"{args.attackers} attackers for {args.seconds:.0f} s")
            verify_before = metric(base, 'judge_password_hashes_total{kind="verify"}')
            busy, answers = probe(base, token, args.seconds, (args.attackers, "sign-in"))
            checks = metric(base, 'judge_password_hashes_total{kind="verify"}') - verify_before
            refused = metric(base, "judge_password_hashing_refused_total")
            say(f"control: {args.attackers} clients asking /healthz for {args.seconds:.0f} s")
            control, control_answers = probe(base, token, args.seconds, (args.attackers, "control"))
    print(f"\nSign-in flood on the {args.backend} backend, {os.cpu_count()} CPUs: "
          f"{args.attackers} attackers for {args.seconds:.0f} s\n")
    print("| route | answers | p50 ms | p99 ms | max ms |")
    print("|---|---|---|---|---|")
    for route in ("/healthz", "GET /me"):
        key = "healthz" if route == "/healthz" else "me"
        print(row(f"{route} idle", idle[key]))
        print(row(f"{route} while sign-ins fail", busy[key]))
        print(row(f"{route} while /healthz is flooded (control)", control[key]))
    counts, control_counts = json.loads(answers or "{}"), json.loads(control_answers or "{}")
    print(f"\nattackers' answers: {dict(sorted(counts.items()))}; the server's argon2 checks: {checks:.0f} "
          f"({checks / args.seconds:.1f}/s), refused busy: {refused:.0f}; control answers: {control_counts}")


if __name__ == "__main__":
    main()
