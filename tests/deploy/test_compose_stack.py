"""The production stack as docs/production.md brings it up, with no container registry, from a
clean clone: `scripts/stack-images`, `scripts/stack-secrets`, `docker-compose up -d` (Debian's
docker-compose 1.29). Then, as an operator and their users would: the first admin made with
`judge users create`, a sign-in through the TLS proxy (the certificate checked, the cookie
Secure), two clients behind the proxy limited apart (and one that forges X-Forwarded-For
limited all the same), a submission judged, every worker's metrics scraped by Prometheus (and
/metrics kept from the outside), a backup restored into a new database, a worker host on a second
engine judging over TLS (docker-compose.worker-host.yml), a killed worker process restarted, and
`docker-compose down -v` leaving nothing behind.

The stack gets a project name, subnet, port and deployment of its own, so it neither meets a
stack an operator runs on this machine nor the suite's other containers."""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import ssl
import subprocess
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.deploy.conftest import require
from tests.deploy.second_engine import SecondEngine
from tests.utils.service_fixtures import free_port

pytestmark = [pytest.mark.docker, pytest.mark.xdist_group("deploy"), pytest.mark.serial(
    "its bridge network adds a host interface, which Chromium takes for a network change")]

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "a stack test password, 41 characters long"
SOLUTION = (ROOT / "problems" / "bleu_1gram" / "reference.py").read_text(encoding="utf-8")


@dataclass
class Stack:
    folder: Path
    project: str
    port: int
    network: str
    deployment: str
    subnet: str  # its first three octets, e.g. 10.232.7
    prometheus_port: int

    def compose(self, *args: str, stdin: str | None = None, check: bool = True,
                timeout: float = 300) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(["docker-compose", "-p", self.project, *args], cwd=self.folder, input=stdin,
                              capture_output=True, text=True, timeout=timeout)
        if check:
            assert done.returncode == 0, f"docker-compose {' '.join(args)}: {done.stdout}\n{done.stderr}"
        return done

    def run_in_api(self, *command: str, stdin: str | None = None, env: dict[str, str] | None = None,
                   check: bool = True) -> subprocess.CompletedProcess[str]:
        flags = [item for key, value in (env or {}).items() for item in ("-e", f"{key}={value}")]
        return self.compose("exec", "-T", *flags, "api", *command, stdin=stdin, check=check)

    @property
    def url(self) -> str:
        return f"https://127.0.0.1:{self.port}"

    @property
    def certificate(self) -> Path:
        return self.folder / "secrets" / "tls" / "cert.pem"

    def https(self) -> httpx.Client:
        """A client of the proxy that checks its certificate (the self-signed one it made)."""
        trusted = ssl.create_default_context(cafile=str(self.certificate))
        return httpx.Client(base_url=self.url, verify=trusted, timeout=60)

    def judged(self, token: str, timeout: float = 180) -> dict[str, Any]:
        """bleu_1gram's reference submitted through the proxy, once done (or its state at the deadline)."""
        headers = {"Authorization": f"Bearer {token}"}
        with self.https() as https:
            sent = https.post("/api/v1/submissions", headers=headers,
                              json={"problem": "bleu_1gram", "code": SOLUTION, "mode": "submit"})
            assert sent.status_code == 202, sent.text
            deadline = time.monotonic() + timeout
            while (done := https.get(f"/api/v1/submissions/{sent.json()['id']}", params={"wait": 20},
                                     headers=headers).json())["status"] != "done" and time.monotonic() < deadline:
                pass
        found: dict[str, Any] = done
        return found


def container(stack: Stack, service: str) -> dict[str, Any]:
    ident = stack.compose("ps", "-q", service).stdout.split()[0]
    found: dict[str, Any] = json.loads(subprocess.run(["docker", "inspect", ident], capture_output=True,
                                                      text=True, check=True).stdout)[0]
    return found


