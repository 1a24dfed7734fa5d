"""Benchmark: a learner's run on an idle judge, and while two slow drafts are being validated.

    python benchmarks/validation_isolation.py [--runs 10] [--kind sleep|spin] [--validation-concurrency 1]

``judge serve`` (the embedded default: SQLite, its private redis-server, a judging worker of two
slots and the validation worker) on a data folder of its own. A learner runs bleu_1gram's
reference (``mode: run``, its public tests) ``--runs`` times, one after another with a pause of
half a second, first on the idle judge; then an instructor uploads two drafts of bleu_1gram whose
reference sleeps (``--kind sleep``, as in the issue) or spins the CPU (``--kind spin``) for 0.4 s
in each of its 68 tests, so that each validation lasts about a minute, and the learner runs again
as many times while they go on. Prints the median and the worst of each series (POST to the
verdict, through HTTP), the ratio of the medians, and that both drafts were still being
validated when the last run finished (else the second series did not measure what it names).
The target is a ratio within 1.5.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from e2e_http import PROBLEM, Service, bearer, make_backend, say, start_serve

ROOT = Path(__file__).resolve().parent.parent
PER_TEST = 0.4  # seconds the draft's reference sleeps (or spins) in each test
PAUSE = 0.5  # between one run's verdict and the next run
TARGET = 1.5
DOING = {"sleep": "sleeping", "spin": "spinning"}
SPIN = f"_start = _time.perf_counter()\n    while _time.perf_counter() - _start < {PER_TEST}:\n        pass"


def slow_draft(slug: str, kind: str) -> dict[str, str]:
    """bleu_1gram's files under another slug, its reference slowed down in every call."""
    folder = ROOT / "problems" / PROBLEM
    files = {p.relative_to(folder).as_posix(): p.read_text() for p in folder.rglob("*")
             if p.is_file() and "__pycache__" not in p.parts}
    files["problem.toml"] = files["problem.toml"].replace(f'"{PROBLEM}"', f'"{slug}"', 1)
    wait = f"_time.sleep({PER_TEST})" if kind == "sleep" else SPIN
    files["reference.py"] += (f"\n\nimport time as _time\n_fast = {PROBLEM}\n\n\n"
                              f"def {PROBLEM}(*args, **kwargs):\n    {wait}\n"
                              "    return _fast(*args, **kwargs)\n")
    return files


def run_once(http: httpx.Client, token: str, code: str) -> float:
    started = time.perf_counter()
    response = http.post("/api/v1/submissions", headers=bearer(token),
                         json={"problem": PROBLEM, "code": code, "mode": "run"})
    if response.status_code != 202:
        raise RuntimeError(f"POST answered {response.status_code}: {response.text[:300]}")
    submission = response.json()["id"]
    while True:
        body = http.get(f"/api/v1/submissions/{submission}", params={"wait": 30},
                        headers=bearer(token)).json()
        if body["status"] == "done":
            if body["verdict"] != "accepted":
                raise RuntimeError(f"the learner's run got {body['verdict']}")
            return time.perf_counter() - started


def series(http: httpx.Client, token: str, code: str, count: int) -> list[float]:
    seconds = []
    for index in range(count):
        if index:
            time.sleep(PAUSE)
        seconds.append(run_once(http, token, code))
    return seconds


def statuses(http: httpx.Client, token: str, slugs: list[str]) -> list[str]:
    return [http.get(f"/api/v1/problems/{slug}/versions", headers=bearer(token)).json()[-1]["status"]
            for slug in slugs]


def measure(service: Service, author: str,
            options: argparse.Namespace) -> tuple[list[float], list[float], list[str]]:
    code = (ROOT / "problems" / PROBLEM / "reference.py").read_text()
    learner = service.tokens[0]
    with httpx.Client(base_url=service.base, timeout=60) as http:
        run_once(http, learner, code)  # the first run of a fresh worker loads the version
        say("idle")
        idle = series(http, learner, code, options.runs)
        slugs = [f"slow_{uuid.uuid4().hex[:6]}_{n}" for n in range(2)]
        for slug in slugs:
            response = http.post("/api/v1/problems", headers=bearer(author),
                                 json={"slug": slug, "files": slow_draft(slug, options.kind)})
            if response.status_code != 201:
                raise RuntimeError(f"the upload answered {response.status_code}: {response.text[:300]}")
        time.sleep(3)  # the validation worker has started on them
        say(f"with two {DOING[options.kind]} validations")
        busy = series(http, learner, code, options.runs)
        return idle, busy, statuses(http, author, slugs)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=10, help="learner's runs in each series")
    parser.add_argument("--kind", choices=["sleep", "spin"], default="sleep",
                        help="what the drafts' reference does in each test")
    parser.add_argument("--validation-concurrency", type=int, default=1,
                        help="JUDGE_VALIDATION_CONCURRENCY of the judge measured")
    options = parser.parse_args()
    load_before = os.getloadavg()[0]
    data = Path(tempfile.mkdtemp(prefix="judge-bench-"))
    backend = make_backend("embedded", data)
    os.environ.update(backend.env, JUDGE_VALIDATION_CONCURRENCY=str(options.validation_concurrency))
    service = None
    try:
        service = start_serve(data, 1, 2)
        from service.db.models import Role
        from service.db.session import session_scope
        from service.users import create_user

        with session_scope() as session:
            author = create_user(session, f"bench-author-{uuid.uuid4().hex[:6]}", Role.INSTRUCTOR)[1]
        idle, busy, still = measure(service, author, options)
    finally:
        if service is not None:
            service.stop()
        backend.cleanup()
        shutil.rmtree(data, ignore_errors=True)
    ratio = statistics.median(busy) / statistics.median(idle)
    print(f"\n{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {os.cpu_count()} cores, {backend.name}, judging "
          f"worker 2 slots, validation worker {options.validation_concurrency}; load average "
          f"{load_before:.1f} before, {os.getloadavg()[0]:.1f} after\n")
    print("| series | median | worst | runs |\n|---|---|---|---|")
    for name, values in (("idle", idle), (f"two {DOING[options.kind]} validations", busy)):
        print(f"| {name} | {statistics.median(values) * 1000:.0f} ms | {max(values) * 1000:.0f} ms "
              f"| {len(values)} |")
    print(f"\nratio of the medians: {ratio:.2f} (target: at most {TARGET}); the drafts after the "
          f"last run: {', '.join(still)}")
    if any(status != "draft" for status in still):
        print("CHECK FAILED: a validation ended before the last run; the series is not what it names")
        sys.exit(1)


if __name__ == "__main__":
    main()
