"""The `judge` command as a learner runs it: real processes, the real sandbox."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sandbox.docker_runner import DockerSandbox
from tests.utils.service import REFERENCE


def judge(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "judge.engine_commands", *args], capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, timeout=300)


@pytest.fixture
def solution(tmp_path: Path) -> Path:
    path = tmp_path / "solution.py"
    path.write_text(REFERENCE)
    return path


def test_run_accepted_as_json(docker_sandbox: DockerSandbox, solution: Path) -> None:
    done = judge("run", "secret_lookup", str(solution), "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["verdict"] == "accepted" and report["score"] == 1.0
    assert len(report["problem_version"]) == 16
    public = report["tests"][0]
    assert {"name", "visibility", "status", "expected", "actual_repr", "explanation"} <= set(public)
    # What a learner would see: hidden tests as an aggregate only.
    assert {t["visibility"] for t in report["tests"]} == {"public"}
    assert report["hidden"] == {"total": 3, "passed": 3, "not_run": 0, "first_failure": None}
    full = json.loads(judge("run", "secret_lookup", str(solution), "--json", "--full").stdout)
    assert len(full["tests"]) == 5 and "hidden" not in full


def test_run_wrong_answer_exits_1_and_explains(docker_sandbox: DockerSandbox, tmp_path: Path) -> None:
    path = tmp_path / "wrong.py"
    path.write_text("def lookup(key):\n    return 'zq-secret-101 '\n")
    done = judge("run", "secret_lookup", str(path))
    assert done.returncode == 1
    assert "wrong_answer" in done.stdout
    assert "they differ only in leading or trailing whitespace" in done.stdout
    assert "zq-secret-2" not in done.stdout  # hidden expected values stay hidden


@pytest.mark.parametrize(("env", "words"), [
    ({"JUDGE_WARM_POOL_SIZE": "two"}, "JUDGE_WARM_POOL_SIZE is 'two': it must be a whole number"),
    ({"JUDGE_PROBLEMS_DIR": "/no/such/folder"}, "JUDGE_PROBLEMS_DIR is '/no/such/folder', which is not a folder"),
])
def test_a_bad_setting_exits_2_naming_it(solution: Path, env: dict[str, str], words: str) -> None:
    for args in (("problems", "list"), ("run", "secret_lookup", str(solution))):
        done = judge(*args, env=env)
        assert (done.returncode, done.stderr.strip()) == (2, f"error: {words}"), done.stderr


def test_unknown_problem_and_unreadable_file_exit_2(solution: Path, tmp_path: Path) -> None:
    done = judge("run", "no_such_problem", str(solution))
    assert done.returncode == 2 and "unknown problem 'no_such_problem'; known problems:" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    done = judge("run", "secret_lookup", str(tmp_path / "missing.py"))
    assert done.returncode == 2 and "cannot read" in done.stderr
    (tmp_path / "latin1.py").write_bytes(b"x = '\xe9'\n")
    assert judge("run", "secret_lookup", str(tmp_path / "latin1.py")).returncode == 2


def test_without_a_docker_engine_says_so_in_one_line(solution: Path) -> None:
    done = judge("run", "secret_lookup", str(solution), env={"DOCKER_HOST": "unix:///nonexistent/docker.sock"})
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "no Docker engine answers" in lines[0] and "apt-get install docker.io" in lines[0]


def test_problems_list_show_and_validate(docker_sandbox: DockerSandbox) -> None:
    listed = judge("problems", "list")
    assert listed.returncode == 0 and "secret_lookup" in listed.stdout
    shown = judge("problems", "show", "secret_lookup")
    assert shown.returncode == 0 and "def lookup(key: str) -> str" in shown.stdout
    assert "zq-secret-2" not in shown.stdout and "and 3 hidden tests" in shown.stdout
    validated = judge("problems", "validate", "secret_lookup")
    assert validated.returncode == 0, validated.stdout + validated.stderr
    assert "ok secret_lookup (2 wrong solutions)" in validated.stdout


def test_validate_names_a_failure(docker_sandbox: DockerSandbox, tmp_path: Path) -> None:
    import shutil

    from tests.conftest import FIXTURES

    root = tmp_path / "problems"
    shutil.copytree(FIXTURES / "problems" / "secret_lookup", root / "secret_lookup")
    (root / "secret_lookup" / "wrong" / "guess.py").write_text(
        "# verdict: runtime_error\ndef lookup(key):\n    return 'zq-secret-' + key\n")
    done = judge("problems", "validate", env={"JUDGE_PROBLEMS_DIR": str(root)})
    assert done.returncode == 1
    assert "wrong/guess.py got wrong_answer, declared runtime_error" in done.stdout
