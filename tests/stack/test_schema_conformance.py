"""The live OpenAPI document against the live server: schemathesis, on a `judge serve` of its
own (SQLite, the embedded broker, real workers), as a learner and as an admin.

Each run generates requests from /openapi.json in three phases (the schema's examples, the
coverage of each bound and enum, then random fuzzing) and fails on any server error (5xx), any
answer outside its documented schema (body or content type), any status code the document
does not list for the operation, and any method a path does not take that is not answered 405
with an Allow naming exactly the path's documented methods. The run is bounded by time
(``RUN_SECONDS`` a role), so the test takes a few minutes whatever the machine.

Two operations are left out because they would end the run's own access: revoking a token
(schemathesis tries id 1, the caller's own) and, for the admin, changing a role (demoting the
admin, or the learner whose token the other run uses).
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from sandbox.docker_runner import DockerSandbox
from service.db.models import Role
from tests.utils.service_fixtures import Serve, make_learners, start_serve

pytestmark = [pytest.mark.slow, pytest.mark.stack]

RUN_SECONDS = 90  # per role: examples and coverage take about half; fuzzing fills the rest
CHECKS = ("not_a_server_error,response_schema_conformance,status_code_conformance,content_type_conformance,"
          "unsupported_method,allow_header_conformance")
LEFT_OUT = {"learner": ["tokens_revoke"], "admin": ["tokens_revoke", "users_role_set"]}


@pytest.fixture(scope="module")
def serve(docker_sandbox: DockerSandbox, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Serve]:
    """A server of this module's own: the runs change accounts, courses and problems."""
    with pytest.MonkeyPatch.context() as patch:
        # An event stream of a submission still queued ends after 2 s instead of minutes, and a
        # ?wait= for a change that never comes answers within 2 s, well inside --request-timeout
        # (schemathesis counts a timed-out request as a runtime error).
        patch.setenv("JUDGE_MAX_STREAM_SECONDS", "2")
        patch.setenv("JUDGE_MAX_WAIT_SECONDS", "2")
        server = start_serve(tmp_path_factory.mktemp("schema-conformance"))
    yield server
    server.stop()


def schemathesis(serve: Serve, token: str, role: str, folder: Path) -> subprocess.CompletedProcess[str]:
    command = [
        str(Path(sys.executable).with_name("st")), "run", f"{serve.base}/openapi.json",
        "--header", f"Authorization: Bearer {token}",
        "--phases", "examples,coverage,fuzzing", "--checks", CHECKS,
        # One worker: with two, Hypothesis parses lambda sources in two threads at once, and
        # CPython 3.11.7's ast module is not thread-safe there ("AST constructor recursion
        # depth mismatch"), which schemathesis reports as a runtime error of its own.
        "--max-examples", "10", "--max-time", str(RUN_SECONDS), "--workers", "1",
        "--request-timeout", "15", "--seed", "21", "--generation-database", "none",
        "--continue-on-failure", "--no-color",
    ]
    for operation in LEFT_OUT[role]:
        command += ["--exclude-operation-id", operation]
    return subprocess.run(command, cwd=folder, capture_output=True, text=True, timeout=RUN_SECONDS + 240)


@pytest.mark.parametrize("role", ["learner", "admin"])
def test_the_server_answers_as_its_schema_says(serve: Serve, role: str, tmp_path: Path) -> None:
    token = serve.learners[0] if role == "learner" else make_learners(serve, 1, "schema-admin", Role.ADMIN)[0]
    run = schemathesis(serve, token, role, tmp_path)
    report = run.stdout + run.stderr
    summary = report[report.rfind("SUMMARY"):] if "SUMMARY" in report else report[-3000:]
    # Exit status 0: every check passed on every generated case, and the schema loaded whole.
    assert run.returncode == 0, f"schemathesis found problems as {role}:\n{report[-20000:]}"
    assert "Tested:" in summary and "generated" in summary, summary
    assert "Server error" not in report and "Undocumented HTTP status" not in report, summary
