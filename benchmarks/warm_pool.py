"""Benchmark: judging with cold containers vs warm ones (sandbox.warm_pool), in one run.

Judges a problem's reference N times each way, interleaved so that both see the same machine:

- cold: the container is created, attached and started for each submission (pool size 0);
- warm: taken from a pool of --size containers made ahead, the pool refilled between
  submissions (submissions that arrive with a pause, as most do);
- warm, back to back: no pause. The pool makes nothing while a run is in progress, so it refills
  only in the gaps (here the host's checking of the previous run's results); a container made in
  a gap may overlap the next run, and with gaps too short the pool runs dry and submissions take
  the cold path (today's cost, without competing for the CPU).

    python benchmarks/warm_pool.py [--problem bleu_1gram] [--runs 20] [--size 2] [--public-only]
"""

from __future__ import annotations

import argparse
import statistics
import time

from judge.engine_settings import engine_settings
from judge.grading import grade
from judge.problems import Problem, find_problem
from judge.results import Verdict
from judge.sandboxes import docker_sandbox
from sandbox.docker_runner import DockerSandbox


def judge_once(problem: Problem, sandbox: DockerSandbox, public_only: bool = False) -> float:
    started = time.perf_counter()
    report = grade(problem, problem.reference, sandbox, include_hidden=not public_only)
    elapsed = time.perf_counter() - started
    assert report.verdict is Verdict.ACCEPTED, report.message
    return elapsed


def line(label: str, times: list[float]) -> str:
    return (f"  {label:<28} median {statistics.median(times) * 1000:7.1f} ms "
            f"(min {min(times) * 1000:.1f}, max {max(times) * 1000:.1f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--problem", default="bleu_1gram")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--size", type=int, default=2)
    parser.add_argument("--public-only", action="store_true", help="a Run (public tests), not a Submit")
    options = parser.parse_args()
    public_only: bool = options.public_only
    problem = find_problem(engine_settings().problems_dir, options.problem)
    cold = docker_sandbox(print)
    warm = DockerSandbox(cold.image, cold.client, cold.runtime, warm_pool_size=options.size)
    assert warm.pool is not None
    try:
        warm.prime()
        assert warm.pool.wait_filled(120), "the pool did not fill"
        judge_once(problem, cold)  # the engine's caches, once
        cold_times, warm_times = [], []
        for _ in range(options.runs):
            cold_times.append(judge_once(problem, cold, public_only))
            assert warm.pool.wait_filled(120)
            warm_times.append(judge_once(problem, warm, public_only))
        assert warm.pool.wait_filled(120)
        before = warm.warm_runs
        burst = [judge_once(problem, warm, public_only) for _ in range(options.runs)]
        served_warm = warm.warm_runs - before
    finally:
        warm.close()
    tests = len(problem.tests(include_hidden=not public_only))
    print(f"problem {problem.slug}: {tests} tests, {options.runs} runs each, pool size {options.size}")
    print(line("cold container:", cold_times))
    print(line("warm container:", warm_times))
    print(line("warm, back to back:", burst) + f", {served_warm} of {options.runs} warm")
    cold_median, warm_median = statistics.median(cold_times), statistics.median(warm_times)
    print(f"  saved per submission: {(cold_median - warm_median) * 1000:.0f} ms "
          f"({cold_median / warm_median:.1f}x)")


if __name__ == "__main__":
    main()
