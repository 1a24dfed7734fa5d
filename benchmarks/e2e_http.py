"""Benchmark: the judge end to end through HTTP, beside the floors that bound it, in one table.

    python benchmarks/e2e_http.py [--quick] [--backend embedded|postgres] [--concurrency 2]
    python benchmarks/e2e_http.py --url http://127.0.0.1:8000 --tokens tokens.txt [--quick]

What it measures, in this order:

1. bare-container floor: ``docker run --rm --network none --entrypoint python3 <sandbox image>
   -c pass``, median of N (the image's entrypoint is the harness, hence ``--entrypoint``);
2. warm-container floor, two ways, on one container started beforehand with ``python3`` reading
   stdin and the sandbox's one CPU: a one-line round trip over its attach socket (what the
   host's conversation with a started harness costs per message), and ``docker exec <c> python3
   -c pass`` (a new process in a running container: more than the harness's fork of a learner,
   which execs nothing); then, in the same container, the fresh-process floor: one python3
   forking as many children as the problem has tests, each exiting at once (what one fresh
   process per test costs before any learner code or test data);
3. the tests inside a warm container, under each isolation (one learner process for the
   submission, or one per test): the host's own time for each test (from its arguments sent, or
   the record before it if later, to its record received), summed over bleu_1gram's 68, and
   the container's cgroup CPU from the first test's record to the last's, per test (median of
   N, after one warm-up); then ``judge run`` alone:
   bleu_1gram's reference through ``judge.grading.grade`` with the configured sandbox, in this
   process, no service (median of N, after one warm-up);
4. sequential POST -> verdict through HTTP (POST, then ``GET ?wait=30`` until done), p50/p95:
   at a learner's pace (a second to read each verdict), and back to back;
5. a burst: S submissions from L learners (each at its queue quota of 5), awaited by 200 clients
   long-polling ``?wait=30``: verdicts per second, and every non-2xx answer counted;
6. the container churn right after, in the same run: 4 threads each running bare containers
   back to back (containers per second), the ceiling the burst's verdicts/s sits under; then the
   same with sandbox containers, made and removed as the warm pool and a run make and remove
   them (every limit, attached, started): the ceiling with this sandbox's own containers;
7. ``/metrics`` before and after: verdicts counted and the judge-time histogram's mean, checked
   against the benchmark's own counts and the submissions' started/finished times.

The service is ``judge serve`` (API and a worker of ``--concurrency``) on a data folder of its own:
the embedded default (SQLite and its private redis-server), or with ``--backend postgres`` a
throw-away PostgreSQL database (127.0.0.1:5432, trust auth) and Redis (127.0.0.1:6379) under a
key prefix of its own; both are removed afterwards. With ``--url`` it measures a running judge
instead (tokens of learners, one a line; the floors are then this machine's, not the server's).
All submissions are bleu_1gram's reference in ``submit`` mode (68 tests), so every verdict is
``accepted``. Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import os
import platform
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
PROBLEM = "bleu_1gram"
PG_ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres"
REDIS_URL = "redis://127.0.0.1:6379/0"
WAITERS = 200
LEARNER_QUOTA = 5
LEARNER_PAUSE = 1.0  # seconds a learner takes to read a verdict before submitting again


@dataclass
class Plan:
    bare_runs: int
    exec_runs: int
    roundtrips: int
    judge_runs: int
    sequential: int
    burst: int
    learners: int
    churn_per_thread: int


FULL = Plan(bare_runs=10, exec_runs=10, roundtrips=200, judge_runs=10, sequential=20, burst=200,
            learners=40, churn_per_thread=6)
QUICK = Plan(bare_runs=5, exec_runs=5, roundtrips=100, judge_runs=5, sequential=8, burst=40,
             learners=8, churn_per_thread=3)


@dataclass
class Row:
    measure: str
    value: str
    how: str


@dataclass
class Figures:
    rows: list[Row] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def add(self, measure: str, value: str, how: str) -> None:
        self.rows.append(Row(measure, value, how))
        print(f"  {measure}: {value}", file=sys.stderr, flush=True)

    def table(self) -> str:
        lines = ["| measure | value | how |", "|---|---|---|"]
        lines += [f"| {r.measure} | {r.value} | {r.how} |" for r in self.rows]
        return "\n".join(lines)


def say(message: str) -> None:
    print(f"[e2e] {message}", file=sys.stderr, flush=True)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


# ---------------------------------------------------------------------------------------------
# The service under test


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Backend:
    """Where the service's rows and messages live; what to remove afterwards."""

    name: str
    env: dict[str, str]
    cleanups: list[Callable[[], None]] = field(default_factory=list)

    def cleanup(self) -> None:
        for step in reversed(self.cleanups):
            try:
                step()
            except Exception as exc:
                say(f"clean-up step failed: {exc}")


