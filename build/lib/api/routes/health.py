"""Liveness and readiness."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from sqlalchemy import text

from api.schemas.health import Live, Ready
from sandbox.docker_runner import connect
from service import heartbeats
from service.celery_app import celery
from service.db.session import get_engine, new_session
from service.settings import get_settings

router = APIRouter(tags=["health"])


@router.get("/healthz", response_model=Live)
async def healthz() -> Live:
    """The process is up. On the event loop itself: it answers even when every thread is busy."""
    return Live(status="ok")


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


def _workers() -> None:
    seconds = get_settings().ready_heartbeat_seconds
    with new_session() as session:
        if not heartbeats.recent(session, seconds):
            raise LookupError(f"no heartbeat in the last {seconds:g} s")


def _pool() -> dict[str, object]:
    """The API's database connections, to tell an exhausted pool from a slow database."""
    pool = get_engine().pool
    state: dict[str, object] = {"status": pool.status()}
    for name in ("size", "checkedout", "overflow"):
        probe = getattr(pool, name, None)
        if callable(probe):
            state["checked_out" if name == "checkedout" else name] = probe()
    return state


@router.get("/readyz", response_model=Ready, responses={
    503: {"model": Ready, "description": "not ready: `problems` says what is unreachable"}})
def readyz() -> JSONResponse:
    """Database, broker and Docker engine reachable, and a worker that wrote a heartbeat lately."""
    database = _check("database", _database)
    checks = [database, _check("broker", _broker)]
    if get_settings().ready_needs_docker:
        checks.append(_check("docker", connect))
    if not database:  # without the database, whether workers beat is unknown
        checks.append(_check("worker", _workers))
    problems = [p for p in checks if p]
    body: dict[str, object] = {"status": "not ready" if problems else "ready", "database_pool": _pool()}
    if problems:
        return JSONResponse({**body, "problems": problems}, 503)
    return JSONResponse(body)
