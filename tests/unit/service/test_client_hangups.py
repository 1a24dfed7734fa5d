"""A client that hangs up in the middle of its upload: the request ends quietly, logged as the
client's doing in one line (never as a failure of the server with a traceback), and counted
apart in /metrics."""

from __future__ import annotations

import asyncio
import logging

import pytest
from fastapi.testclient import TestClient
from starlette.types import Message

from service import metrics
from tests.utils.service import bearer
from tests.utils.service_fixtures import Tokens


def _hang_up_mid_upload(client: TestClient, path: str, headers: dict[str, str]) -> list[Message]:
    """Call the app as a server would, with a body cut off after its first chunk."""
    app = client.app
    sent: list[Message] = []
    chunks: list[Message] = [
        {"type": "http.request", "body": b'{"problem": "secret_lookup", "code": "', "more_body": True},
        {"type": "http.disconnect"}]

    async def receive() -> Message:
        if chunks:
            return chunks.pop(0)
        await asyncio.sleep(3600)
        raise AssertionError("read after the disconnect")

    async def send(message: Message) -> None:
        sent.append(message)

    raw = [(k.lower().encode(), v.encode()) for k, v in
           {**headers, "content-type": "application/json", "content-length": "100000"}.items()]
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
             "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"",
             "root_path": "", "headers": raw, "client": ("127.0.0.1", 5000), "server": ("testserver", 80)}
    asyncio.run(app(scope, receive, send))  # type: ignore[arg-type]
    return sent


@pytest.mark.parametrize("path", ["/api/v1/submissions", "/api/v1/problems"])
def test_a_hang_up_mid_upload_is_the_clients_doing(client: TestClient, tokens: Tokens, path: str,
                                                   caplog: pytest.LogCaptureFixture) -> None:
    before = _hang_ups(client)
    with caplog.at_level(logging.INFO):
        sent = _hang_up_mid_upload(client, path, bearer(tokens.instructor))
    errors = [r for r in caplog.records if r.levelno >= logging.WARNING or r.exc_info]
    assert not errors, [r.getMessage() for r in errors]
    assert any("the client hung up" in r.getMessage() for r in caplog.records)
    assert not sent  # nobody is left to answer: nothing is sent, least of all a 5xx or a 422
    assert _hang_ups(client) == before + 1


def _hang_ups(client: TestClient) -> float:
    # This process's own count (what /metrics adds up over processes); a scrape here would try
    # the broker, which the in-process layer has not.
    return float(metrics.start().client_disconnects._value.get())
