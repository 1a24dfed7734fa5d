"""The FastAPI application: it only wires routers, error handlers and start-up together."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from anyio import to_thread
from fastapi import APIRouter, FastAPI

from api import errors
from api.body_limit import BodyLimit
from api.request_ids import RequestIds
from api.routes import health, problems, submissions, web
from judge.service.bootstrap import prepare_database
from judge.settings import get_settings


@asynccontextmanager
async def lifespan(_: FastAPI) -> AsyncIterator[None]:
    prepare_database()  # migrations, then the problems/ folders: idempotent on every start
    # Blocking work (the routes' queries and shaping) runs in threads that share one GIL with the
    # event loop. anyio's default of 40 such threads, all busy when many waiting clients wake at
    # once, leaves the loop a 1-in-41 turn: /healthz then takes hundreds of milliseconds. A few
    # threads are as fast for this work (the database pool is small anyway) and keep it prompt.
    to_thread.current_default_thread_limiter().total_tokens = get_settings().api_threads
    yield


def create_app() -> FastAPI:
    app = FastAPI(
        title="Metrics judge",
        summary="Judge for exercises that implement text-evaluation metrics",
        version="1.0",
        lifespan=lifespan,
    )
    v1 = APIRouter(prefix="/api/v1")
    v1.include_router(submissions.router)
    v1.include_router(problems.router)
    app.include_router(v1)
    app.include_router(health.router)
    app.include_router(web.router)
    errors.install(app)
    # Room for a problem archive; a submission's own code limit (JUDGE_MAX_CODE_BYTES) is smaller.
    app.add_middleware(BodyLimit, cap=get_settings().max_request_bytes)
    app.add_middleware(RequestIds)  # outermost of ours: every failure below it becomes JSON
    return app


app = create_app()