def healthy(stack: Stack, timeout: float = 240) -> None:
    deadline = time.monotonic() + timeout
    while True:
        states = {service: container(stack, service)["State"]
                  for service in ("postgres", "redis", "api", "worker", "validation-worker")}
        if all(s.get("Health", {}).get("Status") == "healthy" for s in states.values()):
            break
        assert time.monotonic() < deadline, {k: v.get("Health", {}).get("Status") for k, v in states.items()}
        time.sleep(2)
    while not stack.certificate.exists():  # the proxy makes it on its first start
        assert time.monotonic() < deadline, "the proxy made no certificate"
        time.sleep(1)


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    require(shutil.which("docker-compose") is not None, "needs docker-compose (Debian's; scripts/setup)")
    require(os.geteuid() == 0, "needs root (image builds through the engine)")
    folder = tmp_path_factory.mktemp("stack") / "judge"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(folder)], check=True)
    (folder / ".venv").symlink_to(ROOT / ".venv")  # scripts/setup's, which stack-images needs
    built = subprocess.run([str(folder / "scripts" / "stack-images"), "--monitoring"], cwd=folder,
                           capture_output=True, text=True, timeout=1800)
    assert built.returncode == 0, built.stderr
    assert subprocess.run([str(folder / "scripts" / "stack-secrets")], cwd=folder).returncode == 0
    octet = random.randint(1, 250)
    tag = uuid.uuid4().hex[:8]
    made = Stack(folder, f"judgestack{tag}", free_port(), f"judgestack{tag}_default", f"stacktest-{tag}",
                 f"10.232.{octet}", free_port())
    env = (folder / ".env").read_text(encoding="utf-8")
    env += (f"STACK_HTTPS_PORT={made.port}\nSTACK_PUBLIC_URL={made.url}\nSTACK_SUBNET={made.subnet}.0/24\n"
            f"STACK_PROXY_ADDRESS={made.subnet}.10\nSTACK_DEPLOYMENT={made.deployment}\n"
            f"STACK_PROMETHEUS_PORT={made.prometheus_port}\nSTACK_DB_PORT={free_port()}\n"
            f"STACK_REDIS_TLS_PORT={free_port()}\nSTACK_HOST=localhost\nSTACK_WORKER_METRICS_PORT={free_port()}\n")
    (folder / ".env").write_text(env, encoding="utf-8")
    try:
        made.compose("--profile", "monitoring", "up", "-d")
        healthy(made)
        yield made
    finally:
        logs = made.compose("logs", "--no-color", "--tail", "200", check=False).stdout
        (tmp_path_factory.getbasetemp() / f"{made.project}.log").write_text(logs, encoding="utf-8")
        made.compose("--profile", "monitoring", "down", "-v", "--remove-orphans", check=False, timeout=180)
        # The stack's claim on the sandbox image (sandbox/image.py), which no other run will drop.
        claims = subprocess.run(["docker", "images", "--format", "{{.Repository}}:{{.Tag}}", "metrics-judge-sandbox"],
                                capture_output=True, text=True, check=False).stdout.split()
        for claim in (c for c in claims if c.endswith(f".{made.deployment}")):
            subprocess.run(["docker", "rmi", claim], capture_output=True, check=False)


def inside(stack: Stack, host: int, code: str) -> subprocess.CompletedProcess[str]:
    """Python run in a new container on the stack's network at address ``.host`` of its subnet
    (given: Docker hands a freed address to the next container), as a client behind the proxy."""
    return subprocess.run(["docker", "run", "--rm", "--network", stack.network, "--ip", f"{stack.subnet}.{host}",
                           "metrics-judge-service:latest", "python", "-c", code],
                          capture_output=True, text=True, timeout=120)


SIGN_INS = """
import json, ssl, sys, uuid, urllib.request, urllib.error
context = ssl._create_unverified_context()  # the proxy's name here is "proxy", not the certificate's
codes = []
for _ in range(int(sys.argv[1]) if len(sys.argv) > 1 else {count}):
    body = json.dumps({{"name": "nobody-" + uuid.uuid4().hex[:8], "password": "wrong password!"}}).encode()
    request = urllib.request.Request("https://proxy/api/v1/auth/sign-in", data=body, method="POST",
        headers={{"Content-Type": "application/json", "X-Forwarded-For": "10.9.9.9"}})
    try:
        urllib.request.urlopen(request, context=context)
        codes.append(200)
    except urllib.error.HTTPError as error:
        codes.append(error.code)
print(json.dumps(codes))
"""


