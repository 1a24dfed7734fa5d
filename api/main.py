"""The FastAPI application: it only wires routers, error handlers and start-up together."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import APIRouter, FastAPI

from api import errors, openapi, priority
from api.body_limit import BodyLimit
from api.html_errors import HtmlErrors
from api.method_check import MethodCheck
from api.request_ids import RequestIds, unhandled
from api.routes import (
    accounts,
    assignments,
    courses,
    deliveries,
    docs,
    excuses,
    feedback,
    health,
    insight,
    lti,
    lti_protocol,
    me,
    metrics,
    problems,
    similarity,
    submission_batches,
    submissions,
    tracks,
    users,
    web,
)
from service import metrics as service_metrics
from service.bootstrap import prepare_database
from service.heap import freeze_start_up_objects
from service.settings import get_settings


@asynccontextmanager
async def lifespan(_: FastAPI) -> AsyncIterator[None]:
    service_metrics.start()  # before any request records one (idempotent: `judge serve` did already)
    prepare_database()  # migrations, then the problems/ folders: idempotent on every start
    # The event loop waits for the GIL whenever route threads hold it; a shorter hand-over
    # interval (5 ms by default) bounds how long a quick answer such as /healthz waits.
    sys.setswitchinterval(0.001)
    priority.raise_to(get_settings().api_niceness)
    freeze_start_up_objects()
    yield


def create_app() -> FastAPI:
    app = FastAPI(
        title="Metrics judge",
        summary="Judge for exercises that implement text-evaluation metrics",
        version="1.0",
        lifespan=lifespan,
        docs_url=None,  # api.routes.docs serves both pages from this origin
        redoc_url=None,
    )
    v1 = APIRouter(prefix="/api/v1")
    v1.include_router(submissions.router)
    v1.include_router(submission_batches.router)
    v1.include_router(deliveries.router)
    v1.include_router(problems.router)
    v1.include_router(tracks.router)
    v1.include_router(me.router)
    v1.include_router(accounts.router)
    v1.include_router(users.router)
    v1.include_router(courses.router)
    v1.include_router(assignments.router)
    v1.include_router(excuses.router)
    v1.include_router(feedback.router)
    v1.include_router(insight.router)
    v1.include_router(similarity.router)
    v1.include_router(lti.router)
    app.include_router(v1)
    app.include_router(health.router)
    app.include_router(metrics.router)
    app.include_router(web.router)
    app.include_router(lti_protocol.router)
    app.include_router(docs.router)
    errors.install(app)
    openapi.install(app)  # operationIds and the error model on every route
    # Innermost: a fixed path's own methods before Starlette hands it to a route with a parameter.
    app.add_middleware(MethodCheck)
    # Room for a problem archive; a submission's own code limit (JUDGE_MAX_CODE_BYTES) is smaller.
    app.add_middleware(BodyLimit, cap=get_settings().max_request_bytes)
    app.add_middleware(RequestIds)  # every failure below it becomes JSON
    # A failure above it (in a middleware outside) reaches Starlette's outermost middleware,
    # whose handler answers the same JSON 500 with the request id instead of plain text.
    app.add_exception_handler(Exception, unhandled)
    app.add_middleware(HtmlErrors)  # outermost: a browser asking for a page gets that JSON as HTML
    return app


app = create_app()
