"""The engine's commands (`judge run`, `judge problems ...`) start without the service: the
installed `judge` (``service.cli``) imports Celery, SQLAlchemy, the accounts and Docker's
client only in the commands that use them, so listing problems costs imports of the engine alone.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

# Top-level packages of the service, and the service's own modules besides the command line.
SERVICE = ("celery", "kombu", "sqlalchemy", "alembic", "fastapi", "starlette", "argon2", "redis",
           "psycopg", "uvicorn")
ALLOWED_SERVICE_MODULES = {"service", "service.cli", "service.roles"}
PROBE = """
import json, sys
from service.cli import app
sys.argv = ["judge", *json.loads(sys.argv[1])]
try:
    app()
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)))
"""


def loaded_by(*args: str) -> set[str]:
    """The modules the installed `judge` had imported once the command was done."""
    done = subprocess.run([sys.executable, "-c", PROBE, json.dumps(args)], capture_output=True,
                          text=True, timeout=120, env={**os.environ})
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stdout.strip().splitlines()[-1]))


def service_modules(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if m.split(".")[0] in SERVICE
                  or (m.startswith("service") and m not in ALLOWED_SERVICE_MODULES))


@pytest.mark.parametrize("args", [("problems", "list"), ("problems", "show", "secret_lookup"),
                                  ("run", "no_such_problem", "solution.py")])
def test_an_engine_command_imports_nothing_of_the_service(args: tuple[str, ...]) -> None:
    loaded = loaded_by(*args)
    assert "judge.problems" in loaded  # the command ran
    assert service_modules(loaded) == []


def test_listing_problems_needs_neither_docker_nor_grading() -> None:
    loaded = loaded_by("problems", "list")
    assert not {"docker", "judge.grading", "judge.validation", "sandbox.docker_runner"} & loaded


def test_a_service_command_still_loads_the_service_it_needs() -> None:
    loaded = loaded_by("users", "create", f"cli-start-{os.getpid()}")
    assert {"sqlalchemy", "service.users", "service.db.session"} <= loaded