def test_the_documented_stack_runs_offline_behind_tls_and_backs_up(stack: Stack) -> None:
    # The first admin, as the docs say; the password from standard input.
    made = stack.run_in_api("judge", "users", "create", "ada", "--role", "admin", "--password-stdin",
                            stdin=PASSWORD + "\n")
    token = made.stdout.strip().splitlines()[-1]
    assert token.startswith("jt_"), made.stdout

    with stack.https() as https:
        # A sign-in over TLS, the certificate checked: the session cookie is Secure.
        signed = https.post("/api/v1/auth/sign-in", json={"name": "ada", "password": PASSWORD})
        assert signed.status_code == 200, signed.text
        cookie = signed.headers["set-cookie"]
        assert "Secure" in cookie and "HttpOnly" in cookie and "SameSite=strict" in cookie
        assert https.get("/metrics").status_code == 404  # scraped inside the stack only
    assert stack.judged(token)["verdict"] == "accepted"

    # Two clients behind the proxy, limited apart: the first, forging X-Forwarded-For, is
    # refused after 20 failures from its address; the second is still only told "wrong".
    first = json.loads(inside(stack, 201, SIGN_INS.format(count=21)).stdout)
    assert first[:20] == [401] * 20 and first[20] == 429, first
    second = json.loads(inside(stack, 202, SIGN_INS.format(count=1)).stdout)
    assert second == [401], second

    # Every worker's own metrics endpoint, read inside the stack.
    scrape = "import urllib.request; print(urllib.request.urlopen('http://127.0.0.1:9100/metrics').read().decode())"
    judged = stack.compose("exec", "-T", "worker", "python", "-c", scrape).stdout
    counted = [line for line in judged.splitlines() if line.startswith("judge_verdicts_total{")
               and 'verdict="accepted"' in line and 'mode="submit"' in line]
    assert [line.rsplit(" ", 1)[1] for line in counted] == ["1.0"], judged[-2000:]
    for service in ("validation-worker", "webhook-worker"):
        assert "# TYPE judge_warm_pool_containers gauge" in stack.compose("exec", "-T", service, "python", "-c",
                                                                           scrape).stdout, service

    # Prometheus, as deploy/prometheus/prometheus.yml has it, scrapes the API and every worker.
    wanted = {("judge-api", "api"), ("judge-workers", "worker"), ("judge-workers", "validation-worker"),
              ("judge-workers", "webhook-worker")}
    deadline = time.monotonic() + 120
    while True:
        targets = httpx.get(f"http://127.0.0.1:{stack.prometheus_port}/api/v1/targets", timeout=10).json()
        up = {(t["labels"]["job"], t["labels"].get("service", "api")) for t in targets["data"]["activeTargets"]
              if t["health"] == "up"}
        if up >= wanted:
            break
        assert time.monotonic() < deadline, targets["data"]["activeTargets"]
        time.sleep(3)

    # Every query of the Grafana dashboard is one this Prometheus accepts, and the verdicts'
    # counts have the one judged above.
    dashboard = json.loads((ROOT / "deploy" / "grafana" / "metrics-judge.json").read_text(encoding="utf-8"))
    for panel in dashboard["panels"]:
        for target in panel["targets"]:
            answer = httpx.get(f"http://127.0.0.1:{stack.prometheus_port}/api/v1/query",
                               params={"query": target["expr"]}, timeout=10).json()
            assert answer["status"] == "success", (panel["title"], target["expr"], answer)
    deadline = time.monotonic() + 60  # one scrape interval (15 s) at least after the verdict
    while True:
        verdicts = httpx.get(f"http://127.0.0.1:{stack.prometheus_port}/api/v1/query", timeout=10,
                             params={"query": 'sum(judge_verdicts_total{verdict="accepted"})'}).json()
        counted = [float(r["value"][1]) for r in verdicts["data"]["result"]]
        if counted:
            break
        assert time.monotonic() < deadline, verdicts
        time.sleep(3)
    assert counted == [1.0], verdicts

    # A backup, restored into a new database of the same server.
    assert stack.run_in_api("judge", "backup", "/data/stack.backup.gz").returncode == 0
    as_judge = 'PGPASSWORD="$(cat /run/secrets/db_password)" exec "$@"'
    stack.compose("exec", "-T", "postgres", "sh", "-c", as_judge, "-", "createdb", "-h", "127.0.0.1", "-U",
                  "judge", "restored")
    restored = stack.run_in_api("judge", "restore", "/data/stack.backup.gz", env={
        "JUDGE_DATABASE_URL": "postgresql+psycopg://judge@postgres:5432/restored"})
    assert "restored" in restored.stderr, restored.stderr
    verdicts = stack.compose("exec", "-T", "postgres", "sh", "-c", as_judge, "-", "psql", "-h", "127.0.0.1",
                             "-U", "judge", "-d", "restored", "-At", "-c",
                             "SELECT verdict FROM submissions").stdout.split()
    assert verdicts == ["accepted"], verdicts


