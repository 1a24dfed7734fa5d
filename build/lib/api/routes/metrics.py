"""GET /metrics: the Prometheus text format (``service.metrics``).

No token: a scraper is not a user of the judge, and what it reads is aggregate (counts per
verdict and queue, durations, pool sizes), never code, names, problems or submissions. Keep the
port from the open internet, or put the path behind the proxy's own access rule, as with any
exporter.
"""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import Response

from service import metrics as service_metrics

router = APIRouter(prefix="/metrics", tags=["health"])


@router.get("", response_class=Response, responses={200: {
    "description": "the Prometheus text exposition format",
    "content": {"text/plain": {"schema": {"type": "string"}}}}})
def metrics() -> Response:
    """Every worker's and API process's values added up, and the queue depths read now. A plain
    ``def``: reading the broker or the database runs in a thread, never on the event loop."""
    return Response(service_metrics.exposition(), media_type=service_metrics.CONTENT_TYPE)