def make_backend(kind: str, data: Path) -> Backend:
    env = {"JUDGE_DATA_DIR": str(data)}
    if kind == "embedded":
        for name in ("JUDGE_DATABASE_URL", "JUDGE_BROKER_URL", "JUDGE_BROKER_KEY_PREFIX"):
            os.environ.pop(name, None)
        return Backend("embedded default (SQLite, private redis-server)", env)
    import psycopg

    database = f"judge_bench_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(PG_ADMIN_URL, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{database}"')
    prefix = f"judge-bench-{uuid.uuid4().hex[:10]}:"
    env.update(JUDGE_DATABASE_URL=f"postgresql+psycopg://postgres@127.0.0.1:5432/{database}",
               JUDGE_BROKER_URL=REDIS_URL, JUDGE_BROKER_KEY_PREFIX=prefix)
    backend = Backend("PostgreSQL + Redis", env)

    def drop_database() -> None:
        from service.db.session import get_engine

        get_engine().dispose()
        with psycopg.connect(PG_ADMIN_URL, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')

    def drop_keys() -> None:
        import redis

        client = redis.Redis.from_url(REDIS_URL)
        keys = list(client.scan_iter(match=f"{prefix}*", count=1000))
        for start in range(0, len(keys), 500):
            client.delete(*keys[start:start + 500])

    backend.cleanups += [drop_database, drop_keys]
    return backend


@dataclass
class Service:
    base: str
    tokens: list[str]  # tokens[0] for the sequential phase, the rest for the burst
    process: subprocess.Popen[bytes] | None = None
    log: Path | None = None

    def stop(self) -> None:
        """SIGTERM to `judge serve` (it stops its worker and broker), then make sure that nothing
        it started outlives it, so that its data folder can go."""
        if self.process is None or self.process.poll() is not None:
            return
        started = descendants(self.process.pid)
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        deadline = time.monotonic() + 30
        while (alive := [pid for pid in started if running(pid)]) and time.monotonic() < deadline:
            time.sleep(0.2)
        for pid in alive:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def running(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def descendants(pid: int) -> list[int]:
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError, ValueError):
            parents[int(stat.parent.name)] = int(stat.read_text().rsplit(")", 1)[1].split()[1])
    found, todo = [], [pid]
    while todo:
        parent = todo.pop()
        children = [child for child, its_parent in parents.items() if its_parent == parent]
        found += children
        todo += children
    return found


def start_serve(data: Path, learners: int, concurrency: int) -> Service:
    """`judge serve` on the settings in os.environ; learners made in its database first."""
    from service.bootstrap import prepare_database
    from service.db.models import Role
    from service.db.session import session_scope
    from service.users import create_user

    prepare_database()
    with session_scope() as session:
        tokens = [create_user(session, f"bench-{n}-{uuid.uuid4().hex[:6]}", Role.LEARNER)[1]
                  for n in range(learners)]
    port = free_port()
    log = data / "serve.log"
    env = {**os.environ, "JUDGE_PORT": str(port)}
    with log.open("wb") as sink:
        process = subprocess.Popen([sys.executable, "-m", "service.cli", "serve", "--concurrency",
                                    str(concurrency)], env=env, stdout=sink, stderr=subprocess.STDOUT)
    service = Service(f"http://127.0.0.1:{port}", tokens, process, log)
    deadline = time.monotonic() + 180
    while True:
        if process.poll() is not None:
            raise RuntimeError("judge serve exited:\n" + log.read_text(errors="replace"))
        with contextlib.suppress(httpx.TransportError):
            if httpx.get(f"{service.base}/readyz", timeout=10).status_code == 200:
                return service
        if time.monotonic() > deadline:
            service.stop()
            raise RuntimeError("judge serve is not ready:\n" + log.read_text(errors="replace"))
        time.sleep(0.5)


# ---------------------------------------------------------------------------------------------
# Floors: containers alone


def bare_run(image: str, runtime: str = "runc") -> float:
    """One bare container under the sandbox's runtime (runc, or runsc for gVisor)."""
    started = time.perf_counter()
    subprocess.run(["docker", "run", "--rm", "--runtime", runtime, "--network", "none",
                    "--entrypoint", "python3", image, "-c", "pass"],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return time.perf_counter() - started


ECHO = "import sys\nfor line in sys.stdin:\n    sys.stdout.write(line)\n    sys.stdout.flush()\n"


@contextlib.contextmanager
def warm_container(client: Any, image: str, runtime: str = "runc") -> Iterator[Any]:
    # One CPU, as every sandbox has (sandbox.interface.Limits.cpus).
    container = client.containers.create(image, entrypoint=["python3", "-u", "-c", ECHO],
                                          stdin_open=True, network_mode="none", detach=True,
                                          nano_cpus=1_000_000_000, runtime=runtime)
    try:
        container.start()
        yield container
    finally:
        with contextlib.suppress(Exception):
            container.remove(force=True)


def stdin_roundtrips(client: Any, container: Any, count: int) -> list[float]:
    """One line in over the attach socket, the echo out (Docker's 8-byte frame headers read)."""
    raw = client.api.attach_socket(container.id, params={"stdin": 1, "stdout": 1, "stream": 1})
    sock: socket.socket = raw._sock
    times = []
    try:
        for _ in range(count):
            started = time.perf_counter()
            sock.sendall(b"x\n")
            got = b""
            while b"\n" not in got:
                header = _read_exactly(sock, 8)
                got += _read_exactly(sock, int.from_bytes(header[4:], "big"))
            times.append(time.perf_counter() - started)
    finally:
        sock.close()
    return times


def _read_exactly(sock: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = sock.recv(size - len(data))
        if not chunk:
            raise EOFError("the container's stream ended")
        data += chunk
    return data


def exec_runs(container: Any, count: int) -> list[float]:
    times = []
    for _ in range(count):
        started = time.perf_counter()
        result = container.exec_run(["python3", "-c", "pass"])
        times.append(time.perf_counter() - started)
        assert result.exit_code == 0, result.output
    return times


# A fresh process per test, doing nothing: the least that 68 tests can cost inside one container
# with the sandbox's one CPU, before any learner code, test data or conversation with the host.
FORKS = ("import os, sys, time\nstarted = time.perf_counter()\n"
         "for _ in range(int(sys.argv[1])):\n    pid = os.fork()\n    if pid == 0:\n"
         "        os._exit(0)\n    os.waitpid(pid, 0)\nprint(time.perf_counter() - started)\n")


def container_cpu_ns(container_id: str) -> int | None:
    """CPU time a container's cgroup has used, read on this host (cgroup v1 or v2), or None."""
    places = ((f"/sys/fs/cgroup/cpuacct/docker/{container_id}/cpuacct.usage", 1),
              (f"/sys/fs/cgroup/system.slice/docker-{container_id}.scope/cpu.stat", 1000))
    for path, scale in places:
        with contextlib.suppress(OSError, ValueError):
            text = Path(path).read_text()
            if scale == 1:
                return int(text.strip())
            usage = next(line for line in text.splitlines() if line.startswith("usage_usec"))
            return int(usage.split()[1]) * scale
    return None


@dataclass
class Inside:
    """What one run's tests cost inside its container: the host's own time per test summed, and
    the container's CPU from the first test's record to the last one's, per test."""

    seconds: float
    cpu_per_test: float | None


class InsideSandbox:
    """The configured sandbox, noting for each run what its tests cost inside the container."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.runs: list[Inside] = []

    def check(self) -> None:
        self.inner.check()

    def run(self, payload: Any) -> Any:
        last = len(payload.tests) - 1
        marks: dict[int, int | None] = {}

        def on_result(seq: int, result: Any) -> None:
            if seq in (0, last) and self.inner.recent:
                marks[seq] = container_cpu_ns(self.inner.recent[-1])
            if payload.on_result is not None:
                payload.on_result(seq, result)

        run = self.inner.run(dataclasses.replace(payload, on_result=on_result))
        first, final = marks.get(0), marks.get(last)
        cpu = (final - first) / 1e9 / last if first is not None and final is not None and last else None
        self.runs.append(Inside(sum(r.seconds or 0.0 for r in run.results), cpu))
        return run


def inside_runs(problem: Any, code: str, sandbox: Any, count: int) -> list[Inside]:
    """``count`` gradings of code, each noting what its tests cost inside the container."""
    from judge.grading import grade
    from judge.results import Verdict

    timed = InsideSandbox(sandbox)
    grade(problem, code, timed)  # a warm-up, left out
    timed.runs.clear()
    for _ in range(count):
        assert grade(problem, code, timed).verdict is Verdict.ACCEPTED
    return timed.runs


def fork_runs(container: Any, forks: int, count: int) -> list[float]:
    """Seconds for ``forks`` forks of python3, each child exiting at once, in the container."""
    times = []
    for _ in range(count):
        result = container.exec_run(["python3", "-c", FORKS, str(forks)])
        assert result.exit_code == 0, result.output
        times.append(float(result.output.decode().split()[-1]))
    return times


def _in_threads(threads: int, each: int, one: Callable[[], object]) -> tuple[int, float]:
    """``one`` run ``each`` times in each of ``threads`` threads at once: (runs, seconds). The
    first error of any thread is raised once all have ended."""
    errors: list[BaseException] = []

    def loop() -> None:
        try:
            for _ in range(each):
                one()
        except BaseException as exc:
            errors.append(exc)

    workers = [threading.Thread(target=loop) for _ in range(threads)]
    started = time.perf_counter()
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    if errors:
        raise errors[0]
    return threads * each, time.perf_counter() - started


def sandbox_churn(image: str, threads: int, each: int, runtime: str = "runc") -> tuple[int, float]:
    """threads making and removing sandbox containers back to back, as the warm pool and a run
    do (every limit, attached, started, its supervisor waiting): (containers, seconds)."""
    from sandbox.attach_stream import attach, close_attachment
    from sandbox.docker_runner import container_limits, container_options, create_container, local_client
    from sandbox.interface import Limits

    mine = threading.local()  # docker-py's client is not shared between threads

    def one() -> None:
        if not hasattr(mine, "client"):
            mine.client = local_client(60)
        client = mine.client
        options = container_options(container_limits(Limits()), time.time() + 600, runtime)
        container = create_container(client, image, f"metrics-judge-bench-{uuid.uuid4().hex}", options)
        sock, handle = attach(client, container.id)
        container.start()
        close_attachment(sock, handle)
        client.api.remove_container(container.id, force=True, v=True)

    return _in_threads(threads, each, one)


def churn(image: str, threads: int, each: int, runtime: str = "runc") -> tuple[int, float]:
    """threads running bare containers back to back; (containers, seconds)."""
    return _in_threads(threads, each, lambda: bare_run(image, runtime))


# ---------------------------------------------------------------------------------------------
# Through HTTP


@dataclass
class Done:
    latency: float  # POST sent -> verdict received
    judged: float  # the submission's finished_at - started_at
    verdict: str
    # Where a sequential submission's time went, by the wall clock (the client and the service
    # share this machine's): POST sent -> row created, created -> claimed by a worker, claimed ->
    # verdict written, written -> verdict received by the client.
    phases: tuple[float, float, float, float] | None = None


PHASES = ("POST to row", "queued", "judged", "verdict to client")


def phases(sent: float, body: dict[str, Any], received: float) -> tuple[float, float, float, float]:
    created, started, finished = (datetime.fromisoformat(body[key]).timestamp()
                                  for key in ("created_at", "started_at", "finished_at"))
    return created - sent, started - created, finished - started, received - finished


NO_ANSWER = 0  # the status counted for a request the server closed, or reset, without an answer


def http_client(base: str) -> httpx.Client:
    """A client as cheap to make as the server allows: httpx's default loads the CA bundle into
    a TLS context (57 ms of CPU here), which 240 clients made at once in a burst took from the
    two cores the judge shares with them; a plain-HTTP base URL needs no TLS context."""
    return httpx.Client(base_url=base, timeout=60, verify=base.startswith("https:"))


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def judged_seconds(body: dict[str, Any]) -> float:
    started = datetime.fromisoformat(body["started_at"])
    finished = datetime.fromisoformat(body["finished_at"])
    return (finished - started).total_seconds()


def post(http: httpx.Client, token: str, code: str, statuses: Counter[int] | None = None) -> int:
    """POST one submission; on 429 (the learner's queue quota) wait as told and try again."""
    while True:
        try:
            response = http.post("/api/v1/submissions", headers=bearer(token),
                                 json={"problem": PROBLEM, "code": code, "mode": "submit"})
        except httpx.TransportError:
            if statuses is not None:
                statuses[NO_ANSWER] += 1
            raise  # a POST that got no answer may have made a submission: not retried blindly
        if statuses is not None:
            statuses[response.status_code] += 1
        if response.status_code == 202:
            return int(response.json()["id"])
        if response.status_code in (429, 503):
            time.sleep(float(response.headers.get("Retry-After", "1")))
            continue
        raise RuntimeError(f"POST answered {response.status_code}: {response.text[:300]}")


def await_verdict(http: httpx.Client, token: str, submission_id: int,
                  statuses: Counter[int] | None = None) -> dict[str, Any]:
    while True:
        try:
            response = http.get(f"/api/v1/submissions/{submission_id}", params={"wait": 30},
                                headers=bearer(token))
        except httpx.TransportError:  # counted as a failure; a client would ask again
            if statuses is not None:
                statuses[NO_ANSWER] += 1
            time.sleep(0.5)
            continue
        if statuses is not None:
            statuses[response.status_code] += 1
        if response.status_code != 200:
            time.sleep(0.5)  # counted; a client would try again
            continue
        body: dict[str, Any] = response.json()
        if body["status"] == "done":
            return body


def sequential(service: Service, code: str, count: int, pause: float = 0.0) -> list[Done]:
    """One learner's submissions one after another, ``pause`` seconds between a verdict and the
    next POST (0: back to back)."""
    done = []
    with http_client(service.base) as http:
        for index in range(count):
            if index:
                time.sleep(pause)
            started, sent = time.perf_counter(), time.time()
            body = await_verdict(http, service.tokens[0], post(http, service.tokens[0], code))
            done.append(Done(time.perf_counter() - started, judged_seconds(body), body["verdict"],
                             phases(sent, body, time.time())))
    return done


@dataclass
class Burst:
    done: list[Done]
    seconds: float
    post_statuses: Counter[int]
    wait_statuses: Counter[int]


def machine_cpu_seconds() -> float:
    """CPU time every process on this machine has used since boot (/proc/stat: all but idle and
    I/O wait), so that a phase's difference is its cost across the API, the workers, the
    database, the engine and the sandboxes alike."""
    with open("/proc/stat", encoding="ascii") as stat:
        fields = [int(x) for x in stat.readline().split()[1:]]
    busy = sum(fields[:8]) - fields[3] - fields[4]  # user nice system idle iowait irq softirq steal
    return busy / os.sysconf("SC_CLK_TCK")


def _process_kind(pid: int, comm: str, cmdline: bytes) -> str:
    """Which part of the judge a process is, for the burst's CPU by part."""
    if pid == os.getpid():
        return "the benchmark's own clients"
    try:
        with open(f"/proc/{pid}/cgroup", "rb") as cgroup:
            if b"docker" in cgroup.read():
                return "sandbox containers"
    except OSError:
        pass
    words = cmdline.replace(b"\0", b" ")
    if not words:
        return "kernel threads (writeback, events)"
    if comm in ("postgres", "redis-server", "dockerd", "containerd"):
        return comm
    if comm.startswith("containerd-shim") or comm in ("runc", "runsc", "docker-init"):
        return "containerd-shim and runc"
    if b"celery" in words:
        return "judge workers"
    if b" serve" in words or b" api" in words:
        return "API (judge serve)"
    return "other"


def cpu_by_part() -> Counter[str]:
    """CPU seconds every live process has used, its reaped children's included, by part."""
    clock = os.sysconf("SC_CLK_TCK")
    parts: Counter[str] = Counter()
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as stat_file:
                stat = stat_file.read()
            with open(f"/proc/{name}/cmdline", "rb") as cmdline_file:
                cmdline = cmdline_file.read()
        except OSError:
            continue
        comm = stat[stat.find(b"(") + 1:stat.rfind(b")")].decode("utf-8", "replace")
        fields = stat[stat.rfind(b")") + 2:].split()
        ticks = sum(int(x) for x in fields[11:15])  # utime stime cutime cstime
        parts[_process_kind(int(name), comm, cmdline)] += ticks / clock
    return parts


def burst(service: Service, code: str, submissions: int, learners: int) -> Burst:
    """learners post submissions (their share each, at once); WAITERS clients long-poll them."""
    tokens = service.tokens[1:1 + learners]
    lock = threading.Condition()  # waiters sleep on it until their submission is posted
    posted: list[tuple[int, str, float]] = []  # id, token, when sent
    post_statuses: Counter[int] = Counter()
    wait_statuses: Counter[int] = Counter()
    ended: list[int] = []  # learners done posting

    def learner(index: int) -> None:
        share = [n for n in range(submissions) if n % len(tokens) == index]
        statuses: Counter[int] = Counter()
        try:
            with http_client(service.base) as http:
                for _ in share:
                    sent = time.perf_counter()
                    submission_id = post(http, tokens[index], code, statuses)
                    with lock:
                        posted.append((submission_id, tokens[index], sent))
                        lock.notify_all()
        finally:  # a POST with no answer ends this learner: its waiters must not wait forever
            with lock:
                post_statuses.update(statuses)
                ended.append(index)
                lock.notify_all()

    results: dict[int, Done] = {}

    def waiter(index: int) -> None:
        with lock:  # waiter i follows submission i % submissions, as soon as it exists
            lock.wait_for(lambda: len(posted) > index % submissions or len(ended) == len(tokens))
            if len(posted) <= index % submissions:
                return
            submission_id, token, sent = posted[index % submissions]
        statuses: Counter[int] = Counter()
        with http_client(service.base) as http:
            body = await_verdict(http, token, submission_id, statuses)
        received = time.perf_counter()
        with lock:
            wait_statuses.update(statuses)
            if submission_id not in results:
                results[submission_id] = Done(received - sent, judged_seconds(body), body["verdict"])

    started = time.perf_counter()
    posters = [threading.Thread(target=learner, args=(i,)) for i in range(len(tokens))]
    waiters = [threading.Thread(target=waiter, args=(i,)) for i in range(max(WAITERS, submissions))]
    for thread in [*posters, *waiters]:
        thread.start()
    for thread in posters:
        thread.join()
    for thread in waiters:
        thread.join()
    return Burst(list(results.values()), time.perf_counter() - started, post_statuses, wait_statuses)


# ---------------------------------------------------------------------------------------------
# /metrics


def scrape(base: str) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    from prometheus_client.parser import text_string_to_metric_families

    response = httpx.get(f"{base}/metrics", timeout=30)
    response.raise_for_status()
    return {(s.name, frozenset(s.labels.items())): s.value
            for family in text_string_to_metric_families(response.text) for s in family.samples}


def total(samples: dict[tuple[str, frozenset[tuple[str, str]]], float], name: str,
          **labels: str) -> float:
    return sum(value for (sample, found), value in samples.items()
               if sample == name and set(labels.items()) <= found)


# ---------------------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer of everything (a few minutes)")
    parser.add_argument("--backend", choices=["embedded", "postgres"], default="embedded")
    parser.add_argument("--concurrency", type=int, default=2, help="the worker's parallel submissions")
    parser.add_argument("--url", help="measure a running judge serve at this URL instead")
    parser.add_argument("--tokens", type=Path, help="with --url: learners' tokens, one a line")
    options = parser.parse_args()
    plan = QUICK if options.quick else FULL
    if options.url and not options.tokens:
        parser.error("--url needs --tokens")
    if not shutil.which("docker"):
        parser.error("the floors need the docker command")

    load_before = os.getloadavg()[0]
    data = Path(tempfile.mkdtemp(prefix="judge-bench-"))
    backend = (Backend(f"running judge at {options.url}", {}) if options.url
               else make_backend(options.backend, data))
    os.environ.update(backend.env)  # before any judge module reads the settings
    started: list[Service] = []  # stopped whatever happens, a failed phase included
    figures = Figures()
    try:
        run(options, plan, backend, data, figures, started)
    finally:
        for service in started:
            service.stop()
        backend.cleanup()
        shutil.rmtree(data, ignore_errors=True)
    cores = os.cpu_count()
    print(f"\n{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {platform.machine()} with {cores} cores, "
          f"{backend.name}, sandbox runtime {os.environ.get('JUDGE_SANDBOX_RUNTIME', 'runc')}, "
          f"sandbox mode {os.environ.get('JUDGE_SANDBOX_MODE', 'slot')}, "
          f"worker concurrency {options.concurrency}"
          f"{', quick' if options.quick else ''}; load average {load_before:.1f} before, "
          f"{os.getloadavg()[0]:.1f} after (anything else running skews every figure)\n")
    print(figures.table())
    for problem in figures.problems:
        print(f"\nCHECK FAILED: {problem}")
    if figures.problems:
        sys.exit(1)


def run(options: argparse.Namespace, plan: Plan, backend: Backend, data: Path,
        figures: Figures, started: list[Service]) -> None:
    from judge.engine_settings import engine_settings
    from judge.grading import grade
    from judge.problems import find_problem
    from judge.results import Verdict
    from judge.sandboxes import docker_sandbox

    sandbox = docker_sandbox(say)  # builds the image if it is missing
    image = sandbox.image
    problem = find_problem(engine_settings().problems_dir, PROBLEM)
    code = problem.reference

    say(f"bare containers ({image})")
    bare_run(image, sandbox.runtime)  # warm the engine's caches once
    bare = [bare_run(image, sandbox.runtime) for _ in range(plan.bare_runs)]
    figures.add("bare-container floor", f"{ms(statistics.median(bare))} median",
                f"`docker run --rm --network none` python3 -c pass, {plan.bare_runs} runs")
    say("warm container")
    with warm_container(sandbox.client, image, sandbox.runtime) as container:
        trips = stdin_roundtrips(sandbox.client, container, plan.roundtrips)
        execs = exec_runs(container, plan.exec_runs)
        forked = fork_runs(container, len(problem.tests()), plan.exec_runs)
    figures.add("warm-container floor: one message", f"{statistics.median(trips) * 1000:.2f} ms median",
                f"a line to a started container's python over the attach socket and back, {len(trips)} trips")
    figures.add("warm-container floor: a new process", f"{ms(statistics.median(execs))} median",
                f"`docker exec` python3 -c pass in a started container, {len(execs)} runs")
    figures.add("fresh-process floor", f"{ms(statistics.median(forked))} median",
                f"{len(problem.tests())} forks of python3 in a started one-CPU container, each "
                f"child exiting at once: one fresh process per test, doing nothing; {len(forked)} runs")

    say("the tests inside a warm container")
    from sandbox.interface import Isolation

    for isolation in Isolation:
        variant = dataclasses.replace(problem, isolation=isolation)
        inside = inside_runs(variant, code, sandbox, plan.judge_runs)
        cpus = [i.cpu_per_test for i in inside if i.cpu_per_test is not None]
        cpu = f", {statistics.median(cpus) * 1000:.2f} ms of CPU per test" if cpus else ""
        figures.add(f"{len(problem.tests())} tests inside a warm container, {isolation.value}",
                    f"{ms(statistics.median(i.seconds for i in inside))} median{cpu}",
                    f"{PROBLEM} reference: the host's own time per test (arguments sent, or the record "
                    f"before if later, to record "
                    f"received), summed; CPU: the container's cgroup from the first test's record "
                    f"to the last's; {plan.judge_runs} runs")

    say("judge run alone")
    grade(problem, code, sandbox)
    alone = []
    for _ in range(plan.judge_runs):
        began = time.perf_counter()
        report = grade(problem, code, sandbox)
        alone.append(time.perf_counter() - began)
        assert report.verdict is Verdict.ACCEPTED, report.message
    warm = getattr(sandbox, "warm_runs", 0)
    figures.add("`judge run` alone", f"{ms(statistics.median(alone))} median",
                f"{PROBLEM} reference ({len(problem.tests())} tests), grade() in-process, "
                f"{plan.judge_runs} runs" + (f" ({warm} on warm containers)" if warm else ""))

    if options.url:
        tokens = [t.strip() for t in options.tokens.read_text().splitlines() if t.strip()]
        if len(tokens) < 2:
            raise SystemExit("--tokens needs at least two tokens (one sequential, the rest burst)")
        service = Service(options.url.rstrip("/"), tokens)
        learners = min(plan.learners, len(tokens) - 1)
    else:
        say(f"starting judge serve on the {backend.name}")
        service = start_serve(data, plan.learners + 1, options.concurrency)
        started.append(service)
        learners = plan.learners
    before = scrape(service.base)

    say(f"sequential: {plan.sequential} submissions")
    judged = sequential(service, code, 1)  # the worker's first submission opens its sandbox
    for pause, label, how in ((LEARNER_PAUSE, "sequential POST -> verdict",
                               f"one learner, POST then GET ?wait=30, {LEARNER_PAUSE:g} s "
                               "between a verdict and the next POST (reading it)"),
                              (0.0, "sequential, back to back",
                               "the same with no pause: each refill of the warm pool overlaps "
                               "the next run")):
        done = sequential(service, code, plan.sequential, pause)
        judged += done
        latencies = [d.latency for d in done]
        split = ", ".join(f"{name} {ms(statistics.median(d.phases[n] for d in done if d.phases))}"
                          for n, name in enumerate(PHASES))
        figures.add(label, f"p50 {ms(percentile(latencies, 0.5))}, "
                    f"p95 {ms(percentile(latencies, 0.95))}",
                    f"{how}, {len(done)} submissions; medians: {split}")

    say(f"burst: {plan.burst} submissions from {learners} learners, {max(WAITERS, plan.burst)} waiting")
    cpu_before, parts_before = machine_cpu_seconds(), cpu_by_part()
    result = burst(service, code, plan.burst, learners)
    burst_cpu = machine_cpu_seconds() - cpu_before
    parts = cpu_by_part()
    parts.subtract(parts_before)
    rate = len(result.done) / result.seconds
    figures.add("burst: verdicts per second", f"{rate:.2f}/s",
                f"{plan.burst} submissions from {learners} learners, all judged in {result.seconds:.1f} s; "
                f"POST -> verdict p50 {ms(percentile([d.latency for d in result.done], 0.5))}")
    figures.add("burst: machine CPU per verdict", f"{ms(burst_cpu / max(1, len(result.done)))}",
                "every process on this machine (API, workers, database, engine, sandboxes, the "
                "benchmark's own clients) over the burst, per verdict (/proc/stat)")
    verdicts_done = max(1, len(result.done))
    figures.add("burst: CPU per verdict by part", ", ".join(
        f"{part} {ms(seconds / verdicts_done)}" for part, seconds in parts.most_common() if seconds > 0),
        "each live process's CPU and its reaped children's (/proc/PID/stat), over the burst; a "
        "process that ended during it counts in its parent")
    bad = {status: n for status, n in (result.post_statuses + result.wait_statuses).items()
           if not 200 <= status < 300}
    named = {("no answer" if status == NO_ANSWER else status): n for status, n in bad.items()}
    figures.add("non-2xx answers during the burst", f"{sum(bad.values())}" + (f" {named}" if bad else ""),
                f"{max(WAITERS, plan.burst)} clients long-polling ?wait=30 "
                f"({sum(result.wait_statuses.values())} GETs, {sum(result.post_statuses.values())} POSTs)")

    say("container churn")
    containers, seconds = churn(image, 4, plan.churn_per_thread, sandbox.runtime)
    figures.add("container churn", f"{containers / seconds:.2f} containers/s",
                f"4 parallel bare `docker run`s, {containers} containers, right after the burst")
    containers, seconds = sandbox_churn(image, 4, plan.churn_per_thread, sandbox.runtime)
    figures.add("sandbox-container churn", f"{containers / seconds:.2f} containers/s",
                f"4 threads making and removing sandbox containers (every limit, attached, started) "
                f"as the pool and a run do, {containers} containers, right after")

    after = scrape(service.base)
    judged += result.done
    ours = len(judged)
    verdicts = Counter(d.verdict for d in judged)
    counted = total(after, "judge_verdicts_total") - total(before, "judge_verdicts_total")
    accepted = (total(after, "judge_verdicts_total", verdict="accepted")
                - total(before, "judge_verdicts_total", verdict="accepted"))
    count = total(after, "judge_judge_seconds_count") - total(before, "judge_judge_seconds_count")
    seconds_sum = total(after, "judge_judge_seconds_sum") - total(before, "judge_judge_seconds_sum")
    wait_count = (total(after, "judge_queue_wait_seconds_count")
                  - total(before, "judge_queue_wait_seconds_count"))
    wait_sum = total(after, "judge_queue_wait_seconds_sum") - total(before, "judge_queue_wait_seconds_sum")
    own_mean = statistics.fmean(d.judged for d in judged)
    histogram_mean = seconds_sum / count if count else float("nan")
    figures.add("/metrics: verdicts", f"{counted:.0f} ({accepted:.0f} accepted)",
                f"judge_verdicts_total grew by this; the benchmark received {ours} "
                f"({verdicts.get('accepted', 0)} accepted)")
    figures.add("/metrics: judge time mean", f"{ms(histogram_mean)} over {count:.0f}",
                f"judge_judge_seconds sum/count; the submissions' own finished_at - started_at: "
                f"{ms(own_mean)} over {ours}")
    figures.add("/metrics: queue wait mean", f"{ms(wait_sum / wait_count) if wait_count else '-'}",
                f"judge_queue_wait_seconds sum/count over {wait_count:.0f} claims (a claim that ended "
                f"in no verdict was queued again)")
    failures = {dict(labels).get("reason"): value - before.get((name, labels), 0.0)
                for (name, labels), value in after.items() if name == "judge_sandbox_failures_total"}
    figures.add("/metrics: sandbox failures", f"{sum(failures.values()):.0f}" + (
        f" {({k: int(v) for k, v in failures.items() if v})}" if any(failures.values()) else ""),
                "judge_sandbox_failures_total grew by this")
    depth = {dict(labels).get("queue"): value for (name, labels), value in after.items()
             if name == "judge_queue_depth"}
    source = next((dict(labels).get("source") for (name, labels) in after if name == "judge_queue_depth"),
                  "?")
    figures.add("/metrics: queue depth after", ", ".join(f"{q} {v:.0f}" for q, v in depth.items()),
                f"judge_queue_depth, read from the {source}")
    if not options.url:  # a running judge may have had other traffic meanwhile
        if counted != ours or accepted != verdicts.get("accepted", 0):
            figures.problems.append(f"/metrics counted {counted:.0f} verdicts, the benchmark {ours}")
        if count != ours:
            figures.problems.append(f"the judge-time histogram counted {count:.0f}, the benchmark {ours}")
        # The histogram runs from the claim until the verdict is stored (its rows written and
        # committed), the timestamps from the claim until the verdict's UPDATE: the histogram
        # is longer by the storing, which a burst stretches (by 100 ms here on 2 cores), and
        # never shorter.
        elif not -0.05 <= histogram_mean - own_mean <= max(0.25, 0.5 * own_mean):
            figures.problems.append(f"judge-time means differ: /metrics {histogram_mean:.3f} s, "
                                    f"timestamps {own_mean:.3f} s")
    if any(v != "accepted" for v in verdicts):
        figures.problems.append(f"verdicts other than accepted: {dict(verdicts)}")
    if any(status != 429 for status in bad):  # 429: a learner over its quota, waited out
        figures.problems.append(f"non-2xx answers: {bad}")


if __name__ == "__main__":
    main()