def test_a_worker_host_judges_over_tls_while_the_stacks_worker_is_stopped(
        stack: Stack, second_engine: SecondEngine) -> None:
    """docker-compose.worker-host.yml on a second engine (another host's, as far as the stack can
    tell), reaching the stack's published PostgreSQL and Redis over TLS by the name its
    certificate has (localhost here), the certificate checked against the stack's authority."""
    second_engine.load("metrics-judge-service:latest")
    # The second engine is this machine's too: its socket is not the usual path.
    env = {**os.environ, "DOCKER_HOST": second_engine.url, "STACK_DOCKER_SOCKET": str(second_engine.socket)}
    project = f"{stack.project}host"

    def worker_host(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["docker-compose", "-p", project, "-f", "docker-compose.worker-host.yml", *args],
                              cwd=stack.folder, env=env, capture_output=True, text=True, timeout=300)

    stack.compose("stop", "worker")
    try:
        started = worker_host("up", "-d")
        assert started.returncode == 0, started.stderr
        token = stack.run_in_api("judge", "users", "create", f"far-{uuid.uuid4().hex[:6]}").stdout.split()[-1]
        done = stack.judged(token)
        assert done["verdict"] == "accepted", (done, worker_host("logs", "--tail", "50").stdout)
        # Judged on the second engine: its sandboxes carry the stack's deployment.
        made_there = second_engine.client.containers.list(
            all=True, sparse=True, filters={"label": f"metrics-judge.deployment={stack.deployment}"})
        assert made_there, "the worker host started no sandbox"
    finally:
        worker_host("down", "-v")
        stack.compose("start", "worker")


def test_a_killed_worker_process_comes_back_and_down_v_leaves_nothing(stack: Stack) -> None:
    before = container(stack, "worker")
    os.kill(before["State"]["Pid"], signal.SIGKILL)  # as the kernel's out-of-memory killer would
    deadline = time.monotonic() + 60
    while True:
        after = container(stack, "worker")
        if after["RestartCount"] > before["RestartCount"] and after["State"]["Running"]:
            break
        assert time.monotonic() < deadline, after["State"]
        time.sleep(1)

    # The killed process's sandboxes stopped with it; its successor sweeps them as it starts.
    deadline = time.monotonic() + 60
    while sandboxes_of(stack, "exited"):
        assert time.monotonic() < deadline, sandboxes_of(stack, "exited")
        time.sleep(1)

    stack.compose("--profile", "monitoring", "down", "-v", timeout=180)
    label = f"com.docker.compose.project={stack.project}"
    for kind in ("ps", "volume ls", "network ls"):
        left = subprocess.run(["docker", *kind.split(), "-q", "--filter", f"label={label}"] + (
            ["-a"] if kind == "ps" else []), capture_output=True, text=True, check=True).stdout.split()
        assert left == [], f"docker {kind}: {left}"
    assert sandboxes_of(stack) == []  # the workers removed theirs as they stopped


def sandboxes_of(stack: Stack, status: str | None = None) -> list[str]:
    filters = ["--filter", f"label=metrics-judge.deployment={stack.deployment}"]
    if status:
        filters += ["--filter", f"status={status}"]
    return subprocess.run(["docker", "ps", "-aq", *filters], capture_output=True, text=True,
                          check=True).stdout.split()
