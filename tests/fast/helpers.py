"""Small helpers for the fast layer's HTTP tests."""

from __future__ import annotations

import json
from typing import Any

import httpx
from fastapi.testclient import TestClient

from tests.utils.service import bearer

SUBMISSIONS = "/api/v1/submissions"
WRONG = "def lookup(key):\n    return 'zq-secret-1O1'\n"  # a letter O for a zero: wrong everywhere


def error(response: httpx.Response, status: int, code: str | None = None) -> str:
    """Assert the status and the JSON error shape {"error": {"code", "message"}}; the message."""
    assert response.status_code == status, f"{response.status_code} {response.text[:500]}"
    assert response.headers["content-type"].startswith("application/json"), response.headers
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}, body
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    if code is not None:
        assert body["error"]["code"] == code, body
    return str(body["error"]["message"])


def post_json(client: TestClient, token: str, body: object, raw: bool = False,
              **headers: str) -> httpx.Response:
    content = body if raw else json.dumps(body)
    return client.post(SUBMISSIONS, headers={**bearer(token), "Content-Type": "application/json", **headers},
                       content=content)  # type: ignore[arg-type]


def read(client: TestClient, token: str, submission_id: int, **params: Any) -> httpx.Response:
    return client.get(f"{SUBMISSIONS}/{submission_id}", headers=bearer(token), params=params)
