"""Benchmark: what the sandbox costs per submission.

Judges a problem's reference N times through the real Docker sandbox and runs the same tests N
times in plain Python (no container, no isolation), then prints both medians and their ratio.

    python benchmarks/judge_overhead.py [--problem bleu_1gram] [--runs 20]
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import time
from pathlib import Path

from judge.engine_settings import engine_settings
from judge.grading import grade
from judge.problems import Problem, find_problem
from judge.results import Verdict
from judge.sandboxes import docker_sandbox


def plain_python_once(problem: Problem, folder: Path) -> float:
    spec = importlib.util.spec_from_file_location("reference", folder / "reference.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    started = time.perf_counter()
    spec.loader.exec_module(module)
    function = getattr(module, problem.function)
    for test in problem.tests():
        if test.raises:
            continue
        value = function(*test.args, **test.kwargs)
        assert problem.checker.check(test.expected, value) is None, test.name
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--problem", default="bleu_1gram")
    parser.add_argument("--runs", type=int, default=20)
    options = parser.parse_args()
    root = engine_settings().problems_dir
    problem = find_problem(root, options.problem)
    sandbox = docker_sandbox(print)
    grade(problem, problem.reference, sandbox)  # warm the engine's caches once
    judged = []
    for _ in range(options.runs):
        started = time.perf_counter()
        report = grade(problem, problem.reference, sandbox)
        judged.append(time.perf_counter() - started)
        assert report.verdict is Verdict.ACCEPTED, report.message
    plain = [plain_python_once(problem, root / problem.slug) for _ in range(options.runs)]
    tests = len(problem.tests())
    sandboxed, direct = statistics.median(judged), statistics.median(plain)
    print(f"problem {problem.slug}: {tests} tests, {options.runs} runs each")
    print(f"  judged in the Docker sandbox: median {sandboxed * 1000:8.1f} ms per submission "
          f"(min {min(judged) * 1000:.1f}, max {max(judged) * 1000:.1f})")
    print(f"  plain Python, no container:   median {direct * 1000:8.1f} ms per submission")
    print(f"  ratio: {sandboxed / direct:.1f}x")


if __name__ == "__main__":
    main()
