"""Benchmark: where a worker's time goes for one submission, outside the container and inside it.

Runs the worker's own step (``jobs.judge_submission``: claim, load the version, grade, store the
verdict and every test's row) N times on a throw-away embedded database, with the real Docker
sandbox, and splits each step into the sandbox's run (container and tests) and the rest. With
``--profile`` it also prints cProfile's top entries for the rest.

    python benchmarks/worker_step.py [--problem bleu_1gram] [--runs 20] [--profile]
                                     [--backend embedded|postgres]

``--backend postgres`` uses a throw-away database on 127.0.0.1:5432 (trust auth), dropped after.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import statistics
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PG_ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres"


class TimedSandbox:
    """The configured sandbox, with the time spent in each run recorded."""

    def __init__(self, inner: object) -> None:
        self.inner = inner
        self.seconds: list[float] = []

    def run(self, payload: object) -> object:
        started = time.perf_counter()
        try:
            return self.inner.run(payload)  # type: ignore[attr-defined]
        finally:
            self.seconds.append(time.perf_counter() - started)

    def check(self) -> None:
        self.inner.check()  # type: ignore[attr-defined]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--problem", default="bleu_1gram")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--backend", choices=("embedded", "postgres"), default="embedded")
    args = parser.parse_args()
    data = tempfile.mkdtemp(prefix="judge-bench-")
    database = ""
    if args.backend == "postgres":
        import psycopg

        name = f"judge_step_{uuid.uuid4().hex[:10]}"
        with psycopg.connect(PG_ADMIN_URL, autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{name}"')
        database = f"postgresql+psycopg://postgres@127.0.0.1:5432/{name}"
    os.environ.update({"JUDGE_DATA_DIR": data, "JUDGE_DATABASE_URL": database,
                       "JUDGE_LEARNER_QUEUE_QUOTA": str(args.runs + 1)})
    try:
        measure(args)
    finally:
        if database:
            from service.db.session import get_engine

            get_engine().dispose()
            with psycopg.connect(PG_ADMIN_URL, autocommit=True) as connection:
                connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def measure(args: argparse.Namespace) -> None:

    from judge.sandboxes import docker_sandbox
    from service import jobs
    from service.bootstrap import prepare_database
    from service.db.models import Role
    from service.db.session import new_session
    from service.submissions import Mode, create_submission
    from service.users import create_user

    prepare_database()
    reference = (ROOT / "problems" / args.problem / "reference.py").read_text(encoding="utf-8")
    sandbox = TimedSandbox(docker_sandbox())
    with new_session() as session:
        user, _ = create_user(session, "bench", Role.LEARNER)
        session.commit()
    profiler = cProfile.Profile() if args.profile else None
    totals: list[float] = []
    for index in range(args.runs + 1):  # the first warms the caches and is left out
        with new_session() as session:
            submission, _ = create_submission(session, user, args.problem, reference + f"\n# {index}\n",
                                              Mode.SUBMIT, None)
            started = time.perf_counter()
            if profiler and index:
                profiler.enable()
            outcome = jobs.judge_submission(session, submission.id, lambda: sandbox)  # type: ignore[arg-type,return-value]
            if profiler:
                profiler.disable()
            totals.append(time.perf_counter() - started)
            session.refresh(submission)
            assert outcome is jobs.JobResult.DONE, (outcome, submission.message)
            assert submission.verdict == "accepted", (submission.verdict, submission.message)
    totals, runs = totals[1:], sandbox.seconds[1:]
    rest = [t - r for t, r in zip(totals, runs, strict=True)]
    where = "PostgreSQL" if args.backend == "postgres" else "SQLite"
    print(f"problem {args.problem}: {args.runs} worker steps (claim, load, grade, store) on {where}")
    print(f"  whole step:            median {statistics.median(totals) * 1000:7.1f} ms")
    print(f"  sandbox run:           median {statistics.median(runs) * 1000:7.1f} ms "
          "(container start, code load, every test)")
    print(f"  the rest (the worker): median {statistics.median(rest) * 1000:7.1f} ms "
          "(claim, version, static checks, checking, store)")
    if profiler:
        stats = pstats.Stats(profiler).sort_stats("cumulative")
        print("\ncProfile, cumulative, our code only:")
        stats.print_stats(r"(judge|sandbox)/(?!.*site-packages)", 25)


if __name__ == "__main__":
    main()
