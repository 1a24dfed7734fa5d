"""Benchmark: what hostile solutions make a submission store, and how long judging them takes.

Runs the worker's own step (``jobs.judge_submission``: claim, grade in the real Docker sandbox,
store every test's row) for each case below on a throw-away embedded database, then prints per
case: the verdict, the step's seconds against the problem's wall clock, the bytes the database
holds of the submission's tests (their JSON text), the bytes of the learner's GET body and of
the owner's, and the worker's peak memory so far. Last, a learner's worst case: the queue quota
(5 submissions waiting or running at once) times the largest per-submission figure.

    python benchmarks/stored_results.py [--quick]

``--quick`` leaves out the 60,000-entry dict (a minute of judging).
"""

from __future__ import annotations

import argparse
import os
import resource
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SHAPE = "def code_shape_check(source, fn, arity, require=None, forbid=None):\n"
BLEU = "def bleu_1gram(reference, candidate):\n"
CASES = [
    ("bleu_1gram", "the reference (honest)", None),
    ("bleu_1gram", "1 MB random text per test, 8 KB printed",
     "import os\n" + BLEU + "    print(os.urandom(4000).hex())\n    return os.urandom(500_000).hex()\n"),
    ("bleu_1gram", "4 MB string per test", BLEU + "    return 'y' * 4_000_000\n"),
    ("code_shape_check", "the reference (honest)", None),
    ("code_shape_check", "600,000-character string per test", SHAPE + "    return 'x' * 600_000\n"),
    ("code_shape_check", "nested 500 deep, 40,000-character keys",
     SHAPE + "    value = {'parses': True}\n    for depth in range(500):\n"
     "        value = {'parses': [value], 'k' * 40_000 + str(depth): (depth,)}\n    return value\n"),
    ("code_shape_check", "60,000-entry dict per test",
     SHAPE + "    return {str(i): i for i in range(60_000)}\n"),
    ("lcs_length", "the reference (honest; the largest inputs)", None),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    data = tempfile.mkdtemp(prefix="judge-bench-")
    os.environ.update({"JUDGE_DATA_DIR": data, "JUDGE_DATABASE_URL": "",
                       "JUDGE_PROBLEMS_DIR": str(ROOT / "problems"), "JUDGE_LEARNER_QUEUE_QUOTA": "100"})

    from sqlalchemy import select, text

    from api.presenters import submission_detail
    from judge.grading import sandbox_limits
    from judge.sandboxes import docker_sandbox
    from judge.stored_values import RESULTS_BUDGET_BYTES, SHOWN_CHARS
    from service import jobs
    from service.bootstrap import prepare_database
    from service.catalog import load_version
    from service.db.models import ProblemRow, Role, Submission
    from service.db.session import new_session
    from service.settings import Settings
    from service.submissions import Mode, create_submission
    from service.users import create_user

    prepare_database()
    sandbox = docker_sandbox()
    with new_session() as session:
        learner, _ = create_user(session, "bench-learner", Role.LEARNER)
        owner, _ = create_user(session, "bench-admin", Role.ADMIN)  # sees every test, as an owner does
        session.commit()
    print(f"shown value: {SHOWN_CHARS:,} characters; budget: {RESULTS_BUDGET_BYTES // 1024} KiB of "
          "values' text, printed output and explanations per submission\n")
    print("| problem | solution | verdict | step s | wall s | stored bytes | learner GET | owner GET "
          "| peak MB |")
    print("|---|---|---|---|---|---|---|---|---|")
    largest = 0
    for slug, what, code in CASES:
        if args.quick and "60,000" in what:
            continue
        code = code or (ROOT / "problems" / slug / "reference.py").read_text(encoding="utf-8")
        with new_session() as session:
            submission, _ = create_submission(session, learner, slug, code, Mode.SUBMIT, None)
            started = time.perf_counter()
            outcome = jobs.judge_submission(session, submission.id, lambda: sandbox)
            seconds = time.perf_counter() - started
            row = session.get(Submission, submission.id, populate_existing=True)
            assert row is not None and outcome is jobs.JobResult.DONE, (outcome, row and row.message)
            stored = session.execute(text(
                "SELECT coalesce(sum(length(CAST(data AS BLOB))), 0) FROM test_results "
                "WHERE submission_id = :id"), {"id": row.id}).scalar() or 0
            problem = session.scalar(select(ProblemRow).where(ProblemRow.slug == slug))
            assert problem is not None and problem.published_version is not None
            loaded = load_version(problem.published_version)
            wall = sandbox_limits(loaded, len(loaded.tests())).time_per_submission
            learner_get = len(submission_detail(row, learner).model_dump_json())
            owner_get = len(submission_detail(row, owner).model_dump_json())
            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            largest = max(largest, int(stored))
            print(f"| {slug} | {what} | {row.verdict} | {seconds:.1f} | {wall:g} | {int(stored):,} | "
                  f"{learner_get:,} | {owner_get:,} | {peak:.0f} |")
    quota = Settings.model_fields["learner_queue_quota"].default  # this run raised its own
    print(f"\na learner's worst case at once: {quota} submissions x {largest:,} bytes = "
          f"{quota * largest / 2**20:.2f} MiB")


if __name__ == "__main__":
    main()
