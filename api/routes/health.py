"""Liveness and readiness."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from sqlalchemy import text

from judge.celery_app import celery
from judge.db.session import new_session
from judge.settings import get_settings
from sandbox.docker_runner import connect

router = APIRouter(tags=["health"])


@router.get("/healthz")
def healthz() -> dict[str, str]:
    """The process is up."""
    return {"status": "ok"}


def _check(name: str, probe: object) -> str:
    try:
        probe()  # type: ignore[operator]
    except Exception as exc:
        return f"{name}: {str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__}"
    return ""


def _database() -> None:
    with new_session() as session:
        session.execute(text("SELECT 1"))


def _broker() -> None:
    with celery.connection_for_write() as connection:
        connection.ensure_connection(max_retries=1, timeout=3)


@router.get("/readyz")
def readyz() -> JSONResponse:
    """Database, broker and Docker engine all reachable."""
    checks = [_check("database", _database), _check("broker", _broker)]
    if get_settings().ready_needs_docker:
        checks.append(_check("docker", connect))
    problems = [p for p in checks if p]
    if problems:
        return JSONResponse({"status": "not ready", "problems": problems}, 503)
    return JSONResponse({"status": "ready"})
